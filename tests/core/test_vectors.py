"""The referee's public rule vectors: 2,000 decisions on which GNU Backgammon,
OpenSpiel and the referee's oracle agree (``shared/referee/vectors_public.jsonl``).

For each vector, the set of distinct positions our move generator reaches must be
exactly the recorded set of result IDs (mover's view, before the turn passes).
A vector with no legal move records the unchanged input ID; we return no play.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from gammon import Position
from shared_files import VECTORS_NAME as _NAME
from shared_files import find_vectors

VECTORS_PATH = find_vectors()


def _load() -> list[dict]:
    if VECTORS_PATH is None:
        pytest.skip(f"shared vectors: {_NAME} not found beside the repository (../shared/referee; "
                    "or set GAMMON_VECTORS)")
    with VECTORS_PATH.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_public_vectors() -> None:
    vectors = _load()
    assert len(vectors) == 2000
    failures: list[str] = []
    categories: Counter[str] = Counter()
    for v in vectors:
        categories.update(v["categories"])
        position = Position.from_position_id(v["position_id"])
        assert position.position_id == v["position_id"]
        plays = position.legal_plays(v["dice"])
        expected = {e["position_id"] for e in v["legal"]}
        if v["dice_used"] == 0:
            # A pass: the referee records the unchanged position; we return no play.
            assert expected == {v["position_id"]}, v["id"]
            if len(plays):
                failures.append(f"{v['id']}: expected a pass, got {[str(p) for p in plays]}")
            continue
        got = {p.position_id for p in plays.positions()}
        if got != expected:
            failures.append(
                f"{v['id']} {v['position_id']} {v['dice']}: "
                f"missing {sorted(expected - got)}, extra {sorted(got - expected)}"
            )
            continue
        if len(plays) != v["n_legal"]:
            failures.append(f"{v['id']}: {len(plays)} plays for {len(got)} distinct results")
        bad_used = [str(p) for p in plays if p.dice_used != v["dice_used"]]
        if bad_used:
            failures.append(f"{v['id']}: plays not using {v['dice_used']} dice: {bad_used}")
    assert not failures, f"{len(failures)} of {len(vectors)} vectors fail:\n" + "\n".join(
        failures[:20]
    )
    # The file covers every rule category the referee names; make sure we read them all.
    for category in (
        "bar_vs_closed_board",
        "higher_die_only",
        "doubles_partial",
        "no_move",
        "bearoff_overshoot",
        "bearoff_finishes_game",
    ):
        assert categories[category] > 0, category
