"""End to end in real headless Chromium (Debian's, never a downloaded one) via Playwright.

Runs against ``companion demo`` started as a subprocess on a free port, as a newcomer would
run it: the page at phone size, a tile turned by the replay appearing live, the camera view,
the QR code, PIN login, a new game from the phone and Next advancing the turn, the history
replay. The tests run in file order: the phone takes the table over (which stops the demo's
replay) only after the replay tests. Screenshots go to artifacts/ (git-ignored).
"""

from __future__ import annotations

import io
import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web_support import Site, launch, start_demo

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 360, "height": 740}
TABLET = {"width": 1024, "height": 768}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with start_demo(tmp_path_factory.mktemp("demo"), speed=3.0) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale="de-DE",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def wait_until(page: Any, expression: str, arg: Any = None, timeout_s: float = 20.0) -> None:
    """Poll ``expression`` (a JS function of ``arg``) in the page until it is true.

    Playwright's wait_for_function evaluates strings, which the page's CSP (script-src 'self')
    rightly forbids; page.evaluate goes through the debugging protocol instead.
    """
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout_s
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except PlaywrightError:
            pass  # the page is between two documents (a link was followed): look again
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(100)


def face_up(page: Any) -> int:
    n: int = page.evaluate("document.querySelectorAll('.mb-tile:not(.hidden)').length")
    return n


def api_state(site: Site) -> dict[str, Any]:
    with urllib.request.urlopen(site.url + "api/state", timeout=10) as r:
        data: dict[str, Any] = json.load(r)
    return data


def login(page: Any, site: Site, next_path: str = "/") -> None:
    page.goto(site.url + "login?next=" + next_path)
    page.fill("#pin", site.pin)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(site.url.rstrip("/") + next_path)


def test_phone_page_shows_the_board_live(site: Site, phone: Any) -> None:
    phone.goto(site.url)
    phone.wait_for_selector(".mb-board")
    assert phone.locator(".mb-tile").count() == 36
    # live over server-sent events, not polling
    phone.wait_for_selector("#live[data-state=on]")
    # usable at 360 px: nothing wider than the screen
    width = phone.evaluate("document.scrollingElement.scrollWidth")
    assert width <= PHONE["width"]
    board = phone.locator(".mb-wrap").bounding_box()
    assert board["width"] >= 300  # the board fills the phone's width
    assert phone.locator("#banner strong").inner_text().strip()
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-table.png"), full_page=True)


def board_in_page(page: Any) -> list[str | None]:
    shown: list[str | None] = page.evaluate(
        "() => Array.from(document.querySelectorAll('.mb-tile')).map(t => "
        "t.classList.contains('hidden') ? null : (t.classList.contains('victim') ? 'X' : "
        "t.textContent.trim()))"
    )
    return shown


def test_a_tile_turned_in_the_replay_appears(site: Site, phone: Any) -> None:
    phone.goto(site.url)
    phone.wait_for_selector("#live[data-state=on]")
    before = face_up(phone)
    # the demo's camera replay turns the next tile; the page shows it without a reload
    wait_until(phone, "n => document.querySelectorAll('.mb-tile:not(.hidden)').length > n", before,
               timeout_s=60)
    # and the page shows exactly the board the runtime reports (polled: the demo plays on)
    deadline = time.monotonic() + 20
    while True:
        cells = api_state(site)["view"]["cells"]
        if board_in_page(phone) == [cells[r][c] for r in range(6) for c in range(6)]:
            break
        assert time.monotonic() < deadline, "the page never matched the runtime's board"
        phone.wait_for_timeout(100)
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-replay.png"), full_page=True)


