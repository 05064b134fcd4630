"""``training/MANIFEST.sha256``: the training checkpoints stay out of the working tree (git's
history holds them) with their sha256 recorded, and the shipped nets and tables are checked
against theirs."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path

from paths import ROOT

MANIFEST = ROOT / "training" / "MANIFEST.sha256"
SHIPPED = ROOT / "src" / "gammon" / "ai" / "data"
LINE = re.compile(r"([0-9a-f]{64})  ((?:src/gammon/ai/data|training)/[\w./-]+\.npz)")


def manifest() -> dict[str, str]:
    """path (from the repository root) -> sha256, every line checked for its form."""
    out: dict[str, str] = {}
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        found = LINE.fullmatch(line)
        assert found and ".." not in found[2], f"not a line of sha256sum: {line!r}"
        assert found[2] not in out, f"listed twice: {found[2]}"
        out[found[2]] = found[1]
    return out


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def git(*args: str) -> list[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()


def test_the_shipped_nets_and_tables_are_as_the_manifest_says() -> None:
    listed = {p: h for p, h in manifest().items() if p.startswith("src/")}
    shipped = {str(p.relative_to(ROOT)) for p in SHIPPED.glob("*.npz")}
    assert "src/gammon/ai/data/weights.npz" in shipped and set(listed) == shipped
    changed = [p for p, h in listed.items() if sha256(ROOT / p) != h]
    assert not changed, f"shipped files changed; record them with sha256sum in {MANIFEST.name}: {changed}"


def test_no_training_checkpoint_is_in_the_tree_and_each_is_listed() -> None:
    assert git("ls-files", "training/**.npz") == []
    listed = [p for p in manifest() if p.startswith("training/")]
    assert len(listed) >= 33 and "training/deep6/Q7/weights.npz" in listed
    # git ignores them, so a checkpoint made here is not added by accident
    assert git("check-ignore", *listed) == listed
    # a copy present here is the one recorded (the shipped net is deep6 Q7's weights byte for byte)
    m = manifest()
    assert m["training/deep6/Q7/weights.npz"] == m["src/gammon/ai/data/weights.npz"]
    wrong = [p for p in listed if (ROOT / p).is_file() and sha256(ROOT / p) != m[p]]
    assert not wrong, f"local checkpoints differ from {MANIFEST.name}: {wrong}"
