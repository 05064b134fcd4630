"""Summarise a mutation-testing run (``make mutation``) as a table per module.

Reads mutmut's results under ``mutants/`` (``*.py.meta``: one exit code per mutant) and
prints, per module and per group of functions named in GROUPS, how many mutants were
killed, survived, timed out, had no test or were not run, with the kill rate over the
mutants that were run, and the surviving mutants by name (``mutmut show NAME`` shows
each one's change).

    python benchmarks/mutation_report.py [--out benchmarks/results/mutation.md]
        [--raw benchmarks/results/mutation_raw.json]
"""

from __future__ import annotations

import argparse
import fnmatch
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants" / "src"
#: Results kept after each target's run (``--snapshot``; scripts/mutation.sh): local, not committed.
SNAPSHOTS = ROOT / "mutants" / "snapshots"
RESULTS = ROOT / "benchmarks" / "results"

#: mutmut's exit codes (mutmut/stats.py): 1 and 3 killed, 0 survived, 33/5 no tests.
STATUS = {-1: "killed (earlier run)", -2: "survived (earlier run)", -3: "timeout (earlier run)",
          1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
          34: "skipped",
          35: "suspicious", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          37: "caught by type check", -11: "segfault", -9: "segfault", None: "not run"}

#: Parts of a module reported on their own (the issue's targets): name -> function patterns.
GROUPS = {
    "gammon.core.fair_dice: verification": [
        "gammon.core.fair_dice.x_verify_rolls_*", "gammon.core.fair_dice.x_derive_roll_*",
        "gammon.core.fair_dice.x_commitment_for_*", "gammon.core.fair_dice.x__fmt_*"],
    "gammon.web.service: seat checks": [
        "gammon.web.service.live.xǁLiveGameǁseat_of_*", "gammon.web.service.live.xǁLiveGameǁto_act_*",
        "gammon.web.service.views.x_allowed_actions_*", "gammon.web.service.base.xǁServiceBaseǁ_seat_*",
        "gammon.web.service.games.xǁGameServiceǁ_act_*", "gammon.web.service.games.xǁGameServiceǁhint_*",
        "gammon.web.service.records.x_hint_request_*"],
    "gammon.formats.record_json: verify_dice": ["gammon.formats.record_json.x_verify_dice_*"],
    # the functions run of the modules too large for one session (scripts/mutation.sh)
    "gammon.core.game: permissions, cube, scoring": [
        *(f"gammon.core.game.xǁGameǁ{f}_*" for f in (
            "allowed_actions", "_double_refusal", "_beaver_refusal", "can_double", "can_beaver", "points_for")),
        # the handlers, in their own module since issue 34
        *(f"gammon.core.transitions.x_{f}_*" for f in (
            "_answerer", "_finish", "_need", "on_double", "on_take", "on_drop", "on_resign"))],
    "gammon.core.position: a step and the legal plays": [
        *(f"gammon.core.position.xǁPositionǁ{f}_*"
          for f in ("apply_step", "step_problem", "legal_plays", "swap")),
        "gammon.core.position.x_check_dice_*"],
    "gammon.core.position: one step and the dice (step_problem, apply_step, check_dice)": [
        "gammon.core.position.xǁPositionǁstep_problem_*", "gammon.core.position.xǁPositionǁapply_step_*",
        "gammon.core.position.x_check_dice_*"],
    "gammon.core.notation: reading a play (parse_play, the pass, the scanner)": [
        "gammon.core.notation.x_parse_play_*", "gammon.core.notation.x__parse_pass_*",
        "gammon.core.notation.x__read_*", "gammon.core.notation.xǁ_Readerǁ*"],
}


_NOTATION_AT = ("an error at None is at the reader's place, which is still the point's offset "
                "(it moves on only once the point is read)")
_NOTATION_SHOWN = "the pass text of `shown` is never shown: a play with no segments returns before"

