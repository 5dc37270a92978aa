"""Search's phone page end to end, in real headless Chromium (Debian's) at phone size.

A real Table (temp SQLite, MockFactory pins, no camera) served by waitress; the game is
started with ``new_game`` over the API, then the phone taps: the two start cards, a lit room
(the track advances), a closed room (the engine's reason, in German), the hint button, and
at the end the review of the score reached against the solver's best. The tests run in file
order on one table. Screenshots go to artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.search.house import House
from web_support import PIN, Site, launch, make_table

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 360, "height": 740}
SEED = 7


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The real runtime (temp SQLite, MockFactory, no camera) served by waitress on a free port."""
    import web

    with make_table(tmp_path_factory.mktemp("searchpage")) as table:
        app = web.create_app(table, table.config.section("web"))
        with web.Server(app, host="127.0.0.1", port=0) as server:
            yield Site(server.url, server.port, PIN)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture(scope="module")
def phone(browser: Any, site: Site) -> Iterator[Any]:
    """One logged-in phone for the whole table (German page)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="de-DE",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # the page's CSP (no inline styles or scripts) must hold for the house drawing too
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "Content Security Policy" in m.text else None)
    page.goto(site.url + "login?next=/")
    page.fill("#pin", site.pin)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(site.url)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def api(site: Site, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        site.url + path.lstrip("/"),
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Companion-Pin": site.pin},
        method="GET" if body is None else "POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def view(site: Site) -> dict[str, Any]:
    return api(site, "api/state")[1]["view"]


def wait_until(page: Any, expression: str, arg: Any = None, timeout_s: float = 20.0) -> None:
    """Poll a JS function in the page (the CSP forbids wait_for_function's string eval)."""
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression} ({arg!r})")
        page.wait_for_timeout(100)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"search-{name}.png"), full_page=True)


def cards_for(house: House, room: str) -> tuple[int, int]:
    r, c = house.cell(house.room(room))
    row, col = house.row_marks[r], house.col_marks[c]
    assert row is not None and col is not None
    return row, col


def free_card_rooms(house: House) -> list[str]:
    return [house.name(house.at(r, c)) for r, rm in enumerate(house.row_marks)
            for c, cm in enumerate(house.col_marks) if rm is not None and cm is not None]


def tap_cards(page: Any, row: int, col: int) -> None:
    page.click(f"#sr-cards [data-card=row-{row}]")
    page.click(f"#sr-cards [data-card=col-{col}]")


def test_start_rooms_are_drawn_by_tapping_two_cards(site: Site, phone: Any) -> None:
    status, body = api(site, "api/action", {"action": "new_game", "game": "search",
                                            "setup": {"players": ["Ana", "Ben"], "seed": SEED}})
    assert status == 200, body
    phone.goto(site.url)
    wait_until(phone, "() => document.querySelectorAll('.sr-hit').length === 88")
    # the page's own stylesheet arrived, under the release's version like the script
    wait_until(phone, "() => { const l = document.getElementById('css-search');"
               " return !!(l && l.sheet && l.sheet.cssRules.length > 20); }")
    assert "?v=" in phone.evaluate("() => document.getElementById('css-search').href")
    house = House.parse(view(site)["house"]["text"])
    # Ana draws a pair, whose room's corridor leads to a room that two different cards name
    pair = next(n for n in range(1, 7)
                if _two_cards_name(house, house.partner[house.room_for_cards(n, n)]))
    x, y = cards_for(house, house.name(house.partner[house.room_for_cards(pair, pair)]))
    first = house.name(house.room_for_cards(pair, pair))
    tap_cards(phone, pair, pair)
    # the picked room is previewed on the house and named on the button; a pair names one room
    assert phone.locator(f".sr-room.preview[data-room={first}]").count() == 1
    assert first in phone.locator("#sr-place").inner_text()
    assert phone.locator("#sr-place-other").count() == 0
    shot(phone, "cards")
    phone.click("#sr-place")
    wait_until(phone, "() => document.querySelectorAll('.sr-pawn').length === 1")
    assert view(site)["players"][0]["path"] == [first]

    # Ben draws the same pair: the referee says draw again, in German
    tap_cards(phone, pair, pair)
    phone.click("#sr-place")
    wait_until(phone, "() => (document.querySelector('#sr-reason') || {}).dataset?.code === 'draw_again'")
    reason = phone.locator("#sr-reason").inner_text()
    assert first in reason and "zwei neue Karten ziehen" in reason
    assert view(site)["players"][1]["path"] == []
    assert phone.locator("#sr-cards .sr-card.on").count() == 0  # two new cards, please

    # Ben draws two different cards: either may name the row, so both rooms are offered; the
    # first is joined by corridor to Ana's, so he is told to take the other, not to draw again
    taken = house.name(house.room_for_cards(x, y))
    alt = house.name(house.room_for_cards(y, x))
    assert not _blocked(house, house.room(alt), house.room(first))
    tap_cards(phone, x, y)
    assert taken in phone.locator("#sr-place").inner_text()
    assert alt in phone.locator("#sr-place-other").inner_text()
    for room in (taken, alt):
        assert phone.locator(f".sr-room.preview[data-room={room}]").count() == 1
    phone.click("#sr-place")
    wait_until(phone, "() => (document.querySelector('#sr-reason') || {}).dataset?.code === 'other_room'")
    reason = phone.locator("#sr-reason").inner_text()
    assert taken in reason and alt in reason and "dort starten" in reason
    assert phone.locator("#sr-cards .sr-card.on").count() == 2  # the same cards still stand
    phone.click("#sr-place-other")
    wait_until(phone, "() => document.querySelectorAll('.sr-pawn').length === 2")
    assert view(site)["phase"] == "play" and view(site)["players"][1]["path"] == [alt]


