"""The front door over real sockets on loopback: one address cannot lock the others out, its
excess is refused at once, slow heads are cut off, and many live pages all get a change.

"Another address" on one machine: the server listens on 127.0.0.1 and a guest connects from
127.0.0.2 (any 127.0.0.0/8 address is a valid source on Linux). Every wait has a bound.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import PIN, make_table

import web
from companion.table import Table

TIMEOUT = 10.0


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    with make_table(tmp_path, max_streams=80) as runtime:
        yield runtime


def connect(port: int, source: str) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(TIMEOUT)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def read_head(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and whatever of the body came with them."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        assert len(data) < 1 << 20
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines[0] else 0
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return status, headers, rest


def read_all(sock: socket.socket) -> bytes:
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
        assert len(data) < 1 << 22


def get(port: int, path: str, source: str = "127.0.0.1",
        headers: dict[str, str] | None = None, body: bytes = b"",
        method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    sock = connect(port, source)
    try:
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        if body:
            extra += f"Content-Length: {len(body)}\r\n"
        sock.sendall(f"{method} {path} HTTP/1.1\r\nHost: table\r\n{extra}\r\n".encode() + body)
        status, head, rest = read_head(sock)
        return status, head, rest + read_all(sock)
    finally:
        sock.close()


def open_live_page(port: int, source: str) -> tuple[socket.socket, bytearray]:
    sock = connect(port, source)
    sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
    status, headers, rest = read_head(sock)
    assert status == 200, status
    assert headers["content-type"].startswith("text/event-stream")
    assert headers["x-frame-options"] == "DENY"
    return sock, bytearray(rest)


def versions(buf: bytearray) -> list[int]:
    found = []
    for line in bytes(buf).split(b"\n"):
        if line.startswith(b"data: "):
            found.append(json.loads(line[6:])["version"])
    return found


def wait_for_version(sock: socket.socket, buf: bytearray, version: int) -> None:
    deadline = time.monotonic() + TIMEOUT
    while version not in versions(buf):
        assert time.monotonic() < deadline, "the change never reached this page"
        chunk = sock.recv(65536)
        assert chunk, "the live page ended"
        buf.extend(chunk)


def change(port: int, advisor: bool) -> int:
    body = json.dumps({"action": "settings", "advisor": advisor}).encode()
    status, _, data = get(port, "/api/action", method="POST", body=body,
                          headers={"Content-Type": "application/json", "X-Companion-Pin": PIN})
    assert status == 200, data
    version: int = json.loads(data)["state"]["version"]
    return version


def test_slow_connections_from_one_address_leave_the_others_served(table: Table) -> None:
    """300 idle or half-sent connections from 127.0.0.2; 127.0.0.1 still gets the page, the
    state and a live page, and the guest's excess was refused rather than left waiting."""
    app = web.create_app(table, {"header_timeout_s": 60.0})
    guest: list[socket.socket] = []
    refused = 0
    with web.Server(app, port=0) as server, contextlib.ExitStack() as stack:
        stack.callback(lambda: [s.close() for s in guest])
        for i in range(300):
            sock = connect(server.port, "127.0.0.2")
            guest.append(sock)
            if i % 2:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: table\r\nX-Slow: ")
        # the first 24 (max_per_address) are held; the rest were answered 503 at once
        for sock in guest[24:]:
            status, _, _ = read_head(sock)
            refused += status == 503
        assert refused == 300 - 24
        status, _, page = get(server.port, "/")
        assert status == 200 and b"<html" in page.lower()
        status, _, state = get(server.port, "/api/state")
        assert status == 200 and "version" in json.loads(state)
        live, buf = open_live_page(server.port, "127.0.0.1")
        stack.callback(live.close)
        # a change reaches the live page through all that
        wait_for_version(live, buf, change(server.port, True))