#: Survivors that cannot change behaviour, each with the reason.
EQUIVALENT = {
    "gammon.core.fair_dice.x_derive_roll__mutmut_8": "int.to_bytes(8) is big-endian by default (Python 3.11+)",
    "gammon.core.fair_dice.x_derive_roll__mutmut_26": "int.to_bytes(8) is big-endian by default (Python 3.11+)",
    "gammon.core.fair_dice.x_verify_rolls__mutmut_21": "'ASCII' and 'ascii' name the same codec",
    "gammon.core.fair_dice.x_verify_rolls__mutmut_29": "'UTF-8' and 'utf-8' name the same codec",
    "gammon.core.fair_dice.xǁCryptoDiceǁ__init____mutmut_3": "secrets.token_bytes(None) also gives 32 bytes",
    "gammon.web.service.live.xǁLiveGameǁto_act__mutmut_1":
        "the stored status and the match's end change together ('finished' exactly when is_over, "
        "the timeout included), and 'waiting' only at the opening, where nobody in particular acts",
    "gammon.web.service.views.x_allowed_actions__mutmut_10":
        "every caller passes who=lg.to_act(): past the status checks it is None only at an opening "
        "or between games, where 'roll' is right either way",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_1": "every caller of _act passes want_view itself",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_24":
        "status 'finished' is stored exactly when the match is over (is_over), so 'or' and 'and' agree",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_25":
        "status 'finished' is stored exactly when the match is over: is_over alone decides",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_27":
        "status 'finished' is stored exactly when the match is over: is_over alone decides",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_71":
        "ConflictError's code None keeps the class's code, 'illegal_action'",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_73":
        "ConflictError's default code is 'illegal_action'",
    "gammon.core.match_id.x_encode_match_id__mutmut_34":
        "the Jacoby bit is the last field: a wider field puts the same bit in the same place",
    "gammon.core.match_id.x_encode_match_id__mutmut_54": "'ASCII' and 'ascii' name the same codec",
    "gammon.core.match_id.x_decode_match_id__mutmut_31":
        "twelve characters that passed the alphabet check always decode, validated or not",
    "gammon.core.match_id.x_decode_match_id__mutmut_32":
        "unreachable: the alphabet check before it catches every character base64 would refuse",
    "gammon.core.match_id.x_decode_match_id__mutmut_95":
        "the bit after the Jacoby bit is padding, already checked to be 0 (key >> 67)",
    "gammon.web.service.games.xǁGameServiceǁ_act__mutmut_28":
        "status 'finished' is stored exactly when the match is over: is_over alone decides",
    "gammon.ai.met.xǁMatchEquityTableǁafter_post__mutmut_3": "crawford=None is as false as False",
    "gammon.ai.met.xǁMatchEquityTableǁafter_post__mutmut_6": "equity's crawford defaults to False",
    "gammon.ai.met.xǁMatchEquityTableǁmwc_to_emg__mutmut_14":
        "a win and a loss exactly 1e-12 apart in MWC do not occur (the guard is for equal ends)",
    **{f"gammon.ai.met.xǁCubeModelǁ{f}__mutmut_{n}":
       "a cache: without it (or with None stored) the point is solved again, to the same value"
       for f, n in (("cash_point0", 1), ("cash_point0", 2), ("cash_point0", 20), ("take_point0", 1),
                    ("take_point0", 2), ("take_point0", 20))},
    "gammon.ai.met.xǁCubeModelǁcash_point0__mutmut_12": "clamp=None is as false as False",
    "gammon.ai.met.xǁCubeModelǁtake_point0__mutmut_12": "clamp=None is as false as False",
    "gammon.ai.met.xǁCubeModelǁcentered__mutmut_32":
        "a cash point exactly 1e-9 above the take point does not occur (the guard is for equal points)",
    "gammon.ai.met.xǁCubeModelǁ_solve__mutmut_8":
        "a rise of exactly 1e-12 does not occur (the guard is for a flat line)",
    **{f"gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_{n}":
       "the Crawford table's entries 0 and 1 are never read: after() and equity() answer a side 0 or "
       "fewer away, and 1-away against 1-away (1/2), before looking; the list is read only from 2 on"
       for n in (84, 85, 86, 88, 91)},
    **{f"gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_{n}":
       "the pre-Crawford table's first value is never read: every entry from 2-away/2-away up is "
       "computed (in order of a + b) before it is read, and entries below 2-away are not read"
       for n in (116, 118, 121)},
    **{f"gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_{n}":
       "unreachable: after(1, 1) is never asked (the pre-Crawford table starts at 2-away each and a game "
       "moves one side only), and for b > 1 the branch is the same; c[1] is 1/2 anyway"
       for n in (133, 136, 138)},
    **{f"gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_{n}":
       "the totals added or dropped hold no pair with both sides 2..max_away, except 2-away/2-away "
       "(total 4), which is 1/2 by symmetry, the value the table starts with"
       for n in (143, 145, 148, 149)},
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_165":
        "the extra pairs (b below 2, negative b wrapping to the end of a row) are written before their "
        "own total comes, where they are computed again before any read",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_39":
        "tv(0) reads t[0], which is 1.0, as tv gives for k < 0",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_43":
        "the formula gives t[0] = t[1] = 1/2 (a win and a drop are worth 1 below 2-away; the mean of q is "
        "1/2): t[1] is 1/2 anyway and t[0] is never read (tv gives 1.0 at 0)",
    **{f"gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_{n}":
       "the Crawford table's entries 0 and 1 (and one past the end) are never read; c[1] is set to 1/2 "
       "after this and c[2..] are computed before any read" for n in (78, 80, 81, 82, 83)},
    "gammon.ai.met.x_default_met__mutmut_12":
        "with no table yet, best 0 or 1 are both below the smallest size built (25)",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_6":
        "every entry of T from 2 on is computed before it is read; T(1) is set to 1/2",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_8":
        "a longer list: the extra entry is never read",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_9":
        "T(0) is never read (a side 0 or fewer away has won: tv() gives 1 without the list)",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_10":
        "T(1) is set to 1/2 right after, whatever the table size (max_away >= 1)",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_11":
        "T(0) is never read (a side 0 or fewer away has won: tv() gives 1 without the list)",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_12":
        "with max_away 1, T(1) is never read (1-away/1-away is 1/2 before any lookup)",
    "gammon.ai.met.xǁMatchEquityTableǁ_build__mutmut_13":
        "with max_away 1, T(1) is never read (1-away/1-away is 1/2 before any lookup)",
    "gammon.web.service.records.x_hint_request__mutmut_22":
        "'between' matters only when nobody in particular is to act, and then only 'roll' is ever "
        "allowed: 'play' is absent either way",
    "gammon.core.position_id.x_encode_position_id__mutmut_3":
        "an eleventh key byte is zero and only its first bits reach the 14th character, as padding",
    "gammon.core.position_id.x_encode_position_id__mutmut_25": "'ASCII' and 'ascii' name the same codec",
    "gammon.core.game.xǁGameǁ_beaver_refusal__mutmut_10":
        "apply reaches this refusal only while a double or beaver waits; elsewhere only can_beaver "
        "asks, and it keeps only whether there is a refusal",
    "gammon.core.game.xǁGameǁ_beaver_refusal__mutmut_11":
        "apply reaches this refusal only while a double or beaver waits; elsewhere only can_beaver "
        "asks, and it keeps only whether there is a refusal",
    "gammon.core.game.xǁGameǁ_beaver_refusal__mutmut_12":
        "apply reaches this refusal only while a double or beaver waits; elsewhere only can_beaver "
        "asks, and it keeps only whether there is a refusal",
    **{f"gammon.core.game.xǁGameǁ_beaver_refusal__mutmut_{n}":
       "apply reaches this refusal only while a double or beaver waits; elsewhere only can_beaver "
       "asks, and it keeps only whether there is a refusal" for n in (13, 14, 15)},
    "gammon.core.game.xǁGameǁallowed_actions__mutmut_17":
        "in the roll phase who is the player on roll, which is can_double's default",
    "gammon.core.game.xǁGameǁallowed_actions__mutmut_25":
        "while a double waits who is the player doubled, which is can_beaver's default",
    **{f"gammon.core.game.xǁGameǁallowed_actions__mutmut_{n}":
       "the list is still empty when this branch adds to it: '=' and '+=' agree" for n in (21, 33, 41)},
    "gammon.core.game.xǁGameǁpoints_for__mutmut_1":
        "the loser's checkers count only in Acey-Deucey, which counts at least one: 0 and 1 agree",
    "gammon.core.transitions.x_on_drop__mutmut_21": "Event's data defaults to an empty dict",
    "gammon.core.position_id.x_decode_position_id__mutmut_21":
        "fourteen characters that passed the alphabet check always decode, validated or not",
    "gammon.core.position_id.x_decode_position_id__mutmut_24":
        "fourteen characters that passed the alphabet check always decode, validated or not",
    "gammon.core.position_id.x_decode_position_id__mutmut_15":
        "fourteen characters cannot hold all 64 of the alphabet: subset and proper subset agree",
    "gammon.core.position_id.x_decode_position_id__mutmut_25":
        "unreachable: the alphabet check before it catches every character base64 would refuse",
    "gammon.core.position.xǁPositionǁapply_step__mutmut_22":
        "reached only with a checker on the bar equal to the pool count, so that count is 1 or more anyway",
    "gammon.core.position.xǁPositionǁoutcome__mutmut_15":
        "the extra byte is the winner's 1-point, empty: the game is over as the winner has no checker left",
    "gammon.core.position.xǁPositionǁoutcome__mutmut_21":
        "the loser's row has 25 counts: a slice to 26 ends at 25 all the same",
    "gammon.core.position.xǁPositionǁstep_problem__mutmut_15":
        "to_point < from_point <= 25 already keeps to_point <= 24",
    "gammon.core.position.xǁPositionǁstep_problem__mutmut_57":
        "a checker on the 1-point already makes any(b[0:6]) true: the sum is not looked at",
    **{f"gammon.core.notation.x__find_board__mutmut_{n}":
       "LegalPlays now keeps its boards as a list of bytes, never one bytes object: _find_board always "
       "takes the search over positions, so the packed search (and whether _boards is looked up) "
       "changes nothing" for n in (1, 2, 6, 7, 8, *range(16, 35))},
    "gammon.core.notation.x__chains__mutmut_6":
        "the pair is not in the counter yet (checked the line before): its count is 0, so '= 1' is '+= 1'",
    "gammon.core.notation.xǁ_Readerǁ__init____mutmut_1": "the only caller passes start itself",
    "gammon.core.notation.xǁ_Readerǁpeek__mutmut_4":
        "past the end peek gives 'XXXX' for '': every caller compares it with one character, which neither is",
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_22": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_24": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_30": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_32": _NOTATION_AT,
    "gammon.core.notation.x_parse_play__mutmut_30": _NOTATION_SHOWN,
    "gammon.core.notation.x_parse_play__mutmut_31": _NOTATION_SHOWN,
    "gammon.core.match.xǁMatchǁreplay__mutmut_5": "Match's dice default to None",
    **{f"gammon.core.match.xǁMatchǁ__init____mutmut_{n}":
       "read only by _crawford_due() in '_crawford_due() and not post_crawford', where post_crawford "
       "alone decides when it is true; set again from the flags a few lines on" for n in (36, 37)},
    **{f"gammon.core.match.xǁMatchǁ__init____mutmut_{n}":
       "a game built without dice gets the match's dice a few lines on (game.dice is None)" for n in (67, 71)},
    **{f"gammon.core.match.xǁMatchǁ{f}__mutmut_{n}":
       "the game is built without dice, and Match gives a game without dice the match's own"
       for f, n in (("from_xgid", 4), ("from_xgid", 8), ("from_ids", 5), ("from_ids", 9))},
    "gammon.core.match.xǁMatchǁapply__mutmut_47": "a game has a result exactly when it is over",
    **{f"gammon.core.match.xǁMatchǁ_around__mutmut_{n}":
       "with a game given, a crawford_game of None (the default) is the game's own flag" for n in (18, 25)},
    "gammon.core.match.xǁMatchǁapply__mutmut_86": "Event's data defaults to an empty dict",
    "gammon.core.match.xǁMatchǁwinner__mutmut_12":
        "equal scores return None the line before: '>' and '>=' differ only there",
    **{f"gammon.core.match.xǁMatchǁsnapshot__mutmut_{n}":
       "a snapshot's keys are read nowhere: it is only compared whole with another snapshot, "
       "whose key is renamed alike" for n in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 15, 16)},
}


