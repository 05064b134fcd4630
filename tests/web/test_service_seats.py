"""The web service's own seat checks, tested on :class:`gammon.web.service.GameService` itself.

The rules the service promises (``gammon.web.service``):

* a token holds one seat of one game; any other token, or none, is refused (``forbidden``);
* only the seat that must act now may act: anyone else gets ``not_your_turn`` from the
  service, before the game core is asked (the core's own refusal reads ``illegal_action``);
  the opening roll (and the roll that starts the next game) is open to either seat;
* a hint is for the roll the asking seat has to play now: the seat not on roll, a seat that
  has not rolled yet, a spectator or a stranger gets none;
* each seat's view lists only the actions that seat may take; a spectator's lists none.

Every refusal leaves the game unchanged: same version, same action log.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

import gammon.web.hints as hints
from gammon.ai.cube import CubeInfo
from gammon.core.fair_dice import derive_roll
from gammon.store.repository import open_store
from gammon.web.service import (
    Command,
    ConflictError,
    ForbiddenError,
    GameService,
    GameSetup,
    NotFoundError,
)

# A seed whose opening throw is no tie, and one for each starter.
SEEDS = [bytes(range(k, k + 32)) for k in range(64)]
SEED_P0 = next(s for s in SEEDS if derive_roll(s, 0)[0] > derive_roll(s, 0)[1])
SEED_P1 = next(s for s in SEEDS if derive_roll(s, 0)[0] < derive_roll(s, 0)[1])


@dataclass
class Table:
    service: GameService
    game_id: str
    tokens: tuple[str, str]

    def act(self, seat: int, action: str, **kw: object) -> object:
        return self.service.act(self.game_id, self.tokens[seat], Command(action, **kw))  # type: ignore[arg-type]

    def view(self, seat: int | None):  # type: ignore[no-untyped-def]
        return self.service.view(self.game_id, None if seat is None else self.tokens[seat])

    def state(self) -> tuple[int, int]:
        version, actions = self.service.action_log(self.game_id)
        return version, len(actions)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameService]:
    store = open_store(str(tmp_path_factory.mktemp("seats") / "gammon.db"))
    yield GameService(store, allow_test_seeds=True)
    store.dispose()


@pytest.fixture(autouse=True)
def heuristic_hints(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    # Hints rank with the heuristic here: the seat checks do not depend on the engine.
    monkeypatch.setattr(service.hint_engines, "_by_engine", lambda level, position, dice, match: None)


def new_table(service: GameService, seed: bytes, creator_seat: int = 0, **rules: object) -> Table:
    # Hints open for both (an agreed setting between people), so the seat checks of hints are reached.
    settings = {"hints": True, **rules}
    created = service.create_game(GameSetup(opponent="human", test_seed=seed, seat=creator_seat,
                                            **settings))  # type: ignore[arg-type]
    assert created.invite_token is not None
    # Joining consumes the invitation; the guest acts with the fresh seat token it is given.
    joined = service.join(created.game_id, created.invite_token)
    tokens = [created.token, joined.token]
    if creator_seat == 1:
        tokens.reverse()
    return Table(service, created.game_id, (tokens[0], tokens[1]))


def refused(table: Table, seat: int, action: str, code: str, **kw: object) -> None:
    before = table.state()
    with pytest.raises(ConflictError) as info:
        table.act(seat, action, **kw)
    assert info.value.code == code, (action, str(info.value))
    assert table.state() == before


# -- tokens --------------------------------------------------------------------------------------


def test_tokens_hold_their_own_seat_only(service: GameService) -> None:
    t = new_table(service, SEED_P0, creator_seat=1)
    assert service.seat_for(t.game_id, t.tokens[0]) == 0
    assert service.seat_for(t.game_id, t.tokens[1]) == 1
    assert service.seat_for(t.game_id, None) is None
    other = new_table(service, SEED_P0)
    for bad in ("", "x" * 43, other.tokens[0], other.tokens[1]):
        with pytest.raises(ForbiddenError):
            service.act(t.game_id, bad, Command("roll"))
        with pytest.raises(ForbiddenError):
            service.hint(t.game_id, bad)
    with pytest.raises(ForbiddenError):
        service.act(t.game_id, None, Command("roll"))
    with pytest.raises(ForbiddenError):
        service.view(t.game_id, other.tokens[0])
    with pytest.raises(NotFoundError):
        service.act("no-such-game", t.tokens[0], Command("roll"))
    assert t.state() == (t.state()[0], 0)


def test_nobody_acts_before_the_guest_joins(service: GameService) -> None:
    created = service.create_game(GameSetup(opponent="human", test_seed=SEED_P0))
    before = service.action_log(created.game_id)
    with pytest.raises(ConflictError) as info:
        service.act(created.game_id, created.token, Command("roll"))
    assert info.value.code == "waiting_for_opponent"
    assert service.action_log(created.game_id) == before
    assert created.view.allowed_actions == [] and not created.view.your_turn


# -- whose turn ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "starter"), [(SEED_P0, 0), (SEED_P1, 1)], ids=["p0-starts", "p1-starts"])
@pytest.mark.parametrize("opener", [0, 1])
def test_either_seat_may_throw_the_opening_then_only_the_starter_plays(
        service: GameService, seed: bytes, starter: int, opener: int) -> None:
    t = new_table(service, seed)
    for seat in (0, 1):
        v = t.view(seat)
        assert v.allowed_actions == ["roll"] and v.to_act is None
    t.act(opener, "roll")
    mover, other = starter, 1 - starter
    assert t.view(mover).allowed_actions == ["play", "resign"] and t.view(mover).your_turn
    assert t.view(other).allowed_actions == [] and not t.view(other).your_turn
    assert t.view(None).allowed_actions == [] and t.view(None).you is None
    # the other seat: refused by the service's own turn check, nothing stored
    for action, kw in (("roll", {}), ("resign", {}), ("double", {}), ("take", {}), ("drop", {}),
                     ("accept", {}), ("reject", {})):
        refused(t, other, action, "not_your_turn", **kw)
    legal = t.view(mover).legal_plays
    assert legal
    refused(t, other, "play", "not_your_turn", play=legal[0].notation)
    # the mover plays; then it is the other seat's turn, and the mover is refused
    t.act(mover, "play", play=legal[0].notation)
    assert t.view(other).allowed_actions == ["roll", "double", "resign"]
    assert t.view(mover).allowed_actions == []
    refused(t, mover, "roll", "not_your_turn")
    refused(t, mover, "double", "not_your_turn")
    refused(t, mover, "resign", "not_your_turn")


def test_only_the_doubled_seat_answers_a_double(service: GameService) -> None:
    t = new_table(service, SEED_P0)
    t.act(0, "roll")
    t.act(0, "play", play=t.view(0).legal_plays[0].notation)
    t.act(1, "double")
    assert t.view(0).allowed_actions == ["take", "drop", "resign"]
    assert t.view(1).allowed_actions == []
    refused(t, 1, "take", "not_your_turn")
    refused(t, 1, "drop", "not_your_turn")
    refused(t, 1, "roll", "not_your_turn")
    t.act(0, "take")
    v = t.view(1)
    assert v.allowed_actions == ["roll", "resign"]  # the cube is player 0's now
    refused(t, 1, "double", "illegal_action")  # the core refuses: the opponent owns the cube


def test_only_the_other_seat_answers_a_resignation(service: GameService) -> None:
    t = new_table(service, SEED_P1)
    t.act(0, "roll")
    t.act(1, "resign", kind="gammon")
    assert t.view(0).allowed_actions == ["accept", "reject"]
    assert t.view(1).allowed_actions == []
    refused(t, 1, "accept", "not_your_turn")
    refused(t, 1, "reject", "not_your_turn")
    t.act(0, "accept")
    refused(t, 0, "roll", "game_over")
    refused(t, 1, "roll", "game_over")
    assert t.view(0).allowed_actions == [] and t.view(1).allowed_actions == []


def test_the_turn_check_holds_for_a_cached_and_a_reloaded_game(service: GameService) -> None:
    t = new_table(service, SEED_P0)
    t.act(1, "roll")
    service.evict(t.game_id)  # the next call replays the game from the store
    refused(t, 1, "play", "not_your_turn", play=t.view(0).legal_plays[0].notation)
    assert t.view(0).your_turn


def test_a_joined_game_in_memory_equals_the_game_read_back(service: GameService) -> None:
    # Joining writes the seats and the time of the change; the copy in memory must carry the same
    # time as the stored row, or a reloaded game differs from the cached one (seen as a flake in CI).
    t = new_table(service, SEED_P0)
    time.sleep(0.002)  # the join's time must differ from the creation's for the check to bite
    for seat in (0, 1, None):
        cached = t.view(seat).model_dump()
        service.evict(t.game_id)
        assert t.view(seat).model_dump() == cached
    assert t.view(None).updated_at > t.view(None).created_at


# -- hints -------------------------------------------------------------------------------------


def hint_refused(t: Table, seat: int | None) -> None:
    before = t.state()
    with pytest.raises((ConflictError, ForbiddenError)) as info:
        t.service.hint(t.game_id, None if seat is None else t.tokens[seat])
    if seat is None:
        assert isinstance(info.value, ForbiddenError)
    else:
        assert isinstance(info.value, ConflictError) and info.value.code == "no_hint"
        assert str(info.value) == "a hint is for the roll you have to play, and you have none now"
    assert t.state() == before


@pytest.mark.parametrize(("seed", "starter"), [(SEED_P0, 0), (SEED_P1, 1)], ids=["p0-starts", "p1-starts"])
def test_hints_only_for_the_seat_on_roll_with_a_roll_to_play(
        service: GameService, seed: bytes, starter: int) -> None:
    t = new_table(service, seed)
    for seat in (0, 1, None):
        hint_refused(t, seat)  # the opening throw is not yet made
    t.act(1 - starter, "roll")
    mover, other = starter, 1 - starter
    hint_refused(t, other)
    hint_refused(t, None)
    h = service.hint(t.game_id, t.tokens[mover])
    view = t.view(mover)
    assert h.dice == view.dice and h.version == view.version
    legal = {p.notation for p in view.legal_plays}
    assert h.plays and {p.notation for p in h.plays} <= legal
    # after the play the roles change: the former mover has nothing to play, and the other
    # seat has not rolled yet
    t.act(mover, "play", play=h.plays[0].notation)
    hint_refused(t, mover)
    hint_refused(t, other)
    t.act(other, "roll")
    hint_refused(t, mover)
    h2 = service.hint(t.game_id, t.tokens[other])
    assert h2.dice == t.view(other).dice
    assert {p.notation for p in h2.plays} <= {p.notation for p in t.view(other).legal_plays}


def test_no_hint_while_a_double_or_resignation_waits(service: GameService) -> None:
    t = new_table(service, SEED_P0)
    t.act(0, "roll")
    t.act(0, "play", play=t.view(0).legal_plays[0].notation)
    t.act(1, "double")
    hint_refused(t, 0)
    hint_refused(t, 1)
    t.act(0, "take")
    t.act(1, "roll")
    if t.view(1).legal_plays:
        t.act(1, "resign")
        hint_refused(t, 1)
        hint_refused(t, 0)


def test_the_computer_seat_is_offered_no_actions(service: GameService) -> None:
    """Views for the computer's seat (sent to watchers) list nothing a person could do there."""
    created = service.create_game(GameSetup(opponent="computer", test_seed=SEED_P1, seat=0))
    views = service.updates_since(created.game_id, 0, [0, 1, None]).views
    assert views[0].allowed_actions == ["roll"]  # the person throws the opening
    assert views[1].allowed_actions == [] and not views[1].your_turn
    assert views[None].allowed_actions == []


