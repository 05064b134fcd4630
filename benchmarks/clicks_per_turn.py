"""How many clicks (taps) does a turn take on a 360 x 640 phone?  Issue 38 measures it before and after.

A whole seeded game against the computer is played in a real Chromium (Playwright, a touch screen of
360 x 640 CSS px), each of our plays being the one the engine's hint ranks first (the same plays, the
same dice and so the same game for every version of the page).  Each play is made with the fewest
gestures the page offers, and every gesture is counted:

* the page of main before issue 38 ("select"): a tap on a checker picks it, a tap on a highlighted
  point moves it there (by one or more dice), Confirm sends the play;
* the page after issue 38 ("tap"): a tap moves a checker by the higher die that fits, a double tap by
  both dice (or off; it counts two taps), a drag anywhere it can go (one gesture), Confirm sends the
  play -- or, with "confirm automatically" on, the page sends a complete play by itself when nothing
  about it was guessed.

Roll, Take and Confirm count one tap each; the taps of a turn run from our roll to our play (an answer
to the computer's double counts in the turn that follows it).  The planner reads the server's tree of
legal steps and predicts what each gesture does (as the page does: the higher die's child of the tree,
the fewest steps to a point); the page must then show the hinted play, else the run stops.

Usage (the page of a checkout: put its ``src`` first on PYTHONPATH)::

    PYTHONPATH=src .venv/bin/python benchmarks/clicks_per_turn.py --ui tap --auto-confirm
    PYTHONPATH=/tmp/main/src .venv/bin/python benchmarks/clicks_per_turn.py --ui select
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import playwright.sync_api as playwright_api

from gammon.web import Settings
from gammon.web.app import create_app
from gammon.web.testing import ThreadedServer

CHROMIUM = "/usr/bin/chromium"
OFF = 0
WAIT_MS = 120_000
Step = tuple[int, int, int, int, int]  # from, to, die, hit, child node


@dataclass
class Turn:
    """The taps of one of our turns, by kind."""

    taps: collections.Counter[str] = field(default_factory=collections.Counter)
    scrolled: bool = False  # whether the page had to scroll to reach what was tapped

    @property
    def total(self) -> int:
        return sum(self.taps.values())


# -- the planner: what each gesture of the page does, read from the server's tree ------------------------


def reach(nodes: list[dict[str, Any]], at: int, start: int) -> dict[int, list[Step]]:
    """The page's destinations(): each point the checker on ``start`` may reach, by the fewest steps."""
    found: dict[int, list[Step]] = {}
    queue: list[tuple[int, int, list[Step]]] = [(at, start, [])]
    seen: set[tuple[int, int]] = set()
    while queue:
        node, point, path = queue.pop(0)
        for raw in nodes[node]["steps"]:
            st: Step = tuple(raw)
            if st[0] != point:
                continue
            found.setdefault(st[1], [*path, st])
            if st[1] != OFF and (st[4], st[1]) not in seen:
                seen.add((st[4], st[1]))
                queue.append((st[4], st[1], [*path, st]))
    return found


def tap_step(nodes: list[dict[str, Any]], at: int, point: int) -> Step | None:
    """The page's tap: the step of the highest die that moves the checker on ``point``."""
    steps = [tuple(s) for s in nodes[at]["steps"] if s[0] == point]
    return max(steps, key=lambda s: s[2]) if steps else None


def double_tap(nodes: list[dict[str, Any]], at: int, point: int) -> list[Step] | None:
    """The page's double tap: off when it can, else two dice (the higher first where it can)."""
    dests = reach(nodes, at, point)
    if OFF in dests:
        return dests[OFF]
    firsts = sorted((tuple(s) for s in nodes[at]["steps"] if s[0] == point), key=lambda s: -s[2])
    for first in firsts:
        nxt = sorted((tuple(s) for s in nodes[first[4]]["steps"] if s[0] == first[1]), key=lambda s: -s[2])
        if nxt:
            return [first, nxt[0]]
    return [firsts[0]] if firsts else None


def target_path(nodes: list[dict[str, Any]], play: dict[str, Any]) -> list[Step]:
    """The steps of the tree that make ``play`` (its moves in order where the tree has them)."""
    at, path = 0, []
    for m in play["moves"]:
        st = next((tuple(s) for s in nodes[at]["steps"]
                   if s[0] == m["from_point"] and s[1] == m["to_point"]), None)
        if st is None:
            break
        path.append(st)
        at = st[4]
    if nodes[at]["play"] == play["notation"]:
        return path

    def search(node: int) -> list[Step] | None:
        if nodes[node]["play"] == play["notation"]:
            return []
        for raw in nodes[node]["steps"]:
            rest = search(raw[4])
            if rest is not None:
                return [tuple(raw), *rest]
        return None

    found = search(0)
    if found is None:
        raise SystemExit(f"the tree has no play {play['notation']}")
    return found


