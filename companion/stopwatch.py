"""Wall-clock time for the edges: the pure game code reads no clock, so callers that need a
time limit (the CLI's solvers) build it here and hand the core a ``should_stop`` callback."""

from __future__ import annotations

import time


class Stopwatch:
    """Started on creation; ``expired`` is a ready-made ``should_stop`` for a time limit."""

    def __init__(self, limit: float | None = None) -> None:
        self._began = time.monotonic()
        self.limit = limit

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._began

    def expired(self) -> bool:
        return self.limit is not None and self.elapsed >= self.limit
