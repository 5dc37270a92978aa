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
import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision import VisionError

_log = logging.getLogger(__name__)

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
        """The tile's corners (TL, TR, BR, BL in lattice order): detected, else the lattice's."""
        q = self.quads[row * SIZE + col]
        if q is not None:
            return q
        h = self.tile / 2
        cx, cy = col + 0.5, row + 0.5
        pts = np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])
        return project(self.homography, pts)

    def to_lattice(self, pts: np.ndarray) -> np.ndarray:
        return project(np.linalg.inv(self.homography), pts)


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to (n, 2) points."""
    p = np.asarray(pts, np.float64).reshape(-1, 1, 2)
    out: np.ndarray = cv2.perspectiveTransform(p, h).reshape(-1, 2)
    return out


# --------------------------------------------------------------------------------------------
# Stage 1: tile-like squares


def _work_image(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale < 1.0:
        size = (int(round(w * scale)), int(round(h * scale)))
        while image.shape[1] >= 2 * size[0]:  # halve with smoothing (INTER_AREA is slow)
            image = cv2.pyrDown(image)
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
        scale = size[0] / w
    return image, scale


def not_table_mask(small: np.ndarray) -> np.ndarray:
    """Pixels unlike the table, whose colour is learned from the image border.

    The table fills the border of an overhead shot; a Mahalanobis distance in Lab keeps wood
    grain and uneven light (mostly lightness) from counting as tiles.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB)
    h, w = lab.shape[:2]
    b = max(4, min(h, w) // 20)
    ring = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                           lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    ring = ring[:: max(1, len(ring) // 4000)].astype(np.float32)
    mean = np.median(ring, axis=0)
    d = ring - mean
    cov = (d.T @ d) / len(d) + np.diag([60.0, 6.0, 6.0])
    # whiten: |L x|^2 is the Mahalanobis distance when L^T L = cov^-1
    white = np.linalg.cholesky(np.linalg.inv(cov)).T.astype(np.float32)
    shift = -(white @ mean.astype(np.float32))
    x = cv2.transform(lab.astype(np.float32), np.hstack([white, shift[:, None]]))
    m = cv2.multiply(x, x).sum(axis=2)
    mask: np.ndarray = (m > 12.0).astype(np.uint8) * 255
    return mask


def _squares(binary: np.ndarray, min_side: float, max_side: float, grow: float = 0.0,
             blocks: list[tuple[tuple[float, float], tuple[float, float], float]] | None = None,
             ) -> list[Candidate]:
    """Square-ish blobs of ``binary``; filled rectangles too long for one tile go to
    ``blocks`` (several touching tiles, split later once the tile size is known)."""
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    out: list[Candidate] = []
    for c in contours:
        if len(c) < 8:
            continue
        area = cv2.contourArea(c)
        if area < min_side * min_side * 0.8 or area > 12 * max_side * max_side:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        if rw < 1 or rh < 1 or area / (rw * rh) < 0.8:
            continue
        if max(rw, rh) / min(rw, rh) > 1.4 or area > max_side * max_side:
            if blocks is not None:
                blocks.append(((cx + grow * 0, cy), (rw + 2 * grow, rh + 2 * grow), ang))
            continue
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            quad = approx.reshape(4, 2).astype(np.float64)
        else:
            quad = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float64)
        centre = quad.mean(axis=0)
        if grow:
            quad = centre + (quad - centre) * (1 + grow / (0.5 * math.sqrt(area)))
        side = math.sqrt(cv2.contourArea(quad.astype(np.float32)))
        out.append(Candidate(quad, centre, side))
    return out


def _split_blocks(blocks: list[tuple[tuple[float, float], tuple[float, float], float]],
                  typical: float) -> list[Candidate]:
    """Touching tiles seen as one filled rectangle: cut it into n x m tiles of the typical size."""
    out: list[Candidate] = []
    pitch = typical * 1.08
    for (cx, cy), (rw, rh), ang in blocks:
        n, m = int(round(rw / pitch)), int(round(rh / pitch))
        if not (1 <= n <= 3 and 1 <= m <= 3) or n * m < 2:
            continue
        if abs(rw - n * pitch) > 0.35 * typical or abs(rh - m * pitch) > 0.35 * typical:
            continue
        a = math.radians(ang)
        ux, uy = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        sw, sh = rw / n, rh / m
        for i in range(n):
            for j in range(m):
                c = np.array([cx, cy]) + ux * (i - (n - 1) / 2) * sw + uy * (j - (m - 1) / 2) * sh
                half = typical / 2
                quad = np.array([c - ux * half - uy * half, c + ux * half - uy * half,
                                 c + ux * half + uy * half, c - ux * half + uy * half])
                out.append(Candidate(quad, c, typical * 0.98))
    return out


def find_tiles(small: np.ndarray, mask: np.ndarray | None = None) -> list[Candidate]:
    """Tile-like squares in the working image, duplicates merged (the largest kept)."""
    h, w = small.shape[:2]
    short = min(h, w)
    lo, hi = 0.03 * short, 0.25 * short
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(blur, 30, 90), np.ones((2, 2), np.uint8))
    cands: list[Candidate] = []
    blocks: list[tuple[tuple[float, float], tuple[float, float], float]] = []
    if mask is None:
        mask = not_table_mask(small)
    k3 = np.ones((3, 3), np.uint8)
    _, otsu = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(0.012 * short)) | 1
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k)))  # fills a patterned back whose pattern is table-coloured
    for b in (mask, closed, otsu, 255 - otsu):
        b = cv2.morphologyEx(b, cv2.MORPH_OPEN, k3)
        cands += _squares(b, lo, hi, blocks=blocks)
        cut = cv2.morphologyEx(cv2.bitwise_and(b, cv2.bitwise_not(edges)), cv2.MORPH_OPEN, k3)
        cands += _squares(cut, lo, hi, grow=1.5)
        cands += _squares(cv2.erode(b, k3, iterations=2), lo, hi, grow=2)
    cands += _squares(cv2.erode(255 - edges, k3), lo, hi, grow=2.5)
    merged = _merge(cands)
    if len(merged) < SIZE * SIZE * 0.6:
        # touching tiles merge into blobs: their centres still stand out as peaks of the
        # distance to the blob's edge
        typical = float(np.median([c.side for c in merged])) if len(merged) >= 3 else None
        peaks = _dt_peaks(closed, lo, hi, _mask_angle(mask), typical)
        merged = _merge(merged + peaks, prefer_first=len(merged))
    if merged:
        typical = float(np.median([c.side for c in merged]))
        extra = _split_blocks(blocks, typical)
        merged = _merge(merged + extra, prefer_first=len(merged))
    return merged


