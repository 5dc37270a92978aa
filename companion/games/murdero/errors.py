"""The root of what Murdero's rules raise."""

from __future__ import annotations

from companion.games.base import RuleError


class MurderoError(RuleError):
    """Root of Murdero's errors: a card, a hand or a set-up the game cannot take."""


__all__ = ["MurderoError"]
