"""Read the table only when it is still, and re-read only what changed.

A frame is worth reading when nothing moves (hands gone) and nothing lies over the grid.
Motion is the difference between consecutive frames at low resolution. A hand held still
over the grid is caught by comparing the rectified grid with the last stable one: turning a
tile changes that tile's square; a hand or arm also changes the gaps between tiles across
several cells and the table around the grid.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import SIZE

_log = logging.getLogger(__name__)

MOTION_SIZE = (160, 120)
MOTION_LEVEL = 18  # gray levels: a pixel this much brighter or darker has changed
MOTION_SHARE = 0.004  # share of changed pixels that counts as motion
CELL_CHANGE = 14.0  # mean absolute difference (gray levels) of a tile's square that is a change
GAP_CHANGE = 0.25  # share of a cell's gap pixels changed that counts as something over the gaps


def _small_gray(frame: np.ndarray) -> np.ndarray:
    g = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    g = cv2.resize(g, MOTION_SIZE, interpolation=cv2.INTER_AREA)
    out: np.ndarray = cv2.GaussianBlur(g, (5, 5), 0)
    return out


class Stillness:
    """Says when the view has been still for ``frames`` consecutive frames."""

    def __init__(self, frames: int = 2) -> None:
        self.frames = frames
        self._last: np.ndarray | None = None
        self._still = 0

    def update(self, frame: np.ndarray) -> bool:
        g = _small_gray(frame)
        if self._last is None or self._last.shape != g.shape:
            moving = False
            self._still = 0
        else:
            diff = cv2.absdiff(g, self._last)
            moving = float(np.mean(diff > MOTION_LEVEL)) > MOTION_SHARE
            self._still = 0 if moving else self._still + 1
        self._last = g
        return self._still >= self.frames - 1 and not moving

    def reset(self) -> None:
        self._last = None
        self._still = 0


@dataclass(frozen=True)
class Change:
    """How a rectified grid differs from the last stable one."""

    cells: tuple[int, ...]  # row-major indices whose tile square changed
    covered: bool  # something lies over the grid (gaps changed across cells)
    moved: bool  # nearly everything changed: the camera or the table moved


def tile_mask(px: int, tile: float) -> np.ndarray:
    """True on the tiles' squares of a rectified grid (``px`` per cell), False on the gaps."""
    m = np.zeros((SIZE * px, SIZE * px), bool)
    inset = int(round(px * (1 - tile) / 2))
    for r in range(SIZE):
        for c in range(SIZE):
            m[r * px + inset : (r + 1) * px - inset, c * px + inset : (c + 1) * px - inset] = True
    return m


def compare(now: np.ndarray, ref: np.ndarray, px: int, tile: float) -> Change:
    """Compare two rectified grids (BGR, ``px`` per cell) of the same lattice."""
    a = cv2.GaussianBlur(cv2.cvtColor(now, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.int16)
    b = cv2.GaussianBlur(cv2.cvtColor(ref, cv2.COLOR_BGR2GRAY), (3, 3), 0).astype(np.int16)
    diff = np.abs(a - b).astype(np.float32)
    # the inner part of each tile, safe from jitter; the gaps, shrunk away from tile edges
    inner = tile_mask(px, tile * 0.7)
    gaps = ~tile_mask(px, min(1.0, tile * 1.12))
    changed: list[int] = []
    gap_cells = 0
    for r in range(SIZE):
        for c in range(SIZE):
            sl = (slice(r * px, (r + 1) * px), slice(c * px, (c + 1) * px))
            d = diff[sl]
            if float(d[inner[sl]].mean()) > CELL_CHANGE:
                changed.append(r * SIZE + c)
            g = gaps[sl]
            if g.any() and float(np.mean(d[g] > 2 * MOTION_LEVEL)) > GAP_CHANGE:
                gap_cells += 1
    moved = len(changed) > SIZE * SIZE * 0.6
    covered = gap_cells >= 3 and not moved
    return Change(tuple(changed), covered, moved)


__all__ = ["Change", "Stillness", "compare", "tile_mask"]
