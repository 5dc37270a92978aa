"""The club's board: each event counted once whatever the broker redelivers, the standings by
their rules, ``/api/tables``, and the page in Chromium at phone and wall sizes, in German and
English, fed by real tables through Debian's Mosquitto."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.club import ClubPublisher, ClubSettings
from companion.store import Store
from mqtt_support import BOARD_PASSWORD, BOARD_USER, Broker, running_broker, table_password
from mqtt_support import wait_until
from test_club_publish import MOERDER_WIN
from web.board import BoardServer, create_app
from web.board.labels import BOARD_LABELS
from web.board.listen import Listener
from web.board.model import Board
from web.board.standings import of as standings_of
from web_support import launch


def event(table: str, game: int, seq: int, summary: dict[str, Any], log: str = "L1") -> bytes:
    return json.dumps({"v": 1, "table": table, "log": log, "row": seq, "game_id": game,
                       "seq": seq, "at": 0.0, "source": "web", "event": {},
                       "summary": {"game_id": game, "seq": seq, **summary}}).encode()


def finished(kind: str, players: dict[str, int | None], winners: list[str]) -> dict[str, Any]:
    return {"game": kind, "over": True, "winners": winners, "on_turn": None,
            "players": [{"name": n, "score": s} for n, s in players.items()]}


def test_a_redelivered_event_is_counted_once_and_a_gap_is_filled_later() -> None:
    board = Board(clock=lambda: 5.0)
    running = {"game": "moerder", "over": False, "winners": [], "on_turn": "Ana",
               "players": [{"name": "Ana", "score": None}]}
    for seq in (1, 2, 2, 4, 1, 3, 4):
        board.take("companion/t1/event", event("t1", 7, seq, running))
    assert board.counted() == {"t1": 4} and board.duplicates == 3
    assert board.seqs("t1") == {7: 4}
    board.take("companion/t1/event", event("t1", 7, 1, running, log="L2"))  # a new log: new
    assert board.counted() == {"t1": 5}
    board.take("companion/t1/event", b"not json")
    board.take("companion/t1/event", b'{"seq": "x"}')
    board.take("elsewhere/t1/event", event("t1", 7, 9, running))
    assert board.counted() == {"t1": 5}


def test_a_game_counts_when_it_is_over_and_again_not_when_its_end_is_undone() -> None:
    board = Board()
    board.take("companion/t1/event", event("t1", 1, 1, finished("moerder", {"Ana": None,
                                                                          "Ben": None}, ["Ben"])))
    assert board.standings()["moerder"][0]["name"] == "Ben"
    undone = {"game": "moerder", "over": False, "winners": [], "on_turn": "Ben",
              "players": [{"name": "Ana", "score": None}, {"name": "Ben", "score": None}]}
    board.take("companion/t1/event", event("t1", 1, 2, undone))
    assert board.standings()["moerder"] == []


def test_the_standings_follow_their_rules() -> None:
    games = [
        finished("kniffel", {"Ana": 120, "Ben": 90}, ["Ana"]),
        finished("kniffel", {"Ben": 40, "Cem": 160}, ["Cem"]),  # another table, another round
        finished("moerder", {"Ana": None, "Ben": None}, ["Ben"]),
        finished("moerder", {"Ana": None, "Cem": None, "Dan": None}, ["Cem"]),
        finished("moerder", {"Ben": None, "Cem": None}, ["Ben", "Cem"]),  # a shared win
        finished("murdero", {"Ana": 101, "Ben": 80}, ["Ana"]),
        {**finished("moerder", {"Ana": None}, ["Ana"]), "over": False},  # still running
        finished("search", {"Ana": None}, ["Ana"]),  # not a tournament game
    ]
    table = standings_of(g for g in games if g["over"])
    assert [(r["rank"], r["name"], r["total"], r["games"]) for r in table["kniffel"]] == [
        (1, "Cem", 160, 1), (2, "Ben", 130, 2), (3, "Ana", 120, 1)]
    assert [(r["rank"], r["name"], r["wins"], r["games"]) for r in table["moerder"]] == [
        (1, "Ben", 2, 2), (1, "Cem", 2, 2), (3, "Dan", 0, 1), (4, "Ana", 0, 2)]
    assert [(r["rank"], r["name"]) for r in table["murdero"]] == [(1, "Ana"), (2, "Ben")]
    tie = standings_of([finished("moerder", {"A": None, "B": None}, ["A", "B"])])
    assert [r["rank"] for r in tie["moerder"]] == [1, 1]


def test_api_tables_gives_every_table_as_json() -> None:
    board = Board()
    board.take("companion/t2/state", json.dumps({"v": 1, "table": "t2", "log": "L", "at": 0,
                                                 "game": {"game_id": 3, "seq": 0, "game": "moerder",
                                                          "title": "Finde den Mörder",
                                                          "players": [], "over": False,
                                                          "winners": [], "on_turn": None}}).encode())
    board.take("companion/t1/status", b'{"v": 1, "status": "offline"}')
    client = create_app(board, lambda: True).test_client()
    body = client.get("/api/tables").get_json()
    assert [t["table"] for t in body["tables"]] == ["t1", "t2"]
    assert body["tables"][1]["online"] and body["tables"][1]["game"]["game_id"] == 3
    assert not body["tables"][0]["online"] and body["tables"][0]["game"] is None
    assert body["broker"] == {"connected": True} and set(body["standings"]) == {
        "kniffel", "moerder", "murdero"}


def test_both_languages_have_every_board_label() -> None:
    assert set(BOARD_LABELS["de"]) == set(BOARD_LABELS["en"])


@pytest.mark.parametrize("argv", [["--broker", "http://x:1"], ["--broker", "mqtt://"],
                                  ["--broker", "mqtt://h:99999"],
                                  ["--broker", "mqtt://h:1", "--port", "70000"]])
def test_a_bad_broker_is_one_line_and_exit_2(argv: list[str]) -> None:
    run = subprocess.run([sys.executable, "-m", "companion.cli", "board", *argv],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr


# --- the page, fed by real tables through the broker -------------------------------------------


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Table t1 has finished a Mörder game (Ben won); t2 is mid-way through Wort-Kniffel."""
    tmp = tmp_path_factory.mktemp("room")
    with running_broker(tmp / "broker", ["t1", "t2"]) as broker:
        board = Board()
        ear = Listener(_as_board(broker), board, "board-page").start()
        stores = [Store(tmp / "t1.sqlite"), Store(tmp / "t2.sqlite")]
        publishers = [ClubPublisher(_settings(broker, f"t{i + 1}"), s).start()
                      for i, s in enumerate(stores)]
        try:
            _play(stores)
            wait_until(lambda: board.counted() == {"t1": len(MOERDER_WIN), "t2": 2},
                       timeout=60, what="both tables on the board")
            with BoardServer(create_app(board, lambda: ear.connected), "127.0.0.1", 0) as srv:
                yield srv.url
        finally:
            for p in publishers:
                p.close()
            ear.close()
            for s in stores:
                s.close()


