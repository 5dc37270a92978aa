"""Web edge figures over real HTTP (waitress, the real Table on a temp SQLite log).

Run: ``.venv/bin/python bench/web_bench.py [--quick]``. Prints one line per figure and a JSON
object at the end. Figures depend on the machine's load; say what else ran.

- fan-out: phones hold live pages (server-sent events) while a phone sends an action; the time
  from sending the POST until each phone has the new state's ``data:`` line (median, p95,
  max; ms). Includes the durable commit (SQLite synchronous=FULL) and the JSON encoding.
- action: round trip of POST /api/action with the PIN header (ms).
- state: GET /api/state requests per second from 4 client threads.
- crowd: ``--phones`` live pages (default 50), each from its own loopback address as on a LAN,
  read by one client thread; change-to-phone latency p50/p95 and the process's RSS (server
  and clients together, so an upper bound for the server).
- slow: ``--slow`` idle or half-sent connections (default 300) from 127.0.0.2, then the time
  127.0.0.1 needs for ``/``, ``/api/state`` and a live page's first snapshot, and how many of
  the slow ones were refused at once.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from collections.abc import Callable
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import logging  # noqa: E402
import selectors  # noqa: E402
import socket  # noqa: E402

import web  # noqa: E402
from web_support import PIN, make_table  # noqa: E402


class Phone(threading.Thread):
    """One live page: reads the event stream and notes when each version arrived."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.conn.request("GET", "/api/events")
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.status
        self.seen: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        while True:
            line = self.response.fp.readline()
            if not line:
                return
            if line.startswith(b"data: "):
                version = json.loads(line[6:])["version"]
                self.seen[version] = time.perf_counter()
                self.ready.set()

    def close(self) -> None:
        self.conn.close()


