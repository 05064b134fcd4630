"""The web page of ``gammon serve`` in a real browser (Chromium driven by Playwright).

* a whole seeded game against the computer, played by clicks: roll, pick a checker,
  click a highlighted destination, confirm; then the result, the dice verification
  and the record;
* a game between two browser contexts through an invitation link, with a reload in
  the middle, both pages showing the same state;
* illegal clicks change nothing and say why; undo; a middle-game board;
* the page's move builder against the engine's legal plays for many positions.

The server runs in this process (uvicorn in a thread) on a free port with a
temporary SQLite database and fixed dice seeds.  Screenshots of the start page, a
middle-game board and the end screen go to ``test-artifacts/screenshots/``.

Needs Chromium at /usr/bin/chromium (Debian: ``apt-get install chromium``) and the
``playwright`` package; without them these tests are skipped.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import playwright.sync_api as playwright_api
import pytest

from boards import pos
from gammon.core.position import Position, StepReason
from gammon.web.service.views import step_tree_view
from gammon.web.testing import ThreadedServer
from webclient import bearer
from webpages import (
    ACTION_BUTTONS,
    SEED,
    Page,
    act_once,
    checkers,
    drag,
    make_move_by_clicks,
    new_page,
    points_of,
    serve,
    settled,
    shot,
    start_game,
    version,
    wait_version_above,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadedServer]:
    yield from serve(tmp_path_factory, "web")


# -- (a) a whole game against the computer ------------------------------------------------------


def test_whole_game_against_the_computer_by_clicks(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    start_game(page, server.url, variant="hypergammon", screenshot="start-page.png")
    page.wait_for_url("**/game/**")
    assert "#token=" in page.url
    page.wait_for_selector("#roll")
    assert "Roll" in page.inner_text("#status")
    turns = 0
    while act_once(page):
        turns += 1
        assert turns < 400, "the game does not end"
    assert page.locator("#result-line").is_visible()
    result = page.inner_text("#result")
    assert "won" in result and ("Points:" in result or "Match" in result)
    page.wait_for_selector("#verify.ok")
    assert "OK" in page.inner_text("#verify")
    seed = page.inner_text("#seed")
    assert seed == SEED
    moves = page.locator("#record li.move").count()
    assert moves >= 4
    assert page.locator("#record li.end").count() >= 1
    for link in ("#download-mat", "#download-sgf"):
        href = page.get_attribute(link, "href")
        r = page.request.get(server.url + href)
        assert r.ok and len(r.text()) > 50
    # The analysis (the same as gammon analyse): tests/test_web_analysis_browser.py.
    game_id = page.url.split("/game/")[1].split("#")[0]
    page.wait_for_selector("#analysis")
    shot(page, "end-screen.png")
    # The banner closes: the final position stays on the board.  Then a rematch, same settings.
    position = page.get_attribute("#app", "data-position")
    page.click("#banner-close")
    assert page.locator("#banner").is_hidden() and page.get_attribute("#app", "data-position") == position
    shot(page, "final-position.png")
    page.click("#rematch-control")
    page.wait_for_url(lambda url: game_id not in url and "/game/" in url)
    page.wait_for_selector("#roll")
    new_id = page.url.split("/game/")[1].split("#")[0]
    new = page.request.get(f"{server.url}/api/games/{new_id}").json()
    assert new["rematch_of"] == game_id and new["rules"]["variant"] == "hypergammon"
    assert page.request.get(f"{server.url}/api/games/{game_id}").json()["rematch_id"] == new_id
    assert not errors, errors


def test_a_public_game_joined_from_the_lobby(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors)
    ann.goto(f"{server.url}/")
    ann.wait_for_selector("#new-game")
    ann.check("input[name=opponent][value=human]", force=True)
    ann.fill("#name", "Lobby Ann")
    ann.check("#public")
    ann.click("#start")
    ann.wait_for_selector("#share")
    game_id = ann.input_value("#watch-link").rsplit("/", 1)[1]
    bob = new_page(browser, errors, width=390, height=844)
    bob.goto(f"{server.url}/")
    bob.wait_for_selector(f"#lobby button[data-game='{game_id}']")
    assert "Lobby Ann" in bob.inner_text("#lobby")
    shot(bob, "lobby-phone.png")
    bob.fill("#name", "Bob")
    bob.click(f"#lobby button[data-game='{game_id}']")  # one click: no invitation needed
    bob.wait_for_url(f"**/game/{game_id}**")
    bob.wait_for_selector("#roll")
    state = bob.request.get(f"{server.url}/api/games/{game_id}").json()
    assert state["status"] == "active" and state["seats"][1]["name"] == "Bob"
    assert not errors, errors


def test_the_start_page_sends_no_seed_from_its_url(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST" else None)
    page.goto(f"{server.url}/?test_seed={'ab' * 32}")
    page.wait_for_selector("#new-game")
    page.click("#start")
    page.wait_for_url("**/game/**")
    assert len(sent) == 1 and "test_seed" not in sent[0] and "ab" * 32 not in sent[0]
    assert not errors, errors


# -- (b) two people through an invitation, with a reload ------------------------------------------




def test_two_people_through_an_invitation_with_a_reload(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    ann = new_page(browser, errors)
    start_game(ann, server.url, variant="hypergammon1", opponent="human", seed="a1" * 32)
    ann.wait_for_selector("#share")
    invite = ann.input_value("#invite-link")
    assert "/join/" in invite and "#invite=" in invite
    watch = ann.input_value("#watch-link")
    ann.click("#copy-invite")
    ann.click("#go-to-game")
    ann.wait_for_url("**/game/**")
    ann.wait_for_selector("#invite:not([hidden])")
    assert "Waiting" in ann.inner_text("#status")

    bob = new_page(browser, errors, width=390, height=844)  # a phone
    bob.goto(invite)
    bob.wait_for_selector("#join-button")
    assert "Ann invites you" in bob.inner_text("#join")
    assert "off for both" in bob.inner_text("#join-hints")  # no engine help between people, said up front
    bob.fill("#join-name", "Bob")
    bob.click("#join-button")
    bob.wait_for_url("**/game/**")
    bob.wait_for_selector("#roll")
    ann.wait_for_selector("#roll")  # the socket told Ann that Bob joined
    assert "Bob" in ann.inner_text(".strip.opp")
    assert "#token=" in bob.url and bob.url.split("#token=")[1] not in invite  # a token of Bob's own

    # The invitation is used up: a second visitor with the same link is told the seat is taken.
    carol_errors: list[str] = []
    carol = new_page(browser, carol_errors)
    carol.goto(invite)
    carol.wait_for_selector("#seat-taken")
    assert "already been used" in carol.inner_text("#join") and carol.locator("#join-button").count() == 0
    shot(carol, "invitation-used.png")
    assert carol_errors and all("410" in e for e in carol_errors), carol_errors
    carol.context.close()

    spectator = new_page(browser, errors)
    spectator.goto(watch)
    spectator.wait_for_selector(".strip.me")

    v = version(ann)
    ann.click("#roll")  # either may roll the opening
    wait_version_above(ann, v)
    steps = 0
    reloaded = False
    while True:
        settled(ann, bob)
        if ann.locator("#result-line").count() and bob.locator("#result-line").count():
            break
        mover = next((p for p in (ann, bob) if p.locator("#roll, #take, #accept, #confirm, #choose-6").count()),
                     None)
        assert mover is not None, "neither page offers an action"
        assert mover.locator("#hint").count() == 0 and "no hints" in mover.inner_text(".game-title")
        act_once(mover)
        steps += 1
        if steps == 3 and not reloaded:
            bob.reload()
            bob.wait_for_selector(".strip.me")
            reloaded = True
            assert "#token=" in bob.url
        assert steps < 200
    assert reloaded
    settled(ann, bob)
    spectator.wait_for_function(f"document.getElementById('app').dataset.version === '{version(ann)}'")
    assert spectator.get_attribute("#app", "data-position") == ann.get_attribute("#app", "data-position")
    assert ann.inner_text("#score-line") == bob.inner_text("#score-line")
    ann.wait_for_selector("#verify.ok")
    bob.wait_for_selector("#verify.ok")
    shot(bob, "end-screen-phone.png")
    assert not errors, errors


# -- (c) illegal clicks, undo, a middle-game board ------------------------------------------------


def test_illegal_clicks_change_nothing_and_explain(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    page.wait_for_selector("#roll")
    # Clicking the board before rolling explains what to do.
    page.click(".hit[data-point='6']")
    assert "Roll" in page.inner_text("#notice")
    turns = 0
    checked = hinted = False
    while turns < 40 and not (checked and hinted and page.locator("#record li.move").count() >= 4):
        page.wait_for_selector(ACTION_BUTTONS)
        if page.locator("#result-line").count():
            break
        if page.locator("#confirm").count() and not checked:
            v, position = version(page), page.get_attribute("#app", "data-position")
            board_before = checkers(page)
            movable = points_of(page, ".hit.movable")
            assert movable
            # A point with no checker of ours (or one that cannot move) is refused with a reason.
            stuck = next(p for p in range(1, 25) if p not in movable)
            page.click(f".hit[data-point='{stuck}']")
            assert page.locator("#notice").is_visible()
            assert page.inner_text("#notice").strip()
            assert page.locator(".hit.selected").count() == 0
            # A checker that can move, picked up (dragged and put back: a click would move it), then a
            # point it cannot reach.
            src = min(movable)
            drag(page, src, src)
            dests = points_of(page, ".hit.dest")
            assert dests
            wrong = next(p for p in [*range(24, 0, -1), 0] if p not in dests and p != src and p not in movable)
            page.click(f".hit[data-point='{wrong}']")
            notice = page.inner_text("#notice")
            assert notice.strip(), "an illegal destination must be explained"
            assert page.locator(".hit.selected").count() == 1  # still selected, nothing moved
            assert checkers(page) == board_before
            assert version(page) == v and page.get_attribute("#app", "data-position") == position
            shot(page, "board-selected.png")
            # A legal step, then undo: the board is back as it was.
            page.click(f".hit.dest[data-point='{min(dests)}']")
            assert checkers(page) != board_before
            page.click("#undo")
            assert checkers(page) == board_before
            assert not page.locator("#confirm").is_enabled()
            # Dragging a checker to a highlighted point moves it too.
            drag(page, src, min(dests))
            assert checkers(page) != board_before
            page.click("#undo")
            assert checkers(page) == board_before
            checked = True
        elif page.locator("#confirm").count() and not hinted and page.locator("#hint").count():
            # The hint lists the best plays; choosing one sets it on the board, ready to confirm.
            v = version(page)
            page.click("#hint")
            page.wait_for_selector("#hint-panel li button")
            best = page.inner_text("#hint-panel li button >> nth=0")
            page.click("#hint-panel li button >> nth=0")
            assert page.locator("#confirm").is_enabled()
            assert best in page.inner_text("#status")
            page.click("#confirm")
            wait_version_above(page, v)
            hinted = True
            turns += 1
            continue
        act_once(page)
        turns += 1
    assert checked and hinted
    page.wait_for_selector("#confirm, #roll, #take")
    shot(page, "board-middle.png")
    # The server never saw an illegal play: every play in the record is legal by construction.
    assert page.locator("#record li.move").count() >= 3
    assert not errors, errors


def test_a_refused_step_is_explained_by_cores_rule(server: ThreadedServer, browser: Any) -> None:
    """The page holds no rules: a refused step's message is the server's, from gammon.core's refusal."""
    errors: list[str] = []
    page = new_page(browser, errors)
    start_game(page, server.url, variant="standard", seed="3c" * 32)
    for _ in range(10):  # roll, and let the computer play, until we have a roll to play
        page.wait_for_selector(ACTION_BUTTONS)
        if page.locator("#confirm").count():
            break
        act_once(page)
    assert page.locator("#confirm").count()
    game_id = page.url.split("/game/")[1].split("#")[0]
    dice = tuple(httpx.get(f"{server.url}/api/games/{game_id}").json()["dice"])
    position = Position.from_position_id(page.get_attribute("#app", "data-position") or "")
    tree = position.step_tree(dice)
    # A step the tree refuses, from a checker that can move: core says why (prefer a blocked point).
    tries = []
    for src in sorted(points_of(page, ".hit.movable")):
        for dst in [*range(src - 1, 0, -1), 0]:
            refusal = tree.refusal(0, src, dst)
            if refusal is not None:
                tries.append((refusal.reason is not StepReason.BLOCKED, src, dst, refusal))
    assert tries
    _, src, dst, refusal = min(tries, key=lambda t: t[:3])
    drag(page, src, dst)  # dropped where it may not go: it stays picked up
    expected = refusal.message[0].upper() + refusal.message[1:] + "."
    page.wait_for_function("(r) => document.getElementById('notice').dataset.reason === r",
                           arg=refusal.reason.value)
    assert page.inner_text("#notice").strip() == expected
    assert "No legal play of your roll" not in expected  # the specific rule, not the generic words
    assert page.locator(".hit.selected").count() == 1  # still selected, nothing moved
    # With these dice a blocked point is in reach: the notice names it and the rule.
    assert refusal.reason is StepReason.BLOCKED
    assert f"Point {dst} is blocked: your opponent has" in page.inner_text("#notice")
    assert not errors, errors


