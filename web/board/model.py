"""The room as the board knows it: each table's newest standing, and every game's result.

Messages come from the broker with QoS 1, so one may come twice (a table resends what it sent
before the broker's acknowledgement was lost; a restarted table resends from its mark). Each
event is counted once by its key (table, log, game, seq): a game keeps the highest run of
seqs seen without a gap plus the few seen beyond it, so memory grows with games, not events.
A table's retained state carries the same standing as its newest event, so a board that
started late (or missed an event) still shows the truth.
"""

from __future__ import annotations

import collections
import json
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from web.board import standings

LAGS = 10_000  # the newest commit-to-board delays kept for the bench


@dataclass
class GameSeen:
    """One game of one table: the seqs seen and its standing at the highest."""

    upto: int = 0
    beyond: set[int] = field(default_factory=set)
    summary: dict[str, Any] | None = None
    seq: int = -1

    def first_time(self, seq: int) -> bool:
        """Note ``seq``; False when it was seen before."""
        if seq <= self.upto or seq in self.beyond:
            return False
        self.beyond.add(seq)
        while self.upto + 1 in self.beyond:
            self.upto += 1
            self.beyond.discard(self.upto)
        return True

    def take(self, summary: Mapping[str, Any]) -> None:
        seq = int(summary.get("seq", 0))
        if seq >= self.seq:
            self.summary, self.seq = dict(summary), seq


@dataclass
class TableSeen:
    name: str
    online: bool = False
    log: str = ""
    game: tuple[str, int] | None = None  # (log, game id) of the game on the table
    events: int = 0  # distinct events seen
    updated: float = 0.0


class Board:
    """Thread-safe: paho's thread hands messages in, web threads read JSON out."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._tables: dict[str, TableSeen] = {}
        self._games: dict[tuple[str, str, int], GameSeen] = {}
        self.duplicates = 0
        self.lags: collections.deque[float] = collections.deque(maxlen=LAGS)

    def take(self, topic: str, payload: bytes) -> None:
        """One message of ``companion/<table>/<kind>``; malformed ones are dropped."""
        parts = topic.split("/")
        if len(parts) != 3 or parts[0] != "companion":
            return
        try:
            body = json.loads(payload) if payload else None
        except (ValueError, UnicodeDecodeError):
            return
        if not isinstance(body, dict):
            return
        now = self._clock()
        with self._lock:
            table = self._tables.setdefault(parts[1], TableSeen(parts[1]))
            try:
                if parts[2] == "event":
                    self._event(table, body, now)
                elif parts[2] == "state":
                    self._state(table, body, now)
                elif parts[2] == "status":
                    table.online = body.get("status") == "online"
            except (KeyError, TypeError, ValueError):
                return

    def _event(self, table: TableSeen, body: dict[str, Any], now: float) -> None:
        log, game_id, seq = str(body["log"]), int(body["game_id"]), int(body["seq"])
        game = self._games.setdefault((table.name, log, game_id), GameSeen())
        if not game.first_time(seq):
            self.duplicates += 1
            return
        table.events += 1
        self.lags.append(now - float(body["at"]))
        summary = body.get("summary")
        if isinstance(summary, dict):
            game.take(summary)
            self._follow(table, log, game_id, now)

    def _state(self, table: TableSeen, body: dict[str, Any], now: float) -> None:
        summary = body["game"]
        log, game_id = str(body["log"]), int(summary["game_id"])
        self._games.setdefault((table.name, log, game_id), GameSeen()).take(summary)
        table.online = True
        self._follow(table, log, game_id, now)

    @staticmethod
    def _follow(table: TableSeen, log: str, game_id: int, now: float) -> None:
        """The table's game is its newest one (a higher id in the same log, or a new log)."""
        if table.game is None or table.game[0] != log or game_id >= table.game[1]:
            table.game = (log, game_id)
            table.log = log
        table.updated = now

    # --- reading --------------------------------------------------------------------------

    def tables(self) -> list[dict[str, Any]]:
        """Every table, by name: its game as it stands."""
        with self._lock:
            out = []
            for name in sorted(self._tables):
                table = self._tables[name]
                game = None if table.game is None else self._games.get((name, *table.game))
                out.append({
                    "table": name, "online": table.online, "events": table.events,
                    "updated": table.updated,
                    "game": None if game is None or game.summary is None else dict(game.summary),
                })
            return out

    def standings(self) -> dict[str, Any]:
        with self._lock:
            finished = [dict(g.summary) for g in self._games.values()
                        if g.summary is not None and g.summary.get("over")]
        return standings.of(finished)

    def counted(self) -> dict[str, int]:
        """Distinct events seen per table (the tests and the bench compare it with the logs)."""
        with self._lock:
            return {name: t.events for name, t in self._tables.items()}

    def seqs(self, table: str) -> dict[int, int]:
        """For each game of ``table`` (newest log): the highest seq seen without a gap."""
        with self._lock:
            return {gid: g.upto for (name, _, gid), g in self._games.items() if name == table}


__all__ = ["Board", "GameSeen"]
