"""The buzzer's tunes and the one thread that plays them.

Tunes are queued and played by a thread of their own, so that a game event never waits for a
tune and two tunes never overlap on the one buzzer. A plain (active) buzzer cannot pitch, so
it beeps the tune's rhythm instead.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
from typing import Any

_log = logging.getLogger(__name__)


class Tune(enum.Enum):
    """What the table has to say out loud; each one has its own tune in :data:`TUNES`."""

    TURN = "turn"
    CLAIM_VALID = "claim_valid"
    CLAIM_INVALID = "claim_invalid"
    REMINDER = "reminder"
    TIMER_WARNING = "timer_warning"
    TIMER_EXPIRED = "timer_expired"
    ALARM = "alarm"
    PROMPT = "prompt"
    WINNER = "winner"


Note = tuple[str | None, float]  # (tone name or None for a rest, seconds)

TUNES: dict[Tune, tuple[Note, ...]] = {
    Tune.TURN: (("A5", 0.08),),
    Tune.CLAIM_VALID: (("C5", 0.12), ("E5", 0.12), ("G5", 0.12), ("C6", 0.3)),
    Tune.CLAIM_INVALID: (("A3", 0.25), (None, 0.05), ("F3", 0.45)),
    Tune.REMINDER: (("E5", 0.06), (None, 0.12), ("E5", 0.06)),
    Tune.TIMER_WARNING: (("C6", 0.1), (None, 0.1), ("C6", 0.1), (None, 0.1), ("C6", 0.1)),
    Tune.TIMER_EXPIRED: (("C6", 0.7),),
    Tune.ALARM: (("A5", 0.2), ("E5", 0.2)) * 4,
    Tune.PROMPT: (("G5", 0.1), (None, 0.05), ("C6", 0.18)),
    Tune.WINNER: (("G5", 0.15), ("C6", 0.15), ("E6", 0.15), ("G6", 0.45)),
}

BREATH_S = 0.05  # silence after each tune, so two queued tunes are heard as two


class TunePlayer:
    """Plays queued tunes one after another on its own thread.

    ``stop`` is the panel's: once set, the tune playing breaks off at its next note, so
    closing the table is never held up by an alarm.
    """

    def __init__(self, buzzer: Any, tonal: bool, stop: threading.Event) -> None:
        from gpiozero.tones import Tone  # gpiozero only once a panel is really built

        self._buzzer = buzzer
        self._tonal = tonal
        self._stop = stop
        self._tone = Tone
        self._tunes: queue.Queue[Tune | None] = queue.Queue()
        self._lock = threading.Lock()
        self._playing = False
        self._thread = threading.Thread(target=self._loop, name="panel-buzzer", daemon=True)
        self._thread.start()

    def put(self, tune: Tune) -> None:
        """Queue ``tune`` behind the others: the caller (the table's thread) never waits."""
        self._tunes.put(tune)

    @property
    def busy(self) -> bool:
        """A tune is queued or still sounding: ``Panel.wait_idle`` waits until neither is so."""
        with self._lock:
            playing = self._playing
        return playing or self._tunes.unfinished_tasks > 0

    def close(self, timeout: float = 2.0) -> None:
        """End the thread after the tune it plays (cut short by the stop event)."""
        self._tunes.put(None)
        self._thread.join(timeout=timeout)

    def _loop(self) -> None:
        while True:
            tune = self._tunes.get()
            try:
                if tune is None:
                    return
                with self._lock:
                    self._playing = True
                self._play(tune)
            except Exception:  # a buzzer fault must not silence every later tune
                _log.exception("buzzer failed")
            finally:
                with self._lock:
                    self._playing = False
                self._tunes.task_done()

    def _play(self, tune: Tune) -> None:
        for note, seconds in TUNES[tune]:
            if self._stop.is_set():
                break
            if note is not None:
                if self._tonal:
                    self._buzzer.play(self._tone(note))
                else:
                    self._buzzer.on()
            self._stop.wait(seconds)
            if self._tonal:
                self._buzzer.stop()
            else:
                self._buzzer.off()
        self._stop.wait(BREATH_S)


__all__ = ["TUNES", "Note", "Tune", "TunePlayer"]
