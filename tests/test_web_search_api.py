"""The solver answers for a game's page (``/api/analysis/<kind>``) on the real runtime."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import web
from companion.games.search.advice import hint_json, review_json, state_from_view
from companion.games.search.house import House
from companion.table import Table
from web_support import PIN, make_table

PINNED = {"X-Companion-Pin": PIN}


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    with make_table(tmp_path) as t:
        yield t


@pytest.fixture()
def client(table: Table) -> FlaskClient:
    return web.create_app(table, {}).test_client()


def answer(client: FlaskClient, kind: str, timeout_s: float = 60.0) -> Any:
    """Ask until the worker has it, as the page does; every reply is 200, 202 or an error."""
    deadline = time.monotonic() + timeout_s
    while True:
        r = client.get(f"/api/analysis/{kind}")
        if r.status_code != 202:
            return r
        assert r.get_json() == {"status": "working", "retry_after": 1}
        assert time.monotonic() < deadline
        time.sleep(0.2)


def new_search(client: FlaskClient, **setup: Any) -> dict[str, Any]:
    body = {"action": "new_game", "game": "search", "setup": {"players": ["Ana", "Ben"], **setup}}
    r = client.post("/api/action", json=body, headers=PINNED)
    assert r.status_code == 200, r.get_json()
    view: dict[str, Any] = r.get_json()["state"]["view"]
    return view


def test_a_game_without_analysis_is_a_404(client: FlaskClient) -> None:
    assert client.get("/api/state").get_json()["game"] == "moerder"
    r = client.get("/api/analysis/hint")
    assert r.status_code == 404 and r.get_json()["error"] == "no_analysis"


def test_unknown_kind_is_a_404_naming_the_known_ones(client: FlaskClient) -> None:
    new_search(client, seed=3, starts=["A1", "H11"])
    r = client.get("/api/analysis/oracle")
    assert r.status_code == 404 and "hint, review" in r.get_json()["reason"]


def test_a_hint_before_the_start_rooms_is_refused_with_a_reason(client: FlaskClient) -> None:
    new_search(client, seed=3)
    r = answer(client, "hint")
    assert r.status_code == 409 and r.get_json()["error"] == "not_ready"


def test_hint_and_review_match_the_solver_on_the_tables_position(client: FlaskClient) -> None:
    house = House.generate(5, 4, 4)
    view = new_search(client, house=str(house), starts=["A1", "D4"])
    r = answer(client, "hint")
    assert r.status_code == 200
    got = r.get_json()
    want = hint_json(state_from_view(view))
    assert {k: got[k] for k in want} == want
    assert got["room"] in {m["room"] for m in view["legal"]}
    # play to the end and ask for the review
    while view["phase"] == "play":
        move = {"type": "move", "player": view["turn"], "room": view["legal"][0]["room"]}
        r = client.post("/api/action", json={"action": "event", "event": move}, headers=PINNED)
        view = r.get_json()["state"]["view"]
    r = answer(client, "review")
    assert r.status_code == 200
    got = r.get_json()
    want = review_json(state_from_view(view))
    assert {k: got[k] for k in want} == want
    assert got["reached"] == view["score"]["team"] and got["best"] >= got["reached"]


def test_phones_asking_about_one_position_share_one_search(client: FlaskClient) -> None:
    new_search(client, seed=8, starts=["A1", "H11"])
    first = client.get("/api/analysis/hint")
    second = client.get("/api/analysis/hint")
    assert {first.status_code, second.status_code} <= {200, 202}
    worker = client.application.extensions["companion.analysis"]
    assert len(worker._done) == 1  # one search for both


def test_a_game_on_the_largest_house_is_played_and_kept(client: FlaskClient) -> None:
    """A 26x98 house (1274 corridors, more than two-letter tags name) once failed with a 500
    after the game was logged, and the table's history with it."""
    house = House.generate(1, 26, 98)
    view = new_search(client, house=str(house))
    assert (view["house"]["rows"], view["house"]["cols"]) == (26, 98)
    assert House.parse(view["house"]["text"]) == house
    games = client.get("/api/history").get_json()["games"]
    assert client.get(f"/api/history/{games[0]['id']}").status_code == 200
