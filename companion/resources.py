"""The rules a running table referees a game with: its resources loaded here, at the edge.

A pure game package cannot read files; a game that needs more than its rules (Wort-Kniffel's
word list) names it in ``GameRules.needs`` and this module loads it by that name, once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from companion.games import find_game
from companion.games.base import GameRules


def _lexicon() -> Any:
    from companion.wordlist import load_lexicon

    return load_lexicon()


# what each resource a game may name is, and how to load it
LOADERS: dict[str, Callable[[], Any]] = {"lexicon": _lexicon}


@functools.cache
def resource(name: str) -> Any:
    """A resource by name, loaded once per process."""
    return LOADERS[name]()


def table_rules(name: str) -> GameRules[Any]:
    """Game ``name``'s rules with every resource it needs (``UnknownGame`` for a bad name)."""
    rules = find_game(name)
    if not rules.needs or rules.bind is None:
        return rules
    return rules.bind({need: resource(need) for need in rules.needs})


__all__ = ["LOADERS", "resource", "table_rules"]
