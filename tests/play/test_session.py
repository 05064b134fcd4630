"""The session, the one driver of a match: from the rules of DESIGN.md's gammon.play section.

"One Session drives every match: it says which decision is pending and for
whom, takes submit(action), and emits typed events."  These tests hold it to
that: a seeded match driven through it is the match the plain loop over core
plays (actions, score and every event); the pending decision is the one core
waits for; a refused action is core's error and changes nothing; a person's
seat is never asked; a game that never ends is stopped.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gammon.core import events as ev
from gammon.core.actions import (
    AcceptResignation,
    Action,
    Beaver,
    ChooseDouble,
    Double,
    Drop,
    Move,
    NewGame,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from gammon.core.dice import RandomDice
from gammon.core.errors import GammonError, IllegalActionError, Reason
from gammon.core.events import Event, EventKind
from gammon.core.game import Game, Phase, Rules
from gammon.core.match import Match
from gammon.core.position import ResultKind
from gammon.play import session as session_mod
from gammon.play.players import HeuristicPlayer, RandomPlayer
from gammon.play.session import Decision, DecisionKind, Person, Session, next_action, play_match


def _reference(rules: Rules, seed: int, limit: int | None) -> tuple[Match, list[Event]]:
    """The match as the driver before the Session played it: core's Match, next_action, game-start."""
    players = (RandomPlayer(seed, resign_rate=0.02), HeuristicPlayer(seed))
    match = Match(rules, RandomDice(seed), games_limit=limit)
    events: list[Event] = []
    while True:
        m = match
        events.append(Event.of(None, "", ev.GameStart(len(m.games), (m.score[0], m.score[1]),
                                                      m.game.crawford_game)))
        while not match.game.is_over:
            events += match.apply(next_action(match.game, players))
        if match.is_over or (limit is not None and len(match.games) >= limit):
            return match, events
        events += match.apply(NewGame())


RULES = [
    (Rules(beavers=True, automatic_doubles=2), 4),
    (Rules(match_length=5), None),
    (Rules(match_length=7), 2),  # match play stopped early by the limit
    (Rules(variant="acey-deucey", match_length=3), None),
    (Rules(variant="hypergammon"), 3),
]


@pytest.mark.parametrize(("rules", "limit"), RULES)
@pytest.mark.parametrize("seed", range(3))
def test_a_seeded_match_through_the_session_is_the_match_core_plays(rules: Rules, limit: int | None,
                                                                      seed: int) -> None:
    want, want_events = _reference(rules, seed, limit)
    seen: list[Event] = []
    players = (RandomPlayer(seed, resign_rate=0.02), HeuristicPlayer(seed))
    got = play_match(rules, players, RandomDice(seed), limit, on_event=seen.append)
    assert got.actions == want.actions and got.score == want.score
    # The same events in the same order (the game-start text is the session's own words).
    assert [(e.kind, e.player, e.data) for e in seen] == [(e.kind, e.player, e.data) for e in want_events]
    assert all(e.text for e in seen)


def _check_pending(s: Session) -> None:
    """The pending decision is the one core waits for, and names everything it needs."""
    d = s.pending
    if s.finished:
        assert d is None and s.allowed() == []
        return
    assert d is not None and d.game == len(s.match.games)  # type: ignore[union-attr]
    g = s.game
    if g.is_over:
        assert d.kind is DecisionKind.NEXT_GAME and d.player is None and s.allowed() == [NewGame()]
        return
    assert d.player == g.player_to_act
    kinds = {Phase.OPENING: DecisionKind.OPENING_ROLL, Phase.ROLL: DecisionKind.ROLL,
             Phase.DOUBLED: DecisionKind.ANSWER_DOUBLE, Phase.BEAVERED: DecisionKind.ANSWER_BEAVER,
             Phase.MOVE: DecisionKind.MOVE, Phase.CHOOSE_DOUBLE: DecisionKind.CHOOSE_DOUBLE,
             Phase.RESIGNED: DecisionKind.ANSWER_RESIGNATION}
    assert d.kind is kinds[g.phase]
    allowed = s.allowed()
    assert d.may_double == any(isinstance(a, Double) for a in allowed)
    assert d.may_beaver == any(isinstance(a, Beaver) for a in allowed)
    assert d.dice == (g.rolled if g.phase is Phase.MOVE else None)
    assert d.resignation == (g.resignation if g.phase is Phase.RESIGNED else None)
    if d.kind is not DecisionKind.OPENING_ROLL:
        assert {a.player for a in allowed} == {d.player}  # type: ignore[attr-defined]


