#!/usr/bin/env bash
# Mutation testing with mutmut (make mutation): each module's mutants run against the test
# files written for it (GAMMON_MUTATION_TESTS, read by tests/conftest.py), niced, one module
# after another, with a progress log.  Results are kept in mutants/ (rerunning resumes).
# The configuration (files to mutate; pytest_add_cli_args_test_selection: the test files whose
# coverage maps tests to mutants, so every file named below must be listed there too) is
# [tool.mutmut] in pyproject.toml.
#
#   scripts/mutation.sh              every module below, one after another
#   scripts/mutation.sh game seats   only the named targets (names as in TARGETS)
#   ONLY='PATTERN...' scripts/mutation.sh game   the target's tests on these mutant name
#                                    patterns only (a function changed since the last run)
# mutmut runs through scripts/mutmut_properties.py, which mutates @property methods too.
# MUTMUT_CHILDREN (default 2) sets mutmut's --max-children; NICE (default 10) its niceness.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
LOG=mutants/progress.log
mkdir -p mutants

# target name -> "comma-separated test files|mutant name patterns (space-separated)"
# target name -> "comma-separated test files|mutant name patterns (space-separated)".
# game, position and notation run on the functions that carry the rules (game: permissions,
# the cube, scoring; position: a checker step and the legal plays; notation: reading a play, its scanner included),
# as the whole modules are too large for one session on two shared cores; the rest run whole.
# game_rest, position_rest and notation_rest are the rest of those three modules (every function the
# targets above leave out), so that together they cover each module whole.
declare -A TARGETS=(
    [dice]="test_dice,test_fair_dice|gammon.core.dice* gammon.core.fair_dice*"
    [match]="test_crawford_jacoby,test_game_rules,test_match_flow,test_timeout,test_match_state,test_core_api|gammon.core.match.*"
    [seats]="test_service_seats,test_web_hint_levels|gammon.web.service.live.xǁLiveGameǁseat_of_* gammon.web.service.live.xǁLiveGameǁto_act_* gammon.web.service.views.x_allowed_actions_* gammon.web.service.games.xǁGameServiceǁ_seat_* gammon.web.service.games.xǁGameServiceǁ_act_* gammon.web.service.games.xǁGameServiceǁhint_* gammon.web.service.records.x_hint_request_*"
    [record]="test_record_dice,test_record_json|gammon.formats.record_json.x_verify_dice*"
    [met]="test_ai_met,test_met_documented,test_met_model,test_met_no_window|gammon.ai.met*"
    [match_id]="test_match_id|gammon.core.match_id*"
    [position_id]="test_rules,test_errors,test_notation,test_core_api|gammon.core.position_id*"
    [notation]="test_notation,test_notation_chains|gammon.core.notation.x_parse_play_* gammon.core.notation.x__parse_pass_* gammon.core.notation.x__read_* gammon.core.notation.xǁ_Readerǁ*"
    [game]="test_game_rules,test_rules,test_crawford_jacoby,test_core_api,test_timeout,test_game_flow,test_game_built,test_game_cube_limit|gammon.core.game.xǁGameǁallowed_actions_* gammon.core.game.xǁGameǁ_double_refusal_* gammon.core.game.xǁGameǁ_beaver_refusal_* gammon.core.game.xǁGameǁcan_double_* gammon.core.game.xǁGameǁcan_beaver_* gammon.core.transitions.x__answerer_* gammon.core.game.xǁGameǁpoints_for_* gammon.core.transitions.x__finish_* gammon.core.transitions.x__need_* gammon.core.transitions.x_on_double_* gammon.core.transitions.x_on_take_* gammon.core.transitions.x_on_drop_* gammon.core.transitions.x_on_resign_*"
    [position]="test_rules,test_game_rules,test_core_api,test_position_more,test_vectors|gammon.core.position.xǁPositionǁapply_step_* gammon.core.position.xǁPositionǁstep_problem_* gammon.core.position.xǁPositionǁlegal_plays_* gammon.core.position.xǁPositionǁswap_* gammon.core.position.x_check_dice_*"
    [position_props]="test_position_basics|gammon.core.position.xǁPositionǁpip_counts_* gammon.core.position.xǁPositionǁcheckers_off_* gammon.core.position.xǁPositionǁbar_* gammon.core.position.xǁPositionǁis_game_over_* gammon.core.position.xǁPositionǁoutcome_* gammon.core.position.xǁPositionǁpool_* gammon.core.position.xǁPositionǁme_* gammon.core.position.xǁPositionǁopp_*"
    [position_basics]="test_position_basics|gammon.core.position.xǁPositionǁpip_counts_* gammon.core.position.xǁPositionǁcheckers_off_* gammon.core.position.xǁPositionǁbar_* gammon.core.position.xǁPositionǁswap_* gammon.core.position.xǁPositionǁis_game_over_* gammon.core.position.xǁPositionǁoutcome_* gammon.core.position.xǁPositionǁstep_problem_* gammon.core.position.xǁPositionǁapply_step_* gammon.core.position.x_check_dice_*"
    [game_rest]="test_game_rules,test_rules,test_crawford_jacoby,test_core_api,test_timeout,test_match_flow,test_match_state,test_rule_texts,test_xgid,test_match_id,test_record_actions,test_game_flow,test_game_built,test_game_ids,test_game_cube_limit|gammon.core.game.xǁDiceSourceǁroll_* gammon.core.game.xǁGameǁ__init___* gammon.core.game.xǁGameǁ_state_problem_* gammon.core.game.xǁGameǁfrom_xgid_* gammon.core.game.xǁGameǁfrom_ids_* gammon.core.game.xǁGameǁis_over_* gammon.core.game.xǁGameǁaceydeucey_pending_* gammon.core.game.xǁGameǁplayer_to_act_* gammon.core.game.xǁGameǁlegal_plays_* gammon.core.game.xǁGameǁapply_* gammon.core.game.xǁGameǁroll_* gammon.core.game.xǁGameǁplay_* gammon.core.game.xǁGameǁdouble_* gammon.core.game.xǁGameǁtake_* gammon.core.game.xǁGameǁdrop_* gammon.core.game.xǁGameǁbeaver_* gammon.core.game.xǁGameǁresign_* gammon.core.game.xǁGameǁaccept_resignation_* gammon.core.game.xǁGameǁreject_resignation_* gammon.core.game.xǁGameǁchoose_double_* gammon.core.game.xǁGameǁreplay_* gammon.core.transitions.x__draw_* gammon.core.transitions.x_on_roll_* gammon.core.transitions.x__opening_roll_* gammon.core.transitions.x__start_move_* gammon.core.transitions.x__resolve_play_* gammon.core.transitions.x_on_move_* gammon.core.transitions.x__after_play_* gammon.core.transitions.x_on_choose_double_* gammon.core.transitions.x_on_beaver_* gammon.core.transitions.x_on_accept_* gammon.core.transitions.x_on_reject_* gammon.core.transitions.x_on_timeout_* gammon.core.game.xǁGameǁsnapshot_* gammon.core.game.xǁGameǁ__repr___*"
    [position_rest]="test_position_more,test_rules,test_game_rules,test_core_api,test_vectors,test_position_basics,test_step_refusal,test_rule_texts,test_xgid,test_errors,test_notation|gammon.core.position.x__buffers_* gammon.core.position.x__pool_after_* gammon.core.position.x__pool_entries_* gammon.core.position.xǁPositionǁlegal_plays_* gammon.core.position.xǁLegalPlaysǁ* gammon.core.position.xǁPositionǁ__new___* gammon.core.position.xǁPositionǁ_make_* gammon.core.position.xǁPositionǁ__setattr___* gammon.core.position.xǁPositionǁinitial_* gammon.core.position.xǁPositionǁfrom_position_id_* gammon.core.position.xǁPositionǁfrom_xgid_* gammon.core.position.xǁPositionǁxgid_state_* gammon.core.position.xǁPositionǁ_checked_* gammon.core.position.xǁPositionǁvariant_* gammon.core.position.xǁPositionǁboard_* gammon.core.position.xǁPositionǁposition_id_* gammon.core.position.xǁPositionǁxgid_* gammon.core.position.xǁPositionǁgenerator_flags_* gammon.core.position.xǁPositionǁstep_tree_* gammon.core.position.xǁPositionǁstep_fault_* gammon.core.position.xǁPositionǁapply_steps_* gammon.core.position.xǁPositionǁafter_* gammon.core.position.xǁPositionǁparse_play_* gammon.core.position.xǁPositionǁ__eq___* gammon.core.position.xǁPositionǁ__ne___* gammon.core.position.xǁPositionǁ__hash___* gammon.core.position.xǁPositionǁ__repr___* gammon.core.position.xǁPositionǁ__bool___* gammon.core.position.xǁPositionǁ__len___* gammon.core.position.xǁPositionǁ__iter___* gammon.core.position.xǁPositionǁ__getitem___* gammon.core.position.xǁPositionǁ__contains___* gammon.core.position.xǁPositionǁ__add___* gammon.core.position.xǁPositionǁ__mul___* gammon.core.position.xǁPositionǁ__lt___* gammon.core.position.xǁPositionǁ__reduce___*"
    [xgid]="test_xgid,test_xgid_fields,test_xgid_more,test_xgid_strict,test_core_api,test_game_rules|gammon.core.xgid*"
    [notation_rest]="test_notation,test_notation_matching|gammon.core.notation.x__walks_* gammon.core.notation.x__landings_* gammon.core.notation.x__fits_* gammon.core.notation.x__find_board_*"
)
ORDER=(dice match seats record met match_id position_id notation game position position_basics game_rest position_rest notation_rest xgid)