#: Surviving mutants that are not equivalent, with what they change and why no test kills them.
OPEN: dict[str, str] = {
    "gammon.ai.met.xǁCubeModelǁcentered__mutmut_31":
        "`cp + tp` for `cp - tp` in the guard for a cash point not above the take point (the live cube "
        "is then no better than the dead one): they differ only where cp <= tp with cp + tp >= 1e-9, "
        "which no table or cube model the tests build reaches; not shown unreachable, so not counted "
        "as equivalent",
    "gammon.core.notation.x__read__mutmut_37":
        "`r.i = 1` for `r.i += 1` after a comma: an endless loop, stopped by hand after 2.5 minutes "
        "(mutmut's own timeout did not end it); a timeout in substance, counted here as not killed",
    "gammon.core.notation.x__chains__mutmut_8":
        "a written chain not among the single moves (24/13 for 24/18/13) counts 2 instead of 1: it "
        "matters only where the text writes that chain twice and another play shares two written "
        "segments, which the tests do not build",
}

#: More equivalent survivors, with their reasons, kept as data beside this script
#: (``mutation_equivalents.json``: mutant name -> reason); they override the entries above.
EQUIVALENT.update(json.loads((Path(__file__).with_name("mutation_equivalents.json")).read_text(encoding="utf-8")))