# -- (d) the page's move builder walks the server's tree of legal steps --------------------------------


def _case(pos: Position, dice: tuple[int, int]) -> dict[str, Any]:
    """What the server sends for a roll to play (its tree of steps), and core's legal plays to check against."""
    legal = [{"notation": str(p), "moves": [
        {"from_point": m.from_point, "to_point": m.to_point, "hit": m.hit} for m in p.moves]}
        for p in pos.legal_plays(dice)]
    tree = step_tree_view(pos.step_tree(dice)).model_dump(mode="json")
    return {"variant": pos.variant.name, "dice": list(dice), "tree": tree, "plays": legal}


def _positions(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for variant in ("standard", "nackgammon", "hypergammon", "dutch", "acey-deucey"):
        for _ in range(n):
            pos = Position.initial(variant)
            for _ply in range(rng.randrange(0, 120)):
                plays = pos.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
                if len(plays):
                    nxt = plays[rng.randrange(len(plays))].position
                    if nxt.outcome is not None:
                        break
                    pos = nxt
                pos = pos.swap()
            out.append(_case(pos, (rng.randint(1, 6), rng.randint(1, 6))))
    return out


CHECK_BUILDER = """async (cases) => {
  const { MoveBuilder } = await import('/static/js/moves.js');
  const bad = [];
  for (const c of cases) {
    const b = new MoveBuilder(c.tree);
    const notations = c.plays.map((p) => p.notation);
    for (const p of c.plays) {           // every legal play can be clicked, in the engine's order
      b.reset();
      for (const m of p.moves) {
        const st = b.allowedSteps().find((s) => s.from === m.from_point && s.to === m.to_point);
        if (!st) {
          bad.push(`${c.variant} ${c.dice} ${p.notation}: step ${m.from_point}/${m.to_point} refused`);
          break;
        }
        b.move([st]);
      }
      if (b.play !== p.notation) bad.push(`${c.variant} ${c.dice} ${p.notation}: not complete (${b.play})`);
    }
    for (let k = 0; k < 2; k++) {        // and every sequence of offered clicks ends in a legal play
      b.reset();
      let guard = 0;
      while (!b.complete && guard++ < 8) {
        const a = b.allowedSteps();
        if (!a.length) { bad.push(`${c.variant} ${c.dice}: stuck`); break; }
        b.move([a[(k * 7 + guard) % a.length]]);
      }
      if (c.plays.length && !notations.includes(b.play)) bad.push(`${c.variant} ${c.dice}: ended off the list`);
      if (!c.plays.length && (b.canMove || b.play !== '')) bad.push(`${c.variant} ${c.dice}: a pass moves`);
    }
  }
  return bad;
}"""


def test_move_builder_agrees_with_the_engine(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{server.url}/watch/none")  # any page of the server: the module loads from it
    cases = _positions(40, 7)
    bad = page.evaluate(CHECK_BUILDER, json.loads(json.dumps(cases)))
    assert bad == []


OFFERS = """async ([tree, walk]) => {
  const { MoveBuilder } = await import('/static/js/moves.js');
  const b = new MoveBuilder(tree);
  for (const [f, t] of walk) b.move([b.allowedSteps().find((s) => s.from === f && s.to === t)]);
  const out = {};
  for (const from of b.sources()) out[from] = [...b.destinations(from).keys()].sort((x, y) => x - y);
  return { offers: out, me: b.board.me, opp: b.board.opp, pips: b.pips, complete: b.complete, play: b.play };
}"""


def _offers(page: Page, pos: Position, dice: tuple[int, int],
            walk: tuple[tuple[int, int], ...] = ()) -> dict[str, Any]:
    tree = step_tree_view(pos.step_tree(dice)).model_dump(mode="json")
    result: dict[str, Any] = page.evaluate(OFFERS, [tree, [list(w) for w in walk]])
    result["offers"] = {int(k): v for k, v in result["offers"].items()}
    return result


def test_the_page_offers_only_what_the_servers_tree_holds(server: ThreadedServer, browser: Any) -> None:
    """The rules are the server's: the page offers a step exactly when core's tree has it."""
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(f"{server.url}/watch/none")
    # Dutch: "no hitting until one of your checkers has reached your home board".  The blot on
    # our 21-point may not be hit by 24/21; the 3 moves 24/21 only once hitting is allowed.
    dutch = pos("x: 24:2 13:13; o: 4 bar:14", "dutch")
    got = _offers(page, dutch, (3, 5))
    assert 21 not in got["offers"].get(24, []), "the page offered a hit the Dutch rules forbid"
    assert all(21 not in dests for dests in got["offers"].values())
    # Acey-Deucey: a checker enters from the pool (the bar index) while others may wait.
    acey = Position.initial("acey-deucey")
    got = _offers(page, acey, (6, 4))
    assert got["offers"] == {25: [15, 19, 21]}  # in/19, in/21, or one checker in/21/15 (in/19/15)
    after = _offers(page, acey, (6, 4), ((25, 19),))
    assert after["me"][24] == 14 and after["me"][18] == 1  # the board drawn is the server's
    # A bear-off with a higher die: only from the highest point, and the page does not bear
    # off the lower checker with the 6 (the 4-point checker must go first).
    bear = pos("x: 4 2:2; o: 1:2")
    got = _offers(page, bear, (6, 1))
    assert 0 in got["offers"][4] and 0 not in got["offers"].get(2, [])
    # And the page walks whatever the tree says: a tree with one step offers only that step.
    tree = step_tree_view(Position.initial().step_tree((3, 1))).model_dump(mode="json")
    tree["nodes"][0]["steps"] = tree["nodes"][0]["steps"][:1]
    only = page.evaluate(OFFERS, [tree, []])
    first = tree["nodes"][0]["steps"][0]
    assert {int(k) for k in only["offers"]} == {first[0]}
    assert not [e for e in errors if e.startswith("page error")], errors  # (/watch/none itself is a 404)


# -- (e) a dropped socket is reopened by itself ----------------------------------------------------------


def test_the_page_reconnects_after_the_socket_drops(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    routes: list[Any] = []

    def through(ws: Any) -> None:  # pass the socket through, keeping a handle to cut it
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket("**/api/games/*/ws*", through)
    created = page.request.post(f"{server.url}/api/games", data={
        "opponent": "computer", "variant": "hypergammon", "test_seed": "77" * 32}).json()
    gid, token = created["game_id"], created["token"]
    page.goto(f"{server.url}/game/{gid}#token={token}")
    page.wait_for_selector(".conn[data-state='live']")
    assert len(routes) == 1
    routes[0].close(code=1012, reason="server restart")  # as when the server goes away
    page.wait_for_selector(".conn[data-state='retry']")
    page.wait_for_selector(".conn[data-state='live']")
    assert len(routes) == 2
    # The new socket carries the game on: an action made elsewhere shows up.
    v = version(page)
    r = page.request.post(f"{server.url}/api/games/{gid}/actions", data={"type": "roll"},
                          headers=bearer(token))
    assert r.ok
    wait_version_above(page, v)
    assert not errors, errors


# -- (f) the page fits the screen ------------------------------------------------------------------


#: The elements of ``sels`` (a list of selectors) whose boxes are missing or not wholly inside the window.
_OUTSIDE_JS = """sels => sels.filter(sel => {
    const el = document.querySelector(sel);
    if (!el) return true;
    const r = el.getBoundingClientRect();
    return r.left < 0 || r.top < 0 || r.right > window.innerWidth || r.bottom > window.innerHeight;
})"""
#: Where the game page's parts lie, for the message of a failed fit.
_LAYOUT_JS = """() => Object.fromEntries(['header.topbar', '.strip.opp', '.board-wrap', 'svg.board',
    '.strip.me', '#status', '#notice', '#controls', '.side'].map(sel => {
        const el = document.querySelector(sel);
        if (!el) return [sel, null];
        const r = el.getBoundingClientRect();
        const [t, b, l, rt] = [r.top, r.bottom, r.left, r.right].map(Math.round);
        const box = `y ${t}..${b} x ${l}..${rt}`;
        const text = sel === '#status' || sel === '#notice' ? ` "${el.textContent}"` : '';
        return [sel, box + (el.hidden ? ' hidden' : '') + text];
    }).concat([['window', `${window.innerWidth}x${window.innerHeight} scrolled ${window.scrollY}`]]))"""


def assert_inside(page: Page, selectors: tuple[str, ...], where: str, settle_ms: int = 5_000) -> None:
    """Every element of ``selectors`` lies wholly inside the window, once the page has settled.

    The page lays itself out again after each state it receives, so the check waits up to
    ``settle_ms`` for the layout to hold; a page that never fits fails, with where its parts lie.
    """
    try:
        page.wait_for_function(f"({_OUTSIDE_JS})({list(selectors)!r}).length === 0", timeout=settle_ms)
    except playwright_api.TimeoutError:
        outside = page.evaluate(_OUTSIDE_JS, list(selectors))
        raise AssertionError(f"{', '.join(outside)} not inside the window ({where}); layout: "
                             f"{page.evaluate(_LAYOUT_JS)}") from None


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1366, 768), (1536, 864)])
def test_board_and_buttons_fit_a_laptop_screen(server: ThreadedServer, browser: Any, width: int,
                                               height: int) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, width=width, height=height)
    page.goto(f"{server.url}/")
    page.wait_for_selector("#new-game")
    assert_inside(page, ("#start",), "the start page's main button, above the fold")
    created = page.request.post(f"{server.url}/api/games", data={
        "opponent": "computer", "variant": "standard", "test_seed": "61" * 32}).json()
    page.goto(f"{server.url}/game/{created['game_id']}#token={created['token']}")
    page.wait_for_selector("#roll")
    assert_inside(page, ("svg.board", "#roll", ".strip.opp", ".strip.me"), f"{width}x{height}, to roll")
    for _ in range(20):  # to a move of ours: the play's buttons must show too
        if page.locator("#confirm").count():
            break
        act_once(page)
    page.wait_for_selector("#confirm")
    assert_inside(page, ("svg.board", "#confirm", "#undo", "#resign"), f"{width}x{height}, to move")
    shot(page, f"fit-{width}x{height}.png", full_page=False)
    assert not errors, errors


