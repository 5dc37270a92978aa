"""Stage 1 of locating: tile-like squares at a working resolution, in several segmentations
(not-the-table colour, brightness both ways, closed edges), because no single one survives
every tile colour, back pattern and table."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from companion.games.moerder.board import SIZE
from vision.grid.model import WORK_SIDE, Candidate

# a square blob fills at least this much of its turned bounding box; a round-cornered cube
# face (nearly a disc: pi/4 = 0.785) fills less, and is looked for only when tiles were not
# found (``locate``), so tables of square tiles are located exactly as before
FILL = 0.8
ROUND_FILL = 0.74
# a tile's side is at least this share of the working image's shorter side, and at most this
SMALLEST, LARGEST = 0.03, 0.25


def work_image(image: np.ndarray, side: int = WORK_SIDE) -> tuple[np.ndarray, float]:
    h, w = image.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale < 1.0:
        size = (int(round(w * scale)), int(round(h * scale)))
        while image.shape[1] >= 2 * size[0]:  # halve with smoothing (INTER_AREA is slow)
            image = cv2.pyrDown(image)
        image = cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)
        scale = size[0] / w
    return image, scale


_LOG = np.log(np.arange(256, dtype=np.float32) + 4.0)


def flat_light(small: np.ndarray) -> np.ndarray:
    """``small`` as if evenly lit: a lamp's spot, a gradient and vignetting multiply the
    light, so in the log of its lightness they are a slow shift, taken away with a blur
    wider than a tile; the colours stay. Dark tiles on a dark table under a dim lamp differ
    by a few grey levels, too few for the edges and colours the other looks go by, but by
    as large a ratio as anywhere else."""
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB)
    f = cv2.LUT(lab[..., 0], _LOG)
    h, w = f.shape
    # a blur this wide takes 80 ms at the working size: blurred at an eighth, scaled up
    coarse = cv2.resize(f, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA)
    coarse = cv2.GaussianBlur(coarse, (0, 0), 0.05 * max(h, w) / 8)
    f = f - cv2.resize(coarse, (w, h), interpolation=cv2.INTER_LINEAR)
    lo, hi = np.percentile(f[::4, ::4], (0.5, 99.5))
    span = max(float(hi - lo), 1e-3)
    lab[..., 0] = cv2.convertScaleAbs(f, alpha=255.0 / span, beta=-255.0 * lo / span)
    out: np.ndarray = cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)
    return out


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
    m = cv2.transform(cv2.multiply(x, x), np.ones((1, 3), np.float32))  # numpy's sum over
    # the channel axis took 6 ms of a 640x480 image, this 0.6
    mask: np.ndarray = (m > 12.0).astype(np.uint8) * 255
    return mask


Block = tuple[tuple[float, float], tuple[float, float], float]


def _squares(contours: Sequence[np.ndarray], min_side: float, max_side: float,
             grow: float = 0.0, blocks: list[Block] | None = None,
             fill: float = FILL) -> list[Candidate]:
    """Square-ish blobs among ``contours``; filled rectangles too long for one tile go to
    ``blocks`` (several touching tiles, split later once the tile size is known)."""
    found, long = _shapes(contours, min_side, max_side, grow, fill)
    if blocks is not None:
        blocks += [b for b, _ in long]
    return [c for c, _ in found]


def _shapes(contours: Sequence[np.ndarray], min_side: float, max_side: float, grow: float,
            fill: float) -> tuple[list[tuple[Candidate, float]], list[tuple[Block, float]]]:
    """:func:`_squares`' squares and long rectangles, each with how much of its box it
    fills (at least ``fill``): a look for rounder blobs keeps the squares of the first look
    and adds those filling less, without cutting the contours again."""
    out: list[tuple[Candidate, float]] = []
    long: list[tuple[Block, float]] = []
    for c in contours:
        if len(c) < 8:
            continue
        area = cv2.contourArea(c)
        if area < min_side * min_side * 0.8 or area > 12 * max_side * max_side:
            continue
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
        if rw < 1 or rh < 1:
            continue
        ratio = area / (rw * rh)
        if ratio < fill:
            continue
        if max(rw, rh) / min(rw, rh) > 1.4 or area > max_side * max_side:
            long.append((((cx, cy), (rw + 2 * grow, rh + 2 * grow), ang), ratio))
            continue
        hull = cv2.convexHull(c)
        approx = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            quad = approx.reshape(4, 2).astype(np.float64)
        else:
            quad = cv2.boxPoints(((cx, cy), (rw, rh), ang)).astype(np.float64)
        centre = quad.sum(axis=0) * 0.25  # the mean; numpy's mean costs 10 us a call here
        if grow:
            quad = centre + (quad - centre) * (1 + grow / (0.5 * math.sqrt(area)))
        side = math.sqrt(cv2.contourArea(quad.astype(np.float32)))
        out.append((Candidate(quad, centre, side), ratio))
    return out, long


def _split_blocks(blocks: list[Block], typical: float) -> list[Candidate]:
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


@dataclass(frozen=True)
class Segments:
    """The working image cut several ways (not the table's colour, closed, brightness both
    ways, each also cut along edges and eroded; the regions between edges), each cut's blobs
    as contours. This is the costly part of finding squares and the same whatever is asked
    of the blobs after, so a locate that looks again (for rounder faces, or keeping the
    table's own squares) looks at these instead of cutting the image again."""

    cuts: tuple[tuple[tuple[np.ndarray, ...], float, bool], ...]  # contours, grow, blocks?
    mask: np.ndarray
    closed: np.ndarray
    edges: np.ndarray  # where the gray image has edges (for backs seen by their outline)
    lo: float
    hi: float

    _shapes_at: dict[float, tuple[list[tuple[Candidate, float]], list[tuple[Block, float]]]] = (
        field(default_factory=dict, compare=False, repr=False))

    def squares(self, fill: float) -> tuple[tuple[Candidate, ...], tuple[Block, ...]]:
        """The square-ish blobs of every cut filling ``fill`` of their box, and the filled
        rectangles too long for one tile (of the uncut masks). The cuts' shapes are found
        once, for the rounder of the two looks (``ROUND_FILL``), and kept for both."""
        least = min(fill, ROUND_FILL)
        if least not in self._shapes_at:
            found: list[tuple[Candidate, float]] = []
            long: list[tuple[Block, float]] = []
            for contours, grow, collect in self.cuts:
                f, b = _shapes(contours, self.lo, self.hi, grow, least)
                found += f
                long += b if collect else []
            self._shapes_at[least] = found, long
        found, long = self._shapes_at[least]
        return (tuple(c for c, r in found if r >= fill), tuple(b for b, r in long if r >= fill))

    @functools.cached_property
    def depth(self) -> np.ndarray:
        """How deep each pixel lies in the closed mask's blobs (for touching tiles)."""
        out: np.ndarray = cv2.distanceTransform(self.closed, cv2.DIST_L2, 5)
        return out

    @functools.cached_property
    def angle(self) -> float:
        """The mask's dominant edge direction, modulo 90 degrees (radians)."""
        return _mask_angle(self.mask)


def segments(small: np.ndarray, mask: np.ndarray | None = None) -> Segments:
    """The cuts of the working image ``small`` (``mask``: its not-the-table pixels)."""
    h, w = small.shape[:2]
    short = min(h, w)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    edges = _edges(blur)
    if mask is None:
        mask = not_table_mask(small)
    k3 = np.ones((3, 3), np.uint8)
    _, otsu = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(0.012 * short)) | 1
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k)))  # fills a patterned back whose pattern is table-coloured
    cuts: list[tuple[np.ndarray, float, bool]] = []
    for b in (mask, closed, otsu, 255 - otsu):
        b = cv2.morphologyEx(b, cv2.MORPH_OPEN, k3)
        cuts.append((b, 0.0, True))
        cut = cv2.morphologyEx(cv2.bitwise_and(b, cv2.bitwise_not(edges)), cv2.MORPH_OPEN, k3)
        cuts.append((cut, 1.5, False))
        cuts.append((cv2.erode(b, k3, iterations=2), 2.0, False))
    cuts.append((cv2.erode(255 - edges, k3), 2.5, False))
    return Segments(tuple((tuple(cv2.findContours(b, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0]),
                           grow, blocks) for b, grow, blocks in cuts),
                    mask, closed, edges, SMALLEST * short, LARGEST * short)


