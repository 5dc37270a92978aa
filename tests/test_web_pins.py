"""PIN guessing from many addresses is capped for the whole table, and the device can roll a
new PIN that logs every phone out (no network: each request names its address; the clock is
moved by hand)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from flask.testing import FlaskClient

import web
from companion.cli import main
from web.limiter import MAX_TRACKED_ADDRESSES, AttemptLimiter
from web_support import PIN, Table, make_table


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture()
def clock() -> Clock:
    return Clock()


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    with make_table(tmp_path / "t") as t:
        yield t


@pytest.fixture()
def client(table: Table, clock: Clock) -> FlaskClient:
    return web.create_app(table, {}, clock=clock).test_client()


def _try(client: FlaskClient, pin: str, address: str) -> int:
    response = client.get("/api/camera.jpg", headers={"X-Companion-Pin": pin},
                          environ_overrides={"REMOTE_ADDR": address})
    return response.status_code


def test_wrong_pins_from_many_addresses_are_capped_for_the_whole_table(
    client: FlaskClient, clock: Clock, table: Table,
) -> None:
    tried = 0
    for i in range(200):  # 200 guesses from 50 addresses, all within one minute
        code = _try(client, f"{i:06d}", f"10.0.{i % 50}.1")
        assert code in (401, 429)
        tried += code == 401  # a guess that was really checked
    assert tried == 30  # at most 30 wrong PINs a minute, whatever the addresses
    locked = client.get("/api/camera.jpg", headers={"X-Companion-Pin": PIN},
                        environ_overrides={"REMOTE_ADDR": "10.9.9.9"})
    assert locked.status_code == 429  # even the right PIN waits: no oracle for a guesser
    body = locked.get_json()
    assert body["everyone"] is True and int(locked.headers["Retry-After"]) >= 1
    table.drain()
    assert table.snapshot()["logins_locked_s"] >= 1  # the table knows and shows it
    clock.now += 61  # the minute is over: the right PIN is let in again
    assert _try(client, PIN, "10.9.9.9") != 429


def test_forgetting_old_addresses_does_not_reopen_the_door() -> None:
    clock = Clock()
    limiter = AttemptLimiter(5, 300.0, clock, global_attempts=30, global_window_s=60.0)
    for i in range(MAX_TRACKED_ADDRESSES + 500):
        if limiter.retry_after(f"a{i}") is None:
            limiter.failed(f"a{i}")
    assert len(limiter._failures) <= MAX_TRACKED_ADDRESSES  # memory stays bounded
    assert limiter.retry_after("a-new-one") is not None  # and the cap still holds
    clock.now += 60.5
    assert limiter.retry_after("a-new-one") is None


def test_companion_pin_new_changes_the_pin_and_logs_every_phone_out(
    client: FlaskClient, table: Table,
) -> None:
    token = client.get("/api/session").get_json()["csrf"]
    assert client.post("/login", json={"pin": PIN},
                       headers={"X-CSRF-Token": token}).status_code == 200
    assert client.get("/api/session").get_json()["logged_in"] is True
    db = table.store.path
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["pin", "--new", "--db", str(db)]) == 0
    new = out.getvalue().split("PIN: ")[1].split()[0]
    assert len(new) == 6 and new.isdigit() and new != PIN
    assert client.get("/api/session").get_json()["logged_in"] is False  # logged out, live
    assert _try(client, PIN, "10.1.1.1") == 401  # the old PIN no longer opens anything
    assert _try(client, new, "10.1.1.2") != 401