#: Earlier runs whose results are not stored mutant by mutant, of code that has not changed
#: since (``git diff COMMIT -- FILE`` shows nothing in the functions run): shown where this
#: snapshot did not run the module or group again.
#: label -> (mutants, killed, survived, of them equivalent, commit of the run).
PREVIOUS = {
    "gammon.core.dice": (411, 406, 5, 5, "7bc1bc9"),
    "gammon.core.fair_dice: verification": (128, 124, 4, 4, "7bc1bc9"),
    "gammon.formats.record_json: verify_dice": (44, 44, 0, 0, "7bc1bc9"),
}

#: Earlier runs whose results are stored in the repository: (commit holding the raw file, the
#: raw file, commit of the code that was mutated then).  A mutant not run in this worktree's
#: ``mutants/`` keeps its stored result when its function is the same now as in that code
#: (same syntax tree, same number of mutants), since no test has been removed; the latest run
#: wins.  Results of changed functions are dropped: those mutants count as not run.
EARLIER = [
    # the MET entries stored as "killed (earlier run)" there were killed at 7bc1bc9, whose
    # met.py is 9943334's
    ("9943334", "benchmarks/results/mutation_raw.json", "9943334"),
    ("0d06622", "benchmarks/results/mutation_notation_raw.json", "f458283"),
    ("9bbe13f", "benchmarks/results/mutation_position_raw.json", "5cbeeed"),
    # the snapshot of the session before (match whole, MET, position's properties, notation)
    ("697f5de", "benchmarks/results/mutation_raw.json", "3b6c802"),
    # this session's snapshot: game, position, notation and xgid whole, seat checks, the MET
    ("37d3aa0", "benchmarks/results/mutation_raw.json", "4fdf477"),
    ("2325247", "benchmarks/results/mutation_raw.json", "89d4105"),
]
#: Results carried from earlier runs get this code (``STATUS``).
CARRIED_KILL = -1
CARRIED_SURVIVED = -2
CARRIED_TIMEOUT = -3
_CARRY = {"killed": CARRIED_KILL, "killed (earlier run)": CARRIED_KILL, "survived": CARRIED_SURVIVED,
          "timeout": CARRIED_TIMEOUT, "caught by type check": CARRIED_KILL,
          "suspicious": CARRIED_SURVIVED}  # counted as a survivor (not killed), as the report does


