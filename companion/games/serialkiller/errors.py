"""The root of what Serial Killer's rules raise."""

from __future__ import annotations

from companion.games.base import RuleError


class SerialKillerError(RuleError):
    """Root of Serial Killer's errors: a card, a log or a set-up the game cannot take."""


__all__ = ["SerialKillerError"]
