"""The analysis searches as broadly as GNU Backgammon's analysis does (issue 35).

Rule: every play within 0.32 of the best by 0-ply (up to 16 of them) is valued at the
analysis's full depth, with no narrower stage in between; a play's engine may narrow further
(its 1-ply stage), but a referee that drops the best play before the search makes every other
play's error look smaller.
"""

from __future__ import annotations

from gammon.ai.cube import CubeInfo
from gammon.ai.engine import Engine
from gammon.analysis.valuation import Valuer
from gammon.core.position import Position

#: The opening position with 6-4 after the opening: many plays, several of them close.
_START = Position.initial()


def _zero_ply_survivors(position: Position, dice: tuple[int, int], limit: int, within: float) -> set[bytes]:
    ranked = Engine(plies=0).rank_plays(position, dice, CubeInfo())
    best = ranked[0].equity
    return {r.play.position.board for r in ranked[:limit] if best - r.equity <= within}


def _full_depth(valuer: Valuer, position: Position, dice: tuple[int, int]) -> set[bytes]:
    ranked = valuer.engine.rank_plays(position, dice, CubeInfo(), plies=valuer.plies)
    return {r.play.position.board for r in ranked if r.plies == valuer.plies}


def test_a_2_ply_analysis_values_every_play_within_0_32_at_0_ply_at_2_ply() -> None:
    for dice in ((6, 4), (4, 2), (5, 3)):
        want = _zero_ply_survivors(_START, dice, 16, 0.32)
        assert len(want) > 4  # more than a play's engine keeps after its 1-ply stage
        assert _full_depth(Valuer(2), _START, dice) == want


def test_the_breadth_is_capped_at_16_plays() -> None:
    # 1-1 from the start has many plays; the search keeps at most 16 of them.
    got = _full_depth(Valuer(2), _START, (1, 1))
    assert 0 < len(got) <= 16
    assert got == _zero_ply_survivors(_START, (1, 1), 16, 0.32)


def test_a_play_engine_searches_fewer_plays_than_the_analysis() -> None:
    # The strongest level's 2-ply keeps up to 4 plays after its 1-ply stage: what it trades for speed.
    engine = Engine("strongest")
    ranked = engine.rank_plays(_START, (6, 4), CubeInfo())
    deepest = max(r.plies for r in ranked)
    assert sum(r.plies == deepest for r in ranked) <= 4 < len(_full_depth(Valuer(2), _START, (6, 4)))