def test_the_excess_of_one_address_is_refused_cleanly(table: Table) -> None:
    app = web.create_app(table, {"max_per_address": 4, "header_timeout_s": 60.0})
    with web.Server(app, port=0) as server:
        held = [connect(server.port, "127.0.0.3") for _ in range(4)]
        try:
            extra = connect(server.port, "127.0.0.3")
            status, headers, rest = read_head(extra)
            body = rest + read_all(extra)
            extra.close()
            assert status == 503
            assert headers["retry-after"] == "5" and headers["connection"] == "close"
            assert json.loads(body)["error"] == "busy"
            # another address is not affected
            assert get(server.port, "/api/state", source="127.0.0.4")[0] == 200
            # one of the four leaves: the address gets a connection again
            held.pop().close()
            deadline = time.monotonic() + TIMEOUT
            while True:
                status = get(server.port, "/api/state", source="127.0.0.3")[0]
                if status == 200:
                    break
                assert status == 503 and time.monotonic() < deadline
        finally:
            for sock in held:
                sock.close()


def test_a_request_head_that_does_not_arrive_in_time_is_cut_off(table: Table) -> None:
    app = web.create_app(table, {"header_timeout_s": 0.3})
    with web.Server(app, port=0) as server:
        sock = connect(server.port, "127.0.0.5")
        try:
            sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: ta")
            status, headers, _ = read_head(sock)
            assert status == 408 and headers["connection"] == "close"
            assert read_all(sock) is not None  # and then the connection ends
        finally:
            sock.close()


def test_fifty_five_live_pages_all_get_a_change(table: Table) -> None:
    """Many phones, each on its own address as on a real LAN; no worker thread per page."""
    app = web.create_app(table, {"max_streams": 60})
    pages: list[tuple[socket.socket, bytearray]] = []
    with web.Server(app, port=0, threads=4) as server:
        try:
            for i in range(55):
                pages.append(open_live_page(server.port, f"127.0.1.{i + 1}"))
            deadline = time.monotonic() + TIMEOUT
            while server.live_pages < 55:
                assert time.monotonic() < deadline
                time.sleep(0.01)
            # the 61st page is refused: the bound still holds
            for i in range(5):
                pages.append(open_live_page(server.port, f"127.0.2.{i + 1}"))
            status, _, body = get(server.port, "/api/events", source="127.0.3.1")
            assert status == 503 and json.loads(body)["error"] == "busy"
            version = change(server.port, True)
            for sock, buf in pages:
                wait_for_version(sock, buf, version)
        finally:
            for sock, _ in pages:
                sock.close()


def test_a_forged_forwarded_for_does_not_dodge_the_pin_limit(table: Table) -> None:
    """The phone's address reaches the PIN limiter; a client's own X-Forwarded-For does not."""
    app = web.create_app(table, {"login_attempts": 2})
    body = json.dumps({"action": "settings", "advisor": True}).encode()
    with web.Server(app, port=0) as server:
        codes: list[Any] = []
        for i in range(4):
            status, _, _ = get(server.port, "/api/action", source="127.0.0.6", method="POST",
                               body=body, headers={"Content-Type": "application/json",
                                                   "X-Companion-Pin": "000000",
                                                   "X-Forwarded-For": f"10.0.0.{i}"})
            codes.append(status)
        assert codes[-1] == 429, codes
        # another address is still allowed to try
        status, _, _ = get(server.port, "/api/action", source="127.0.0.7", method="POST",
                           body=body, headers={"Content-Type": "application/json",
                                               "X-Companion-Pin": PIN})
        assert status == 200


def test_live_pages_get_changes_once_the_table_has_a_slot_again(tmp_path: Path) -> None:
    """The one table subscription behind all live pages waits for a slot rather than giving
    up when the table's slots are all held (here by a stand-in for a camera view)."""
    with make_table(tmp_path, max_streams=1) as runtime:
        held = runtime.subscribe()
        held.__enter__()
        app = web.create_app(runtime, {"max_streams": 4})
        with web.Server(app, port=0) as server:
            live, buf = open_live_page(server.port, "127.0.0.8")
            try:
                held.__exit__(None, None, None)
                deadline = time.monotonic() + TIMEOUT
                flip = False
                while True:  # changes until the hub is subscribed again; then one arrives
                    flip = not flip
                    version = change(server.port, flip)
                    live.settimeout(0.5)
                    with contextlib.suppress(socket.timeout):
                        wait_for_version(live, buf, version)
                        break
                    assert time.monotonic() < deadline, "the hub never subscribed again"
            finally:
                live.close()