def groups_of(path: list[Step]) -> list[list[Step]]:
    """The steps in runs of one checker: a step from where the last one landed goes on with it."""
    groups: list[list[Step]] = []
    for st in path:
        if groups and groups[-1][-1][1] == st[0] and st[0] != OFF:
            groups[-1].append(st)
        else:
            groups.append([st])
    return groups


def plan(nodes: list[dict[str, Any]], path: list[Step], ui: str) -> list[tuple[str, int, int]]:
    """The gestures that make ``path``: (kind, point, target point); fewest taps, taps before drags."""
    gestures: list[tuple[str, int, int]] = []
    at = 0
    for group in groups_of(path):
        end, start, goal = group[-1][4], group[0][0], group[-1][1]
        options: list[tuple[int, int, list[tuple[str, int, int]]]] = []
        if ui == "select":
            if reach(nodes, at, start).get(goal, [(0, 0, 0, 0, -1)])[-1][4] == end:
                options.append((2, 0, [("pick", start, goal)]))
        else:
            node, point, taps = at, start, []
            for st in group:
                tapped = tap_step(nodes, node, point)
                if tapped is None or tapped[4] != st[4]:
                    break
                taps.append(("tap", point, tapped[1]))
                node, point = st[4], st[1]
            else:
                options.append((len(taps), 0, taps))
            double = double_tap(nodes, at, start)
            if double and double[-1][4] == end and len(group) > 1:
                options.append((2, 1, [("double", start, goal)]))
            if reach(nodes, at, start).get(goal, [(0, 0, 0, 0, -1)])[-1][4] == end:
                options.append((1, 2, [("drag", start, goal)]))
        if options:
            gestures += min(options, key=lambda o: (o[0], o[1]))[2]
        elif len(group) > 1:  # one step at a time
            gestures += plan_steps(nodes, at, group, ui)
        else:
            raise SystemExit(f"no gesture makes the step {group[0]}")
        at = end
    return gestures


def plan_steps(nodes: list[dict[str, Any]], at: int, group: list[Step], ui: str) -> list[tuple[str, int, int]]:
    """The gestures for ``group`` step by step (when no gesture makes the whole run at once)."""
    out: list[tuple[str, int, int]] = []
    for st in group:
        out += plan(nodes, [st], ui) if at == 0 else plan_from(nodes, at, st, ui)
        at = st[4]
    return out


def plan_from(nodes: list[dict[str, Any]], at: int, st: Step, ui: str) -> list[tuple[str, int, int]]:
    """The gesture for the single step ``st`` from node ``at``."""
    if ui != "select" and tap_step(nodes, at, st[0]) == st:
        return [("tap", st[0], st[1])]
    if reach(nodes, at, st[0]).get(st[1], [(0, 0, 0, 0, -1)])[-1][4] == st[4]:
        return [("pick" if ui == "select" else "drag", st[0], st[1])]
    raise SystemExit(f"no gesture makes the step {st}")


# -- the page ----------------------------------------------------------------------------------------------


def centre(page: Any, point: int) -> tuple[float, float]:
    box = page.locator(f".hit[data-point='{point}']").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def perform(page: Any, gesture: tuple[str, int, int], turn: Turn) -> None:
    """Do one gesture on the touch screen and count its taps."""
    kind, source, goal = gesture
    if kind == "pick":  # the old page: the checker, then where it goes
        page.tap(f".hit[data-point='{source}']")
        page.tap(f".hit[data-point='{goal}']")
        turn.taps["checker"] += 2
    elif kind == "tap":
        page.tap(f".hit[data-point='{source}']")
        turn.taps["checker"] += 1
    elif kind == "double":
        x, y = centre(page, source)
        page.touchscreen.tap(x, y)
        page.touchscreen.tap(x, y)
        turn.taps["checker"] += 2
    else:  # a drag: one touch, moved and lifted
        (x, y), (gx, gy) = centre(page, source), centre(page, goal)
        page.evaluate("""([x, y, gx, gy]) => {
          const svg = document.querySelector('svg.board');
          const at = (type, px, py) => {
            const target = type === 'pointerdown' ? document.elementFromPoint(px, py) : svg;
            target.dispatchEvent(new PointerEvent(type, { bubbles: true, pointerId: 7, pointerType: 'touch',
              clientX: px, clientY: py, button: 0, isPrimary: true }));
          };
          at('pointerdown', x, y);
          for (let i = 1; i <= 6; i++) at('pointermove', x + (gx - x) * i / 6, y + (gy - y) * i / 6);
          at('pointerup', gx, gy);
        }""", [x, y, gx, gy])
        turn.taps["drag"] += 1


def version(page: Any) -> int:
    return int(page.get_attribute("#app", "data-version") or -1)


def wait_above(page: Any, v: int) -> None:
    page.wait_for_function(f"Number(document.getElementById('app').dataset.version) > {v}", timeout=WAIT_MS)


