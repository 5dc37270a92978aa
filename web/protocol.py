"""What the web edge needs from the table runtime, and nothing more.

``web.create_app(runtime, config)`` takes any object with these methods; the real one is
``companion.table.Table``. Keeping the seam this small lets the web be tested against a
real runtime with a replay camera and MockFactory pins, and keeps Flask out of the core.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import AbstractContextManager
from typing import Any, Protocol

from companion.table import publish as _publish

Busy = _publish.Busy  # every live-stream slot is taken; the web answers 503


class Subscription(Protocol):
    def get(self, timeout: float) -> dict[str, Any] | None:
        """The next state-change message, or ``None`` when ``timeout`` passes without one."""


class TableAPI(Protocol):
    def snapshot(self) -> dict[str, Any]:
        """The table's state as JSON: game, players, turn, board/view, prompts, camera status."""

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """Messages for one SSE client until the context exits; raises ``Busy`` when full."""

    def submit(self, action: Mapping[str, Any]) -> dict[str, Any]:
        """Carry out a phone's action (``{"action": "next" | "claim" | …}``) durably.

        Raises ``companion.errors.InputError`` for a malformed action (HTTP 400) and
        ``companion.games.base.Refused`` for one the rules do not allow now (HTTP 409).
        Returns the new snapshot once the event is committed.
        """

    def frames(self) -> Iterator[bytes]:
        """JPEG frames of the camera with the detected lattice drawn on, for MJPEG."""

    def history(self) -> list[dict[str, Any]]:
        """Past and current games from the event log, newest first (id, game, players, …)."""

    def export(self, game_id: int) -> dict[str, Any]:
        """One game's set-up and events as JSON; raises ``KeyError`` for an unknown id."""

    def check_pin(self, pin: str) -> bool:
        """Whether ``pin`` is the table PIN (stored hashed; compared in constant time)."""

    def session_secret(self) -> str:
        """The key that signs web sessions; made once and stored, so logins survive restarts."""

    def lock_logins(self, seconds: float) -> None:
        """Logins wait ``seconds`` after a burst of wrong PINs: the table shows and sounds it."""