def _git(*args: str) -> str | None:
    import subprocess

    try:
        out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout


def _module_path(module: str) -> str:
    return "src/" + module.replace(".", "/") + ".py"


def function_trees(source: str) -> dict[str, str]:
    """mutmut's key of each function (``x_name``, ``xǁClassǁname``) -> its syntax tree, dumped."""
    import ast

    trees: dict[str, str] = {}

    def visit(body: list[ast.stmt], cls: str | None) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                key = f"xǁ{cls}ǁ{node.name}" if cls else f"x_{node.name}"
                trees[key] = ast.dump(node, annotate_fields=False)
            elif isinstance(node, ast.ClassDef) and cls is None:
                visit(node.body, node.name)

    try:
        visit(ast.parse(source).body, None)
    except SyntaxError:
        return {}
    return trees


def function_of(name: str) -> str:
    """``gammon.core.game.xǁGameǁapply__mutmut_3`` -> ``xǁGameǁapply``."""
    return name[len(module_of(name)) + 1:].rsplit("__mutmut_", 1)[0]


def carried(current: dict[str, int | None]) -> dict[str, str]:
    """The stored results that still hold for mutants not run here: name -> commit of the code."""
    out: dict[str, tuple[int, str]] = {}
    now_trees: dict[str, dict[str, str]] = {}
    counts = Counter(module_of(n) + "." + function_of(n) for n in current)

    def take(stored: dict[str, str], source_then: Callable[[str], str], label: str) -> None:
        """Carry ``stored``'s results whose function is the same now as in ``source_then(module)``."""
        stored_counts = Counter(module_of(n) + "." + function_of(n) for n in stored)
        then_trees: dict[str, dict[str, str]] = {}
        for name, status in stored.items():
            if name not in current or current[name] is not None or status not in _CARRY:
                continue
            module, func = module_of(name), function_of(name)
            if module not in now_trees:
                path = ROOT / _module_path(module)
                now_trees[module] = function_trees(path.read_text(encoding="utf-8")) if path.exists() else {}
            if module not in then_trees:
                then_trees[module] = function_trees(source_then(module))
            now = now_trees[module].get(func)
            # every mutant of the function was stored (run) or the counts agree: same numbering
            if now is not None and now == then_trees[module].get(func) and \
                    stored_counts[f"{module}.{func}"] <= counts[f"{module}.{func}"]:
                out[name] = (_CARRY[status], label)

    for stored_at, raw_path, code_at in EARLIER:
        text = _git("show", f"{stored_at}:{raw_path}")
        if text is not None:
            take(json.loads(text), lambda m, at=code_at: _git("show", f"{at}:{_module_path(m)}") or "", code_at)
    for snap in sorted(SNAPSHOTS.glob("*.json")):  # this worktree's own earlier runs, oldest first
        data = json.loads(snap.read_text(encoding="utf-8"))
        take(data["results"], lambda m, src=data["sources"]: src.get(m, ""), f"snapshot {snap.stem}")
    for name, (code, _) in out.items():
        current[name] = code
    return {name: at for name, (_, at) in out.items()}


