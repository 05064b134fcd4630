"""Screenshots of the card table theme for the documentation (issue 38).

Starts a server in this process on a temporary SQLite database, stages a game between two people
with card dice a few turns in (fixed test seed, so the pictures are the same every run), opens it
in Chromium with the card table chosen, and writes ``docs/images/card-table-1280x720.png`` and
``docs/images/card-table-390x844.png``.  Needs Playwright and Chromium (``/usr/bin/chromium`` by
default, ``--chromium`` to change it); with Pillow installed the PNGs are stored with a palette::

    PYTHONPATH=src python scripts/screenshots.py
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from gammon.web import Settings
from gammon.web.ratelimit import RateLimits
from gammon.web.server import create_app
from gammon.web.testing import ThreadedServer, staged_game

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "images"
SIZES = ((1280, 720), (390, 844))
SEED = bytes.fromhex("38" * 32)
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run"]


def shrink(path: Path) -> None:
    """Store ``path`` with a palette of 128 colours (a flat drawing loses nothing to the eye) when
    Pillow is installed, so that each picture stays well under 150 KB in the repository."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=128)
    small.save(path, optimize=True)


def shoot(url: str, game_id: str, token: str, chromium: str, out: Path) -> list[Path]:
    """One PNG per size of the game's page in the card table theme; the paths written."""
    written = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce")
            context.add_init_script("localStorage.setItem('gammon:theme', 'cards')")
            page = context.new_page()
            page.goto(f"{url}/game/{game_id}#token={token}")
            page.wait_for_selector("svg.board.card-table .card-die")
            path = out / f"card-table-{width}x{height}.png"
            page.screenshot(path=str(path))
            shrink(path)
            written.append(path)
            context.close()
        browser.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the Chromium to drive")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder for the PNGs")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=str(Path(tmp) / "gammon.db"), allow_test_seeds=True,
                            rate_limits=RateLimits(enabled=False))
        with ThreadedServer(create_app(settings)) as server:
            game_id, token = staged_game(server.url, SEED, dice="cards")
            for path in shoot(server.url, game_id, token, args.chromium, args.out):
                print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: "
                      f"{path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
