"""The one timer a game's state asks for (a sand timer, a turn's time limit), run by the table.

A game never reads a clock: it names the timer it wants in its
:class:`~companion.games.base.TableView` and the table runs it here. Because the request is a
fact of the state, undo, a new game and a restart need no special case: whatever the state
asks for is what runs. A fresh ``key`` starts a fresh timer; the same key carries on.

:class:`Countdown` is a pure state machine driven by explicit times (like the panel's
gestures), so tests move time by hand. Elapsed time is kept on the monotonic clock and
checkpointed (:meth:`Countdown.checkpoint`) so that a restart carries on where the timer
stood; the time the companion was off does not count, like a sand timer laid on its side.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.errors import InputError
from companion.games.base import TimerExpired, TimerRequest, TimerStarted, TimerWarned

AnyTimerEffect = TimerStarted | TimerWarned | TimerExpired


@dataclass(frozen=True)
class Countdown:
    """A running (or paused) timer: ``elapsed`` seconds before ``since`` (monotonic; None
    while paused)."""

    request: TimerRequest
    elapsed: float = 0.0
    since: float | None = None
    warned: bool = False
    expired: bool = False

    @property
    def paused(self) -> bool:
        return self.since is None

    def run_for(self, now: float) -> float:
        return self.elapsed + (0.0 if self.since is None else max(0.0, now - self.since))

    def left(self, now: float) -> float:
        return max(0.0, self.request.seconds - self.run_for(now))

    def pause(self, now: float) -> Countdown:
        return self if self.since is None else replace(self, elapsed=self.run_for(now), since=None)

    def resume(self, now: float) -> Countdown:
        return self if self.since is not None else replace(self, since=now)

    def due(self, now: float) -> float | None:
        """Seconds until the next thing to announce (warning or end); None while paused."""
        if self.since is None or self.expired:
            return None
        left = self.left(now)
        return max(0.0, left - self.request.warn_s) if not self.warned else left

    def step(self, now: float) -> tuple[Countdown, tuple[AnyTimerEffect, ...]]:
        """Announce what time has brought: the warning once, then the end once."""
        req = self.request
        if self.since is None or self.expired:
            return self, ()
        left = self.left(now)
        if left <= 0:
            return replace(self, warned=True, expired=True), (TimerExpired(req.key, req.seat),)
        if not self.warned and left <= req.warn_s:
            return replace(self, warned=True), (TimerWarned(req.key, round(left, 1), req.seat),)
        return self, ()

    def checkpoint(self, now: float) -> dict[str, Any]:
        """What to keep so a restart carries on (JSON)."""
        return {"key": self.request.key, "elapsed": round(self.run_for(now), 3),
                "paused": self.paused, "warned": self.warned}

    def view(self, now: float) -> dict[str, Any]:
        """The timer as the phones draw it."""
        req = self.request
        return {"key": req.key, "seconds": req.seconds, "left_s": round(self.left(now), 1),
                "seat": req.seat, "paused": self.paused, "warn_s": req.warn_s}


def follow(
    current: Countdown | None, wanted: TimerRequest | None, now: float,
    saved: Mapping[str, Any] | None = None,
) -> tuple[Countdown | None, tuple[AnyTimerEffect, ...]]:
    """The countdown for what the state wants now: the same one, a fresh one, or none.

    ``saved`` (a :meth:`Countdown.checkpoint` from before a restart) resumes a timer of the
    same key where it stood.
    """
    if wanted is None:
        return None, ()
    if current is not None and current.request.key == wanted.key:
        return replace(current, request=wanted), ()
    if saved is not None and saved.get("key") == wanted.key:
        elapsed = float(saved.get("elapsed", 0.0))
        paused = bool(saved.get("paused", False))
        resumed = Countdown(wanted, elapsed, None if paused else now, bool(saved.get("warned")))
        return resumed, ()
    fresh = Countdown(wanted, 0.0, now)
    return fresh, (TimerStarted(wanted.key, wanted.seconds, wanted.seat),)




class TableTimer:
    """The timer of the game in progress: follows the state, checkpoints in the log's settings.

    Checkpoints are written at each change and every few seconds while it runs, so a power cut
    costs at most those seconds of sand.
    """

    CHECKPOINT_S = 5.0

    def __init__(self, store: Any, clock: Callable[[], float]) -> None:
        self._store, self._clock = store, clock
        self.countdown: Countdown | None = None
        self._saved_at = 0.0
        self._shown_left = -1

    def follow(self, game_id: int, wanted: TimerRequest | None,
               resume: bool = False) -> tuple[AnyTimerEffect, ...]:
        """Run what the state asks for now; ``resume``: carry on from the checkpoint."""
        saved = _json_object(self._store.setting(_key(game_id))) if resume else None
        before = self.countdown
        self.countdown, effects = follow(before, wanted, self._clock(), saved)
        if self.countdown is not before:
            self._save(game_id, force=True)
        return effects

    def drop(self) -> None:
        self.countdown = None

    def step(self, game_id: int) -> tuple[tuple[AnyTimerEffect, ...], TimerRequest | None, bool]:
        """What time brought: effects, the request whose time ran out, and whether the whole
        seconds left changed (the phones' countdown)."""
        countdown = self.countdown
        if countdown is None:
            return (), None, False
        now = self._clock()
        self.countdown, effects = countdown.step(now)
        self._save(game_id, force=bool(effects))
        left = int(countdown.left(now))
        ticked, self._shown_left = left != self._shown_left, left
        return effects, countdown.request if self.countdown.expired else None, ticked

    def pause(self, game_id: int, pause: bool) -> None:
        if self.countdown is None:
            raise InputError("no timer is running")
        now = self._clock()
        self.countdown = self.countdown.pause(now) if pause else self.countdown.resume(now)
        self._save(game_id, force=True)

    def due(self) -> float | None:
        return None if self.countdown is None else self.countdown.due(self._clock())

    def hurrying(self, seat: int | None) -> bool:
        """Whether ``seat``'s timer is in its last seconds (warned, still running)."""
        c = self.countdown
        return (c is not None and seat is not None and c.request.seat == seat and c.warned
                and not c.expired and not c.paused)

    def view(self) -> dict[str, Any] | None:
        return None if self.countdown is None else self.countdown.view(self._clock())

    def _save(self, game_id: int, force: bool) -> None:
        now = self._clock()
        if not force and now - self._saved_at < self.CHECKPOINT_S:
            return
        self._saved_at = now
        value = "" if self.countdown is None else json.dumps(self.countdown.checkpoint(now))
        self._store.set_setting(_key(game_id), value)


def _key(game_id: int) -> str:
    return f"timer/{game_id}"


def _json_object(text: str | None) -> Mapping[str, Any] | None:
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, Mapping) else None


__all__ = ["AnyTimerEffect", "Countdown", "TableTimer", "follow"]
