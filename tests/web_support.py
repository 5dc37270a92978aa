"""The table the web tests run against (scaffolding until companion.runtime lands)."""

from __future__ import annotations

import contextlib
import hmac
import queue
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.games.base import Refused

PIN = "482916"


class _Sub:
    def __init__(self) -> None:
        self.q: queue.Queue[dict[str, Any]] = queue.Queue()

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return None


class Table:
    def __init__(self) -> None:
        self.version = 0
        self.subs: list[_Sub] = []
        self.cells: list[list[str | None]] = [[None] * 6 for _ in range(6)]
        self.turn = 0
        self.turned = False
        self.events: list[dict[str, Any]] = []

    def session_secret(self) -> str:
        return "ab" * 32

    def check_pin(self, pin: str) -> bool:
        return hmac.compare_digest(pin.encode(), PIN.encode())

    def snapshot(self) -> dict[str, Any]:
        return {"version": self.version, "game": "moerder", "title": "Finde den Mörder",
                "game_id": 1,
                "players": [{"index": 0, "name": "Ana", "colour": "red", "on_turn": self.turn == 0},
                            {"index": 1, "name": "Ben", "colour": "blue", "on_turn": self.turn == 1}],
                "view": {"game": "moerder", "cells": [list(r) for r in self.cells],
                         "turn": self.turn, "phase": "playing", "pending": []},
                "camera": {"status": "ok"}, "prompt": None, "advisor": {"enabled": False},
                "last": None, "can_undo": bool(self.events)}

    @contextlib.contextmanager
    def subscribe(self) -> Iterator[_Sub]:
        s = _Sub()
        self.subs.append(s)
        try:
            yield s
        finally:
            self.subs.remove(s)

    def submit(self, action: Mapping[str, Any]) -> dict[str, Any]:
        kind = action["action"]
        if kind == "claim":
            raise Refused("claim_invalid", "no chain")
        if kind == "event":
            from companion.games.base import EventError
            raise EventError("unknown event type")
        if kind == "turn":
            r, c = action["cell"]
            self.cells[r][c] = action["tile"]
            self.turned = True
        if kind == "next":
            if not self.turned:
                raise Refused("tile_not_turned", "turn a tile first")
            self.turn = 1 - self.turn
            self.turned = False
        self.events.append(dict(action))
        self.version += 1
        for s in self.subs:
            s.q.put(self.snapshot())
        return self.snapshot()

    def frames(self) -> Iterator[bytes]:
        while True:
            yield b"\xff\xd8fake\xff\xd9"

    def history(self) -> list[dict[str, Any]]:
        return [{"id": 1, "game": "moerder", "title": "Finde den Mörder", "players": ["Ana", "Ben"],
                 "started": "x", "ended": None, "events": len(self.events)}]

    def export(self, game_id: int) -> dict[str, Any]:
        if game_id != 1:
            raise KeyError(game_id)
        return {"id": 1, "game": "moerder", "setup": {}, "events": []}

    def turn_a_tile_for_the_player_on_turn(self, client: FlaskClient,
                                           headers: Mapping[str, str]) -> None:
        for r in range(6):
            for c in range(6):
                if self.cells[r][c] is None:
                    response = client.post("/api/action", json={"action": "turn", "cell": [r, c],
                                                                 "tile": "M"}, headers=headers)
                    assert response.status_code == 200, response.get_json()
                    return


@contextlib.contextmanager
def make_table(tmp: Path) -> Iterator[Table]:
    yield Table()
