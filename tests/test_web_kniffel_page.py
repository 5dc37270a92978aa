"""Wort-Kniffel's phone page in real headless Chromium (390x844) against the real table, the
real German word list and the real web app: a throw typed, a die corrected, a refused entry
worded in the page's language, an entry, a strike, undo, the advisor's best entries, and the
hourglass running out. Screenshots go to artifacts/ (git-ignored)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardpages_support import Site, get, login, post, shot, start_site, wait_until
from kniffel_support import german_lexicon
from web_support import launch
from companion.games.kniffel.dice import DEFAULT_DICE, Roll

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TOREICH = "T O R E I C H"


@contextlib.contextmanager
def kniffel_site(tmp: Path, hourglass_s: int) -> Iterator[Site]:
    german_lexicon()  # skips without the word list
    with start_site(tmp) as site:
        status, body = post(site.url, site.pin, {"action": "new_game", "game": "kniffel", "setup": {
            "players": ["Ana", "Ben"], "hourglass_s": hourglass_s}})
        assert status == 200, body
        yield site


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def phone(browser: Any, locale: str) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, locale=locale,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    # a refused entry is a 409 by design; any other console error is a defect
    page.on("console", lambda m: errors.append(m.text)
            if m.type == "error" and "status of 409" not in m.text else None)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


@pytest.fixture()
def german(browser: Any) -> Iterator[Any]:
    yield from phone(browser, "de-DE")


@pytest.fixture()
def english(browser: Any) -> Iterator[Any]:
    yield from phone(browser, "en-GB")


def dice_shown(page: Any) -> list[str]:
    result: list[str] = page.evaluate(
        "() => Array.from(document.querySelectorAll('#kn-dice .kn-die')).map(d => d.dataset.letter)")
    return result


def pad_cell(page: Any, player: int, box: str) -> str:
    text: str = page.locator(f"#kn-pad td[data-player='{player}'][data-box='{box}'] b").inner_text()
    return text


def throwable_instead_of_h() -> str:
    """A letter the default set can show in place of TOREICH's H (so the fix is accepted)."""
    for letter in "ABDEFGKLMNSU":
        if DEFAULT_DICE.assign(Roll.parse(f"T O R E I C {letter}", DEFAULT_DICE)) is not None:
            return letter
    raise AssertionError("no other letter fits")


def test_a_turn_on_the_phone_in_german(browser: Any, german: Any, tmp_path: Path) -> None:
    with kniffel_site(tmp_path, hourglass_s=600) as site:
        login(german, site.url, site.pin)
        german.wait_for_selector("#kn-pad")
        assert german.locator("#kn-pad thead th").all_inner_texts()[1:] == ["Ana", "Ben"]
        assert "Ana ist dran" in german.locator("#banner strong").inner_text()
        assert german.locator("#kn-buttons").inner_text().startswith("Tasten:")

        # a throw typed on the phone (a table without a camera)
        german.fill("#kn-throw-input", TOREICH)
        german.click("#kn-send-throw")
        wait_until(german, "() => document.querySelectorAll('#kn-dice .kn-die').length === 7")
        assert dice_shown(german) == list("TOREICH")
        assert german.locator("#kn-dice .kn-die").first.locator(".kn-value").inner_text() == "2"
        assert german.locator("#kn-throws-left").inner_text() == "noch 2 Würfe"
        wait_until(german, "() => document.querySelector('#kn-hourglass, .kn-hourglass') &&"
                   " !document.querySelector('.kn-hourglass').classList.contains('idle')")

        # a die corrected by tapping it; the same throw, not a new one
        other = throwable_instead_of_h()
        german.locator("#kn-dice .kn-die[data-die='6']").click()
        german.click(f"#sheet .kn-pick[data-letter='{other}']")
        wait_until(german, "(l) => document.querySelector(\"#kn-dice .kn-die[data-die='6']\")"
                   ".dataset.letter === l", other)
        assert get(site.url, "api/state")["view"]["rolls"] == 1
        german.locator("#kn-dice .kn-die[data-die='6']").click()
        german.click("#sheet .kn-pick[data-letter='H']")
        wait_until(german, "() => document.querySelector(\"#kn-dice .kn-die[data-die='6']\")"
                   ".dataset.letter === 'H'")

        # refused: a word the list does not know, said in German, nothing written
        german.select_option("#kn-box", "pair_of_words")
        german.fill("#kn-words", "XQZ, EI")
        german.click("#kn-enter")
        german.wait_for_selector("#kn-error:not([hidden])")
        assert german.locator("#kn-error").inner_text() == (
            "Nicht angenommen: XQZ steht nicht in der Wortliste")
        assert pad_cell(german, 0, "pair_of_words") == "·"
        shot(german, "kniffel-refused.png")

        # entered with good words: the pad shows the points and the words
        german.fill("#kn-words", "TOR, EI")
        german.click("#kn-enter")
        wait_until(german, "() => document.querySelector(\"#kn-pad td[data-player='0']"
                   "[data-box='pair_of_words'] b\").textContent === '9'")
        assert "Ben ist dran" in german.locator("#banner strong").inner_text()
        assert german.locator("#kn-chart g.series").count() == 2

        # Ben strikes a box, then takes it back
        german.fill("#kn-throw-input", "I C H E S A N")
        german.click("#kn-send-throw")
        wait_until(german, "() => document.querySelectorAll('#kn-dice .kn-die').length === 7")
        german.select_option("#kn-box", "six")
        german.click("#kn-strike")
        wait_until(german, "() => document.querySelector(\"#kn-pad td[data-player='1']"
                   "[data-box='six']\").classList.contains('struck')")
        german.click("#btn-undo")
        wait_until(german, "() => document.querySelector(\"#kn-pad td[data-player='1']"
                   "[data-box='six']\").classList.contains('open')")
        assert get(site.url, "api/state")["view"]["players"][1]["boxes"]["six"] is None

        # the advisor: the best entry of every open box for Ben's throw, and what to keep
        german.click("#settings summary")
        german.check("#advisor-toggle")
        german.wait_for_selector("#kn-best li")
        boxes = german.evaluate(
            "() => Array.from(document.querySelectorAll('#kn-best li')).map(l => l.dataset.box)")
        assert "chance" in boxes and "six" in boxes
        german.wait_for_selector("#kn-keep")
        shot(german, "kniffel-phone.png")