def find_tiles(small: np.ndarray, mask: np.ndarray | None = None,
               fill: float = FILL, drop_pattern: bool = True,
               seen: Segments | None = None) -> list[Candidate]:
    """Tile-like squares in the working image, overlapping finds merged (the largest kept);
    ``fill``: how much of its box a blob must fill to count (lower for round cube faces).
    On a table with squares of its own, those are dropped, or with ``drop_pattern`` False
    kept and marked ``table``. ``seen``: the image's :func:`segments`, if already cut."""
    seen = seen if seen is not None else segments(small, mask)
    mask, lo, hi = seen.mask, seen.lo, seen.hi
    found, blocks = seen.squares(fill)
    cands = list(found)
    kept, pattern = _off_the_table(cands, mask, drop=drop_pattern)
    merged = _merge(kept)
    if len(merged) < SIZE * SIZE * 0.6:
        # touching tiles merge into blobs: their centres still stand out as peaks of the
        # distance to the blob's edge
        typical = float(np.median([c.side for c in merged])) if len(merged) >= 3 else None
        peaks = _dt_peaks(seen.depth, lo, hi, seen.angle, typical)
        merged = _merge(merged + peaks, prefer_first=len(merged))
    if merged:
        typical = float(np.median([c.side for c in merged]))
        # a rectangle of the table's pattern cut into tiles is still the table's
        extra = _off_the_table(_split_blocks(list(blocks), typical), mask, pattern,
                               drop=drop_pattern)[0]
        merged = _merge(merged + extra, prefer_first=len(merged))
    return merged


