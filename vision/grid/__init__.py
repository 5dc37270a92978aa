"""Find the 6x6 grid of tiles in a frame, fit its lattice, and rectify it.

Stages (plain functions, each testable on one image):

1. :func:`find_tiles` looks for tile-like squares at a working resolution, in several
   segmentations (not-the-table colour, brightness both ways, closed edges), because no single
   one survives every tile colour, back pattern and table.
2. :func:`fit_lattice` grows a lattice from the best-supported square outwards (a homography
   refitted at every step, so perspective and tilt are followed), picks the 6x6 window the
   evidence supports, and orders it so that row 0 is at the top of the image.
3. :func:`locate` glues both and returns a :class:`Grid` in full-resolution pixels, or raises
   :class:`GridNotFound`.

Hand-laid tiles are jittered and turned, and their gaps vary: the lattice is fitted to tile
centres by least squares with outliers dropped, and each cell keeps its own detected tile
outline when there is one (so a tile far off its place is still cropped whole).
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from typing import TypeVar

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision.grid.blob import whole_grid
from vision.grid.lattice import fit_lattice, order_quad
from vision.grid.model import WORK_SIDE, Candidate, Grid, GridNotFound, project
from vision.grid.squares import (
    FILL,
    ROUND_FILL,
    Segments,
    find_tiles,
    flat_light,
    not_table_mask,
    segments,
    table_pattern,
    with_outlines,
    work_image,
)

_log = logging.getLogger(__name__)
T = TypeVar("T")
# work the table spreads over frames, at most one fit a step: each step is sent the frame at hand
# (or None), and the work ends with its result
Steps = Generator[None, np.ndarray | None, T]


def locate(image: np.ndarray) -> Grid:
    """The grid in a BGR frame; raises :class:`GridNotFound` if there is none."""
    look = Look()
    while True:
        grid = look.step(image)
        if grid is not None:
            return grid


def looking(image: np.ndarray, follow: bool = False,
            ) -> Steps[Grid | None]:
    """:func:`locate` as steps, for work the table spreads over frames: it yields before
    each of :class:`Look`'s steps, so that looks made one after another still make one fit
    (or one cut) a step (begin it with :func:`begun`). With ``follow``, each fit is made on
    the frame sent to it (or to the cut before it), the one the table has then (tiles turned
    since only help), else on ``image``. Returns the grid, or None when there is none.
    A grid found is returned a step after its fit: what is done with it (the backs it cuts
    measured, all 36 cells read) then falls on a frame of its own, not on the fit's (the
    two together took a frame to 200-360 ms)."""
    look = Look()
    while True:
        sent = yield
        if follow and sent is not None:
            image = sent
        try:
            grid = look.step(image)
        except GridNotFound:
            return None
        if grid is not None:
            yield
            return grid


def begun(steps: Steps[T]) -> Steps[T]:
    """Stepwise work brought to its first fit: each step after this (``send`` the frame at
    hand, or ``next``) makes one."""
    next(steps)
    return steps


def finish(steps: Steps[T]) -> T:
    """Stepwise work done at once: a single photo has no next frame to go on in."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]