def test_the_hourglass_runs_out_in_english(browser: Any, english: Any, tmp_path: Path) -> None:
    with kniffel_site(tmp_path, hourglass_s=2) as site:
        login(english, site.url, site.pin)
        english.wait_for_selector("#btn-hourglass")
        english.click("#btn-hourglass")  # turned by hand before the first throw
        english.wait_for_selector("#kn-timeup", timeout=20_000)
        assert english.locator("#kn-timeup").inner_text().startswith("The sand ran out")
        assert english.locator("#kn-words").count() == 0  # only a zero is left
        english.select_option("#kn-box", "kniffel")
        english.click("#kn-strike")
        wait_until(english, "() => document.querySelector(\"#kn-pad td[data-player='0']"
                   "[data-box='kniffel']\").classList.contains('struck')")
        assert "Ben's turn" in english.locator("#banner strong").inner_text()
        assert get(site.url, "api/state")["view"]["time_up"] is False


def test_the_camera_asks_about_an_unsure_die(browser: Any, english: Any, tmp_path: Path) -> None:
    from companion.games.readings import DiceReading, DieSeen

    with kniffel_site(tmp_path, hourglass_s=600) as site:
        login(english, site.url, site.pin)
        english.wait_for_selector("#kn-pad")
        seen = DiceReading(tuple(DieSeen(ch, None, (100.0 + 150 * i, 300.0), 80.0)
                                 for i, ch in enumerate("TOREIC?")))
        for _ in range(3):
            site.table.post_reading(seen)
        english.wait_for_selector("#kn-question")
        assert english.locator("#kn-answer").is_disabled()  # a ? is left
        english.locator("#kn-question .kn-die[data-die='6']").click()
        english.click("#sheet .kn-pick[data-letter='H']")
        english.click("#kn-answer:not([disabled])")
        wait_until(english, "() => !document.querySelector('#kn-question') &&"
                   " document.querySelectorAll('#kn-dice .kn-die').length === 7")
        assert dice_shown(english) == list("TOREICH")
        assert get(site.url, "api/state")["view"]["roll"] == "T2 O3 R2 E1 I1 C4 H3"


def test_the_pad_is_held_against_the_record_and_a_written_number_taken_in_german(
        browser: Any, german: Any, tmp_path: Path) -> None:
    from companion.games.readings import DiceReading, PadBoxSeen, PadColumnSeen, PadSeen

    with kniffel_site(tmp_path, hourglass_s=600) as site:
        login(german, site.url, site.pin)
        german.wait_for_selector("#kn-pad")
        for action in ({"action": "throw", "dice": TOREICH},
                       {"action": "enter", "box": "pair_of_words", "words": ["TOR", "EI"]},
                       {"action": "throw", "dice": "I C H E S A N"}):
            status, body = post(site.url, site.pin, action)
            assert status == 200, body
        # the camera sees the pad: Ana wrote 14 where 9 is recorded, Ben wrote 8 (I C H) in
        # his open Dreier-Wörter after his throw
        pad = PadSeen(2, 1, (PadColumnSeen(0, 0, {"pair_of_words": PadBoxSeen(14)}),
                             PadColumnSeen(1, 0, {"three": PadBoxSeen(8)})))
        for _ in range(3):
            site.table.post_reading(DiceReading((), pad=pad))
        german.wait_for_selector("#kn-padcheck")
        assert german.locator("#kn-padcheck h2").first.text_content() == (
            "Block und Eintrag stimmen nicht überein")
        assert german.locator("#kn-padcheck li").all_inner_texts() == [
            "Ana, Wort-Zweier: 14 auf dem Block, eingetragen ist 9."]
        assert german.locator(".kn-pad-offer").inner_text() == (
            "Für Ben 8 in „Dreier-Wörter“ eintragen?")
        assert pad_cell(german, 1, "three") == "·"  # nothing taken without the phone
        shot(german, "kniffel-padcheck.png")

        german.click("#kn-pad-take")
        wait_until(german, "() => document.querySelector(\"#kn-pad td[data-player='1']"
                   "[data-box='three'] b\").textContent === '8'")
        state = get(site.url, "api/state")
        assert state["view"]["players"][1]["boxes"]["three"] == 8
        assert state["view"]["players"][0]["boxes"]["pair_of_words"] == 9  # never overridden
        assert german.locator(".kn-pad-offer").count() == 0  # taken: no longer offered
        assert "Ana ist dran" in german.locator("#banner strong").inner_text()
