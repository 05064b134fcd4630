"""Issue 38, a phone in one hand: the game page on a small touch screen, in a real Chromium.

* at 360 x 640 a whole game against the computer is played by taps alone: the page never scrolls,
  every control tapped lies inside the screen, every button is at least 44 x 44 px and the board
  keeps its place and size from turn to turn;
* the same on the other phones, upright and on their side: the board and the buttons of a turn on
  the screen without scrolling;
* a tap moves a checker by the higher die that fits, a second tap by the other one; Undo takes
  them back one by one; a double tap moves it by both dice at once; a tap just beside a narrow point
  counts as on its checker (a 44 px target);
* "confirm automatically" is remembered by the browser and sends a complete play by itself.

The page holds no rules: what a tap should do is read here from the server's tree of legal steps
(``state.steps``) and the dice, never from the page.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from gammon.core.position import Position
from gammon.web import Settings
from gammon.web.app import create_app
from gammon.web.service.views import step_tree_view
from gammon.web.testing import ThreadedServer
from webclient import bearer
from webpages import (
    ACTION_BUTTONS,
    COMPUTER_TURN_MS,
    Page,
    box,
    checkers,
    make_move_by_clicks,
    new_page,
    shot,
    start_game,
    version,
    wait_version_above,
)

TARGET = 44  # px: the least a finger's target may measure each way
# Every button the page shows (controls, banner), as [id or text, width, height].
BUTTON_SIZES = """() => [...document.querySelectorAll('.table button, .table .btn')]
  .filter(b => b.offsetParent !== null)
  .map(b => { const r = b.getBoundingClientRect(); return [b.id || b.textContent, r.width, r.height]; })"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    db = tmp_path_factory.mktemp("phone38") / "gammon.db"
    app = create_app(Settings(database_url=str(db), allow_test_seeds=True, computer_delay=0.0))
    srv = ThreadedServer(app).start(timeout=120)  # a busy machine starts it slowly
    try:
        yield srv
    finally:
        srv.stop()


def assert_on_screen(page: Page, selector: str) -> None:
    """``selector``'s box lies inside the screen, the page unscrolled."""
    x, y, w, h = box(page, selector)
    size = page.viewport_size
    assert page.evaluate("window.scrollY") == 0, f"the page scrolled (before {selector})"
    assert x >= 0 and y >= 0 and x + w <= size["width"] + 0.5 and y + h <= size["height"] + 0.5, \
        f"{selector} at ({x:.0f}, {y:.0f}, {w:.0f} x {h:.0f}) is off the screen ({size})"


def tap(page: Page, selector: str) -> None:
    """Tap ``selector`` where it is: inside the screen, with nothing scrolled before or after."""
    assert_on_screen(page, selector)
    page.tap(selector)
    assert page.evaluate("window.scrollY") == 0, f"the page scrolled (tapping {selector})"


def assert_buttons_big(page: Page) -> None:
    small = [(name, round(w), round(h)) for name, w, h in page.evaluate(BUTTON_SIZES)
             if w < TARGET - 0.5 or h < TARGET - 0.5]
    assert small == [], f"buttons under {TARGET} x {TARGET} px: {small}"


def state_of(page: Page, base: str) -> dict[str, Any]:
    """The game's state for the page's seat, from the server."""
    gid = page.url.split("/game/")[1].split("#")[0]
    token = page.url.split("#token=")[1]
    got: dict[str, Any] = page.request.get(f"{base}/api/games/{gid}", headers=bearer(token)).json()
    return got


def my_pips(page: Page) -> int:
    return int(page.inner_text(".strip.me .pips").split()[0])


def test_a_whole_game_by_taps_on_a_small_phone(server: ThreadedServer, browser: Any) -> None:
    """360 x 640: roll, move, confirm, take, by taps only, to the end: never a scroll, every control
    on the screen when tapped, every button 44 x 44 px at least, and the board in one place all along."""
    errors: list[str] = []
    page = new_page(browser, errors, width=360, height=640, phone=True)
    start_game(page, server.url, variant="hypergammon", seed="38" * 32)
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#roll")
    page.evaluate("window.scrollTo(0, 0)")  # the start page may have scrolled; the game page must not
    boards: set[tuple[int, int, int, int]] = set()
    turns = 0
    while True:
        page.wait_for_selector(ACTION_BUTTONS, timeout=COMPUTER_TURN_MS)
        if page.locator("#result-line").count():
            break
        boards.add(tuple(round(v) for v in box(page, "svg.board")))  # type: ignore[arg-type]
        assert_buttons_big(page)
        v = version(page)
        if page.locator("#confirm").count():
            for _ in range(8):
                if page.locator("#confirm").is_enabled():
                    break
                point = page.locator(".hit.movable").first.get_attribute("data-point")
                tap(page, f".hit.movable[data-point='{point}']")
                page.wait_for_timeout(400)  # taps of their own, not a double tap
            boards.add(tuple(round(v) for v in box(page, "svg.board")))  # type: ignore[arg-type]
            if turns == 3:
                shot(page, "phone38-360x640-move.png", full_page=False)
            tap(page, "#confirm")
        else:
            tap(page, next(s for s in ("#roll", "#take", "#accept") if page.locator(s).count()))
        wait_version_above(page, v)
        turns += 1
        assert turns < 400, "the game does not end"
    assert page.evaluate("window.scrollY") == 0
    assert len(boards) == 1, f"the board moved or changed size between turns: {sorted(boards)}"
    assert turns > 10
    assert not errors, errors


