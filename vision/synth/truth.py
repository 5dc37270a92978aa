"""The ground truth of a rendered table, and how far a grid found in it lies from its tiles:
what the tests and the benches score a reader against."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from companion.games.moerder.board import SIZE, Board

if TYPE_CHECKING:
    from vision.grid.model import Grid


@dataclass(frozen=True)
class Truth:
    """What a render shows: the answer a reader should give."""

    board: Board
    rotations: tuple[int, ...]  # per cell, the letter's clockwise turn (0 for hidden/victim)
    corners: np.ndarray  # (4, 2) outer grid corners in the image: TL, TR, BR, BL
    tiles: np.ndarray  # (36, 4, 2) each tile's corners in the image
    style: str
    hand: bool  # a hand covers part of the grid

    @property
    def pitch(self) -> float:
        """A cell's side in the image, px (the grid's top edge over six)."""
        return float(np.linalg.norm(self.corners[1] - self.corners[0])) / SIZE

    def off(self, grid: Grid) -> tuple[float, float]:
        """How far a grid found lies from this one, in pitches: its worst cell's centre from
        its tile's, and its worst outer corner (by coordinate). A lattice's outer corners
        can lie further off than its cells: each cell keeps its own tile's outline."""
        return (max(self.cells_off(grid)),
                float(np.abs(grid.corners - self.corners).max()) / self.pitch)

    def cells_off(self, grid: Grid) -> list[float]:
        """Each cell's centre as the grid found crops it from its tile's, in pitches: a cell
        more than half a pitch off reads a place that is not its tile."""
        return [float(np.linalg.norm(grid.cell_quad(i // SIZE, i % SIZE).mean(axis=0)
                                     - tile.mean(axis=0))) / self.pitch
                for i, tile in enumerate(self.tiles)]


__all__ = ["Truth"]