def _mask_angle(mask: np.ndarray) -> float:
    """The dominant edge direction of a mask, modulo 90 degrees (radians)."""
    m = mask.astype(np.float32)
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1)
    mag = np.hypot(gx, gy)
    a = np.arctan2(gy, gx) * 4
    return float(math.atan2(float((np.sin(a) * mag).sum()), float((np.cos(a) * mag).sum())) / 4)


def _dt_peaks(mask: np.ndarray, lo: float, hi: float, angle: float,
              typical: float | None) -> list[Candidate]:
    dt = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    if typical is None:  # no tile seen alone: the deepest points of the blobs give the size
        typical = 2 * float(np.percentile(dt[dt > 0], 99)) / 1.3 if (dt > 0).any() else 0.0
    if typical < lo:
        return []
    k = max(3, int(0.7 * typical)) | 1
    peak = (dt >= cv2.dilate(dt, np.ones((k, k), np.uint8))) & (dt > 0.3 * typical)
    half = typical / 2
    ys, xs = np.nonzero(peak)
    ux = np.array([math.cos(angle), math.sin(angle)])
    uy = np.array([-math.sin(angle), math.cos(angle)])
    out: list[Candidate] = []
    for x, y in zip(xs, ys):
        if dt[y, x] > 0.8 * typical:  # deep inside a block of tiles: no single centre here
            continue
        c = np.array([float(x), float(y)])
        quad = np.array([c - ux * half - uy * half, c + ux * half - uy * half,
                         c + ux * half + uy * half, c - ux * half + uy * half])
        out.append(Candidate(quad, c, typical * 0.98, guess=True))
    return out


