"""Web edge figures over real HTTP (waitress, the real Table on a temp SQLite log).

Run: ``.venv/bin/python bench/web_bench.py [--quick]``. Prints one line per figure and a JSON
object at the end. Figures depend on the machine's load; say what else ran.

- fan-out: phones hold live pages (server-sent events) while a phone sends an action; the time
  from sending the POST until each phone has the new state's ``data:`` line (median, p95,
  max; ms). Includes the durable commit (SQLite synchronous=FULL) and the JSON encoding.
- action: round trip of POST /api/action with the PIN header (ms).
- state: GET /api/state requests per second from 4 client threads.
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
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

import logging  # noqa: E402

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    args = parser.parse_args()
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "queue depth" is expected here
    rounds = 10 if args.quick else 30
    phones_n = 4
    out: dict[str, Any] = {"phones": phones_n, "rounds": rounds}
    with tempfile.TemporaryDirectory() as tmp:
        with make_table(Path(tmp), max_streams=phones_n + 1) as table:
            app = web.create_app(table, {"threads": phones_n + 4, "max_streams": phones_n + 1})
            with web.Server(app, port=0, threads=phones_n + 4) as server:
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
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
