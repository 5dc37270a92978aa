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

Buttons speak three words: a short press is *Next*, a press held ``long_press_s`` (1 s) is a
*MÖRDER claim* (reported as soon as the hold time is reached, so the player feels it land),
and two short presses within ``double_press_s`` are *quit*. A short press is therefore
reported only once the double-press window has passed. If the second press of a pair turns
into a hold, it is a claim and the first press was a fumble (dropped).

Only the runtime creates a Panel (gpiozero's habit: hardware is passed in). Off the Pi the
pin factory is gpiozero's ``MockFactory``; tests drive its pins.
"""

from __future__ import annotations

import enum
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from hardware import HardwareError

_log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 4
VALID_GPIO = range(0, 28)


class Press(enum.Enum):
    """What a button gesture means at the table."""

    NEXT = "next"  # short press
    CLAIM = "claim"  # long press
    QUIT = "quit"  # double press


@dataclass(frozen=True)
class ButtonPress:
    seat: int
    press: Press


@dataclass(frozen=True)
class PinMap:
    """Which GPIO does what, validated: 2–4 seats, one LED per button, no pin used twice."""

    buttons: tuple[int, ...] = (5, 6, 13, 19)
    leds: tuple[int, ...] = (17, 27, 22, 23)
    status_led: int | None = 24
    buzzer: int | None = 18
    tonal: str = "auto"  # auto | yes | no
    pull_up: bool = True
    bounce_s: float = 0.03
    long_press_s: float = 1.0
    double_press_s: float = 0.4
    quiet: bool = False

    def __post_init__(self) -> None:
        if not MIN_SEATS <= len(self.buttons) <= MAX_SEATS:
            raise HardwareError(f"hardware.buttons: need {MIN_SEATS}–{MAX_SEATS} buttons")
        if len(self.leds) != len(self.buttons):
            raise HardwareError("hardware.leds: need one LED per button")
        used = [*self.buttons, *self.leds]
        used += [p for p in (self.status_led, self.buzzer) if p is not None]
        for pin in used:
            if pin not in VALID_GPIO:
                raise HardwareError(f"hardware: GPIO{pin} is not a GPIO of the header (0–27)")
        twice = sorted({p for p in used if used.count(p) > 1})
        if twice:
            raise HardwareError(f"hardware: GPIO{twice[0]} is used twice")
        if self.tonal not in ("auto", "yes", "no"):
            raise HardwareError("hardware.tonal must be auto, yes or no")
        if self.long_press_s <= 0 or self.double_press_s <= 0:
            raise HardwareError("hardware: press times must be positive")

    @classmethod
    def from_config(cls, hw: Mapping[str, Any]) -> PinMap:
        """From the ``[hardware]`` section; -1 means a part is not connected."""

        def opt(v: Any) -> int | None:
            return None if v is None or int(v) < 0 else int(v)

        return cls(
            buttons=tuple(int(p) for p in hw.get("buttons", cls.buttons)),
            leds=tuple(int(p) for p in hw.get("leds", cls.leds)),
            status_led=opt(hw.get("status_led", cls.status_led)),
            buzzer=opt(hw.get("buzzer", cls.buzzer)),
            tonal=str(hw.get("tonal", cls.tonal)),
            pull_up=bool(hw.get("pull_up", cls.pull_up)),
            bounce_s=float(hw.get("bounce_s", cls.bounce_s)),
            long_press_s=float(hw.get("long_press_s", cls.long_press_s)),
            double_press_s=float(hw.get("double_press_s", cls.double_press_s)),
            quiet=bool(hw.get("quiet", cls.quiet)),
        )


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by name; ``""`` = gpiozero's own choice, MockFactory off the Pi."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    if name == "":
        from gpiozero import Device
        from gpiozero.exc import BadPinFactory

        try:
            return Device._default_pin_factory()
        except BadPinFactory:
            _log.warning("no GPIO here: using gpiozero's MockFactory")
            return make_pin_factory("mock")
    try:
        if name == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory

            return LGPIOFactory()
        if name == "rpigpio":
            from gpiozero.pins.rpigpio import RPiGPIOFactory

            return RPiGPIOFactory()
        if name == "pigpio":
            from gpiozero.pins.pigpio import PiGPIOFactory

            return PiGPIOFactory()
        if name == "native":
            from gpiozero.pins.native import NativeFactory

            return NativeFactory()
    except Exception as exc:  # ImportError, no /dev/gpiochip, no pigpiod…
        raise HardwareError(f"pin factory {name!r} is not usable here: {exc}") from None
    raise HardwareError(f"unknown pin factory {name!r}")


# --- gestures ----------------------------------------------------------------------------------


class Gestures:
    """Turns one button's presses and releases (with times) into :class:`Press` words.

    Pure bookkeeping with times handed in, so the rules above are tested without waiting.
    Edges closer than ``bounce_s`` to the last accepted edge are contact bounce and ignored
    (in software as well, because not every pin backend filters: gpiozero's MockPin and
    some kernels do not).
    """

    def __init__(self, long_s: float, double_s: float, bounce_s: float = 0.0) -> None:
        self.long_s = long_s
        self.double_s = double_s
        self.bounce_s = bounce_s
        self._edge_at: float | None = None
        self._down_at: float | None = None
        self._held = False
        self._pending_release: float | None = None  # a short press waiting for a second
        self._second = False

    def pressed(self, t: float) -> Press | None:
        """A press began; may release a pending short press whose window has passed."""
        if self._bounce(t) or self._down_at is not None:
            return None
        out = self.due(t)
        self._second = self._pending_release is not None
        self._down_at = t
        self._held = False
        return out

    def held(self, t: float) -> Press | None:
        """The button is still down at ``t``: a claim once it has been down ``long_s``."""
        if self._down_at is None or self._held or t - self._down_at < self.long_s:
            return None
        self._held = True
        self._pending_release = None  # the first of a fumbled pair is dropped
        self._second = False
        return Press.CLAIM

    def released(self, t: float) -> Press | None:
        if self._down_at is None or self._bounce(t):
            return None
        claim = self.held(t)
        was_held = self._held
        self._down_at = None
        self._held = False
        if claim is not None or was_held:
            return claim
        if self._second:
            self._second = False
            self._pending_release = None
            return Press.QUIT
        self._pending_release = t
        return None

    def _bounce(self, t: float) -> bool:
        self.bounced = self._edge_at is not None and t - self._edge_at < self.bounce_s
        if not self.bounced:
            self._edge_at = t
        return self.bounced

    bounced = False  # the last edge was ignored as bounce: the caller re-checks the pin later

    @property
    def down(self) -> bool:
        return self._down_at is not None

    def due(self, t: float) -> Press | None:
        """The pending short press, once no second press can follow it any more."""
        if self._pending_release is not None and self._down_at is None:
            if t - self._pending_release >= self.double_s:
                self._pending_release = None
                return Press.NEXT
        return None

    @property
    def waiting(self) -> bool:
        return self._pending_release is not None or self._down_at is not None


# --- tunes -------------------------------------------------------------------------------------


class Tune(enum.Enum):
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


class Light(enum.Enum):
    """The status LED's steady patterns, most urgent first."""

    CAMERA_LOST = "camera_lost"  # 0.1 s on / 0.9 s off: a slow heartbeat
    PROMPT = "prompt"  # fast blink: the table is asked something
    PENDING = "pending"  # medium blink: the victim's neighbours must be turned
    OK = "ok"  # steady on
    OFF = "off"


_STATUS_BLINK: dict[Light, tuple[float, float] | None] = {
    Light.CAMERA_LOST: (0.1, 0.9),
    Light.PROMPT: (0.15, 0.15),
    Light.PENDING: (0.4, 0.4),
    Light.OK: None,
    Light.OFF: None,
}


class _Mode(enum.Enum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"


@dataclass(frozen=True)
class _Steady:
    mode: _Mode
    on_s: float = 0.5
    off_s: float = 0.5


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
        from gpiozero import LED, Button, Buzzer, TonalBuzzer
        from gpiozero.exc import GPIOZeroError, PinPWMUnsupported
        from gpiozero.tones import Tone

        self.pins = pins
        self._on_press = on_press
        self._echo = echo
        self._names = list(names)
        self._lock = threading.RLock()
        self._closed = False
        self._devices: list[Any] = []
        self._Tone = Tone
        self.seats = len(pins.buttons)
        self._gestures = [
            Gestures(pins.long_press_s, pins.double_press_s, pins.bounce_s) for _ in pins.buttons
        ]
        self._steady: dict[int | str, _Steady] = {}
        self._overlay: set[int | str] = set()
        self.status = Light.OFF
        self._shown: tuple[str, Any] | None = None  # what the seat LEDs say now
        try:
            self.buttons = [
                Button(
                    p,
                    pull_up=pins.pull_up,
                    bounce_time=pins.bounce_s or None,
                    hold_time=pins.long_press_s,
                    pin_factory=pin_factory,
                )
                for p in pins.buttons
            ]
            self._devices += self.buttons
            self.leds = [LED(p, pin_factory=pin_factory) for p in pins.leds]
            self._devices += self.leds
            self.status_led = (
                LED(pins.status_led, pin_factory=pin_factory) if pins.status_led is not None else None
            )
            if self.status_led is not None:
                self._devices.append(self.status_led)
            self.buzzer: Any = None
            self.tonal = False
            if pins.buzzer is not None:
                if pins.tonal in ("auto", "yes"):
                    try:
                        self.buzzer = TonalBuzzer(
                            pins.buzzer, mid_tone=Tone("A4"), octaves=3, pin_factory=pin_factory
                        )
                        self.tonal = True
                    except PinPWMUnsupported:
                        if pins.tonal == "yes":
                            raise HardwareError(
                                f"GPIO{pins.buzzer} cannot do PWM for a tonal buzzer"
                            ) from None
                if self.buzzer is None:
                    self.buzzer = Buzzer(pins.buzzer, pin_factory=pin_factory)
                self._devices.append(self.buzzer)
        except GPIOZeroError as exc:
            self.close()
            raise HardwareError(f"cannot set up the panel: {exc}") from None
        for seat, button in enumerate(self.buttons):
            button.when_pressed = lambda _d=None, s=seat: self._pressed(s)
            button.when_held = lambda _d=None, s=seat: self._held(s)
            button.when_released = lambda _d=None, s=seat: self._released(s)
        self._tunes: queue.Queue[Tune | None] = queue.Queue()
        self._stop = threading.Event()
        self._timers: list[threading.Timer] = []
        self._flashes: list[threading.Thread] = []
        self._generation: dict[int | str, int] = {}
        self._workers = [
            threading.Thread(target=self._play_loop, name="panel-buzzer", daemon=True),
        ]
        for w in self._workers:
            w.start()
        _log.info(
            "panel: %d seats, %s buzzer on %s", self.seats,
            "tonal" if self.tonal else "plain", pins.buzzer,
        )

    # --- lifecycle ------------------------------------------------------------------------

    def __enter__(self) -> Panel:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Release every pin (idempotent); LEDs and buzzer end off."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            timers, self._timers = self._timers, []
        for t in timers:
            t.cancel()
        if hasattr(self, "_stop"):
            self._stop.set()
            self._tunes.put(None)
            for w in self._workers:
                w.join(timeout=2.0)
        with self._lock:  # flashes check ``_closed`` under it: none drives an LED from here on
            for device in reversed(self._devices):
                try:
                    if hasattr(device, "blink"):
                        device.off()  # stops a blink too; a closed pin keeps its last level
                    elif hasattr(device, "stop"):
                        device.stop()
                    elif hasattr(device, "off"):
                        device.off()
                except Exception:
                    _log.debug("switching %r off", device, exc_info=True)
        for flash in self._flashes:
            flash.join(timeout=2.0)
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
            with self._lock:
                busy = bool(self._overlay) or self._playing
            if self._tunes.unfinished_tasks == 0 and not busy:
                return True
            time.sleep(0.01)
        return False

    _playing = False

    # --- buttons --------------------------------------------------------------------------

    def _emit(self, seat: int, press: Press | None) -> None:
        if press is None or self._closed:
            return
        self._say(f"button {seat + 1} ({self._name(seat)}): {press.value}")
        try:
            self._on_press(ButtonPress(seat, press))
        except Exception:  # a callback error must not kill gpiozero's thread
            _log.exception("press handler failed")

    def _pressed(self, seat: int) -> None:
        with self._lock:
            press = self._gestures[seat].pressed(time.monotonic())
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
            press = self._gestures[seat].held(time.monotonic())
        self._emit(seat, press)

    def _released(self, seat: int) -> None:
        with self._lock:
            press = self._gestures[seat].released(time.monotonic())
            self._settle_later(seat)
            if press is None and self._gestures[seat].waiting and not self._closed:
                self._later(self.pins.double_press_s, self._flush, seat)
        self._emit(seat, press)

    def _flush(self, seat: int) -> None:
        with self._lock:
            press = self._gestures[seat].due(time.monotonic())
        self._emit(seat, press)

    # --- lights ---------------------------------------------------------------------------

    def show_turn(self, seat: int | None, out: Sequence[int] = ()) -> None:
        """The player on turn lit, the others dark (``out``: players who quit stay dark)."""
        for i in range(self.seats):
            self._set(i, _Steady(_Mode.ON if i == seat else _Mode.OFF))
        if seat is not None and self._shown != ("turn", seat):
            self._say(f"LED {seat + 1} ({self._name(seat)}) on: their turn")
        self._shown = ("turn", seat)

    def show_winner(self, seat: int | None) -> None:
        """The winner's LED blinks on; no winner: every LED blinks three times, then dark."""
        if self._shown == ("winner", seat):
            return
        self._shown = ("winner", seat)
        if seat is None:
            for i in range(self.seats):
                self._set(i, _Steady(_Mode.OFF))
                self._flash(i, 0.3, 0.3, 3)
            self._say("all LEDs blink: the game ends without a winner")
            return
        for i in range(self.seats):
            self._set(i, _Steady(_Mode.BLINK, 0.5, 0.5) if i == seat else _Steady(_Mode.OFF))
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
            self._set(i, _Steady(_Mode.BLINK, 0.5, 0.5) if i in seats else _Steady(_Mode.OFF))
        self._say("LEDs " + ", ".join(str(i + 1) for i in seats) + " blink: winners")

    def flash_claim(self, seat: int, valid: bool) -> None:
        """A claim checked: fast flicker when it holds, three slow blinks when it does not."""
        if not 0 <= seat < self.seats:
            return
        if valid:
            self._flash(seat, 0.08, 0.08, 6)
            self._say(f"LED {seat + 1} ({self._name(seat)}) flickers: claim holds")
        else:
            self._flash(seat, 0.5, 0.3, 3)
            self._say(f"LED {seat + 1} ({self._name(seat)}) blinks slowly: claim refused")

    def show_status(self, light: Light) -> None:
        """The status LED's steady pattern (camera lost > prompt > pending > ok)."""
        with self._lock:
            if light is self.status:
                return
            self.status = light
        blink = _STATUS_BLINK[light]
        if blink is not None:
            steady = _Steady(_Mode.BLINK, *blink)
        else:
            steady = _Steady(_Mode.ON if light is Light.OK else _Mode.OFF)
        self._set("status", steady)
        self._say(f"status LED: {light.value}")

    def _led(self, key: int | str) -> Any:
        return self.status_led if key == "status" else self.leds[int(key)]

    def _set(self, key: int | str, steady: _Steady) -> None:
        with self._lock:
            if self._closed or self._steady.get(key) == steady:
                return
            self._steady[key] = steady
            if key not in self._overlay:
                self._apply(key)

    def _apply(self, key: int | str) -> None:
        led = self._led(key)
        if led is None:
            return
        steady = self._steady.get(key, _Steady(_Mode.OFF))
        if steady.mode is _Mode.ON:
            led.on()
        elif steady.mode is _Mode.OFF:
            led.off()
        else:
            led.blink(steady.on_s, steady.off_s)

    def _flash(self, key: int | str, on_s: float, off_s: float, n: int) -> None:
        """Blink ``n`` times over the steady pattern, then restore it; LEDs flash together."""
        with self._lock:
            if self._closed or self._led(key) is None:
                return
            self._generation[key] = generation = self._generation.get(key, 0) + 1
            self._overlay.add(key)
            worker = threading.Thread(
                target=self._flash_run, args=(key, on_s, off_s, n, generation),
                name=f"panel-flash-{key}", daemon=True,
            )
            self._flashes = [t for t in self._flashes if t.is_alive()] + [worker]
        worker.start()

    def _flash_run(self, key: int | str, on_s: float, off_s: float, n: int, generation: int) -> None:
        """Blink while this flash owns the LED (its generation is the newest), then restore.

        One owner per LED: every call on an LED is made under the panel's lock, by whoever owns
        it now (the newest flash, else the steady pattern), and a flash switches the LED itself
        step by step rather than through gpiozero's blink thread, which another thread's
        ``off()`` could stop half started ("cannot join thread before it is started").
        """
        steps = [(False, 0.0)] + [(True, on_s), (False, off_s)] * n
        for level, hold in steps:
            with self._lock:
                if self._closed or self._generation.get(key) != generation:
                    return  # the panel closed, or a newer flash took over this LED
                led = self._led(key)
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
            if not self._closed:
                self._apply(key)

    # --- buzzer ---------------------------------------------------------------------------

    def play(self, tune: Tune) -> None:
        """Queue a tune (tunes never overlap; a plain buzzer beeps the rhythm)."""
        if self._closed:
            return
        notes = " ".join(n or "-" for n, _ in TUNES[tune]) if self.tonal else "beep"
        self._say(f"buzzer: {tune.value} ♪ {notes}" + (" (quiet)" if self.pins.quiet else ""))
        if self.buzzer is not None and not self.pins.quiet:
            self._tunes.put(tune)

    def _play_loop(self) -> None:
        while True:
            tune = self._tunes.get()
            try:
                if tune is None:
                    return
                with self._lock:
                    self._playing = True
                for note, seconds in TUNES[tune]:
                    if self._stop.is_set():
                        break
                    if note is not None:
                        if self.tonal:
                            self.buzzer.play(self._Tone(note))
                        else:
                            self.buzzer.on()
                    self._stop.wait(seconds)
                    if self.tonal:
                        self.buzzer.stop()
                    else:
                        self.buzzer.off()
                self._stop.wait(0.05)  # a breath between tunes
            except Exception:
                _log.exception("buzzer failed")
            finally:
                with self._lock:
                    self._playing = False
                self._tunes.task_done()

    # --- console --------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        return self._names[seat] if seat < len(self._names) else f"seat {seat + 1}"

    def set_names(self, names: Sequence[str]) -> None:
        self._names = list(names)

    def _say(self, line: str) -> None:
        if self._echo is not None:
            self._echo(line)


__all__ = [
    "ButtonPress",
    "Gestures",
    "Light",
    "Panel",
    "PinMap",
    "Press",
    "TUNES",
    "Tune",
    "make_pin_factory",
]