def post(port: int, body: dict[str, Any]) -> dict[str, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("POST", "/api/action", json.dumps(body),
                 {"Content-Type": "application/json", "X-Companion-Pin": PIN})
    response = conn.getresponse()
    data: dict[str, Any] = json.loads(response.read())
    conn.close()
    assert response.status == 200, data
    return data


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def raw(port: int, source: str, request: bytes) -> socket.socket:
    sock = socket.socket()
    sock.settimeout(30)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    if request:
        sock.sendall(request)
    return sock


def crowd(port: int, n: int, rounds: int) -> dict[str, Any]:
    """n live pages on one selector: when did each see each version."""
    sel = selectors.DefaultSelector()
    seen: dict[int, dict[int, float]] = {}
    bufs: dict[int, bytes] = {}
    socks = []
    for i in range(n):
        sock = raw(port, f"127.0.{10 + i // 250}.{1 + i % 250}",
                   b"GET /api/events HTTP/1.1\r\nHost: table\r\n\r\n")
        sock.setblocking(False)
        sel.register(sock, selectors.EVENT_READ, i)
        socks.append(sock)
        seen[i] = {}
        bufs[i] = b""

    def pump(until: Callable[[], bool], limit_s: float = 10.0) -> None:
        deadline = time.monotonic() + limit_s
        while not until():
            if time.monotonic() > deadline:
                raise SystemExit("a live page never got the new state")
            for key, _ in sel.select(0.5):
                i = key.data
                chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                now = time.perf_counter()
                if not chunk:
                    raise SystemExit("a live page ended")
                bufs[i] += chunk
                *lines, bufs[i] = bufs[i].split(b"\n")
                for line in lines:
                    if line.startswith(b"data: "):
                        seen[i][json.loads(line[6:])["version"]] = now

    pump(lambda: all(seen[i] for i in range(n)))
    lat: list[float] = []
    for r in range(rounds):
        t0 = time.perf_counter()
        version = post(port, {"action": "settings", "advisor": r % 2 == 0})["state"]["version"]
        pump(lambda: all(version in seen[i] for i in range(n)))
        lat.extend((seen[i][version] - t0) * 1000 for i in range(n))
    memory = rss_mb()
    for sock in socks:
        sock.close()
    return {"phones": n, "p50_ms": round(statistics.median(lat), 2),
            "p95_ms": round(pct(lat, 0.95), 2), "max_ms": round(max(lat), 2),
            "rss_mb": round(memory, 1)}


def slow(port: int, n: int) -> dict[str, Any]:
    """n slow connections from 127.0.0.2, then what 127.0.0.1 still gets."""
    guest = []
    for i in range(n):
        guest.append(raw(port, "127.0.0.2", b"GET / HTTP/1.1\r\nHost: t\r\nX-Slow: " if i % 2
                         else b""))
    out: dict[str, Any] = {"slow": n}
    for path in ("/", "/api/state"):
        t0 = time.perf_counter()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", path)
        reply = conn.getresponse()
        reply.read()
        conn.close()
        out[f"{path}_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        out[f"{path}_status"] = reply.status
    t0 = time.perf_counter()
    live = raw(port, "127.0.0.1", b"GET /api/events HTTP/1.1\r\nHost: t\r\n\r\n")
    data = b""
    while b"data: " not in data:
        chunk = live.recv(65536)
        if not chunk:
            break
        data += chunk
    out["live_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    out["live_ok"] = b"data: " in data
    live.close()
    refused = 0
    for sock in guest:
        sock.settimeout(0.0)
        try:
            refused += sock.recv(64).startswith(b"HTTP/1.1 503")
        except BlockingIOError:
            pass
        sock.close()
    out["refused"] = refused
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--phones", type=int, default=50, help="live pages in the crowd")
    parser.add_argument("--slow", type=int, default=300, help="slow connections from one address")
    args = parser.parse_args()
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "queue depth" is expected here
    rounds = 10 if args.quick else 30
    phones_n = 4
    out: dict[str, Any] = {"phones": phones_n, "rounds": rounds}
    with tempfile.TemporaryDirectory() as tmp:
        with make_table(Path(tmp)) as table:
            app = web.create_app(table, {"max_streams": max(64, args.phones + 8)})
            with web.Server(app, port=0) as server:
                port = server.port
                phones = [Phone(port) for _ in range(phones_n)]
                for p in phones:
                    p.start()
                for p in phones:
                    p.ready.wait(10)
                fan: list[float] = []
                trips: list[float] = []
                for i in range(rounds):
                    # alternate the advisor switch: a state change with no game rules involved
                    t0 = time.perf_counter()
                    version = post(port, {"action": "settings", "advisor": i % 2 == 0})["state"][
                        "version"]
                    trips.append((time.perf_counter() - t0) * 1000)
                    deadline = time.monotonic() + 10
                    while any(version not in p.seen for p in phones):
                        if time.monotonic() > deadline:
                            raise SystemExit("a phone never got the new state")
                        time.sleep(0.001)
                    fan.extend((p.seen[version] - t0) * 1000 for p in phones)
                for p in phones:
                    p.close()

                stop = time.monotonic() + (2.0 if args.quick else 5.0)
                counts = [0] * 4

                def reader(k: int) -> None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                    while time.monotonic() < stop:
                        conn.request("GET", "/api/state")
                        conn.getresponse().read()
                        counts[k] += 1
                    conn.close()

                started = time.monotonic()
                threads = [threading.Thread(target=reader, args=(k,)) for k in range(4)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                elapsed = time.monotonic() - started
                out["crowd"] = crowd(port, args.phones, rounds)
                out["under_slow"] = slow(port, args.slow)

    out["fanout_ms"] = {"median": round(statistics.median(fan), 2), "p95": round(pct(fan, 0.95), 2),
                        "max": round(max(fan), 2)}
    out["action_ms"] = {"median": round(statistics.median(trips), 2),
                        "p95": round(pct(trips, 0.95), 2)}
    out["state_per_s"] = round(sum(counts) / elapsed, 1)
    print(f"fan-out to {phones_n} live phones: median {out['fanout_ms']['median']} ms, "
          f"p95 {out['fanout_ms']['p95']} ms, max {out['fanout_ms']['max']} ms")
    print(f"POST /api/action round trip: median {out['action_ms']['median']} ms, "
          f"p95 {out['action_ms']['p95']} ms")
    print(f"GET /api/state: {out['state_per_s']} requests/s (4 client threads)")
    c, w = out["crowd"], out["under_slow"]
    print(f"{c['phones']} live phones: change-to-phone p50 {c['p50_ms']} ms, p95 {c['p95_ms']} ms, "
          f"max {c['max_ms']} ms; RSS {c['rss_mb']} MB (server and clients in one process)")
    print(f"{w['slow']} slow connections from one address ({w['refused']} refused at once): "
          f"another address got / in {w['/_ms']} ms ({w['/_status']}), /api/state in "
          f"{w['/api/state_ms']} ms ({w['/api/state_status']}), a live page's first state in "
          f"{w['live_ms']} ms (ok: {w['live_ok']})")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
