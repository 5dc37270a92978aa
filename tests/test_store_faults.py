"""Faults the event log meets in a café: a full disk, a read-only disk, a torn write-ahead log.

Each is made real on a real SQLite file: the size limit SQLite itself enforces
(``max_page_count``) for a full disk, ``query_only`` for a disk remounted read-only, a WAL
file cut at a random byte of its last write for a power cut mid-write. The promise kept in
every case: nothing acknowledged is lost, nothing half-written is kept, the error is one clear
line, and the table keeps running (buttons and phones), taking events again once the disk does.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.store import Store, StoreError
from companion.table import Table

PLAYERS = [("A", "red"), ("B", "blue")]


def _fill_until_full(store: Store, gid: int) -> int:
    """Append until the log is full; returns how many were acknowledged."""
    acked = 0
    for n in range(100_000):
        try:
            store.append(gid, {"type": "tick", "n": n, "pad": "x" * 200}, "camera")
        except StoreError as exc:
            assert "full" in str(exc) and "\n" not in str(exc)
            return acked
        acked += 1
    raise AssertionError("the log never filled up")


def test_a_full_disk_refuses_the_event_keeps_the_rest_and_recovers(tmp_path: Path) -> None:
    with Store(tmp_path / "log.sqlite") as store:
        gid = store.new_game("moerder", "M", {}, PLAYERS)
        pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
        store._conn.execute(f"PRAGMA max_page_count = {pages + 4}")  # a few pages of room
        acked = _fill_until_full(store, gid)
        assert acked > 0
        # every acknowledged event is there, and nothing of the refused one
        assert [e.body["n"] for e in store.events(gid)] == list(range(acked))
        store._conn.execute("PRAGMA max_page_count = 1000000")  # space freed
        store.append(gid, {"type": "tick", "n": acked}, "camera")
        assert len(store.events(gid)) == acked + 1 and store.integrity() == "ok"


def test_a_read_only_disk_is_a_clear_error_and_reads_still_work(tmp_path: Path) -> None:
    with Store(tmp_path / "log.sqlite") as store:
        gid = store.new_game("moerder", "M", {}, PLAYERS)
        store.append(gid, {"type": "next"}, "button")
        store._conn.execute("PRAGMA query_only = ON")  # what a remount read-only does to writes
        with pytest.raises(StoreError, match="read-only"):
            store.append(gid, {"type": "next"}, "button")
        with pytest.raises(StoreError, match="read-only"):
            store.new_game("moerder", "M", {}, PLAYERS)
        with pytest.raises(StoreError, match="read-only"):
            store.end_game(gid, {"winner": "A"})
        assert [e.body for e in store.events(gid)] == [{"type": "next"}]  # history still reads
        store._conn.execute("PRAGMA query_only = OFF")
        store.append(gid, {"type": "next"}, "button")
        assert len(store.events(gid)) == 2


# A writer that prints, after each acknowledged append, the WAL's size at that moment: a cut
# beyond that size is a tear of a write nobody was told had happened.
WRITER = r"""
import os, sys
from companion.store import Store
s = Store(sys.argv[1])
gid = s.new_game("moerder", "M", {}, [("A", "red"), ("B", "blue")])
wal = sys.argv[1] + "-wal"
print("ready", flush=True)
n = 0
while True:
    s.append(gid, {"type": "tick", "n": n, "pad": "y" * (n % 500)}, "camera")
    print(f"ack {n} {os.path.getsize(wal)}", flush=True)
    n += 1
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_torn_wal_loses_no_acknowledged_event(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    path = tmp_path / "log.sqlite"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)],
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    acked, wal_at_ack = -1, 0
    for _ in range(rng.randint(20, 120)):
        _, n, size = proc.stdout.readline().split()
        acked, wal_at_ack = int(n), int(size)
    proc.send_signal(signal.SIGKILL)  # the power goes mid-write, before any checkpoint
    for line in proc.stdout:
        if line.endswith("\n"):
            _, n, size = line.split()
            acked, wal_at_ack = int(n), int(size)
    proc.wait()
    wal = Path(str(path) + "-wal")
    size = wal.stat().st_size
    cut = rng.randint(wal_at_ack, max(wal_at_ack, size))  # only the unacknowledged tail tears
    with open(wal, "r+b") as f:
        f.truncate(cut)
        if cut > wal_at_ack:  # the torn frame holds garbage, as a half-written sector would
            f.seek(wal_at_ack)
            f.write(bytes(rng.randrange(256) for _ in range(min(64, cut - wal_at_ack))))
    with Store(path) as store:
        assert store.integrity() == "ok"
        game = store.games()[0]
        got = [e.body["n"] for e in store.events(game.id)]
    assert got[: acked + 1] == list(range(acked + 1)), "an acknowledged event was lost"
    assert got == list(range(len(got)))  # and nothing out of order or half-kept


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"],
        advisor=False, reminder_s=0.0,
    )
    with Store(tmp_path / "log.sqlite") as store, Table(cfg, store, pin_factory=factory) as rt:
        yield rt


def test_the_table_keeps_running_while_its_log_cannot_be_written(table: Table) -> None:
    before = table.snapshot()
    table.store._conn.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreError, match="read-only"):
        table.submit({"action": "turn", "cell": [0, 0], "tile": "M"})
    after = table.snapshot()
    assert table.alive
    assert after["view"] == before["view"] and after["events"] == 0  # nothing shown unrecorded
    table.store._conn.execute("PRAGMA query_only = OFF")
    snap = table.submit({"action": "turn", "cell": [0, 0], "tile": "M"})
    assert snap["view"]["cells"][0][0] == "M" and snap["events"] == 1
    assert len(table.store.events(snap["game_id"])) == 1


def test_a_phone_is_told_the_log_cannot_be_written(table: Table) -> None:
    import web
    from companion.store import hash_pin

    table.store.set_setting("pin_hash", hash_pin("482916", rounds=1000))
    client = web.create_app(table, {}).test_client()
    table.store._conn.execute("PRAGMA query_only = ON")
    response = client.post("/api/action", json={"action": "turn", "cell": [0, 0], "tile": "M"},
                           headers={"X-Companion-Pin": "482916"})
    assert response.status_code == 503
    assert response.get_json()["error"] == "log_unavailable"
    table.store._conn.execute("PRAGMA query_only = OFF")


@pytest.mark.parametrize(("made", "words"), [
    ("version -5", "schema version -5"),
    ("version 1, no tables", "no table"),
    ("a folder", "unable to open"),
])
def test_a_file_that_is_no_event_log_is_a_store_error(tmp_path: Path, made: str,
                                                       words: str) -> None:
    """A negative schema version indexed the migrations from the end, a claimed version
    without tables failed at the first query, and a folder failed closing a connection it
    never had: each a traceback, now one refusal naming the file."""
    import sqlite3

    path = tmp_path / "log.db"
    if made == "a folder":
        path.mkdir()
    else:
        db = sqlite3.connect(path)
        db.execute(f"PRAGMA user_version = {made.split()[1].rstrip(',')}")
        db.close()
    with pytest.raises(StoreError, match=words):
        Store(path)
