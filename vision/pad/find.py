"""Where the printed tables are in a photo, without being told any layout.

Paper is bright and ink is darker than the paper *around it*, so an ink map (each pixel's
darkness against the paper closed over it, :mod:`vision.ink`) takes out uneven light,
shadows and the colour of the lines. Grid lines are what survives an opening
with a long horizontal (or vertical) kernel; a table is a connected set of such lines that
cross one another many times. Text, digits and strokes are too short to survive, and the
page's edge crosses nothing, so neither makes a table. Each table's outer quad comes from
the extreme points of its lines along the table's own diagonals (found from its tilt), so a
rotated or tilted card gives the right four corners.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import cv2
import numpy as np

from vision.ink import CLOSE_PX, ink_against, paper_of
from vision.marks import components

T = TypeVar("T")

WORK = 1000  # long side (px) at which tables are looked for
INK = 0.1  # ink map level of a faint printed line
PAPER = 0.35  # of the lit paper's brightness nearby: darker is the table, not the page
NOISE = 5.0  # sigmas of pixel noise: less darkness is noise, not ink
NEARBY = 61  # px: that paper lies this near (across a shadow's edge, the lit side's)
MIN_CROSSINGS = 9  # a table has at least 3 x 3 line crossings; a letter E has 3
MIN_SIDE = 0.06  # of the photo's long side: smaller grids are print, not a table


@dataclass(frozen=True)
class Found:
    """A table's outer quad in photo px: top-left, top-right, bottom-right, bottom-left."""

    quad: np.ndarray


def gray_of(image: np.ndarray) -> np.ndarray:
    """Gray, the way ink contrasts best: the darkest channel, so a blue or red line or pen is
    as dark as a black one against white paper."""
    if image.ndim == 2:
        return image
    # on the channels' strided views: cv2.split copies them out first, five times slower
    out: np.ndarray = np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])
    return out


