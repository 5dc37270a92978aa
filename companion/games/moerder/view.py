"""What the phones, the table and the buttons make of a state of Finde den Mörder.

Effects (``base.Effect``; ``data`` is JSON-ready, cells are ``[row, col]``):

=============== ==========================================================================
kind            data
=============== ==========================================================================
``tile``        ``{cell, tile, player}`` a tile turned face up, by the player on turn
``victim``      ``{cell, pending}`` the victim turned; its face-down neighbours to turn now
``last_tile``   ``{}`` the last face-down tile was turned
``turn``        ``{player, turn_number}`` a new turn begins
``quit``        ``{player}`` the player quit ("Es gibt keinen Mörder!")
``final_look``  ``{player}`` the player's one final look begins
``claim_valid`` ``{player, chain}`` the word is found; ``chain`` is six cells to highlight
``correction``  ``{cell, old, tile}`` a tile's reading changed (``tile`` null: face down)
``winner``      ``{player, reason, unclaimed_chain}`` the game is over; ``player`` may be null;
                ``reason`` is ``found``, ``quitter`` or ``no_winner``
=============== ==========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import EventError, TableView
from companion.games.moerder.board import SIZE
from companion.games.moerder.rules import MoerderState, Phase, cells_json


def view(state: MoerderState) -> dict[str, Any]:
    """The JSON-ready picture the dashboard and the CLI show.

    Keys: ``game`` ("moerder"); ``board`` (notation); ``cells`` (6 rows of 6: the tile's
    character, ``"X"`` for the victim, or null when face down); ``remaining`` (unseen tiles per
    character); ``players`` (list of ``{name, quit}``); ``turn`` (index of the player on turn or
    looking); ``turn_number`` (1-based); ``phase`` ("playing" | "final_look" | "over");
    ``pending`` (cells to turn now); ``tile_turned_this_turn`` (bool); ``own_tile`` (cell or
    null); ``looks_left`` (player indices still to look); ``quitter``; ``winner`` (index or
    null); ``win_reason`` ("found" | "quitter" | "no_winner" | null); ``chain`` (the claimed
    chain's six cells or null); ``unclaimed_chain`` (at the end: a chain nobody claimed, or
    null); ``findable_since_turn`` (the turn a chain first stood on the table; null until the
    game is over, so the dashboard never gives the word away during play). Cells are
    ``[row, col]``, 0-based from the top left.
    """
    over = state.phase is Phase.OVER
    return {
        "game": "moerder",
        "board": str(state.board),
        "cells": [
            [None if t is None else t.value for t in state.board.cells[r * SIZE : (r + 1) * SIZE]]
            for r in range(SIZE)
        ],
        "remaining": {t.value: n for t, n in state.board.remaining().items()},
        "players": [{"name": p, "quit": i == state.quitter} for i, p in enumerate(state.players)],
        "turn": state.turn,
        "turn_number": state.turn_number,
        "phase": state.phase.value,
        "pending": cells_json(state.pending),
        "tile_turned_this_turn": state.own_tile is not None,
        "own_tile": None if state.own_tile is None else list(state.own_tile),
        "looks_left": list(state.looks_left),
        "quitter": state.quitter,
        "winner": state.winner,
        "win_reason": None if state.win_reason is None else state.win_reason.value,
        "chain": None if state.chain is None else cells_json(state.chain),
        "unclaimed_chain": (
            None if state.unclaimed_chain is None else cells_json(state.unclaimed_chain)
        ),
        "findable_since_turn": state.findable_since_turn if over else None,
    }


def table_view(state: MoerderState) -> TableView:
    """The seat on turn (or looking), the quitter out, the victim's neighbours as a question."""
    over = state.phase is Phase.OVER
    return TableView(
        players=state.players,
        on_turn=None if over else state.turn,
        over=over,
        winners=() if state.winner is None else (state.winner,),
        out=() if state.quitter is None else (state.quitter,),
        question="victim_neighbours" if state.pending and not over else None,
        reason=None if state.win_reason is None else state.win_reason.value,
    )


def press(state: MoerderState, seat: int, gesture: str) -> dict[str, Any] | None:
    """What a seat's button means now (the table's buttons, ``GameRules.press``).

    A short press is "Next" (in the final look: the looking player passes), but only from
    the player on turn: anyone else's short press means nothing. A long press is that seat's
    MÖRDER claim, a double press that seat quitting ("Ich steige aus"); the rules decide
    whether they are allowed now. After the end nothing (the runtime may start a new game).
    """
    if state.phase is Phase.OVER or not 0 <= seat < len(state.players):
        return None
    if gesture == "next":
        return {"type": "next"} if seat == state.turn else None
    if gesture == "claim":
        return {"type": "claim", "player": seat}
    if gesture == "quit":
        return {"type": "quit", "player": seat}
    return None


def _char(tile: Any) -> str:
    if tile is None:
        return "."
    t = str(tile).upper()
    return "Ö" if t == "O" else t


def act(state: MoerderState, word: str, fields: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """A phone's own words for Finde den Mörder, as the events they stand for.

    ``next``; ``claim``/``quit``/``pass`` (``player`` defaults to the seat on turn); ``turn``
    ``{cell, tile}`` (a tile entered by hand, for a table without a camera); ``correct`` (a
    misread tile); ``resolve`` ``{"cells": {"r,c": tile | null}}`` (the answer to the camera's
    question: face-down cells are turned, face-up ones corrected, the victim first so that its
    neighbours may follow). The table applies them all or none.
    """
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
        board = "".join("." if t is None else t.value for t in state.board.cells)
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