class Look:
    """:func:`locate` one fit a call. A frame without a grid is fitted up to eight times:
    square tiles at two scales, then rounder blobs at both (round-cornered cube faces are
    not square enough for the first fits), then both shapes on the frame as if evenly lit
    (:func:`flat_light`: dark tiles on a dark table under a dim lamp), at both scales too
    (on train frames of dark backs on dark laths in a lamp's spot, only the finer one
    fitted a lattice), 60-150 ms of one core each. The table makes one fit a frame, each on
    the frame it has then (tiles turned since only help), instead of all on one frame, over
    the frame's time; fits on the same image share its cuts. Cutting a frame at the finer
    scale and fitting there took up to 270 ms together on tables nobody tuned for (the
    budget is 250 ms a frame): such a cut is a step of its own, and the fit follows on the
    next step, on the frame that was cut."""

    def __init__(self) -> None:
        self.fits = 0
        self._views: _Views | None = None
        self._cut = False  # the last step only cut the frame: fit on it now

    def step(self, image: np.ndarray) -> Grid | None:
        """The next fit (or the cut before a fit at the finer scale), on ``image``, or on the
        frame the last step cut: the grid, or None when it found none (or only cut); raises
        :class:`GridNotFound` when the last one found none (or ``image`` is no frame)."""
        if image is None or image.ndim != 3 or min(image.shape[:2]) < 32:
            raise GridNotFound("not a colour photo of 32 px or more each way")
        if self._views is None or (self._views.image is not image and not self._cut):
            self._views = _Views(image)
        image = self._views.image
        sides = [WORK_SIDE]
        if max(image.shape[:2]) > WORK_SIDE * 1.2:  # a small grid in a wide frame: finer
            sides.append(int(WORK_SIDE * 1.6))
        ways = [(fill, side, flat) for flat in (False, True) for fill in (FILL, ROUND_FILL)
                for side in sides]
        fill, side, flat = ways[self.fits % len(ways)]
        if self._cut:  # the last step cut this frame: the fit is made on it now
            self._cut = False
        elif side != WORK_SIDE and self._views.cut(side, flat):
            self._cut = True
            return None
        self.fits += 1
        small, scale, seen = self._views.at(side, flat)
        try:
            cands, (h_small, cells, tile) = _fit(small, seen, fill)
            return _from_fit(cands, h_small, cells, tile, scale)
        except (GridNotFound, np.linalg.LinAlgError):
            pass
        if side != WORK_SIDE and fill == FILL:  # tiles laid edge to edge: one blob, no squares
            whole = whole_grid(seen.mask, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
            if whole is not None:
                up = np.diag([1 / scale, 1 / scale, 1.0])
                return _grid(up @ whole, 0.92, (None,) * (SIZE * SIZE), 0)
        if self.fits % len(ways) == 0:
            raise GridNotFound("no 6x6 grid of tiles found")
        return None


class _Views:
    """The frame at each working scale, with its not-the-table mask and its cuts, made the
    first time a look at that scale needs them: a frame without a grid is looked at up to
    eight times (two scales, rounder blobs at both, both shapes evenly lit at both), and
    cutting the image was most of each look."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self._at: dict[tuple[int, bool], tuple[np.ndarray, float, Segments]] = {}

    def cut(self, side: int, flat: bool) -> bool:
        """Cut the frame at this scale, its blobs' shapes too, unless that is done: did it
        cut?"""
        if (side, flat) in self._at:
            return False
        self.at(side, flat)[2].squares(ROUND_FILL)
        return True

    def at(self, side: int, flat: bool = False) -> tuple[np.ndarray, float, Segments]:
        if (side, flat) not in self._at:
            small, scale = work_image(self.image, side)
            small = flat_light(small) if flat else small
            self._at[side, flat] = small, scale, segments(small, not_table_mask(small))
        return self._at[side, flat]


def _fit(small: np.ndarray, seen: Segments, fill: float,
         ) -> tuple[list[Candidate], tuple[np.ndarray, dict[tuple[int, int], int], float]]:
    """The squares found and the lattice fitted to them. On a table with squares of its own
    those are left out first (they would win the tile size, or be taken for the grid); when
    no grid is found then, cubes the colour of a tiled table may have gone with them, so the
    fit is tried again with them. A window that sits (nearly) all on the table's own squares
    while tile-like squares unlike the table lie elsewhere is the table's pattern, no grid;
    when (nearly) every square is in the table's colours (cubes filling the view, so the
    table's colour was learned from them), the mark says nothing and the window stands.
    Between the two, backs seen by their outline only help (:func:`with_outlines`)."""
    evidence = seen.mask
    cands = find_tiles(small, evidence, fill, seen=seen)
    try:
        return cands, fit_lattice(cands, evidence, small)
    except (GridNotFound, np.linalg.LinAlgError) as e:
        failed: Exception = e
    more = with_outlines(seen, cands, fill)
    if len(more) > len(cands):
        try:
            return more, fit_lattice(more, evidence, small)
        except (GridNotFound, np.linalg.LinAlgError):
            pass
    if not table_pattern(seen, fill):
        raise failed  # no square was left out as the table's: a second fit would be the first
    every = find_tiles(small, evidence, fill, drop_pattern=False, seen=seen)
    if not any(c.table for c in every):
        raise failed
    fit = fit_lattice(every, evidence, small)
    # where no cell holds a square the size of a tile, the squares set aside as printed on
    # tiles (``-1 - k``) say where the window sits: a cloth's checks at half its pitch
    on_table = ([every[k].table for k in fit[1].values() if k >= 0]
                or [every[-1 - k].table for k in fit[1].values()])
    if sum(on_table) > 0.9 * len(on_table) and runs_on(every, fit[0], small.shape[:2]):
        raise GridNotFound("the table's own squares, running on past the window")
    tiles_elsewhere = sum(not c.table for c in every) >= SIZE * SIZE / 2
    if tiles_elsewhere and sum(on_table) > 0.9 * len(on_table):
        raise GridNotFound("only the table's own squares")
    if 2 * sum(on_table) > len(on_table) and whole_grid(
            seen.mask, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)) is not None:
        # tiles laid edge to edge are one blob, no squares: a window mostly on the table's
        # squares beside such a blob is the cloth; the blob is the grid (see :class:`Look`)
        raise GridNotFound("the table's own squares beside one blob of tiles")
    return every, fit


# the share of the places round a window (those in view) holding a square seen there, above
# which the squares run on past it: a table's pattern, not a grid, which holds 36 tiles and
# ends. On 200 train renders the first window fitted round a right grid had squares on up
# to 0.46 of its ring (on a plaid), and the one window this rule refused there had 0.54
RUNS_ON = 0.5
# the centres of the 28 places round a 6x6 window, in lattice coordinates
_RING = np.array([(c + 0.5, r + 0.5) for r in range(-1, SIZE + 1) for c in range(-1, SIZE + 1)
                  if r in (-1, SIZE) or c in (-1, SIZE)])


def runs_on(cands: list[Candidate], h: np.ndarray, shape: tuple[int, int]) -> bool:
    """Do the squares seen go on past the window of lattice ``h`` (window cell (r, c)
    centred at (c + .5, r + .5)), on most places of the ring round it that are in view, or
    beyond the ring, more of them of the window's size than the window holds? A cloth's
    checks drift off a lattice fitted to a few of them (the cloth lies in folds), so the
    ring's places can miss them where they still cover the table."""
    at = project(h, _RING)
    inside = ((at[:, 0] >= 0) & (at[:, 0] < shape[1]) & (at[:, 1] >= 0) & (at[:, 1] < shape[0]))
    if inside.sum() < SIZE:
        return False  # the window fills the view: nothing to say
    seen = np.array([c.centre for c in cands if not c.guess])
    sides = np.array([c.side for c in cands if not c.guess])
    lat = project(np.linalg.inv(h), seen)
    held_in = np.all((lat >= 0) & (lat <= SIZE), axis=1)
    if held_in.any():
        size = float(np.median(sides[held_in]))
        sized = (sides > 0.7 * size) & (sides < 1.4 * size)
        past = np.any((lat < -1) | (lat > SIZE + 1), axis=1)
        if (sized & past).sum() > held_in.sum():
            return True
    near = np.all(np.abs(lat - np.floor(lat) - 0.5) < 0.3, axis=1)
    held = {(int(np.floor(x)), int(np.floor(y))) for x, y in lat[near]}
    filled = sum((int(np.floor(x)), int(np.floor(y))) in held for x, y in _RING[inside])
    return filled > RUNS_ON * int(inside.sum())


def _from_fit(cands: list[Candidate], h_small: np.ndarray, cells: dict[tuple[int, int], int],
              tile: float, scale: float) -> Grid:
    """The grid in full-resolution pixels from a fit at a working scale; each cell keeps the
    outline of the tile seen there."""
    up = np.diag([1 / scale, 1 / scale, 1.0])
    h = up @ h_small
    hinv = np.linalg.inv(h)
    quads: list[np.ndarray | None] = [None] * (SIZE * SIZE)
    for (r, c), k in cells.items():
        if k >= 0:
            quads[r * SIZE + c] = order_quad(cands[k].quad / scale, hinv)
    return _grid(h, tile, tuple(quads), len(cells))


def _grid(h: np.ndarray, tile: float, quads: tuple[np.ndarray | None, ...], found: int) -> Grid:
    t = tile / 2
    corners = project(h, np.array([[0.5 - t, 0.5 - t], [5.5 + t, 0.5 - t], [5.5 + t, 5.5 + t],
                                   [0.5 - t, 5.5 + t]]))
    _log.debug("grid: %d tiles seen, tile %.2f of pitch", found, tile)
    return Grid(h, corners, tile, quads, found)


def rectify(image: np.ndarray, grid: Grid, px: int = 48, border: int = 0) -> np.ndarray:
    """The grid seen from straight above: ``(6*px + 2*border)`` square, cell (r, c) at
    [border + r*px, border + c*px]; ``border`` px of the table around it."""
    s = np.array([[1 / px, 0, -border / px], [0, 1 / px, -border / px], [0, 0, 1.0]])
    m = grid.homography @ s
    side = SIZE * px + 2 * border
    out: np.ndarray = cv2.warpPerspective(image, m, (side, side),
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out


def crop_tile(image: np.ndarray, grid: Grid, row: int, col: int, px: int = 64,
              margin: float = 0.0) -> np.ndarray:
    """The face of one tile, square ``px``, from its own outline (lattice order, so the crop
    is upright in grid terms); ``margin`` widens the crop by that fraction per side."""
    q = grid.cell_quad(row, col).astype(np.float32)
    c = q.mean(axis=0)
    q = c + (q - c) * (1 + 2 * margin)
    dst = np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    out: np.ndarray = cv2.warpPerspective(image, m, (px, px), flags=cv2.INTER_LINEAR,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out


__all__ = ["Candidate", "Grid", "GridNotFound", "Look", "Steps", "begun", "crop_tile",
           "find_tiles", "finish", "fit_lattice", "locate", "looking", "not_table_mask",
           "project", "rectify"]
