"""The table's memory: every game and every accepted event, in SQLite, durably.

A game's state is never stored, only its set-up and events; the runtime folds them back on
start (``companion.games.base.fold``), so a power cut costs nothing that was acknowledged.
WAL mode lets the web read history while the table writes; ``synchronous=FULL`` makes a
commit reach the disk before :meth:`Store.append` returns, and only then does the runtime
show the event to anyone. Undo and corrections are ordinary events.

The schema carries a version (``PRAGMA user_version``); :data:`MIGRATIONS` upgrades an old
file step by step on open, and a file from a newer companion is refused rather than damaged.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.errors import CompanionError

_log = logging.getLogger(__name__)

EXPORT_FORMAT = 1

# MIGRATIONS[i] takes a database from version i to i + 1.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game     TEXT NOT NULL,
        title    TEXT NOT NULL,
        setup    TEXT NOT NULL,              -- JSON, what GameRules.new received
        started  REAL NOT NULL,              -- Unix time
        ended    REAL,
        result   TEXT                        -- JSON, e.g. {"winner": "Ana", "reason": "claim"}
    );
    CREATE TABLE players (
        game_id  INTEGER NOT NULL REFERENCES games(id),
        seat     INTEGER NOT NULL,
        name     TEXT NOT NULL,
        colour   TEXT NOT NULL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE TABLE events (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id  INTEGER NOT NULL REFERENCES games(id),
        seq      INTEGER NOT NULL,           -- 1, 2, … within its game
        at       REAL NOT NULL,
        source   TEXT NOT NULL,              -- camera | button | web | system
        body     TEXT NOT NULL,              -- JSON, the game's encoded event
        UNIQUE (game_id, seq)
    );
    CREATE TABLE settings (
        key      TEXT PRIMARY KEY,
        value    TEXT NOT NULL
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
TABLES = frozenset({"games", "players", "events", "settings"})


def _an_id(game_id: int) -> bool:
    """Can ``game_id`` be a game's row id? SQLite's are positive 64-bit integers, and a
    larger one (a URL's) would not even reach the query: it is no game, not an error."""
    return isinstance(game_id, int) and 0 < game_id < 2**63


class StoreError(CompanionError, RuntimeError):
    """The event log cannot be opened or written (newer schema, damaged file, full disk…)."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    title: str
    setup: dict[str, Any]
    players: tuple[tuple[str, str], ...]  # (name, colour) per seat
    started: float
    ended: float | None
    result: dict[str, Any] | None
    events: int

    def summary(self) -> dict[str, Any]:
        """The JSON the history page lists."""
        return {
            "id": self.id,
            "game": self.game,
            "title": self.title,
            "players": [name for name, _ in self.players],
            "started": _iso(self.started),
            "ended": _iso(self.ended) if self.ended is not None else None,
            "in_progress": self.ended is None,
            "events": self.events,
            "winner": (self.result or {}).get("winner"),
            # "abandoned": another game took the table before this one ended
            "reason": (self.result or {}).get("reason"),
        }


@dataclass(frozen=True)
class EventRecord:
    game_id: int
    seq: int
    at: float
    source: str
    body: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": _iso(self.at), "source": self.source, "event": self.body}


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="milliseconds")


class Store:
    """One SQLite file. Thread-safe (one connection behind a lock); a context manager."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Callable[[], None]] = []
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db: sqlite3.Connection | None = None  # closed as it is, should opening fail
        try:
            self._db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=10.0
            )
            self._db.execute("PRAGMA journal_mode=WAL").fetchone()
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            self.close()
            raise StoreError(f"{self.path}: {exc}") from None

    # --- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError("the event log is closed")
        return self._db

    def _migrate(self) -> None:
        db = self._conn
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version < 0:
            raise StoreError(f"{self.path}: not an event log (schema version {version})")
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} has schema version {version}; this companion knows up to "
                f"{SCHEMA_VERSION} (update the companion)"
            )
        for target in range(version, SCHEMA_VERSION):
            _log.info("migrating %s to schema version %d", self.path, target + 1)
            # executescript commits first; the version bump rides in the same script.
            db.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[target]}\nPRAGMA user_version = {target + 1};\nCOMMIT;"
            )
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = sorted(TABLES - tables)
        if missing:  # a file that says it is a log, without a log's tables
            raise StoreError(f"{self.path}: not an event log (no table {', '.join(missing)})")

    def _write(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        with self._lock:
            db = self._conn
            try:
                db.execute("BEGIN IMMEDIATE")
                cur = db.execute(sql, params)
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _write_error(exc) from exc
                raise
            return cur

    # --- games and events -----------------------------------------------------------------

    def new_game(
        self,
        game: str,
        title: str,
        setup: Mapping[str, Any],
        players: Sequence[tuple[str, str]],
    ) -> int:
        """Record a new game (its set-up and seats) and return its id; durable on return."""
        with self._lock:
            db = self._conn
            try:
                db.execute("BEGIN IMMEDIATE")
                cur = db.execute(
                    "INSERT INTO games (game, title, setup, started) VALUES (?, ?, ?, ?)",
                    (game, title, json.dumps(dict(setup), ensure_ascii=False), self._clock()),
                )
                game_id = cur.lastrowid
                assert game_id is not None
                db.executemany(
                    "INSERT INTO players (game_id, seat, name, colour) VALUES (?, ?, ?, ?)",
                    [(game_id, i, name, colour) for i, (name, colour) in enumerate(players)],
                )
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _write_error(exc) from exc
                raise
        self._notify()
        return game_id

    def listen(self, wake: Callable[[], None]) -> None:
        """Call ``wake`` after every write of a game or event, on the writer's thread: a
        reader of the log (the club's publisher) learns of new events without polling, and
        ``wake`` must only set a flag, never block the table."""
        self._listeners.append(wake)

    def _notify(self) -> None:
        for wake in list(self._listeners):
            wake()

    def append(
        self, game_id: int, body: Mapping[str, Any], source: str, *,
        reopen: bool = False, end: Mapping[str, Any] | None = None,
    ) -> EventRecord:
        """Add one event to a game's log. Returns only after the commit is on disk.

        ``reopen``: the event undoes the game's end, so the log takes it; ``end``: the event
        ends the game with this result. Either is written in the event's own transaction, so a
        power cut never leaves a won game recorded as still running (or the other way round).
        """
        if not _an_id(game_id):
            raise KeyError(game_id)
        text = json.dumps(dict(body), ensure_ascii=False)
        with self._lock:
            db = self._conn
            try:
                db.execute("BEGIN IMMEDIATE")
                if reopen:
                    db.execute("UPDATE games SET ended = NULL, result = NULL WHERE id = ?",
                               (game_id,))
                row = db.execute(
                    "SELECT ended, (SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?)"
                    " FROM games WHERE id = ?",
                    (game_id, game_id),
                ).fetchone()
                if row is None:
                    raise KeyError(game_id)
                if row[0] is not None:
                    raise StoreError(f"game {game_id} has ended; its log is closed")
                seq = int(row[1]) + 1
                at = self._clock()
                db.execute(
                    "INSERT INTO events (game_id, seq, at, source, body) VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, at, source, text),
                )
                if end is not None:
                    db.execute("UPDATE games SET ended = ?, result = ? WHERE id = ?",
                               (at, json.dumps(dict(end), ensure_ascii=False), game_id))
                db.execute("COMMIT")
            except BaseException as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise _write_error(exc) from exc
                raise
        self._notify()
        return EventRecord(game_id, seq, at, source, json.loads(text))

    def end_game(self, game_id: int, result: Mapping[str, Any]) -> None:
        cur = self._write(
            "UPDATE games SET ended = ?, result = ? WHERE id = ? AND ended IS NULL",
            (self._clock(), json.dumps(dict(result), ensure_ascii=False), game_id),
        )
        if cur.rowcount == 0:
            self.game(game_id)  # raises KeyError for an unknown game; ending twice is harmless

    def events(self, game_id: int) -> list[EventRecord]:
        if not _an_id(game_id):
            return []
        with self._lock:
            rows = self._conn.execute(
                "SELECT seq, at, source, body FROM events WHERE game_id = ? ORDER BY seq",
                (game_id,),
            ).fetchall()
        return [EventRecord(game_id, s, a, src, json.loads(b)) for s, a, src, b in rows]

    def log_after(self, after: int, limit: int) -> list[tuple[int, EventRecord]]:
        """Events of every game in the order they were written (by the log's row id), from
        the one after row ``after``: the club's outbox reads the log from its mark."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT id, game_id, seq, at, source, body FROM events WHERE id > ?"
                " ORDER BY id LIMIT ?", (after, limit)).fetchall()
        return [(i, EventRecord(g, s, a, src, json.loads(b))) for i, g, s, a, src, b in rows]

    def last_row(self, before_game: int | None = None) -> int:
        """The newest event's row id (0 for none); with ``before_game``, the newest row
        written before that game's first event."""
        with self._lock:
            if before_game is None:
                row = self._conn.execute("SELECT COALESCE(MAX(id), 0) FROM events").fetchone()
            else:
                row = self._conn.execute(
                    "SELECT COALESCE(MAX(id), 0) FROM events WHERE game_id < ?",
                    (before_game,)).fetchone()
        return int(row[0])

    def game(self, game_id: int) -> GameRecord:
        """One game's record; ``KeyError`` for an unknown id."""
        if not _an_id(game_id):
            raise KeyError(game_id)
        games = self._games("WHERE g.id = ?", (game_id,))
        if not games:
            raise KeyError(game_id)
        return games[0]

    def games(self, limit: int = 100) -> list[GameRecord]:
        """Past and current games, newest first."""
        return self._games("ORDER BY g.id DESC LIMIT ?", (limit,))

    def current(self) -> GameRecord | None:
        """The newest game still in progress, which the runtime resumes on start."""
        games = self._games("WHERE g.ended IS NULL ORDER BY g.id DESC LIMIT 1", ())
        return games[0] if games else None

    def _games(self, tail: str, params: Sequence[Any]) -> list[GameRecord]:
        with self._lock:
            db = self._conn
            rows = db.execute(
                "SELECT g.id, g.game, g.title, g.setup, g.started, g.ended, g.result,"
                " (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) FROM games g " + tail,
                params,
            ).fetchall()
            out = []
            for gid, game, title, setup, started, ended, result, n in rows:
                seats = db.execute(
                    "SELECT name, colour FROM players WHERE game_id = ? ORDER BY seat", (gid,)
                ).fetchall()
                out.append(
                    GameRecord(
                        gid,
                        game,
                        title,
                        json.loads(setup),
                        tuple((str(a), str(b)) for a, b in seats),
                        started,
                        ended,
                        json.loads(result) if result is not None else None,
                        n,
                    )
                )
        return out

    def export(self, game_id: int) -> dict[str, Any]:
        """A game's set-up and events as JSON, enough to replay it elsewhere."""
        record = self.game(game_id)
        return {
            "format": EXPORT_FORMAT,
            "id": record.id,
            "game": record.game,
            "title": record.title,
            "setup": record.setup,
            "players": [{"name": n, "colour": c} for n, c in record.players],
            "started": _iso(record.started),
            "ended": _iso(record.ended) if record.ended is not None else None,
            "result": record.result,
            "events": [e.to_json() for e in self.events(game_id)],
        }

    # --- settings -------------------------------------------------------------------------

    def setting(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_setting(self, key: str, value: str) -> None:
        self._write(
            "INSERT INTO settings (key, value) VALUES (?, ?)"
            " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def session_secret(self) -> str:
        """The web's session key, made once so logins survive restarts."""
        with self._lock:
            secret = self.setting("session_secret")
            if secret is None:
                secret = secrets.token_hex(32)
                self.set_setting("session_secret", secret)
            return secret

    def set_pin(self, pin: str) -> None:
        self.set_setting("pin_hash", hash_pin(pin))

    def roll_pin(self) -> str:
        """A new PIN (returned once, stored hashed) and a new session key, so every session
        signed with the old one ends, on a table running now as after a restart."""
        pin = new_pin()
        with self._lock:
            self.set_pin(pin)
            self.set_setting("session_secret", secrets.token_hex(32))
        return pin

    def check_pin(self, pin: str) -> bool:
        stored = self.setting("pin_hash")
        return stored is not None and verify_pin(pin, stored)

    def has_pin(self) -> bool:
        return self.setting("pin_hash") is not None

    def integrity(self) -> str:
        """SQLite's own check: ``"ok"`` for a sound file."""
        with self._lock:
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])


# --- the table PIN -----------------------------------------------------------------------------

_PBKDF2_ROUNDS = 200_000


def _write_error(exc: sqlite3.Error) -> StoreError:
    """What a failed write means for the people at the table, in one line: nothing of it was
    kept, everything acknowledged before it still is."""
    text = str(exc)
    if "full" in text:
        return StoreError(f"the event log is full ({text}): free space on its disk; "
                          "nothing of this event was written")
    if "readonly" in text or "read-only" in text:
        return StoreError(f"the event log cannot be written ({text}): its disk is read-only")
    return StoreError(f"the event log could not be written: {text}")


def new_pin(digits: int = 6) -> str:
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def hash_pin(pin: str, rounds: int = _PBKDF2_ROUNDS) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, rounds)
    return f"pbkdf2_sha256${rounds}${salt.hex()}${digest.hex()}"


def verify_pin(pin: str, stored: str) -> bool:
    try:
        scheme, rounds, salt, digest = stored.split("$")
        if scheme != "pbkdf2_sha256":
            return False
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds))
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)
