"""What can happen in a game of Finde den Mörder, as frozen values and their JSON.

Events (``GAME.decode`` / ``GAME.encode``; cells are ``[row, col]`` from 0, tiles are
``"M" "Ö" "R" "D" "E"`` or ``"X"`` for the victim):

- ``{"type": "turn_tile", "cell": [r, c], "tile": "R"}``: a tile turned by the player on turn
- ``{"type": "next"}``: "Next!" (in the final look: the looking player passes)
- ``{"type": "claim", "player": 1, "cells": [[r, c], ...six] | null}``: "MÖRDER!"
- ``{"type": "quit", "player": 1}``: "Ich steige aus. Es gibt keinen Mörder!"
- ``{"type": "pass", "player": 1}``: the final look ends without a claim
- ``{"type": "correct", "cell": [r, c], "tile": "E" | null, "also": [[[r, c], "M"], ...]}``
- ``{"type": "undo"}``: handled by ``base.Timeline``
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.codec import EventCodec
from companion.games.moerder.board import Cell, Tile, cell_index


def _check_cell(cell: Cell) -> None:
    cell_index(cell)  # raises BoardError (a ValueError) off the board; the codec reports it


@dataclass(frozen=True)
class TurnTile:
    """A tile turned face up at ``cell``, showing ``tile``; by the player on turn."""

    cell: tuple[int, int]
    tile: Tile

    def __post_init__(self) -> None:
        _check_cell(self.cell)


@dataclass(frozen=True)
class Next:
    """The player on turn says "Next!" (in the final look: passes)."""


@dataclass(frozen=True)
class Claim:
    """``player`` says MÖRDER; ``cells`` optionally names the six tiles, M first."""

    player: int
    cells: tuple[tuple[int, int], ...] | None = None


@dataclass(frozen=True)
class Quit:
    """``player`` says "Ich steige aus. Es gibt keinen Mörder!"."""

    player: int


@dataclass(frozen=True)
class Pass:
    """``player`` ends their final look without a claim."""

    player: int


@dataclass(frozen=True)
class Correct:
    """The tile at ``cell`` really shows ``tile`` (``None``: it is still face down).

    ``also`` fixes more tiles in the same breath, as ``((cell, tile), ...)``: once all seven of
    a letter lie face up, two misread tiles can only be put right together (an M read as E and
    an E read as M), or the first fix alone would be an impossible reading.
    """

    cell: tuple[int, int]
    tile: Tile | None
    also: tuple[tuple[tuple[int, int], Tile | None], ...] = ()

    def __post_init__(self) -> None:
        for cell, _ in self.fixes:
            _check_cell(cell)

    @property
    def fixes(self) -> tuple[tuple[tuple[int, int], Tile | None], ...]:
        return ((self.cell, self.tile), *self.also)


Event = TurnTile | Next | Claim | Quit | Pass | Correct
CODEC = EventCodec([TurnTile, Next, Claim, Quit, Pass, Correct])

__all__ = ["CODEC", "Claim", "Correct", "Event", "Next", "Pass", "Quit", "TurnTile"]