@pytest.mark.parametrize(("width", "height"), [(390, 844), (412, 915), (640, 360), (844, 390), (915, 412)])
def test_the_turns_controls_fit_every_phone(server: ThreadedServer, browser: Any, width: int,
                                            height: int) -> None:
    """Upright or on its side: the board, Roll, and then Confirm and Undo inside the screen, unscrolled,
    every button 44 x 44 px at least."""
    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height, phone=True)
    made = page.request.post(f"{server.url}/api/games", data={
        "opponent": "computer", "name": "Ann", "test_seed": "38" * 32}).json()
    page.goto(f"{server.url}/game/{made['game_id']}#token={made['token']}")
    while True:
        page.wait_for_selector("#roll, #confirm", timeout=COMPUTER_TURN_MS)
        if page.locator("#confirm").count():
            break
        assert_on_screen(page, "svg.board")
        assert_buttons_big(page)
        v = version(page)
        tap(page, "#roll")
        wait_version_above(page, v)
    for selector in ("svg.board", ".strip.opp", ".strip.me", "#status", "#confirm", "#undo", "#resign"):
        assert_on_screen(page, selector)
    assert_buttons_big(page)
    make_move_by_clicks(page, tap=True)
    assert_on_screen(page, "#confirm")
    assert page.evaluate("window.scrollY") == 0
    shot(page, f"phone38-{width}x{height}.png", full_page=False)
    assert not errors, errors


def roll_with_a_checker_for_both_dice(page: Page, base: str) -> tuple[dict[str, Any], int]:
    """Play on (taps) until our roll is two different dice and a checker can move by the higher die
    and then on by the lower, then return the state and that checker's point (the tree says which)."""
    for _ in range(30):
        page.wait_for_selector(ACTION_BUTTONS, timeout=COMPUTER_TURN_MS)
        v = version(page)
        if page.locator("#confirm").count():
            st = state_of(page, base)
            nodes = st["steps"]["nodes"]
            high, low = max(st["dice"]), min(st["dice"])
            for step in nodes[0]["steps"] if high != low else []:
                point, to, die, _, child = step
                lower = {s[2] for s in nodes[0]["steps"] if s[0] == point}
                on = [s for s in nodes[child]["steps"] if s[0] == to and s[2] == low and s[1] != 0]
                if die == high and to != 0 and low in lower and on:
                    return st, point
            make_move_by_clicks(page, tap=True)
            page.tap("#confirm")
        else:
            page.tap(next(s for s in ("#roll", "#take") if page.locator(s).count()))
        wait_version_above(page, v)
    raise AssertionError("no roll with a checker for either die")


def test_a_tap_moves_by_the_higher_die_and_undo_takes_it_back(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, width=360, height=640, phone=True)
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    page.wait_for_url("**/game/**")
    st, point = roll_with_a_checker_for_both_dice(page, server.url)
    high, low = max(st["dice"]), min(st["dice"])
    before, pips = checkers(page), my_pips(page)

    page.tap(f".hit[data-point='{point}']")  # the higher die
    assert my_pips(page) == pips - high
    assert page.locator(".hit.movable").count() > 0 or page.locator("#confirm").is_enabled()
    moved = checkers(page)
    page.wait_for_timeout(400)
    page.tap(f".hit[data-point='{point - high}']")  # the same checker again: the other die
    assert my_pips(page) == pips - high - low
    assert page.locator("#confirm").is_enabled()
    page.tap("#undo")  # the last move only
    assert my_pips(page) == pips - high and checkers(page) == moved
    page.tap("#undo")
    assert my_pips(page) == pips and checkers(page) == before
    assert not page.locator("#undo").is_enabled()

    page.dblclick(f".hit[data-point='{point}']")  # both dice at once, one move to undo
    assert my_pips(page) == pips - high - low
    page.tap("#undo")
    assert my_pips(page) == pips and checkers(page) == before
    assert not errors, errors


