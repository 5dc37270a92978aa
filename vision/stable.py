"""Read the table only when it is still, and re-read only what changed.

A frame is worth reading when nothing moves (hands gone) and nothing lies over the grid.
Motion is the difference between consecutive frames at low resolution. A hand held still
over the grid is caught by comparing the rectified grid with the last stable one: turning a
tile changes that tile's square; a hand or arm changes several touching cells at once and the
table around the grid, where it reaches in. A change that stays put for a while is accepted
(several tiles really were turned, or something was left lying there: the cells say so).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import SIZE

MOTION_SIZE = (160, 120)
MOTION_LEVEL = 18  # gray levels: a pixel this much brighter or darker has changed
MOTION_SHARE = 0.004  # share of changed pixels that counts as motion
# how much a tile's square differs between two still frames (the mean distance of its pixels
# in 8-bit Lab, blurred a little), in colour and lightness both: a face and a back can share
# their grey (a bench tile turned from red to green changed 9.9 grey levels, 36.7 in Lab).
# A square changed when it differs by CELL_CHANGE, and by CELL_NOISE times the grid's median
# square, which a camera's noise and flicker set (unchanged squares of renders differ by up to
# 2.1, turned tiles by 13.8 at least: a light face with a small picture where a faint
# honeycomb back lay)
CELL_CHANGE = 8.0
CELL_NOISE = 4.0
# ... and the view moved (the camera bumped) when most squares differ by this, whatever the
# median: a shifted view changes every square alike, as a lamp does, but by far more
MOVED_CHANGE = 14.0
RING_CHANGE = 0.03  # share of the table ring around the grid changed: an arm reaches in
TURN_LEVEL = 40  # gray levels: a pixel of a tile turned since the reference frame (blurred)
TURN_LEAST = 0.002  # share of a frame that must differ from the reference to say where
GAIN_DARKEST = 16.0  # gray levels: pixels darker than this in the reference tell no exposure
GAIN_BINS = 128  # the exposure's ratio is measured to 1/128
GAIN_MAX = 4.0  # ... and up to four times brighter


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


@dataclass(frozen=True)
class Turned:
    """Where a frame differs from the reference frame of the same view (the tiles turned
    since), at low resolution: they lie in the grid, the table around it stays as it was."""

    mask: np.ndarray  # bool, at ``scale`` of the frames
    scale: float

    @classmethod
    def between(cls, now: np.ndarray, ref: np.ndarray, side: int = 320) -> Turned | None:
        """None when the two frames are not colour frames of one view's size (nothing can
        be said)."""
        if now.shape != ref.shape or now.ndim != 3 or now.shape[2] != 3:
            return None
        scale = side / max(now.shape[:2])
        size = (max(1, round(now.shape[1] * scale)), max(1, round(now.shape[0] * scale)))
        # sampled, not averaged (a fifth of the time of a whole read): the blur after it
        # takes out the noise, and a turned tile is many pixels wide at this size
        a, b = (cv2.GaussianBlur(cv2.cvtColor(cv2.resize(f, size, interpolation=cv2.INTER_LINEAR),
                                              cv2.COLOR_BGR2GRAY), (5, 5), 0)
                for f in (now, ref))
        fa, fb = a.astype(np.float32), b.astype(np.float32)
        diff = np.abs(fa - fb * _gain(fa, fb))
        return cls(diff > TURN_LEVEL, scale)

    def _changed(self) -> int | None:
        """How many pixels changed; None when too few to say where (nothing turned)."""
        total = int(self.mask.sum())
        return None if total < TURN_LEAST * self.mask.size else total

    def inside(self, corners: np.ndarray) -> float | None:
        """The share of the change inside the quadrilateral ``corners`` (frame px); None when
        nothing changed."""
        total = self._changed()
        if total is None:
            return None
        quad = np.zeros(self.mask.shape, np.uint8)
        cv2.fillConvexPoly(quad, np.round(np.asarray(corners) * self.scale).astype(np.int32), 1)
        return float(np.count_nonzero(self.mask & (quad > 0))) / total

    def box(self, margin: float) -> tuple[int, int, int, int] | None:
        """Where the change lies (x0, y0, x1, y1 in frame px), widened by ``margin`` of its
        size on every side; None when nothing changed."""
        if self._changed() is None:
            return None
        ys, xs = np.nonzero(self.mask)
        x0, x1 = xs.min() / self.scale, (xs.max() + 1) / self.scale
        y0, y1 = ys.min() / self.scale, (ys.max() + 1) / self.scale
        mx, my = margin * (x1 - x0), margin * (y1 - y0)
        return (int(max(0.0, x0 - mx)), int(max(0.0, y0 - my)),
                int(np.ceil(x1 + mx)), int(np.ceil(y1 + my)))


def _gain(now: np.ndarray, ref: np.ndarray) -> float:
    """How much the camera's exposure moved: the median of the pixels' ratios, which the
    table (most of the frame, unchanged) sets. The ratio of the frames' medians would not
    do: on a cloth of light and dark checks the median sits between the two, and dark backs
    turned to light faces move it far enough to mark the whole cloth as turned."""
    lit = ref >= GAIN_DARKEST  # a ratio of near-black pixels is noise
    if np.count_nonzero(lit) < TURN_LEAST * ref.size:
        return 1.0
    bins = np.minimum(now[lit] / ref[lit] * GAIN_BINS, GAIN_MAX * GAIN_BINS).astype(np.int32)
    below = np.cumsum(np.bincount(bins))  # a median from a histogram: np.median sorts
    return float(np.searchsorted(below, below[-1] // 2)) / GAIN_BINS


def tile_mask(px: int, tile: float) -> np.ndarray:
    """True on the tiles' squares of a rectified grid (``px`` per cell), False on the gaps."""
    m = np.zeros((SIZE * px, SIZE * px), bool)
    inset = int(round(px * (1 - tile) / 2))
    for r in range(SIZE):
        for c in range(SIZE):
            m[r * px + inset : (r + 1) * px - inset, c * px + inset : (c + 1) * px - inset] = True
    return m


