"""The 6x6 table of Finde den Mörder and its text notation.

Notation: six rows top to bottom joined by ``/``, each six characters: ``M Ö R D E`` for a
letter (``O`` is accepted for ``Ö``, any case), ``X`` for the victim, ``.`` for a tile still
face down. Example: ``MÖRDER/....../....../....../....../.....X``.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from companion.games.moerder.errors import MoerderError

SIZE = 6
CELLS = SIZE * SIZE
PER_LETTER = 7  # the set holds 7 of each letter and one victim
WORD = "MÖRDER"


class BoardError(MoerderError):
    """Bad board notation or an impossible board; the message names the row and column."""


class Tile(enum.Enum):
    """What a face-up tile shows. The value is the tile's character in the notation."""

    M = "M"
    OE = "Ö"
    R = "R"
    D = "D"
    E = "E"
    VICTIM = "X"

    @classmethod
    def from_char(cls, ch: str) -> Tile:
        """The tile for one notation character; raises ``ValueError`` for anything else."""
        up = ch.upper()
        if up == "O":
            up = "Ö"
        return cls(up)

    @property
    def is_letter(self) -> bool:
        return self is not Tile.VICTIM


LETTERS: tuple[Tile, ...] = (Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E)
# How many of each tile the set holds.
SET_COUNTS: dict[Tile, int] = {**{t: PER_LETTER for t in LETTERS}, Tile.VICTIM: 1}

Cell = tuple[int, int]  # (row, column), 0-based, row 0 at the top


def cell_index(cell: Cell) -> int:
    r, c = cell
    if not (0 <= r < SIZE and 0 <= c < SIZE):
        raise BoardError(f"cell {list(cell)} is off the 6x6 board")
    return r * SIZE + c


def cell_name(cell: Cell) -> str:
    """``A1`` for the top-left cell: column letter, then row number, as the phone names cells,
    so a cell reads the same on the command line and on the table's page."""
    r, c = cell
    return f"{'ABCDEF'[c]}{r + 1}"


def index_cell(i: int) -> Cell:
    return divmod(i, SIZE)


def neighbours(cell: Cell) -> tuple[Cell, ...]:
    """The up to eight cells touching ``cell`` horizontally, vertically or diagonally."""
    r, c = cell
    return tuple(
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )


@dataclass(frozen=True)
class Board:
    """36 cells, row by row; ``None`` is a tile still face down."""

    cells: tuple[Tile | None, ...] = (None,) * CELLS

    def __post_init__(self) -> None:
        if len(self.cells) != CELLS:
            raise BoardError(f"a board has {CELLS} cells, not {len(self.cells)}")

    @classmethod
    def parse(cls, text: str) -> Board:
        """Read the notation; raises :class:`BoardError` naming the row and column at fault.

        Also refuses boards the set cannot make (8 of a letter, two victims).
        """
        if not isinstance(text, str):
            raise BoardError("a board must be given as text")
        rows = text.strip().split("/")
        if len(rows) != SIZE:
            raise BoardError(f"a board has {SIZE} rows joined by '/', got {len(rows)}")
        cells: list[Tile | None] = []
        for r, row in enumerate(rows, start=1):
            if len(row) != SIZE:
                raise BoardError(f"row {r} has {len(row)} tiles, expected {SIZE}: {row!r}")
            for c, ch in enumerate(row, start=1):
                if ch == ".":
                    cells.append(None)
                    continue
                try:
                    cells.append(Tile.from_char(ch))
                except ValueError:
                    raise BoardError(
                        f"cell {cell_name((r - 1, c - 1))} (row {r}, column {c}): {ch!r} is not a tile "
                        "(M Ö R D E, X for the victim, . for face down)"
                    ) from None
        board = cls(tuple(cells))
        board.check_counts()
        return board

    def __str__(self) -> str:
        return "/".join(
            "".join("." if t is None else t.value for t in self.cells[r * SIZE : (r + 1) * SIZE])
            for r in range(SIZE)
        )

    def __getitem__(self, cell: Cell) -> Tile | None:
        return self.cells[cell_index(cell)]

    def with_tile(self, cell: Cell, tile: Tile | None) -> Board:
        cells = list(self.cells)
        cells[cell_index(cell)] = tile
        return Board(tuple(cells))

    def counts(self) -> Counter[Tile]:
        """Face-up tiles per kind."""
        return Counter(t for t in self.cells if t is not None)

    def remaining(self) -> dict[Tile, int]:
        """Tiles not yet seen, per kind (the set minus what is face up)."""
        seen = self.counts()
        return {t: SET_COUNTS[t] - seen[t] for t in SET_COUNTS}

    def check_counts(self) -> None:
        """Raise :class:`BoardError` if more of a tile is face up than the set holds."""
        for tile, n in self.counts().items():
            if n > SET_COUNTS[tile]:
                what = "victims" if tile is Tile.VICTIM else f"{tile.value} tiles"
                raise BoardError(f"the board shows {n} {what}; the set holds {SET_COUNTS[tile]}")

    def hidden(self) -> Iterator[Cell]:
        return (index_cell(i) for i, t in enumerate(self.cells) if t is None)

    @property
    def is_full(self) -> bool:
        return all(t is not None for t in self.cells)