def _as_board(broker: Broker) -> Any:
    from companion.club.settings import parse_broker

    return parse_broker(broker.url.replace("//", f"//{BOARD_USER}:{BOARD_PASSWORD}@"))


def _settings(broker: Broker, table: str) -> ClubSettings:
    made = ClubSettings.from_section({"broker": broker.url, "table": table,
                                      "password": table_password(table)})
    assert made is not None
    return made


def _play(stores: list[Store]) -> None:
    t1, t2 = stores
    game = t1.new_game("moerder", "Finde den Mörder", {"players": ["Ana", "Ben"]},
                       [("Ana", "red"), ("Ben", "blue")])
    for body in MOERDER_WIN:
        t1.append(game, body, "web", end={"winner": "Ben"} if body["type"] == "claim" else None)
    game = t2.new_game("kniffel", "Wort-Kniffel", {"players": ["Cem", "Dan"]},
                       [("Cem", "red"), ("Dan", "blue")])
    t2.append(game, {"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}, "camera")
    t2.append(game, {"type": "enter", "box": "chance"}, "web")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


TEXTS = {
    "de": {"win": "Ben gewinnt!", "turn": "Dan ist dran", "tournament": "Turnier",
           "stand": "Finde den Mörder: Siege", "online": "verbunden"},
    "en": {"win": "Ben wins!", "turn": "Dan's turn", "tournament": "Tournament",
           "stand": "Finde den Mörder: wins", "online": "online"},
}


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("size", [(390, 844), (1920, 1080)], ids=["phone", "wall"])
def test_the_board_page_shows_the_room(browser: Any, room: str, lang: str,
                                       size: tuple[int, int]) -> None:
    words = TEXTS[lang]
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(f"{room}?lang={lang}")
        assert page.locator("html").get_attribute("lang") == lang
        t1 = page.locator('[data-table="t1"]')
        t1.wait_for()
        assert words["win"] in t1.inner_text() and words["online"] in t1.inner_text()
        t2 = page.locator('[data-table="t2"]')
        assert words["turn"] in t2.inner_text() and "Wort-Kniffel" in t2.inner_text()
        assert page.locator("#live").get_attribute("data-state") == "on"
        standings = page.locator("#tournament")
        if size[0] < 1200:  # a phone: one pane at a time, the tournament behind its tab
            assert not standings.is_visible()
            page.get_by_role("link", name=words["tournament"]).click()
            assert not page.locator("#tables").is_visible()
        assert standings.is_visible()
        moerder = page.locator('[data-game="moerder"]')
        assert words["stand"] in moerder.inner_text()
        assert moerder.locator("tr").nth(1).inner_text().split() == ["1", "Ben", "1", "1"]
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        english = set(BOARD_LABELS["en"].values()) - set(BOARD_LABELS["de"].values())
        if lang == "de":
            text = page.locator("body").inner_text()
            assert not [w for w in english if w in text]
    finally:
        page.close()
