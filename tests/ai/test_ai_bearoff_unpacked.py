"""The bear-off database's unpacked copy: the same numbers as the compressed file, mapped
instead of decompressed, and never trusted when it is damaged."""

from __future__ import annotations

import io
import json
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from gammon.ai import bearoff
from gammon.ai.evaluator import ClassifyingEvaluator, default_network
from gammon.core.position import Position

PACKAGED = (resources.files("gammon.ai") / "data" / bearoff.FILE_NAME).read_bytes()
ARRAYS = ("rolls", "first", "mean_rolls", "mean_first", "short_rolls", "short_first", "short_mean_rolls")


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh user cache for this test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "gammon"


def _decompressed() -> bearoff.BearoffDatabase:
    return bearoff.BearoffDatabase.from_file(io.BytesIO(PACKAGED))


def _copies(cache: Path) -> list[Path]:
    return sorted(p for p in cache.glob("bearoff1-v*") if p.is_dir())


def _same(a: bearoff.BearoffDatabase, b: bearoff.BearoffDatabase) -> None:
    for name in ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    for x, y in zip(a.kernel_tables(), b.kernel_tables(), strict=True):
        assert np.array_equal(x, y)
    assert a.meta == b.meta


def test_the_second_load_maps_the_copy_the_first_wrote(cache: Path) -> None:
    first = bearoff.load()
    copies = _copies(cache)
    assert len(copies) == 1
    second = bearoff.load()
    # Mapped from the copy: the arrays are views of files, not arrays of their own.
    assert isinstance(second.rolls.base, np.memmap)
    assert not isinstance(first.rolls.base, np.memmap)
    _same(second, _decompressed())
    _same(first, second)


def test_mapped_arrays_evaluate_as_the_decompressed_ones(cache: Path) -> None:
    """The kernels take the mapped arrays (writable, copy-on-write) and give the same values;
    nothing they do writes to the file."""
    bearoff.load()
    mapped = bearoff.load()
    assert mapped.rolls.flags.writeable
    net = default_network()
    races = [Position([2, 2, 1, 0, 0, 0] + [0] * 19, [0, 3, 0, 1, 0, 0] + [0] * 19),  # the home table
             Position([0] * 9 + [1] + [0] * 15, [0] * 17 + [2] + [0] * 7)]  # the short-side table
    a, b = ClassifyingEvaluator(net, mapped), ClassifyingEvaluator(net, _decompressed())
    for pos in races:
        assert np.array_equal(a.evaluate(pos), b.evaluate(pos))
    folder = _copies(cache)[0]
    again = bearoff.read_unpacked(folder)
    assert again is not None
    _same(again, _decompressed())


@pytest.mark.parametrize("damage", ["truncated", "wrong_shape", "wrong_dtype", "old_version", "no_meta",
                                    "pickled"])
def test_a_damaged_copy_is_refused_and_replaced(cache: Path, damage: str) -> None:
    bearoff.load()
    folder = _copies(cache)[0]
    rolls = folder / "rolls.npy"
    if damage == "truncated":
        rolls.write_bytes(rolls.read_bytes()[: rolls.stat().st_size // 2])
    elif damage == "wrong_shape":
        np.save(rolls, np.zeros((10, bearoff.MAX_ROLLS), dtype=np.float32))
    elif damage == "wrong_dtype":
        np.save(rolls, np.zeros((bearoff.N_POSITIONS, bearoff.MAX_ROLLS), dtype=np.float64))
    elif damage == "old_version":
        meta = json.loads((folder / "meta.json").read_text())
        (folder / "meta.json").write_text(json.dumps({**meta, "version": bearoff.VERSION - 1}))
    elif damage == "no_meta":
        (folder / "meta.json").unlink()
    else:
        np.save(rolls, np.array([{"x": 1}], dtype=object), allow_pickle=True)
    assert bearoff.read_unpacked(folder) is None
    db = bearoff.load()  # the file's own numbers, decompressed again
    _same(db, _decompressed())
    assert _copies(cache) == [folder]
    fixed = bearoff.read_unpacked(folder)  # and the copy written anew
    assert fixed is not None
    _same(fixed, _decompressed())
    assert not [p for p in cache.iterdir() if p.name.startswith(".")]  # no temporary folder left


def test_an_unwritable_cache_costs_only_the_decompression(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    db = bearoff.load()
    _same(db, _decompressed())


def test_the_copy_is_named_by_the_file_it_came_from(cache: Path) -> None:
    """Another database file (a rebuilt one) gets a copy of its own, never the old one's."""
    import hashlib

    bearoff.load()
    assert [p.name for p in _copies(cache)] == [
        f"bearoff1-v{bearoff.VERSION}-{hashlib.sha256(PACKAGED).hexdigest()[:16]}"]