def _merge(cands: list[Candidate], prefer_first: int = 0) -> list[Candidate]:
    """One candidate per place: among overlapping squares of a similar centre keep the largest
    whose size agrees with the crowd (a tile, not a 2x2 block of tiles). The first
    ``prefer_first`` candidates win over later ones (seen squares over guessed ones)."""
    if not cands:
        return []
    sides = np.array([c.side for c in cands])
    # the typical tile size: the side most other squares agree with
    support = (np.abs(sides[None, :] / sides[:, None] - 1) < 0.2).sum(axis=1)
    typical = float(np.median(sides[support >= support.max() * 0.8]))
    order = sorted(range(len(cands)), key=lambda i: (i >= prefer_first, -cands[i].side))
    out: list[Candidate] = []
    kept = np.zeros((len(cands), 2))
    reach = np.zeros(len(cands))
    for i in order:
        c = cands[i]
        if not 0.7 * typical < c.side < 1.35 * typical:
            continue
        n = len(out)
        if n and np.any(np.hypot(*(kept[:n] - c.centre).T) <= reach[:n]):
            continue
        kept[n], reach[n] = c.centre, 0.4 * c.side
        out.append(c)
    return out


# --------------------------------------------------------------------------------------------
# Stage 2: lattice


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
    p = project(h, np.array([[2.5, 2.5], [3.5, 2.5], [2.5, 3.5]]))
    worst = 0.0
    for e in (p[1] - p[0], p[2] - p[0]):
        a = math.degrees(math.atan2(e[1], e[0]))
        worst = max(worst, abs((a - edge_angle + 45) % 90 - 45))
    lengths = np.linalg.norm(p[1:] - p[0], axis=1)
    if lengths.max() > 1.5 * lengths.min():
        worst = 90.0
    return worst


def _seeds(cands: list[Candidate], n: int = 4) -> list[int]:
    """Squares to grow a lattice from: those with the most neighbours, spread apart."""
    centres = np.array([c.centre for c in cands])
    sides = np.array([c.side for c in cands])
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    near = (d < 2.6 * sides[:, None]).sum(axis=1)
    out: list[int] = []
    for i in np.argsort(-near, kind="stable"):
        if all(d[i, j] > 2 * sides[j] for j in out):
            out.append(int(i))
        if len(out) == n:
            break
    return out


def _grow(cands: list[Candidate], centres: np.ndarray, sides: np.ndarray, s: int) -> np.ndarray:
    """A lattice grown from square ``s``: its edges give the axes, its neighbours the pitch,
    and a homography refitted ring by ring follows the perspective."""
    q = cands[s].quad
    e1 = (q[1] - q[0] + q[2] - q[3]) / 2
    e2 = (q[3] - q[0] + q[2] - q[1]) / 2
    u1, u2 = e1 / np.linalg.norm(e1), e2 / np.linalg.norm(e2)
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


