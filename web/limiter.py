"""Failed PIN attempts per client address, counted apart from the views that check PINs.

The limiter is part of what one app instance holds (``web.state``) and is used by the PIN
checks (``web.auth``); living in neither of them keeps those two from importing each other.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

# Addresses remembered by the limiter; the oldest are forgotten first, so a flood of
# addresses cannot grow memory without bound.
MAX_TRACKED_ADDRESSES = 4096


class AttemptLimiter:
    """Failed PIN attempts per client address in a sliding window; thread-safe, in memory."""

    def __init__(
        self, attempts: int, window_s: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._attempts = attempts
        self._window = window_s
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def retry_after(self, who: str) -> float | None:
        """Seconds until ``who`` may try again, or ``None`` if it may try now."""
        now = self._clock()
        with self._lock:
            times = self._failures.get(who)
            if times is None:
                return None
            while times and times[0] <= now - self._window:
                times.popleft()
            if not times:
                del self._failures[who]
                return None
            if len(times) < self._attempts:
                return None
            return max(times[0] + self._window - now, 0.0)

    def failed(self, who: str) -> None:
        """Count a wrong PIN; only the newest ``attempts`` matter, so memory stays bounded."""
        now = self._clock()
        with self._lock:
            times = self._failures.setdefault(who, deque())
            self._failures.move_to_end(who)
            times.append(now)
            while len(times) > self._attempts:
                times.popleft()
            while len(self._failures) > MAX_TRACKED_ADDRESSES:
                self._failures.popitem(last=False)

    def succeeded(self, who: str) -> None:
        """A right PIN forgives the client's earlier typos."""
        with self._lock:
            self._failures.pop(who, None)


__all__ = ["MAX_TRACKED_ADDRESSES", "AttemptLimiter"]
