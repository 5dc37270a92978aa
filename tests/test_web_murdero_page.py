"""Murdero's phone page in real headless Chromium against the real runtime and web app.

A hand is entered by tapping cards, the page shows what the rules engine scored (each number
with its reason), the running table and the chart grow, a hand the rules refuse shows the
engine's reason, and the history replays the game with the same page. Screenshots go to
artifacts/ (git-ignored).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardpages_support import Site, get, login, phone_page, post, shot, start_game_site, wait_until
from web_support import launch
from companion.games.base import Refused
from companion.games.murdero import GAME
from companion.games.murdero.events import decode_hand
from companion.games.murdero.view import score_view
from companion.games.murdero.scoring import score_hand

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cem"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    with start_game_site(tmp_path_factory.mktemp("murdero"), "murdero", PLAYERS) as s:
        yield s


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    yield from phone_page(browser)


def tab(page: Any, name: str) -> None:
    page.click(f".mu-tab[data-player='{name}']")


def add_case(page: Any, colour: str, cards: list[int], joker: int | None = None) -> None:
    page.click(f"[data-add-case='{colour}']")
    case = page.locator(".mu-case").last
    for n in cards:
        case.locator(f"[data-add='{n}']").click()
    if joker is not None:
        case.locator(f"[data-joker='{joker}']").click()


def page_table(page: Any) -> list[list[str]]:
    """The score table as the phone shows it: per hand, each side's running total."""
    result: list[list[str]] = page.evaluate(
        "() => Array.from(document.querySelectorAll('#mu-score-table tbody tr')).map(r =>"
        " Array.from(r.querySelectorAll('td .run')).map(c => c.textContent))")
    return result


def page_reasons(page: Any, hand: int, side: str) -> list[tuple[str, str]]:
    result = page.evaluate(
        "([h, s]) => Array.from(document.querySelectorAll("
        "  `.mu-reasons[data-hand='${h}'] .mu-side[data-side='${s}'] .mu-lines li:not(.hint)`)).map(li =>"
        "  [li.querySelector('b').textContent, li.querySelector('span').textContent])", [hand, side])
    return [tuple(x) for x in result]


def chart_points(page: Any) -> dict[str, int]:
    result: dict[str, int] = page.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#mu-chart g.series')).map(g =>"
        " [g.getAttribute('data-side'), g.querySelector('polyline').getAttribute('points').trim().split(' ').length]))")
    return result


