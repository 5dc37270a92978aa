"""Stage 2 of locating: grow a lattice from the best-supported square outwards (a homography
refitted at every step, so perspective and tilt are followed), pick the 6x6 window the
evidence supports, and order it so that row 0 is at the top of the image."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision.grid.model import MIN_TILES, Candidate, GridNotFound, neighbour_counts, project

def _fit_h(lat: np.ndarray, img: np.ndarray) -> np.ndarray:
    """Least-squares homography lattice -> image, affine when the points are too few."""
    spread = np.ptp(lat, axis=0) if len(lat) else np.zeros(2)
    if len(lat) >= 6 and spread.min() >= 2:
        h, _ = cv2.findHomography(lat.astype(np.float64), img.astype(np.float64), 0)
        if h is not None:
            return np.asarray(h)
    a = np.hstack([lat, np.ones((len(lat), 1))])
    sol, *_ = np.linalg.lstsq(a, img, rcond=None)
    return np.vstack([sol.T, [0, 0, 1]])


def _edge_angle(cands: list[Candidate]) -> float:
    """The squares' common edge direction, modulo 90 degrees (a circular median)."""
    q = np.array([c.quad for c in cands])
    e = q[:, 1] - q[:, 0]
    a = np.arctan2(e[:, 1], e[:, 0]) * 4
    return float(math.degrees(math.atan2(np.sin(a).mean(), np.cos(a).mean())) / 4)


def _skew(h: np.ndarray, edge_angle: float) -> float:
    """Degrees between the lattice's axis and the squares' edges, modulo 90."""
    edges = _cell_edges(h, (2.5, 2.5))
    worst = 0.0
    for e in edges:
        a = math.degrees(math.atan2(e[1], e[0]))
        worst = max(worst, abs((a - edge_angle + 45) % 90 - 45))
    if _elongation(edges) > 1.5:
        worst = 90.0
    return worst


def _cell_edges(h: np.ndarray, at: tuple[float, float]) -> np.ndarray:
    """(2, 2) the two edges, in px, of the lattice cell whose corner is at ``at``."""
    x, y = at
    p = project(h, np.array([[x, y], [x + 1, y], [x, y + 1]]))
    out: np.ndarray = p[1:] - p[0]
    return out


def _elongation(edges: np.ndarray) -> float:
    """How many times a cell's longer edge is its shorter."""
    lengths = np.linalg.norm(edges, axis=1)
    return float(lengths.max() / max(float(lengths.min()), 1e-6))


def _seeds(cands: list[Candidate], n: int = 4) -> list[int]:
    """Squares to grow a lattice from: those with the most neighbours, spread apart."""
    centres = np.array([c.centre for c in cands])
    sides = np.array([c.side for c in cands])
    near = neighbour_counts(centres, 2.6 * sides)
    out: list[int] = []
    for i in np.argsort(-near, kind="stable"):
        if all(np.linalg.norm(centres[i] - centres[j]) > 2 * sides[j] for j in out):
            out.append(int(i))
        if len(out) == n:
            break
    return out