# -- the other refusals of act(), with their words ------------------------------------------------


def refused_with(table: Table, seat: int, command: Command, code: str, message: str,
                 expected_version: int | None = None) -> None:
    before = table.state()
    with pytest.raises(ConflictError) as info:
        table.service.act(table.game_id, table.tokens[seat], command, expected_version)
    assert (info.value.code, str(info.value)) == (code, message)
    assert table.state() == before


def test_refusals_name_the_reason(service: GameService) -> None:
    created = service.create_game(GameSetup(opponent="human", test_seed=SEED_P0))
    with pytest.raises(ConflictError) as info:
        service.act(created.game_id, created.token, Command("roll"))
    assert str(info.value) == "waiting for the opponent to join"
    with pytest.raises(ForbiddenError) as forbidden:
        service.act(created.game_id, "not-a-token", Command("roll"))
    assert str(forbidden.value) == "this token holds no seat in this game"

    t = new_table(service, SEED_P0, match_length=3)
    refused_with(t, 0, Command("play", play="8/5 6/5"), "illegal_action",
                 "the game starts with the opening roll: send 'roll'")
    version = t.view(0).version
    refused_with(t, 0, Command("roll"), "version_conflict",
                 f"the game is at version {version}, not {version - 1}: reload it",
                 expected_version=version - 1)
    acted = t.service.act(t.game_id, t.tokens[0], Command("roll"), version)
    assert acted.view is not None and acted.view.you == 0 and acted.version > version
    assert t.service.act(t.game_id, t.tokens[0], Command("resign", kind="gammon"), want_view=False).view is None
    refused_with(t, 0, Command("roll"), "not_your_turn", "it is player 1's turn to act, not yours")
    t.act(1, "accept")  # 0-2: the next game starts with a roll from either seat
    refused_with(t, 1, Command("play", play="8/5 6/5"), "illegal_action",
                 "the next game starts with the opening roll: send 'roll'")
    mover = None
    for _ in range(20):  # the Crawford game's opening throw (again after a tie)
        t.act(1, "roll")
        mover = t.view(0).to_act
        if mover is not None:
            break
    assert mover is not None
    t.act(mover, "resign", kind="gammon")
    t.act(1 - mover, "accept")
    assert t.view(0).status == "finished"
    refused_with(t, 0, Command("roll"), "game_over", "the game is over")
    refused_with(t, 1, Command("roll"), "game_over", "the game is over")