def compare(now: np.ndarray, ref: np.ndarray, px: int, tile: float, border: int = 0) -> Change:
    """Compare two rectified grids (BGR, ``px`` per cell, ``border`` px of table around).

    A square is measured by its colour, not its grey, and against the grid's median square:
    most tiles never change between two still frames, so the median is what the light and
    the camera add to every square."""
    a = cv2.GaussianBlur(now, (3, 3), 0)
    b = cv2.GaussianBlur(ref, (3, 3), 0)
    hot = cv2.absdiff(cv2.cvtColor(a, cv2.COLOR_BGR2GRAY),
                      cv2.cvtColor(b, cv2.COLOR_BGR2GRAY)) > 2 * MOTION_LEVEL
    lab = (cv2.cvtColor(a, cv2.COLOR_BGR2LAB).astype(np.float32)
           - cv2.cvtColor(b, cv2.COLOR_BGR2LAB).astype(np.float32))
    diff = cv2.sqrt(cv2.transform(cv2.multiply(lab, lab), np.ones((1, 3), np.float32)))
    inner = tile_mask(px, tile * 0.7)  # the middle of each tile, safe from jitter
    core = diff[border : border + SIZE * px, border : border + SIZE * px]
    per_cell = (SIZE, px, SIZE, px)  # rows, a cell's rows, columns, a cell's columns
    squares = ((core * inner).reshape(per_cell).sum(axis=(1, 3))
               / inner.reshape(per_cell).sum(axis=(1, 3))).ravel()
    level = max(CELL_CHANGE, CELL_NOISE * float(np.median(squares)))
    changed = [int(i) for i in np.flatnonzero(squares > level)]
    moved = int(np.count_nonzero(squares > MOVED_CHANGE)) > SIZE * SIZE * 0.6
    # an arm reaches in over the table around the grid; a turned tile stays inside
    ring = np.ones(hot.shape, bool)
    ring[border : border + SIZE * px, border : border + SIZE * px] = False
    ring_hot = float(hot[ring].mean()) if border else 0.0
    covered = not moved and (ring_hot > RING_CHANGE or _clustered(changed))
    return Change(tuple(changed), covered, moved)


def _clustered(cells: list[int]) -> bool:
    """Three or more changed cells touching each other: something lies over them (a game
    turns one tile at a time)."""
    if len(cells) < 3:
        return False
    pts = {(i // SIZE, i % SIZE) for i in cells}
    for r, c in pts:
        near = sum((r + dr, c + dc) in pts for dr in (-1, 0, 1) for dc in (-1, 0, 1))
        if near >= 3:  # itself and two neighbours
            return True
    return False


__all__ = ["Change", "Stillness", "Turned", "compare", "tile_mask"]
