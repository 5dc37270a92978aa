"""The LEDs: a steady pattern per LED, and short flashes drawn over it.

A steady pattern (on, off, blink) says how things stand; a flash (a claim checked, a game
ended without a winner) says something just happened and then gives the LED back to its
pattern. One owner per LED at any time keeps gpiozero from being driven by two threads.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


class Light(enum.Enum):
    """The status LED's steady patterns, most urgent first."""

    CAMERA_LOST = "camera_lost"  # 0.1 s on / 0.9 s off: a slow heartbeat
    PROMPT = "prompt"  # fast blink: the table is asked something
    PENDING = "pending"  # medium blink: the victim's neighbours must be turned
    OK = "ok"  # steady on
    OFF = "off"


STATUS_BLINK: dict[Light, tuple[float, float] | None] = {
    Light.CAMERA_LOST: (0.1, 0.9),
    Light.PROMPT: (0.15, 0.15),
    Light.PENDING: (0.4, 0.4),
    Light.OK: None,
    Light.OFF: None,
}

Key = int | str  # a seat's LED by its index, or "status"


class Mode(enum.Enum):
    """How a steady pattern drives its LED (a blink is gpiozero's own blink thread)."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"


@dataclass(frozen=True)
class Steady:
    """An LED's lasting pattern, compared by value so an unchanged one is not set again."""

    mode: Mode
    on_s: float = 0.5
    off_s: float = 0.5

    @classmethod
    def of_status(cls, light: Light) -> Steady:
        """The status LED's pattern for ``light``: blinking ones from :data:`STATUS_BLINK`."""
        blink = STATUS_BLINK[light]
        if blink is not None:
            return cls(Mode.BLINK, *blink)
        return cls(Mode.ON if light is Light.OK else Mode.OFF)


class Lights:
    """Who drives each LED now: the newest flash over it, else its steady pattern.

    Every call on an LED is made under ``lock`` (the panel's), by whoever owns the LED now, and
    a flash switches the LED itself step by step rather than through gpiozero's blink thread,
    which another thread's ``off()`` could stop half started ("cannot join thread before it is
    started"). ``stop`` is the panel's: set, it ends every flash at once.
    """

    def __init__(
        self,
        leds: Sequence[Any],
        status_led: Any,
        lock: threading.RLock,
        stop: threading.Event,
    ) -> None:
        self._leds = list(leds)
        self._status_led = status_led
        self._lock = lock
        self._stop = stop
        self.closed = False  # set by the panel under ``lock``: no LED is driven from then on
        self._steady: dict[Key, Steady] = {}
        self._overlay: set[Key] = set()  # LEDs a flash owns now
        self._generation: dict[Key, int] = {}
        self._flashes: list[threading.Thread] = []

    @property
    def busy(self) -> bool:
        """A flash still owns some LED."""
        with self._lock:
            return bool(self._overlay)

    def led(self, key: Key) -> Any:
        """The LED behind ``key``; ``None`` for a status LED that is not connected."""
        return self._status_led if key == "status" else self._leds[int(key)]

    def set(self, key: Key, steady: Steady) -> None:
        """The LED's lasting pattern; shown at once unless a flash owns the LED now."""
        with self._lock:
            if self.closed or self._steady.get(key) == steady:
                return
            self._steady[key] = steady
            if key not in self._overlay:
                self._apply(key)

    def _apply(self, key: Key) -> None:
        led = self.led(key)
        if led is None:
            return
        steady = self._steady.get(key, Steady(Mode.OFF))
        if steady.mode is Mode.ON:
            led.on()
        elif steady.mode is Mode.OFF:
            led.off()
        else:
            led.blink(steady.on_s, steady.off_s)

    def flash(self, key: Key, on_s: float, off_s: float, n: int) -> None:
        """Blink ``n`` times over the steady pattern, then restore it; LEDs flash together."""
        with self._lock:
            if self.closed or self.led(key) is None:
                return
            self._generation[key] = generation = self._generation.get(key, 0) + 1
            self._overlay.add(key)
            worker = threading.Thread(
                target=self._flash_run, args=(key, on_s, off_s, n, generation),
                name=f"panel-flash-{key}", daemon=True,
            )
            self._flashes = [t for t in self._flashes if t.is_alive()] + [worker]
        worker.start()

    def _flash_run(self, key: Key, on_s: float, off_s: float, n: int, generation: int) -> None:
        """Blink while this flash owns the LED (its generation is the newest), then restore."""
        steps = [(False, 0.0)] + [(True, on_s), (False, off_s)] * n
        for level, hold in steps:
            with self._lock:
                if self.closed or self._generation.get(key) != generation:
                    return  # the panel closed, or a newer flash took over this LED
                led = self.led(key)
                if level:
                    led.on()
                else:
                    led.off()
            if self._stop.wait(hold):
                return
        with self._lock:
            if self._generation.get(key) != generation:
                return  # a newer flash took over this LED
            self._overlay.discard(key)
            if not self.closed:
                self._apply(key)

    def join(self, timeout: float = 2.0) -> None:
        """Wait for the flash threads, which end soon once ``stop`` is set or ``closed``."""
        for flash in self._flashes:
            flash.join(timeout=timeout)


__all__ = ["STATUS_BLINK", "Key", "Light", "Lights", "Mode", "Steady"]
