"""Finde den Mörder's end on the phone, in real headless Chromium against the real runtime:
when nobody claims a chain that stands at the end, the quitter wins, and the banner says why
(in English and German), since the phone also draws the chain nobody claimed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardpages_support import Site, get, phone_page, post, start_game_site, wait_until
from web_support import launch
from companion.games.moerder import GAME
from companion.games.moerder.board import CELLS, Board, index_cell
from companion.games.moerder.events import Next, Quit, TurnTile
from web.i18n import LABELS

pytestmark = pytest.mark.browser

# a chain on the top row; the rest of the set below it, the victim in the last corner
TOP_CHAIN = Board.parse("MÖRDER/MMMMMM/ÖÖÖÖÖÖ/RRRRRD/DDDDDE/EEEEEX")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with start_game_site(tmp_path_factory.mktemp("moerder"), "moerder", ["Ana", "Ben"]) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _send(site: Site, event: Any) -> None:
    status, body = post(site.url, site.pin, {"action": "event", "event": GAME.encode(event)})
    assert status == 200, (event, body)


def test_the_quitter_wins_over_a_chain_nobody_claimed(site: Site, browser: Any) -> None:
    _send(site, Quit(0))  # Ana bets there is no MÖRDER; Ben plays on alone and never claims
    for i in range(CELLS):
        cell = index_cell(i)
        tile = TOP_CHAIN[cell]
        assert tile is not None
        _send(site, TurnTile(cell, tile))
        _send(site, Next())
    view = get(site.url, "api/state")["view"]
    assert view["phase"] == "over" and view["winner"] == 0 and view["win_reason"] == "quitter"
    assert view["unclaimed_chain"]
    for locale, lang in (("en-GB", "en"), ("de-DE", "de")):
        for page in phone_page(browser, locale):
            page.goto(site.url)
            wait_until(page, "() => !!document.querySelector('.mb-chain.unclaimed')")
            banner = page.locator("#banner").inner_text()
            assert "Ana" in banner and LABELS[lang]["reason.quit_unclaimed"] in banner
            assert LABELS[lang]["chain.unclaimed"] not in banner  # said once, with the reason


def test_the_reading_is_written_in_the_game_page() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "moerder.md").read_text("utf-8")
    doc = " ".join(text.split())
    assert "**the quitter wins** — also when a chain stands on the table that nobody saw" in doc
    for lang in ("en", "de"):  # the page quotes the phone's words
        assert LABELS[lang]["reason.quit_unclaimed"] in doc
