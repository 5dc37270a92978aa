"""Serial Killer's phone page in real headless Chromium against the real runtime and web app.

Cards are entered by rank and suit taps, graves and clue counters change as the engine says,
only the choices the engine allows are offered, a card the engine refuses shows its reason,
a finished game shows its winner and arrests, and the history replays it with the same page.
Screenshots go to artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardpages_support import Site, get, login, phone_page, post, shot, start_game_site, wait_until
from web_support import launch
from companion.games.base import Refused, fold
from companion.games.serialkiller import GAME

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cem"]
EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "serialkiller-game.json"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with start_game_site(tmp_path_factory.mktemp("serialkiller"), "serialkiller", PLAYERS) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    yield from phone_page(browser)


def view(site: Site) -> dict[str, Any]:
    result: dict[str, Any] = get(site.url, "api/state")["view"]
    return result


def enter(page: Any, site: Site, card: str) -> None:
    """Tap rank then suit, and wait until the table took the card (or refused it)."""
    before = get(site.url, "api/state")["version"]
    page.click(f".sk-rank[data-rank='{card[:-1]}']")
    page.click(f".sk-suit[data-suit='{card[-1]}']")
    wait_until(page, "(v) => fetch('/api/state').then(r => r.json()).then(s => s.version > v)", before)
    page.wait_for_timeout(150)


def grave_cards(page: Any) -> list[list[str]]:
    result: list[list[str]] = page.evaluate(
        "() => Array.from(document.querySelectorAll('#sk-graves .sk-grave')).map(g =>"
        " Array.from(g.querySelectorAll('.sk-card')).map(c => c.dataset.card))")
    return result


def grave_open(page: Any) -> list[bool]:
    result: list[bool] = page.evaluate(
        "() => Array.from(document.querySelectorAll('#sk-graves .sk-grave')).map(g => g.classList.contains('open'))")
    return result


def clues(page: Any) -> dict[str, int]:
    result: dict[str, str] = page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('.sk-killer')).map(k =>"
        " [k.dataset.player, k.querySelectorAll('.sk-clues i.on').length]))")
    return {k: int(v) for k, v in result.items()}


def moves(page: Any) -> set[str]:
    return set(page.evaluate("() => Array.from(document.querySelectorAll('[data-move]')).map(b => b.dataset.move)"))


def offered_as_legal(page: Any, site: Site) -> None:
    legal = set(view(site)["legal"]) - {"draw", "first_draw"}
    assert moves(page) == legal


def test_drawing_for_first_then_graves_and_clues_follow_the_draws(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#sk-entry")
    assert phone.locator(".sk-chip[data-drawer]").all_inner_texts() == PLAYERS
    for who, card in (("Ana", "KH"), ("Ben", "5S"), ("Cem", "2C")):
        assert phone.locator(".sk-chip.on").inner_text() == who  # the next to draw is chosen
        enter(phone, site, card)
    v = view(site)
    assert v["phase"] == "drawing" and v["current"] == "Ana" and v["turn"] == 0
    shown = phone.evaluate("() => Array.from(document.querySelectorAll('#sk-first .sk-first-draw')).map(d =>"
                           " [d.dataset.player, d.querySelector('.sk-card').dataset.card])")
    assert shown == [[d["player"], d["card"]] for d in v["first_player_draws"][0]]
    assert "Ana" in phone.locator("#banner strong").inner_text()
    assert phone.locator("#players li.on-turn .name").inner_text() == "Ana"

    # Ana draws six: a number card, a King (a kill: the grave closes), a Jack (a corpse)
    enter(phone, site, "2S")
    enter(phone, site, "KS")
    assert grave_cards(phone)[:2] == [["2S"], ["KS"]]
    assert grave_open(phone)[:2] == [True, False]
    enter(phone, site, "JD")
    assert view(site)["phase"] == "deciding"
    assert phone.locator(".sk-pending .sk-card").get_attribute("data-card") == "JD"
    offered_as_legal(phone, site)
    assert moves(phone) == {"hold", "bury"}  # no informant: nothing to inform or discredit with
    shot(phone, "serialkiller-deciding.png")
    phone.click("#sk-bury")
    wait_until(phone, "() => document.querySelectorAll('#sk-graves .sk-grave')[2].querySelector('.sk-card')")
    for card in ("3S", "4S", "5D"):
        enter(phone, site, card)
    assert grave_cards(phone) == [["2S"], ["KS"], ["JD"], ["3S"], ["4S"], ["5D"]]
    assert grave_open(phone) == [True, False, False, True, True, True]
    offered_as_legal(phone, site)
    assert moves(phone) == {"end_turn"}
    phone.click("#sk-end_turn")
    wait_until(phone, "() => document.querySelector('#players li.on-turn .name').textContent === 'Ben'")
    assert clues(phone) == {"Ana": 6, "Ben": 6, "Cem": 6}  # Ana killed: no clue found

    # Ben draws for the four open graves, kills nobody: the police find a clue on him as his
    # turn ends, after any held informant could have been played
    assert view(site)["draws_left"] == 4
    for card in ("6S", "7S", "8S", "9S"):
        enter(phone, site, card)
    assert clues(phone) == {"Ana": 6, "Ben": 6, "Cem": 6}
    assert "clue" in phone.locator("#banner").inner_text()  # the phone says the clue is due
    phone.click("#sk-end_turn")
    wait_until(phone, "() => document.querySelector('#players li.on-turn .name').textContent === 'Cem'")
    assert clues(phone) == {"Ana": 6, "Ben": 5, "Cem": 6}
    assert phone.locator(".sk-killer[data-player='Ben'] .sk-police").inner_text().endswith("1")

    # Cem draws an Ace: an informant (a victim lies in grave 2); Cem has all six clues, so
    # discrediting is not offered, informing is; he informs on Ana
    enter(phone, site, "AH")
    offered_as_legal(phone, site)
    assert moves(phone) == {"hold", "inform"}
    phone.click("#sk-inform")
    assert phone.locator("#sk-targets .sk-chip").all_inner_texts() == ["Ana", "Ben"]
    phone.click("#sk-targets [data-target='Ana']")
    wait_until(phone, "() => document.querySelector(\".sk-killer[data-player='Ana']\").dataset.clues === '5'")
    assert "AH" in grave_cards(phone)[1]  # the informant lies on the victim
    shot(phone, "serialkiller-play.png")


def test_a_refused_card_shows_the_engines_reason(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#sk-entry")
    snap = get(site.url, "api/state")
    # the engine's own answer to this card on the logged game
    assert site.table is not None
    events = [GAME.decode(e.body) for e in site.table.store.events(snap["game_id"])]
    timeline = fold(GAME, {"players": PLAYERS}, events)
    with pytest.raises(Refused) as refused:
        GAME.apply(timeline.state, GAME.decode({"type": "draw", "card": "2S"}))
    assert phone.locator(".sk-rank[data-rank='2']").count() == 1
    phone.click(".sk-rank[data-rank='2']")
    assert "out" in (phone.locator(".sk-suit[data-suit='S']").get_attribute("class") or "")  # dimmed
    phone.click(".sk-suit[data-suit='S']")
    phone.wait_for_selector("#sk-error")
    # the engine's sentence, worded on the page from its code, the card with its suit symbol
    assert refused.value.reason.replace("2S", "2♠") in phone.locator("#sk-error").inner_text()
    assert get(site.url, "api/state")["events"] == snap["events"]  # nothing was logged
    shot(phone, "serialkiller-refused.png")
    # the same refusal on a German phone: German words, the card as 2♠
    for page in phone_page(phone.context.browser, locale="de-DE"):
        page.set_viewport_size({"width": 390, "height": 844})
        login(page, site.url, site.pin)
        page.wait_for_selector("#sk-entry")
        page.click(".sk-rank[data-rank='2']")
        page.click(".sk-suit[data-suit='S']")
        page.wait_for_selector("#sk-error")
        shown = page.locator("#sk-error").inner_text()
        assert "2♠ kann nicht gezogen werden" in shown and "2S" not in shown, shown
        assert "cannot" not in shown
        shot(page, "serialkiller-refused-de.png")
    enter(phone, site, "10C")  # a good card clears the message
    assert phone.locator("#sk-error").count() == 0


def test_new_game_form_names_the_first_player(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.click("#new-game summary")
    # the table's players, prefilled
    wait_until(phone, "() => document.querySelectorAll('#player-names input').length === 3")
    phone.select_option("#game-select", "serialkiller")
    names = phone.locator("#player-names input")
    for i, name in enumerate(("Ida", "Jon", "Kai")):
        names.nth(i).fill(name)
    phone.select_option("#sk-first", "1")
    phone.click("#new-game-form button[type=submit]")
    wait_until(phone, "() => fetch('/api/state').then(r => r.json()).then(s => s.view.current === 'Jon')")
    v = view(site)
    assert [p["name"] for p in v["players"]] == ["Ida", "Jon", "Kai"] and v["phase"] == "drawing"
    phone.wait_for_selector("#sk-entry")
    assert "Jon" in phone.locator("#banner strong").inner_text()


def test_a_finished_game_shows_winner_arrests_and_replays(site: Site, phone: Any) -> None:
    log = json.loads(EXAMPLE.read_text())
    status, body = post(site.url, site.pin, {"action": "new_game", "game": "serialkiller",
                                             "setup": log["setup"]})
    assert status == 200, body
    for event in log["events"]:
        status, body = post(site.url, site.pin, {"action": "event", "event": event})
        assert status == 200, (event, body)
    final = view(site)
    assert final["phase"] == "over"
    login(phone, site.url, site.pin)
    phone.wait_for_selector(".sk-killer.winner")
    winner = final["winner_name"]
    assert phone.locator(".sk-killer.winner strong").inner_text() == winner
    assert sorted(phone.locator(".sk-killer.arrested").evaluate_all("ks => ks.map(k => k.dataset.player)")) \
        == sorted(final["arrests"])
    assert winner in phone.locator("#banner strong").inner_text()
    assert phone.locator("#sk-entry").count() == 0 and phone.locator("[data-move]").count() == 0
    shot(phone, "serialkiller-over.png")
    # the history replays it with the same page, step by step
    game_id = get(site.url, "api/state")["game_id"]
    assert [g for g in get(site.url, "api/history")["games"] if g["id"] == game_id][0]["winner"] == winner
    phone.goto(site.url + f"history/{game_id}")
    phone.wait_for_selector("#sk-graves")
    assert phone.locator(".sk-killer.winner strong").inner_text() == winner
    phone.locator("#step").fill("0")
    wait_until(phone, "() => document.querySelectorAll('#sk-graves .sk-card').length === 0")
    phone.locator("#step-next").click()
    wait_until(phone, "() => document.querySelector('#step-label').textContent.includes('draws')")
    shot(phone, "serialkiller-history.png")


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_label_is_translated(site: Site, browser: Any, lang: str) -> None:
    for page in phone_page(browser, locale="de-DE" if lang == "de" else "en-GB"):
        login(page, site.url, site.pin)
        page.goto(site.url + "?lang=" + lang)
        page.wait_for_selector("#sk-graves")
        text = page.locator("body").inner_text()
        assert page.evaluate("() => document.documentElement.lang") == lang
        assert not re.search(r"\bsk\.[a-z_]+", text), re.findall(r"\bsk\.[a-z_]+", text)
        page.goto(site.url + "history/" + str(get(site.url, "api/state")["game_id"]))
        page.wait_for_selector("#sk-graves")
        label = page.locator("#step-label").inner_text()
        assert label and not re.search(r"\bsk\.[a-z_]+", label)
        shot(page, f"serialkiller-{lang}.png")
