"""A lattice from the tiles turned since the reference frame, when no look finds one.

On some tables nothing in the frame stands out as a tile: dark backs printed with a word
on dark felt, backs the colour of a checked cloth. What changed since the all-face-down
reference does stand out, on any table: a turned tile is a square of change, a face where
a back lay. Those squares give the lattice, its pitch and its slant; where the 6x6 window
lies beyond them is for the reference to say (``vision.framing``).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision.grid import _grid
from vision.grid.lattice import _edge_angle, _fit_h, _upright, order_quad
from vision.grid.model import Candidate, Grid, project
from vision.grid.squares import FILL, LARGEST, SMALLEST, _dt_peaks, _mask_angle, _merge

# fewer squares of change on the lattice than this do not fix its pitch and slant
LEAST_TURNED = 6
# a turned tile of the window lies within this of its lattice place (in pitches)
ON_PLACE = 0.3
# from this many turned tiles on, the lattice follows the view's perspective; fewer fit its
# two more numbers to their jitter (a drawn table of 7: a third of a pitch off at the window's
# far corner), and a parallelogram is fitted
PERSPECTIVE_FROM = 10
# a tile's side in pitches where no outline says (the locator's guess for a grid it saw as
# one blob is 0.92; tiles turned by hand lie a little apart)
TILE = 0.9


def squares_of_change(mask: np.ndarray, scale: float = 1.0) -> list[Candidate]:
    """The turned tiles in a mask of what changed (bool or 0/255, at ``scale`` of the
    frame; the squares in the frame's pixels): a square of change alone is one tile; tiles
    turned side by side merge into one blob, whose centres are the deepest points of it
    (as the locator finds touching tiles)."""
    m = cv2.morphologyEx((mask > 0).astype(np.uint8) * 255, cv2.MORPH_OPEN,
                         np.ones((3, 3), np.uint8))
    short = min(m.shape[:2])
    lo, hi = SMALLEST * short, LARGEST * short
    blobs = [c for c in cv2.findContours(m, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
             if cv2.contourArea(c) >= lo * lo]
    alone: list[Candidate] = []
    for c in blobs:
        rect = cv2.minAreaRect(c)
        (cx, cy), (w, h), _ = rect
        if lo <= min(w, h) and max(w, h) <= min(hi, 1.3 * min(w, h)) and (
                cv2.contourArea(c) >= FILL * w * h):
            alone.append(Candidate(cv2.boxPoints(rect).astype(np.float64), np.array([cx, cy]),
                                   float(np.sqrt(w * h))))
    filled = np.zeros_like(m)
    cv2.drawContours(filled, blobs, -1, 255, -1)  # a face's print is no hole in the change
    typical = float(np.median([c.side for c in alone])) if len(alone) >= 2 else None
    peaks = _dt_peaks(cv2.distanceTransform(filled, cv2.DIST_L2, 5), lo, hi,
                      _mask_angle(filled), typical)
    return [Candidate(c.quad / scale, c.centre / scale, c.side / scale)
            for c in _merge(alone + peaks, prefer_first=len(alone))]


def windows_round(squares: list[Candidate]) -> list[Grid]:
    """Every 6x6 window of the lattice through ``squares`` that holds them on its places,
    each turned tile's cell keeping its outline; none when too few lie on one lattice, or
    all in a row or two (the lattice across them would be a guess). Where more lie on the
    lattice than one window holds (tiles of another game turned at the edge of the view),
    the window holding most of them is the grid's."""
    if len(squares) < LEAST_TURNED:
        return []
    centres = np.array([c.centre for c in squares])
    try:
        lat = project(np.linalg.inv(_lattice(squares, centres)), centres)
    except np.linalg.LinAlgError:
        return []
    ij = np.round(lat)
    on = (np.abs(lat - ij).max(axis=1) < ON_PLACE) & (np.abs(lat).max(axis=1) < 50)
    if on.sum() < LEAST_TURNED:
        return []
    places = ij.astype(int)
    starts = sorted({(int(i) - a, int(j) - b) for i, j in places[on] for a in range(SIZE)
                     for b in range(SIZE)})
    on &= max((on & np.all((places >= s) & (places < np.add(s, SIZE)), axis=1)
               for s in starts), key=lambda held: int(held.sum()))
    if on.sum() < LEAST_TURNED or min(np.ptp(places[on], axis=0)) < 2:
        return []
    fit = _fit_h if on.sum() >= PERSPECTIVE_FROM else _affine
    h = fit(places[on].astype(float), centres[on])
    lo, hi = places[on].min(axis=0), places[on].max(axis=0)
    out = []
    for a in range(hi[0] - SIZE + 1, lo[0] + 1):
        for b in range(hi[1] - SIZE + 1, lo[1] + 1):
            shift = np.array([[1, 0, a - 0.5], [0, 1, b - 0.5], [0, 0, 1]], float)
            up, turn = _upright(h @ shift)
            back = np.linalg.inv(up)
            quads: list[np.ndarray | None] = [None] * (SIZE * SIZE)
            for k in np.flatnonzero(on):
                col, row = turn(int(places[k, 0]) - a, int(places[k, 1]) - b)
                quads[row * SIZE + col] = order_quad(squares[k].quad, back)
            out.append(_grid(up, TILE, tuple(quads), int(on.sum())))
    return out


def _lattice(squares: list[Candidate], centres: np.ndarray) -> np.ndarray:
    """The lattice through the squares (lattice -> px), grown from the middle one outwards
    as the locator grows its own. Its pitch is not taken from the nearest square, which may
    lie two places off (tiles turned here and there): along each axis it is the pitch, from
    one to 1.35 tiles' sides (tiles do not overlap, and lie close), that puts most squares
    on places."""
    side = float(np.median([c.side for c in squares]))
    a = math.radians(_edge_angle(squares))
    u1, u2 = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    seed = int(np.argmin(np.linalg.norm(centres - np.median(centres, axis=0), axis=1)))
    d = centres - centres[seed]
    p1, p2 = (_pitch(d @ u, side) for u in (u1, u2))
    h = np.array([[u1[0] * p1, u2[0] * p2, centres[seed][0]],
                  [u1[1] * p1, u2[1] * p2, centres[seed][1]], [0, 0, 1]])
    for radius in (1.6, 2.6, 3.6, 5.0, 7.0):
        lat = project(np.linalg.inv(h), centres)
        near = (np.abs(lat - np.round(lat)).max(axis=1) < ON_PLACE) & (
            np.abs(np.round(lat)).max(axis=1) <= radius)
        placed = np.round(lat[near])
        if np.linalg.matrix_rank(np.hstack([placed, np.ones((len(placed), 1))])) == 3:
            h = _fit_h(placed, centres[near])  # not before three places off one line
    return h


def _affine(lat: np.ndarray, px: np.ndarray) -> np.ndarray:
    """The affine map lattice -> px fitted by least squares (too few tiles for a view's
    perspective)."""
    sol, *_ = np.linalg.lstsq(np.hstack([lat, np.ones((len(lat), 1))]), px, rcond=None)
    return np.vstack([sol.T, [0.0, 0.0, 1.0]])


def _pitch(along: np.ndarray, side: float) -> float:
    """The pitch from one to 1.35 ``side`` that puts most of the offsets ``along`` an axis
    on whole places, the nearest to them of those."""
    best = (-1, 0.0, side)
    for pitch in np.linspace(1.0, 1.35, 36) * side:
        off = along / pitch - np.round(along / pitch)
        score = (int(np.sum(np.abs(off) < 0.2)), -float(np.sum(off ** 2)), float(pitch))
        best = max(best, score)
    return best[2]


__all__ = ["LEAST_TURNED", "squares_of_change", "windows_round"]
