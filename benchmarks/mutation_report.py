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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants" / "src"
RESULTS = ROOT / "benchmarks" / "results"

#: mutmut's exit codes (mutmut/stats.py): 1 and 3 killed, 0 survived, 33/5 no tests.
STATUS = {-1: "killed (earlier run)", 1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
          34: "skipped",
          35: "suspicious", 36: "timeout", 24: "timeout", -24: "timeout", 152: "timeout", 255: "timeout",
          37: "caught by type check", -11: "segfault", -9: "segfault", None: "not run"}

#: Parts of a module reported on their own (the issue's targets): name -> function patterns.
GROUPS = {
    "gammon.core.dice: verification": ["gammon.core.dice.x_verify_rolls_*", "gammon.core.dice.x_derive_roll_*",
                                       "gammon.core.dice.x_commitment_for_*", "gammon.core.dice.x__fmt_*"],
    "gammon.web.service: seat checks": [
        "gammon.web.service.live.xǁLiveGameǁseat_of_*", "gammon.web.service.live.xǁLiveGameǁto_act_*",
        "gammon.web.service.views.x_allowed_actions_*", "gammon.web.service.games.xǁGameServiceǁ_seat_*",
        "gammon.web.service.games.xǁGameServiceǁ_act_*", "gammon.web.service.games.xǁGameServiceǁhint_*",
        "gammon.web.service.records.x_hint_request_*"],
    "gammon.formats.record_json: verify_dice": ["gammon.formats.record_json.x_verify_dice_*"],
    # the functions run of the modules too large for one session (scripts/mutation.sh)
    "gammon.core.game: permissions, cube, scoring": [
        f"gammon.core.game.xǁGameǁ{f}_*" for f in (
            "allowed_actions", "_double_refusal", "_beaver_refusal", "can_double", "can_beaver", "_answerer",
            "points_for", "_finish", "_need", "_on_double", "_on_take", "_on_drop", "_on_resign")],
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
    "gammon.core.dice.x_derive_roll__mutmut_8": "int.to_bytes(8) is big-endian by default (Python 3.11+)",
    "gammon.core.dice.x_derive_roll__mutmut_26": "int.to_bytes(8) is big-endian by default (Python 3.11+)",
    "gammon.core.dice.x_verify_rolls__mutmut_21": "'ASCII' and 'ascii' name the same codec",
    "gammon.core.dice.x_verify_rolls__mutmut_29": "'UTF-8' and 'utf-8' name the same codec",
    "gammon.core.dice.xǁCryptoDiceǁ__init____mutmut_3": "secrets.token_bytes(None) also gives 32 bytes",
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
    "gammon.core.game.xǁGameǁ_on_drop__mutmut_21": "Event's data defaults to an empty dict",
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
    "gammon.core.position.xǁPositionǁstep_problem__mutmut_15":
        "to_point < from_point <= 25 already keeps to_point <= 24",
    "gammon.core.position.xǁPositionǁstep_problem__mutmut_61":
        "a checker on the 1-point already makes any(b[0:6]) true: the sum is not looked at",
    "gammon.core.notation.xǁ_Readerǁ__init____mutmut_1": "the only caller passes start itself",
    "gammon.core.notation.xǁ_Readerǁpeek__mutmut_4":
        "past the end peek gives 'XXXX' for '': every caller compares it with one character, which neither is",
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_22": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_24": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_30": _NOTATION_AT,
    "gammon.core.notation.xǁ_Readerǁpoint__mutmut_32": _NOTATION_AT,
    "gammon.core.notation.x_parse_play__mutmut_30": _NOTATION_SHOWN,
    "gammon.core.notation.x_parse_play__mutmut_31": _NOTATION_SHOWN,
    "gammon.core.match.xǁMatchǁis_crawford_next__mutmut_13":
        "a player at 1-away before the Crawford game was played cannot face a winner yet",
    "gammon.core.match.xǁMatchǁapply__mutmut_6": "a game has a result exactly when it is over",
    "gammon.core.match.xǁMatchǁapply__mutmut_39": "Event's data defaults to an empty dict",
    "gammon.core.match.xǁMatchǁreplay__mutmut_5": "Match's dice default to None",
    "gammon.core.match.xǁMatchǁreplay__mutmut_9":
        "Match.apply starts the next game itself when the last is over",
}


#: Earlier runs of code that has not changed since (``git diff COMMIT -- FILE`` shows nothing in
#: the functions run): shown where this snapshot did not run the module or group again.
#: label -> (mutants, killed, survived, of them equivalent, commit of the run).
PREVIOUS = {
    "gammon.core.dice": (411, 406, 5, 5, "7bc1bc9"),
    "gammon.core.dice: verification": (128, 124, 4, 4, "7bc1bc9"),
    "gammon.formats.record_json: verify_dice": (44, 44, 0, 0, "7bc1bc9"),
}

