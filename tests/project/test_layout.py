"""The tests stay grouped by layer (tests/README.md): no test file outside a layer's folder."""

from __future__ import annotations

from paths import TESTS

LAYERS = {"core", "formats", "i18n", "ai", "training", "play", "analysis", "store", "web", "cli", "benchmarks",
          "project"}


def test_every_test_file_lies_in_a_layer_folder_under_a_name_of_its_own() -> None:
    files = sorted(TESTS.rglob("test_*.py"))
    assert files
    outside = [str(f.relative_to(TESTS)) for f in files
               if f.parent.parent != TESTS or f.parent.name not in LAYERS]
    assert outside == [], f"test files outside the layer folders of tests/README.md: {outside}"
    names = [f.name for f in files]
    assert len(names) == len(set(names)), "two test files share a name"
    documented = (TESTS / "README.md").read_text(encoding="utf-8")
    assert all(f"`{layer}/`" in documented for layer in LAYERS)
