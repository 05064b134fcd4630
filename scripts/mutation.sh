#!/usr/bin/env bash
# Mutation testing with mutmut (make mutation): each module's mutants run against the test
# files written for it (GAMMON_MUTATION_TESTS, read by tests/conftest.py), niced, one module
# after another, with a progress log.  Results are kept in mutants/ (rerunning resumes).
# The configuration (files to mutate; pytest_add_cli_args_test_selection: the test files whose
# coverage maps tests to mutants, so every file named below must be listed there too) is
# [tool.mutmut] in pyproject.toml.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.venv/bin}
LOG=mutants/progress.log
mkdir -p mutants

run() {  # comma-separated test files, then mutant name patterns
    local tests=$1
    shift
    for pattern in "$@"; do
        echo "$(date -u +%T) start $pattern against $tests" | tee -a "$LOG"
        GAMMON_MUTATION_TESTS=$tests nice -n 5 "$BIN/mutmut" run "$pattern" >mutants/last-run.log 2>&1 \
            || echo "mutmut exited $? (see mutants/last-run.log)" | tee -a "$LOG"
        echo "$(date -u +%T) done  $pattern" | tee -a "$LOG"
    done
}

run test_dice,test_fair_dice "gammon.core.dice*"
run test_crawford_jacoby,test_game_rules,test_match_flow "gammon.core.match*"
run test_service_seats \
    "gammon.web.service.xǁLiveGameǁseat_of*" "gammon.web.service.xǁLiveGameǁto_act*" \
    "gammon.web.service.x__allowed*" "gammon.web.service.xǁGameServiceǁ_seat_*" \
    "gammon.web.service.xǁGameServiceǁ_act_*" "gammon.web.service.xǁGameServiceǁhint*"
run test_record_dice,test_record_json "gammon.formats.record_json.x_verify_dice*"
run test_ai_met,test_met_documented "gammon.ai.met*"
run test_match_id "gammon.formats.match_id*"
run test_rules,test_errors,test_notation "gammon.formats.position_id*"
run test_notation "gammon.formats.notation*"
run test_game_rules,test_rules,test_crawford_jacoby "gammon.core.game*"
run test_rules,test_game_rules,test_properties "gammon.core.position*"
echo "$(date -u +%T) all done" | tee -a "$LOG"