def fit_lattice(cands: list[Candidate], evidence: np.ndarray,
                ) -> tuple[np.ndarray, dict[tuple[int, int], int], float]:
    """The lattice homography (lattice -> working px, cell (r, c) centred at (c+.5, r+.5)),
    the candidate seen in each cell, and the tile side as a fraction of the pitch.

    ``evidence`` (the not-table mask) decides where the window goes along an axis where
    fewer than six rows or columns of tiles were seen.
    """
    if len(cands) < MIN_TILES:
        raise GridNotFound(f"no grid of tiles found (only {len(cands)} tile-like squares)")
    centres = np.array([c.centre for c in cands])
    sides = np.array([c.side for c in cands])
    fit: tuple[float, np.ndarray] | None = None
    edge_angle = _edge_angle(cands)
    for seed in _seeds(cands):
        try:
            h_try = _grow(cands, centres, sides, seed)
            lat = project(np.linalg.inv(h_try), centres)
        except np.linalg.LinAlgError:
            continue
        score = float(np.sum(np.abs(lat - np.round(lat)).max(axis=1) < 0.2))
        if _skew(h_try, edge_angle) > 15:  # a diagonal lattice of gap crossings, not tiles
            score *= 0.3
        if fit is None or score > fit[0]:
            fit = (score, h_try)
    if fit is None:
        raise GridNotFound("no grid of tiles found (the squares do not form a lattice)")
    h = fit[1]
    lat = project(np.linalg.inv(h), centres)
    ij = np.round(lat).astype(int)
    res = np.linalg.norm(lat - ij, axis=1)
    cells: dict[tuple[int, int], int] = {}
    for k in np.argsort(res):
        if res[k] < 0.42 and (ij[k, 0], ij[k, 1]) not in cells:
            cells[(int(ij[k, 0]), int(ij[k, 1]))] = int(k)
    if len(cells) < MIN_TILES:
        raise GridNotFound(f"no grid of tiles found (only {len(cells)} tiles in a lattice)")
    # refit on the tiles lying near their places; a tile far off its place is kept for its
    # cell but does not pull the lattice
    good = [(k, v) for k, v in cells.items() if res[v] < 0.22]
    seen = [(k, v) for k, v in good if not cands[v].guess]
    if len(seen) >= 8:
        good = seen
    if len(good) >= 6:
        h = _fit_h(np.array([k for k, _ in good], float), centres[[v for _, v in good]])
    start: list[int] = []
    for axis in (0, 1):
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
        start.append(best)
    # every row and every column of the window holds at least one tile seen as a square: a
    # 4x4 or 5x5 arrangement is not stretched into a 6x6 grid
    if any(len({k[a] for k in cells if start[a] <= k[a] < start[a] + SIZE}) < SIZE
           for a in (0, 1)):
        raise GridNotFound("tiles found, but not in a 6x6 grid")
    # lattice coords of the chosen window -> 0..6, then turned so that rows run down the image
    shift = np.array([[1, 0, start[0] - 0.5], [0, 1, start[1] - 0.5], [0, 0, 1]], float)
    h = h @ shift
    h, turn = _upright(h)
    out: dict[tuple[int, int], int] = {}
    for (i, j), k in cells.items():
        a, b = i - start[0], j - start[1]
        if 0 <= a < SIZE and 0 <= b < SIZE:
            col, row = turn(a, b)
            out[(row, col)] = k
    tiles = []
    hinv = np.linalg.inv(h)
    for key, k in list(out.items()):
        lq = project(hinv, cands[k].quad)
        side = float(np.mean(np.linalg.norm(lq - np.roll(lq, 1, axis=0), axis=1)))
        if side < 0.7 or cands[k].guess:  # a square printed on the tile, or a guessed
            out[key] = -1 - k  # place: keep the cell, not its outline
        else:
            tiles.append(side)
    tile = float(np.clip(np.median(tiles), 0.7, 1.0)) if len(tiles) >= 3 else 0.9
    return h, out, tile


def _window_evidence(h: np.ndarray, evidence: np.ndarray, axis: int, start: int) -> float:
    """How much the not-table mask supports a 6-wide window starting at ``start`` (0..1 per
    line, summed over the window's lines): decides between windows equally full of tiles."""
    total = 0.0
    hh, ww = evidence.shape[:2]
    for line in range(start, start + SIZE):
        vals = []
        for other in np.linspace(-1.5, 6.5, 9):
            p = (line, other) if axis == 0 else (other, line)
            x, y = project(h, np.array([p], float))[0]
            if 0 <= x < ww and 0 <= y < hh:
                vals.append(evidence[int(y), int(x)] > 0)
            else:
                vals.append(False)
        total += float(np.mean(vals))
    return total * 0.1


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


def _order(quad: np.ndarray, hinv: np.ndarray) -> np.ndarray:
    """Corners as TL, TR, BR, BL in lattice terms."""
    lq = project(hinv, quad)
    c = lq.mean(axis=0)
    ang = np.arctan2(lq[:, 1] - c[1], lq[:, 0] - c[0])
    idx = np.argsort(ang)  # from -pi: TL (-135°) first, then TR, BR, BL
    first = int(np.argmin([lq[i, 0] + lq[i, 1] for i in idx]))
    idx = np.roll(idx, -first)
    out: np.ndarray = quad[idx]
    return out


