"""The rated queue's pairing and the challenges' rules, on a clock the test moves: the closest
rating waiting is paired, the gap allowed widens with time, one queue per player, challenges
expire and only the challenged player accepts."""

from __future__ import annotations

import pytest

from gammon.web.service.errors import ConflictError, ForbiddenError, InvalidError, NotFoundError
from gammon.web.service.matchmaking import (
    BASE_GAP,
    CHALLENGE_TTL,
    GAP_PER_SECOND,
    STALE_AFTER,
    Challenges,
    MatchQueue,
    Paired,
    Presence,
    Seeker,
)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def setup() -> tuple[MatchQueue, Clock, list[tuple[str, str, int]]]:
    clock, made = Clock(), []

    def start(a: Seeker, b: Seeker, length: int) -> Paired:
        made.append((a.name, b.name, length))
        return Paired(f"g{len(made)}", {a.account_id: 0, b.account_id: 1})

    return MatchQueue(start, clock), clock, made


def who(name: str, rating: float) -> Seeker:
    return Seeker(name.lower(), name, rating)


def test_the_closest_rating_is_paired_and_the_others_wait() -> None:
    q, _, made = setup()
    q.join(who("Ann", 1500), 3)
    q.join(who("Far", 1800), 3)
    assert made == []  # 300 apart: too far at once
    assert q.join(who("Bob", 1530), 3).state == "matched"  # Bob fits Ann (30 < 50)
    assert made == [("Ann", "Bob", 3)]
    assert q.state("ann").game_id == q.state("bob").game_id == "g1"
    assert q.state("far").state == "waiting"


def test_lengths_have_queues_of_their_own() -> None:
    q, _, made = setup()
    q.join(who("Ann", 1500), 1)
    q.join(who("Bob", 1500), 3)
    assert made == [] and q.waiting_counts()[1] == q.waiting_counts()[3] == 1


def test_the_gap_widens_with_waiting_time() -> None:
    q, clock, made = setup()
    q.join(who("Ann", 1500), 5)
    q.join(who("Cat", 1700), 5)
    assert made == []
    for _ in range(int((200 - BASE_GAP) / GAP_PER_SECOND) - 1):  # not yet (both keep asking)
        clock.t += 1
        assert q.state("ann").state == q.state("cat").state == "waiting" and made == []
    clock.t += 1
    assert q.state("cat").state == "matched" and made == [("Ann", "Cat", 5)]


def test_the_oldest_first_with_its_closest_rating() -> None:
    q, clock, made = setup()
    q.join(who("Old", 1500), 7)
    clock.t += 1
    q.join(who("Far", 1800), 7)
    q.join(who("Near", 1700), 7)  # 100 from Far: too far for both at once
    assert made == []
    clock.t += 4  # windows of 90: nobody fits yet
    assert q.state("old").state == q.state("far").state == q.state("near").state == "waiting"
    clock.t += (300 - BASE_GAP) / GAP_PER_SECOND - 4  # every window now takes Near and Far for Old
    assert q.state("far").state == "waiting"  # asking pairs whom the windows allow now
    assert made == [("Old", "Near", 7)]  # the oldest, with the closest: Near (200) before Far (300)
    assert q.state("near").state == "matched"


def test_a_player_who_stops_asking_leaves_the_queue() -> None:
    q, clock, made = setup()
    q.join(who("Gone", 1500), 1)
    clock.t += STALE_AFTER + 1  # the page was closed: no more questions
    q.join(who("Here", 1500), 1)
    assert made == [] and q.state("gone").state == "idle" and q.state("here").state == "waiting"


def test_one_queue_per_player_and_lengths_checked() -> None:
    q, _, _ = setup()
    q.join(who("Ann", 1500), 1)
    assert q.join(who("Ann", 1500), 1).state == "waiting"  # again: no change
    with pytest.raises(ConflictError):
        q.join(who("Ann", 1500), 3)
    with pytest.raises(InvalidError):
        q.join(who("Bob", 1500), 4)
    assert q.leave("ann") and q.state("ann").state == "idle" and not q.leave("ann")


def test_a_failed_game_leaves_both_waiting() -> None:
    def start(a: Seeker, b: Seeker, length: int) -> Paired:
        raise ConflictError("no", "x")

    q = MatchQueue(start)
    q.join(who("Ann", 1500), 1)
    with pytest.raises(ConflictError):
        q.join(who("Bob", 1500), 1)
    assert q.waiting_counts()[1] == 2


def test_challenges_accept_decline_cancel_expire() -> None:
    clock, made = Clock(), []

    def start(a: Seeker, b: Seeker, length: int) -> Paired:
        made.append((a.name, b.name))
        return Paired("g", {a.account_id: 0, b.account_id: 1})

    ch = Challenges(start, clock)
    ann, bob, eve = who("Ann", 1500), who("Bob", 1500), who("Eve", 1500)
    with pytest.raises(ConflictError):
        ch.send(ann, "ann", "Ann", 1)
    c = ch.send(ann, "bob", "Bob", 3)
    with pytest.raises(ForbiddenError):
        ch.answer(c.id, ann, True)  # the sender cannot accept for the other
    with pytest.raises(NotFoundError):
        ch.answer(c.id, eve, True)  # nor can a third account, which does not even see it
    assert ch.answer(c.id, bob, True).game_id == "g" and made == [("Ann", "Bob")]
    with pytest.raises(ConflictError):
        ch.answer(c.id, bob, False)
    d = ch.send(ann, "bob", "Bob", 1)
    assert ch.answer(d.id, bob, False).status == "declined"
    e = ch.send(ann, "bob", "Bob", 1)
    clock.t += CHALLENGE_TTL + 1
    with pytest.raises(NotFoundError):
        ch.answer(e.id, bob, True)
    assert ch.of("bob") == ([], [])
    for _ in range(5):
        ch.send(ann, "bob", "Bob", 1)
    with pytest.raises(ConflictError):
        ch.send(ann, "bob", "Bob", 1)


def test_presence_forgets_after_five_minutes() -> None:
    clock = Clock()
    p = Presence(clock)
    p.seen("a", "Ann")
    clock.t += 200
    p.seen("b", "bob")
    assert p.online() == ["Ann", "bob"]
    clock.t += 200
    assert p.online() == ["bob"]