run() {  # target name: all its patterns in one mutmut run
    local spec=${TARGETS[$1]:?unknown target $1 (one of: ${ORDER[*]})}
    local tests=${spec%%|*}
    local -a patterns
    read -r -a patterns <<<"${ONLY:-${spec#*|}}"
    echo "$(date -u +%T) start $1: ${#patterns[@]} pattern(s) against $tests" | tee -a "$LOG"
    GAMMON_MUTATION_TESTS=$tests nice -n "${NICE:-10}" "$BIN/python" scripts/mutmut_properties.py run \
        --max-children "${MUTMUT_CHILDREN:-2}" "${patterns[@]}" >"mutants/run-$1.log" 2>&1 \
        || echo "mutmut exited $? (see mutants/run-$1.log)" | tee -a "$LOG"
    # the run's last lines without the spinner: the counts, or why it stopped
    tr '\r' '\n' <"mutants/run-$1.log" | grep -v 'Generating\|Running \|Listing' | tail -n 4 >>"$LOG" || true
    # keep the results: the next target's run selects other tests, and mutmut then forgets them
    "$BIN/python" benchmarks/mutation_report.py --snapshot "mutants/snapshots/$(date -u +%Y%m%dT%H%M%S)-$1.json" \
        | tee -a "$LOG" || true
    echo "$(date -u +%T) done  $1" | tee -a "$LOG"
}

if [ $# -eq 0 ]; then set -- "${ORDER[@]}"; fi
for target in "$@"; do run "$target"; done
echo "$(date -u +%T) all done: $*" | tee -a "$LOG"
