"""Shared by the card games' page tests: a served table, a phone in real headless Chromium,
logging in, driving the API with the PIN, and waiting on the page without string-eval
(the page's CSP forbids it; page.evaluate goes through the debugging protocol)."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any


ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 360, "height": 740}


def phone_page(browser: Any, locale: str = "en-GB") -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def post(url: str, pin: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        url + "api/action", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "X-Companion-Pin": pin})
    try:
        with urllib.request.urlopen(request, timeout=15) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def get(url: str, path: str) -> Any:
    with urllib.request.urlopen(url + path, timeout=15) as r:
        return json.load(r)


def login(page: Any, url: str, pin: str, next_path: str = "/") -> None:
    page.goto(url + "login?next=" + next_path)
    page.fill("#pin", pin)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(url.rstrip("/") + next_path)


def wait_until(page: Any, expression: str, arg: Any = None, timeout_s: float = 20.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(100)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


# --- the table on real parts, for the buttons, LEDs and buzzer ---------------------------------


def panel_config(tmp: Path, players: tuple[str, ...]) -> Any:
    from companion import config as config_mod

    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp / "log.sqlite"), players=list(players),
                      advisor=False, reminder_s=0.0)
    return cfg.replace("hardware", long_press_s=0.2, double_press_s=0.1, bounce_s=0.0)


def press(factory: Any, gpio: int, seconds: float = 0.03) -> None:
    """A real press on a MockFactory pin: low (pressed, pull-up), then high again.

    ``seconds`` is how long the button is held (MockPin calls the panel back at once, in this
    thread): the press's length, not a wait for the table.
    """
    pin = factory.pin(gpio)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def until(rt: Any, check: Any, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap: dict[str, Any] = rt.snapshot()
        if check(snap):
            return snap
        time.sleep(0.01)
    raise AssertionError(f"condition not reached: {rt.snapshot()['view']}")


def settle(rt: Any, timeout: float = 5.0) -> None:
    """Let a press that should mean nothing be handled: once the panel has reported it (a short
    press waits out the double-press window), the table catches up with what was queued."""
    assert rt.panel.wait_presses(timeout), "the panel never reported the presses"
    rt.drain()


def lit(factory: Any, rt: Any, n: int) -> list[bool]:
    return [bool(factory.pin(p).state) for p in rt.pins.leds[:n]]


def ons_since(factory: Any, gpio: int, mark: int) -> int:
    """How often the pin was switched on since ``mark`` (len of its states then)."""
    return sum(1 for s in factory.pin(gpio).states[mark:] if s.state)


def marks(factory: Any, rt: Any) -> dict[int, int]:
    pins = list(rt.pins.leds) + ([rt.pins.buzzer] if rt.pins.buzzer is not None else [])
    return {p: len(factory.pin(p).states) for p in pins}


def buzzer(rt: Any) -> int:
    gpio = rt.pins.buzzer
    assert gpio is not None, "these tests need a buzzer pin"
    return int(gpio)


# --- a served table ------------------------------------------------------------------------------


class Site:
    """The dashboard served on a free port over a real Table (temp SQLite, MockFactory)."""

    def __init__(self, url: str, pin: str, table: Any) -> None:
        self.url = url
        self.pin = pin
        self.table = table


@contextlib.contextmanager
def start_site(tmp: Path) -> Iterator[Site]:
    import web
    from web_support import PIN, make_table

    with make_table(tmp, players=("Ana", "Ben", "Cem")) as table:
        app = web.create_app(table, table.config.section("web"))
        with web.Server(app, host="127.0.0.1", port=0) as server:
            yield Site(f"http://127.0.0.1:{server.port}/", PIN, table)


@contextlib.contextmanager
def start_game_site(tmp: Path, game: str, players: list[str]) -> Iterator[Site]:
    """A served table on which ``game`` has been started for ``players`` (through the API)."""
    with start_site(tmp) as site:
        status, body = post(site.url, site.pin, {"action": "new_game", "game": game,
                                                 "setup": {"players": players}})
        assert status == 200, body
        yield site
