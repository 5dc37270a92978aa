"""The shape of a phone's action, checked before it reaches the runtime.

The runtime and the rules have the last word (they raise ``InputError`` and ``Refused``), but
a body that is not even the right shape is answered here with a 400 naming the field, so the
runtime only ever sees well-formed dicts. The action words are the seam between the phones
and the table; the hardware buttons produce the same ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from companion.errors import InputError
from companion.games import game_names

SIZE = 6
TILES = ("M", "Ö", "R", "D", "E", "X")
MAX_NAME = 24
MAX_PLAYERS = 8


class ActionError(InputError):
    """A malformed action body; the message names the field."""


def _cell(value: Any, where: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise ActionError(f"{where} must be [row, column]")
    r, c = value
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise ActionError(f"{where} {value} is off the {SIZE}x{SIZE} board")
    return [r, c]


def _tile(value: Any, where: str, *, allow_none: bool) -> str | None:
    if value is None and allow_none:
        return None
    if isinstance(value, str):
        up = value.strip().upper()
        if up == "O":
            up = "Ö"
        if up in TILES:
            return up
    allowed = ", ".join(TILES) + (" or null" if allow_none else "")
    raise ActionError(f"{where} must be one of {allowed}")


def _player(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_PLAYERS:
        raise ActionError("player must be a seat number 0..7")
    return value


def _claim(body: Mapping[str, Any]) -> dict[str, Any]:
    cells = body.get("cells")
    if cells is None:
        return {"cells": None}
    if not isinstance(cells, list) or len(cells) != 6:
        raise ActionError("cells must be a list of six [row, column] pairs, or null")
    return {"cells": [_cell(c, f"cells[{i}]") for i, c in enumerate(cells)]}


def _turn(body: Mapping[str, Any]) -> dict[str, Any]:
    if "cell" not in body or "tile" not in body:
        raise ActionError("turn needs cell and tile")
    return {"cell": _cell(body["cell"], "cell"), "tile": _tile(body["tile"], "tile",
                                                                allow_none=False)}


def _correct(body: Mapping[str, Any]) -> dict[str, Any]:
    if "cell" not in body or "tile" not in body:
        raise ActionError("correct needs cell and tile (null for face down)")
    return {"cell": _cell(body["cell"], "cell"), "tile": _tile(body["tile"], "tile",
                                                                allow_none=True)}


def _new_game(body: Mapping[str, Any]) -> dict[str, Any]:
    game = body.get("game")
    if game not in game_names():
        raise ActionError(f"game must be one of {', '.join(game_names())}")
    setup = body.get("setup")
    if not isinstance(setup, dict):
        raise ActionError("setup must be an object")
    players = setup.get("players")
    if players is not None:
        if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS:
            raise ActionError(f"setup.players must be a list of 1..{MAX_PLAYERS} names")
        names: list[str] = []
        for i, name in enumerate(players):
            if not isinstance(name, str) or not name.strip():
                raise ActionError(f"setup.players[{i}] must be a non-empty name")
            name = " ".join(name.split())
            if len(name) > MAX_NAME or not name.isprintable():
                raise ActionError(f"setup.players[{i}] must be at most {MAX_NAME} printable "
                                  "characters")
            if name.casefold() in (n.casefold() for n in names):
                raise ActionError(f"setup.players[{i}]: {name!r} is there twice")
            names.append(name)
        setup = {**setup, "players": names}
    first = setup.get("first")
    if first is not None and (
        not isinstance(first, int) or isinstance(first, bool)
        or not 0 <= first < len(setup.get("players") or [None] * MAX_PLAYERS)
    ):
        raise ActionError("setup.first must be the seat number of a player")
    return {"game": game, "setup": setup}


def _settings(body: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "advisor" in body:
        if not isinstance(body["advisor"], bool):
            raise ActionError("advisor must be true or false")
        out["advisor"] = body["advisor"]
    if not out:
        raise ActionError("settings needs at least one of: advisor")
    return out


def _resolve(body: Mapping[str, Any]) -> dict[str, Any]:
    cells = body.get("cells")
    if not isinstance(cells, dict) or not cells:
        raise ActionError('resolve needs cells: {"row,col": tile or null, ...}')
    out: dict[str, str | None] = {}
    for key, tile in cells.items():
        parts = key.split(",") if isinstance(key, str) else []
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ActionError(f"resolve: cell key {key!r} must be \"row,col\"")
        r, c = _cell([int(p) for p in parts], f"cells[{key!r}]")
        out[f"{r},{c}"] = _tile(tile, f"cells[{key!r}]", allow_none=True)
    return {"cells": out}


def _event(body: Mapping[str, Any]) -> dict[str, Any]:
    event = body.get("event")
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise ActionError('event must be a game event object with a "type"')
    return {"event": event}


def _nothing(body: Mapping[str, Any]) -> dict[str, Any]:
    return {}


def _timer(body: Mapping[str, Any]) -> dict[str, Any]:
    if not isinstance(body.get("pause"), bool):
        raise ActionError("timer needs pause: true or false")
    return {"pause": body["pause"]}


# action word -> (checker returning the cleaned fields, fields it may carry)
_ACTIONS: dict[str, tuple[Callable[[Mapping[str, Any]], dict[str, Any]], frozenset[str]]] = {
    "next": (_nothing, frozenset()),
    "quit": (_nothing, frozenset()),
    "pass": (_nothing, frozenset()),
    "undo": (_nothing, frozenset()),
    "resolve": (_resolve, frozenset({"cells"})),
    "event": (_event, frozenset({"event"})),
    "claim": (_claim, frozenset({"cells"})),
    "turn": (_turn, frozenset({"cell", "tile"})),
    "correct": (_correct, frozenset({"cell", "tile"})),
    "new_game": (_new_game, frozenset({"game", "setup"})),
    "settings": (_settings, frozenset({"advisor"})),
    "timer": (_timer, frozenset({"pause"})),
}
_GAME_WORD = re.compile(r"^[a-z][a-z_]{0,31}$")

ACTIONS: tuple[str, ...] = tuple(_ACTIONS)


def clean_action(body: Any) -> dict[str, Any]:
    """The action as the runtime receives it; raises :class:`ActionError` for a bad body."""
    if not isinstance(body, dict):
        raise ActionError('the body must be a JSON object like {"action": "next"}')
    word = body.get("action")
    if not isinstance(word, str) or not _GAME_WORD.match(word):
        raise ActionError(f"action must be one of {', '.join(_ACTIONS)} or a game's own word")
    if word not in _ACTIONS:
        # a game's own word (Wort-Kniffel's "enter"...): the game's act hook checks its fields,
        # so this file never learns a game's vocabulary
        return dict(body)
    check, fields = _ACTIONS[word]
    extra = set(body) - {"action", "player"} - fields
    if extra:
        raise ActionError(f"{word}: unknown field(s) {', '.join(sorted(extra))}")
    out: dict[str, Any] = {"action": word, **check(body)}
    if "player" in body:
        out["player"] = _player(body["player"])
    return out