#: Modules whose code is unchanged since an earlier full run: a mutant not run again in this
#: snapshot that the earlier run killed stays killed (no test has been removed since); the
#: earlier run's survivors are listed in the file (those are run again).
CARRIED = {"gammon.ai.met": ("7bc1bc9", RESULTS / "mutation_met_survivors_7bc1bc9.txt")}
CARRIED_KILL = -1  # the code given to such a mutant

def load() -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for meta in sorted(MUTANTS.rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        out.update(data.get("exit_code_by_key", {}))
    for module, (_, survivors_file) in CARRIED.items():
        survivors = set(survivors_file.read_text(encoding="utf-8").split())
        for name, code in out.items():
            if code is None and module_of(name) == module and name not in survivors:
                out[name] = CARRIED_KILL
    return out


def module_of(name: str) -> str:
    return name.split(".x", 1)[0] if ".x_" in name or ".xǁ" in name else name.rsplit(".", 1)[0]


def row(label: str, codes: dict[str, int | None]) -> tuple[str, list[str]]:
    c = Counter(STATUS.get(code, "suspicious") for code in codes.values())
    if c["not run"] == len(codes) and label in PREVIOUS:
        total, killed, survived, equivalent, commit = PREVIOUS[label]
        ran = killed + survived
        return f"{label} (run at `{commit}`, unchanged since)", [
            str(total), str(killed), str(survived), str(equivalent), "0", "0",
            f"{100 * killed / ran:.1f}%", f"{100 * (killed + equivalent) / ran:.1f}%"]
    carried = c["killed (earlier run)"]
    run = c["killed"] + carried + c["survived"] + c["timeout"] + c["suspicious"] + c["caught by type check"]
    caught = c["killed"] + carried + c["timeout"] + c["caught by type check"]
    if carried:
        commit = next(v[0] for k, v in CARRIED.items() if label.startswith(k))
        label += f" ({carried} of the killed: killed at `{commit}`, code unchanged, not rerun)"
    equivalent = sum(1 for n, code in codes.items() if STATUS.get(code) == "survived" and n in EQUIVALENT)
    rate = f"{100 * caught / run:.1f}%" if run else "-"
    rate2 = f"{100 * (caught + equivalent) / run:.1f}%" if run else "-"
    cells = [len(codes), caught, c["survived"], equivalent, c["no tests"], c["not run"]]
    return label, [*map(str, cells), rate, rate2]


HEADER = """# Mutation testing

Made by `make mutation` (mutmut, `scripts/mutation.sh`; this table by
`benchmarks/mutation_report.py`).  Each module's mutants run against the test files written
for that module (listed in `scripts/mutation.sh`), not the whole suite.  "killed of run"
counts killed and timed-out mutants over the mutants that were run; "not run" mutants were
not reached in this run (the run is long on two shared cores and resumes where it stopped);
"killed or equivalent" adds the survivors judged equivalent (listed below with the reason).

Source snapshot: commit `{commit}`.  Run one module at a time with
`scripts/mutation.sh TARGET...` (targets named there), then this report.

This snapshot (two shared cores, so not everything fits one session):
`scripts/mutation.sh seats match_id met position_id game`, each niced, then the survivors of
seats, game and match_id run again after the new tests (`mutmut run NAME...` with the
target's `GAMMON_MUTATION_TESTS`); game's 80 survivors and untested mutants once more
after the tests of its cube refusals, events and results.  The MET run was stopped
part-way; its mutants not run again were killed by the earlier full run of the same code
(see the MET row).  game runs on the functions that carry permissions, the cube and
scoring (the groups below); position, notation and match (core.match changed since its
earlier run: 96/101 then) were not run in this snapshot.

"""


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
    head = ("| module | mutants | killed | survived | of them equivalent | no tests | not run | killed of run "
            "| killed or equivalent |\n|---|---|---|---|---|---|---|---|---|")
    lines = [HEADER.format(commit=_commit()) + head]
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
    survivors = sorted(n for n, code in results.items() if STATUS.get(code) == "survived")
    equivalent = [n for n in survivors if n in EQUIVALENT]
    open_ = [n for n in survivors if n not in EQUIVALENT]
    lines.append("")
    lines.append(f"Surviving mutants judged equivalent ({len(equivalent)}):")
    lines.append("")
    lines.extend(f"- `{n}`: {EQUIVALENT[n]}" for n in equivalent)
    lines.append("")
    lines.append(f"Other surviving mutants ({len(open_)}; `mutmut show NAME` shows each change):")
    lines.append("")
    lines.extend(f"- `{n}`" for n in open_)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write the table to this file")
    parser.add_argument("--raw", type=Path,
                        help="also write the raw results here (JSON: each mutant that was run, its status)")
    args = parser.parse_args()
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