def _whole_grid(mask: np.ndarray, gray: np.ndarray) -> np.ndarray | None:
    """Tiles laid edge to edge merge into one square blob: take its outline as the grid's
    (lattice -> working px), when it is large, four-cornered and filled."""
    k = max(3, int(0.015 * min(mask.shape[:2]))) | 1
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    if area < 0.05 * mask.size:
        return None
    hull = cv2.convexHull(c)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    if len(approx) != 4 or area / cv2.contourArea(approx) < 0.85:
        return None
    pts = approx.astype(np.float64)
    rank = np.argsort(pts.sum(axis=1))
    tl, br = pts[rank[0]], pts[rank[-1]]
    mid = pts[rank[1:3]]
    tr, bl = (mid[0], mid[1]) if mid[0, 0] > mid[1, 0] else (mid[1], mid[0])
    sides = [np.linalg.norm(tr - tl), np.linalg.norm(br - tr), np.linalg.norm(bl - br),
             np.linalg.norm(tl - bl)]
    if max(sides) > 1.6 * min(sides):
        return None
    # the blob's edge is the tiles' outer edge: half a gap beyond the outer lattice lines
    g = 0.04
    src = np.array([[g, g], [SIZE - g, g], [SIZE - g, SIZE - g], [g, SIZE - g]], np.float64)
    h: np.ndarray = cv2.getPerspectiveTransform(src.astype(np.float32),
                                                np.array([tl, tr, br, bl], np.float32))
    if not _has_six_lines(gray, h):
        return None
    return h


def _has_six_lines(gray: np.ndarray, h: np.ndarray, px: int = 40) -> bool:
    """Do the joints between tiles fall where a 6x6 lattice puts them? Seen from above,
    the blob's edge profile must peak at every interior lattice line (a 4x4 or 5x5 block
    of the same size peaks elsewhere)."""
    s = np.diag([1 / px, 1 / px, 1.0])
    top = cv2.warpPerspective(gray, h @ s, (SIZE * px, SIZE * px),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
    for axis in (0, 1):
        grad = np.abs(cv2.Sobel(top, cv2.CV_32F, 1 - axis, axis, ksize=3))
        profile = grad.mean(axis=axis)
        lines = [profile[k * px - 2 : k * px + 3].max() for k in range(1, SIZE)]
        mids = [profile[int((k + 0.5) * px) - 2 : int((k + 0.5) * px) + 3].mean()
                for k in range(SIZE)]
        if min(lines) < 1.3 * float(np.median(mids)):
            return False
    return True


# --------------------------------------------------------------------------------------------
# Stage 3: glue


def locate(image: np.ndarray) -> Grid:
    """The grid in a BGR frame; raises :class:`GridNotFound` if there is none."""
    if image is None or image.ndim != 3 or min(image.shape[:2]) < 32:
        raise GridNotFound("not a colour image")
    try:
        small, scale = _work_image(image, WORK_SIDE)
        evidence = not_table_mask(small)
        cands = find_tiles(small, evidence)
        h_small, cells, tile = fit_lattice(cands, evidence)
    except (GridNotFound, np.linalg.LinAlgError):
        # a small grid in a wide frame: look again at a finer scale before giving up
        if max(image.shape[:2]) <= WORK_SIDE * 1.2:
            raise GridNotFound("no 6x6 grid of tiles found") from None
        small, scale = _work_image(image, int(WORK_SIDE * 1.6))
        evidence = not_table_mask(small)
        cands = find_tiles(small, evidence)
        try:
            h_small, cells, tile = fit_lattice(cands, evidence)
        except (GridNotFound, np.linalg.LinAlgError):
            whole = _whole_grid(evidence, cv2.cvtColor(small, cv2.COLOR_BGR2GRAY))
            if whole is None:
                raise GridNotFound("no 6x6 grid of tiles found") from None
            up = np.diag([1 / scale, 1 / scale, 1.0])
            return _grid(up @ whole, 0.92, (None,) * (SIZE * SIZE), 0)
    up = np.diag([1 / scale, 1 / scale, 1.0])
    h = up @ h_small
    hinv = np.linalg.inv(h)
    quads: list[np.ndarray | None] = [None] * (SIZE * SIZE)
    for (r, c), k in cells.items():
        if k >= 0:
            quads[r * SIZE + c] = _order(cands[k].quad / scale, hinv)
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


__all__ = ["Candidate", "Grid", "GridNotFound", "crop_tile", "find_tiles", "fit_lattice",
           "locate", "not_table_mask", "project", "rectify"]
