"""Hostile requests: bodies nested 1500 deep at /api/action and /login, a PIN no encoding
takes, ids beyond SQLite's: a 4xx with a JSON reason, never a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web

from web_support import PIN, Table, make_table

DEEP = "[" * 1500 + "]" * 1500


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    with make_table(tmp_path_factory.mktemp("table")) as t:
        yield t


@pytest.fixture()
def client(table: Table) -> FlaskClient:
    app: Flask = web.create_app(table, {"heartbeat_s": 0.05}, clock=lambda: 1000.0)
    return app.test_client()


def test_deep_action_body_is_a_400_with_a_reason(client: FlaskClient) -> None:
    response = client.post("/api/action", data=DEEP, content_type="application/json",
                           headers={"X-Companion-Pin": PIN})
    assert response.status_code == 400
    assert response.get_json()["reason"]


def test_deep_login_body_is_a_400_with_a_reason(client: FlaskClient) -> None:
    token = client.get("/api/session").get_json()["csrf"]
    response = client.post("/login", data=DEEP, content_type="application/json",
                           headers={"X-CSRF-Token": token})
    assert response.status_code == 400
    assert response.get_json()["reason"]


def test_deep_in_an_object_is_refused_too(client: FlaskClient) -> None:
    body = '{"action": ' + DEEP + "}"
    response = client.post("/api/action", data=body, content_type="application/json",
                           headers={"X-Companion-Pin": PIN})
    assert response.status_code == 400


def test_an_ordinary_body_still_parses(client: FlaskClient) -> None:
    response = client.post("/api/action", json={"action": "nosuch"},
                           headers={"X-Companion-Pin": PIN})
    assert response.status_code in (400, 409)
    assert response.get_json()["reason"]


def test_a_pin_no_encoding_takes_is_a_400(client: FlaskClient) -> None:
    """JSON may carry a lone surrogate ("\\ud800"); hashing it failed with a 500."""
    token = client.get("/api/session").get_json()["csrf"]
    response = client.post("/login", data='{"pin": "\\ud800"}', content_type="application/json",
                           headers={"X-CSRF-Token": token})
    assert response.status_code == 400 and response.get_json()["reason"]


@pytest.mark.parametrize("path", ["/api/history/{}", "/api/export/{}"])
def test_an_id_beyond_sqlite_s_integers_is_no_game(client: FlaskClient, path: str) -> None:
    """A URL's integer has no bound; SQLite's have 64 bits, and beyond them was a 500."""
    for game_id in (2**63, 10**20):
        response = client.get(path.format(game_id))
        assert response.status_code == 404 and response.get_json()["reason"]
