"""Resignations and Acey-Deucey's named double are decisions the analysis judges.

From the rules: a resignation of ``k`` games is worth exactly ``-k`` cubes to
the resigner (the game lost so); playing on is worth the position's value.
The offer is wrong when it gives away more than the position is worth, an
acceptance when playing on is worth more to the one who accepts, a refusal
when the offer is worth more.  After a 1-2 in Acey-Deucey the player names the
double he likes: naming one whose best play is worth less is a checker error.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from boards import pos
from gammon.ai.cube import CubeInfo
from gammon.analysis import analyse_match
from gammon.analysis.decisions import analyse_choice, analyse_resign
from gammon.analysis.valuation import Valuer
from gammon.analysis.walk import ChoiceTask, ResignTask, walk
from gammon.core.game import AcceptResignation, ChooseDouble, Game, Move, RejectResignation, Resign, Roll, Rules
from gammon.core.match import Match
from gammon.core.position import Position, ResultKind
from gnubg_program import GNUBG, GNUBG_MISSING


@pytest.fixture(scope="module")
def valuer() -> Valuer:
    return Valuer(plies=0)


# The player on roll (x) has all fifteen checkers on his mid-point and none home; the opponent has one
# checker left on his 1-point.  Whatever x rolls he bears nothing off, and the opponent's next roll ends
# the game: a certain gammon against x (no backgammon: none of x's checkers is in o's home board).
CERTAIN_GAMMON = pos("x: 13:15; o: 1:1")


def resign(position: Position, kind: int, answer: str, player: int = 0, phase: str = "roll",
           info: CubeInfo | None = None) -> ResignTask:
    return ResignTask(0, 1, player, position, info or CubeInfo(), answer=answer, resigner=0, kind=kind,
                      phase=phase, on_roll=0)


def test_accepting_a_single_game_against_a_certain_gammon_is_a_blunder(valuer: Valuer) -> None:
    d = analyse_resign(valuer, resign(CERTAIN_GAMMON, 1, "accept", player=1))
    assert d.kind == "resign" and d.player == 1 and d.played == "accepts a single game"
    assert d.mark == "blunder" and d.error_kind == "wrong acceptance" and d.best == "reject"
    assert d.equity_lost == pytest.approx(1.0, abs=0.05)  # a gammon (2) instead of a single game (1)
    assert d.explanation and "reject" in d.explanation
    # Refusing it is right, and so is offering it.
    assert analyse_resign(valuer, resign(CERTAIN_GAMMON, 1, "reject", player=1)).equity_lost == 0.0
    offer = analyse_resign(valuer, resign(CERTAIN_GAMMON, 1, "offer"))
    assert offer.equity_lost == 0.0 and offer.mark is None and offer.best == "resign a single game"


def test_resigning_a_backgammon_against_a_certain_gammon_gives_a_game_away(valuer: Valuer) -> None:
    offer = analyse_resign(valuer, resign(CERTAIN_GAMMON, 3, "offer"))
    assert offer.error_kind == "wrong resignation" and offer.mark == "blunder" and offer.best == "play on"
    assert offer.equity_lost == pytest.approx(1.0, abs=0.05)
    refused = analyse_resign(valuer, resign(CERTAIN_GAMMON, 3, "reject", player=1))
    assert refused.error_kind == "wrong refusal" and refused.equity_lost == pytest.approx(1.0, abs=0.05)
    assert analyse_resign(valuer, resign(CERTAIN_GAMMON, 3, "accept", player=1)).equity_lost == 0.0
    # The gammon itself is what the position is worth: no error either way.
    for answer, player in (("offer", 0), ("accept", 1), ("reject", 1)):
        d = analyse_resign(valuer, resign(CERTAIN_GAMMON, 2, answer, player))
        assert d.mark is None, (answer, d.equity_lost)


def test_the_cube_multiplies_nothing_in_normalised_equity_but_jacoby_halves_a_gammon(valuer: Valuer) -> None:
    on_four = analyse_resign(valuer, resign(CERTAIN_GAMMON, 1, "accept", 1, info=CubeInfo(value=4, owner=1)))
    assert on_four.equity_lost == pytest.approx(1.0, abs=0.05)  # per cube: the same mistake at any stake
    # The Jacoby rule with a centred cube: a gammon counts one game, so a single game is all it is worth.
    jacoby = analyse_resign(valuer, resign(CERTAIN_GAMMON, 1, "accept", 1, info=CubeInfo(jacoby=True)))
    assert jacoby.mark is None


def test_resigning_at_the_start_is_a_blunder(valuer: Valuer) -> None:
    d = analyse_resign(valuer, resign(Position.initial(), 1, "offer"))
    assert d.error_kind == "wrong resignation" and d.equity_lost > 0.8
    assert analyse_resign(valuer, resign(Position.initial(), 1, "accept", player=1)).equity_lost == 0.0


def test_resigning_when_doubled_is_the_same_as_passing(valuer: Valuer) -> None:
    # x doubles at the start; o resigns a single game instead of answering (the same as a pass).
    task = ResignTask(0, 1, 1, Position.initial(), CubeInfo(), answer="offer", resigner=1, kind=1,
                      phase="doubled", on_roll=0)
    d = analyse_resign(valuer, task)
    assert d.error_kind == "wrong resignation" and d.best == "play on" and d.player == 1
    assert d.cube is not None and d.cube["resign"] == -1.0 and d.cube["play_on"] > -1.0


def test_the_walk_lists_resignations_and_the_figures_count_them() -> None:
    m = Match(Rules())
    m.apply(Roll(0, (3, 1)))
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Resign(1, ResultKind.SINGLE))  # player 1, on roll, resigns at once: a blunder
    m.apply(RejectResignation(0))  # and player 0 refuses a point he is far from earning: a blunder
    m.apply(Resign(1, ResultKind.GAMMON))  # worse
    m.apply(AcceptResignation(0))  # right
    tasks, games = walk(m.rules, m.record)
    resigns = [t for t in tasks if isinstance(t, ResignTask)]
    assert [(t.player, t.answer, t.kind) for t in resigns] == [
        (1, "offer", 1), (0, "reject", 1), (1, "offer", 2), (0, "accept", 2)]
    assert all(t.phase == "roll" and t.on_roll == 1 and t.resigner == 1 for t in resigns)
    assert games[0].resigned and games[0].winner == 0 and games[0].points == 2
    a = analyse_match(m, ("Ann", "Bob"), plies=0, processes=1)
    ann, bob = a.players
    assert bob.resign_decisions == 2 and bob.resign_errors["wrong resignation"] == 2
    assert ann.resign_decisions == 2 and ann.resign_errors == {
        "wrong resignation": 0, "wrong acceptance": 0, "wrong refusal": 1}
    assert bob.marks["blunder"] >= 2 and ann.marks["blunder"] >= 1
    assert bob.error_rate is not None and bob.error_rate > 500  # two resignations worth 1 and 2 games
    decisions = [d for d in a.decisions if d.kind == "resign"]
    assert [d.played for d in decisions] == ["resigns a single game", "rejects a single game",
                                             "resigns a gammon", "accepts a gammon"]
    assert all(d.explanation for d in decisions if d.mark in ("error", "blunder"))
    assert a.to_dict()["players"][1]["resign_errors"]["wrong resignation"] == 2


# -- Acey-Deucey: the double named after a 1-2 --------------------------------------------------

# x has four checkers left on his 6-point, the opponent one on his 1-point: only 6-6 bears all four off
# before the opponent wins.
LAST_CHANCE = pos("x: 6:4; o: 1:1", "acey-deucey")


def test_naming_the_double_that_wins_is_right_and_any_other_a_blunder(valuer: Valuer) -> None:
    info = CubeInfo(gammons=True)
    best = analyse_choice(valuer, ChoiceTask(0, 1, 0, LAST_CHANCE, info, number=6))
    assert best.kind == "choice" and best.best == "6-6" and best.equity_lost == 0.0 and best.mark is None
    assert [a.play.split(":")[0] for a in best.alternatives][0] == "6-6" and len(best.alternatives) == 6
    worst = analyse_choice(valuer, ChoiceTask(0, 1, 0, LAST_CHANCE, info, number=1))
    assert worst.mark == "blunder" and worst.error_kind == "wrong double chosen" and worst.best == "6-6"
    assert worst.played == "chooses 1-1" and worst.equity_lost > 1.0


def test_the_walk_lists_the_named_double() -> None:
    rules = Rules(variant="acey-deucey")
    game = Game(rules)
    game.apply(Roll(0, (5, 3)))
    game.apply(Roll(0, (2, 1)))
    game.apply(Move(0, game.legal_plays()[0]))
    before = game.position  # the 1-2 played, the double to name
    game.apply(ChooseDouble(0, 4))
    tasks, _ = walk(rules, [game.record])
    choices = [t for t in tasks if isinstance(t, ChoiceTask)]
    assert len(choices) == 1 and choices[0].number == 4 and choices[0].player == 0
    assert choices[0].position == before


@pytest.mark.parametrize("info", [CubeInfo(), CubeInfo(owner=0), CubeInfo(owner=1), CubeInfo(match_length=7),
                                  CubeInfo(match_length=7, owner=0), CubeInfo(match_length=7, owner=1)])
def test_a_certain_gammon_is_worth_a_gammon_whoever_owns_the_cube(info: CubeInfo) -> None:
    """Too good to double: the side sure of a gammon plays on for it and the cube changes nothing, so
    the value is the gammon's (what resigning it gives), not a cash (the resignation analysis rests on it)."""
    from gammon.ai.cube import cube_decision
    from gammon.analysis.decisions import resignation_value

    gammon = -resignation_value(2, info).emg
    assert gammon > 1.5
    winning = cube_decision((1.0, 1.0, 0.0, 0.0, 0.0), info)
    losing = cube_decision((0.0, 0.0, 0.0, 1.0, 0.0), info)
    assert winning.equity == pytest.approx(gammon, abs=0.01)
    assert losing.equity == pytest.approx(-gammon, abs=0.01)


def test_a_resignation_at_the_end_goes_into_the_annotated_sgf_and_gnubg_loads_it(tmp_path: Path) -> None:
    from gammon.analysis.annotate import annotated_sgf

    m = Match(Rules(match_length=3))
    m.apply(Roll(0, (3, 1)))
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Resign(1, ResultKind.SINGLE))
    m.apply(AcceptResignation(0))
    text = annotated_sgf(m, analyse_match(m, ("Ann", "Bob"), plies=0, processes=1))
    assert "resigns a single game" in text and "accepts a single game" in text
    assert len(re.findall(r"(?<![A-Z])C\[", text)) == 1  # one node's comment: the play, then the resignation
    if GNUBG is None:
        pytest.skip(GNUBG_MISSING)
    (tmp_path / "a.sgf").write_text(text)
    proc = subprocess.run([GNUBG, "-t", "-q"], input="load match a.sgf\nsave match back.sgf\n", cwd=tmp_path,
                          env={"HOME": str(tmp_path)}, capture_output=True, text=True, timeout=120)
    back = (tmp_path / "back.sgf").read_text()
    assert "resigns a single game" in back, proc.stdout[-2000:]
