"""Seeded whole matches and ways to compare two, shared by the record-format tests.

The .mat, SGF, JSON, GNU Backgammon interoperability, action-record and timeout tests all
play the same seeded matches (cube actions, beavers, resignations, the Crawford game)
through a format and back, and compare the result with these helpers.
"""

from __future__ import annotations

import random

from gammon.core.dice import RandomDice
from gammon.core.game import (
    AcceptResignation,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Game,
    Move,
    Phase,
    RejectResignation,
    Resign,
    Roll,
    Rules,
    Take,
)
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.formats.mat import game_items

#: The kinds of event every round-trip match must hold.
MATCH_FEATURES = {"double", "take", "drop", "resign-accepted", "crawford"}


# -- a seeded driver that plays whole matches with cube actions and resignations -----------


def play_match(
    seed: int,
    rules: Rules | None = None,
    *,
    games_limit: int | None = None,
    double_rate: float = 0.08,
    drop_rate: float = 0.35,
    beaver_rate: float = 0.0,
    resign_rate: float = 0.01,
    reject_rate: float = 0.3,
    stop_after: int | None = None,
) -> Match:
    """A complete match (or money session of ``games_limit`` games) between two random players.

    Plays are chosen at random, preferring hits and bear-offs a little so games
    end; players double, take, drop, beaver, resign and reject resignations now
    and then.  ``stop_after`` stops after that many actions (a match in progress).
    """
    rules = rules or Rules(match_length=7)
    rng = random.Random(seed)
    m = Match(rules, RandomDice(seed), games_limit=games_limit)
    actions = 0
    while not m.is_over:
        if stop_after is not None and actions >= stop_after:
            break
        g = m.game
        if g.is_over:
            m.next_game()
            continue
        actions += 1
        if g.phase is Phase.OPENING:
            m.apply(Roll(0))
        elif g.phase is Phase.ROLL:
            if g.can_double() and rng.random() < double_rate:
                m.apply(Double(g.turn))
            elif len(g.plays) > 4 and rng.random() < resign_rate:
                m.apply(Resign(g.turn, rng.choice([ResultKind.SINGLE, ResultKind.SINGLE, ResultKind.GAMMON])))
            else:
                m.apply(Roll(g.turn))
        elif g.phase is Phase.DOUBLED:
            who = 1 - g.turn
            if rules.is_money and rules.beavers and g.cube_value * 4 <= rules.cube_limit \
                    and rng.random() < beaver_rate:
                m.apply(Beaver(who))
            elif rng.random() < drop_rate:
                m.apply(Drop(who))
            else:
                m.apply(Take(who))
        elif g.phase is Phase.BEAVERED:
            # The doubler answers the beaver: take (cube at four times) or drop.
            m.apply(Drop(g.turn) if rng.random() < drop_rate else Take(g.turn))
        elif g.phase is Phase.MOVE:
            if len(g.plays) > 4 and rng.random() < resign_rate / 2:
                m.apply(Resign(g.turn))
                continue
            plays = g.legal_plays()
            weights = [1 + 2 * p.hits + 2 * sum(mv.to_point == 0 for mv in p.moves) for p in plays]
            m.apply(Move(g.turn, rng.choices(plays, weights)[0]))
        elif g.phase is Phase.CHOOSE_DOUBLE:
            m.apply(ChooseDouble(g.turn, rng.randint(1, 6)))
        elif g.phase is Phase.RESIGNED:
            who = g.player_to_act
            if rng.random() < reject_rate:
                m.apply(RejectResignation(who))
            else:
                m.apply(AcceptResignation(who))
        else:  # pragma: no cover
            raise AssertionError(g.phase)
    return m


def features(m: Match) -> set[str]:
    """Which kinds of event a match holds (to pick seeds that cover them all)."""
    out: set[str] = set()
    for g in m.games:
        rec = g.record
        for i, a in enumerate(rec):
            nxt = rec[i + 1] if i + 1 < len(rec) else None
            if isinstance(a, Double):
                out.add("double")
            elif isinstance(a, Take):
                out.add("take")
            elif isinstance(a, Drop):
                out.add("drop")
            elif isinstance(a, Beaver):
                out.add("beaver")
            elif isinstance(a, Resign):
                out.add("resign-accepted" if isinstance(nxt, AcceptResignation) else "resign-rejected")
                prev = rec[i - 1] if i else None
                if isinstance(prev, Roll) and isinstance(nxt, AcceptResignation):
                    out.add("resign-after-roll")
        if g.crawford_game:
            out.add("crawford")
        if g.result is not None and g.result.kind is not ResultKind.SINGLE and not g.result.resigned:
            out.add("gammon")
        if any(isinstance(a, Roll) and a.dice and a.dice[0] == a.dice[1] for a in rec[:1]):
            out.add("opening-tie")
    return out


def find_match(want: set[str], rules: Rules | None = None, start: int = 1, tries: int = 200,
               **kw: object) -> Match:
    for seed in range(start, start + tries):
        m = play_match(seed, rules, **kw)  # type: ignore[arg-type]
        if want <= features(m):
            return m
    raise AssertionError(f"no seed in {start}..{start + tries} gives {want}")


# -- comparison helpers ------------------------------------------------------------------


def items_of(m: Match) -> list[list[object]]:
    """Each game as the formats see it (ties and rejected resignations dropped)."""
    return [game_items(g).items for g in m.games if g.record]


def trace(m: Match) -> list[list[tuple[object, ...]]]:
    """Per game the states it passes through, without opening ties and resignation offers."""
    out = []
    for g in m.games:
        shadow = Game(g.rules, None, crawford_game=g.crawford_game, score=g.score)
        states: list[tuple[object, ...]] = []
        for a in g.record:
            shadow.apply(a)
            if shadow.phase in (Phase.OPENING, Phase.RESIGNED):
                continue
            s = (shadow.position.position_id, shadow.turn, shadow.phase, shadow.rolled,
                 shadow.cube_value, shadow.cube_owner, shadow.result)
            if not states or states[-1] != s:
                states.append(s)
        if states:
            out.append(states)
    return out


def assert_same_match(a: Match, b: Match) -> None:
    assert items_of(a) == items_of(b)
    assert trace(a) == trace(b)
    assert a.score == b.score
    assert [g.crawford_game for g in a.games if g.record] == [g.crawford_game for g in b.games if g.record]
    assert [g.result for g in a.games if g.record] == [g.result for g in b.games if g.record]