def table_pattern(seen: Segments, fill: float = FILL) -> bool:
    """Does :func:`find_tiles` on ``seen`` see a table with squares of its own (and so
    leave some out, or mark them)?"""
    return _off_the_table(list(seen.squares(fill)[0]), seen.mask)[1]


def with_outlines(seen: Segments, cands: list[Candidate], fill: float = FILL,
                  ) -> list[Candidate]:
    """``cands`` (from :func:`find_tiles` on ``seen``) and, where none of them lies, squares
    that the edges close, as guesses (:func:`_outlined_tiles`). Looked for only when no grid
    was fitted to ``cands`` alone, so where colour and brightness find the tiles nothing
    changes; on a table with squares of its own by the image's edge, those are left out."""
    if not cands:
        return cands
    typical = float(np.median([c.side for c in cands]))
    outlined = _outlined_tiles(seen.edges, seen.lo, seen.hi, fill, typical)
    return _merge(cands + _off_the_table(outlined, seen.mask)[0], prefer_first=len(cands))


def _edges(blur: np.ndarray) -> np.ndarray:
    out: np.ndarray = cv2.dilate(cv2.Canny(blur, 30, 90), np.ones((2, 2), np.uint8))
    return out


def _outlined_tiles(edges: np.ndarray, lo: float, hi: float, fill: float,
                    typical: float) -> list[Candidate]:
    """Squares that the edges close, each filled whole (its inner edges too), as guesses.

    A back whose pattern is close to the table's colour is seen by its outline only; its
    stripes, dots or checks cut the inside into slivers that are no square, so the regions
    between edges miss it. Its outline with the pattern's edges inside still makes one
    figure, and filled, that figure is the tile (or, touching another, a block of tiles).
    Any closed figure of a tile's size passes, though (a tray's compartment, a shadow), so
    these only help the lattice along, and fill a place of the grid only with the look of
    a tile seen otherwise (as guessed centres do)."""
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 255, -1)
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    blocks: list[Block] = []
    found = _squares(cv2.findContours(filled, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)[0],
                     lo, hi, blocks=blocks, fill=fill)
    return [replace(c, guess=True) for c in found + _split_blocks(blocks, typical)]


# a square is the table's when less than TABLE_INSIDE of its middle is unlike the table and
# more than TABLE_AROUND of the band around it is table; the table has a pattern of squares
# when at least PATTERN_AT_EDGE such squares lie by the image's edge, where no tile lies
TABLE_INSIDE = 0.2
TABLE_AROUND = 0.6
PATTERN_AT_EDGE = 3


# px from the image's edge within which a square is taken as cut by it
CUT_BY_EDGE = 1.5


def _off_the_table(cands: list[Candidate], mask: np.ndarray, pattern: bool | None = None,
                   drop: bool = True) -> tuple[list[Candidate], bool]:
    """The squares that are not part of the table's own pattern (or, not ``drop``, all of
    them with the table's marked), and whether the table has one (``pattern``: already
    known, else decided from ``cands``).

    Glazed tiles in grout or the checks of a cloth are squares too, often more of them than
    the game has tiles and of their own size (so the typical tile size would be theirs, and
    the game's tiles dropped as too small or too large). Such a square is drawn in the
    table's colours and lies among the table's colours; a tile differs from the table inside,
    and a cube the colour of its table stands in a tray that differs around it, so either
    keeps it. Only a table seen to have squares of its own by the image's edge, away from
    the tiles, is searched so: a tile close to the colour of a plain table, found by its rim
    or letters, looks table-coloured too and must stay.
    """
    if not cands:
        return cands, bool(pattern)
    h, w = mask.shape[:2]
    ii = cv2.integral((mask > 0).astype(np.uint8))
    centres = np.array([c.centre for c in cands], np.float64)
    sides = np.array([c.side for c in cands], np.float64)
    inside = _unlike_table(ii, centres, 0.35 * sides)[0]
    outer, n_outer = _unlike_table(ii, centres, 0.85 * sides)
    inner, n_inner = _unlike_table(ii, centres, 0.6 * sides)
    around = (outer * n_outer - inner * n_inner) / np.maximum(1.0, n_outer - n_inner)
    # a square the image's edge cuts has a ring cut too (a glazed table's square there is
    # mostly grout round what is left of it): its inside alone says whether it is the table's
    quads = np.array([c.quad for c in cands])
    cut = (np.any(quads.min(axis=1) <= CUT_BY_EDGE, axis=1)
           | np.any(quads.max(axis=1) >= np.array([w, h]) - 1 - CUT_BY_EDGE, axis=1))
    coloured = inside < TABLE_INSIDE
    ringed = coloured & (1 - around > TABLE_AROUND)
    table = (ringed | (coloured & cut)).tolist()
    if pattern is None:  # decided by whole rings: pieces cut by the edge say nothing of it
        edge = np.minimum(centres.min(axis=1), np.min([w, h] - centres, axis=1)) < 0.7 * sides
        pattern = int(np.sum(edge & ringed)) >= PATTERN_AT_EDGE
    if not pattern:
        return cands, False
    if not drop:
        return [Candidate(c.quad, c.centre, c.side, c.guess, True) if t else c
                for c, t in zip(cands, table, strict=True)], True
    return [c for c, t in zip(cands, table, strict=True) if not t], True


