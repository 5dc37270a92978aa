"""Frames in, observations out: find the table's grid, read its tiles, letters and dice.

Vision never decides the game; it reports what it sees with a confidence.
"""

from companion.errors import CompanionError


class VisionError(CompanionError, ValueError):
    """Root of the errors vision raises (no grid found, unreadable image…)."""


__all__ = ["VisionError"]
