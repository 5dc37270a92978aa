"""The club at scale: many simulated tables publishing a turn every few seconds to one broker.

Run: ``.venv/bin/python bench/club_bench.py [--tables 100] [--period 2] [--seconds 60]
[--outage 60]``. Prints one line per figure and a JSON object at the end. Figures depend on the
machine and its load; say what else ran.

- tables: each is a real event log (SQLite, ``synchronous=FULL``) with its own
  :class:`~companion.club.ClubPublisher` (its own MQTT connection, user and password), all in
  this process; a driver appends a Finde-den-Mörder turn to each in turn, every ``--period``
  seconds per table, staggered; a game ends with a claim after 12 events and the next begins.
- broker: Debian's Mosquitto as the tests start it (password file, ACL, no anonymous access).
- board: ``web.board`` (listener, model, waitress) in its own process, as ``companion board``
  runs it, with 4 wall screens asking ``/api/tables`` every second.
- latency: for each event, the board's arrival time minus the commit's time in the log (the
  same clock, one machine): p50, p95, max. CPU: the process's user+system time over the
  measured window, in % of one core; RSS at the end.
- ``--outage S``: half-way, the broker is stopped (SIGTERM) for S seconds and started again;
  afterwards every log is compared with the board: events lost (in a log, never counted on
  the board) and counted twice must both be 0. The tables keep playing throughout.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from companion.club import ClubPublisher, ClubSettings  # noqa: E402
from companion.club.settings import parse_broker  # noqa: E402
from companion.store import Store  # noqa: E402
from mqtt_support import BOARD_PASSWORD, BOARD_USER, Broker, table_password  # noqa: E402

TURNS = [
    *[step for col, tile in enumerate("MÖRDER")
      for step in ([{"type": "turn_tile", "cell": [0, col], "tile": tile}]
                   + ([{"type": "next"}] if col < 5 else []))],
    {"type": "claim", "player": 1},
]
PLAYERS = ["Ana", "Ben", "Cem", "Dan", "Eva", "Fin", "Gus", "Hal"]


def board_process(url: str, conn: Any, ready: Any, stop: Any) -> None:
    """The board as ``companion board`` runs it; at the end sends its figures up ``conn``."""
    from web.board import BoardServer, create_app
    from web.board.listen import Listener
    from web.board.model import Board

    board = Board()
    ear = Listener(parse_broker(url), board, "bench-board").start()
    with BoardServer(create_app(board, lambda: ear.connected), "127.0.0.1", 0) as server:
        conn.send(server.port)
        ready.set()
        while not stop.wait(0.5):
            if conn.poll():
                conn.recv()
                conn.send({"lags": list(board.lags), "counted": board.counted(),
                           "duplicates": board.duplicates,
                           "seqs": {t: board.seqs(t) for t in board.counted()}})
    ear.close()


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Tables:
    """The simulated tables: logs, publishers, and the driver that plays their turns."""

    def __init__(self, folder: Path, broker: Broker, count: int, period: float) -> None:
        self.names = [f"t{i + 1:03d}" for i in range(count)]
        self.period = period
        self.stores = [Store(folder / f"{n}.sqlite") for n in self.names]
        self.publishers = []
        for name, store in zip(self.names, self.stores):
            made = ClubSettings.from_section({"broker": broker.url, "table": name,
                                              "password": table_password(name),
                                              "reconnect_max_s": 2.0})
            assert made is not None
            self.publishers.append(ClubPublisher(made, store).start())
        self.games = [0] * count
        self.steps = [0] * count
        self.slowest = 0.0
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drive, daemon=True)

    def _turn(self, i: int) -> None:
        store = self.stores[i]
        if self.steps[i] == 0:
            seats = [PLAYERS[(i + k) % len(PLAYERS)] for k in range(2)]
            self.games[i] = store.new_game("moerder", "Finde den Mörder", {"players": seats},
                                           [(s, "red") for s in seats])
        body = TURNS[self.steps[i]]
        started = time.perf_counter()
        store.append(self.games[i], body, "bench",
                     end={"winner": "x"} if body["type"] == "claim" else None)
        self.slowest = max(self.slowest, time.perf_counter() - started)
        self.steps[i] = (self.steps[i] + 1) % len(TURNS)

    def _drive(self) -> None:
        gap = self.period / len(self.stores)
        due = time.monotonic()
        while not self.stop.is_set():
            for i in range(len(self.stores)):
                due += gap
                wait = due - time.monotonic()
                if wait > 0 and self.stop.wait(wait):
                    return
                self._turn(i)

    def logged(self) -> dict[str, int]:
        return {n: s.last_row() for n, s in zip(self.names, self.stores)}

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        for p in self.publishers:
            p.close(patience_s=0.2)
        for s in self.stores:
            s.close()


def screens(port: int, stop: threading.Event, count: int = 4) -> list[threading.Thread]:
    def look() -> None:
        while not stop.wait(1.0):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=10) as r:
                r.read()

    threads = [threading.Thread(target=look, daemon=True) for _ in range(count)]
    for t in threads:
        t.start()
    return threads


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def run(args: argparse.Namespace) -> dict[str, Any]:
    tmp = Path(tempfile.mkdtemp(prefix="club-bench-"))
    names = [f"t{i + 1:03d}" for i in range(args.tables)]
    broker = Broker(tmp / "broker", names).start()
    board_url = broker.url.replace("//", f"//{BOARD_USER}:{BOARD_PASSWORD}@")
    ctx = mp.get_context("spawn")
    here, there = ctx.Pipe()
    ready, stop = ctx.Event(), ctx.Event()
    proc = ctx.Process(target=board_process, args=(board_url, there, ready, stop))
    proc.start()
    ready.wait(60)
    port = here.recv()
    tables = Tables(tmp / "logs", broker, args.tables, args.period)
    looking = threading.Event()
    screens(port, looking)
    tables.thread.start()
    print(f"{args.tables} tables, a turn every {args.period:g} s each; warming up …", flush=True)
    time.sleep(min(10.0, args.seconds / 4))  # the bench measures a steady room
    assert broker.pid is not None and proc.pid is not None
    t0, cpu_broker, cpu_board = time.monotonic(), cpu_seconds(broker.pid), cpu_seconds(proc.pid)
    outage: dict[str, Any] = {}
    if args.outage:
        time.sleep(args.seconds / 2)
        print(f"broker down for {args.outage:g} s …", flush=True)
        broker.stop()
        time.sleep(args.outage)
        broker.start()
        assert broker.pid is not None
        t0, cpu_broker = time.monotonic(), cpu_seconds(broker.pid)
        time.sleep(args.seconds / 2)
    else:
        time.sleep(args.seconds)
    wall = time.monotonic() - t0
    cpu = {"broker_cpu_pct": 100 * (cpu_seconds(broker.pid) - cpu_broker) / wall,
           "board_cpu_pct": 100 * (cpu_seconds(proc.pid) - cpu_board) / wall,
           "broker_rss_mb": rss_mb(broker.pid), "board_rss_mb": rss_mb(proc.pid),
           "tables_rss_mb": rss_mb(os.getpid())}
    tables.stop.set()
    tables.thread.join()
    logged = tables.logged()
    deadline = time.monotonic() + 120
    while True:  # every event logged must reach the board; then compare
        here.send("figures")
        figures = here.recv()
        if figures["counted"] == logged or time.monotonic() > deadline:
            break
        time.sleep(1.0)
    looking.set()
    stop.set()
    proc.join(10)
    tables.close()
    broker.stop()
    if args.outage:
        counted = figures["counted"]
        outage = {"outage_s": args.outage,
                  "lost": sum(max(0, logged[n] - counted.get(n, 0)) for n in logged),
                  "counted_twice": sum(max(0, counted.get(n, 0) - logged[n]) for n in logged),
                  "redelivered_and_dropped": figures["duplicates"]}
    lags = figures["lags"]
    return {
        "tables": args.tables, "period_s": args.period, "measured_s": round(wall, 1),
        "events": sum(logged.values()),
        "board_lag_ms": {"p50": 1000 * percentile(lags, 0.5), "p95": 1000 * percentile(lags, 0.95),
                         "max": 1000 * max(lags) if lags else None, "n": len(lags)},
        "slowest_commit_ms": 1000 * tables.slowest,
        **{k: round(v, 1) for k, v in cpu.items()}, **outage,
        "cpus": os.cpu_count(), "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--period", type=float, default=2.0, help="seconds between a table's turns")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--outage", type=float, default=0.0, help="broker down this long, mid-run")
    result = run(parser.parse_args())
    lag = result["board_lag_ms"]
    print(f"board lag (commit → board): p50 {lag['p50']:.0f} ms, p95 {lag['p95']:.0f} ms, "
          f"max {lag['max']:.0f} ms over {lag['n']} events")
    print(f"broker: {result['broker_cpu_pct']}% CPU, {result['broker_rss_mb']} MB RSS; "
          f"board: {result['board_cpu_pct']}% CPU, {result['board_rss_mb']} MB RSS")
    if "lost" in result:
        print(f"after a {result['outage_s']:g} s outage: {result['lost']} lost, "
              f"{result['counted_twice']} counted twice "
              f"({result['redelivered_and_dropped']} redelivered copies dropped)")
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