def line_masks(binary: np.ndarray, length: int, across: int = 5, v_length: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """(horizontal, vertical) lines: runs at least ``length`` long (vertical ones
    ``v_length``, when given: a flat table's lines run its width and its height). The mask
    is thickened across the line first, so a line tilted by a few degrees (a tilt, a curled
    page, a hand-ruled line) survives the opening as one piece; by little (``across`` px)
    where the table is already flat, or a word of touching letters would pass for a line."""
    thick_h = cv2.dilate(binary, np.ones((across, 1), np.uint8))
    thick_v = cv2.dilate(binary, np.ones((1, across), np.uint8))
    h = cv2.morphologyEx(thick_h, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    v = cv2.morphologyEx(thick_v, cv2.MORPH_OPEN, np.ones((v_length or length, 1), np.uint8))
    return np.asarray(h) & binary, np.asarray(v) & binary


def _quad(points: np.ndarray) -> np.ndarray:
    """The four corners of a table's lines: the extreme points along its two diagonals,
    taken in the table's own frame (its tilt from the lines' least-area rectangle, taken
    modulo 90 degrees: a table is read the way up the camera sees it)."""
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    angle = cv2.minAreaRect(hull)[2]
    a = np.deg2rad((angle + 45.0) % 90.0 - 45.0)  # a table is read upright, give or take 45°
    c, s = np.cos(a), np.sin(a)
    local = hull @ np.array([[c, -s], [s, c]])
    quad = []
    for dx, dy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        quad.append(hull[int(np.argmax(local[:, 0] * dx + local[:, 1] * dy))])
    return np.array(quad, np.float64)


def paper_ink(gray: np.ndarray) -> np.ndarray:
    """0..1 ink map of the paper only: a dark table top's grain and the band along the
    page's edge (darker than the paper beside it) are not ink. Paper is what is bright once
    lines and writing are closed over, against the brightest paper within ``NEARBY`` px
    (and never against more than the photo's lit paper): judged against the whole photo,
    the part of a card in a hand's or a phone's hard shadow was taken for the table, and
    its lines and numbers were lost. It is shrunk a little so its edge is left out.
    The image is first padded with its own border: a closing fills a thin band of table
    along the image's edge from the paper beside it (OpenCV's border stands in for paper),
    and that band, a page's edge a few pixels inside a table's cut-out, was taken for one
    more ruled line."""
    pad = CLOSE_PX
    padded = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    closed = paper_of(padded)[pad:-pad, pad:-pad]
    ink = ink_against(gray, closed)
    # the brightest paper nearby, on every 4th pixel (paper's light changes slowly)
    near = cv2.dilate(closed[::4, ::4], np.ones((NEARBY // 4, NEARBY // 4), np.uint8))
    near = cv2.resize(near, gray.shape[::-1], interpolation=cv2.INTER_LINEAR)
    level = np.minimum(near, np.uint8(np.percentile(gray[::4, ::4], 95)))
    paper = cv2.erode((closed > cv2.convertScaleAbs(level, alpha=PAPER)).astype(np.uint8),
                      np.ones((11, 11), np.uint8))
    ink[paper == 0] = 0.0
    # darker than the paper by less than the photo's noise is no ink either
    ink[cv2.subtract(closed, gray) < NOISE * _noise(gray)] = 0.0
    return ink


def _noise(gray: np.ndarray) -> float:
    """The photo's pixel noise (grey levels, one sigma), from the median distance of a pixel
    to the mean of its 3x3 neighbourhood (of pure noise, 0.943 sigma): lines and writing are
    too few to move the median."""
    mean = cv2.boxFilter(gray, cv2.CV_32F, (3, 3))[::2, ::2]  # every 4th pixel is enough
    res = cv2.absdiff(gray[::2, ::2].astype(np.float32), mean).ravel()
    half = res.size // 2
    return 1.4826 * float(np.partition(res, half)[half]) / 0.943


def find_tables(image: np.ndarray) -> list[Found]:
    """Every table in the photo, top to bottom (side by side ones left to right)."""
    gray = gray_of(image)
    scale = min(1.0, WORK / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1.0 else gray
    found = [Found((q + 0.5) / scale - 0.5) for q in tables_in(paper_ink(small))]
    return top_to_bottom(found, lambda f: f.quad)


def tables_in(ink: np.ndarray) -> list[np.ndarray]:
    """The outer quads (in ``ink``'s px) of the tables in an ink map (:func:`paper_ink`)
    about ``WORK`` px long, in no order."""
    binary = (ink > INK).astype(np.uint8)
    long_side = max(ink.shape)
    length = max(12, round(long_side / 45))
    h, v = line_masks(binary, length)
    grid = cv2.dilate(h | v, np.ones((3, 3), np.uint8))
    near = np.ones((3, 3), np.uint8)
    crossings = np.asarray(cv2.dilate(h, near)) & np.asarray(cv2.dilate(v, near))
    n, labels, stats, _ = components(grid)
    m, _, _, centres = components(crossings)
    at = np.round(centres[1:]).astype(int)
    owners = labels[np.clip(at[:, 1], 0, labels.shape[0] - 1),
                    np.clip(at[:, 0], 0, labels.shape[1] - 1)] if m > 1 else np.zeros(0, int)
    count = np.bincount(owners, minlength=n)
    found = []
    for i in range(1, n):
        x, y, w, hh, _ = (int(v) for v in stats[i])
        if max(w, hh) < MIN_SIDE * long_side or min(w, hh) < 2 * length \
                or count[i] < MIN_CROSSINGS:
            continue
        own = (labels[y:y + hh, x:x + w] == i).astype(np.uint8)
        outline, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        pts = np.concatenate([c.reshape(-1, 2) for c in outline]) + [x, y]
        found.append(_quad(pts))  # the outline's hull is the lines'
    return found


def top_to_bottom(tables: list[T], quad: Callable[[T], np.ndarray]) -> list[T]:
    """Tables ordered top to bottom; side by side ones (their spans overlap) left to right.
    ``quad``: a table's outer quad in the photo."""
    quads = [quad(t) for t in tables]  # each once: a lattice's is a perspective transform
    out: list[int] = []
    for i in sorted(range(len(tables)), key=lambda i: float(quads[i][:, 1].min())):
        q = quads[i]
        lo, hi = float(q[:, 1].min()), float(q[:, 1].max())
        k = len(out)
        while k > 0:
            prev = quads[out[k - 1]]
            p_lo, p_hi = float(prev[:, 1].min()), float(prev[:, 1].max())
            overlap = min(hi, p_hi) - max(lo, p_lo)
            if overlap > 0.5 * min(hi - lo, p_hi - p_lo) and \
                    float(prev[:, 0].mean()) > float(q[:, 0].mean()):
                k -= 1
            else:
                break
        out.insert(k, i)
    return [tables[i] for i in out]


__all__ = ["Found", "find_tables", "gray_of", "line_masks", "paper_ink", "tables_in",
           "top_to_bottom"]
