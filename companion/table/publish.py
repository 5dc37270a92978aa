"""What the phones see: the newest snapshot, and a live feed of them for each phone.

The table's thread publishes; web threads read. A slow phone loses old snapshots, it never
blocks the table. Live streams (SSE feeds and the camera's MJPEG) share one bounded number of
slots, so a crowd of viewers cannot starve the table's own work.
"""

from __future__ import annotations

import copy
import queue
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from companion.errors import CompanionError


class Busy(CompanionError, RuntimeError):
    """Every live-stream slot is taken; the web answers 503."""


class Subscription:
    """One phone's queue of snapshots; the oldest is dropped when it falls behind."""

    def __init__(self, depth: int = 8) -> None:
        self._q: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=depth)

    def put(self, message: dict[str, Any] | None) -> None:
        while True:
            try:
                self._q.put_nowait(message)
                return
            except queue.Full:
                try:
                    self._q.get_nowait()
                except queue.Empty:
                    pass

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None


class Publisher:
    """The snapshot, its version, the subscribers and the stream slots."""

    def __init__(self, max_streams: int) -> None:
        self._lock = threading.Lock()
        self._version = 0
        self._snapshot: dict[str, Any] = {}
        self._subscribers: set[Subscription] = set()
        self._others = 0  # slots held by streams that are not subscribers (MJPEG)
        self.max_streams = max_streams

    def publish(self, snapshot: dict[str, Any]) -> None:
        """Number the snapshot and hand a copy to every subscriber."""
        with self._lock:
            self._version += 1
            self._snapshot = {"version": self._version, **snapshot}
            message = copy.deepcopy(self._snapshot)
            for sub in self._subscribers:
                sub.put(message)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(self._snapshot)

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """A live feed for one phone; :class:`Busy` when all slots are taken."""
        with self._lock:
            self._check_slot()
            sub = Subscription()
            self._subscribers.add(sub)
        return self._held(sub)

    @contextmanager
    def _held(self, sub: Subscription) -> Iterator[Subscription]:
        try:
            yield sub
        finally:
            with self._lock:
                self._subscribers.discard(sub)

    def take_slot(self) -> None:
        """Hold a slot for a stream that is not a subscriber; :class:`Busy` when full."""
        with self._lock:
            self._check_slot()
            self._others += 1

    def give_slot(self) -> None:
        with self._lock:
            self._others -= 1

    def _check_slot(self) -> None:
        if len(self._subscribers) + self._others >= self.max_streams:
            raise Busy(f"all {self.max_streams} live streams are in use; try again later")

    def close(self) -> None:
        """End every feed (each phone's stream returns)."""
        with self._lock:
            for sub in list(self._subscribers):
                sub.put(None)


class PhoneView:
    """What the web edge asks of a table (``web.protocol.TableAPI``), served from the
    publisher, the camera's frames and the log; never from the table's thread."""

    publisher: Publisher
    store: Any
    _frames: Any

    def snapshot(self) -> dict[str, Any]:
        return self.publisher.snapshot()

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """A live feed of snapshots for one phone; :class:`Busy` when all slots are taken."""
        return self.publisher.subscribe()

    def frames(self) -> Iterator[bytes]:
        """JPEG frames with what the reader found drawn on, for MJPEG; holds a stream slot."""
        frames: Iterator[bytes] = self._frames.stream()
        return frames

    def history(self) -> list[dict[str, Any]]:
        return [g.summary() for g in self.store.games()]

    def export(self, game_id: int) -> dict[str, Any]:
        exported: dict[str, Any] = self.store.export(game_id)
        return exported

    def check_pin(self, pin: str) -> bool:
        return isinstance(pin, str) and bool(self.store.check_pin(pin))

    def session_secret(self) -> str:
        return str(self.store.session_secret())


__all__ = ["Busy", "PhoneView", "Publisher", "Subscription"]