def test_a_tap_beside_a_narrow_point_takes_its_checker(server: ThreadedServer, browser: Any) -> None:
    """At 360 x 640 a point is narrower than a finger: a tap just outside a movable checker's point,
    on a point with nothing of ours, within 44 px of it, moves that checker."""
    errors: list[str] = []
    page = new_page(browser, errors, width=360, height=640, phone=True)
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    page.wait_for_url("**/game/**")
    st, _ = roll_with_a_checker_for_both_dice(page, server.url)
    pips = my_pips(page)
    mine = {int(p) for p in page.eval_on_selector_all(".checkers .checker.mine",
                                                      "els => els.map(e => e.dataset.at)")}
    for point in sorted(int(p) for p in page.eval_on_selector_all(
            ".hit.movable", "els => els.map(e => e.dataset.point)")):
        x, y, w, h = box(page, f".hit[data-point='{point}']")
        if h >= TARGET:
            continue
        for ty in (y - (TARGET - h) / 2 + 2, y + h + (TARGET - h) / 2 - 2):  # just inside the 44 px target
            other = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); "
                                  "return e && e.dataset ? Number(e.dataset.point) : null; }", [x + w / 2, ty])
            if other is None or other in mine or other == point:
                continue
            page.touchscreen.tap(x + w / 2, ty)
            assert my_pips(page) < pips, f"a tap beside point {point} (on {other}) did not move its checker"
            assert not errors, errors
            return
    pytest.skip("no movable checker beside an empty point in this position")


def test_confirm_automatically_is_remembered_and_sends_the_play(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, width=360, height=640, phone=True)
    start_game(page, server.url, variant="standard", seed="5d" * 32)
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#auto-confirm", state="attached")
    assert not page.locator("#auto-confirm").is_checked()
    page.check("#auto-confirm")  # in the panel below the board
    page.reload()
    page.wait_for_selector("#roll, #confirm", timeout=COMPUTER_TURN_MS)
    assert page.locator("#auto-confirm").is_checked(), "the option was not remembered"
    page.evaluate("window.scrollTo(0, 0)")
    st, point = roll_with_a_checker_for_both_dice(page, server.url)
    v = version(page)
    page.tap(f".hit[data-point='{point}']")
    assert version(page) == v  # half a play is never sent
    page.wait_for_timeout(400)
    page.tap(".hit.movable >> nth=0")
    wait_version_above(page, v)  # no Confirm tapped: the page sent it
    gid = page.url.split("/game/")[1].split("#")[0]
    log = page.request.get(f"{server.url}/api/games/{gid}/actions").json()["actions"]
    assert any(a["type"] == "play" and a["player"] == st["you"] and a["seq"] > st["actions"] for a in log)
    assert not errors, errors


def test_a_finger_drags_a_checker_to_a_point(server: ThreadedServer, browser: Any) -> None:
    """A real touch drag (the page must not scroll or zoom under it): the checker goes by the lower
    die, where a tap would not take it."""
    errors: list[str] = []
    page = new_page(browser, errors, width=360, height=640, phone=True)
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    page.wait_for_url("**/game/**")
    st, point = roll_with_a_checker_for_both_dice(page, server.url)
    low = min(st["dice"])
    pips = my_pips(page)
    x, y, w, h = box(page, f".hit[data-point='{point}']")
    gx, gy, gw, gh = box(page, f".hit[data-point='{point - low}']")
    start, goal = (x + w / 2, y + h / 2), (gx + gw / 2, gy + gh / 2)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": start[0], "y": start[1]}]})
    for i in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": start[0] + (goal[0] - start[0]) * i / 8, "y": start[1] + (goal[1] - start[1]) * i / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(f"document.querySelector('.strip.me .pips').textContent.startsWith('{pips - low} ')")
    assert page.evaluate("window.scrollY") == 0
    assert not errors, errors


TAPS = """async (trees) => {
  const { MoveBuilder } = await import('/static/js/moves.js');
  return trees.map((tree) => {
    const b = new MoveBuilder(tree);
    const taps = [];
    for (let guard = 0; !b.complete && guard < 8; guard++) {
      const from = Math.max(...b.sources());
      const st = b.tapStep(from);
      taps.push([from, st.die]);
      b.move([st]);
    }
    return { taps, play: b.play };
  });
}"""


def test_taps_walk_the_tree_by_the_higher_die(server: ThreadedServer, browser: Any) -> None:
    """In positions of a random game, taps alone (on the farthest checker that may move) make a
    legal play, each tap by the highest die the server's tree lets that checker use."""
    rng = random.Random(38)
    cases: list[tuple[Position, tuple[int, int]]] = []
    pos = Position.initial("standard")
    while len(cases) < 60:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = pos.legal_plays(dice)
        if len(plays) > 1:
            cases.append((pos, dice))
        nxt = plays[rng.randrange(len(plays))].position if len(plays) else pos
        pos = Position.initial("standard") if nxt.outcome is not None else nxt.swap()
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{server.url}/watch/none")  # any page of the server: the module loads from it
    trees = [step_tree_view(p.step_tree(d)).model_dump(mode="json") for p, d in cases]
    for (p, d), got in zip(cases, page.evaluate(TAPS, trees), strict=True):
        tree = p.step_tree(d)
        node = tree.nodes[0]
        for point, die in got["taps"]:
            allowed = {st.die: child for st, child in node.steps if st.from_point == point}
            assert die == max(allowed), f"{p.position_id} {d}: a tap on {point} moved by {die}, not the higher"
            node = tree.nodes[allowed[die]]
        assert got["play"] in {str(play) for play in p.legal_plays(d)}
