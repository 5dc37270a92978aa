"""Button gestures: one button's presses and releases, with their times, made into words.

Buttons speak three words: a short press is *Next*, a press held ``long_press_s`` (1 s) is a
*MÖRDER claim* (reported as soon as the hold time is reached, so the player feels it land),
and two short presses within ``double_press_s`` are *quit*. A short press is therefore
reported only once the double-press window has passed. If the second press of a pair turns
into a hold, it is a claim and the first press was a fumble (dropped).

No gpiozero and no clock in here: times are handed in, so these rules are tested without
waiting and without pins.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Press(enum.Enum):
    """What a button gesture means at the table."""

    NEXT = "next"  # short press
    CLAIM = "claim"  # long press
    QUIT = "quit"  # double press


@dataclass(frozen=True)
class ButtonPress:
    """A word with the seat it came from: the rules check whose turn it is, not the pin."""

    seat: int
    press: Press


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
        """A press ended: a quit if it was the second short one, else nothing yet.

        A first short press waits for :meth:`due` (a second may follow); a hold not yet
        reported (the hold timer was late) is a claim here.
        """
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
        """What the gestures believe of the button, to compare with the pin after a bounce."""
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
        """Something may still be reported: the caller keeps a timer running for :meth:`due`."""
        return self._pending_release is not None or self._down_at is not None



__all__ = ["ButtonPress", "Gestures", "Press"]
