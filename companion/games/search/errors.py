"""The root of what Search's rules raise."""

from __future__ import annotations

from companion.games.base import RuleError


class SearchError(RuleError):
    """Root of every error the Search package raises (a ``ValueError``)."""


__all__ = ["SearchError"]