def save_snapshot(path: Path) -> int:
    """Keep the results mutmut holds now in ``mutants/`` (with the mutated modules' sources), so
    that a later run, whose new test selection makes mutmut forget them, does not lose them:
    :func:`carried` takes them back where the function is unchanged.  Returns how many."""
    results = {n: STATUS.get(c, "suspicious") for n, c in load(with_earlier=False).items() if c is not None}
    modules = sorted({module_of(n) for n in results})
    sources = {m: (ROOT / _module_path(m)).read_text(encoding="utf-8") for m in modules
               if (ROOT / _module_path(m)).exists()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"results": results, "sources": sources}, ensure_ascii=False), encoding="utf-8")
    return len(results)


def load(with_earlier: bool = True) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        out.update(data.get("exit_code_by_key", {}))
    if with_earlier:
        carried(out)
    return out


def module_of(name: str) -> str:
    for mark in (".x_", ".xǁ"):  # not ".x" alone: a module may be called xgid
        if mark in name:
            return name.split(mark, 1)[0]
    return name.rsplit(".", 1)[0]


CAUGHT = {"killed", "killed (earlier run)", "timeout", "timeout (earlier run)", "caught by type check"}
SURVIVED = {"survived", "survived (earlier run)", "suspicious"}
EARLIER_STATUS = {"killed (earlier run)", "survived (earlier run)", "timeout (earlier run)"}


