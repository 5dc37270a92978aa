"""Which GPIO does what, and which gpiozero pin factory drives them.

Kept apart from the panel so a bad ``[hardware]`` section is refused when the settings are
read, before any pin is claimed, and so the factory choice can be made (and tested) without
building devices.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hardware import HardwareError

_log = logging.getLogger(__name__)

MIN_SEATS, MAX_SEATS = 2, 4
VALID_GPIO = range(0, 28)


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


__all__ = ["MAX_SEATS", "MIN_SEATS", "VALID_GPIO", "PinMap", "make_pin_factory"]
