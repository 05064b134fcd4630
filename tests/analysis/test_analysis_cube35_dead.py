"""Issue 35, D1: a dead cube is no cube decision.

Written from the rule of match play (core's ``cube_is_dead``): the cube is dead
for a player who wins the match by winning this game as a single game at the
present cube.  Holding it is then the only sensible action, so not doubling
is no decision at all: it must not be listed, counted as a "close" cube
decision, nor weigh in the cube error rate or the PR.  On today's main each
such turn was a close decision losing nothing (the issue's game 6: 16 of
them), which diluted the cube error rate of any match reaching a dead cube.
"""

from __future__ import annotations

from gammon.analysis import analyse_match
from gammon.analysis.decisions import is_decision
from gammon.analysis.walk import CubeTask, walk
from gammon.core.cube import cube_is_dead
from gammon.core.game import AcceptResignation, Double, Drop, Move, Resign, Roll, Rules, Take
from gammon.core.match import Match
from gammon.core.position import ResultKind


def _post_crawford_match() -> Match:
    """A 3-point match played to a post-Crawford game: Bob (player 1) 2, Ann (player 0) 1.

    Games 1 and 2: Bob doubles at once and Ann passes (Bob 2-away then 1-away);
    game 3 is the Crawford game, which Bob resigns (Ann 1); game 4 is
    post-Crawford: the cube is dead for Bob (he needs 1 point, the cube is 1)
    and alive for Ann, 2-away, who should double.
    """
    m = Match(Rules(match_length=3))
    for _ in range(2):
        m.apply(Roll(0, (3, 1)))
        m.apply(Move(0, "8/5 6/5"))
        m.apply(Double(1))
        m.apply(Drop(0))
        m.next_game()
    m.apply(Roll(0, (3, 1)))  # the Crawford game
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Resign(1, ResultKind.SINGLE))
    m.apply(AcceptResignation(0))
    m.next_game()
    m.apply(Roll(0, (3, 1)))  # post-Crawford: Ann opens ...
    m.apply(Move(0, "8/5 6/5"))
    m.apply(Roll(1, (6, 4)))  # ... Bob, whose cube is dead, rolls without doubling ...
    m.apply(Move(1, "24/14"))
    m.apply(Roll(0, (5, 2)))  # ... and Ann, 2-away with a live cube, rolls without doubling too
    m.apply(Move(0, "13/8 13/11"))
    return m


def test_the_walk_still_sees_the_dead_cube_turn_but_it_is_no_decision() -> None:
    m = _post_crawford_match()
    tasks, _ = walk(m.rules, m.record)
    last = [t for t in tasks if isinstance(t, CubeTask) and t.game == 3]
    assert [t.player for t in last] == [1, 0]
    bob, ann = last
    assert cube_is_dead(bob.info.match_length, bob.info.score[0], bob.info.value)
    assert not cube_is_dead(ann.info.match_length, ann.info.score[0], ann.info.value)
    assert not is_decision(bob) and is_decision(ann)
    # A double made with a dead cube was a choice: it stays a decision.
    from dataclasses import replace

    assert is_decision(replace(bob, doubled=True))


def test_a_dead_cube_yields_no_cube_decision_and_no_close_decision() -> None:
    m = _post_crawford_match()
    a = analyse_match(m, ("Ann", "Bob"), plies=0, processes=1)
    post = a.games[3]
    cube = [(d.player, d.kind) for d in post.decisions if d.kind == "cube"]
    assert cube == [(0, "cube")]  # Ann's live cube only; Bob's dead one is not listed
    bob = a.players[1]
    # Bob's only cube actions in the match were his two doubles in games 1 and 2.
    assert bob.cube_decisions == 2 and bob.close_cube_decisions == 2
    assert all("dead" not in str((d.cube or {}).get("text", "")) for d in a.decisions)
    assert all(d["kind"] != "cube" or d["player"] == 0 for d in a.to_dict()["games"][3]["decisions"])


def test_a_double_made_with_a_dead_cube_is_judged_and_costs_equity() -> None:
    # Bob, 1-away post-Crawford, doubles anyway: a win still only wins the match, but Ann now
    # owns a cube at 2, and her gammons count double.  Judged by the 1-roll cubeful look-ahead
    # (on today's main its three equities were all the no double's, so the double lost nothing).
    m = _post_crawford_match()
    m.apply(Double(1))
    m.apply(Take(0))
    m.apply(Roll(1, (4, 3)))  # from the bar (Ann hit him) onto her open 3- and 4-points
    m.apply(Move(1, m.game.position.legal_plays((4, 3))[0]))
    a = analyse_match(m, ("Ann", "Bob"), plies=1, processes=1)
    d = [d for d in a.games[3].decisions if d.kind == "cube" and d.player == 1]
    assert len(d) == 1 and d[0].played == "double" and d[0].close
    c = d[0].cube
    assert c is not None and c["double_take"] < c["no_double"]
    assert d[0].equity_lost > 0 and d[0].error_kind == "wrong double (too early)"
    assert "dead" in c["text"]