def row(label: str, codes: dict[str, int | None]) -> tuple[str, list[str]]:
    c = Counter(STATUS.get(code, "suspicious") for code in codes.values())
    if c["not run"] == len(codes) and label in PREVIOUS:
        total, killed, survived, equivalent, commit = PREVIOUS[label]
        ran = killed + survived
        return f"{label} (run at `{commit}`, unchanged since)", [
            str(total), str(killed), str(survived), str(equivalent), "0", "0", str(ran),
            f"{100 * killed / ran:.1f}%", f"{100 * (killed + equivalent) / ran:.1f}%"]
    caught = sum(c[s] for s in CAUGHT)
    survived = sum(c[s] for s in SURVIVED)
    run = caught + survived
    earlier = sum(c[s] for s in EARLIER_STATUS)
    equivalent = sum(1 for n, code in codes.items() if STATUS.get(code) in SURVIVED and n in EQUIVALENT)
    rate = f"{100 * caught / run:.1f}%" if run else "-"
    rate2 = f"{100 * (caught + equivalent) / run:.1f}%" if run else "-"
    cells = [len(codes), caught, survived, equivalent, c["no tests"], c["not run"], earlier]
    return label, [*map(str, cells), rate, rate2]


HEADER = """# Mutation testing

Made by `make mutation` (mutmut 3 through `scripts/mutmut_properties.py`, which mutates
`@property` methods too; `scripts/mutation.sh`; this table by `benchmarks/mutation_report.py`).
Each module's mutants run against the test files written for that module (listed in
`scripts/mutation.sh`), not the whole suite.  "killed" counts killed and timed-out mutants;
"killed of run" is over the mutants that were run; "not run" mutants were not reached (the
run is long on two shared cores; see what ran below); "killed or equivalent" adds the
survivors judged equivalent (listed below with the reason).  "from earlier runs": results
stored by an earlier run (`EARLIER` in the script) of a function whose code is the same now
(same syntax tree), kept rather than run again; a function changed since has its mutants run
again or counted as not run.

Source snapshot: commit `{commit}`.  Run one module at a time with
`scripts/mutation.sh TARGET...` (targets named there), then this report.

{notes}

"""