# -- (g) motion, and the cube as a button -------------------------------------------------------------


@pytest.mark.parametrize("reduced", [False, True])
def test_motion_follows_prefers_reduced_motion(server: ThreadedServer, browser: Any, reduced: bool) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, reduced_motion="reduce" if reduced else "no-preference")
    created = page.request.post(f"{server.url}/api/games", data={
        "opponent": "computer", "variant": "standard", "computer_level": "heuristic",
        "test_seed": "4d" * 32}).json()
    gid = created["game_id"]
    page.goto(f"{server.url}/game/{gid}#token={created['token']}")
    page.wait_for_selector("#roll")
    doubled = False
    for _ in range(30):
        log = page.request.get(f"{server.url}/api/games/{gid}/actions").json()["actions"]
        plays = {a["player"] for a in log if a["type"] == "play"}
        if plays == {0, 1} and doubled:
            break
        page.wait_for_selector(ACTION_BUTTONS)
        if page.locator("#result-line").count():
            break
        if not doubled and page.locator("#double").count():
            v = version(page)
            page.click("svg.board .cube")  # clicking the cube offers the double
            wait_version_above(page, v)
            doubled = True
            continue
        act_once(page)
    log = page.request.get(f"{server.url}/api/games/{gid}/actions").json()["actions"]
    assert doubled and any(a["type"] == "double" and a["player"] == 0 for a in log)
    assert {a["player"] for a in log if a["type"] == "play"} == {0, 1}
    motion = page.evaluate("window.gammonMotion || {glides: 0, dice: 0, cube: 0}")
    if reduced:
        assert motion == {"glides": 0, "dice": 0, "cube": 0}, "prefers-reduced-motion: nothing may move"
    else:
        assert motion["glides"] > 0 and motion["dice"] > 0 and motion["cube"] > 0, motion
    assert not errors, errors


