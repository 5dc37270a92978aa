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
