#!/usr/bin/env python3
"""Every performance and strength figure of the README and ``benchmarks/results/``, checked
against the raw output it comes from, with its target met or missed.

Each *measurement* is one run of a script in this repository (or of the referee's
``judge.py``/``duel.py`` beside it, through ``benchmarks/gammon_adapter.py``) with the
shipped weights; its raw output is stored in ``benchmarks/results/`` (a file of a packed run,
``<run>/<file>``, is read from ``<run>.tar.bz2``: ``results_archive.py``).  Each *figure* is
read from that raw output by a pattern, and the documents that quote it must show the same
number.  A measurement whose raw output is not stored (or not from the shipped weights) is
reported as NOT REPRODUCED, and the documents say so beside the figure.

    python benchmarks/figures.py                 # check every figure, print targets
    python benchmarks/figures.py --out benchmarks/results/figures.txt
    python benchmarks/figures.py --run engine_speed   # rerun one measurement (stores its raw output)
    python benchmarks/figures.py --list          # the measurements and their commands

Exit status 1 when a figure shown in a document is not what its raw output says, or its raw
output is missing; a missed target is printed (MISSED), not an error.

Move generation's figures (``benchmarks/movegen.py``, the README's Performance table) are
kept by that script itself and not listed here.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import results_archive  # noqa: E402  (a raw output by its path, in a packed run or not)

RESULTS = ROOT / "benchmarks" / "results"
REFEREE = "../shared/referee"  # beside the repository, as the referee's README places it


@dataclass(frozen=True)
class Target:
    """A target of an issue: ``value OP bound``."""

    op: str  # ">=", "<=", ">", "<", "=="
    bound: float
    source: str  # where the target is set

    def met(self, value: float) -> bool:
        ops: dict[str, Callable[[float, float], bool]] = {
            ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
            "<": lambda a, b: a < b, "==": lambda a, b: a == b}
        return ops[self.op](value, self.bound)

    def __str__(self) -> str:
        return f"{self.op} {self.bound:g} ({self.source})"


@dataclass(frozen=True)
class Figure:
    """One number: ``pattern``'s first group in the raw output, shown as ``shown`` (a format
    string) in each of ``docs``."""

    label: str
    pattern: str
    shown: str
    docs: tuple[str, ...]
    target: Target | None = None
    scale: float = 1.0  # value = number in the raw output * scale


@dataclass(frozen=True)
class Measurement:
    name: str
    raw: str | None  # path under benchmarks/results, or None: not stored
    command: str  # how the raw output is made (from the repository root)
    figures: tuple[Figure, ...]
    weights: str = "shipped"  # or what else produced it
    env: dict[str, str] = field(default_factory=dict)
    note: str = ""


README = "README.md"
ENGINE = "benchmarks/results/ENGINE.md"
VS_GNUBG = "benchmarks/results/vs_gnubg.md"
ANALYSIS = "benchmarks/results/ANALYSIS.md"

JUDGE_2PLY = r"2-ply referee: mean equity loss ([\d.]+) mp/decision"
JUDGE_2PLY_SE = r"2-ply referee: mean equity loss [\d.]+ mp/decision \(SE ([\d.]+)\)"
DUEL_ADJUSTED = r"luck-adjusted points/game: ([+-]?[\d.]+)"
DUEL_SE = r"luck-adjusted points/game: [+-]?[\d.]+\s+\(SE ([\d.]+)"
ISSUE12 = "issue 12"
ISSUE36 = "issue 36"
ISSUE35 = "issue 35"


def _in_run(run: str, raw: str) -> str:
    """The raw output ``raw`` inside the packed run ``run`` (none: beside the summaries)."""
    return f"{run}/{raw}" if run else raw


def _duel_2v2(seed: int, name: str, minutes: int, suffix: str = "", weights: str = "shipped",
              env: dict[str, str] | None = None, docs: tuple[str, ...] = (ENGINE,),
              run: str = "") -> Measurement:
    """gammon 2-ply against gnubg 2-ply, 400 cubeless games of ``seed`` (issue 36's duel); ``suffix``
    ends the raw output's name, ``run`` is the packed run that holds it, ``env`` adds to the
    search's."""
    which = "" if seed == 1 else f", seed {seed}"
    tag = "" if weights == "shipped" else ", Q7 under the search"
    return Measurement(
        name, _in_run(run, f"duel_2v2ply_seed{seed}{suffix}.txt"),
        f"python {REFEREE}/duel.py benchmarks/gammon_adapter.py --games 400 --opponent gnubg2 --luck "
        f"--seed {seed}",
        (
            Figure(f"2-ply vs gnubg 2-ply{which}{tag}, luck-adjusted ppg (400 games)", DUEL_ADJUSTED, "{:+.3f}",
                   docs, Target(">=", 0.02, ISSUE36)),
            Figure("its standard error", DUEL_SE, "+- {:.3f}", (ENGINE,)),
            Figure(f"2-ply vs gnubg 2-ply{which}{tag}, raw ppg", r"A points/game: ([+-]?[\d.]+)", "{:+.3f}",
                   (ENGINE,)),
        ), env={"GAMMON_PLIES": "2", **(env or {})}, weights=weights,
        note=f"about {minutes} minutes of a core for 400 games")


#: cube_policies_rollmet.txt's two runs of a policy: under the model table, then the table in use.
_MODEL_THEN_OURS = ((r"--met model", "model table"), (r"our rollouts\n", "rolled-out table"))


def match_pr(column: int) -> str:
    """match_pr.py's table, its "all" row: column 1 checker error, 2 cube error, 3 PR."""
    return r"\), all \|[^|]*" + r"\|[^|]*" * (column - 1) + r"\|\s*([\d.]+) \+-"


def match_pr_command(level: str, out: str, cube_plies: int, extra: str = "") -> str:
    """match_pr.py's command at the issue's size: 45 7-point matches, 20 money games, gnubg 2-ply
    analysis, two Ray workers; ``extra`` options before ``--out benchmarks/results/OUT``."""
    return (f"python benchmarks/match_pr.py --level {level} --matches 45 --length 7 --money-games 20 "
            f"--session 5 --analyse-plies 2 --cube-plies {cube_plies} --ray --workers 2 {extra}"
            f"--out benchmarks/results/{out}")


def match_pr_figures(tag: str, pr: Target | None, cube: Target | None, docs: tuple[str, ...],
                     checker_docs: tuple[str, ...] | None = None, pr_tail: str = "") -> tuple[Figure, ...]:
    """match_pr.py's three figures of the run ``tag`` names: PR, cube error, checker error."""
    return (
        Figure(f"{tag}: PR by gnubg's 2-ply analysis{pr_tail}", match_pr(3), "{:.2f}", docs, pr),
        Figure(f"{tag}: cube error by gnubg (mEMG per close decision)", match_pr(2), "{:.1f}", docs, cube),
        Figure(f"{tag}: checker error by gnubg (mEMG per move)", match_pr(1), "{:.1f}", checker_docs or docs),
    )


def match_pr_measurement(level: str, pr: Target | None, cube: Target | None, docs: tuple[str, ...],
                         depth: int = 1, weights: str = "shipped") -> Measurement:
    """match_pr.py's run of ``level`` at the issue's size, its cube looking ``depth`` rolls ahead."""
    out = f"match_pr_{level}_cube{depth}"
    return Measurement(
        f"match_pr_{level.replace('-', '_')}", f"{out}.txt", match_pr_command(level, out, depth),
        match_pr_figures(level, pr, cube, docs, (ENGINE,), ", 45 7-point matches and 20 money games"),
        weights=weights)


CUBE0PLY_NOTE = "the shipped nets; --cube-weights names the shipped 0-ply net, the default since stop 56"


def cube0ply_measurement(level: str, pr: Target | None, cube: Target | None = Target("<=", 2.0, ISSUE36),
                         note: str = CUBE0PLY_NOTE, weights: str = "shipped") -> Measurement:
    """match_pr.py's run of a searching ``level`` with its cube decided by the 0-ply net (the
    default since stop 56; the run named the file with ``--cube-weights``)."""
    out = f"match_pr_{level}_cube2_cube0ply"
    return Measurement(
        f"match_pr_{level.replace('-', '_')}_cube0ply", f"{out}.txt",
        match_pr_command(level, out, 2, "--cube-weights src/gammon/ai/data/weights-standard-0ply.npz "),
        match_pr_figures(f"{level}, the cube by the 0-ply net", pr, cube, (README, ENGINE)), note=note,
        weights=weights)


def judge_seed_measurement(name: str, seed: int, label: str, env: dict[str, str], note: str,
                           docs: tuple[str, ...] = (README, ENGINE), timed: bool = False,
                           weights: str = "shipped", run: str = "") -> Measurement:
    """judge.py's 1,000 decisions on ``seed`` graded by gnubg 2-ply, for the search ``env`` sets
    (``label``); ``timed``: its mean time a choice too; ``run``: the packed run that holds its
    raw output ``<name>.txt``."""
    figures = [Figure(f"{label} equity lost per decision, gnubg 2-ply grading, seed {seed} (mp)", JUDGE_2PLY,
                      "{:.2f}", docs)]
    if timed:
        figures.append(Figure(f"{label}, seed {seed}: time per choice in the judge (ms)",
                              r"mean time per choose\(\): ([\d.]+) ms", "{:.1f}", (ENGINE,)))
    return Measurement(name, _in_run(run, f"{name}.txt"),
                       f"python {REFEREE}/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2 --seed {seed}",
                       tuple(figures), env=env, note=note, weights=weights)


def shipped_level_measurement(name: str, level: str, seed: int, out: str, tag: str, pr: Target,
                              note: str, weights: str = "shipped", extra: str = "") -> Measurement:
    """match_pr.py's run of ``level`` with the shipped nets and defaults on dice ``seed`` (``extra``:
    options before ``--out``), against issue 36's targets; ``tag`` names the run in the figures'
    labels.  The expert's runs play its 45 matches alone, as its runs before; the searching
    levels' add 20 money games and name their depths (:func:`match_pr_command`)."""
    if level == "expert":
        command = (f"python benchmarks/match_pr.py --level expert --matches 45 --seed {seed} --ray --workers 2 "
                   f"{extra}--out benchmarks/results/{out}")
    else:
        command = match_pr_command(level, out, 2, f"--seed {seed} {extra}")
    return Measurement(
        name, f"{out}.txt", command,
        match_pr_figures(tag, pr, Target("<=", 2.0, ISSUE36), (README, ENGINE)), weights=weights, note=note)


#: The cube net's checkpoint, the shipped ``weights-standard-cube.npz`` byte for byte (the runs
#: below named it with ``--cube-weights`` before it shipped; the default since stop 58).
CUBE_NET_RUN = "training/closeout/C1x/weights.npz"
CUBE_NET_NOTE = ("the shipped nets and defaults; --cube-weights names the cube net's checkpoint, the "
                 "same bytes as the shipped weights-standard-cube.npz (the default since stop 58)")


def agreement_measurement(variant: str, weights: str) -> Measurement:
    """analysis_agreement.py's ``--variant``: gammon's analysis of the 18 stored matches again."""
    return Measurement(
        f"analysis_agreement_{variant}", f"analysis_agreement_{variant}.txt",
        f"python benchmarks/analysis_agreement.py --variant {variant} --processes 1 (the stored matches of "
        "analysis_agreement.tar.bz2, unpacked, analysed again with the nets named)",
        tuple(Figure(label, pattern, shown, (ANALYSIS,), None if bound is None else Target(op, bound, ISSUE35))
              for label, pattern, shown, op, bound in (
                  ("PR rank correlation with GNU Backgammon 2-ply, 36 players",
                   r"Spearman rank correlation of PR: ([\d.]+)", "{:.3f}", ">=", 0.95),
                  ("mean |PR gammon - PR gnubg|", r"mean \|PR gammon - PR gnubg\|: ([\d.]+)", "{:.2f}",
                   "<=", 0.4),
                  ("mean PR bias gammon - gnubg", r"mean bias \(gammon - gnubg\): (-?[\d.]+)", "{:.2f}",
                   "", None),
                  ("doubtful-or-worse marks: precision",
                   r"doubtful or worse \(\?!, \?, \?\?\): precision ([\d.]+)", "{:.2f}", ">=", 0.85),
                  ("doubtful-or-worse marks: recall", r"doubtful or worse .*recall ([\d.]+)", "{:.2f}",
                   ">=", 0.85),
                  ("cube errors of the same kind, GNU Backgammon 2-ply's",
                   r"all errors: GNU Backgammon's errors gammon calls the same kind ([\d.]+)", "{:.2f}", "",
                   None),
                  ("PR gammon gives GNU Backgammon 2-ply's self-play", r"PR by gammon ([\d.]+)", "{:.2f}", "<=",
                   0.5))),
        weights=weights, note="18 matches, 36 players, gammon 2-ply against GNU Backgammon 2-ply (issue 35)")


def gammon_bias_measurement(name: str, raw: str, what: str, weights: str = "shipped") -> Measurement:
    """gammon_bias.py's run at the documented size: the crushed side's gammon-loss bias and error."""
    return Measurement(
        name, raw, "python benchmarks/gammon_bias.py --positions 12 --trials 324",
        (
            Figure(f"{what}: mean net - rollout, gammon loss", r"lg ([+-][\d.]+) \+-", "{:+.3f}", (ENGINE,)),
            Figure(f"{what}: mean |gammon loss error|", r"mean \|lg error\|: ([\d.]+)", "{:.3f}", (ENGINE,)),
        ), weights=weights)


BIAS = r"held-out bias before.* {} ([+-][\d.]+)"  # a refinement log's line, one column
PREVIOUS = "previous (2,005,000 games, 1-ply refinement)"  # measurements not redone since deep2
TD3805 = "previous (3,805,000 TD games, 128 units)"  # measured before the distilled net (deep3)
DEEP2 = "previous (2,195,000 games, 2-ply refinement)"  # measured with deep2, not redone since
DEEP3 = "previous (deep3: E8 distilled, 256 units)"  # measured with the deep3 net, not redone since
DEEP4 = "previous (deep4: N5 distilled, 256 units)"  # measured with the deep4 net, not redone since
D6 = "previous (d6: N6 distilled, before the late-hit rounds)"  # measured with d6, not redone since
L2 = "previous (L2: d6 after the late-hit rounds, before the cube-window round)"  # measured with L2
C2 = "previous (C2: L2 after the cube-window round, shipped 2026-12-03 to 2026-12-05)"  # measured with C2
R5 = "previous 0-ply net (R5 of deep7, shipped in stop 49, before the crashed net)"  # measured with R5
Q7_CUBE = "previous (the cube decided with the searching net Q7, before stop 56)"  # the levels' cube until then
D2_ALONE = "deep9's D2 playing the expert's checkers (measured in stop 61, not shipped)"
G1C_CUBE = "previous (the cube decided with the 0-ply net G1c, stops 56 and 57)"  # before the cube net
#: The searches' leaf net to stop 58: Q7 (``weights.npz``, the rollouts' net since), which the
#: adapter plays again under the search with GAMMON_WEIGHTS (the judge and the duels grade checker
#: play alone, so its cube, which such weights decide too, plays no part).
Q7_SEARCH = "previous (Q7 under the searches, to stop 58)"
Q7_ENV = {"GAMMON_WEIGHTS": "src/gammon/ai/data/weights.npz"}
Q7_SEARCH_CUBE_NET = "previous (Q7 under the searches, the cube by the cube net: stop 58)"
#: Stop 59's judge and duel runs of the searches with each leaf net, packed in one archive beside
#: their paired comparison (``search_net_stop59.txt``).
SEARCH_NET_RUN = "search_net_stop59"
X2 = "previous 0-ply net (X2 of crashed1, shipped in stops 50 to 53, before the extra inputs)"
LOWEST_EXTRAS = 2  # engine_speed_extras.txt's run of the lowest 0-ply ratio (the README's range)
_NUM, _SIGNED = r"[\d.]+", r"[+-][\d.]+"


#: The nets of late_hit_bias.txt, in its order (their folders under training/; the last is shipped).
LATE_HIT_NETS = ("deep5/members/d6", "late_hit/L1", "late_hit/L2", "late_hit/L3", "cube_window/C2", "deep6/Q7")


def late_hit_figure(net: str, column: int, what: str, shown: str) -> Figure:
    """late_hit_bias.py's row of ``net`` (a path's tail): column 1 the win bias, 2 the equity
    bias, 3 the mean absolute equity error (the row: win, win gammon and equity, each with
    its SE, then the error)."""
    cells = [f"({c})" if k == column else c for k, c in enumerate((_SIGNED, _SIGNED, _NUM), 1)]
    pattern = (re.escape(net) + rf"/weights\.npz +{cells[0]} \+- {_NUM} {_SIGNED} \+- {_NUM} "
               rf"{cells[1]} \+- {_NUM} +{cells[2]}")
    return Figure(f"late-hit positions, {net}: {what}", pattern, shown, (ENGINE,))


def rollout_speed_figure(setting: str, how: str, cpu: bool) -> Figure:
    """rollout_speed.py's ratio gnubg/gammon of one row (``setting``, ``how``: "rollout itself"
    or "whole command"): of the wall times, or with ``cpu`` of the CPU times."""
    skip = r"\s+[\d.]+" * (5 if cpu else 2)
    pattern = r"(?m)^" + re.escape(f"{setting}, {how}") + skip + r"\s+([\d.]+)"
    what = "CPU" if cpu else "wall"
    return Figure(f"rollout of the opening position, {setting}, ratio gnubg/gammon ({how}, {what} time)",
                  pattern, "{:.2f}", (ENGINE,), Target(">=", 2.0, "issue 36"))


def engine_speed_ratios(tag: str) -> tuple[Figure, ...]:
    """engine_speed.py's three ratios gnubg-nn / gammon (0-ply, 2-ply pruned and unpruned), shown in
    the README and ENGINE.md, labelled with ``tag``, against issue 36's 0-ply floor and issue 12's
    2-ply target."""
    return tuple(Figure(f"{row} speed ratio gnubg-nn / gammon, {tag}", pattern, "{:.2f}", (README, ENGINE),
                        target)
                 for row, pattern, target in (
                     ("0-ply", r"0-ply best play\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)",
                      Target(">=", 1.5, ISSUE36 + ": 0-ply must stay >= 1.5x gnubg's")),
                     ("2-ply pruned", r"2-ply pruned\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)",
                      Target(">=", 2.0, ISSUE12)),
                     ("2-ply unpruned", r"2-ply unpruned\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", None)))


def engine_speed_ab(name: str, new: str, old: str, where: str, what: str, lowest: int,
                    two_ply: str | None = None, weights: str = "shipped", args: str = "") -> Measurement:
    """engine_speed.py run three times each for two engines, alternating (``new run I`` and
    ``old run I`` rows): the new engine's 0-ply ratios against issue 36's floor, the old one's
    beside them, with ``two_ply`` the new one's 2-ply ratios too, and the lowest 0-ply ratio
    (run ``lowest``) as the start of the README's range."""
    def ratio(who: str, i: int, row: str) -> str:
        return rf"{who} run {i}: {row}\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)"

    figures = tuple(Figure(f"0-ply speed ratio gnubg-nn / gammon, {what}, run {i}",
                           ratio("new", i, "0-ply best play"), "{:.2f}", (ENGINE,),
                           Target(">=", 1.5, ISSUE36 + ": 0-ply must stay >= 1.5x gnubg's")) for i in (1, 2, 3))
    figures += tuple(Figure(f"the same, {old}'s engine, run {i}", ratio("old", i, "0-ply best play"), "{:.2f}",
                            (ENGINE,)) for i in (1, 2, 3))
    if two_ply is not None:
        figures += tuple(Figure(f"2-ply speed ratio gnubg-nn / gammon, {how}, {two_ply}, run {i}",
                                ratio("new", i, f"2-ply {how}"), "{:.2f}", (ENGINE,))
                         for how in ("pruned", "unpruned") for i in (1, 2, 3))
    figures += (Figure(f"the lowest 0-ply ratio of the three (run {lowest}), in the README's range",
                       ratio("new", lowest, "0-ply best play"), "{:.2f}-", (README,)),)
    return Measurement(
        name, f"{name}.txt",
        f"python benchmarks/engine_speed.py --positions 2000 --positions2 30{args}, three runs each of {new}'s "
        f"engine and {old}'s ({where}), alternating",
        figures, weights=weights, note=f"the shipped nets; {old}'s engine in the same runs")


def alone_net_figures() -> tuple[Figure, ...]:
    """alone_net_stop61.txt: each seed's 0-ply judge (2-ply grading) and duel against gnubg 0-ply
    for G1c and D2 (the net that plays alone since stop 61), and the paired judge differences."""
    figures: list[Figure] = []
    for seed in (3, 4, 5, 6):
        for net in ("G1c", "D2"):
            target = Target("<=", 3.5, ISSUE36) if net == "D2" else None
            figures.append(Figure(
                f"0-ply judge, {net}, seed {seed} (mp a decision, gnubg 2-ply grading)",
                rf"== judge at 0-ply, {net}, seed {seed}:[^\n]*\n(?:.*\n)*?{JUDGE_2PLY}", "{:.2f}",
                (ENGINE,), target))
            duel_target = Target(">=", 0.0, ISSUE36) if net == "D2" else None
            figures.append(Figure(
                f"0-ply against gnubg 0-ply, {net}, seed {seed} (luck-adjusted ppg)",
                rf"== {net} at 0-ply against gnubg 0-ply, seed {seed}:[^\n]*\n(?:.*\n)*?.*{DUEL_ADJUSTED}",
                "{:+.3f}", (ENGINE,), duel_target))
        figures.append(Figure(
            f"0-ply judge, D2 less G1c, seed {seed} (paired, mp a decision)",
            rf"\(seed {seed}\)\n2-ply grading: B - A = ([+-]?[\d.]+)", "{:+.2f}", (ENGINE,)))
    return tuple(figures)


def rollout1_figures() -> tuple[Figure, ...]:
    """rollout1.txt (stop 62): the nets against held-out full-game rollouts (contact, seed 8;
    races, seed 9), and F1's duels and cube replay."""
    g1c, f1 = "src/gammon/ai/data/weights-standard-0ply.npz", "training/rollout1/F1/weights.npz"
    contact, race = "training/rollout1-data/s8/dataset.npz", "training/rollout1-data/r9/dataset.npz"
    figures: list[Figure] = []
    for data, what in ((contact, "contact, seed 8"), (race, "races, seed 9")):
        for name, row in (("G1c", g1c), ("F1", f1), ("gnubg 0-ply", "gnubg 0-ply")):
            for stat in ("mean |diff|", "rms"):
                figures.append(Figure(
                    f"{name} against our own rollouts, {what}: {stat} (equity)",
                    rf"--data {re.escape(data)} --gnubg\n(?:.*\n)*?{re.escape(row)}: bias "
                    rf"[^\n]*{re.escape(stat)} ([\d.]+)",
                    "{:.4f}", (ENGINE,)))
    figures.append(Figure(
        "G1c where the side on roll leads by 40 pips or more, contact: bias (equity)",
        rf"{re.escape(g1c)}: \|gap\| < 40 [^\n]*on roll ahead >= 40 \(\d+\): bias ([+-][\d.]+)", "{:+.4f}",
        (ENGINE,)))
    for seed in (1, 2):
        figures.append(Figure(
            f"F1 at 0-ply against gnubg 0-ply, seed {seed} (luck-adjusted ppg)",
            rf"== F1 at 0-ply against gnubg 0-ply, seed {seed}:[^\n]*\n(?:.*\n)*?.*{DUEL_ADJUSTED}", "{:+.3f}",
            (ENGINE,)))
    for net, seeds in (("F1", (1, 2, 3)), ("G1c", (3,))):
        for seed in seeds:
            figures.append(Figure(
                f"{net} at plain 2-ply against gnubg 2-ply, seed {seed} (luck-adjusted ppg)",
                rf"== {net} at plain 2-ply against gnubg 2-ply, seed {seed}:[^\n]*\n"
                rf"(?:.*\n)*?.*{DUEL_ADJUSTED}",
                "{:+.3f}", (ENGINE,), Target(">=", 0.02, ISSUE36) if net == "F1" else None))
    for net in ("F1", "FC"):
        figures.append(Figure(
            f"cube replay, {net} deciding (EMG, 5,280 decisions)",
            rf"== cube replay, {net} deciding:[^\n]*\n(?:.*\n)*?\| ahead2 \| ([\d.]+) \|", "{:.3f}", (ENGINE,)))
    return tuple(figures)


def probes_stop63_figures() -> tuple[Figure, ...]:
    """probes_stop63.txt (stop 63): shared dice for sibling rollouts, race inputs, a calibrated
    leaf net under G1c's choices."""
    figures: list[Figure] = [
        Figure(f"sibling rollouts, 72 trials, {kind}: noise of a value from its group's mean (RMS)",
               rf"{kind}: within-group noise RMS ([\d.]+)", "{:.4f}", (ENGINE,))
        for kind in ("independent dice", "shared dice")]
    figures.append(Figure("sibling rollouts: the stored targets' spread about their groups' means (RMS)",
                          r"signal: the dataset's targets centred on their groups, RMS ([\d.]+)", "{:.4f}",
                          (ENGINE,)))
    for label, row in (("without", "as shipped"), ("with", "with race inputs")):
        figures.append(Figure(
            f"race net refitted {label} the race inputs, 4 epochs: RMS from the held-out races (equity)",
            rf"== race inputs, 4 epochs:[^\n]*\n(?:.*\n)*?refit {row} [^\n]* RMS ([\d.]+);", "{:.4f}",
            (ENGINE,)))
    for seed, shown in ((1, "{:+.2f}"), (2, "{:+.2f}")):
        figures.append(Figure(
            f"leaf net F1 under G1c's choices, judge seed {seed}, paired against G1c (mp a decision)",
            rf"judge seed {seed}:[^\n]*\n(?:.*\n)*?2-ply grading: B - A = ([+-][\d.]+)", shown, (ENGINE,)))
    for seed in (1, 2, 3):
        figures.append(Figure(
            f"leaf net F1 under G1c's choices, plain 2-ply against gnubg 2-ply, seed {seed} "
            "(luck-adjusted ppg)",
            rf"against gnubg 2-ply, seed {seed}:[^\n]*\n(?:.*\n)*?.*{DUEL_ADJUSTED}", "{:+.3f}", (ENGINE,),
            Target(">=", 0.02, ISSUE36)))
    return tuple(figures)


def probes_stop64_figures() -> tuple[Figure, ...]:
    """probes_stop64.txt (stop 64): the cube replay with ahead2's close calls decided by cubeful
    rollouts (72 trials over all 5,280 decisions; 72, 216 and 648 against ahead2 on the first
    3,000 or 3,500), and one decision rolled out at 72 and 1,296 trials."""
    fixed72 = r"== fixed \([^\n]*\), 72 trials:[^\n]*\n(?:.*\n)*?"
    figures = [Figure("cube replay, ahead2 with its close calls rolled out at 72 trials (EMG, 5,280 decisions)",
                      fixed72 + r"\| rollout \| ([\d.]+) \|", "{:.3f}", (ENGINE,))]
    for i, part in ((2, "as doubler"), (3, "as taker")):
        figures.append(Figure(f"cube replay, close calls rolled out at 72 trials: {part} (EMG)",
                              fixed72 + r"\| rollout \|" + r" [\d.]+ \|" * (i - 1) + r" ([\d.]+) \|",
                              "{:.3f}", (ENGINE,)))
    figures.append(Figure("cube replay, close calls rolled out: decisions rolled out",
                          fixed72 + r"rollout: (\d+) decisions within", "{:.0f}", (ENGINE,)))
    for n in (500, 1000, 2000, 2500, 3000, 3500):
        figures.append(Figure(f"cube replay, ahead2 alone, first {n} decisions (EMG)",
                              rf"\[{n}/3500\] ahead2 ([\d.]+)", "{:.3f}", (ENGINE,)))
        for trials, stops in ((72, 3500), (216, 3000), (648, 3500)):
            if n <= stops:
                figures.append(Figure(
                    f"cube replay, close calls rolled out at {trials} trials, first {n} decisions (EMG)",
                    rf"== fixed[^\n]*, {trials} trials[^\n]*\n(?:.*\n)*?\[{n}/5280\] rollout ([\d.]+)",
                    "{:.3f}", (ENGINE,)))
    figures.append(Figure("cube replay before the fix, 72 trials: the error at 4,500 decisions (EMG)",
                          r"== before the fix[^\n]*\n(?:.*\n)*?\[4500/5280\] rollout ([\d.]+)", "{:.3f}",
                          (ENGINE,)))
    for trials in (72, 1296):
        figures.append(Figure(
            f"23YHAQC/PyABAA: no double rolled out at {trials} trials (EMG)",
            rf"23YHAQC/PyABAA:AQHgABAAAAAE cube 2[^\n]*\n(?:.*\n)*?  rollout +{trials} ND ([+-][\d.]+)",
            "{:.3f}", (ENGINE,)))
    return tuple(figures)


def cube2_figures() -> tuple[Figure, ...]:
    """cube2.txt (stop 63): the cube net against held-out cube-window rollouts, and the cube
    replay with C1x (shipped) and C2x deciding, split into contact and races."""
    cube, c2x = "src/gammon/ai/data/weights-standard-cube.npz", "training/cube2/C2x/weights.npz"
    figures = [Figure(f"{name} against 400 held-out cube-window rollouts: mean |diff| (equity)",
                      rf"--data training/cube2-data/h7/dataset.npz --gnubg\n(?:.*\n)*?{re.escape(row)}: bias "
                      r"[^\n]*mean \|diff\| ([\d.]+)", "{:.4f}", (ENGINE,))
               for name, row in (("C1x", cube), ("C2x", c2x), ("gnubg 0-ply", "gnubg 0-ply"))]
    for net in ("C1x", "C2x"):
        figures.append(Figure(f"cube replay, {net} deciding (EMG, 5,280 decisions)",
                              rf"== cube replay, {net} deciding[^\n]*\n(?:.*\n)*?\| ahead2 \| ([\d.]+) \|",
                              "{:.3f}", (ENGINE,)))
    for part in ("contact", "races"):
        figures.append(Figure(f"cube replay, C1x deciding: the error in {part} (EMG)",
                              rf"== cube replay, C1x deciding[^\n]*\n(?:.*\n)*?"
                              rf"ahead2: [^\n]*?{part} ([\d.]+) EMG",
                              "{:.3f}", (ENGINE,)))
    figures.append(Figure("cube replay, C1x deciding: its five costliest decisions (EMG)",
                          r"== cube replay, C1x deciding[^\n]*\n(?:.*\n)*?.*costliest decisions ([\d.]+) EMG",
                          "{:.3f}", (ENGINE,)))
    return tuple(figures)


MEASUREMENTS: tuple[Measurement, ...] = (
    Measurement(
        "judge_0ply", "judge_0ply.txt",
        f"python {REFEREE}/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2",
        (
            Figure("0-ply equity lost per decision, gnubg 2-ply grading (mp)", JUDGE_2PLY, "{:.2f}",
                   (README, ENGINE), Target("<=", 5.0, ISSUE12)),
            Figure("the same against issue 36's target", JUDGE_2PLY, "{:.2f}", (), Target("<=", 3.5, ISSUE36)),
            Figure("its standard error", JUDGE_2PLY_SE, "+- {:.2f}", (README, ENGINE)),
            Figure("0-ply equity lost, 0-ply grading (mp)", r"0-ply referee: mean equity loss ([\d.]+)",
                   "{:.2f}", (ENGINE,)),
            Figure("0-ply errors, 2-ply grading (%)", r"2-ply referee:.*errors\(>0.020\) ([\d.]+)%", "{:.1f}%",
                   (ENGINE,)),
            Figure("0-ply blunders, 2-ply grading (%)", r"2-ply referee:.*blunders\(>0.080\) ([\d.]+)%",
                   "{:.1f}%", (ENGINE,)),
        ), env={"GAMMON_PLIES": "0"}),
    Measurement(
        "judge_0ply_seed2", "judge_0ply_seed2.txt",
        f"python {REFEREE}/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2 --seed 2",
        (
            Figure("0-ply equity lost per decision, gnubg 2-ply grading, seed 2 (mp)", JUDGE_2PLY, "{:.2f}",
                   (README, ENGINE), Target("<=", 3.5, ISSUE36)),
        ), env={"GAMMON_PLIES": "0"}),
    *(Measurement(
        f"duel_0ply_1000_seed{seed}", f"duel_0ply_1000_seed{seed}.txt",
        f"python {REFEREE}/duel.py benchmarks/gammon_adapter.py --games 1000 --seed {seed} --luck",
        (
            Figure(f"0-ply vs gnubg 0-ply, luck-adjusted ppg, 1,000 games, seed {seed}", DUEL_ADJUSTED,
                   "{:+.3f}", (README, ENGINE), Target(">=", 0.0, ISSUE36)),
        ), env={"GAMMON_PLIES": "0"}) for seed in (1, 2)),
    Measurement(
        "judge_2ply", "judge_2ply.txt",
        f"python {REFEREE}/judge.py benchmarks/gammon_adapter.py --n 1000 --ply2",
        (
            Figure("2-ply equity lost per decision, gnubg 2-ply grading (mp)", JUDGE_2PLY, "{:.2f}",
                   (README, ENGINE)),
            Figure("its standard error", JUDGE_2PLY_SE, "+- {:.2f}", (README, ENGINE)),
            Figure("2-ply equity lost, 0-ply grading (mp)", r"0-ply referee: mean equity loss ([\d.]+)",
                   "{:.2f}", (ENGINE,)),
        ), env={"GAMMON_PLIES": "2", **Q7_ENV}, weights=Q7_SEARCH),
    *(judge_seed_measurement(f"judge_world_class_1ply{suffix}", seed, "world-class to stop 56 (1-ply, blended "
                             "with 0-ply)", {"GAMMON_LEVEL": "world-class"},
                             "run with the world-class level of stop 56 (git show bcbc9cc); the plain 1-ply "
                             "search before: judge_one_ply_blend.txt, section (a)")
      for seed, suffix in ((1, ""), (2, "_seed2"))),
    judge_seed_measurement("judge_strongest", 1, "strongest (2-ply)",
                           {"GAMMON_PLIES": "2", "GAMMON_PRUNE": "5", **Q7_ENV},
                           "the strongest level's search, run beside world-class's to compare their times",
                           docs=(ENGINE,), timed=True, weights=Q7_SEARCH),
    *(judge_seed_measurement(f"judge_world_class{suffix}", seed, "world-class (2-ply over fewer plays)",
                             {"GAMMON_LEVEL": "world-class", **Q7_ENV},
                             "since stop 57; the same search was first run as GAMMON_PLIES=2 GAMMON_PRUNE=3 "
                             "GAMMON_FILTERS=5:0.10,2:0.04, to the same choices", timed=True, weights=Q7_SEARCH)
      for seed, suffix in ((1, ""), (2, "_seed2"))),
    Measurement(
        "duel_0ply", "duel_0ply.txt",
        f"python {REFEREE}/duel.py benchmarks/gammon_adapter.py --games 400 --luck",
        (
            Figure("0-ply vs gnubg 0-ply, luck-adjusted ppg (400 games)",
                   DUEL_ADJUSTED, "{:+.3f}", (README, ENGINE),
                   Target(">=", -0.06, ISSUE12 + ", over 1,000 games")),
            Figure("its standard error", DUEL_SE, "+- {:.3f}", (README, ENGINE)),
            Figure("0-ply vs gnubg 0-ply, raw ppg", r"A points/game: ([+-]?[\d.]+)", "{:.3f}", (ENGINE,)),
            Figure("illegal moves by gammon", r"illegal moves by A: (\d+)", "{:.0f}", (),
                   Target("==", 0, "the referee")),
        ), env={"GAMMON_PLIES": "0"}),
    Measurement(
        "duel_2ply", "duel_2ply.txt",
        f"python {REFEREE}/duel.py benchmarks/gammon_adapter.py --games 1000 --luck",
        (
            Figure("2-ply vs gnubg 0-ply, luck-adjusted ppg (1,000 games)",
                   DUEL_ADJUSTED, "{:+.3f}", (README,),
                   Target(">", 0.0, ISSUE12)),
        ), env={"GAMMON_PLIES": "2", **Q7_ENV}, weights=Q7_SEARCH,
        note="about 10 minutes of a core per 1,000 games"),
    _duel_2v2(1, "duel_2v2ply", 26, weights=Q7_SEARCH, env=Q7_ENV),
    _duel_2v2(2, "duel_2v2ply_seed2", 19, weights=Q7_SEARCH, env=Q7_ENV),
    *(_duel_2v2(seed, f"duel_2v2ply_seed{seed}_G1c", 15, suffix="_G1c", docs=(README, ENGINE),
                run=SEARCH_NET_RUN) for seed in (1, 2)),
    *(judge_seed_measurement(f"judge_{kind}{suffix}_G1c", seed, label, env,
                             "the checker-play net under the search, shipped since stop 59", docs=docs,
                             timed=True, run=SEARCH_NET_RUN)
      for kind, label, env, docs in (
          ("2ply", "2-ply, unpruned", {"GAMMON_PLIES": "2"}, (README, ENGINE)),
          ("strongest", "strongest", {"GAMMON_LEVEL": "strongest"}, (README, ENGINE)),
          ("world_class", "world-class", {"GAMMON_LEVEL": "world-class"}, (README, ENGINE)))
      for seed, suffix in ((1, ""), (2, "_seed2"))),
    *(judge_seed_measurement(f"judge_{kind}_seed2_Q7", 2, f"{label}, Q7 under the search", {**env, **Q7_ENV},
                             "the search as it was to stop 58, beside the runs above", docs=(README, ENGINE),
                             timed=True, weights=Q7_SEARCH, run=SEARCH_NET_RUN)
      for kind, label, env in (("2ply", "2-ply, unpruned", {"GAMMON_PLIES": "2"}),
                               ("strongest", "strongest", {"GAMMON_LEVEL": "strongest"}))),
    Measurement(
        "search_net_stop59", "search_net_stop59.txt",
        "python benchmarks/judge_compare.py A.json B.json, for each pair of judge runs (judge.py ... --json) "
        "named in the file",
        tuple(Figure(f"paired 2-ply grading, {section}: B - A (mp a decision)",
                     re.escape(f"== {section}") + r"\n2-ply grading: B - A = ([+-][\d.]+)", "{:+.2f}",
                     (ENGINE,))
              for section in [f"plain 2-ply (GAMMON_PLIES=2), seed {seed}: Q7 -> {net}"
                              for seed in (1, 2) for net in ("G1c", "F256")]
              + [f"GAMMON_LEVEL={level}, seed {seed}: Q7 -> G1c"
                 for level in ("strongest", "world-class") for seed in (1, 2)]),
        note="Q7 (the searches' net to stop 58) against G1c (the checker-play net, since stop 59) and F256 "
             "(G1c before its cube-window round) under the same searches, on the same 1,000 decisions"),
    Measurement(
        "engine_speed", "engine_speed.txt",
        "python benchmarks/engine_speed.py --positions 2000 --positions2 30",
        (
            Figure("0-ply time per move, gammon (ms)", r"0-ply best play\s+\d+\s+([\d.]+)", "{:.2f} ms",
                   (README,)),
            Figure("0-ply time per move, gnubg-nn (ms)", r"0-ply best play\s+\d+\s+[\d.]+\s+([\d.]+)",
                   "{:.2f} ms", (README,)),
            Figure("0-ply speed ratio gnubg-nn / gammon", r"0-ply best play\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)",
                   "{:.2f}", (README, ENGINE), Target(">=", 1.5, ISSUE12)),
            Figure("2-ply time per move, gammon (ms)", r"2-ply pruned\s+\d+\s+([\d.]+)", "{:.0f} ms",
                   (README,)),
            Figure("2-ply time per move, gnubg-nn (ms)", r"2-ply pruned\s+\d+\s+[\d.]+\s+([\d.]+)",
                   "{:.0f} ms", (README,)),
            Figure("2-ply speed ratio gnubg-nn / gammon", r"2-ply pruned\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)",
                   "{:.2f}", (README, ENGINE), Target(">=", 2.0, ISSUE12)),
        ), weights="C2, the same size as the shipped Q7 (speed does not depend on the weights' values)",
        note="engine_speed_Q7.txt: Q7 on a slower host, both engines slower"),
    Measurement(
        "engine_speed_stop59", "engine_speed_stop59.txt",
        "python benchmarks/engine_speed.py --positions 2000 --positions2 30",
        engine_speed_ratios("the checker-play net under the search")
        + tuple(Figure(f"2-ply {how} time per move, {who} (ms)", pattern, "{:.1f} ms", (README, ENGINE))
                for how, who, pattern in (
                    ("pruned", "gammon", r"2-ply pruned\s+\d+\s+([\d.]+)"),
                    ("pruned", "gnubg-nn", r"2-ply pruned\s+\d+\s+[\d.]+\s+([\d.]+)"))),
        note="stop 59: the searches read the six extra inputs since"),
    Measurement(
        "engine_speed_crashed", "engine_speed_crashed.txt",
        "python benchmarks/engine_speed.py --positions 2000 --positions2 30 [--weights W], three runs "
        "each of the shipped 0-ply net X2, R5 and Q7, alternating",
        tuple(Figure(f"0-ply speed ratio gnubg-nn / gammon, the 0-ply net with its crashed net, run {i}",
                     rf"X2 run {i}: 0-ply best play\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", "{:.2f}", (ENGINE,),
                     Target(">=", 1.5, ISSUE36 + ": 0-ply must stay >= 1.5x gnubg's")) for i in (1, 2, 3))
        + (Figure("the lowest of the three (run 3), in the README's range",
                  r"X2 run 3: 0-ply best play\s+\d+\s+[\d.]+\s+[\d.]+\s+([\d.]+)", "{:.2f}-", (README,)),),
        weights=X2, note="R5 and Q7 (two nets) in the same runs: 1.56-1.66"),
    engine_speed_ab("engine_speed_delta", "stop 51", "stop 50", "e328407, a git worktree",
                    "each roll's results in one loop from the board before the roll", lowest=2, weights=X2),
    engine_speed_ab("engine_speed_stop52", "stop 52", "stop 51", "fe7f36d, a git clone",
                    "a roll's results valued from the points they change", lowest=3,
                    two_ply="the inner nodes' plays valued in one loop from the board before the roll "
                            "(the pruned: the pruning net's picks)", weights=X2),
    engine_speed_ab("engine_speed_extras", "stop 54", "stop 53", "9086c9f, a git clone",
                    "the 0-ply net reading the six extra inputs", lowest=LOWEST_EXTRAS,
                    two_ply="the searching net, which reads none of them",
                    args=" --sample-weights src/gammon/ai/data/weights.npz"),
    match_pr_measurement("world-class", Target("<=", 2.5, ISSUE12), None, (README, ENGINE), depth=2,
                         weights=Q7_CUBE),
    match_pr_measurement("expert", Target("<=", 3.0, ISSUE12), Target("<=", 4.0, ISSUE12), (README, ENGINE),
                         depth=2, weights=C2),
    match_pr_measurement("strongest", None, None, (README, ENGINE), depth=2, weights=Q7_CUBE),
    cube0ply_measurement("world-class", None, None, weights=G1C_CUBE,
                         note="world-class as it was to stop 56 (the 1-ply blend), "
                              "the cube decided with the 0-ply net"),
    cube0ply_measurement("strongest", Target("<=", 1.0, ISSUE36), weights=G1C_CUBE),
    shipped_level_measurement("match_pr_strongest_seed2", "strongest", 2, "match_pr_strongest_cube2_seed2",
                              "strongest, seed 2", Target("<=", 1.0, ISSUE36),
                              "the shipped nets and defaults of stop 56 (the cube decided with the 0-ply net); "
                              "other dice", weights=G1C_CUBE),
    *(shipped_level_measurement(f"match_pr_world_class_2ply{suffix}", "world-class", seed,
                                f"match_pr_world-class_2ply{suffix}", f"world-class (2-ply), seed {seed}",
                                Target("<=", 1.5, ISSUE36),
                                "world-class searching 2 plies over fewer plays than strongest, since stop 57",
                                weights=G1C_CUBE)
      for seed, suffix in ((1, ""), (2, "_seed2"))),
    *(shipped_level_measurement(run, level, seed, run, f"{level}, the cube by the cube net, seed {seed}",
                                Target("<=", pr, ISSUE36), CUBE_NET_NOTE,
                                extra=f"--cube-weights {CUBE_NET_RUN} ",
                                weights="shipped" if level == "expert" else Q7_SEARCH_CUBE_NET)
      for level, out, suffix, pr in (
          ("world-class", "match_pr_world-class_2ply", "_C1x", 1.5),
          ("strongest", "match_pr_strongest_cube2", "_C1x", 1.0),
          ("expert", "match_pr_expert_cube2_rollmet", "_C1xcube", 2.0))
      for seed in ((1, 2, 3) if level == "expert" else (1, 2))
      for run in (f"{out}{'' if seed == 1 else '_seed2'}{suffix}",)),
    *(shipped_level_measurement(run, level, seed, run,
                                f"{level}, the checker-play net under the search, seed {seed}",
                                Target("<=", pr, ISSUE36),
                                "the shipped nets and defaults since stop 59: the checker-play net G1c under "
                                "the search, the cube by the cube net")
      for level, out, pr in (("strongest", "match_pr_strongest_cube2", 1.0),
                             ("world-class", "match_pr_world-class_2ply", 1.5))
      for seed in (1, 2)
      for run in (f"{out}{'' if seed == 1 else '_seed2'}_G1csearch",)),
    *(shipped_level_measurement(run, "expert", seed, run, f"expert, D2 playing alone, seed {seed}",
                                Target("<=", 2.0, ISSUE36),
                                "the checkers by deep9's D2, the cube by the cube net; G1c (shipped) on the "
                                "same dice: the _C1xcube runs", weights=D2_ALONE,
                                extra=f"--weights training/deep9/D2/weights.npz --cube-weights {CUBE_NET_RUN} ")
      for seed in (1, 2, 3)
      for run in (f"match_pr_expert_alone{'' if seed == 1 else f'_seed{seed}'}",)),
    Measurement(
        "match_pr_expert_rollmet", "match_pr_expert_cube2_rollmet.txt",
        "python benchmarks/match_pr.py --level expert --matches 45 --seed 1 "
        "--out benchmarks/results/match_pr_expert_cube2_rollmet",
        (
            Figure("expert, our rolled-out table: PR by gnubg's 2-ply analysis, 45 7-point matches",
                   match_pr(3), "{:.2f}", (README, ENGINE), Target("<=", 2.0, ISSUE36)),
            Figure("expert, our rolled-out table: cube error by gnubg (mEMG per close decision)", match_pr(2),
                   "{:.1f}", (README, ENGINE), Target("<=", 2.0, ISSUE36)),
            Figure("expert, our rolled-out table: checker error by gnubg (mEMG per move)", match_pr(1),
                   "{:.1f}", (ENGINE,)),
        ), note="the match equity table of our own rollouts, the default since 2026-12-05; no money games",
        weights=G1C_CUBE),
    Measurement(
        "match_pr_expert_rollmet_seed2", "match_pr_expert_cube2_rollmet_seed2.txt",
        "python benchmarks/match_pr.py --level expert --matches 45 --seed 2 --ray --workers 2 "
        "--out benchmarks/results/match_pr_expert_cube2_rollmet_seed2",
        (
            Figure("expert, seed 2: PR by gnubg's 2-ply analysis, 45 7-point matches", match_pr(3), "{:.2f}",
                   (ENGINE,), Target("<=", 2.0, ISSUE36)),
            Figure("expert, seed 2: cube error by gnubg (mEMG per close decision)", match_pr(2), "{:.1f}",
                   (ENGINE,), Target("<=", 2.0, ISSUE36)),
        ), note="a second seed of the run above (other dice)", weights=G1C_CUBE),
    gammon_bias_measurement("gammon_bias_shipped", "gammon_bias_deep6.txt",
                            "lopsided positions, shipped nets"),
    gammon_bias_measurement("gammon_bias_C2", "gammon_bias_cube_window.txt", "lopsided positions, the C2 net",
                            C2),
    gammon_bias_measurement("gammon_bias_L2", "gammon_bias_late_hit.txt", "lopsided positions, the L2 net", L2),
    gammon_bias_measurement("gammon_bias_d6", "gammon_bias_deep5.txt", "lopsided positions, the d6 net", D6),
    Measurement(
        "late_hit_bias", "late_hit_bias.txt",
        "python benchmarks/late_hit_bias.py --positions 400 --seed 1 --weights "
        + " ".join(f"training/{net}/weights.npz" for net in LATE_HIT_NETS),
        tuple(late_hit_figure(net, col, what, shown)
              for net in LATE_HIT_NETS
              for col, what, shown in ((1, "the hit side's win bias against gnubg 2-ply", "{:+.3f}"),
                                       (2, "its equity bias", "{:+.3f}"),
                                       (3, "mean absolute equity error", "{:.3f}"))),
        weights="the six nets named (d6, L1, L2, L3, C2, Q7 = shipped)"),
    Measurement(
        "race_tables", "race_tables.txt", "python benchmarks/race_tables.py --positions 4000 --seed 1",
        (
            Figure("races of up to four checkers: the race net's mean |win difference| from the tables",
                   r"win: .*mean \|difference\| ([\d.]+)", "{:.3f}", (ENGINE,)),
            Figure("the same, share of races it misvalues by more than 0.10 in equity",
                   r"share > 0.10: ([\d.]+)", "{:.3f}", (ENGINE,)),
        )),
    gammon_bias_measurement("gammon_bias_deep4", "gammon_bias_deep4.txt", "lopsided positions, the deep4 net",
                            DEEP4),
    gammon_bias_measurement("gammon_bias_deep3", "gammon_bias_deep3.txt", "lopsided positions, the deep3 net",
                            DEEP3),
    gammon_bias_measurement("gammon_bias_3805k", "gammon_bias_3805k.txt",
                            "lopsided positions, the 3,805,000-game nets", TD3805),
    gammon_bias_measurement("gammon_bias", "gammon_bias.txt", "lopsided positions", PREVIOUS),
    Measurement(
        "lopsided1_heldout", "../../training/lopsided1/log.txt", "bash training/run_lopsided1.sh",
        (
            Figure("self-play lopsided, held out: net - rollout, lose gammon", BIAS.format("lg"),
                   "{:+.3f}", (ENGINE,)),
            Figure("self-play lopsided, held out: net - rollout, win gammon", BIAS.format("wg"),
                   "{:+.3f}", (ENGINE,)),
        ), weights=PREVIOUS, note="a training run's log (training/lopsided1)"),
    Measurement(
        "lopsided2_heldout", "../../training/lopsided2/log.txt", "bash training/run_lopsided2.sh",
        (
            Figure("constructed lopsided, held out: net - rollout, win gammon", BIAS.format("wg"),
                   "{:+.3f}", (ENGINE,)),
            Figure("constructed lopsided, held out: net - rollout, lose gammon", BIAS.format("lg"),
                   "{:+.3f}", (ENGINE,)),
            Figure("constructed lopsided, held out: net - rollout, win backgammon",
                   BIAS.format("wbg"), "{:+.3f}", (ENGINE,)),
        ), weights=PREVIOUS, note="a training run's log (training/lopsided2)"),
    Measurement(
        "vs_gnubg_expert", "vs_gnubg_expert.txt",
        "python benchmarks/vs_gnubg.py --level expert --summary-only",
        (
            Figure("expert: 7-point matches won vs gnubg 0-ply (%)", r"won \d+ of \d+: ([\d.]+)%", "{:.1f}%",
                   (VS_GNUBG,)),
            Figure("expert: protocol errors", r"protocol errors: (\d+)", "{:.0f}", (VS_GNUBG,),
                   Target("==", 0, "issue 15")),
            Figure("expert: PR by gnubg's 2-ply analysis (half the overall mEMG rate)",
                   r"gammon\s+chequer.*overall\s+([\d.]+)", "{:.2f}", (), Target("<=", 3.0, ISSUE12), 0.5),
            Figure("expert: cube error by gnubg (mEMG per close decision)",
                   r"gammon\s+chequer.*cube\s+([\d.]+) mEMG", "{:.2f}", (VS_GNUBG,),
                   Target("<=", 4.0, ISSUE12)),
        ), weights=PREVIOUS),
    Measurement(
        "vs_gnubg_strongest", "vs_gnubg_strongest.txt",
        "python benchmarks/vs_gnubg.py --level strongest --summary-only",
        (
            Figure("strongest: 7-point matches won vs gnubg 0-ply (%)", r"won \d+ of \d+: ([\d.]+)%",
                   "{:.1f}%", (VS_GNUBG,), Target(">=", 50.0, "issue 15")),
            Figure("strongest: protocol errors", r"protocol errors: (\d+)", "{:.0f}", (VS_GNUBG,),
                   Target("==", 0, "issue 15")),
        ), weights=PREVIOUS),
    Measurement(
        "rollout_speed", "rollout_speed.txt", "python benchmarks/rollout_speed.py --trials 1296 --repeat 2",
        tuple(rollout_speed_figure(setting, how, cpu)
              for setting in ("cubeless", "cubeless+VR", "cubeful+VR")
              for how in ("rollout itself", "whole command") for cpu in (False, True)),
        note="1,296 trials at 0-ply on one core beside gnubg 1.07, the engines alternating; stop 51's "
             "engine: rollout_speed_stop51.txt (one run: _stop51_once), stop 50's on the same idle "
             "machine: rollout_speed_stop50.txt, on a loaded one: rollout_speed_2026-12-05.txt"),
    *(Measurement(
        f"rollout_speed_stop{stop}", f"rollout_speed_stop{stop}.txt",
        "python benchmarks/rollout_speed.py --settings cubeless --repeat 3",
        tuple(rollout_speed_figure("cubeless", how, cpu) for how in ("rollout itself", "whole command")
              for cpu in (False, True)),
        note=f"stop {stop}: {what}")
      for stop, what in ((59, "the command ends without the interpreter's teardown"),
                         (60, "the bear-off tables mapped from their unpacked copy in the user cache"))),
    Measurement(
        "rollout_speed_stop61", "rollout_speed_stop61.txt",
        "python benchmarks/rollout_speed.py --trials 1296 --repeat 2",
        tuple(rollout_speed_figure(setting, how, cpu)
              for setting in ("cubeless", "cubeless+VR", "cubeful+VR")
              for how in ("rollout itself", "whole command") for cpu in (False, True)),
        note="stop 61: the kernels borrow their callers' arrays (no reference counting in the hot loops), "
             "numba loads them without its compiler's refresh, the commands import less"),
    Measurement(
        "engine_speed_stop61", "engine_speed_stop61.txt",
        "python benchmarks/engine_speed.py --positions 2000 --positions2 30 "
        "--sample-weights src/gammon/ai/data/weights-standard-0ply.npz",
        engine_speed_ratios("borrowed arrays (stop 61)")
        + tuple(Figure(f"{how} time per move, {who} (ms), stop 61", pattern, fmt, (README, ENGINE))
                for how, who, pattern, fmt in (
                    ("0-ply", "gammon", r"0-ply best play\s+\d+\s+([\d.]+)", "{:.3f} ms"),
                    ("0-ply", "gnubg-nn", r"0-ply best play\s+\d+\s+[\d.]+\s+([\d.]+)", "{:.3f} ms"),
                    ("2-ply pruned", "gammon", r"2-ply pruned\s+\d+\s+([\d.]+)", "{:.1f} ms"),
                    ("2-ply pruned", "gnubg-nn", r"2-ply pruned\s+\d+\s+[\d.]+\s+([\d.]+)", "{:.1f} ms"))),
        note="the positions of stop 59's run (sampled with G1c, which the expert played then)"),
    Measurement(
        "alone_net_stop61", "alone_net_stop61.txt",
        "GAMMON_PLIES=0 [GAMMON_WEIGHTS=W] python ../shared/referee/judge.py benchmarks/gammon_adapter.py "
        "--n 1000 --ply2 --seed S --json F; ... duel.py benchmarks/gammon_adapter.py --games 1000 --luck "
        "--seed S; python benchmarks/judge_compare.py G1c.json D2.json",
        alone_net_figures(), weights="deep9's D2 beside the shipped G1c (D2 measured in stop 61, not shipped)",
        note="seeds 3 to 6; seeds 1 and 2: deep9.txt (D2) and judge_0ply.txt (G1c)"),
    Measurement(
        "rollout1", "rollout1.txt",
        "python benchmarks/rollout_fit.py NETS --data training/rollout1-data/s8/dataset.npz --gnubg "
        "(and r9); the judge, duel.py and cube_errors.py --policies ahead2 with GAMMON_WEIGHTS / --weights "
        "training/rollout1/F1/weights.npz (each command in the file)",
        rollout1_figures(),
        weights="rollout1's F1, F2, FC beside the shipped G1c (measured in stop 62, not shipped)",
        note="the held-out rollouts are local (training/run_rollout1.sh remakes them)"),
    Measurement(
        "probes_stop63", "probes_stop63.txt",
        "python benchmarks/sibling_noise.py --data training/rollout1-data/s8/dataset.npz --groups 100; "
        "python training/rollout1/race_inputs.py [4 3e-4 | 16 3e-3 | targets]; the judge and duel.py at "
        "GAMMON_PLIES=2 with the leaf-net patch in the file (each command in the file)",
        probes_stop63_figures(),
        weights="shipped G1c; in the leaf probe rollout1's F1 valuing its search's leaves (not shipped)",
        note="the rollout datasets are local (training/run_rollout1.sh remakes them)"),
    Measurement(
        "probes_stop64", "probes_stop64.txt",
        "python benchmarks/cube_errors.py x --cache "
        "benchmarks/results/cube_decisions_expert_q7_blended.json.gz --policies rollout --roll-trials T "
        "--weights src/gammon/ai/data/weights-standard-cube.npz (each command in the file)",
        probes_stop64_figures(),
        weights="shipped: the cube net C1x deciding and playing the rollouts"),
    Measurement(
        "cube2", "cube2.txt",
        "python benchmarks/rollout_fit.py NETS --data training/cube2-data/h7/dataset.npz --gnubg; python "
        "benchmarks/cube_errors.py x --cache benchmarks/results/cube_decisions_expert_q7_blended.json.gz "
        "--policies ahead2 --weights W (each command in the file)",
        cube2_figures(),
        weights="the shipped cube net C1x beside cube2's C2x (measured in stop 63, not shipped)",
        note="the held-out rollouts are local (training/run_cube2.sh remakes them)"),
    Measurement(
        "match_pr_strongest_cube2_seed2_C2x", "match_pr_strongest_cube2_seed2_C2x.txt",
        "python benchmarks/match_pr.py --level strongest --matches 45 --length 7 --money-games 20 --session 5 "
        "--analyse-plies 2 --cube-plies 2 --seed 2 --cube-weights training/cube2/C2x/weights.npz "
        "--out benchmarks/results/match_pr_strongest_cube2_seed2_C2x",
        match_pr_figures("strongest, the cube by cube2's C2x, seed 2", Target("<=", 1.0, ISSUE36),
                         Target("<=", 2.0, ISSUE36), (ENGINE,)),
        weights="shipped checker-play nets and cube2's C2x deciding the cube (stop 63, not shipped)",
        note="the same dice as match_pr_strongest_cube2_seed2_G1csearch.txt (the shipped cube net C1x)"),
    Measurement(
        "match_pr_strongest_cube2_seed2_roll648", "match_pr_strongest_cube2_seed2_roll648.txt",
        "python benchmarks/match_pr.py --level strongest --matches 45 --length 7 --money-games 20 --session 5 "
        "--analyse-plies 2 --cube-plies 2 --ray --workers 2 --seed 2 --cube-rollout 648 "
        "--out benchmarks/results/match_pr_strongest_cube2_seed2_roll648",
        match_pr_figures("strongest, close cube calls rolled out at 648 trials, seed 2",
                         Target("<=", 1.0, ISSUE36), Target("<=", 2.0, ISSUE36), (ENGINE,)),
        weights="shipped",
        note="the strongest level as shipped in stop 65, its close cube calls rolled out (Level.cube_rollout "
             "648); the same dice as match_pr_strongest_cube2_seed2_G1csearch.txt (the look-ahead alone)"),
    Measurement(
        "cube_policies_rollmet", "cube_policies_rollmet.txt",
        "python benchmarks/cube_errors.py x --cache benchmarks/results/cube_decisions_expert_3805k.json.gz "
        "--summary-only [--met model | --met /usr/share/gnubg/met/Kazaross-XG2.xml], then --policies "
        "root0,ahead1 and --policies ahead2 --limit 1000, each with and without --met model",
        tuple(Figure(f"cube logic alone on gnubg's probabilities, {what} (EMG, 5,685 decisions)",
                     rf"match equity table: {name}\nmodel: [^:]+: ([\d.]+) EMG", "{:.3f}", (ENGINE,))
              for what, name in (("model table", r"gammon \(own model\)"),
                                 ("our rolled-out table", r"gammon \(own rollouts\)"),
                                 ("Kazaross-XG2", "Kazaross[^\\n]*"))) + tuple(
            Figure(f"our cube code, {policy}, {which} (EMG)",
                   rf"{marker}(?:.*\n)*?\| {policy} \| ([\d.]+) \|", "{:.3f}", (ENGINE,))
            for policy, pairs in (("root0", _MODEL_THEN_OURS), ("ahead1", _MODEL_THEN_OURS),
                                  ("ahead2", ((r"table: model", "model table, first 1,000"),
                                              (r"table: rollout", "rolled-out table, first 1,000"))))
            for marker, which in pairs),
        note="paired: the same stored decisions re-decided under each table (issue 35/36, 2026-12-05)"),
    Measurement(
        "gammon_rate", "gammon_rate.txt", "python benchmarks/gammon_rate.py --trials 5184",
        (
            Figure("gammons per game in our own play (opening rollout)",
                   r"(?m)^  gammons per game ([\d.]+)", "{:.4f}", (ENGINE,)),
            Figure("gammons per game in GNU Backgammon's own play",
                   r"GNU Backgammon: .*\n  gammons per game ([\d.]+)", "{:.4f}", (ENGINE,)),
            Figure("gammons per game, gammon - GNU Backgammon",
                   r"gammon - GNU Backgammon: ([+-][\d.]+)", "{:+.4f}", (ENGINE,)),
        ), note="both engines' 0-ply self-play of the opening, 5,184 variance-reduced trials each"),
    Measurement(
        "judge_gammons", "judge_gammons.txt",
        "python benchmarks/judge_gammons.py JUDGE.json --cache "
        "~/.cache/gammon-referee/decisions_sSEED_n1000.jsonl"
        " (after judge.py ... --seed SEED --json JUDGE.json; seeds 1 and 2)",
        tuple(Figure(f"seed {s}: {what}, GNU Backgammon's best play - our error, by our net",
                     rf"judge_s{s}\.json: .*\n(?:.*\n)*?{key}\s+best - ours ([+-][\d.]+)", "{:+.4f}", (ENGINE,))
              for s in (1, 2) for what, key in (("wins", "win"), ("gammon losses", "lose g"))),
        note="the judge's 0-ply errors (> 0.020), both plays valued by the shipped net"),
    Measurement(
        "deep6", "deep6.txt", "training/run_deep6.sh, then duel.py / judge.py / sibling_ranking.py / "
        "late_hit_bias.py with GAMMON_WEIGHTS=training/deep6/NET/weights.npz (the commands in deep6.txt)",
        tuple(Figure(f"F10 vs gnubg 0-ply, seed {s}, luck-adjusted ppg",
                     rf"F10 vs gnubg0, seed {s}: luck-adjusted points/game: ([+-][\d.]+)", "{:+.3f}", (ENGINE,),
                     Target(">=", 0.0, ISSUE36)) for s in (1, 2))
        + tuple(Figure(f"{label} vs C2, seed {s}, luck-adjusted ppg",
                       rf"{net} vs C2, seed {s}: luck-adjusted points/game: ([+-][\d.]+)", "{:+.3f}", (ENGINE,))
                for net, label in (("F10", "F10"), ("Q7", "Q7 (shipped)")) for s in (1, 2))
        + tuple(Figure(f"F10 judge, seed {s} (mp/decision)",
                       rf"F10 seed {s}: 2-ply referee: mean equity loss ([\d.]+)", "{:.2f}", (ENGINE,),
                       Target("<=", 3.5, ISSUE36)) for s in (1, 2))
        + (Figure("F10 regret change on unseen sibling groups (s61)",
                  r"F10/weights.npz: 20129 groups.*paired change ([+-][\d.]+)", "{:+.5f}", (ENGINE,)),)
        + tuple(Figure(f"Q7 (shipped) judge paired against C2, seed {s} (mp/decision)",
                       rf"Q7 seed {s}: .*paired vs C2: 2-ply grading: B - A = ([+-][\d.]+)", "{:+.2f}",
                       (ENGINE,))
                for s in (1, 2)),
        weights="training/deep6's candidates (F10; Q7 = shipped)",
        note="C2 refined with the ranking term (issue 36, 2026-12-05)"),
    Measurement(
        "met_crawford", "met_crawford.txt", "python benchmarks/met_crawford.py --per-case 1000",
        tuple(Figure(f"{label} rolled out with our play (leader's MWC, %)",
                     rf"(?m)^{label}\s+([\d.]+)", "{:.2f}%", (ENGINE,))
              for label in ("Crawford 1a/2a", "post-Crawford 1a/4a")),
        note="30,000 cubeful trials a score, the table in use for the scores reached"),
    Measurement(
        "analysis_speed", "analysis_speed.txt", "python benchmarks/analysis_speed.py --gnubg",
        (
            Figure("analysis of a 7-point match at 2-ply, wall clock (s)",
                   r"gammon analysis at \d-ply, \d+ processes: ([\d.]+) s", "{:.1f} s", (ANALYSIS,)),
            Figure("the same per 150 decisions (s)", r"processes: [\d.]+ s \((\d+) ms per decision\)",
                   "{:.1f} s", (ANALYSIS,), Target("<", 60.0, "issue 13: a match of ~150 decisions"), 0.15),
            Figure("GNU Backgammon / gammon analysis time", r"ratio gnubg/gammon ([\d.]+)", "{:.2f}",
                   (ANALYSIS,)),
        )),
    Measurement(
        "analysis_luck", "analysis_luck.txt", "python benchmarks/analysis_luck.py --games 100",
        (
            Figure("luck-adjusted / raw SD over self-play games", r"SD ratio adjusted/raw: ([\d.]+)", "{:.2f}",
                   (ANALYSIS,)),
        ), weights=DEEP2),
    agreement_measurement("q7", "previous (the searching net Q7, before the 0-ply net of its own shipped "
                                "and the analysis engine, a 0-ply level, took it: dfad48c)"),
    agreement_measurement("g1c", G1C_CUBE),
    agreement_measurement("c1xcube", "shipped"),
    *(Measurement(
        f"analysis_agreement_gnubg{p}", f"analysis_agreement_gnubg{p}.txt",
        f"python benchmarks/analysis_agreement.py --gnubg-variant {p} (the stored matches of "
        "analysis_agreement.tar.bz2 analysed by GNU Backgammon itself at another depth)",
        tuple(Figure(f"GNU Backgammon {p}-ply against its 2-ply: {label}", pattern, shown, (ANALYSIS,))
              for label, pattern, shown in (
                  ("PR rank correlation", r"Spearman rank correlation of PR: ([\d.]+)", "{:.3f}"),
                  ("mean |PR difference|", rf"mean \|PR gnubg{p} - PR gnubg\|: ([\d.]+)", "{:.2f}"),
                  ("mean PR bias", rf"mean bias \(gnubg{p} - gnubg\): ([+-]?[\d.]+)", "{:+.2f}"),
                  ("doubtful-or-worse marks: precision",
                   r"doubtful or worse \(\?!, \?, \?\?\): precision ([\d.]+)", "{:.2f}"),
                  ("doubtful-or-worse marks: recall", r"doubtful or worse .*recall ([\d.]+)", "{:.2f}"),
                  ("cube errors of the same kind, GNU Backgammon 2-ply's",
                   r"all errors: GNU Backgammon's errors gnubg\d calls the same kind ([\d.]+)", "{:.2f}"),
                  ("cube errors of the same kind, its own",
                   r"all errors: .*; gnubg\d's errors GNU Backgammon calls the same kind ([\d.]+)", "{:.2f}"),
                  ("PR it gives GNU Backgammon 2-ply's self-play", rf"PR by gnubg{p} ([\d.]+)", "{:.2f}"))),
        weights="none of ours (GNU Backgammon 1.07's own nets)",
        note="the same 18 matches as analysis_agreement_q7: how closely the referee agrees with itself "
             "(issue 35)") for p in (0, 1, 3)),
    Measurement(
        "analysis_vs_gnubg", "analysis_vs_gnubg.txt",
        "python benchmarks/analysis_vs_gnubg.py --length 7 --seed 2",
        (
            Figure("expert: checker error rate by gammon's analysis (mEMG)", r"(?m)^expert\s+\d+\s+([\d.]+)",
                   "{:.1f}", (ANALYSIS,)),
        ), weights=PREVIOUS),
)


def raw_text(m: Measurement) -> str | None:
    if m.raw is None:
        return None
    path = RESULTS / m.raw
    return results_archive.read_text(path) if results_archive.exists(path) else None


def read_value(f: Figure, text: str) -> float | None:
    found = re.search(f.pattern, text)
    return None if found is None else float(found.group(1)) * f.scale


def check(only: set[str] | None = None) -> tuple[list[str], int]:
    """The report's lines and the number of problems (unbacked or mismatched figures)."""
    docs = {d: (ROOT / d).read_text(encoding="utf-8") for d in (README, ENGINE, VS_GNUBG, ANALYSIS)
            if (ROOT / d).exists()}
    lines, problems = [], 0
    for m in MEASUREMENTS:
        if only and m.name not in only:
            continue
        text = raw_text(m)
        where = str((RESULTS / m.raw).resolve().relative_to(ROOT)) if m.raw else "no raw output"
        head = f"== {m.name}: {m.command}"
        if m.env:
            head = f"== {m.name}: {' '.join(f'{k}={v}' for k, v in m.env.items())} {m.command}"
        lines.append(head)
        lines.append(f"   raw output: {where}{'' if text is not None else ' (MISSING)'}; weights: {m.weights}"
                     + (f"; {m.note}" if m.note else ""))
        for f in m.figures:
            value = None if text is None else read_value(f, text)
            if value is None:
                status = "NOT REPRODUCED (no raw output)" if text is None else "NOT FOUND in the raw output"
                lines.append(f"   {f.label}: {status}; target {f.target or '-'}")
                # a document may name the figure only as not reproduced
                problems += int(text is not None)
                continue
            shown = f.shown.format(value)
            missing = [d for d in f.docs if d in docs and shown not in docs[d]]
            problems += len(missing)
            verdict = "no target" if f.target is None else ("MET" if f.target.met(value) else "MISSED")
            if f.target is not None and m.weights != "shipped":
                verdict += f" (with the {m.weights} weights; NOT REPRODUCED with the shipped ones)"
            shown_in = ", ".join(f.docs) or "raw output only"
            bad = f"; NOT SHOWN as {shown!r} in {', '.join(missing)}" if missing else ""
            target = f"target {f.target}: {verdict}" if f.target else verdict
            lines.append(f"   {f.label}: {shown} [{shown_in}] {target}{bad}")
    return lines, problems


def run(name: str) -> int:
    m = next((x for x in MEASUREMENTS if x.name == name), None)
    if m is not None and m.raw is not None and m.raw.startswith("../"):
        print(f"error: {name} is a training run's log: run {m.command} itself", file=sys.stderr)
        return 2
    if m is None or m.raw is None:
        print(f"error: no measurement {name!r} (one of: {', '.join(x.name for x in MEASUREMENTS)})",
              file=sys.stderr)
        return 2
    env = {**os.environ, **m.env}
    print(f"running: {m.command} (raw output to benchmarks/results/{m.raw})", flush=True)
    # The stored output is replaced only by a run that succeeds: a failed one leaves it as it was.
    target = RESULTS / m.raw
    partial = target.with_name(target.name + ".partial")
    with partial.open("w", encoding="utf-8") as out:
        argv = m.command.split()
        if argv[0] == "python":  # this interpreter (the project's environment)
            argv[0] = sys.executable
        proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:  # progress as it comes, and every line kept
            print(line, end="", flush=True)
            out.write(line)
        code = proc.wait()
    if code != 0:
        partial.unlink()
        print(f"error: {m.command} exited {code}; {m.raw} left as it was", file=sys.stderr)
        return code
    partial.replace(target)
    lines, _ = check({name})
    print("\n".join(lines))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--run", metavar="NAME", help="rerun one measurement and store its raw output")
    ap.add_argument("--list", action="store_true", help="the measurements and their commands")
    ap.add_argument("--out", type=Path, help="also write the report here")
    args = ap.parse_args()
    if args.list:
        for m in MEASUREMENTS:
            print(f"{m.name}: {m.command} -> benchmarks/results/{m.raw}")
        return 0
    if args.run:
        return run(args.run)
    lines, problems = check()
    lines.append(f"{problems} figure(s) shown in a document differ from their raw output or lack it"
                 if problems else "every figure checked is shown as its raw output says")
    text = "\n".join(lines) + "\n"
    print(text, end="")
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