# -- (h) a clock running out ----------------------------------------------------------------------------


def test_a_clock_running_out_loses_the_match(server: ThreadedServer, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    api = page.request
    d = api.post(f"{server.url}/api/games", data={"opponent": "human", "name": "Ann", "match_length": 3,
                                                  "clock_delay": 1, "clock_reserve": 2}).json()
    gid = d["game_id"]
    joined = api.post(f"{server.url}/api/games/{gid}/join", data={"name": "Bob"},
                      headers=bearer(d["invite_token"])).json()
    page.goto(f"{server.url}/game/{gid}#token={d['token']}")
    page.wait_for_selector(".strip .clock")
    assert page.locator(".strip .clock").count() == 2
    tokens = (d["token"], joined["token"])
    for _ in range(20):  # the opening: then somebody's clock runs, and nobody moves
        s = api.post(f"{server.url}/api/games/{gid}/actions", data={"type": "roll"},
                     headers=bearer(tokens[0])).json()["state"]
        if s["phase"] == "move":
            break
    page.wait_for_selector(".strip .clock.running")
    shot(page, "clock-running.png", full_page=False)
    page.wait_for_selector("#result-line")
    text = page.inner_text("#result-line")
    assert "on time" in text and "won the match" in text
    final = api.get(f"{server.url}/api/games/{gid}").json()
    loser = final["match"]["timeout"]
    assert loser == s["to_act"] and final["match"]["score"][1 - loser] == 3
    assert "ran out of time" in page.inner_text("#record")
    shot(page, "clock-out.png", full_page=False)
    assert not errors, errors


# -- (i) a phone, upright and on its side ------------------------------------------------------------------

PHONES = [pytest.param(390, 844, "tall", id="portrait-390x844"),
          pytest.param(844, 390, "short", id="landscape-844x390")]
LONGEST_NAME = "Maximiliana Wolkenstein!"  # 24 characters: the longest name the server keeps
# The width of each point across its direction of play: the hit column's width, or its height when the
# board is turned upright (its points then run across the screen).
TAP_SIZES = """() => {
  const layout = document.querySelector('svg.board').dataset.layout;
  return [...document.querySelectorAll('svg.board .hit')].filter(e => Number(e.dataset.point) >= 1
    && Number(e.dataset.point) <= 24).map(e => { const b = e.getBoundingClientRect();
    return layout === 'tall' ? b.height : b.width; });
}"""
# Texts whose box is narrower than what they hold (cut off, or hidden behind an ellipsis).
CLIPPED = """() => [...document.querySelectorAll('.topbar *, .strip, .strip *, .status, .notice, .controls *')]
  .filter(e => e.clientWidth > 0 && (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight + 1))
  .map(e => `${e.className}: ${e.textContent}`)"""


def check_fits(page: Page, selectors: tuple[str, ...], where: str, screenshot: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, screenshot, full_page=False)
    assert_inside(page, selectors, where)
    assert page.evaluate(CLIPPED) == [], f"clipped texts ({where})"
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], f"the page scrolls sideways ({where})"


