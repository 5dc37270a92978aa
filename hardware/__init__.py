"""The table's buttons, LEDs and buzzer, built from gpiozero devices behind one small Panel."""

from companion.errors import CompanionError


class HardwareError(CompanionError, RuntimeError):
    """Root of the errors the hardware layer raises (bad pin map, device busy…)."""


__all__ = ["HardwareError"]