def _two_cards_name(house: House, room: int) -> bool:
    """``room`` lies where a row and a column with different triangles cross."""
    r, c = house.cell(room)
    row, col = house.row_marks[r], house.col_marks[c]
    return row is not None and col is not None and row != col


def _blocked(house: House, room: int, taken: int) -> bool:
    return room == taken or house.partner[room] == taken


def test_tapping_a_lit_room_moves_and_the_track_advances(site: Site, phone: Any) -> None:
    before = view(site)
    mover = before["turn"]
    lit = phone.locator(".sr-room.legal")
    assert lit.count() == len(before["legal"]) >= 1
    target = before["legal"][0]["room"]
    dots = next(r["dots"] for r in before["house"]["rooms"] if r["name"] == target)
    track = f"#sr-tracks [data-player='{mover}'] .sr-num"
    assert phone.locator(track).inner_text() == str(before["players"][mover]["track"])
    shot(phone, "play")
    phone.click(f".sr-hit[data-room={target}]")
    expected = str(before["players"][mover]["track"] + dots)
    wait_until(phone, "([sel, want]) => document.querySelector(sel).textContent === want",
               [track, expected])
    after = view(site)
    assert after["players"][mover]["path"][-1] == target
    assert after["turn"] != mover or after["phase"] == "over"
    # the mover's trail is drawn from the old room to the new one in their colour
    assert phone.locator(".sr-trail").count() == 1
    assert phone.locator("#tap-hint").is_hidden()  # Mörder's "tap a tile" is not said here


def test_tapping_a_closed_room_says_why_and_changes_nothing(site: Site, phone: Any) -> None:
    before = view(site)
    assert before["phase"] == "play"
    # a room next to the mover that the rules close, else any closed room
    refusals = before["refusals"]
    room, why = next(iter(sorted(refusals.items(), key=lambda kv: kv[1]["code"] != "dots_unmatched")))
    phone.click(f".sr-hit[data-room={room}]")
    wait_until(phone, "(code) => (document.querySelector('#sr-reason') || {}).dataset?.code === code",
               why["code"])
    text = phone.locator("#sr-reason").inner_text()
    assert text and text != why["reason"]  # the page's language, not the engine's English
    assert room in text or why["code"] in ("must_take_corridor", "not_your_turn")
    shot(phone, "refused")
    assert view(site) == before


def test_hint_button_shows_the_solvers_move(site: Site, phone: Any) -> None:
    before = view(site)
    phone.click("#btn-hint")
    wait_until(phone, "() => !!document.querySelector('#sr-hint strong')", timeout_s=60)
    text = phone.locator("#sr-hint strong").inner_text()
    legal = [m["room"] for m in before["legal"]]
    assert text.startswith("Tipp für") and any(r in text for r in legal), text
    assert phone.locator(".sr-room.hinted").count() == 1
    assert view(site)["hint_asked"] == before["turn"]
    assert phone.locator("#btn-hint").is_disabled()  # asked once per position
    shot(phone, "hint")


def test_the_end_sets_the_score_reached_against_the_best(site: Site, phone: Any) -> None:
    # a small house, played to its end over the API: the review's search finishes
    house = House.generate(3, 4, 4)
    setup = {"players": ["Ana", "Ben"], "house": str(house), "starts": ["A1", "D4"]}
    assert api(site, "api/action", {"action": "new_game", "game": "search", "setup": setup})[0] == 200
    v = view(site)
    while v["phase"] == "play":
        move = {"type": "move", "player": v["turn"], "room": v["legal"][0]["room"]}
        status, body = api(site, "api/action", {"action": "event", "event": move})
        assert status == 200, body
        v = body["state"]["view"]
    wait_until(phone, "() => !!document.querySelector('#sr-review #sr-best b')", timeout_s=60)
    reached = int(phone.locator("#sr-reached b").inner_text())
    best = int(phone.locator("#sr-best b").inner_text())
    assert reached == v["score"]["team"]
    assert best >= reached
    banner = phone.locator("#banner strong").inner_text()
    assert ("Gewonnen" in banner) is v["score"]["win"]
    shot(phone, "review")