#: What this snapshot ran (free text, written by whoever ran it).
NOTES = """What this snapshot ran (mutmut 3.8.1 through the wrapper, two workers, niced, on two
shared cores; each target's results kept in a local snapshot after its run, see
`scripts/mutation.sh`):

- `gammon.core.game`, the whole module (`game` and `game_rest`: moves, the opening throw, the
  Acey-Deucey bonus, beavers, resignations, time, building a game from keywords, XGID and IDs,
  `snapshot`, `replay`, `repr`, and the action wrappers), against the game tests and the new
  `test_game_flow`, `test_game_built`, `test_game_ids` and `test_game_cube_limit`.
- `gammon.core.position`, the whole module (`position`, `position_basics`, `position_rest`:
  `legal_plays`, `LegalPlays`, the value protocol, Acey-Deucey's pool, the step codes) against
  the rule tests, the shared vectors and the new `test_position_more`.
- `gammon.core.notation`, the whole module (`notation`, `notation_rest`: the matching helpers
  `_walks`, `_landings`, `_fits`, `_find_board` too) against `test_notation` and the new
  `test_notation_matching`.
- `gammon.core.xgid`, first mutated here, against `test_xgid` and the new `test_xgid_fields`,
  `test_xgid_more` and `test_xgid_strict`.
- The web service's seat checks (changed for hints at the game's level) against
  `test_service_seats` and `test_web_hint_levels`; the MET against its three test files.
- Kept from earlier runs (functions unchanged since; see "from earlier runs"): `gammon.core.match`,
  `match_id`, `position_id`, position's properties; dice and `verify_dice` (earlier run, not
  stored mutant by mutant, row as then).
- Not run (counted as "not run" above): `record_json` beyond `verify_dice`, and the web modules
  beyond the seat checks (not among the modules the issue names)."""

#: Free text after the generated lists (the runs, survivors that are not equivalent explained).
TAIL = """Earlier runs whose results are kept where the function is unchanged (`EARLIER` in the
script): `mutation_raw.json` as stored at `9943334` (seat checks, game's rule functions,
match_id, position_id, and the MET's run, part of it killed at `7bc1bc9`), notation's reading
of a play (branch mut2, code at `f458283`, against `tests/test_notation.py`; raw results in
`mutation_notation_raw.json`), position's single step and dice (branch mut2, code at `5cbeeed`,
against `tests/test_position_basics.py`; `mutation_position_raw.json`).  `mutation_raw.json`
now holds this snapshot's merged results ("... (earlier run)" marks a kept result)."""


def _commit() -> str:
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                             text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def report() -> str:
    results = load()
    by_module: dict[str, list[str]] = defaultdict(list)
    for name in results:
        by_module[module_of(name)].append(name)
    head = ("| module | mutants | killed | survived | of them equivalent | no tests | not run "
            "| from earlier runs | killed of run | killed or equivalent |\n"
            "|---|---|---|---|---|---|---|---|---|---|")
    lines = [HEADER.format(commit=_commit(), notes=NOTES) + head]
    for module in sorted(by_module):
        label, cells = row(module, {n: results[n] for n in by_module[module]})
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Parts named in the issue:")
    lines.append("")
    lines.append(head)
    for label, patterns in GROUPS.items():
        names = [n for n in results if any(fnmatch.fnmatchcase(n, p) for p in patterns)]
        label, cells = row(label, {n: results[n] for n in names})
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    survivors = sorted(n for n, code in results.items() if STATUS.get(code) in SURVIVED)
    equivalent = [n for n in survivors if n in EQUIVALENT]
    open_ = [n for n in survivors if n not in EQUIVALENT]
    lines.append("")
    lines.append(f"Surviving mutants judged equivalent ({len(equivalent)}):")
    lines.append("")
    lines.extend(f"- `{n}`: {EQUIVALENT[n]}" for n in equivalent)
    lines.append("")
    lines.append(f"Other surviving mutants ({len(open_)}; `mutmut show NAME` shows each change):")
    lines.append("")
    lines.extend(f"- `{n}`" + (f": {OPEN[n]}" if n in OPEN else "") for n in open_)
    if TAIL:
        lines.append("")
        lines.append(TAIL.strip())
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    parser.add_argument("--snapshot", type=Path,
                        help="only keep mutmut's current results in this file (scripts/mutation.sh, after "
                             "each target) and exit")
    parser.add_argument("--raw", type=Path,
                        help="also write the raw results here (JSON: each mutant that was run, its status)")
    args = parser.parse_args()
    if args.snapshot:
        print(f"kept {save_snapshot(args.snapshot)} results in {args.snapshot}")
        return
    text = report()
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    if args.raw:
        results = sorted(load().items())
        raw = {name: STATUS.get(code, "suspicious") for name, code in results if code is not None}
        args.raw.write_text(json.dumps(raw, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
