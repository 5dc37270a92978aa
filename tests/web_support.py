"""The table the web tests run against.

SCAFFOLD until ``companion.runtime.Runtime`` lands: a small table on the real event log
(``companion.store.Store``, temp SQLite) and the real Mörder rules, keeping to
``web.protocol.TableAPI``. The final tests switch :func:`make_table` to the real runtime.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from companion.games import find_game
from companion.games.base import Timeline
from companion.store import Store

PIN = "482916"
COLOURS = ("red", "green", "blue", "yellow")


class _Sub:
    def __init__(self) -> None:
        self.q: queue.Queue[dict[str, Any]] = queue.Queue()

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return None


class Table:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.rules = find_game("moerder")
        self.version = 0
        self.subs: list[_Sub] = []
        self.lock = threading.Lock()
        self.advisor = False
        self._start({"players": ["Ana", "Ben"], "first": 0})

    def _start(self, setup: Mapping[str, Any]) -> None:
        self.timeline = Timeline.start(self.rules, setup)
        names = list(setup["players"])
        self.game_id = self.store.new_game("moerder", self.rules.title, setup,
                                           [(n, COLOURS[i]) for i, n in enumerate(names)])

    def session_secret(self) -> str:
        return self.store.session_secret()

    def check_pin(self, pin: str) -> bool:
        return self.store.check_pin(pin)

    def snapshot(self) -> dict[str, Any]:
        view = self.rules.view(self.timeline.state)
        return {
            "version": self.version, "game": "moerder", "title": self.rules.title,
            "game_id": self.game_id,
            "players": [{"index": i, "name": p["name"], "colour": COLOURS[i],
                         "on_turn": view["turn"] == i} for i, p in enumerate(view["players"])],
            "view": view, "events": len(self.timeline.states) - 1,
            "can_undo": len(self.timeline.states) > 1,
            "camera": {"status": "none"}, "prompt": None,
            "advisor": {"enabled": self.advisor, "possible": None, "p_end": None,
                        "p_end_se": None},
            "last": None,
        }

    @contextlib.contextmanager
    def subscribe(self) -> Iterator[_Sub]:
        s = _Sub()
        self.subs.append(s)
        try:
            yield s
        finally:
            self.subs.remove(s)

    def submit(self, action: Mapping[str, Any]) -> dict[str, Any]:
        with self.lock:
            kind = action["action"]
            turn = self.timeline.state.turn
            if kind == "settings":
                self.advisor = bool(action["advisor"])
            elif kind == "new_game":
                self._start(action["setup"])
            else:
                body = {
                    "turn": lambda: {"type": "turn_tile", "cell": action["cell"],
                                     "tile": action["tile"]},
                    "next": lambda: {"type": "next"},
                    "claim": lambda: {"type": "claim", "player": turn, "cells": action["cells"]},
                    "quit": lambda: {"type": "quit", "player": turn},
                    "pass": lambda: {"type": "pass", "player": turn},
                    "correct": lambda: {"type": "correct", "cell": action["cell"],
                                        "tile": action["tile"]},
                    "undo": lambda: {"type": "undo"},
                    "event": lambda: dict(action["event"]),
                }[kind]()
                event = self.rules.decode(body)
                timeline, _ = self.timeline.push(event)
                self.store.append(self.game_id, self.rules.encode(event), "web")
                self.timeline = timeline
            self.version += 1
            snap = self.snapshot()
            for s in self.subs:
                s.q.put(snap)
            return snap

    def frames(self) -> Iterator[bytes]:
        import cv2
        import numpy as np

        image = np.full((48, 64, 3), 90, np.uint8)
        ok, jpeg = cv2.imencode(".jpg", image)
        assert ok
        while True:
            yield jpeg.tobytes()

    def history(self) -> list[dict[str, Any]]:
        return [g.summary() for g in self.store.games()]

    def export(self, game_id: int) -> dict[str, Any]:
        return self.store.export(game_id)

    def turn_a_tile_for_the_player_on_turn(self, client: FlaskClient,
                                           headers: Mapping[str, str]) -> None:
        cells = client.get("/api/state").get_json()["view"]["cells"]
        cell = next([r, c] for r in range(6) for c in range(6) if cells[r][c] is None)
        response = client.post("/api/action", json={"action": "turn", "cell": cell, "tile": "M"},
                               headers=headers)
        assert response.status_code == 200, response.get_json()


@contextlib.contextmanager
def make_table(tmp: Path) -> Iterator[Table]:
    with Store(tmp / "table.sqlite") as store:
        store.set_pin(PIN)
        yield Table(store)


class Site:
    """A dashboard being served on a free port, with its PIN and ways to move the table."""

    def __init__(self, url: str, port: int, pin: str, table: Table) -> None:
        self.url = url
        self.port = port
        self.pin = pin
        self._table = table

    def turn_a_tile(self) -> None:
        """What the camera does: a face-down tile turned for the player on turn."""
        cells = self._table.snapshot()["view"]["cells"]
        cell = next([r, c] for r in range(6) for c in range(6) if cells[r][c] is None)
        self._table.submit({"action": "turn", "cell": cell, "tile": "M"})

    def fresh_game(self) -> None:
        self._table.submit({"action": "new_game", "game": "moerder",
                            "setup": {"players": ["Ana", "Ben", "Cem"], "first": 0}})


@contextlib.contextmanager
def start_site(tmp: Path) -> Iterator[Site]:
    import web

    with make_table(tmp) as table:
        app = web.create_app(table, {"heartbeat_s": 5.0})
        with web.Server(app, host="0.0.0.0", port=0) as server:
            lan = web.api.lan_address() or "127.0.0.1"
            yield Site(f"http://{lan}:{server.port}/", server.port, PIN, table)
