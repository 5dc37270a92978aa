"""The root of what Murdero's rules raise."""

from __future__ import annotations

from typing import Any

from companion.games.base import RuleError


class MurderoError(RuleError):
    """Root of Murdero's errors: a card, a hand or a set-up the game cannot take.

    Like :class:`~companion.games.base.Refused`, it carries a stable ``code`` (the rule broken)
    and the ``details`` a sentence about it needs, so a phone words it in its own language;
    the message stays the English sentence the CLI and the log print.
    """

    def __init__(self, code: str, reason: str, **details: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.details = details


__all__ = ["MurderoError"]
