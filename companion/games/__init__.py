"""The games, found by name: every package exposes ``GAME``, a :class:`GameRules`.

Registering a game is one line here; the CLI, the runtime and the web take it from
:func:`find_game` and treat every game alike (python-chess's ``find_variant``).
"""

from __future__ import annotations

import importlib
from typing import Any

from companion.errors import InputError
from companion.games.base import GameRules

_PACKAGES: dict[str, str] = {
    "moerder": "companion.games.moerder",
    "kniffel": "companion.games.kniffel",
    "murdero": "companion.games.murdero",
    "serialkiller": "companion.games.serialkiller",
    "search": "companion.games.search",
}


class UnknownGame(InputError):
    """No game of that name."""


def game_names() -> tuple[str, ...]:
    return tuple(_PACKAGES)


def find_game(name: str) -> GameRules[Any]:
    try:
        package = _PACKAGES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(_PACKAGES)}") from None
    rules: GameRules[Any] = importlib.import_module(package).GAME
    return rules


def table_rules(name: str) -> GameRules[Any]:
    """The rules a running table referees ``name`` with.

    A game whose full rules need a resource the pure ``GAME`` is not handed (Wort-Kniffel's
    word list) exposes ``table_rules()`` in its package, which builds them with the default
    resource; every other game is its ``GAME``.
    """
    rules = find_game(name)
    build = getattr(importlib.import_module(_PACKAGES[name]), "table_rules", None)
    if build is None:
        return rules
    table: GameRules[Any] = build()
    return table
