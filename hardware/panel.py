"""The table's buttons, LEDs and buzzer: gpiozero devices behind one small :class:`Panel`.

Wiring (BCM numbers, defaults of ``[hardware]``; every pin configurable):

=========  ======  ========  ===================================================
part       GPIO    header    connection
=========  ======  ========  ===================================================
button 1   5       pin 29    push button to GND (internal pull-up)
button 2   6       pin 31    push button to GND
button 3   13      pin 33    push button to GND
button 4   19      pin 35    push button to GND
LED 1      17      pin 11    LED + 330 Ω to GND (seat colour)
LED 2      27      pin 13    LED + 330 Ω to GND
LED 3      22      pin 15    LED + 330 Ω to GND
LED 4      23      pin 16    LED + 330 Ω to GND
status     24      pin 18    LED + 330 Ω to GND (white)
buzzer     18      pin 12    passive piezo (PWM0) through an NPN transistor, or an
                             active buzzer (then ``tonal = "no"``)
=========  ======  ========  ===================================================

What the buttons mean is :mod:`hardware.gestures`; the LED patterns and flashes are
:mod:`hardware.lights`, the tunes :mod:`hardware.sounds`, the pin map and the pin factory
:mod:`hardware.pins`. This module builds the devices and ties those together; every name
that was importable from here before the split still is.

Only the runtime creates a Panel (gpiozero's habit: hardware is passed in). Off the Pi the
pin factory is gpiozero's ``MockFactory``; tests drive its pins.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from hardware import HardwareError
from hardware.gestures import ButtonPress, Gestures, Press
from hardware.lights import STATUS_BLINK, Light, Lights, Mode, Steady
from hardware.pins import MAX_SEATS, MIN_SEATS, VALID_GPIO, PinMap, make_pin_factory
from hardware.sounds import TUNES, Note, Tune, TunePlayer

_log = logging.getLogger(__name__)

# The names of the steady patterns before they moved to hardware.lights.
_Mode, _Steady, _STATUS_BLINK = Mode, Steady, STATUS_BLINK


class Panel:
    """The player buttons and LEDs, the status LED and the buzzer of one table.

    ``on_press`` receives a :class:`ButtonPress` from gpiozero's callback thread or the
    panel's timer thread; the runtime queues it. ``echo`` (the demo's console) gets one line
    per thing the table shows or sounds.
    """

    def __init__(
        self,
        pins: PinMap,
        on_press: Callable[[ButtonPress], None],
        pin_factory: Any = None,
        echo: Callable[[str], None] | None = None,
        names: Sequence[str] = (),
    ) -> None:
        from gpiozero.exc import GPIOZeroError

        self.pins = pins
        self._on_press = on_press
        self._echo = echo
        self._names = list(names)
        self._lock = threading.RLock()
        self._closed = False
        self._stop = threading.Event()
        self._timers: list[threading.Timer] = []
        self._reporting = 0  # presses decided but not yet handed to ``on_press``
        self._devices: list[Any] = []
        self.seats = len(pins.buttons)
        self._gestures = [
            Gestures(pins.long_press_s, pins.double_press_s, pins.bounce_s) for _ in pins.buttons
        ]
        self.status = Light.OFF
        self._shown: tuple[str, Any] | None = None  # what the seat LEDs say now
        try:
            self.buttons = self._make_buttons(pin_factory)
            self.leds, self.status_led = self._make_leds(pin_factory)
            self.buzzer, self.tonal = self._make_buzzer(pin_factory)
        except GPIOZeroError as exc:
            self.close()
            raise HardwareError(f"cannot set up the panel: {exc}") from None
        except HardwareError:
            self.close()  # the pins already claimed are free for the next attempt
            raise
        for seat, button in enumerate(self.buttons):
            button.when_pressed = lambda _d=None, s=seat: self._pressed(s)
            button.when_held = lambda _d=None, s=seat: self._held(s)
            button.when_released = lambda _d=None, s=seat: self._released(s)
        self._lights = Lights(self.leds, self.status_led, self._lock, self._stop)
        self._player = TunePlayer(self.buzzer, self.tonal, self._stop)
        _log.info(
            "panel: %d seats, %s buzzer on %s", self.seats,
            "tonal" if self.tonal else "plain", pins.buzzer,
        )

    def _make_buttons(self, pin_factory: Any) -> list[Any]:
        from gpiozero import Button

        pins = self.pins
        buttons = []
        for p in pins.buttons:
            buttons.append(
                Button(
                    p,
                    pull_up=pins.pull_up,
                    bounce_time=pins.bounce_s or None,
                    hold_time=pins.long_press_s,
                    pin_factory=pin_factory,
                )
            )
            self._devices.append(buttons[-1])
        return buttons

    def _make_leds(self, pin_factory: Any) -> tuple[list[Any], Any]:
        from gpiozero import LED

        leds = []
        for p in self.pins.leds:
            leds.append(LED(p, pin_factory=pin_factory))
            self._devices.append(leds[-1])
        status_led = None
        if self.pins.status_led is not None:
            status_led = LED(self.pins.status_led, pin_factory=pin_factory)
            self._devices.append(status_led)
        return leds, status_led

    def _make_buzzer(self, pin_factory: Any) -> tuple[Any, bool]:
        """A tonal buzzer where the pin can do PWM (and ``tonal`` allows), else a plain one."""
        from gpiozero import Buzzer, TonalBuzzer
        from gpiozero.exc import PinPWMUnsupported
        from gpiozero.tones import Tone

        pin, tonal = self.pins.buzzer, self.pins.tonal
        if pin is None:
            return None, False
        buzzer: Any = None
        if tonal in ("auto", "yes"):
            try:
                buzzer = TonalBuzzer(pin, mid_tone=Tone("A4"), octaves=3, pin_factory=pin_factory)
            except PinPWMUnsupported:
                if tonal == "yes":
                    raise HardwareError(f"GPIO{pin} cannot do PWM for a tonal buzzer") from None
        is_tonal = buzzer is not None
        if buzzer is None:
            buzzer = Buzzer(pin, pin_factory=pin_factory)
        self._devices.append(buzzer)
        return buzzer, is_tonal

    # --- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> Panel:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release every pin (idempotent, also on a half-built panel); LEDs and buzzer end off."""
        lights: Lights | None = getattr(self, "_lights", None)
        player: TunePlayer | None = getattr(self, "_player", None)
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if lights is not None:
                lights.closed = True
            timers, self._timers = self._timers, []
        for t in timers:
            t.cancel()
        self._stop.set()
        if player is not None:
            player.close()
        with self._lock:  # flashes check ``closed`` under it: none drives an LED from here on
            for device in reversed(self._devices):
                _switch_off(device)
        if lights is not None:
            lights.join()
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing must not fail on a half-built panel
                _log.exception("closing %r", device)
        self._devices = []

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Wait until queued tunes and light flashes are done (tests and orderly shutdown)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self._lights.busy and not self._player.busy:
                return True
            time.sleep(0.01)
        return False

    def wait_presses(self, timeout: float = 5.0) -> bool:
        """Wait until every press made so far has been handed to ``on_press`` (or dropped).

        A short press is only reported once the double-press window has passed, so "that
        press meant nothing" and "that press is not reported yet" look the same from outside
        until this returns. False if a button is still held down when ``timeout`` runs out.
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                busy = self._reporting > 0 or any(g.waiting for g in self._gestures)
                busy = busy or any(t.is_alive() for t in self._timers)
            if not busy:
                return True
            time.sleep(0.01)
        return False

    # --- buttons --------------------------------------------------------------------------

    def _decided(self, press: Press | None) -> Press | None:
        """Count a press as on its way to ``on_press`` (called under the lock, see ``_emit``)."""
        if press is not None:
            self._reporting += 1
        return press

    def _emit(self, seat: int, press: Press | None) -> None:
        """Hand a press to ``on_press`` outside the lock, so a slow handler never blocks LEDs."""
        if press is None:
            return
        try:
            if not self._closed:
                self._say(f"button {seat + 1} ({self._name(seat)}): {press.value}")
                self._on_press(ButtonPress(seat, press))
        except Exception:  # a callback error must not kill gpiozero's thread
            _log.exception("press handler failed")
        finally:
            with self._lock:
                self._reporting -= 1

    def _pressed(self, seat: int) -> None:
        with self._lock:
            press = self._decided(self._gestures[seat].pressed(time.monotonic()))
            self._settle_later(seat)
        self._emit(seat, press)

    def _settle_later(self, seat: int) -> None:
        """After an edge ignored as bounce, look at the pin again once it has settled."""
        if self._gestures[seat].bounced and not self._closed:
            self._later(self.pins.bounce_s * 1.5, self._settle, seat)

    def _later(self, seconds: float, func: Callable[[int], None], seat: int) -> None:
        timer = threading.Timer(seconds, func, (seat,))
        timer.daemon = True
        self._timers = [t for t in self._timers if t.is_alive()] + [timer]
        timer.start()

    def _settle(self, seat: int) -> None:
        with self._lock:
            if self._closed:
                return
            if self.buttons[seat].is_pressed == self._gestures[seat].down:
                return
        if self.buttons[seat].is_pressed:
            self._pressed(seat)
        else:
            self._released(seat)

    def _held(self, seat: int) -> None:
        with self._lock:
            press = self._decided(self._gestures[seat].held(time.monotonic()))
        self._emit(seat, press)

    def _released(self, seat: int) -> None:
        with self._lock:
            press = self._decided(self._gestures[seat].released(time.monotonic()))
            self._settle_later(seat)
            if press is None and self._gestures[seat].waiting and not self._closed:
                self._later(self.pins.double_press_s, self._flush, seat)
        self._emit(seat, press)

    def _flush(self, seat: int) -> None:
        with self._lock:
            press = self._decided(self._gestures[seat].due(time.monotonic()))
        self._emit(seat, press)

    # --- lights ---------------------------------------------------------------------------

    def show_turn(self, seat: int | None, out: Sequence[int] = (), hurry: bool = False) -> None:
        """The player on turn lit, the others dark (``out``: players who quit stay dark);
        ``hurry``: their time is running out, so their LED blinks fast instead."""
        lit = Steady(Mode.BLINK, 0.12, 0.12) if hurry else Steady(Mode.ON)
        for i in range(self.seats):
            self._lights.set(i, lit if i == seat else Steady(Mode.OFF))
        shown = ("hurry" if hurry else "turn", seat)
        if seat is not None and self._shown != shown:
            what = "blinks fast: their time runs out" if hurry else "on: their turn"
            self._say(f"LED {seat + 1} ({self._name(seat)}) {what}")
        self._shown = shown

    def show_winner(self, seat: int | None) -> None:
        """The winner's LED blinks on; no winner: every LED blinks three times, then dark."""
        if self._shown == ("winner", seat):
            return
        self._shown = ("winner", seat)
        if seat is None:
            for i in range(self.seats):
                self._lights.set(i, Steady(Mode.OFF))
                self._lights.flash(i, 0.3, 0.3, 3)
            self._say("all LEDs blink: the game ends without a winner")
            return
        for i in range(self.seats):
            self._lights.set(i, Steady(Mode.BLINK, 0.5, 0.5) if i == seat else Steady(Mode.OFF))
        self._say(f"LED {seat + 1} ({self._name(seat)}) blinks: winner")

    def show_winners(self, seats: Sequence[int]) -> None:
        """Several winners (a team): their LEDs blink together; none: as ``show_winner``."""
        if len(seats) <= 1:
            self.show_winner(seats[0] if seats else None)
            return
        shown = ("winners", tuple(sorted(seats)))
        if self._shown == shown:
            return
        self._shown = shown
        for i in range(self.seats):
            self._lights.set(i, Steady(Mode.BLINK, 0.5, 0.5) if i in seats else Steady(Mode.OFF))
        self._say("LEDs " + ", ".join(str(i + 1) for i in seats) + " blink: winners")

    def flash_claim(self, seat: int, valid: bool) -> None:
        """A claim checked: fast flicker when it holds, three slow blinks when it does not."""
        if not 0 <= seat < self.seats:
            return
        if valid:
            self._lights.flash(seat, 0.08, 0.08, 6)
            self._say(f"LED {seat + 1} ({self._name(seat)}) flickers: claim holds")
        else:
            self._lights.flash(seat, 0.5, 0.3, 3)
            self._say(f"LED {seat + 1} ({self._name(seat)}) blinks slowly: claim refused")

    def show_status(self, light: Light) -> None:
        """The status LED's steady pattern (camera lost > prompt > pending > ok)."""
        with self._lock:
            if light is self.status:
                return
            self.status = light
        self._lights.set("status", Steady.of_status(light))
        self._say(f"status LED: {light.value}")

    # --- buzzer ---------------------------------------------------------------------------

    def play(self, tune: Tune) -> None:
        """Queue a tune (tunes never overlap; a plain buzzer beeps the rhythm)."""
        if self._closed:
            return
        notes = " ".join(n or "-" for n, _ in TUNES[tune]) if self.tonal else "beep"
        self._say(f"buzzer: {tune.value} ♪ {notes}" + (" (quiet)" if self.pins.quiet else ""))
        if self.buzzer is not None and not self.pins.quiet:
            self._player.put(tune)

    # --- console --------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self._names[seat] if seat < len(self._names) else f"seat {seat + 1}"

    def set_names(self, names: Sequence[str]) -> None:
        """The players' names, for the console lines (seats are numbered until they are set)."""
        self._names = list(names)

    def _say(self, line: str) -> None:
        if self._echo is not None:
            self._echo(line)


def _switch_off(device: Any) -> None:
    """Leave a device dark and silent before it closes: a closed pin keeps its last level."""
    try:
        if hasattr(device, "blink"):
            device.off()  # stops a blink too
        elif hasattr(device, "stop"):
            device.stop()
        elif hasattr(device, "off"):
            device.off()
    except Exception:
        _log.debug("switching %r off", device, exc_info=True)


__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "TUNES",
    "VALID_GPIO",
    "ButtonPress",
    "Gestures",
    "Light",
    "Note",
    "Panel",
    "PinMap",
    "Press",
    "Tune",
    "make_pin_factory",
]
