"""``benchmarks/results_archive.py``: a run's raw outputs packed into ``<run>.tar.bz2`` read by
their old paths, so the benchmark scripts that read them (``match_pr.py`` and ``vs_gnubg.py``
``--summary-only``, ``cube_errors.py``, ``figures.py``) work on a packed run as on its folder."""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

from benchmark_modules import load_benchmark
from paths import ROOT

RESULTS = ROOT / "benchmarks" / "results"


@pytest.fixture(scope="module")
def ra() -> ModuleType:
    return load_benchmark("results_archive")


def make_run(folder: Path, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return folder


FILES = {"match_000.json": b'{"kind": "match"}', "match_000.mat": b"7 point match\n", "money_000.json": b"{}"}


def test_a_packed_run_reads_by_its_old_paths(ra: ModuleType, tmp_path: Path) -> None:
    run = make_run(tmp_path / "match_pr_x", FILES)
    archive = ra.pack(run)
    assert archive == tmp_path / "match_pr_x.tar.bz2" and not run.exists()
    assert ra.is_run(run) and ra.exists(run / "match_000.mat") and not ra.exists(run / "match_001.mat")
    assert ra.read_bytes(run / "match_000.mat") == FILES["match_000.mat"]
    assert [m.name for m in ra.glob(run, "*.json")] == ["match_000.json", "money_000.json"]
    assert [m.read_bytes() for m in ra.glob(run)] == [FILES[n] for n in sorted(FILES)]
    with pytest.raises(FileNotFoundError, match="match_001.mat"):
        ra.read_bytes(run / "match_001.mat")
    # the same files pack to the same bytes (no dates, owners or order of the folder)
    ra.unpack(run)
    assert {p.name: p.read_bytes() for p in run.iterdir()} == FILES
    first = archive.read_bytes()
    ra.pack(run)
    assert archive.read_bytes() == first


def test_a_folder_beside_its_archive_is_read_over_it(ra: ModuleType, tmp_path: Path) -> None:
    run = make_run(tmp_path / "r", FILES)
    ra.pack(run)
    make_run(run, {"match_000.json": b"new", "match_001.json": b"more"})
    assert {m.name: m.read_bytes() for m in ra.glob(run, "match_*.json")} == {
        "match_000.json": b"new", "match_001.json": b"more"}
    ra.pack(run)  # packed again: the archive's files with the folder's over them
    assert ra.read_bytes(run / "match_000.json") == b"new" and ra.read_bytes(run / "money_000.json") == b"{}"


def test_programs_that_need_real_files_get_a_temporary_copy(ra: ModuleType, tmp_path: Path) -> None:
    run = make_run(tmp_path / "r", FILES)
    ra.pack(run)
    plain = tmp_path / "plain.mat"
    with ra.unpacked([run, plain]) as (copy, same):
        assert same == plain and copy.name == "r" and copy != run
        assert {p.name: p.read_bytes() for p in copy.iterdir()} == FILES
    assert not copy.exists() and not run.exists()


def hostile_archive(path: Path, member: tarfile.TarInfo, data: bytes = b"x") -> Path:
    with tarfile.open(path, "w:bz2") as tar:
        tar.addfile(member, io.BytesIO(data) if member.isfile() else None)
    return path


@pytest.mark.parametrize("name,kind", [("../evil", tarfile.REGTYPE), ("r/../../evil", tarfile.REGTYPE),
                                       ("/etc/evil", tarfile.REGTYPE), ("r/sub/x", tarfile.REGTYPE),
                                       ("other/x", tarfile.REGTYPE), ("r/link", tarfile.SYMTYPE)])
def test_an_archive_that_pack_would_not_write_is_refused(ra: ModuleType, tmp_path: Path, name: str,
                                                         kind: bytes) -> None:
    member = tarfile.TarInfo(name)
    member.type, member.size, member.linkname = kind, 1 if kind == tarfile.REGTYPE else 0, "/etc/passwd"
    hostile_archive(tmp_path / "r.tar.bz2", member)
    with pytest.raises(ra.ArchiveError, match="is not a file of the run's folder"):
        ra.glob(tmp_path / "r")
    with pytest.raises(ra.ArchiveError):
        ra.unpack(tmp_path / "r")
    assert [p.name for p in tmp_path.rglob("*")] == ["r.tar.bz2"]  # nothing written


def test_an_archive_too_big_is_refused(ra: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = make_run(tmp_path / "r", FILES)
    ra.pack(run)
    monkeypatch.setattr(ra, "MAX_UNPACKED", 20)
    with pytest.raises(ra.ArchiveError, match="more than 20 bytes"):
        ra.glob(run)


def test_the_command_line_packs_lists_and_unpacks(ra: ModuleType, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    run = make_run(tmp_path / "r", FILES)
    assert ra.main(["pack", str(run)]) == 0 and not run.exists()
    assert ra.main(["list", str(run) + ".tar.bz2"]) == 0
    assert f"{len(FILES['match_000.mat'])} {run / 'match_000.mat'}" in capsys.readouterr().out
    assert ra.main(["unpack", str(run)]) == 0 and (run / "money_000.json").read_bytes() == b"{}"
    assert ra.main(["unpack", str(tmp_path / "none")]) == 2
    assert "no archive" in capsys.readouterr().err
    (run / "sub").mkdir()
    assert ra.main(["pack", str(run)]) == 2
    assert "more than plain files: sub" in capsys.readouterr().err


def test_every_raw_run_is_packed_beside_its_summary() -> None:
    tracked = subprocess.run(["git", "ls-files", "benchmarks/results"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
    assert len(tracked) > 50  # the results are there
    in_folders = [p for p in tracked if p.count("/") > 2]
    assert not in_folders, f"raw outputs not packed (benchmarks/results_archive.py pack): {in_folders[:5]}"
    archives = [p for p in tracked if p.endswith(".tar.bz2")]
    assert len(archives) >= 30
    no_summary = [a for a in archives if a.removesuffix(".tar.bz2") + ".txt" not in tracked]
    assert not no_summary, f"packed runs without their summary beside them: {no_summary}"


def test_match_pr_summarises_a_packed_run_as_stored(tmp_path: Path) -> None:
    match_pr = load_benchmark("match_pr")
    shutil.copy(RESULTS / "match_pr_expert_cube2.tar.bz2", tmp_path)
    # summarising needs no weights file (the training checkpoints are not in the repository)
    assert match_pr.main(["--summary-only", "--level", "expert", "--cube-plies", "2", "--weights",
                          "training/cube_window/C2/weights.npz", "--gnubg", "/bin/true",
                          "--out", str(tmp_path / "match_pr_expert_cube2")]) == 0
    assert (tmp_path / "match_pr_expert_cube2.txt").read_bytes() == \
        (RESULTS / "match_pr_expert_cube2.txt").read_bytes()
    assert not (tmp_path / "match_pr_expert_cube2").exists()


def test_vs_gnubg_summarises_a_packed_run_as_stored(tmp_path: Path) -> None:
    vs_gnubg = load_benchmark("vs_gnubg")
    shutil.copy(RESULTS / "vs_gnubg_expert.tar.bz2", tmp_path)
    assert vs_gnubg.main(["--summary-only", "--level", "expert", "--gnubg", "/bin/true",
                          "--out", str(tmp_path / "vs_gnubg_expert")]) == 0
    assert (tmp_path / "vs_gnubg_expert.txt").read_bytes() == (RESULTS / "vs_gnubg_expert.txt").read_bytes()


def test_cube_errors_hands_gnubg_the_packed_match_files(ra: ModuleType, tmp_path: Path) -> None:
    cube_errors = load_benchmark("cube_errors")
    run = make_run(tmp_path / "match_pr_x", FILES)
    ra.pack(run)
    seen = tmp_path / "seen.txt"
    fake = tmp_path / "gnubg"  # records the .mat it is given, exports nothing
    fake.write_text(f'#!/bin/sh\necho "$MAT_FILE" >> {seen}\ncat "$MAT_FILE" >> {seen}\n')
    fake.chmod(0o755)
    assert cube_errors.main([str(run), "--gnubg", str(fake), "--summary-only"]) == 0
    lines = seen.read_text().splitlines()
    assert lines[0].endswith("/match_pr_x/match_000.mat") and lines[1] == "7 point match"
    assert not Path(lines[0]).exists()  # the temporary copy is gone