def test_camera_view_after_login_stops_when_hidden(site: Site, phone: Any) -> None:
    phone.goto(site.url + "camera")
    assert phone.locator("#camera").count() == 0  # behind the login
    login(phone, site, "/camera")
    wait_until(phone, "() => document.querySelector('#camera').naturalWidth > 0")
    phone.evaluate(
        "Object.defineProperty(document, 'hidden', {value: true, configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    # the stream is dropped with its element (no data: address, which the CSP refuses)
    assert phone.evaluate("document.querySelector('#camera').getAttribute('src')") is None
    assert phone.locator("#camera-note").is_visible()
    assert not phone.locator("#camera").is_visible()


def test_qr_code_on_the_page_reads_back_as_the_address(site: Site, phone: Any) -> None:
    cv2 = pytest.importorskip("cv2")
    import numpy as np

    phone.goto(site.url)
    qr = phone.locator("#qr")
    qr.scroll_into_view_if_needed()
    wait_until(phone, "() => document.querySelector('#qr').naturalWidth > 0")
    wait_until(phone, "() => document.querySelector('#share-url').textContent.length > 0")
    png = qr.screenshot()
    image = cv2.imdecode(np.frombuffer(io.BytesIO(png).getvalue(), np.uint8), cv2.IMREAD_GRAYSCALE)
    image = cv2.copyMakeBorder(image, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=255)
    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    shown = phone.locator("#share-url").inner_text()
    assert text and text == shown
    assert text.startswith("http://") and text.endswith(":%d/" % site.port)


def test_language_switch(site: Site, phone: Any) -> None:
    phone.goto(site.url)
    assert phone.evaluate("document.documentElement.lang") == "de"
    phone.locator("#lang-switch").click()
    wait_until(phone, "() => document.documentElement.lang === 'en'")
    assert "Table" in phone.locator(".tabs").inner_text()


def test_tablet_layout_has_two_columns(site: Site, browser: Any) -> None:
    context = browser.new_context(viewport=TABLET, locale="en-GB")
    page = context.new_page()
    try:
        page.goto(site.url)
        page.wait_for_selector(".mb-board")
        stage = page.locator(".stage").bounding_box()
        side = page.locator(".side").bounding_box()
        assert side["x"] > stage["x"] + stage["width"] - 1  # side panel beside the board
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "tablet-table.png"))
    finally:
        context.close()


def test_wrong_pin_is_refused_in_the_page(site: Site, phone: Any) -> None:
    phone.goto(site.url + "login")
    phone.fill("#pin", "0")
    phone.click("#login-form button[type=submit]")
    assert phone.locator("#login-error").is_visible()
    lang = phone.evaluate("() => document.documentElement.lang")
    assert phone.locator("#login-error").inner_text() == {"de": "Falsche PIN", "en": "Wrong PIN"}[lang]
    phone.goto(site.url)
    assert phone.locator("#btn-next").count() == 0