def _neighbour_axes(cands: list[Candidate], look: Callable[[int], np.ndarray | None],
                    sides: np.ndarray, s: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The directions to square ``s``'s nearest square and to the nearest one across that
    (60 to 120 degrees off): in a grid, a tile's nearest tiles are those beside it.

    Only squares seen, of about the seed's size and of its look (the middle's colour), count:
    the tray showing between round cubes gives squares and guessed centres half a pitch off
    the cubes, diagonally, and unlike them.
    """
    mine = None if cands[s].guess else look(s)
    if mine is None:
        return None
    centres = np.array([c.centre for c in cands])
    d = centres - centres[s]
    dist = np.linalg.norm(d, axis=1)
    near = ((np.abs(np.log(sides / sides[s])) < 0.2) & (dist > 0.7 * sides[s])
            & (dist < 2.0 * sides[s]) & ~np.array([c.guess for c in cands]))
    for k in np.flatnonzero(near):  # the look only of squares near enough to matter
        other = look(int(k))
        near[k] = other is not None and float(np.linalg.norm(other - mine)) < GUESS_LIKE_TILE
    if not near.any():
        return None
    i = int(np.argmin(np.where(near, dist, np.inf)))
    u1 = d[i] / dist[i]
    across = near & (np.abs(d @ u1) < 0.5 * np.maximum(dist, 1e-9))
    if not across.any():
        return u1, np.array([-u1[1], u1[0]])
    j = int(np.argmin(np.where(across, dist, np.inf)))
    return u1, d[j] / dist[j]


def _grow(cands: list[Candidate], centres: np.ndarray, sides: np.ndarray, s: int,
          axes: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """A lattice grown from square ``s``: its edges (or the given ``axes``) give the axes,
    its neighbours the pitch, and a homography refitted ring by ring follows perspective."""
    if axes is None:
        q = cands[s].quad
        e1 = (q[1] - q[0] + q[2] - q[3]) / 2
        e2 = (q[3] - q[0] + q[2] - q[1]) / 2
        u1, u2 = e1 / np.linalg.norm(e1), e2 / np.linalg.norm(e2)
    else:
        u1, u2 = axes
    d = centres - centres[s]
    pitch = []
    for u, v in ((u1, u2), (u2, u1)):
        along, across = np.abs(d @ u), np.abs(d @ v)
        ok = (along > 0.8 * sides[s]) & (along < 3.5 * sides[s]) & (across < 0.45 * sides[s])
        if ok.any():
            near = along[ok]
            pitch.append(float(np.median(near[near < 1.3 * near.min()])))
        else:
            pitch.append(1.12 * sides[s])
    h = np.array([[u1[0] * pitch[0], u2[0] * pitch[1], centres[s][0]],
                  [u1[1] * pitch[0], u2[1] * pitch[1], centres[s][1]], [0, 0, 1]])
    for radius in (1.6, 2.6, 3.6, 5.0, 7.0, 9.0):
        lat = project(np.linalg.inv(h), centres)
        r = np.abs(lat - np.round(lat)).max(axis=1)
        sel = (r < 0.3) & (np.abs(np.round(lat)).max(axis=1) <= radius)
        if sel.sum() < 3:
            break
        h = _fit_h(np.round(lat[sel]), centres[sel])
    return h


def fit_lattice(cands: list[Candidate], evidence: np.ndarray, image: np.ndarray,
                ) -> tuple[np.ndarray, dict[tuple[int, int], int], float]:
    """The lattice homography (lattice -> working px, cell (r, c) centred at (c+.5, r+.5)),
    the candidate seen in each cell, and the tile side as a fraction of the pitch.

    ``evidence`` (the not-table mask) decides where the window goes along an axis where
    fewer than six rows or columns of tiles were seen; ``image`` (the working image, BGR)
    tells a guessed tile centre that lies on a tile from one on the tray or table.
    """
    if len(cands) < MIN_TILES:
        raise GridNotFound(f"no grid of tiles found (only {len(cands)} tile-like squares)")
    try:
        return _fit_window(cands, evidence, image, by_neighbours=False)
    except (GridNotFound, np.linalg.LinAlgError):
        # a round face has no edges to give the lattice its direction (its box lies any way):
        # grow the lattice again along the directions in which the nearest squares lie
        return _fit_window(cands, evidence, image, by_neighbours=True)


def _fit_window(cands: list[Candidate], evidence: np.ndarray, image: np.ndarray,
                by_neighbours: bool) -> tuple[np.ndarray, dict[tuple[int, int], int], float]:
    """:func:`fit_lattice` with the lattice grown along the seeds' edges, or along the
    directions of their nearest squares (``by_neighbours``)."""
    centres = np.array([c.centre for c in cands])
    h = _best_growth(cands, centres, image if by_neighbours else None)
    h, cells = _cells_on(cands, centres, h)
    start = [_window_start(cells, h, evidence, axis) for axis in (0, 1)]
    # every row and every column of the window holds at least one tile: a 4x4 or 5x5
    # arrangement is not stretched into a 6x6 grid, not even by guesses on the tray around it
    def covered(keys: list[tuple[int, int]]) -> bool:
        return all(len({k[a] for k in keys if start[a] <= k[a] < start[a] + SIZE}) == SIZE
                   for a in (0, 1))

    def window(keys: list[tuple[int, int]]) -> list[tuple[int, int]]:
        return [k for k in keys if all(start[a] <= k[a] < start[a] + SIZE for a in (0, 1))]

    seen = [k for k, v in cells.items() if not cands[v].guess]
    like: list[tuple[int, int]] | None = None
    if not (covered(seen) and _side_by_side(window(seen))):
        like = _looks_like_tiles(cands, cells, image)
        if not (covered(like) and _side_by_side(window(like))):
            raise GridNotFound("tiles found, but not in a 6x6 grid")
    if by_neighbours:
        # a second try is held to more: more tiles than a 5x5 tray holds
        like = _looks_like_tiles(cands, cells, image) if like is None else like
        if len(window(like)) < SECOND_TRY_TILES:
            raise GridNotFound("tiles found, but too few for a 6x6 grid")
    if not _on_places(cands, centres, h, start):
        raise GridNotFound("tiles found, but most of them off the lattice's places")
    if _oblong(h, start):
        raise GridNotFound("a lattice of oblong cells: no grid of square tiles")
    # lattice coords of the chosen window -> 0..6, then turned so that rows run down the image
    shift = np.array([[1, 0, start[0] - 0.5], [0, 1, start[1] - 0.5], [0, 0, 1]], float)
    h, turn = _upright(h @ shift)
    out: dict[tuple[int, int], int] = {}
    for (i, j), k in cells.items():
        a, b = i - start[0], j - start[1]
        if 0 <= a < SIZE and 0 <= b < SIZE:
            col, row = turn(a, b)
            out[(row, col)] = k
    return h, out, _tile_side(cands, h, out)


# most tiles of a grid have another beside them, a pitch away: on the TUNE 6x6 trays and the
# renders 0.9-1 of them did (of the tiles seen, or of those and the guesses with a tile's
# colour); a lattice finer than the tiles' own (one running at a slant through every other
# cell, or at half their pitch) puts the nearest tile sqrt(2) or 2 cells away
SIDE_BY_SIDE = 0.5
# the squares seen inside the window that lie within 0.3 of a place: 0.74-1 on the TUNE trays
# and the renders (all but two 0.96 and more), 0.4 for a lattice running askew across a tray
ON_PLACES = 0.6
# a lattice grown along the squares' neighbours (the second try, for round faces) counts as a
# 6x6 grid only with more tiles in its window than a 5x5 tray holds: on drawn trays of round
# faces turned and tilted, that try found 35 more 6x6 grids right of 216 and, without this,
# reported 6x6 on 3 more 5x5 trays of 144
SECOND_TRY_TILES = 26


def _side_by_side(keys: list[tuple[int, int]]) -> bool:
    """Do most tiles of the window have a tile in a cell beside them (not only diagonally)?

    Round cube faces give the lattice no direction of their own: grown along a slant, it
    runs through every other cell of a smaller tray, and a 4x4 tray then fills every row and
    column of a 6x6 window in a checkerboard. The lattice of a real grid has its tiles side
    by side.
    """
    have = set(keys)
    beside = sum(any((i + di, j + dj) in have for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                 for i, j in keys)
    return beside >= SIDE_BY_SIDE * len(keys)


def _on_places(cands: list[Candidate], centres: np.ndarray, h: np.ndarray,
               start: list[int]) -> bool:
    """Do most squares seen inside the window's outline lie on its places?

    Grown along the edges of a round face (which has none), a lattice can run askew across a
    tray: every row and column then holds a cube near a place, but most cubes lie between
    places. In a real grid the squares inside the outline are its tiles, on their places.
    """
    seen = np.array([not c.guess for c in cands])
    lat = project(np.linalg.inv(h), centres[seen])
    lo = np.array(start, float) - 0.5
    inside = np.all((lat >= lo) & (lat < lo + SIZE), axis=1)
    if not inside.any():
        return True
    off = np.abs(lat[inside] - np.round(lat[inside])).max(axis=1)
    return float(np.mean(off < 0.3)) >= ON_PLACES


def _best_growth(cands: list[Candidate], centres: np.ndarray,
                 image: np.ndarray | None = None) -> np.ndarray:
    """The lattice grown from the seed that puts most squares on lattice places; a lattice
    skewed against the squares' own edges is gap crossings seen diagonally, not tiles.

    Given the working ``image``, the axes come from where the seed's nearest squares of its
    own look lie, not from its edges (round faces), and the squares' edges are not held
    against the lattice.
    """
    sides = np.array([c.side for c in cands])
    fit: tuple[float, np.ndarray] | None = None
    edge_angle = _edge_angle(cands)
    by_neighbours = image is not None
    looks: dict[int, np.ndarray | None] = {}  # a square's look when a seed needs it

    def look(k: int) -> np.ndarray | None:
        if k not in looks:
            looks[k] = _middle(image, cands[k].quad) if image is not None else None
        return looks[k]

    for seed in _seeds(cands):
        axes = _neighbour_axes(cands, look, sides, seed) if by_neighbours else None
        if by_neighbours and axes is None:
            continue
        try:
            h_try = _grow(cands, centres, sides, seed, axes)
            lat = project(np.linalg.inv(h_try), centres)
        except np.linalg.LinAlgError:
            continue
        score = float(np.sum(np.abs(lat - np.round(lat)).max(axis=1) < 0.2))
        if not by_neighbours and _skew(h_try, edge_angle) > 15:  # gap crossings, not tiles
            score *= 0.3
        if fit is None or score > fit[0]:
            fit = (score, h_try)
    if fit is None:
        raise GridNotFound("no grid of tiles found (the squares do not form a lattice)")
    return fit[1]


def _cells_on(cands: list[Candidate], centres: np.ndarray, h: np.ndarray,
              ) -> tuple[np.ndarray, dict[tuple[int, int], int]]:
    """The candidate nearest each lattice place, and the lattice refitted on the tiles lying
    near their places (a tile far off its place is kept for its cell but does not pull the
    lattice)."""
    lat = project(np.linalg.inv(h), centres)
    # a nearly degenerate lattice throws far squares to huge lattice places: not tiles
    lat = np.where(np.isfinite(lat) & (np.abs(lat) < 50), lat, 1e3 + 0.5)
    ij = np.round(lat).astype(int)
    res = np.linalg.norm(lat - ij, axis=1)
    cells: dict[tuple[int, int], int] = {}
    for k in np.argsort(res):
        if res[k] < 0.42 and (ij[k, 0], ij[k, 1]) not in cells:
            cells[(int(ij[k, 0]), int(ij[k, 1]))] = int(k)
    if len(cells) < MIN_TILES:
        raise GridNotFound(f"no grid of tiles found (only {len(cells)} tiles in a lattice)")
    good = [(k, v) for k, v in cells.items() if res[v] < 0.22]
    seen = [(k, v) for k, v in good if not cands[v].guess]
    if len(seen) >= 8:
        good = seen
    if len(good) >= 6:
        h = _fit_h(np.array([k for k, _ in good], float), centres[[v for _, v in good]])
    return h, cells


# a guessed centre counts as a tile when its middle is this close (Lab, 0-255 scale) to the
# middle of a tile seen as a square; on the TUNE photos guesses on cubes were within 12 of one,
# guesses on a tray's rim or between cubes 38 and more (the few nearer ones straddle a cube)
GUESS_LIKE_TILE = 15.0


def _looks_like_tiles(cands: list[Candidate], cells: dict[tuple[int, int], int],
                      image: np.ndarray) -> list[tuple[int, int]]:
    """The lattice places holding a tile seen as a square, or a guessed centre whose middle
    has the colour of one of those tiles.

    Guesses (peaks of the distance to a blob's edge) are what finds touching tiles, but on a
    4x4 or 5x5 tray the tray itself is a blob too, and its peaks line up half a pitch off the
    cubes: counted as tiles, they filled a 6x6 window on a 4x4 tray. The tiles of one set
    share a few looks (faces, backs), so a guess on a tile looks like a seen one.
    """
    out = [k for k, v in cells.items() if not cands[v].guess]
    if all(not cands[v].guess for v in cells.values()):
        return out  # no guess to judge: the seen tiles' looks are not needed
    seen = [_middle(image, cands[v].quad) for v in cells.values() if not cands[v].guess]
    looks = np.array([c for c in seen if c is not None])
    if not len(looks):
        return out
    for k, v in cells.items():
        if cands[v].guess:
            mid = _middle(image, cands[v].quad)
            if mid is not None and float(np.linalg.norm(looks - mid, axis=1).min()) < GUESS_LIKE_TILE:
                out.append(k)
    return out


def _middle(image: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The median Lab colour of the middle half of a square (None when it is off the image)."""
    c = quad.mean(axis=0)
    q = np.round(c + (quad - c) * 0.5).astype(np.int32)
    x0, y0 = np.maximum(q.min(axis=0), 0)
    x1, y1 = np.minimum(q.max(axis=0) + 1, (image.shape[1], image.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return None
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(mask, q - (x0, y0), 1)
    lab = cv2.cvtColor(np.ascontiguousarray(image[y0:y1, x0:x1]), cv2.COLOR_BGR2LAB)
    pixels = lab.astype(np.float32)[mask > 0]
    return np.median(pixels, axis=0) if len(pixels) else None


def _window_start(cells: dict[tuple[int, int], int], h: np.ndarray, evidence: np.ndarray,
                  axis: int) -> int:
    """Where the 6-wide window starts along ``axis``: the one holding most tiles, the
    not-table mask deciding between equally full ones."""
    vals = np.array([k[axis] for k in cells])
    lo, hi = int(vals.min()), int(vals.max())
    options = list(range(hi - SIZE + 1, lo + 1)) if hi - lo + 1 <= SIZE else list(
        range(lo, hi - SIZE + 2))
    best: int = options[0]
    best_score = -1.0
    for o in options:
        inside = int(np.sum((vals >= o) & (vals < o + SIZE)))
        score = inside + _window_evidence(h, evidence, axis, o)
        if score > best_score:
            best, best_score = o, score
    return best


# the longer side of a window's middle cell over its shorter, above which the lattice is no
# grid of square tiles: renders 1.12 at most, real phone photos of 6x6 trays at a slant 1.45;
# a lattice of the words printed on backs, two rows of them a tile, 2.03
OBLONG = 1.8


def _oblong(h: np.ndarray, start: list[int]) -> bool:
    """Are the cells in the middle of the window starting at ``start`` oblong?"""
    return _elongation(_cell_edges(h, (start[0] + SIZE / 2, start[1] + SIZE / 2))) > OBLONG


def _tile_side(cands: list[Candidate], h: np.ndarray, out: dict[tuple[int, int], int]) -> float:
    """The tiles' side as a fraction of the pitch, from the outlines seen; a cell whose
    outline is a square printed on the tile, or a guessed place, keeps the cell but not its
    outline (marked ``-1 - k`` in ``out``)."""
    tiles = []
    hinv = np.linalg.inv(h)
    for key, k in list(out.items()):
        lq = project(hinv, cands[k].quad)
        side = float(np.mean(np.linalg.norm(lq - np.roll(lq, 1, axis=0), axis=1)))
        if side < 0.7 or cands[k].guess:
            out[key] = -1 - k
        else:
            tiles.append(side)
    return float(np.clip(np.median(tiles), 0.7, 1.0)) if len(tiles) >= 3 else 0.9


def _window_evidence(h: np.ndarray, evidence: np.ndarray, axis: int, start: int) -> float:
    """How much the not-table mask supports a 6-wide window starting at ``start`` (0..1 per
    line, summed over the window's lines): decides between windows equally full of tiles."""
    hh, ww = evidence.shape[:2]
    line, other = np.meshgrid(np.arange(start, start + SIZE, dtype=float),
                              np.linspace(-1.5, 6.5, 9), indexing="ij")
    pts = np.stack([line, other] if axis == 0 else [other, line], axis=-1).reshape(-1, 2)
    x, y = project(h, pts).T
    inside = (x >= 0) & (x < ww) & (y >= 0) & (y < hh)
    hit = np.zeros(len(pts), bool)
    hit[inside] = evidence[y[inside].astype(int), x[inside].astype(int)] > 0
    return float(hit.reshape(SIZE, 9).mean(axis=1).sum()) * 0.1


def _upright(h: np.ndarray) -> tuple[np.ndarray, "_Turn"]:
    """Re-express the lattice so its x axis points right and y axis down in the image."""
    c = project(h, np.array([[3.0, 3.0], [4.0, 3.0], [3.0, 4.0]]))
    du, dv = c[1] - c[0], c[2] - c[0]
    best: tuple[float, np.ndarray, _Turn] | None = None
    for swap in (False, True):
        for sx in (1, -1):
            for sy in (1, -1):
                ax, ay = (dv, du) if swap else (du, dv)
                score = sx * ax[0] / np.linalg.norm(ax) + sy * ay[1] / np.linalg.norm(ay)
                # lattice (col,row) -> old lattice (a, b)
                m = np.zeros((3, 3))
                m[2, 2] = 1
                src = (1, 0) if swap else (0, 1)  # which old axis is col, row
                m[src[0], 0] = sx
                m[src[1], 1] = sy
                m[src[0], 2] = 0 if sx > 0 else SIZE
                m[src[1], 2] = 0 if sy > 0 else SIZE
                if best is None or score > best[0]:
                    best = (score, m, _Turn(swap, sx, sy))
    assert best is not None
    return h @ best[1], best[2]


@dataclass(frozen=True)
class _Turn:
    swap: bool
    sx: int
    sy: int

    def __call__(self, a: int, b: int) -> tuple[int, int]:
        """Old window cell (a, b) -> (col, row) in the upright lattice."""
        col_old, row_old = (b, a) if self.swap else (a, b)
        col = col_old if self.sx > 0 else SIZE - 1 - col_old
        row = row_old if self.sy > 0 else SIZE - 1 - row_old
        return col, row


def order_quad(quad: np.ndarray, hinv: np.ndarray) -> np.ndarray:
    """Corners as TL, TR, BR, BL in lattice terms."""
    lq = project(hinv, quad)
    c = lq.mean(axis=0)
    ang = np.arctan2(lq[:, 1] - c[1], lq[:, 0] - c[0])
    idx = np.argsort(ang)  # from -pi: TL (-135°) first, then TR, BR, BL
    first = int(np.argmin([lq[i, 0] + lq[i, 1] for i in idx]))
    idx = np.roll(idx, -first)
    out: np.ndarray = quad[idx]
    return out