def _unlike_table(ii: np.ndarray, c: np.ndarray, r: np.ndarray,
                  ) -> tuple[np.ndarray, np.ndarray]:
    """The share of not-table pixels in the boxes of half-side ``r`` round the centres ``c``
    (N x 2, from the mask's integral image ``ii``), and the boxes' areas in pixels (clipped
    to the image); a box off the image counts as all unlike the table."""
    h, w = ii.shape[0] - 1, ii.shape[1] - 1
    lo = np.clip(np.round(c - r[:, None]).astype(int), 0, (w, h))
    hi = np.clip(np.round(c + r[:, None]).astype(int) + 1, 0, (w, h))
    (x0, y0), (x1, y1) = lo.T, hi.T
    area = (np.maximum(0, x1 - x0) * np.maximum(0, y1 - y0)).astype(np.float64)
    ones = (ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]).astype(np.float64)
    share = np.where(area > 0, ones / np.maximum(area, 1.0), 1.0)
    return share, area


def _mask_angle(mask: np.ndarray) -> float:
    """The dominant edge direction of a mask, modulo 90 degrees (radians). Only the mask's
    edges have a gradient; the angles are taken there alone (a tenth of the pixels or less,
    a third of the time on a 640 px frame)."""
    m = mask.astype(np.float32)
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1)
    edge = (gx != 0) | (gy != 0)
    gx, gy = gx[edge], gy[edge]
    mag = np.hypot(gx, gy)
    a = np.arctan2(gy, gx) * 4
    return float(math.atan2(float((np.sin(a) * mag).sum()), float((np.cos(a) * mag).sum())) / 4)


def _dt_peaks(dt: np.ndarray, lo: float, hi: float, angle: float,
              typical: float | None) -> list[Candidate]:
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
    ranked = np.sort(sides)  # how many sides lie within 20 % of each (by bisection: n log n)
    support = (np.searchsorted(ranked, 1.2 * sides, "left")
               - np.searchsorted(ranked, 0.8 * sides, "right"))
    typical = float(np.median(sides[support >= support.max() * 0.8]))
    order = sorted(range(len(cands)), key=lambda i: (i >= prefer_first, -cands[i].side))
    out: list[Candidate] = []
    # the kept centres by a grid of buckets as wide as the longest reach (0.4 of the largest
    # side kept), so a candidate is held against the few kept near it, not all of them: a
    # textured table gives thousands of squares
    bucket = max(0.4 * 1.35 * typical, 1e-6)
    kept: dict[tuple[int, int], list[tuple[float, float, float]]] = {}
    xy = np.array([c.centre for c in cands], np.float64).tolist()  # plain floats: numpy's
    # scalars cost more than the distance itself, thousands of times a frame
    for i in order:
        side = float(sides[i])
        if not 0.7 * typical < side < 1.35 * typical:
            continue
        x, y = xy[i]
        bx, by = int(math.floor(x / bucket)), int(math.floor(y / bucket))
        if _near_kept(kept, bx, by, x, y):
            continue
        kept.setdefault((bx, by), []).append((x, y, 0.4 * side))
        out.append(cands[i])
    return out


def _near_kept(kept: dict[tuple[int, int], list[tuple[float, float, float]]], bx: int, by: int,
               x: float, y: float) -> bool:
    """Is (x, y) within the reach of a square kept in its bucket or the eight round it?"""
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for kx, ky, reach in kept.get((bx + dx, by + dy), ()):
                if math.hypot(kx - x, ky - y) <= reach:
                    return True
    return False

