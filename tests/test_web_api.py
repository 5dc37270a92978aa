"""The web edge through Flask's test client: JSON shapes, PIN rules, CSRF, rate limits, streams."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, cast

import pytest
from flask import Flask
from flask.testing import FlaskClient

import web
from web.config import WebConfigError

from web_support import PIN, Table, make_table, see_a_tile, turn_a_tile_for_the_player_on_turn


class Clock:
    """A hand-moved clock for the login rate limit (tests never read wall-clock time)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def running_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    with make_table(tmp_path_factory.mktemp("table")) as t:
        yield t


@pytest.fixture()
def table(running_table: Table) -> Table:
    """One runtime per module (starting one costs most of a test), a fresh game per test."""
    running_table.submit({"action": "settings", "advisor": False}, source="test")
    running_table.submit({"action": "new_game", "game": "moerder",
                          "setup": {"players": ["Ana", "Ben"], "first": 0}}, source="test")
    state = running_table.snapshot()
    assert state["prompt"] is None and state["events"] == 0 and state["view"]["turn"] == 0
    return running_table


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def app(table: Table, clock: Clock) -> Flask:
    return web.create_app(table, {"heartbeat_s": 0.05, "max_streams": 2, "login_attempts": 3,
                                  "login_window_s": 60.0}, clock=clock)


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def pin_header(pin: str = PIN) -> dict[str, str]:
    return {"X-Companion-Pin": pin}


def csrf(client: FlaskClient) -> str:
    token = client.get("/api/session").get_json()["csrf"]
    assert isinstance(token, str) and len(token) >= 32
    return token


def login(client: FlaskClient, pin: str = PIN) -> str:
    response = client.post("/login", json={"pin": pin}, headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code == 200, response.get_json()
    token: str = response.get_json()["csrf"]
    return token


def version(client: FlaskClient) -> int:
    v: int = client.get("/api/state").get_json()["version"]
    return v


# --- state --------------------------------------------------------------------------------


def test_state_is_the_runtime_snapshot_as_json(client: FlaskClient, table: Table) -> None:
    response = client.get("/api/state")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "no-store"
    body = response.get_json()
    assert body == json.loads(json.dumps(table.snapshot()))
    for key in ("version", "game", "title", "game_id", "players", "view", "camera", "prompt",
                "advisor"):
        assert key in body
    assert body["game"] == "moerder"
    assert [p["name"] for p in body["players"]] == ["Ana", "Ben"]
    assert body["camera"]["status"] in ("ok", "lost", "none")
    assert len(body["view"]["cells"]) == 6 and all(len(row) == 6 for row in body["view"]["cells"])


def test_reading_needs_no_login(client: FlaskClient) -> None:
    for path in ("/", "/history", "/api/state", "/api/history", "/api/qr.svg", "/api/info"):
        assert client.get(path).status_code == 200, path


# --- actions and the PIN ------------------------------------------------------------------


def test_action_without_pin_is_401_with_a_reason(client: FlaskClient) -> None:
    before = version(client)
    response = client.post("/api/action", json={"action": "next"})
    assert response.status_code == 401
    body = response.get_json()
    assert body["error"] == "login_required" and "PIN" in body["reason"]
    assert version(client) == before


def test_action_with_wrong_pin_is_401(client: FlaskClient) -> None:
    response = client.post("/api/action", json={"action": "next"}, headers=pin_header("0000000"))
    assert response.status_code == 401
    assert response.get_json()["error"] == "pin_wrong"


def test_action_with_pin_header_changes_the_table(client: FlaskClient, table: Table) -> None:
    before = version(client)
    turn_a_tile_for_the_player_on_turn(client, pin_header())
    response = client.post("/api/action", json={"action": "next"}, headers=pin_header())
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is True
    assert body["state"]["version"] > before
    assert body["state"] == client.get("/api/state").get_json()
    assert body["state"]["view"]["turn"] == 1  # Ben is on turn now


def test_refused_action_is_409_with_the_rules_code(client: FlaskClient) -> None:
    before = client.get("/api/state").get_json()
    # Nobody turned a tile yet, so saying MÖRDER is refused by the rules, not by the web.
    response = client.post("/api/action", json={"action": "claim"}, headers=pin_header())
    assert response.status_code == 409
    body = response.get_json()
    assert body["error"] == "refused"
    assert body["code"] == "tile_not_turned"
    assert isinstance(body["reason"], str) and body["reason"]
    after = client.get("/api/state").get_json()
    assert after["view"] == before["view"] and after["events"] == before["events"]
    # every phone hears that the claim was refused
    assert after["last"]["kind"] == "refused" and after["last"]["code"] == "tile_not_turned"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ([1, 2], "JSON object"),
        ({}, "action must be one of"),
        ({"action": "Jump!"}, "action must be one of"),
        ({"action": "jump"}, "'jump'"),
        ({"action": "next", "colour": "red"}, "unknown field"),
        ({"action": "correct", "cell": [6, 0], "tile": "M"}, "off the 6x6"),
        ({"action": "correct", "cell": [0], "tile": "M"}, "[row, column]"),
        ({"action": "correct", "cell": [0, 0], "tile": "Q"}, "tile must be one of"),
        ({"action": "correct", "cell": [0, True], "tile": "M"}, "[row, column]"),
        ({"action": "turn", "cell": [0, 0]}, "needs cell and tile"),
        ({"action": "claim", "cells": [[0, 0]]}, "six"),
        ({"action": "settings", "advisor": "yes"}, "true or false"),
        ({"action": "settings"}, "at least one"),
        ({"action": "new_game", "game": "chess", "setup": {}}, "game must be one of"),
        ({"action": "new_game", "game": "moerder", "setup": {"players": ["A", ""]}}, "non-empty"),
        ({"action": "new_game", "game": "moerder", "setup": {"players": ["A", "a"]}}, "twice"),
        ({"action": "new_game", "game": "moerder", "setup": {"players": ["A", "B"], "first": 2}},
         "first"),
        ({"action": "new_game", "game": "moerder", "setup": {"players": ["A" * 40, "B"]}},
         "at most"),
        ({"action": "resolve", "cells": {"a,b": "M"}}, "row,col"),
        ({"action": "event", "event": {"cell": [0, 0]}}, "type"),
        ({"action": "next", "player": -1}, "seat"),
    ],
)
def test_bad_bodies_are_400_naming_the_problem(
    client: FlaskClient, body: Any, words: str
) -> None:
    before = version(client)
    response = client.post("/api/action", json=body, headers=pin_header())
    assert response.status_code == 400
    reply = response.get_json()
    assert reply["error"] == "bad_action"
    assert words in reply["reason"]
    assert version(client) == before


