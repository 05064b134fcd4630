"""A match lost on time (a game clock ran out): core's rule, and every record format saying so.

The rule (:class:`gammon.core.actions.Timeout`): only the player the game waits
for can run out of time (never during the opening roll, where both throw);
whoever does loses the match.  In match play the opponent scores what is still
missing to win it, in a money session the game at the cube (a single game), and
the session ends there.

The records: gammon's JSON keeps the action (``{"action": "timeout", ...}``),
``.mat`` ends the game ``Wins N points on time``, SGF writes ``RE[B+Time]`` with
a comment; each reads back to the same match, the loss on time and the final
score included.  GNU Backgammon (whose formats have no loss on time) must load
both files without a complaint: it reads the ``.mat`` ending as the loser's
resignation and leaves the SGF game unfinished.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gammon.core.dice import RandomDice
from gammon.core.errors import IllegalActionError, Reason
from gammon.core.game import AcceptResignation, Double, Event, Move, Phase, Resign, Roll, Rules, Take, Timeout
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.mat import MatFormatError, read_mat, write_mat
from gammon.formats.record_json import match_from_json, match_to_json
from gammon.formats.sgf import read_sgf, write_sgf
from gnubg_program import needs_gnubg, run_gnubg
from matches import assert_same_match, play_match, trace

NAMES = ("Alice", "Bob")


def in_play(rules: Rules, *, turns: int = 6, score: tuple[int, int] = (0, 0), seed: int = 3) -> Match:
    """A match ``turns`` plays into a game (at ``score``), the next player to roll."""
    m = Match(rules, RandomDice(seed), score=score)
    m.apply(Roll(0))
    played = 0
    while played < turns or m.game.phase is not Phase.ROLL:
        g = m.game
        if g.phase is Phase.MOVE:
            m.apply(Move(g.turn, g.legal_plays()[0]))
            played += 1
        else:
            m.apply(Roll(g.turn))
    return m


# -- the rule -------------------------------------------------------------------------------------


def test_losing_on_time_in_a_match_gives_the_opponent_the_match() -> None:
    m = in_play(Rules(match_length=7), score=(3, 5))
    loser = m.game.player_to_act
    events = m.apply(Timeout(loser))
    assert m.is_over and m.timed_out == loser and m.winner == 1 - loser
    # the winner scores what was missing to reach 7, the loser keeps his points
    assert m.score[1 - loser] == 7 and m.score[loser] == (3, 5)[loser]
    r = m.game.result
    assert r is not None and r.timeout and r.winner == 1 - loser and r.points == 7 - (3, 5)[1 - loser]
    kinds = [e.kind for e in events]
    assert kinds == ["timeout", "game-over", "score", "match-over"]
    assert "ran out of time" in events[0].text and "on time" in events[-1].text


def test_losing_on_time_in_a_money_session_costs_the_game_at_the_cube_and_ends_it() -> None:
    m = in_play(Rules(match_length=0, jacoby=False))
    assert not m.is_over  # a session without a game limit: only a loss on time ends it early
    doubler = m.game.turn
    m.apply(Double(doubler))  # the answerer's clock runs now: he must take or drop
    m.apply(Timeout(1 - doubler))
    assert m.score[doubler] == 1 and m.score[1 - doubler] == 0  # the cube before the double, single
    assert m.is_over and m.winner == doubler and m.allowed_actions() == []


def test_only_the_player_the_game_waits_for_can_run_out_of_time() -> None:
    m = Match(Rules(match_length=5))
    with pytest.raises(IllegalActionError) as opening:
        m.apply(Timeout(0))
    assert opening.value.reason is Reason.NOT_ROLLED and "opening" in str(opening.value)
    m = in_play(Rules(match_length=5))
    waiting = m.game.player_to_act
    before = m.snapshot()
    with pytest.raises(IllegalActionError) as wrong:
        m.apply(Timeout(1 - waiting))
    assert wrong.value.reason is Reason.OUT_OF_TURN and f"player {waiting}" in str(wrong.value)
    assert m.snapshot() == before  # a refusal changes nothing
    # a resignation offered: the one who must answer it is the one whose time runs
    m.apply(Resign(waiting, ResultKind.GAMMON))
    m.apply(Timeout(1 - waiting))
    assert m.timed_out == 1 - waiting and m.winner == waiting
    with pytest.raises(IllegalActionError) as over:
        m.apply(Timeout(waiting))
    assert over.value.reason is Reason.MATCH_OVER
    assert Timeout not in {type(a) for a in in_play(Rules()).allowed_actions()}  # never a player's choice


def test_a_record_with_a_loss_on_time_replays() -> None:
    m = in_play(Rules(match_length=5), seed=5)
    m.apply(Timeout(m.game.player_to_act))
    again = Match.replay(m.rules, m.record)
    assert again.score == m.score and again.timed_out == m.timed_out and again.is_over


# -- the records ----------------------------------------------------------------------------------


def lost_on_time(rules: Rules, *, doubled: bool = False, rolled: bool = False) -> Match:
    """Games played out by random players, then in the next one a player runs out of time (before
    rolling, after rolling, or with a double to answer)."""
    m = play_match(4, rules, stop_after=60)
    while True:
        g = m.game
        assert not m.is_over
        if g.is_over:
            m.next_game()
        elif g.phase is Phase.ROLL:
            break
        elif g.phase is Phase.OPENING:
            m.apply(Roll(0))
        elif g.phase is Phase.MOVE:
            m.apply(Move(g.turn, g.legal_plays()[0]))
        elif g.phase is Phase.DOUBLED:
            m.apply(Take(1 - g.turn))
        elif g.phase is Phase.RESIGNED:
            m.apply(AcceptResignation(g.player_to_act))
        else:  # pragma: no cover
            raise AssertionError(g.phase)
    if doubled:
        assert m.game.can_double()
        m.apply(Double(m.game.turn))
    elif rolled:
        m.apply(Roll(m.game.turn))
    m.apply(Timeout(m.game.player_to_act))
    return m


CASES = [
    pytest.param(Rules(match_length=7), {}, id="match"),
    pytest.param(Rules(match_length=7), {"doubled": True}, id="match-double-pending"),
    pytest.param(Rules(match_length=7), {"rolled": True}, id="match-after-the-roll"),
    pytest.param(Rules(match_length=0, jacoby=False, beavers=False), {}, id="money"),
]


@pytest.mark.parametrize(("rules", "how"), CASES)
def test_every_format_reads_back_the_loss_on_time_and_the_score(rules: Rules, how: dict[str, bool]) -> None:
    m = lost_on_time(rules, **how)
    loser = m.timed_out
    assert loser is not None
    mat = write_mat(m, NAMES)
    sgf = write_sgf(m, NAMES)
    js = match_to_json(m, NAMES)
    points = m.game.result.points if m.game.result else 0
    assert f"Wins {points} point{'s' if points != 1 else ''} on time" in mat.splitlines()[-1]
    assert f"RE[{'WB'[1 - loser]}+Time]" in sgf
    assert f"C[{NAMES[loser]} ran out of time and loses the match" in sgf
    last = json.loads(js)["games"][-1][-1]
    assert last == {"action": "timeout", "player": loser}
    assert json.loads(js)["score"] == m.score
    for back in (read_mat(mat).replay(), read_sgf(sgf).replay(), match_from_json(js)):
        assert back.timed_out == loser and back.is_over and back.winner == 1 - loser
        assert back.score == m.score
        assert_same_match(back, m)


def test_a_mat_win_on_time_is_checked() -> None:
    m = lost_on_time(Rules(match_length=7))
    mat = write_mat(m, NAMES)
    points = m.game.result.points if m.game.result else 0
    wrong_points = mat.replace(f"Wins {points} points on time", f"Wins {points + 1} points on time")
    with pytest.raises(MatFormatError) as err:
        read_mat(wrong_points)
    assert f"losing on time gives {points}" in str(err.value)
    # a win on time by the player the game was waiting for: the other one ran out, which cannot be
    lines = mat.rstrip("\n").splitlines()
    winner_column = lines[-1].index("Wins")
    moved = " " * (6 if winner_column > 6 else 34) + lines[-1].strip()
    with pytest.raises(MatFormatError) as err:
        read_mat("\n".join([*lines[:-1], moved]) + "\n")
    assert "ran out of time" in str(err.value) and "waiting for" in str(err.value)


@needs_gnubg
@pytest.mark.parametrize("via", ["mat", "sgf"])
def test_gnu_backgammon_loads_a_loss_on_time(tmp_path: Path, via: str) -> None:
    """GNU Backgammon has no loss on time: it must load our files without a complaint, every move up to
    the end as ours; it reads the .mat ending as the loser's resignation, the SGF game as unfinished."""
    m = lost_on_time(Rules(match_length=7))
    loser = m.timed_out
    if via == "mat":
        (tmp_path / "in.mat").write_text(write_mat(m, NAMES))
        load = "import mat in.mat"
    else:
        (tmp_path / "in.sgf").write_text(write_sgf(m, NAMES))
        load = "load match in.sgf"
    run_gnubg(tmp_path, [load, "export match mat out.mat"])  # fails on any warning GNU Backgammon gives
    back = read_mat((tmp_path / "out.mat").read_text()).replay()
    ours, theirs = trace(m), trace(back)
    assert theirs[:-1] == ours[:-1]  # the games before
    before_the_end = ours[-1][:-1]
    assert theirs[-1][:len(before_the_end)] == before_the_end  # the last game up to the time running out
    r = back.game.result
    if via == "mat":
        assert r is not None and r.resigned and r.winner == 1 - loser
    else:
        assert r is None and not back.is_over


def test_the_game_over_event_says_the_game_was_won_on_time() -> None:
    # The game ends "on time", not by a single, gammon or backgammon: its event says so in words
    # and marks it, with the points the rule gives (all that was missing: 7 - 3 here).
    m = Match(Rules(match_length=7), score=(3, 5))
    m.apply(Roll(0, (1, 3)))  # player 1 won the opening roll and must move
    events = m.apply(Timeout(1))
    end = next(e for e in events if e.kind == "game-over")
    assert end == Event("game-over", 0, "player 0 wins 4 points (on time)",
                        {"points": 4, "kind": "single", "timeout": True})