def test_history_replays_a_search_game(site: Site, phone: Any) -> None:
    game_id = api(site, "api/state")[1]["game_id"]
    steps = api(site, f"api/history/{game_id}")[1]["steps"]
    phone.goto(site.url + f"history/{game_id}")
    wait_until(phone, "() => document.querySelectorAll('.sr-hit').length === 16")
    last = steps[-1]["view"]
    assert phone.locator(".sr-trail").count() == sum(len(p["path"]) - 1 for p in last["players"])
    event = steps[-1]["event"]
    assert event["type"] == "move"
    name = last["players"][event["player"]]["name"]
    assert f"{name} nach {event['room']}" in phone.locator("#step-label").inner_text()
    phone.locator("#step").fill("0")
    wait_until(phone, "() => document.querySelectorAll('.sr-trail').length === 0")
    assert phone.locator(".sr-pawn").count() == 2  # the start rooms of the set-up
    assert phone.locator("#sr-cards, #sr-review, #sr-reason").count() == 0  # nothing live in a replay
    assert phone.locator("#chart-card").is_hidden()  # the chance chart is Mörder's advisor only
    shot(phone, "history")


def test_a_new_search_game_from_the_phones_form(site: Site, phone: Any) -> None:
    phone.goto(site.url)
    phone.click("#new-game summary")
    phone.select_option("#game-select", "search")
    wait_until(phone, "() => !!document.querySelector('#sr-seed')")
    names = phone.locator("#player-names input")
    assert names.count() >= 2
    names.nth(0).fill("Uta")
    names.nth(1).fill("Veit")
    phone.fill("#sr-seed", "11")
    phone.select_option("#sr-rule", "different")
    phone.click("#new-game-form button[type=submit]")
    wait_until(phone, "() => document.querySelectorAll('#sr-cards .sr-card').length === 12")
    v = view(site)
    assert [p["name"] for p in v["players"]][:2] == ["Uta", "Veit"]
    assert v["house"]["text"] == str(House.generate(11))
    assert v["options"]["dot_rule"] == "different" and v["phase"] == "start"
    shot(phone, "new-game")


def test_the_page_speaks_english_too(site: Site, phone: Any) -> None:
    phone.goto(site.url + "?lang=en")
    v = view(site)
    assert v["phase"] == "start"
    name = v["players"][v["turn"]]["name"]
    wait_until(phone, "() => !!document.querySelector('#sr-cards')")
    assert phone.locator("#banner strong").inner_text() == f"{name} draws start cards"
    assert phone.locator("#sr-place").inner_text() == "Pick both cards first"
    phone.goto(site.url + "?lang=de")


def a_game_with_a_lost_turn() -> tuple[dict[str, Any], list[str], list[int]]:
    """A set-up, a line of moves whose last one makes someone lose a turn, and who."""
    from companion.games.search import GAME
    from companion.games.search.events import Move
    from companion.games.search.rules import Phase, legal

    for seed in range(60):
        setup = {"players": ["Ana", "Ben", "Cem"], "seed": seed, "dot_rule": "different"}
        house = House.generate(seed)
        free = free_card_rooms(house)
        starts: list[str] = []
        for name in free:
            room = house.room(name)
            if all(not _blocked(house, room, house.room(s)) for s in starts):
                starts.append(name)
            if len(starts) == 3:
                break
        setup["starts"] = starts
        s = GAME.new(setup)
        line: list[str] = []
        while s.phase is Phase.PLAY:
            rooms, _ = legal(s)
            line.append(s.house.name(rooms[0]))
            out = GAME.apply(s, Move(s.turn, line[-1]))
            lost = [e.data["player"] for e in out.effects if e.kind == "turn_lost"]
            if lost:
                return setup, line, lost
            s = out.state
    raise AssertionError("no game with a lost turn found")


def test_a_player_who_cannot_move_is_announced(site: Site, phone: Any) -> None:
    setup, line, lost = a_game_with_a_lost_turn()
    assert api(site, "api/action", {"action": "new_game", "game": "search", "setup": setup})[0] == 200
    for room in line[:-1]:
        v = view(site)
        move = {"type": "move", "player": v["turn"], "room": room}
        assert api(site, "api/action", {"action": "event", "event": move})[0] == 200
    phone.goto(site.url)
    wait_until(phone, "(room) => !!document.querySelector(`.sr-room.legal[data-room=${room}]`)", line[-1])
    phone.click(f".sr-hit[data-room={line[-1]}]")
    names = ", ".join(setup["players"][p] for p in lost)
    wait_until(phone, "(text) => { const t = document.querySelector('#toast');"
               " return !t.hidden && t.textContent === text; }",
               f"{names} kann nicht ziehen und setzt aus")
    shot(phone, "lost-turn")