def test_wrong_pin_is_said_in_german_on_a_german_phone(site: Site, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE",
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(site.url + "login")
        page.fill("#pin", "0")
        page.click("#login-form button[type=submit]")
        assert page.locator("#login-error").inner_text() == "Falsche PIN"
        assert page.locator("#login-error").get_attribute("data-code") == "pin_wrong"
    finally:
        context.close()


def start_game_from_the_form(phone: Any) -> None:
    """Ana, Ben and Cem, Ben first, through the page's new-game form."""
    if not phone.locator("#new-game").evaluate("e => e.open"):
        phone.locator("#new-game summary").click()
    # the page fills the names in from the form's toggle event, which comes after the click:
    # edit them only once it has, or its names land after the test's (a fourth, empty seat)
    wait_until(phone, "() => document.querySelectorAll('#player-names input').length > 0")
    names = phone.locator("#player-names input")
    while names.count() > 2:
        names.nth(names.count() - 1).evaluate("e => e.remove()")
    names.nth(0).fill("Ana")
    names.nth(1).fill("Ben")
    phone.locator("#add-player").click()
    names.nth(2).fill("Cem")
    phone.select_option("#first-player", "1")
    # The form closes once the table took the game. If the server answered with an error (a
    # table thread too busy to answer within its timeout on a loaded machine), the page says so
    # in a toast and keeps the form; a person presses Start again, and so does this, once.
    said = ""
    for _ in range(2):
        phone.locator("#new-game-form button[type=submit]").click()
        wait_until(phone, "() => !document.querySelector('#new-game').open"
                          " || !!document.querySelector('#toast.toast-error:not([hidden])')"
                          " || !!document.querySelector('#toast.toast-warn:not([hidden])')")
        if not phone.locator("#new-game").evaluate("e => e.open"):
            return
        said = phone.locator("#toast").inner_text()
        phone.locator("#toast").evaluate("e => { e.hidden = true; e.className = 'toast'; }")
    raise AssertionError(f"the table refused the phone's new game twice: {said!r}")


def wait_for_state(site: Site, test: Any, timeout_s: float = 15.0) -> dict[str, Any] | None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        state = api_state(site)
        if test(state):
            return state
        time.sleep(0.1)
    return None


def test_pin_login_new_game_and_next_advance_the_turn(site: Site, phone: Any) -> None:
    login(phone, site)
    phone.wait_for_selector("#live[data-state=on]")
    # Take the table over with a new game from the phone: the demo's players sit back, its camera
    # comes off the table, and no frame of the demo's game turns a tile in the phone's.
    start_game_from_the_form(phone)
    taken = wait_for_state(site, lambda s: [p["name"] for p in s["players"]] == ["Ana", "Ben", "Cem"]
                           and s["camera"]["status"] == "none")
    assert taken is not None, f"the demo never handed the table over: {api_state(site)}"
    assert taken["events"] == 0 and taken["prompt"] is None
    # the demo's director gets a second to race the phone (a round, a late frame): the table
    # stays the phone's all through it, looked at every 0.1 s, not only once at its end
    watched_until = time.monotonic() + 1.0
    while True:
        kept = api_state(site)
        assert kept["game_id"] == taken["game_id"] and kept["events"] == 0, kept
        if time.monotonic() >= watched_until:
            break
        time.sleep(0.1)
    assert taken["view"]["turn"] == 1
    wait_until(phone, "() => document.querySelector('.cam').classList.contains('cam-none')")
    assert face_up(phone) == 0
    # Next before turning a tile is refused by the rules, and the page says so
    phone.wait_for_selector("#btn-next")
    assert phone.locator("#btn-next").is_disabled()
    # tap a face-down tile and say which letter it shows (the table is the phone's now)
    phone.locator(".mb-tile.hidden").nth(7).click()
    phone.locator("#sheet .pick[data-tile='R']").click()
    wait_until(phone, "() => !document.querySelector('#btn-next').disabled")
    assert board_in_page(phone)[7] == "R"
    phone.locator("#btn-next").click()
    wait_until(phone, "() => document.querySelector('.player.on-turn .name').textContent === 'Cem'")
    after = api_state(site)["view"]
    assert after["turn"] == 2 and after["turn_number"] == 2
    assert "Cem" in phone.locator("#banner strong").inner_text()
    assert phone.locator("#tap-hint").is_visible()  # Mörder's tiles can be tapped
    # the advisor follows the switch in Settings (the demo shows it off; a table starts without)
    phone.locator("#settings summary").click()
    toggle = phone.locator("#advisor-toggle")
    if toggle.is_checked():
        toggle.click()
        wait_until(phone, "() => document.querySelector('#advisor-card').hidden")
    assert api_state(site)["advisor"]["enabled"] is False
    toggle.click()
    wait_until(phone, "() => !!document.querySelector('#p-end')")
    advisor = api_state(site)["advisor"]
    assert advisor["enabled"] is True
    shown = phone.locator("#p-end").inner_text()
    assert shown.split(" %")[0].isdigit() and 0 <= int(shown.split(" %")[0]) <= 100
    ARTIFACTS.mkdir(exist_ok=True)
    phone.evaluate("window.scrollTo(0, 0)")
    phone.screenshot(path=str(ARTIFACTS / "phone-control.png"), full_page=True)


def test_history_replays_a_game_step_by_step(site: Site, phone: Any) -> None:
    with urllib.request.urlopen(site.url + "api/history", timeout=10) as r:
        games = json.load(r)["games"]
    game = next(g for g in games if g["events"] >= 2)
    phone.goto(site.url + "history")
    phone.locator(f".game-item a[href='/history/{game['id']}']").click()
    phone.wait_for_selector(".mb-board")
    slider = phone.locator("#step")
    wait_until(phone, "() => document.querySelector('#step').max !== '0'")
    last = int(slider.get_attribute("max"))
    assert last >= game["events"]  # a game in play may have moved on
    wait_until(phone, "() => document.querySelector('#step').value === document.querySelector('#step').max")
    at_end = face_up(phone)
    phone.locator("#step-prev").click()
    assert slider.input_value() == str(last - 1)
    slider.fill("0")
    assert face_up(phone) == 0 and at_end >= 1
    assert phone.locator("#export").get_attribute("href") == f"/api/export/{game['id']}"
    assert phone.locator("#chart-card").is_visible()  # Mörder has an advisor: its chart shows
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "phone-history.png"), full_page=True)