@pytest.mark.parametrize(("width", "height", "layout"), PHONES)
def test_a_phone_shows_big_points_and_every_button(server: ThreadedServer, browser: Any, width: int,
                                                   height: int, layout: str) -> None:
    """Two people on phones (the longest names, clocks, a match): each point at least 40 px to tap, the
    board and the buttons of every step on the screen without scrolling (roll and double, the
    resignations to choose, the play's, the answers to a double and a resignation), no name cut off;
    a move made by tapping reaches the server."""
    errors: list[str] = []
    api = server.url
    page = new_page(browser, errors, width=width, height=height, phone=True)
    d = page.request.post(f"{api}/api/games", data={
        "opponent": "human", "name": LONGEST_NAME, "match_length": 7, "clock_delay": 30, "clock_reserve": 900,
        "test_seed": "61" * 32}).json()
    gid = d["game_id"]
    other = page.request.post(f"{api}/api/games/{gid}/join", data={"name": LONGEST_NAME[::-1]},
                              headers=bearer(d["invite_token"])).json()
    tokens = {0: d["token"], 1: other["token"]}

    def act(seat: int, action: dict[str, Any]) -> dict[str, Any]:
        r = page.request.post(f"{api}/api/games/{gid}/actions", data=action,
                              headers=bearer(tokens[seat]))
        assert r.ok, r.text()
        state: dict[str, Any] = r.json()["state"]
        return state

    state = act(0, {"type": "roll"})
    while state["phase"] != "move":  # the opening: equal dice roll again
        state = act(0, {"type": "roll"})
    first = state["to_act"]
    me = 1 - first  # the phone is the player who answers the opening move
    mine = page.request.get(f"{api}/api/games/{gid}",
                            headers=bearer(tokens[first])).json()
    act(first, {"type": "play", "play": mine["legal_plays"][0]["notation"]})

    page.goto(f"{api}/game/{gid}#token={tokens[me]}")
    page.wait_for_selector("#double")
    assert page.get_attribute("svg.board", "data-layout") == layout
    assert LONGEST_NAME in page.inner_text(".strip.opp") + page.inner_text(".strip.me")
    check_fits(page, ("svg.board", "#roll", "#double", "#resign", ".strip.opp", ".strip.me"), "roll or double",
               f"phone-{width}x{height}-roll.png")

    page.tap("#resign")  # the choice of resignations fits too
    check_fits(page, ("svg.board", "#resign-single", "#resign-gammon", "#resign-backgammon", "#resign-cancel"),
               "a resignation to choose", f"phone-{width}x{height}-resign.png")
    assert "Resign" in page.inner_text("#status")
    page.tap("#resign-cancel")
    v = version(page)
    page.tap("#roll")
    wait_version_above(page, v)
    page.wait_for_selector("#confirm")
    sizes = page.evaluate(TAP_SIZES)
    assert len(sizes) == 24 and min(sizes) >= 40, f"points {min(sizes):.1f} px to tap at {width}x{height}"
    taps = make_move_by_clicks(page, tap=True)
    check_fits(page, ("svg.board", "#confirm", "#undo", "#resign"), "a move",
               f"phone-{width}x{height}-move.png")
    v = version(page)
    page.tap("#confirm")
    wait_version_above(page, v)
    log = page.request.get(f"{api}/api/games/{gid}/actions").json()["actions"]
    played = [a for a in log if a["type"] == "play" and a["player"] == me]
    assert len(played) == 1, "the tapped play did not reach the server"
    assert len(played[0]["action"]["moves"]) >= len(taps) > 0  # a tap may move a checker by both dice

    v = version(page)
    act(first, {"type": "double"})
    wait_version_above(page, v)
    page.wait_for_selector("#take")
    check_fits(page, ("svg.board", "#take", "#drop"), "a double offered", f"phone-{width}x{height}-double.png")
    v = version(page)
    page.tap("#take")
    wait_version_above(page, v)

    v = version(page)
    act(first, {"type": "resign", "kind": "single"})
    wait_version_above(page, v)
    page.wait_for_selector("#accept")
    check_fits(page, ("svg.board", "#accept", "#reject"), "a resignation offered",
               f"phone-{width}x{height}-resigned.png")
    page.tap("#accept")
    page.wait_for_selector("#banner:not([hidden])")  # the game is over (the match goes on)
    page.evaluate("window.scrollTo(0, 0)")
    assert_inside(page, ("#banner",), "the end of the game's banner")
    shot(page, f"phone-{width}x{height}-end.png", full_page=False)
    assert not errors, errors
