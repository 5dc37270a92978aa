"""Which GPIO does what, and which gpiozero pin factory drives them.

Kept apart from the panel so a bad ``[hardware]`` section is refused when the settings are
read, before any pin is claimed, and so the factory choice can be made (and tested) without
building devices.
"""

from __future__ import annotations

import importlib
import logging
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from hardware import HardwareError

_log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 4
VALID_GPIO = range(0, 28)

# gpiozero's built-in factories by their gpiozero names, in gpiozero's own order of
# preference (lgpio first: it does PWM on every Pi without banging on registers).
FACTORIES: dict[str, tuple[str, str]] = {
    "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
    "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
    "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
    "native": ("gpiozero.pins.native", "NativeFactory"),
}
# gpiozero's convention: this variable names the factory, resolved among the entry points of
# this group (every factory installed, gpiozero's own and third parties').
FACTORY_ENV = "GPIOZERO_PIN_FACTORY"
FACTORY_GROUP = "gpiozero_pin_factories"


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
        return _mock_factory()
    if name == "":
        return _default_factory()
    if name not in FACTORIES:
        raise HardwareError(f"unknown pin factory {name!r}")
    try:
        return _built_in(name)
    except Exception as exc:  # ImportError, no /dev/gpiochip, no pigpiod…
        raise HardwareError(f"pin factory {name!r} is not usable here: {exc}") from None


def _mock_factory() -> Any:
    # PWM pins, so that a tonal buzzer works off the Pi as well
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def _built_in(name: str) -> Any:
    module, cls = FACTORIES[name]
    return getattr(importlib.import_module(module), cls)()


def _default_factory() -> Any:
    """What gpiozero itself would pick, built through its public names and conventions.

    The factory named by ``GPIOZERO_PIN_FACTORY`` if set, else the first built-in one that
    works here; when nothing drives GPIO (a laptop, CI) the table runs on mock pins instead
    of refusing to start.
    """
    wanted = os.environ.get(FACTORY_ENV)
    if wanted is not None:
        found = _named_entry_point(wanted)
        if found is not None:
            return found.load()()
        _log.warning("%s=%s is not an installed pin factory", FACTORY_ENV, wanted)
    else:
        from gpiozero.exc import NativePinFactoryFallback, PinFactoryFallback

        for name in FACTORIES:
            try:
                factory = _built_in(name)
            except Exception as exc:  # the next one may work: gpiozero falls back the same way
                warnings.warn(PinFactoryFallback(f"Falling back from {name}: {exc!s}"))
                continue
            if name == "native":
                warnings.warn(NativePinFactoryFallback("falling back to gpiozero's NativeFactory"))
            return factory
    _log.warning("no GPIO here: using gpiozero's MockFactory")
    return _mock_factory()


def _named_entry_point(name: str) -> Any:
    """The entry point gpiozero would take for ``name``: verbatim first, then lower-cased."""
    group = list(entry_points(group=FACTORY_GROUP))
    for wanted in (name, name.lower()):
        for ep in group:
            if ep.name == wanted:
                return ep
    return None


__all__ = ["MAX_SEATS", "MIN_SEATS", "VALID_GPIO", "PinMap", "make_pin_factory"]
