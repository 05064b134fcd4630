"""The game page by keyboard, by ear and by screen reader (issue 38), in a real Chromium.

* a whole turn by the keyboard alone: Tab to Roll, Enter, type the play in notation, Enter,
  Enter on Confirm; wrong notation is refused with words that say why;
* a typed play is found among the legal plays of the server's tree, however it is written
  (order, chains, repeats, bar/off, hits), and a text that could be two plays is refused;
* the live region says what happened ("You rolled 5-3", "Bob doubled to 2", ...);
* the tab's title says when it is the player's move, and a notification comes when asked for
  and the tab is hidden;
* the sounds are off on a first visit and the switch is remembered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from boards import pos, results
from gammon.core.position import Position
from gammon.web.service.views import step_tree_view
from gammon.web.testing import ThreadedServer, pick_action
from webclient import NO_LIMITS, bearer
from webpages import SEED, Page, new_page, serve, start_game, version, wait_version_above

TITLE_MARK = "● Your move"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    yield from serve(tmp_path_factory, "a11y-browser", rate_limits=NO_LIMITS)


def tab_to(page: Page, selector: str, presses: int = 80) -> None:
    """Press Tab until ``selector`` has the focus: it is reachable by the keyboard alone."""
    for _ in range(presses):
        if page.evaluate("s => Boolean(document.activeElement && document.activeElement.matches(s))", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} is never reached with Tab")


def focused(page: Page) -> str:
    return str(page.evaluate("() => document.activeElement ? document.activeElement.id : ''"))


def announced(page: Page) -> str:
    return str(page.text_content("#announce") or "")


def wait_announced(page: Page, text: str) -> None:
    """Wait until the live region has said ``text`` (no quote in it)."""
    page.wait_for_function(f"document.getElementById('announce').textContent.includes('{text}')")


def seat_state(page: Page, base: str) -> dict[str, Any]:
    """The game's state as the page's seat sees it (the token is in the page's URL)."""
    gid, token = page.url.split("/game/")[1].split("#token=")
    state: dict[str, Any] = page.request.get(f"{base}/api/games/{gid}", headers=bearer(token)).json()
    return state


def retype(page: Page, text: str) -> None:
    page.keyboard.press("Control+A")
    page.keyboard.press("Delete")
    page.keyboard.type(text)
    page.keyboard.press("Enter")


# -- the keyboard ----------------------------------------------------------------------------------


def test_a_whole_turn_by_keyboard_with_a_typed_play(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    start_game(page, server.url, variant="standard")
    page.wait_for_url("**/game/**")
    rolled_seen = played = False
    for _ in range(12):
        page.wait_for_selector("#roll:not(:disabled), #keyplay:not([hidden])", timeout=120_000)
        if page.locator("#keyplay:not([hidden])").count():
            play_typed_turn(page, server.url)
            played = True
        else:
            phase = page.get_attribute("#app", "data-phase")
            v = version(page)
            tab_to(page, "#roll")
            page.keyboard.press("Enter")
            wait_version_above(page, v)
            if phase == "roll":  # (the opening throw is said in its own words)
                dice = seat_state(page, server.url)["dice"]
                wait_announced(page, f"You rolled {dice[0]}-{dice[1]}.")
                rolled_seen = True
        if played and rolled_seen:
            break
    assert played and rolled_seen
    assert not errors, errors


def play_typed_turn(page: Page, base: str) -> None:
    """With the play field shown: wrong texts are refused, then the first legal play, written
    backwards, is set and confirmed with Enter alone."""
    assert focused(page) == "play-input", "the keyboard is not taken to the play field"
    st = seat_state(page, base)
    legal = st["legal_plays"][0]["notation"]
    retype(page, "bar/30")
    assert "not a point" in page.inner_text("#play-error")
    assert page.get_attribute("#play-input", "aria-invalid") == "true"
    retype(page, "24/1")
    assert "is not a legal play" in page.inner_text("#play-error")
    assert not page.locator("#confirm").is_enabled()
    written = " ".join(reversed(legal.split()))
    retype(page, written)
    page.wait_for_function("document.activeElement && document.activeElement.id === 'confirm'")
    tab_to(page, "#undo")  # undo by the keyboard too, then the play again
    page.keyboard.press("Enter")
    page.wait_for_selector("#confirm:disabled")
    tab_to(page, "#play-input")
    retype(page, written)
    page.wait_for_function("document.activeElement && document.activeElement.id === 'confirm'")
    assert page.locator("#play-error").is_hidden()
    assert f"Your move {legal}" in page.inner_text("#status")
    v = version(page)
    page.keyboard.press("Enter")
    wait_version_above(page, v)
    gid = page.url.split("/game/")[1].split("#")[0]
    log = page.request.get(f"{base}/api/games/{gid}/actions").json()["actions"]
    mine = [a for a in log if a["type"] == "play" and a["player"] == st["you"]]
    assert mine and mine[-1]["action"]["play"] == legal
    wait_announced(page, f"You played {legal}.")


MATCH = """async ([tree, texts]) => {
  const { MoveBuilder } = await import('/static/js/moves.js');
  const { matchPlay } = await import('/static/js/notation.js');
  const b = new MoveBuilder(tree);
  return texts.map((text) => {
    try { return matchPlay(b.nodes, text, b.dice); } catch (e) { return 'ERROR ' + e.message; }
  });
}"""


def typed(page: Page, position: Position, dice: tuple[int, int], texts: list[str]) -> list[str]:
    tree = step_tree_view(position.step_tree(dice)).model_dump(mode="json")
    found: list[str] = page.evaluate(MATCH, [tree, texts])
    return found


def test_a_typed_play_is_found_among_the_trees_plays(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{server.url}/watch/none")  # any page of the server: the modules load from it
    start = Position.initial()
    legal = results(start, (3, 1))
    got = typed(page, start, (3, 1), ["8/5 6/5", "6/5 8/5", "8/5, 6/5", "8/7 8/5", "13/10 10/9"])
    assert got[0] == got[1] == got[2] == "8/5 6/5" and got[0] in legal
    assert got[3] in legal and got[4] in legal and got[4] == next(p for p in legal if p in ("13/9", "13/10/9"))
    doubles = typed(page, start, (6, 6), ["13/7(2) 24/18(2)", "24/18(2) 13/7(2)", "24/18 24/18 13/7 13/7"])
    assert doubles[0] == doubles[1] == doubles[2] and doubles[0] in results(start, (6, 6))
    chain = typed(page, start, (6, 5), ["24/18/13", "24/13", "24/19 19/13"])
    assert chain[0] == chain[1] == chain[2] == "24/13"
    entering = pos("x: bar 13:14; o: 19:2 6:13")  # our 6 point is theirs (19): blocked
    bar = typed(page, entering, (3, 6), ["bar/22 13/7", "BAR/22 13/7"])
    assert bar[0] == bar[1] and bar[0] in results(entering, (3, 6))
    home = pos("x: 6 5 4:13; o: 24:15")
    off = typed(page, home, (6, 5), ["6/off 5/off", "5/off 6/off"])
    assert off[0] == off[1] and off[0] in results(home, (6, 5))
    # A checker passing a blot may hit it or not: the two plays leave our checkers alike.
    blot = pos("x: 24 6:14; o: 7 24:14")  # their blot on their 7 point is on our 18
    both = typed(page, blot, (6, 5), ["24/13", "24/18*/13", "24/19/13", "24/20*/13"])
    plays = results(blot, (6, 5))
    assert both[0] in plays and "*" not in both[0]  # written without a hit: the play without one
    assert both[1] in plays and "18*" in both[1] and both[1] != both[0]
    assert both[2] == both[0]
    assert both[3].startswith("ERROR") and "could be any of" in both[3]
    assert both[0] in both[3] and both[1] in both[3]
    too_many = "8/5 6/5 24/23 24/20 13/12 13/11 6/1 8/2 1/0"
    refused = typed(page, start, (3, 1), ["", "8-5", "26/20", "5/8", too_many, "24/18", "x" * 100])
    assert all(r.startswith("ERROR ") for r in refused), refused
    assert "not a legal play of 3-1" in refused[5]
    assert not [e for e in errors if e.startswith("page error")], errors


def two_seats(page: Page, base: str) -> tuple[str, str, str]:
    """A game between two people, made through the API: its id, Ann's token and Bob's."""
    body = {"opponent": "human", "name": "Ann", "test_seed": SEED}
    d = page.request.post(f"{base}/api/games", data=body).json()
    bob = page.request.post(f"{base}/api/games/{d['game_id']}/join", data={"name": "Bob"},
                            headers=bearer(d["invite_token"])).json()["token"]
    return d["game_id"], d["token"], bob


def act_for(page: Page, base: str, gid: str, tokens: tuple[str, str]) -> dict[str, Any]:
    """One action (pick_action's) by whichever seat has one; the state after it."""
    for token in tokens:
        st = page.request.get(f"{base}/api/games/{gid}", headers=bearer(token)).json()
        action = pick_action(st)
        if action is not None:
            r = page.request.post(f"{base}/api/games/{gid}/actions", headers=bearer(token),
                                  data={**action, "expected_version": st["version"]})
            after: dict[str, Any] = r.json()["state"]
            return after
    raise AssertionError("nobody has anything to do")


def test_double_and_take_by_keyboard_are_announced(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    gid, ann_token, bob_token = two_seats(ann, server.url)
    for _ in range(30):  # the opening and its play, until a player may double before rolling
        st = ann.request.get(f"{server.url}/api/games/{gid}", headers=bearer(ann_token)).json()
        if st["phase"] == "roll":
            break
        act_for(ann, server.url, gid, (ann_token, bob_token))
    doubler = st["to_act"]
    pages = {0: (ann, ann_token, "Ann"), 1: (bob, bob_token, "Bob")}
    (dp, dtoken, dname), (tp, ttoken, tname) = pages[doubler], pages[1 - doubler]
    dp.goto(f"{server.url}/game/{gid}#token={dtoken}")
    tp.goto(f"{server.url}/game/{gid}#token={ttoken}")
    dp.wait_for_selector("#double")
    tp.wait_for_selector("#app[data-phase=roll]")
    tab_to(dp, "#double")
    dp.keyboard.press("Enter")
    tp.wait_for_selector("#take")
    wait_announced(tp, f"{dname} doubled to 2.")
    assert "You doubled to 2." in announced(dp)
    tab_to(tp, "#take")
    tp.keyboard.press("Enter")
    wait_announced(dp, f"{tname} took: the cube is at 2.")
    assert not errors, errors


# -- the title and the notification --------------------------------------------------------------------

FAKE_NOTIFICATIONS = """
window.__notes = [];
window.__hidden = false;
window.Notification = class {
  static permission = 'granted';
  static requestPermission() { return Promise.resolve('granted'); }
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
};
Object.defineProperty(Document.prototype, 'visibilityState',
  { get() { return window.__hidden ? 'hidden' : 'visible'; } });
"""


def test_the_title_and_a_notification_say_it_is_your_move(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.add_init_script(FAKE_NOTIFICATIONS)
    api = page.request
    gid, ann, bob = two_seats(page, server.url)
    page.goto(f"{server.url}/game/{gid}#token={ann}")
    page.wait_for_selector("#notify-switch")
    page.focus("#notify-switch")
    page.keyboard.press("Space")  # a gesture: only then may the page ask for the permission
    assert page.is_checked("#notify-switch")
    page.evaluate("() => { window.__hidden = true; }")
    titles = {True: 0, False: 0}
    for _ in range(40):
        st = api.get(f"{server.url}/api/games/{gid}", headers=bearer(ann)).json()
        page.wait_for_function(f"Number(document.getElementById('app').dataset.version) >= {st['version']}")
        ann_to_act = st["to_act"] == st["you"] and bool(st["allowed_actions"])
        title = page.title()
        assert title.startswith(TITLE_MARK) == ann_to_act, (title, st["phase"], st["to_act"])
        titles[ann_to_act] += 1
        if titles[True] >= 2 and titles[False] >= 2:
            break
        act_for(page, server.url, gid, (ann, bob) if ann_to_act else (bob, ann))
    assert titles[True] >= 2 and titles[False] >= 2
    notes = page.evaluate("() => window.__notes")
    assert notes and all(n["title"] == "Your move" for n in notes)
    assert not errors, errors


# -- the sounds -----------------------------------------------------------------------------------


def test_the_sounds_are_off_at_first_and_the_switch_is_remembered(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    start_game(page, server.url, variant="hypergammon")
    page.wait_for_selector("#roll")
    assert not page.is_checked("#sound-switch")
    assert page.evaluate("() => localStorage.getItem('gammon:sounds')") is None
    v = version(page)
    page.click("#roll")
    wait_version_above(page, v)
    assert page.get_attribute("html", "data-last-sound") is None  # off: nothing was played
    tab_to(page, "#sound-switch")
    page.keyboard.press("Space")
    assert page.is_checked("#sound-switch")
    assert page.evaluate("() => localStorage.getItem('gammon:sounds')") == "on"
    page.reload()
    page.wait_for_selector("#sound-switch")
    assert page.is_checked("#sound-switch")
    # Every sound from now on, in order: a throw's sound is followed at once by others ('move',
    # 'turn') when the computer moves next, so the last one alone can miss it.
    page.evaluate("""() => {
        window.heard = [];
        new MutationObserver(records => {
            for (const r of records) window.heard.push(r.target.dataset.lastSound, r.oldValue);
        }).observe(document.documentElement,
                   { attributes: true, attributeFilter: ['data-last-sound'], attributeOldValue: true });
    }""")
    for _ in range(20):  # on: the next throw of the dice is heard
        page.wait_for_selector("#roll:not(:disabled), #confirm", timeout=120_000)
        v = version(page)
        if page.locator("#roll:not(:disabled)").count():
            page.click("#roll")
            wait_version_above(page, v)
            break
        plays = seat_state(page, server.url)["legal_plays"]
        if plays:
            page.fill("#play-input", plays[0]["notation"])
            page.press("#play-input", "Enter")
        page.click("#confirm")
        wait_version_above(page, v)
    page.wait_for_function("window.heard.includes('dice')")
    page.click("#sound-switch")
    assert page.evaluate("() => localStorage.getItem('gammon:sounds')") == "off"
    assert not [e for e in errors if "page error" in e], errors