def test_entering_a_hand_by_taps_scores_it_and_draws_the_chart(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#mu-entry")
    assert phone.locator("#mu-chart").count() == 0  # no hand yet: no chart
    # Ana: a complete red case and Real Estate; Ben: a blue case, a green 3 left in hand
    tab(phone, "Ana")
    add_case(phone, "red", [1, 2, 3, 4, 5])
    phone.click("[data-permanent='real_estate']")
    tab(phone, "Ben")
    add_case(phone, "blue", [1, 1, 2])
    phone.click("[data-hold='G3']")
    phone.click("[data-ending='case']")
    shot(phone, "murdero-entry.png")
    phone.click("#mu-score")
    wait_until(phone, "() => document.querySelectorAll('#mu-score-table tbody tr').length === 1")

    snap = get(site.url, "api/state")
    assert site.table is not None
    logged = site.table.store.events(snap["game_id"])[-1].body  # what the taps sent
    hand = logged["hand"]
    by_name = {p["name"]: p for p in hand["players"]}
    assert by_name["Ana"]["cases"] == [{"colour": "red", "cards": [1, 2, 3, 4, 5], "joker": None}]
    assert by_name["Ana"]["permanents"] == ["real_estate"]
    assert by_name["Ben"]["cases"] == [{"colour": "blue", "cards": [1, 1, 2], "joker": None}]
    assert by_name["Ben"]["held"] == ["G3"] and by_name["Cem"]["cases"] == []
    assert hand["ended_by"] == "case"

    # the page shows exactly what the rules engine scores for that hand, reason by reason
    expected = score_view(score_hand(decode_hand(hand), False))
    assert page_table(phone) == [[str(next(s["points"] for s in expected["sides"] if s["label"] == n))
                                  for n in PLAYERS]]
    for side in expected["sides"]:
        shown = page_reasons(phone, 1, side["label"])
        assert shown == [(("+" if ln["points"] > 0 else "") + str(ln["points"]), ln["reason"])
                         for ln in side["lines"]]
    assert any("won the hand" in r for _, r in page_reasons(phone, 1, "Ana"))
    assert chart_points(phone) == {n: 2 for n in PLAYERS}  # the start and hand 1
    # the deal passed left: Ben begins hand 2, the banner and the player list say so
    assert "Ben" in phone.locator("#banner strong").inner_text()
    assert phone.locator("#players li.on-turn .name").inner_text() == "Ben"

    # a second hand, ended by Reverse Charges: nobody doubles
    tab(phone, "Cem")
    add_case(phone, "green", [1, 2, 3], joker=4)
    phone.click("[data-ending='reverse_charges']")
    phone.click("#mu-score")
    wait_until(phone, "() => document.querySelectorAll('#mu-score-table tbody tr').length === 2")
    view = get(site.url, "api/state")["view"]
    assert page_table(phone)[1] == [str(view["totals"][n]) for n in PLAYERS]
    assert chart_points(phone) == {n: 3 for n in PLAYERS}
    # the chart's last points sit higher for the bigger total (SVG y grows downwards)
    ys = phone.evaluate(
        "() => Object.fromEntries(Array.from(document.querySelectorAll('#mu-chart g.series')).map(g =>"
        " [g.getAttribute('data-side'), parseFloat(g.querySelector('polyline').getAttribute('points')"
        ".trim().split(' ').pop().split(',')[1])]))")
    order_by_total = sorted(PLAYERS, key=lambda n: -view["totals"][n])
    order_by_height = sorted(PLAYERS, key=lambda n: ys[n])
    assert [view["totals"][n] for n in order_by_total] == [view["totals"][n] for n in order_by_height]
    shot(phone, "murdero-scores.png")


def test_a_hand_the_rules_refuse_shows_the_engines_reason(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#mu-entry")
    before = len(get(site.url, "api/state")["view"]["hands"])
    tab(phone, "Ana")
    add_case(phone, "green", [2, 3])  # no Crime Scene: a case must start with one
    phone.click("#mu-score")
    phone.wait_for_selector("#mu-error")
    shown = phone.locator("#mu-error").inner_text()

    hand = {"players": [{"name": "Ana", "cases": [{"colour": "green", "cards": [2, 3]}]},
                        {"name": "Ben"}, {"name": "Cem"}], "ended_by": "case"}
    with pytest.raises(Refused) as refused:
        GAME.apply(GAME.new({"players": PLAYERS}), GAME.decode({"type": "hand_entered", "hand": hand}))
    assert refused.value.reason in shown
    assert len(get(site.url, "api/state")["view"]["hands"]) == before  # nothing was scored
    # the entry is kept, so the mistake can be fixed in place: a Crime Scene added, the hand
    # ended by Overtime (nobody completed a case), it scores
    assert phone.locator(".mu-case[data-colour='green'] .mu-card").count() == 2
    shot(phone, "murdero-refused.png")
    phone.locator(".mu-case[data-colour='green'] [data-add='1']").click()
    phone.click("[data-ending='overtime']")
    phone.click("#mu-score")
    wait_until(phone, "(n) => document.querySelectorAll('#mu-score-table tbody tr').length === n + 1",
               before)
    assert phone.locator("#mu-error").count() == 0


def test_a_german_phone_words_refusals_and_score_lines_in_german(site: Site, browser: Any) -> None:
    for page in phone_page(browser, locale="de-DE"):
        page.set_viewport_size({"width": 390, "height": 844})
        login(page, site.url, site.pin)
        page.wait_for_selector("#mu-entry")
        before = len(get(site.url, "api/state")["view"]["hands"])
        tab(page, "Ana")
        add_case(page, "green", [2, 3])  # no Crime Scene
        page.click("#mu-score")
        page.wait_for_selector("#mu-error")
        shown = page.locator("#mu-error").inner_text()
        assert "Ana, Fall Grün" in shown and "jeder Fall muss damit beginnen" in shown, shown
        assert "does not begin" not in shown
        # the whole sentence is on the screen: nothing of the box is clipped
        clipped = page.evaluate("() => { const e = document.getElementById('mu-error');"
                                " return e.scrollWidth > e.clientWidth + 1"
                                " || e.getBoundingClientRect().right > window.innerWidth; }")
        assert not clipped
        shot(page, "murdero-refused-de.png")
        # a hand that scores: every line of it is German
        page.locator(".mu-case[data-colour='green'] [data-add='1']").click()
        page.locator(".mu-case[data-colour='green'] [data-add='4']").click()
        page.locator(".mu-case[data-colour='green'] [data-add='5']").click()
        tab(page, "Ben")
        page.click("[data-hold='G3']")
        page.click("[data-ending='case']")
        page.click("#mu-score")
        wait_until(page, "(n) => document.querySelectorAll('#mu-score-table tbody tr').length === n + 1",
                   before)
        n = before + 1
        ana = [r for _, r in page_reasons(page, n, "Ana")]
        assert "Fall Grün 1+2+3+4+5, vollständig" in ana, ana
        assert any(r.startswith("Runde gewonnen: Fallpunkte verdoppelt") for r in ana), ana
        assert [r for _, r in page_reasons(page, n, "Ben")] == ["auf der Hand: Grün 3"]
        # the English reasons are still in the view, for the CLI and English phones
        view = get(site.url, "api/state")["view"]
        line = view["hands"][n - 1]["sides"][1]["lines"][0]
        assert line == {"points": -3, "reason": "left in hand: G3", "code": "left_in_hand",
                        "details": {"cards": ["G3"]}}
        shot(page, "murdero-scores-de.png")
        # the action-card reference too: every card's text German, the titles as printed
        page.locator("#mu-reference summary").click()
        texts = page.locator(".mu-ref p").all_inner_texts()
        assert len(texts) == len(view["reference"])
        assert all(t != r["does"] for t, r in zip(texts, view["reference"])), texts
        assert "blauer Fall" in page.locator(".mu-ref[data-card='silver_screen_alibi'] p").inner_text()


def test_correcting_a_hand_and_the_reference(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#mu-hands")
    phone.locator(".mu-reasons[data-hand='1'] summary").click()
    phone.click(".mu-reasons[data-hand='1'] [data-correct='1']")
    assert "1" in phone.locator("#mu-entry h2").inner_text()
    tab(phone, "Ben")
    assert phone.locator(".mu-case[data-colour='blue'] .mu-card").count() == 3  # loaded
    phone.locator(".mu-held .mu-card").first.click()  # the G3 was not in hand after all
    phone.click("#mu-score")
    wait_until(phone, "() => !document.querySelector('#mu-entry h2').textContent.match(/1/)")
    hand1 = get(site.url, "api/state")["view"]["hands"][0]
    assert next(p for p in hand1["table"] if p["name"] == "Ben")["held"] == []
    # the action-card reference comes from the game's data
    view = get(site.url, "api/state")["view"]
    phone.locator("#mu-reference summary").click()
    titles = phone.locator(".mu-ref strong").all_inner_texts()
    assert titles == [r["title"] for r in view["reference"]]
    assert view["reference"][0]["does"] in phone.locator(".mu-ref p").first.inner_text()


def test_next_player_button_and_history_replay(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.wait_for_selector("#btn-next-player")
    turn = get(site.url, "api/state")["view"]["turn"]
    phone.click("#btn-next-player")
    wait_until(phone, "(t) => document.querySelector('#players li.on-turn') &&"
               " document.querySelector('#players li.on-turn').dataset.index === String(t)",
               (turn + 1) % len(PLAYERS))
    game_id = get(site.url, "api/state")["game_id"]
    phone.goto(site.url + f"history/{game_id}")
    phone.wait_for_selector("#mu-score-table")
    last = int(phone.locator("#step").get_attribute("max"))
    hands_now = len(get(site.url, "api/state")["view"]["hands"])
    assert phone.locator("#mu-score-table tbody tr").count() == hands_now
    assert phone.locator("#mu-entry").count() == 0  # the replay is read-only
    phone.locator("#step").fill("1")
    phone.locator("#step").dispatch_event("input")
    wait_until(phone, "() => document.querySelectorAll('#mu-score-table tbody tr').length === 1")
    assert last > 1
    assert "hand entered" in phone.locator("#step-label").inner_text()
    shot(phone, "murdero-history.png")


def test_scores_page_after_the_game_is_won(site: Site, phone: Any) -> None:
    # play to 100 through the API, as another phone would, and see the page end the game
    won = {"players": [{"name": "Ana", "cases": [{"colour": "red", "cards": [1, 1, 2, 3, 4, 5]},
                                                  {"colour": "blue", "cards": [1, 2, 3, 4, 5]}],
                        "permanents": ["real_estate"]},
                       {"name": "Ben"}, {"name": "Cem"}], "ended_by": "case"}
    for _ in range(4):
        status, body = post(site.url, site.pin, {"action": "event",
                                                 "event": {"type": "hand_entered", "hand": won}})
        if status == 409:
            break
        assert status == 200, body
    view = get(site.url, "api/state")["view"]
    assert view["over"] and view["winners"] == ["Ana"]
    login(phone, site.url, site.pin)
    phone.wait_for_selector(".mu-bar.won")
    assert phone.locator(".mu-bar.won .who").inner_text().startswith("Ana")
    assert "Ana" in phone.locator("#banner strong").inner_text()
    assert phone.locator("#mu-entry").count() == 0 and phone.locator("#btn-next-player").count() == 0
    shot(phone, "murdero-over.png")



def test_new_game_form_starts_partner_murdero(site: Site, phone: Any) -> None:
    login(phone, site.url, site.pin)
    phone.click("#new-game summary")
    wait_until(phone, "() => document.querySelectorAll('#player-names input').length === 3")
    phone.select_option("#game-select", "murdero")
    assert phone.locator("#mu-pairs").is_disabled()  # three players: no pairs
    phone.click("#add-player")
    names = phone.locator("#player-names input")
    for i, name in enumerate(("Ana", "Ben", "Cem", "Dee")):
        names.nth(i).fill(name)
    phone.check("#mu-pairs")
    phone.select_option("#mu-first", "3")
    phone.click("#new-game-form button[type=submit]")
    wait_until(phone, "() => fetch('/api/state').then(r => r.json()).then(s => s.view.pairs === true)")
    view = get(site.url, "api/state")["view"]
    assert view["target"] == 200 and view["turn"] == 3
    assert [s["players"] for s in view["sides"]] == [["Ana", "Cem"], ["Ben", "Dee"]]
    phone.wait_for_selector("#mu-entry")
    assert phone.locator(".mu-bar").count() == 2 and "200" in phone.locator("#mu-totals h2").inner_text()
    shot(phone, "murdero-pairs.png")


def test_form_opened_before_the_state_arrives_fills_in_the_players(site: Site, phone: Any) -> None:
    """On a slow network the form can be opened before the table's state has come: its seats
    are empty then, and the state fills them in when it comes."""
    held = re.compile(r"/api/(events|state)")
    phone.route(held, lambda route: route.abort())
    login(phone, site.url, site.pin)
    phone.click("#new-game summary")
    names = "() => Array.from(document.querySelectorAll('#player-names input'), i => i.value)"
    wait_until(phone, names.replace("i.value)", "i.value).length > 0"))
    assert not any(phone.evaluate(names))
    phone.unroute(held)
    wait_until(phone, names + ".every(v => v)")
    assert phone.evaluate(names) == [p["name"] for p in get(site.url, "api/state")["players"]]


def test_a_name_typed_before_the_state_arrives_is_kept(site: Site, phone: Any) -> None:
    held = re.compile(r"/api/(events|state)")
    phone.route(held, lambda route: route.abort())
    login(phone, site.url, site.pin)
    phone.click("#new-game summary")
    wait_until(phone, "() => document.querySelectorAll('#player-names input').length > 0")
    phone.locator("#player-names input").first.fill("Zoe")
    phone.unroute(held)
    wait_until(phone, "() => document.body.dataset.game === 'murdero'")  # the state came
    assert phone.locator("#player-names input").first.input_value() == "Zoe"


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_label_is_translated(site: Site, browser: Any, lang: str) -> None:
    for page in phone_page(browser, locale="de-DE" if lang == "de" else "en-GB"):
        login(page, site.url, site.pin)
        page.goto(site.url + "?lang=" + lang)
        page.wait_for_selector("#mu-totals")
        page.locator("#mu-reference summary").click()
        text = page.locator("body").inner_text()
        assert page.evaluate("() => document.documentElement.lang") == lang
        assert not re.search(r"\bmu\.[a-z_]+|\bcolour\.[a-z]+", text)
        shot(page, f"murdero-{lang}.png")