def play_game(base: str, ui: str, auto_confirm: bool, seed: str, shots: Path | None) -> list[Turn]:
    """One whole game against the computer; the taps of each of our turns."""
    made = httpx.post(f"{base}/api/games", json={
        "opponent": "computer", "name": "Ann", "variant": "standard", "computer_level": "heuristic",
        "test_seed": seed}).json()
    gid, token = made["game_id"], made["token"]
    auth = {"Authorization": f"Bearer {token}"}
    turns: list[Turn] = []
    with playwright_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True, is_mobile=True,
                                      bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        if auto_confirm:
            page.add_init_script("localStorage.setItem('gammon.autoConfirm', '1')")
        page.goto(f"{base}/game/{gid}#token={token}")
        turn = Turn()
        while True:
            page.wait_for_selector("#roll, #take, #confirm, #result-line, #banner:not([hidden])",
                                   timeout=WAIT_MS)
            state = httpx.get(f"{base}/api/games/{gid}", headers=auth).json()
            if state["match"]["over"] or state["phase"] == "over":
                break
            v = version(page)
            allowed = state["allowed_actions"]
            if "play" in allowed and page.locator("#confirm").count():
                hint = httpx.get(f"{base}/api/games/{gid}/hint?count=1", headers=auth, timeout=120).json()
                nodes = state["steps"]["nodes"]
                last = None
                for gesture in plan(nodes, target_path(nodes, hint["plays"][0]), ui):
                    if last and last[0] == "tap" and gesture[:2] == last[:2]:
                        page.wait_for_timeout(500)  # two taps on one point, not a double tap
                    perform(page, gesture, turn)
                    last = gesture
                if shots and len(turns) < 3:
                    page.screenshot(path=str(shots / f"clicks-{ui}-turn{len(turns) + 1}.png"))
                page.wait_for_function(  # sent by itself, or waiting for Confirm
                    f"Number(document.getElementById('app').dataset.version) > {v} || "
                    "(document.getElementById('confirm') && !document.getElementById('confirm').disabled)",
                    timeout=WAIT_MS)
                if version(page) == v:  # not sent by itself: Confirm
                    status = page.inner_text("#status")
                    wanted = hint["plays"][0]["notation"]
                    if wanted not in status:
                        raise SystemExit(f"the page shows {status!r}, not the play {wanted}")
                    page.tap("#confirm")
                    turn.taps["confirm"] += 1
                turn.scrolled = turn.scrolled or page.evaluate("window.scrollY") > 0
                page.evaluate("window.scrollTo(0, 0)")
                turns.append(turn)
                turn = Turn()
            elif "take" in allowed:
                page.tap("#take")
                turn.taps["take"] += 1
            elif "roll" in allowed:
                page.tap("#roll")
                turn.taps["roll"] += 1
            else:
                page.wait_for_timeout(200)
                continue
            turn.scrolled = turn.scrolled or page.evaluate("window.scrollY") > 0
            wait_above(page, v)
        browser.close()
    return turns


def summary(label: str, turns: list[Turn]) -> list[str]:
    totals = [t.total for t in turns]
    kinds: collections.Counter[str] = collections.Counter()
    for t in turns:
        kinds.update(t.taps)
    spread = collections.Counter(totals)
    return [
        f"{label}",
        f"  turns played: {len(turns)}; taps: {sum(totals)}; median per turn: {statistics.median(totals):g}; "
        f"mean: {statistics.mean(totals):.2f}; min {min(totals)}, max {max(totals)}",
        "  taps per turn -> turns: " + ", ".join(f"{k}: {spread[k]}" for k in sorted(spread)),
        "  by kind: " + ", ".join(f"{k} {kinds[k]}" for k in sorted(kinds)),
        f"  turns where the page scrolled to reach a control: {sum(t.scrolled for t in turns)}",
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ui", choices=["select", "tap"], required=True, help="the page's way of moving checkers")
    ap.add_argument("--auto-confirm", action="store_true", help="turn 'confirm automatically' on (tap only)")
    ap.add_argument("--seed", default="38" * 32, help="the dice seed (64 hex digits)")
    ap.add_argument("--label", default=None)
    ap.add_argument("--json", type=Path, default=None, help="also write each turn's taps here")
    ap.add_argument("--shots", type=Path, default=None, help="screenshots of the first turns here")
    args = ap.parse_args(argv)
    if args.shots:
        args.shots.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(database_url=str(Path(tmp) / "gammon.db"), allow_test_seeds=True,
                                  computer_delay=0.0))
        server = ThreadedServer(app).start(timeout=180)  # a busy machine starts it slowly
        try:
            turns = play_game(server.url, args.ui, args.auto_confirm, args.seed, args.shots)
        finally:
            server.stop()
    label = args.label or f"{args.ui}{' + confirm automatically' if args.auto_confirm else ''}"
    print("\n".join(summary(label, turns)))
    if args.json:
        args.json.write_text(json.dumps([dict(t.taps) for t in turns]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