def test_non_json_body_is_400(client: FlaskClient) -> None:
    response = client.post("/api/action", data="action=next", headers=pin_header(),
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_body"
    broken = client.post("/api/action", data="{not json", headers=pin_header(),
                         content_type="application/json")
    assert broken.status_code == 400


def test_a_game_event_the_rules_cannot_decode_is_400(client: FlaskClient) -> None:
    response = client.post("/api/action", json={"action": "event", "event": {"type": "fly"}},
                           headers=pin_header())
    assert response.status_code == 400
    assert response.get_json()["error"] == "bad_action"


def test_the_camera_asks_and_a_phone_answers(client: FlaskClient, table: Table) -> None:
    from companion.games.readings import GridReading

    unsure = "." * 7 + "?" + "." * 28  # the camera cannot read cell (1, 1)
    for _ in range(3):
        table.post_reading(GridReading(unsure))
    table.drain()
    prompt = client.get("/api/state").get_json()["prompt"]
    assert prompt["kind"] == "unsure" and prompt["cells"] == [[1, 1]]
    response = client.post("/api/action", json={"action": "resolve", "cells": {"1,1": "r"}},
                           headers=pin_header())
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert state["prompt"] is None
    assert state["view"]["cells"][1][1] == "R"


def test_oversized_body_is_413_json(client: FlaskClient) -> None:
    response = client.post("/api/action", data="x" * 70_000, headers=pin_header(),
                           content_type="application/json")
    assert response.status_code == 413
    assert "reason" in response.get_json()


def test_unknown_api_path_and_method_answer_json(client: FlaskClient) -> None:
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and missing.get_json()["error"] == "not_found"
    wrong = client.get("/api/action")
    assert wrong.status_code == 405 and "reason" in wrong.get_json()


# --- sessions, CSRF ---------------------------------------------------------------------------


def test_login_sets_a_strict_httponly_session_cookie(client: FlaskClient) -> None:
    token = csrf(client)
    response = client.post("/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 200
    assert response.get_json()["logged_in"] is True
    cookie = next(h for h in response.headers.getlist("Set-Cookie")
                  if h.startswith(web.SESSION_COOKIE + "="))
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert client.get("/api/session").get_json()["logged_in"] is True


def test_session_actions_need_the_csrf_token(client: FlaskClient, table: Table) -> None:
    token = login(client)
    before = version(client)
    assert client.post("/api/action", json={"action": "undo"}).status_code == 403
    bad = client.post("/api/action", json={"action": "undo"}, headers={"X-CSRF-Token": "x" * 43})
    assert bad.status_code == 403 and bad.get_json()["error"] == "csrf"
    assert version(client) == before
    turn_a_tile_for_the_player_on_turn(client, {"X-CSRF-Token": token})
    assert version(client) > before


def test_login_itself_needs_the_csrf_token(client: FlaskClient) -> None:
    response = client.post("/login", json={"pin": PIN})
    assert response.status_code == 403
    assert client.get("/api/session").get_json()["logged_in"] is False


def test_login_form_post_with_csrf_field_redirects(client: FlaskClient) -> None:
    token = csrf(client)
    response = client.post("/login", data={"pin": PIN, "csrf_token": token, "next": "/camera"})
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/camera")
    assert client.get("/api/session").get_json()["logged_in"] is True


@pytest.mark.parametrize("target", ["//evil.example/x", "/\\evil.example", "https://evil.example/",
                                    "javascript:alert(1)", "/\tx"])
def test_login_form_never_redirects_off_site(client: FlaskClient, target: str) -> None:
    token = csrf(client)
    response = client.post("/login", data={"pin": PIN, "csrf_token": token, "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] in ("/", "http://localhost/")


def test_login_form_with_wrong_pin_shows_the_form_again(client: FlaskClient) -> None:
    token = csrf(client)
    response = client.post("/login", data={"pin": "99999999", "csrf_token": token})
    assert response.status_code == 401
    assert b'id="login-error"' in response.data
    german = client.post("/login?lang=de", data={"pin": "99999999", "csrf_token": token})
    assert "Falsche PIN" in german.get_data(as_text=True)


def test_logout_ends_the_session(client: FlaskClient) -> None:
    token = login(client)
    assert client.post("/logout", headers={"X-CSRF-Token": token}, json={}).status_code == 200
    assert client.get("/api/session").get_json()["logged_in"] is False
    token = csrf(client)
    response = client.post("/api/action", json={"action": "undo"}, headers={"X-CSRF-Token": token})
    assert response.status_code == 401


def test_logout_needs_the_csrf_token(client: FlaskClient) -> None:
    login(client)
    assert client.post("/logout", json={}).status_code == 403
    assert client.get("/api/session").get_json()["logged_in"] is True


def test_sessions_are_signed_with_the_runtime_secret(table: Table, clock: Clock) -> None:
    """A second app on the same store (a restart) accepts the first app's session."""
    first = web.create_app(table, {}, clock=clock).test_client()
    login(first)
    cookie = first.get_cookie(web.SESSION_COOKIE)
    assert cookie is not None
    second = web.create_app(table, {}, clock=clock).test_client()
    second.set_cookie(web.SESSION_COOKIE, cookie.value)
    assert second.get("/api/session").get_json()["logged_in"] is True


# --- rate limiting ------------------------------------------------------------------------


def test_wrong_pins_are_rate_limited_per_address(client: FlaskClient, clock: Clock) -> None:
    for _ in range(3):
        assert client.post("/api/action", json={"action": "undo"},
                           headers=pin_header("11111111")).status_code == 401
    # Now even the right PIN waits: guessing cannot continue at speed.
    blocked = client.post("/api/action", json={"action": "undo"}, headers=pin_header())
    assert blocked.status_code == 429
    assert blocked.get_json()["error"] == "too_many_attempts"
    assert 1 <= int(blocked.headers["Retry-After"]) <= 60
    token = csrf(client)
    assert client.post("/login", json={"pin": PIN},
                       headers={"X-CSRF-Token": token}).status_code == 429
    # Another phone on the LAN is not locked out by this one.
    other = client.post("/api/action", json={"action": "bogus"}, headers=pin_header(),
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 400
    # Once the window has passed, the right PIN works again.
    clock.now += 61
    assert client.post("/login", json={"pin": PIN},
                       headers={"X-CSRF-Token": token}).status_code == 200


def test_login_failures_count_towards_the_same_limit(client: FlaskClient) -> None:
    token = csrf(client)
    for _ in range(3):
        assert client.post("/login", json={"pin": "22222222"},
                           headers={"X-CSRF-Token": token}).status_code == 401
    assert client.post("/api/action", json={"action": "undo"},
                       headers=pin_header()).status_code == 429


def test_a_right_pin_clears_earlier_failures(client: FlaskClient) -> None:
    for _ in range(2):
        client.post("/api/action", json={"action": "undo"}, headers=pin_header("333333"))
    client.post("/api/action", json={"action": "bogus"}, headers=pin_header())
    for _ in range(2):
        client.post("/api/action", json={"action": "undo"}, headers=pin_header("333333"))
    assert client.post("/api/action", json={"action": "bogus"},
                       headers=pin_header()).status_code == 400


# --- server-sent events -------------------------------------------------------------------


def _lines(response: Any) -> Iterator[str]:
    for chunk in response.response:
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        yield from text.split("\n")


def test_events_stream_the_state_then_each_change(client: FlaskClient, table: Table) -> None:
    response = client.get("/api/events", buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    lines = _lines(response)
    datas: list[dict[str, Any]] = []

    def next_data() -> dict[str, Any]:
        for line in lines:
            if line.startswith("data: "):
                return dict(json.loads(line[len("data: "):]))
        raise AssertionError("stream ended")

    datas.append(next_data())
    assert datas[0]["version"] == version(client)
    assert datas[0]["view"]["cells"][0][0] is None
    see_a_tile(table)  # the camera sees the first tile turned
    datas.append(next_data())
    assert datas[1]["version"] > datas[0]["version"]
    assert datas[1]["view"]["cells"][0][0] == "E"
    assert datas[1] == client.get("/api/state").get_json()
    response.close()


def test_events_send_heartbeat_comments(client: FlaskClient) -> None:
    response = client.get("/api/events", buffered=False)
    seen = []
    for line in _lines(response):
        seen.append(line)
        if line.startswith(":"):
            break
    assert ": heartbeat" in seen
    response.close()


def test_event_streams_are_bounded(client: FlaskClient, app: Flask) -> None:
    first = client.get("/api/events", buffered=False)
    second = client.get("/api/events", buffered=False)
    assert first.status_code == second.status_code == 200
    full = client.get("/api/events")
    assert full.status_code == 503
    assert full.get_json()["error"] == "busy"
    assert "Retry-After" in full.headers
    first.close()
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()
    second.close()


def test_runtime_full_of_streams_is_503(table: Table, clock: Clock) -> None:
    """The web's own limit is above the runtime's here: the runtime's Busy becomes a 503."""
    limit = table.config.section("web")["max_streams"]
    client = web.create_app(table, {"threads": limit + 4, "max_streams": limit + 2},
                            clock=clock).test_client()
    open_ = [client.get("/api/events", buffered=False) for _ in range(limit)]
    assert all(r.status_code == 200 for r in open_)
    full = client.get("/api/events")
    assert full.status_code == 503 and full.get_json()["error"] == "busy"
    for r in open_:
        r.close()
    again = client.get("/api/events", buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_closed_page_gives_its_stream_back_over_real_http(table: Table) -> None:
    """Served by waitress: a phone that closes its page frees the slot without waiting for a
    heartbeat (heartbeat here: an hour)."""
    import http.client
    import time

    app = web.create_app(table, {"heartbeat_s": 3600.0, "max_streams": 1})
    with web.Server(app, port=0, threads=4) as server:
        first = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        first.request("GET", "/api/events")
        response = first.getresponse()
        assert response.status == 200
        assert b"retry:" in response.read1(64)
        second = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        second.request("GET", "/api/events")
        assert second.getresponse().status == 503
        second.close()
        response.close()  # the phone goes away
        first.close()
        deadline = time.monotonic() + 20
        while True:
            held = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            held.request("GET", "/api/events")
            reply = held.getresponse()
            if reply.status == 200:
                break  # the slot came back; this phone keeps it open
            reply.close()
            held.close()
            assert time.monotonic() < deadline, "the closed page kept its stream"
            time.sleep(0.1)
    # closing the server ended the open stream and stopped listening; closing twice is fine
    server.close()
    with pytest.raises(OSError):
        http.client.HTTPConnection("127.0.0.1", server.port, timeout=2).request("GET", "/")
    try:
        reply.read()  # ends: a stream still open would time out here instead
    except http.client.IncompleteRead:
        pass  # cut off mid-chunk is an end too
    reply.close()
    held.close()


# --- camera -------------------------------------------------------------------------------


@pytest.fixture()
def camera_client(tmp_path: Any, clock: Clock) -> Iterator[FlaskClient]:
    with make_table(tmp_path / "cam", camera=True) as t:
        yield web.create_app(t, {}, clock=clock).test_client()


def test_camera_needs_login(camera_client: FlaskClient) -> None:
    assert camera_client.get("/api/camera.mjpg").status_code == 401
    assert camera_client.get("/api/camera.jpg").status_code == 401


def test_no_camera_is_503_json(client: FlaskClient) -> None:
    response = client.get("/api/camera.mjpg", headers=pin_header())
    assert response.status_code == 503
    assert response.get_json()["error"] == "camera_unavailable"


def test_camera_streams_jpeg_parts(camera_client: FlaskClient) -> None:
    response = camera_client.get("/api/camera.mjpg", headers=pin_header(), buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "multipart/x-mixed-replace"
    chunk = cast(bytes, next(iter(response.response)))
    head, _, body = chunk.partition(b"\r\n\r\n")
    assert head.startswith(b"--frame\r\nContent-Type: image/jpeg")
    length = int(head.split(b"Content-Length: ")[1])
    assert body[:2] == b"\xff\xd8" and body[length - 2 : length] == b"\xff\xd9"
    response.close()


def test_camera_view_keeps_alive_when_the_camera_goes(tmp_path: Any, clock: Clock) -> None:
    """No new frames (camera detached): the last picture is re-sent, so a phone that left is
    noticed and its worker thread freed; closing the view frees its slot."""
    with make_table(tmp_path / "cam2", camera=True) as t:
        app = web.create_app(t, {"heartbeat_s": 0.05, "max_camera_streams": 1}, clock=clock)
        client = app.test_client()
        response = client.get("/api/camera.mjpg", headers=pin_header(), buffered=False)
        parts = iter(response.response)
        first = next(parts)
        t.detach_camera("unplugged")
        later = [cast(bytes, next(parts)) for _ in range(3)]
        assert all(p.startswith(b"--frame\r\n") for p in later)
        assert later[-1] == later[-2]  # the same last picture, again
        busy = client.get("/api/camera.mjpg", headers=pin_header())
        assert busy.status_code == 503 and busy.get_json()["error"] == "busy"
        # once the runtime gives up on the silent camera (read_timeout_s), the view ends
        ended = False
        for _ in range(2000):
            try:
                next(parts)
            except StopIteration:
                ended = True
                break
        assert ended and first
        response.close()
        # the slot is free again (the camera itself is gone now: 503 for that reason)
        again = client.get("/api/camera.mjpg", headers=pin_header())
        assert again.get_json()["error"] == "camera_unavailable"


def test_camera_still_after_login(camera_client: FlaskClient) -> None:
    login(camera_client)
    response = camera_client.get("/api/camera.jpg")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.data[:2] == b"\xff\xd8"


# --- history and export -------------------------------------------------------------------


def test_history_lists_games_and_replays_them(client: FlaskClient, table: Table) -> None:
    turn_a_tile_for_the_player_on_turn(client, pin_header())
    games = client.get("/api/history").get_json()["games"]
    assert games and {"id", "game", "players", "started", "events"} <= set(games[0])
    game_id = games[0]["id"]
    replay = client.get(f"/api/history/{game_id}").get_json()
    steps = replay["steps"]
    assert replay["game"]["id"] == game_id
    assert steps[0]["event"] is None
    assert len(steps) == 1 + len(client.get(f"/api/export/{game_id}").get_json()["events"])
    # the last step is the table as it stands
    assert steps[-1]["view"] == client.get("/api/state").get_json()["view"]
    # an unfinished game shows no advisor figures unless the advisor is on
    assert all("advisor" not in s for s in steps)


def play_to_a_found_chain(client: FlaskClient) -> None:
    """Ana and Ben turn M Ö R D E R along the top row; Ben claims it."""
    for col, letter in enumerate("MÖRDER"):
        for body in ({"action": "turn", "cell": [0, col], "tile": letter},
                     {"action": "claim"} if col == 5 else {"action": "next"}):
            response = client.post("/api/action", json=body, headers=pin_header())
            assert response.status_code == 200, response.get_json()


def test_a_finished_game_replays_with_the_advisors_chart(client: FlaskClient) -> None:
    play_to_a_found_chain(client)
    state = client.get("/api/state").get_json()
    assert state["view"]["phase"] == "over" and state["view"]["winner"] == 1
    assert state["view"]["chain"] == [[0, c] for c in range(6)]
    game_id = state["game_id"]
    assert client.get("/api/history").get_json()["games"][0]["ended"]
    replay = client.get(f"/api/history/{game_id}").get_json()
    steps = replay["steps"]
    assert replay["advice"] is True
    assert [s["event"]["type"] for s in steps[1:3]] == ["turn_tile", "next"]
    figures = [s["advisor"]["p_end"] for s in steps]
    assert all(0.0 <= p <= 1.0 for p in figures)
    assert figures[-1] == 1.0  # the chain stands
    assert 0.0 < figures[0] < 1.0  # an untouched table: a chance either way
    assert all(s["advisor"]["possible"] for s in steps)
    # a finished game is replayed the same way every time
    assert client.get(f"/api/history/{game_id}").get_json() == replay


def test_the_advisor_switch_shows_figures_for_a_game_in_play(client: FlaskClient) -> None:
    turn_a_tile_for_the_player_on_turn(client, pin_header())
    game_id = client.get("/api/state").get_json()["game_id"]
    assert "advisor" not in client.get(f"/api/history/{game_id}").get_json()["steps"][-1]
    response = client.post("/api/action", json={"action": "settings", "advisor": True},
                           headers=pin_header())
    assert response.status_code == 200
    assert response.get_json()["state"]["advisor"]["enabled"] is True
    steps = client.get(f"/api/history/{game_id}").get_json()["steps"]
    assert 0.0 < steps[-1]["advisor"]["p_end"] < 1.0


def test_export_is_a_json_download(client: FlaskClient) -> None:
    game_id = client.get("/api/history").get_json()["games"][0]["id"]
    response = client.get(f"/api/export/{game_id}")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    data = json.loads(response.data)
    assert data["id"] == game_id and data["game"] == "moerder" and "setup" in data


def test_unknown_game_is_404_json(client: FlaskClient) -> None:
    for path in ("/api/history/99999", "/api/export/99999"):
        response = client.get(path)
        assert response.status_code == 404
        assert response.get_json()["error"] == "unknown_game"


# --- pages, language, QR, configuration ---------------------------------------------------


def test_pages_follow_the_browser_language_and_switch(client: FlaskClient) -> None:
    german = client.get("/", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert b'<html lang="de">' in german.data and "Verlauf".encode() in german.data
    english = client.get("/", headers={"Accept-Language": "en-GB"})
    assert b'<html lang="en">' in english.data and b"History" in english.data
    switched = client.get("/?lang=en", headers={"Accept-Language": "de"})
    assert b'<html lang="en">' in switched.data
    # the choice is remembered over the browser's language
    again = client.get("/history", headers={"Accept-Language": "de"})
    assert b'<html lang="en">' in again.data


def test_games_lists_the_installed_games_and_their_pages(client: FlaskClient) -> None:
    from companion.games import game_names

    games = client.get("/api/games").get_json()["games"]
    moerder = next(g for g in games if g["name"] == "moerder")
    assert moerder == {"name": "moerder", "title": "Finde den Mörder", "page": True}
    assert {g["name"] for g in games} <= set(game_names())
    login(client)
    page = client.get("/").data.decode()
    assert '<option value="moerder">Finde den Mörder</option>' in page


def test_static_files_are_addressed_by_their_content(client: FlaskClient) -> None:
    import re

    page = client.get("/").data.decode()
    links = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert any("css/app.css?v=" in link for link in links)
    assert any("js/games/moerder.js?v=" in link for link in links)
    versions = {link.split("?v=")[1] for link in links}
    assert len(versions) == 1  # one version for the whole set
    for link in links:
        assert client.get(link).status_code == 200, link


def test_pages_send_security_headers(client: FlaskClient) -> None:
    response = client.get("/")
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_qr_code_carries_the_public_address(table: Table) -> None:
    app = web.create_app(table, {"public_url": "http://table-3.local:8000/"})
    client = app.test_client()
    svg = client.get("/api/qr.svg")
    assert svg.mimetype == "image/svg+xml"
    assert b"<svg" in svg.data and b"http://table-3.local:8000/" in svg.data
    assert client.get("/api/info").get_json()["url"] == "http://table-3.local:8000/"


def test_unknown_web_setting_is_refused_by_name(table: Table) -> None:
    with pytest.raises(WebConfigError, match="heartbeat"):
        web.create_app(table, {"heartbeat": 5})
    with pytest.raises(WebConfigError, match="max_streams"):
        web.create_app(table, {"max_streams": 0})
    with pytest.raises(WebConfigError, match="port"):
        web.create_app(table, {"port": "80"})


def test_app_never_runs_in_debug_mode(app: Flask) -> None:
    assert app.debug is False
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Strict"