def _wrong_actions(s: Session, rng: random.Random) -> list[Action]:
    """Actions of every type, for both players, that core does not allow now."""
    g = s.game
    plays = list(g.position.legal_plays((6, 5))) or []
    candidates: list[Action] = [NewGame()]
    for p in (0, 1):
        candidates += [Roll(p), Double(p), Take(p), Drop(p), Beaver(p), AcceptResignation(p),
                       RejectResignation(p), Resign(p, ResultKind.SINGLE), ChooseDouble(p, rng.randint(1, 6))]
        if plays:
            candidates.append(Move(p, rng.choice(plays)))
    allowed = s.allowed()
    return [a for a in candidates if a not in allowed and not (isinstance(a, Move) and g.phase is Phase.MOVE
                                                               and a.player == g.turn)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), which=st.sampled_from(range(len(RULES))))
def test_refused_actions_change_nothing_and_pending_follows_core(seed: int, which: int) -> None:
    rules, limit = RULES[which]
    rng = random.Random(seed)
    seen: list[Event] = []
    players = (RandomPlayer(seed, resign_rate=0.05, double_rate=0.2), RandomPlayer(seed + 1))
    s = Session(Match(rules, RandomDice(seed), games_limit=limit or 2), players, on_event=seen.append)
    for _ in range(400):
        _check_pending(s)
        if s.finished:
            break
        if rng.random() < 0.3:
            before, count = s.match.snapshot(), len(seen)  # type: ignore[union-attr]
            for wrong in rng.sample(_wrong_actions(s, rng), 3):
                with pytest.raises(IllegalActionError):
                    s.submit(wrong)
                assert s.match.snapshot() == before and len(seen) == count  # type: ignore[union-attr]
        s.step()


def test_a_person_is_never_asked_and_decides_by_submit() -> None:
    bot = HeuristicPlayer(1)
    s = Session(Match(Rules(match_length=3), RandomDice(4)), (Person("Ann"), bot))
    events = s.advance()  # Ann throws the opening for both (at the table, or a button on a page)
    assert [e.kind for e in events] == [EventKind.GAME_START]
    assert s.pending == Decision(DecisionKind.OPENING_ROLL, 0, 1)
    assert s.ask() == Roll(0)  # it needs nobody's choice
    s.submit(Roll(0))
    s.advance()  # the bot plays if it starts
    d = s.pending
    assert d is not None and d.player == 0 and s.is_person(0) and not s.is_person(1)
    with pytest.raises(GammonError, match="person"):
        s.ask()
    assert s.advance() == []  # still Ann's decision
    if d.kind is DecisionKind.MOVE:
        s.submit(Move(0, s.game.legal_plays()[0]))
    else:
        s.submit(Roll(0))
    assert s.pending is None or s.pending != d


def test_out_of_turn_is_cores_error() -> None:
    s = Session(Match(Rules(match_length=3), RandomDice(1)))
    s.submit(Roll(0, (6, 1)))  # player 0 starts
    assert s.pending == Decision(DecisionKind.MOVE, 0, 1, dice=(6, 1))
    before = s.match.snapshot()  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError) as err:
        s.submit(Resign(1, ResultKind.SINGLE))
    assert err.value.reason is Reason.OUT_OF_TURN and s.match.snapshot() == before  # type: ignore[union-attr]


def test_the_games_limit_ends_a_match_play_session() -> None:
    bots = (HeuristicPlayer(1), HeuristicPlayer(2))
    s = Session(Match(Rules(match_length=25), RandomDice(2), games_limit=1), bots)
    s.advance()
    assert s.finished and s.pending is None and not s.match.is_over  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="limit of 1 games"):
        s.submit(NewGame())


def test_a_game_that_never_ends_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two people who resign and reject for ever: the session stops them.
    monkeypatch.setattr(session_mod, "MAX_ACTIONS_PER_GAME", 40)
    s = Session(Game(Rules(), RandomDice(3)))
    s.submit(Roll(0))
    with pytest.raises(GammonError, match="did not end within 40 actions"):
        while True:
            who = s.game.player_to_act
            if s.pending.kind is DecisionKind.ANSWER_RESIGNATION:  # type: ignore[union-attr]
                s.submit(RejectResignation(who))
            else:
                s.submit(Resign(who, ResultKind.SINGLE))
    assert len(s.game.record) == 40


def test_a_lone_game_has_no_game_start_and_no_next_game() -> None:
    seen: list[Event] = []
    s = Session(Game(Rules(), RandomDice(5)), (HeuristicPlayer(1), HeuristicPlayer(2)), on_event=seen.append)
    s.advance()
    assert s.finished and s.pending is None and s.game.is_over
    assert seen[-1].kind is EventKind.GAME_OVER and EventKind.GAME_START not in {e.kind for e in seen}
