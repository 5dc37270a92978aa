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
    """Failed PIN attempts per client address in a sliding window, and from all addresses
    together in a second one; thread-safe, in memory.

    The per-address limit stops one phone guessing; the global one stops a guess spread over
    many addresses (each address is cheap on a LAN), and it holds however many addresses the
    per-address table has forgotten. While the global limit holds, even the right PIN waits:
    a lock-out that let the right PIN through would tell a guesser when they had it.
    """

    def __init__(
        self, attempts: int, window_s: float, clock: Callable[[], float] = time.monotonic,
        global_attempts: int = 30, global_window_s: float = 60.0,
    ) -> None:
        self._attempts = attempts
        self._window = window_s
        self._clock = clock
        self._failures: OrderedDict[str, deque[float]] = OrderedDict()
        self._global: deque[float] = deque(maxlen=global_attempts)
        self._global_window = global_window_s
        self._lock = threading.Lock()

    def locked_for(self) -> float | None:
        """Seconds until anyone may try a PIN again after a burst of wrong ones, or ``None``."""
        now = self._clock()
        with self._lock:
            return self._global_wait(now)

    def _global_wait(self, now: float) -> float | None:
        full = self._global.maxlen is not None and len(self._global) >= self._global.maxlen
        if not full or self._global[0] <= now - self._global_window:
            return None
        return max(self._global[0] + self._global_window - now, 0.0)

    def retry_after(self, who: str) -> float | None:
        """Seconds until ``who`` may try again, or ``None`` if it may try now."""
        now = self._clock()
        with self._lock:
            locked = self._global_wait(now)
            if locked is not None:
                return locked
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
            self._global.append(now)
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
