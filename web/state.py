"""What one app instance holds: its runtime, settings, limiter and stream slots.

Kept in ``app.extensions`` rather than in module globals, so every ``create_app`` (one per
test) starts clean and two apps in one process never share a limiter or a stream count.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import current_app

from web.config import WebConfig
from web.limiter import AttemptLimiter

if TYPE_CHECKING:
    from web.protocol import TableAPI

EXTENSION = "companion"


class Slots:
    """A counted pool of long-lived streams (SSE, camera); ``try_take`` never blocks."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._used = 0
        self._lock = threading.Lock()

    def try_take(self) -> bool:
        with self._lock:
            if self._used >= self.size:
                return False
            self._used += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            if self._used > 0:
                self._used -= 1

    @property
    def used(self) -> int:
        with self._lock:
            return self._used


@dataclass
class WebState:
    """Everything one app's views share, reached through :func:`web_state` (see above)."""

    runtime: TableAPI
    config: WebConfig
    limiter: AttemptLimiter
    streams: Slots
    cameras: Slots
    renderers: tuple[str, ...] = ()
    # games whose wording (labels, and how codes become sentences) is a script of its own,
    # static/js/words/<game>.js, loaded before the renderers
    words: tuple[str, ...] = ()
    # parts of a game's page too big for one script (static/js/parts/<game>.js), loaded after
    # the words and before the renderers
    parts: tuple[str, ...] = ()
    asset_version: str = "0"
    # keyed digests of PINs the runtime confirmed lately, with their expiry (see auth.check_pin)
    pin_cache: dict[bytes, float] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic
    # set when the server shuts down: live streams end instead of holding their threads
    closing: threading.Event = field(default_factory=threading.Event)
    # replay results of finished games, by game id (a finished game never changes)
    replays: dict[int, dict[str, object]] = field(default_factory=dict)
    replay_lock: threading.Lock = field(default_factory=threading.Lock)


def web_state() -> WebState:
    """The state of the app serving this request (views know no app object of their own)."""
    state: WebState = current_app.extensions[EXTENSION]
    return state
