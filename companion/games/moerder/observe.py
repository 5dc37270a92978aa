"""What a still camera reading of the 6x6 tiles means for a game of Finde den Mörder.

Vision never decides the game: this turns a reading into the ``turn_tile`` events it proves
and into a question for the table wherever it cannot. Every proposed event is tried on the
rules first, so the table applies exactly what was checked here.

- A face-down cell now read as a tile is that tile turned; the victim goes first, because its
  neighbours may only be turned once it lies face up.
- A face-down cell the reader is unsure of (``?``) is asked about, never guessed.
- A face-up cell read as something else is asked about ("please check"); the game keeps what it
  has until a person answers.
- A reading the rules refuse (an eighth M, a tile beside a pending victim…) is asked about too,
  with the rules' own code and reason.
- What people ruled is remembered (:class:`Memo`): when the game's board changed at a cell by
  someone other than the camera (a correction, an answer, an undo), or people answered the
  question about it (:class:`~companion.games.base.Answered`), while the camera still sees
  what it saw there, that sight is *overruled* and ignored at that cell until the camera sees
  what the game has (a face-up tile never changes, so the camera's doubts about it are noise).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.games.base import Answered, Observed, Prompt, Refused
from companion.games.moerder.board import SIZE, Tile
from companion.games.moerder.events import TurnTile
from companion.games.moerder.rules import MoerderState, Phase, apply
from companion.games.readings import HIDDEN, UNSURE, GridReading


@dataclass(frozen=True)
class Memo:
    """What the last still reading left behind: the board as the camera's events left it,
    the reading it believed, and the sights people overruled per cell index."""

    expected: str
    believed: str
    overruled: Mapping[int, frozenset[str]] = field(default_factory=dict)
    asked: tuple[int, ...] = ()


def board_chars(state: MoerderState) -> str:
    """The board as reading characters: a tile's character, or ``.`` when face down."""
    return "".join(HIDDEN if t is None else t.value for t in state.board.cells)


def observe(state: MoerderState, reading: Any, memo: Any) -> Observed:
    """The events and question a still reading gives (``memo``: what the last one left)."""
    if not isinstance(reading, GridReading) or reading.size != SIZE:
        return Observed(memo=memo)
    if state.phase is Phase.OVER:
        return Observed(memo=memo)  # nothing left to referee: the table is being cleared
    board = board_chars(state)
    answered = isinstance(memo, Answered)
    last = memo.memo if isinstance(memo, Answered) else memo
    overruled = _overruled(board, reading.cells, last if isinstance(last, Memo) else None,
                           answered)
    seen = "".join(
        board[i] if i in overruled and (board[i] != HIDDEN or ch in overruled[i]) else ch
        for i, ch in enumerate(reading.cells)
    )
    shown = {"rotations": _rotations(reading)}
    unsure = [i for i, ch in enumerate(seen) if ch == UNSURE and board[i] == HIDDEN]
    differs = [i for i, ch in enumerate(seen)
               if board[i] != HIDDEN and ch not in (board[i], UNSURE)]
    if unsure or differs:
        prompt = (
            _prompt("unsure", "unsure_cells", unsure, reading,
                    "The camera is not sure what these tiles show: please tell it.")
            if unsure else
            _prompt("unsure", "reading_differs", differs, reading,
                    "The camera sees something else than the game remembers here: "
                    "please check these tiles.")
        )
        memo_now = Memo(board, reading.cells, overruled, tuple(unsure or differs))
        return Observed((), prompt, memo_now, shown)
    turned = sorted((i for i, ch in enumerate(seen) if board[i] == HIDDEN and ch != HIDDEN),
                    key=lambda i: seen[i] != Tile.VICTIM.value)
    events: list[TurnTile] = []
    question: Prompt | None = None
    asked: tuple[int, ...] = ()
    for i in turned:
        event = TurnTile(cell=divmod(i, SIZE), tile=Tile(seen[i]))
        try:
            state = apply(state, event).state
        except Refused as exc:
            kind = "impossible" if exc.code == "impossible_reading" else "unsure"
            question = replace(_prompt(kind, exc.code, [i], reading, exc.reason), refused=True)
            asked = (i,)
            break
        events.append(event)
    return Observed(tuple(events), question,
                    Memo(board_chars(state), reading.cells, overruled, asked), shown)


def _overruled(board: str, cells: str, memo: Memo | None,
               answered: bool) -> dict[int, frozenset[str]]:
    """The overruled sights, updated for what people changed or answered since the last
    reading (an answer may leave the board as it was: "yes, that is an M")."""
    out = dict(memo.overruled) if memo is not None else {}
    if memo is not None:
        ruled = {i for i, (now, left) in enumerate(zip(board, memo.expected)) if now != left}
        if answered:
            ruled |= set(memo.asked)
        for i in ruled:
            if memo.believed[i] != board[i]:
                out[i] = out.get(i, frozenset()) | {memo.believed[i]}
    for i in list(out):
        if cells[i] == board[i]:
            del out[i]  # the camera agrees with the game again
    return out


def _rotations(reading: GridReading) -> list[list[int]] | None:
    """How far each face-up letter is turned, for the phones to draw it so."""
    if reading.rotations is None:
        return None
    rot = [r if reading.cells[i] not in (HIDDEN, UNSURE, Tile.VICTIM.value) else 0
           for i, r in enumerate(reading.rotations)]
    return [rot[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]


def _prompt(kind: str, code: str, cells: list[int], reading: GridReading, message: str) -> Prompt:
    """A question about ``cells``, answered on the phone by ``resolve`` or ``correct``."""
    names = [f"{i // SIZE},{i % SIZE}" for i in cells]
    return Prompt(kind, code, message, answers=("resolve", "correct"), details={
        "cells": [list(divmod(i, SIZE)) for i in cells],
        "seen": {n: reading.cells[i] for n, i in zip(names, cells)},
        "candidates": {n: list(reading.candidates.get(i, ())) for n, i in zip(names, cells)},
    })


__all__ = ["Memo", "board_chars", "observe"]
