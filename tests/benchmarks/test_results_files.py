"""The README's figures are backed: every results file it names exists, and every figure that
``benchmarks/figures.py`` reads from a stored raw output is shown in the documents as that
raw output says (a figure edited by hand, or a raw output deleted, fails here)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

from benchmark_modules import load_benchmark
from paths import ROOT

RESULTS = ROOT / "benchmarks" / "results"
README = (ROOT / "README.md").read_text(encoding="utf-8")


def figures_module() -> ModuleType:
    return load_benchmark("figures", "gammon_bench_figures")


def named_results_files(text: str) -> set[Path]:
    """Files named in backquotes: ``benchmarks/results/...`` paths, and bare ``*.txt``/``*.log``
    names (the README names raw outputs beside ``benchmarks/results/ENGINE.md`` that way)."""
    out = {ROOT / p for p in re.findall(r"`(benchmarks/results/[^`\s]+)`", text)}
    out |= {RESULTS / n for n in re.findall(r"`([\w.-]+\.(?:txt|log))`", text)}
    return out


def test_the_readme_names_its_results_files() -> None:
    names = named_results_files(README)
    # the engine's table names its raw outputs; the test is empty if the README stops naming them
    assert RESULTS / "judge_0ply.txt" in names and ROOT / "benchmarks/results/ENGINE.md" in names
    assert named_results_files("`a.txt` and `benchmarks/results/b.md`") == {RESULTS / "a.txt",
                                                                           RESULTS / "b.md"}


def test_every_results_file_named_in_the_readme_exists() -> None:
    missing = sorted(str(p.relative_to(ROOT)) for p in named_results_files(README) if not p.is_file())
    assert not missing, f"the README names results files that are not in the repository: {missing}"


def test_every_stored_figure_is_shown_as_its_raw_output_says() -> None:
    figures = figures_module()
    stored = {m.name for m in figures.MEASUREMENTS if figures.raw_text(m)}
    # the shipped engine's raw outputs are stored
    assert {"judge_0ply", "judge_2ply", "duel_0ply", "engine_speed"} <= stored
    lines, problems = figures.check(stored)
    assert problems == 0, "\n".join(line for line in lines if "NOT SHOWN" in line or "NOT FOUND" in line)


def test_the_figure_check_sees_a_wrong_figure(tmp_path: Path) -> None:
    figures = figures_module()
    fig = figures.Figure("x", r"loss ([\d.]+) mp", "{:.2f}", ())
    assert figures.read_value(fig, "mean equity loss 8.01 mp") == 8.01
    assert figures.read_value(fig, "nothing") is None
    target = figures.Target("<=", 5.0, "issue")
    assert not target.met(8.01) and target.met(5.0)
    assert figures.Target(">", 0.0, "issue").met(0.001) and not figures.Target(">", 0.0, "issue").met(0.0)


def test_a_failed_rerun_leaves_the_stored_raw_output_as_it_was(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    figures = figures_module()
    stored = tmp_path / "probe.txt"
    stored.write_text("the measurement as it was\n", encoding="utf-8")
    failing = figures.Measurement("probe", "probe.txt", "python -c raise", ())
    monkeypatch.setattr(figures, "RESULTS", tmp_path)
    monkeypatch.setattr(figures, "MEASUREMENTS", (failing,))
    assert figures.run("probe") != 0
    assert stored.read_text(encoding="utf-8") == "the measurement as it was\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["probe.txt"]  # no partial output left


def test_a_successful_rerun_replaces_the_stored_raw_output(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    figures = figures_module()
    stored = tmp_path / "probe.txt"
    stored.write_text("old\n", encoding="utf-8")
    monkeypatch.setattr(figures, "RESULTS", tmp_path)
    rerun = figures.Measurement("probe", "probe.txt", "python -c print(42)", ())
    monkeypatch.setattr(figures, "MEASUREMENTS", (rerun,))
    monkeypatch.setattr(figures, "check", lambda names: ([], 0))  # the stored figures' check is tested above
    assert figures.run("probe") == 0
    assert stored.read_text(encoding="utf-8") == "42\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["probe.txt"]
