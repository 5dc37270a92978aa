from __future__ import annotations
from collections.abc import Mapping
from typing import Any
from companion.games.base import EventError
from companion.games.moerder.board import SIZE
from companion.games.moerder.observe import board_chars


def _char(tile: Any) -> str:
    if tile is None:
        return "."
    t = str(tile).upper()
    return "Ö" if t == "O" else t


def act(state: Any, word: str, fields: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    if word == "next":
        if fields:
            raise EventError("next takes no fields")
        return ({"type": "next"},)
    if word in ("claim", "quit", "pass"):
        return ({"type": word, "player": state.turn, **fields},)
    if word == "turn":
        if set(fields) != {"cell", "tile"}:
            raise EventError('turn needs exactly "cell": [row, col] and "tile"')
        return ({"type": "turn_tile", **fields},)
    if word == "correct":
        return ({"type": "correct", **fields},)
    if word == "resolve":
        cells = fields.get("cells")
        if set(fields) != {"cells"} or not isinstance(cells, Mapping) or not cells:
            raise EventError('resolve needs "cells": {"row,col": "M" | … | null}')
        board = board_chars(state)
        answers = []
        for key, tile in cells.items():
            try:
                r, c = (int(x) for x in str(key).split(","))
                if not (0 <= r < SIZE and 0 <= c < SIZE):
                    raise ValueError
            except ValueError:
                raise EventError(f"resolve: {key!r} is not a cell 'row,col'") from None
            answers.append((r * SIZE + c, tile))
        answers.sort(key=lambda a: _char(a[1]) != "X")
        out = []
        for index, tile in answers:
            cell = list(divmod(index, SIZE))
            if board[index] == ".":
                if tile is not None:
                    out.append({"type": "turn_tile", "cell": cell, "tile": tile})
            elif _char(tile) != board[index]:
                out.append({"type": "correct", "cell": cell, "tile": tile})
        return tuple(out)
    raise EventError(f"unknown action {word!r}")
