"""The rules a running table referees a game with, its resources loaded at the edge."""

from __future__ import annotations

from typing import Any

from companion.games import table_rules as _table_rules
from companion.games.base import GameRules


def table_rules(name: str) -> GameRules[Any]:
    return _table_rules(name)
