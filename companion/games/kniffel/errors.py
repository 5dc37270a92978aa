"""The package's root exception, so callers can catch every Wort-Kniffel error at once."""

from companion.games.base import RuleError


class KniffelError(RuleError):
    """Root of the errors this game raises (a ``ValueError``: bad dice, boxes, word lists)."""
