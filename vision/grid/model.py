"""What locating finds: the tile-like squares, the located grid, and the error when there
is none."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision import VisionError

WORK_SIDE = 640  # longest side of the working image for locating
MIN_TILES = 10  # fewer detected tiles than this is no grid


class GridNotFound(VisionError):
    """No 6x6 grid of tiles could be found in the frame."""


@dataclass(frozen=True)
class Candidate:
    """A tile-like square found in the working image."""

    quad: np.ndarray  # (4, 2) corners, image order not yet normalised
    centre: np.ndarray  # (2,)
    side: float
    guess: bool = False  # placed from a merged blob, not seen: helps the lattice, not the crop
    table: bool = False  # drawn in the table's colours among them: maybe the table's pattern


@dataclass(frozen=True)
class Grid:
    """A located grid in full-resolution pixels.

    ``homography`` maps lattice coordinates (x = column, y = row; cell (r, c) spans
    [c, c+1] x [r, r+1]) to image pixels. ``tile`` is a tile's side as a fraction of the pitch.
    """

    homography: np.ndarray
    corners: np.ndarray  # (4, 2) outer corners of the tiles: TL, TR, BR, BL
    tile: float
    quads: tuple[np.ndarray | None, ...]  # per cell (row-major): the detected tile outline
    found: int  # how many of the 36 tiles were seen as squares

    def cell_quad(self, row: int, col: int) -> np.ndarray:
        """The tile's corners (TL, TR, BR, BL in lattice order): detected, else the lattice's
        (also for a place outside the 6x6 window, where the lattice runs on)."""
        q = self.quads[row * SIZE + col] if 0 <= row < SIZE and 0 <= col < SIZE else None
        if q is not None:
            return q
        h = self.tile / 2
        cx, cy = col + 0.5, row + 0.5
        pts = np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])
        return project(self.homography, pts)

    def to_lattice(self, pts: np.ndarray) -> np.ndarray:
        return project(np.linalg.inv(self.homography), pts)

    def moved(self, dx: float, dy: float) -> Grid:
        """The same grid in a frame whose origin lies (-dx, -dy) from this one's: a grid
        located in a part of a photo, given in the photo's pixels."""
        shift = np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])
        by = np.array([dx, dy])
        return Grid(shift @ self.homography, self.corners + by, self.tile,
                    tuple(None if q is None else q + by for q in self.quads), self.found)


def neighbour_counts(centres: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """How many points lie within ``reach[i]`` of each point ``centres[i]`` (itself too).
    Counted by buckets as wide as the farthest reach, each point against its own bucket and
    the eight round it: a textured table gives two thousand squares, and every pair's
    distance took 70 MB and tens of ms a fit."""
    width = max(float(reach.max()), 1e-6) if len(reach) else 1.0
    buckets: dict[tuple[int, int], list[int]] = {}
    for i, (bx, by) in enumerate(np.floor(centres / width).astype(np.int64).tolist()):
        buckets.setdefault((bx, by), []).append(i)
    out = np.zeros(len(centres), np.int64)
    for (bx, by), members in buckets.items():
        around = np.array([j for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                           for j in buckets.get((bx + dx, by + dy), ())])
        mine = np.array(members)
        d = np.linalg.norm(centres[mine][:, None] - centres[around][None], axis=2)
        out[mine] = (d < reach[mine][:, None]).sum(axis=1)
    return out


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to (n, 2) points."""
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(p, h).reshape(-1, 2)
    return out