def test_a_hint_carries_the_engine_ranking_for_the_seat_on_roll(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    t = new_table(service, SEED_P0)
    t.act(0, "roll")
    view = t.view(0)
    position = service._current(t.game_id).game.position  # the mover's position, for the fake engine
    plays = list(position.legal_plays(tuple(view.dice)))  # type: ignore[arg-type]
    assert len(plays) > 6
    seen: list[tuple[object, object]] = []

    def fake_engine(level: str, pos: object, dice: object, match: object) -> tuple[str, list[hints.RankedHint]]:
        seen.append((level, pos, dice))
        return "fake", [hints.RankedHint(p, 0.5 - i / 100, -i / 100, 0.6 - i / 200)
                        for i, p in enumerate(plays)]

    monkeypatch.setattr(service.hint_engines, "_by_engine", fake_engine)
    h = service.hint(t.game_id, t.tokens[0])
    # Between people, at the service's hint level.
    assert seen == [(service.hint_level, position, tuple(view.dice))]
    assert h.game_id == t.game_id and h.engine == "fake" and h.dice == view.dice
    assert len(h.plays) == 5  # the default count
    for i, (hp, p) in enumerate(zip(h.plays, plays, strict=False)):
        assert hp.notation == str(p)
        assert [(m.from_point, m.to_point, m.hit) for m in hp.moves] == \
            [(m.from_point, m.to_point, m.hit) for m in p.moves]
        assert (hp.equity, hp.difference, hp.win) == (0.5 - i / 100, -i / 100, 0.6 - i / 200)
    assert len(service.hint(t.game_id, t.tokens[0], count=2).plays) == 2


def test_a_seat_whose_time_ran_out_acts_no_more(service: GameService) -> None:
    """With a clock, the seat to act loses the match when its time runs out: its next action is
    refused as a game over ("time ran out"), the timeout is stored, and nobody acts after it."""
    t = new_table(service, SEED_P0, clock_delay=0.05, clock_reserve=0.2)
    t.act(1, "roll")  # the opening: nobody's clock runs before it
    mover = 0
    assert t.view(mover).allowed_actions == ["play", "resign"]
    time.sleep(0.6)  # the mover's delay and reserve are spent
    version, count = t.state()
    with pytest.raises(ConflictError) as info:
        t.act(mover, "resign")
    assert info.value.code == "game_over" and str(info.value) == "time ran out: the game is over"
    _, log = service.action_log(t.game_id)
    assert len(log) == count + 1 and log[-1].type == "timeout" and log[-1].player == mover
    for seat in (0, 1):
        with pytest.raises(ConflictError) as info:
            t.act(seat, "roll")
        assert info.value.code == "game_over" and str(info.value) == "the game is over"
        assert t.view(seat).allowed_actions == []
    assert service.action_log(t.game_id)[1] == log


def test_a_hint_values_plays_at_the_games_score_and_cube(service: GameService,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints rank plays at the match score and cube of the game (not as money play)."""
    seen: list[object] = []

    def record(level: str, position: object, dice: object, match: object) -> None:
        seen.append(match)
        return None  # then the heuristic ranks

    monkeypatch.setattr(service.hint_engines, "_by_engine", record)
    t = new_table(service, SEED_P0, match_length=5)
    t.act(1, "roll")
    service.hint(t.game_id, t.tokens[0])
    (match,) = seen
    assert isinstance(match, CubeInfo)
    assert match.match_length == 5 and match.score == (0, 0) and match.value == 1


def test_no_hints_between_people_who_turned_them_off(service: GameService) -> None:
    """A game created without hints gives none during play, not even to the seat on roll."""
    t = new_table(service, SEED_P0, hints=False)
    t.act(1, "roll")
    assert t.view(0).allowed_actions == ["play", "resign"]
    before = t.state()
    for seat in (0, 1):
        with pytest.raises(ForbiddenError) as info:
            service.hint(t.game_id, t.tokens[seat])
        assert info.value.code == "hints_off"
        assert str(info.value) == ("hints are off in this game: both players agreed to play without the "
                                   "engine's help (the analysis opens when the game is over)")
    assert t.state() == before
