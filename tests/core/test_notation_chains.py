"""The closest legal plays of an illegal text, where the text writes one checker's chain twice.

``_closest`` ranks plays "by how many of the written segments they share", and a play's
segments (``_chains``) are "the play's single moves and its parts as written": a checker
that goes 24/18/13 with 6-5 is written ``24/13`` and so has the single moves 24/18, 18/13
and the one written part 24/13.  One checker covers one written 24/13, however often the
text writes it: when the text writes ``24/13(2)`` that play shares *one* written segment,
not two, and a play that shares two other written segments ranks ahead of it.
"""

from __future__ import annotations

import pytest

from gammon.core.errors import IllegalPlayError
from gammon.core.notation import _chains, parse_play
from gammon.core.position import Position

START = Position.initial()


def closest(text: str, dice: tuple[int, int]) -> list[str]:
    with pytest.raises(IllegalPlayError) as info:
        parse_play(START, text, dice)
    return str(info.value).split("closest legal plays: ")[1].split(", ")


def test_a_chain_written_once_counts_once() -> None:
    """24/13 with 6-5 (one checker, by whichever stop the generator records): its two single moves and
    its one written part 24/13, each once."""
    (play,) = [p for p in START.legal_plays((6, 5)) if str(p) == "24/13"]
    chains = _chains(play)
    assert chains[(24, 13)] == 1
    assert sum(chains.values()) == 3
    assert all(chains[(m.from_point, m.to_point)] >= 1 for m in play.moves)


@pytest.mark.parametrize(("text", "dice", "chain", "two_shared"), [
    # 13/8 13/7 shares 13/8 and 13/7; 13/2 (by 7 or by 8) shares 13/2 and one of them;
    # 24/13 shares only one of the two written 24/13s
    ("24/13(2) 13/8 13/7 13/2", (6, 5), "24/13", {"13/8 13/7", "13/2"}),
    ("24/13 24/13 13/8 13/7 13/2", (6, 5), "24/13", {"13/8 13/7", "13/2"}),
    # the same with 6-3: 13/10 13/7 and 13/4 share two written segments, 24/15 one
    ("24/15(2) 13/10 13/7 13/4", (6, 3), "24/15", {"13/10 13/7", "13/4"}),
])
def test_a_chain_written_twice_is_shared_once_by_a_play_moving_it_once(
    text: str, dice: tuple[int, int], chain: str, two_shared: set[str]
) -> None:
    """The plays sharing two written segments come first, ahead of the play that moves one
    checker along the twice-written chain (it shares one)."""
    ranked = closest(text, dice)
    assert set(ranked[:2]) == two_shared
    assert chain in ranked  # it does share a written segment
    assert ranked.index(chain) >= 2
