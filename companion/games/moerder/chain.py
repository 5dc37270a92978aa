"""Chains of M-Ö-R-D-E-R on one board, in plain Python.

The rules need two things on every claim and every turned tile: "is this the word?" and "which
chains stand on the table?". Both are cheap on one board, so they live here without numpy; the
vectorised many-board check for Monte Carlo is in :mod:`companion.games.moerder.solver`.

A chain is six *different* tiles, each touching the next horizontally, vertically or
diagonally, spelling M Ö R D E R in that order; it may cross itself. It is written as the six
cells ``(row, column)`` from the M to the last R.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.moerder.board import (
    CELLS,
    SIZE,
    Board,
    Cell,
    Tile,
    index_cell,
    neighbours,
)

Chain = tuple[Cell, ...]

# The word as tiles, position by position.
WORD_TILES: tuple[Tile, ...] = (Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E, Tile.R)
CHAIN_LENGTH = len(WORD_TILES)

# Neighbours by cell index, in ascending order, so chains come out in a stable order.
NEIGHBOUR_INDICES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(r * SIZE + c for r, c in neighbours(index_cell(i)))) for i in range(CELLS)
)


def find_chains(board: Board, limit: int | None = None) -> list[Chain]:
    """Every chain on the face-up tiles, ordered by their cell indices (M first).

    ``limit`` stops after that many chains (``find_chains(b, 1)`` answers "is there one?").
    """
    cells = board.cells
    found: list[Chain] = []
    path: list[int] = []

    def extend(last: int) -> bool:
        """Depth-first from ``last``; True once ``limit`` chains are found."""
        want = WORD_TILES[len(path)]
        for j in NEIGHBOUR_INDICES[last]:
            if cells[j] is not want or j in path:
                continue
            path.append(j)
            if len(path) == CHAIN_LENGTH:
                found.append(tuple(index_cell(i) for i in path))
                done = limit is not None and len(found) >= limit
            else:
                done = extend(j)
            path.pop()
            if done:
                return True
        return False

    for start, tile in enumerate(cells):
        if tile is Tile.M:
            path.append(start)
            stop = extend(start)
            path.pop()
            if stop:
                break
    return found


def chain_fault(board: Board, cells: Sequence[Cell]) -> str | None:
    """Why ``cells`` is not a chain on ``board`` (one sentence), or ``None`` if it is one."""
    if len(cells) != CHAIN_LENGTH:
        return f"a chain has {CHAIN_LENGTH} tiles, not {len(cells)}"
    for cell in cells:
        r, c = cell
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return f"cell {list(cell)} is off the board"
    if len(set(cells)) != CHAIN_LENGTH:
        return "a chain needs six different tiles; a tile is used twice"
    for pos, (cell, want) in enumerate(zip(cells, WORD_TILES), start=1):
        got = board[cell]
        if got is None:
            return f"tile {pos} at {list(cell)} is still face down"
        if got is not want:
            return f"tile {pos} at {list(cell)} shows {got.value}, the word needs {want.value}"
    for pos, (a, b) in enumerate(zip(cells, cells[1:]), start=1):
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            return f"tiles {pos} and {pos + 1} ({list(a)} and {list(b)}) do not touch"
    return None
