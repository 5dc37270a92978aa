"""Letters drawn another way than a font's solid strokes: hollow, as dots, stencilled, dashed.

Tiles and cubes are not always printed with solid letters: some sets have outline letters
(an ink rim round the face colour), dot-matrix letters (as a printer or a stamp makes them),
stencil letters or dashed rims. A model trained only on fonts' solid strokes does not read
those at all, and no installed font draws them. So a training crop can take a font glyph and
redraw it in one of these ways; every way is decided up front by :func:`random_style` (the
only draw from the random generator), so ``glyph_mask`` stays a pure function of its
arguments and a seed still gives the same crop.

Everything happens on the glyph's big master drawing (cap height ``cap`` pixels), before the
warp that sizes and turns it, so a dot grid or an outline turns with its letter as it does on
a printed tile. Sizes are fractions of the cap height, so a style looks the same at any size.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

KINDS = ("hollow", "dots", "stencil", "dashed")


@dataclass(frozen=True)
class Style:
    """How to redraw a glyph. ``kind`` is one of :data:`KINDS`; ``width`` is a rim's (or a
    stencil cut's) width, ``fatten`` how much the glyph grows first, both in cap heights.
    ``where`` is the rim's place on the glyph's edge: -1 inside it, 0 across it, +1 outside.
    Dots: ``rows`` dots over the cap height, each ``dot`` of a cell across, round or square,
    for the cells the glyph's middle line runs through for at least ``reach`` of a cell (a
    stroke one dot wide, as 5x7 lettering has it; a grid of the inked cells instead would fill
    a bold O into a blob, which with its umlaut looks like a splash of blood, a victim).
    Stencil: ``cuts`` lines (position 0..1 across the ink box, True for vertical).
    Dashed: a rim of dashes ``dash`` of a ``period`` (cap heights) long, round dots when
    ``round``."""

    kind: str
    width: float = 0.06
    fatten: float = 0.0
    where: int = 0
    rows: int = 7
    dot: float = 0.8
    round: bool = True
    reach: float = 0.3
    cuts: tuple[tuple[float, bool], ...] = ()
    dash: float = 0.08
    period: float = 0.16


def random_style(rng: np.random.Generator, kinds: tuple[str, ...] = KINDS) -> Style:
    """A style drawn at random: hollow and dots most often, as they differ most from a font."""
    weights = np.array([{"hollow": 0.4, "dots": 0.4, "stencil": 0.1, "dashed": 0.1}[k] for k in kinds])
    kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    if kind == "hollow":
        return Style("hollow", width=float(rng.uniform(0.03, 0.09)),
                     fatten=float(rng.uniform(0.0, 0.07)) if rng.random() < 0.6 else 0.0,
                     where=int(rng.integers(-1, 2)))
    if kind == "dots":
        return Style("dots", rows=int(rng.integers(6, 11)), dot=float(rng.uniform(0.55, 0.95)),
                     round=bool(rng.random() < 0.65), reach=float(rng.uniform(0.15, 0.5)))
    if kind == "stencil":
        n = int(rng.integers(1, 3))
        cuts = tuple((float(rng.uniform(0.3, 0.7)), bool(rng.random() < 0.5)) for _ in range(n))
        return Style("stencil", width=float(rng.uniform(0.04, 0.08)), cuts=cuts)
    period = float(rng.uniform(0.1, 0.22))
    return Style("dashed", width=float(rng.uniform(0.03, 0.07)), fatten=float(rng.uniform(0.0, 0.05)),
                 dash=period * float(rng.uniform(0.35, 0.7)), period=period, round=bool(rng.random() < 0.3))


def _disc(diameter: float) -> np.ndarray:
    d = max(1, int(round(diameter)))
    kernel: np.ndarray = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))
    return kernel


def restyle(mask: np.ndarray, box: tuple[int, int, int, int], cap: int, style: Style) -> np.ndarray:
    """The glyph ``mask`` (uint8 coverage; ink box ``box`` = x0, x1, y0, y1; cap height ``cap``
    pixels) redrawn in ``style``, the same shape and type."""
    if style.fatten > 0:
        mask = cv2.dilate(mask, _disc(style.fatten * cap * 2))
    if style.kind == "hollow":
        return _hollow(mask, style.width * cap, style.where)
    if style.kind == "dots":
        return _dots(mask, box, cap, style)
    if style.kind == "stencil":
        return _stencil(mask, box, style.width * cap, style.cuts)
    if style.kind == "dashed":
        return _dashed(mask, cap, style)
    raise ValueError(f"unknown style {style.kind!r}")


def restyle_picture(mask: np.ndarray, style: Style | None) -> np.ndarray:
    """A picture's coverage (0..1 float) redrawn in ``style`` like a letter, its height taken
    for a cap height: a set whose letters are hollow or dotted draws its pictures and backs so
    too, and those must stay "not a letter"."""
    if style is None:
        return mask
    u8 = np.round(np.clip(mask, 0, 1) * 255).astype(np.uint8)
    ys, xs = np.nonzero(u8 > 127)
    if len(xs) == 0:
        return mask
    box = (int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max()))
    cap = max(8, box[3] - box[2] + 1)
    out: np.ndarray = restyle(u8, box, cap, style).astype(np.float32) / 255.0
    return out


def _hollow(mask: np.ndarray, width: float, where: int) -> np.ndarray:
    """Only the rim: the glyph less its eroded self (inside), its dilation less itself
    (outside), or the dilation less the erosion by half the width each (across the edge)."""
    if where < 0:
        return cv2.subtract(mask, cv2.erode(mask, _disc(2 * width)))
    if where > 0:
        return cv2.subtract(cv2.dilate(mask, _disc(2 * width)), mask)
    k = _disc(width)
    return cv2.subtract(cv2.dilate(mask, k), cv2.erode(mask, k))


def skeleton(mask: np.ndarray) -> np.ndarray:
    """The middle lines of a drawing's strokes (``mask`` 0/255), one pixel wide and joined
    (Zhang-Suen thinning, each pass over the whole image at once); shared with the pad
    renders' ballpoint (vision.kniffel_pad.synth)."""
    img = (mask > 127).astype(np.uint8)
    while True:
        changed = False
        for step in (0, 1):
            p = np.pad(img, 1)
            n = [p[:-2, 1:-1], p[:-2, 2:], p[1:-1, 2:], p[2:, 2:], p[2:, 1:-1], p[2:, :-2], p[1:-1, :-2], p[:-2, :-2]]
            count = sum(x.astype(np.int32) for x in n)
            turns = sum(((n[i] == 0) & (n[(i + 1) % 8] == 1)).astype(np.int32) for i in range(8))
            p2, p4, p6, p8 = n[0], n[2], n[4], n[6]
            if step == 0:
                side = ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
            else:
                side = ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            gone = (img == 1) & (count >= 2) & (count <= 6) & (turns == 1) & side
            if gone.any():
                img[gone] = 0
                changed = True
        if not changed:
            return img


def _ends_restored(skel: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Thinning shortens every stroke end by half the stroke's width (an I's stem would lose
    a dot at each end): each end of the middle line is drawn on, straight, that far again."""
    depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    near = cv2.filter2D(skel, cv2.CV_16S, np.ones((3, 3), np.float32), borderType=cv2.BORDER_CONSTANT) - skel
    out = skel.copy()
    for y, x in zip(*np.nonzero((skel > 0) & (near == 1))):
        win = skel[max(0, y - 1): y + 2, max(0, x - 1): x + 2].copy()
        win[y - max(0, y - 1), x - max(0, x - 1)] = 0
        ny, nx = (int(v[0]) for v in np.nonzero(win))
        dy, dx = y - (max(0, y - 1) + ny), x - (max(0, x - 1) + nx)
        reach = float(depth[y, x]) / float(np.hypot(dx, dy))
        cv2.line(out, (int(x), int(y)), (int(round(x + dx * reach)), int(round(y + dy * reach))), 1, 1)
    return out


def _dots(mask: np.ndarray, box: tuple[int, int, int, int], cap: int, style: Style) -> np.ndarray:
    """The glyph on a square grid aligned with its ink box, a dot for each cell its middle line
    runs through (for at least ``reach`` of a cell)."""
    x0, x1, y0, y1 = box
    pitch = cap / style.rows
    cols = max(1, int(np.ceil((x1 - x0 + 1) / pitch)))
    rows = max(1, int(np.ceil((y1 - y0 + 1) / pitch)))
    # centre the grid on the ink box (a narrow I gets a column through its stem)
    gx = x0 + (x1 - x0 + 1 - cols * pitch) / 2.0
    gy = y0 + (y1 - y0 + 1 - rows * pitch) / 2.0
    f = 48.0 / cap  # thinned and counted at about 48 px a cap height: quick, fine enough
    small = cv2.resize(mask, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    ink = _ends_restored(skeleton(small), small) > 0
    ys, xs = np.nonzero(ink)
    r = np.floor(((ys + 0.5) / f - gy) / pitch).astype(int)
    c = np.floor(((xs + 0.5) / f - gx) / pitch).astype(int)
    keep = (r >= 0) & (r < rows) & (c >= 0) & (c < cols)
    count = np.zeros((rows, cols), np.int32)
    np.add.at(count, (r[keep], c[keep]), 1)
    need = style.reach * pitch * f
    on = count >= max(1.0, need)
    # a small blob (an umlaut's dot) has almost no middle line: it gets the dot at its centre
    n, _, stats, centres = cv2.connectedComponentsWithStats((small > 127).astype(np.uint8))
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] <= 2 * (pitch * f) ** 2:
            rr = int(np.floor(((centres[i, 1] + 0.5) / f - gy) / pitch))
            cc = int(np.floor(((centres[i, 0] + 0.5) / f - gx) / pitch))
            if 0 <= rr < rows and 0 <= cc < cols:
                on[rr, cc] = True
    out: np.ndarray = np.zeros_like(mask)
    half = style.dot * pitch / 2.0
    for r, c in zip(*np.nonzero(on)):
        px, py = gx + (c + 0.5) * pitch, gy + (r + 0.5) * pitch
        if style.round:
            cv2.circle(out, (int(round(px * 4)), int(round(py * 4))), int(round(half * 4)), 255, -1,
                       cv2.LINE_AA, shift=2)
        else:
            cv2.rectangle(out, (int(round(px - half)), int(round(py - half))),
                          (int(round(px + half)) - 1, int(round(py + half)) - 1), 255, -1)
    return out


def _stencil(mask: np.ndarray, box: tuple[int, int, int, int], width: float,
             cuts: tuple[tuple[float, bool], ...]) -> np.ndarray:
    """The glyph with thin gaps cut across it, as a stencil's bridges leave them."""
    x0, x1, y0, y1 = box
    out = mask.copy()
    w = max(1, int(round(width)))
    for at, vertical in cuts:
        if vertical:
            x = int(round(x0 + at * (x1 - x0)))
            out[:, max(0, x - w // 2): x - w // 2 + w] = 0
        else:
            y = int(round(y0 + at * (y1 - y0)))
            out[max(0, y - w // 2): y - w // 2 + w, :] = 0
    return out


def _dashed(mask: np.ndarray, cap: int, style: Style) -> np.ndarray:
    """The glyph's rim drawn as dashes (or round dots) along each of its contours."""
    contours, _ = cv2.findContours((mask > 127).astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    out: np.ndarray = np.zeros_like(mask)
    width = max(1, int(round(style.width * cap)))
    period, dash = style.period * cap, style.dash * cap
    for contour in contours:
        pts = contour[:, 0, :]
        if len(pts) < 4:
            continue
        steps = np.linalg.norm(np.diff(pts, axis=0, append=pts[:1]), axis=1)
        along = np.concatenate([[0.0], np.cumsum(steps)[:-1]])
        if style.round:
            for i in np.nonzero(np.diff(np.floor(along / period), prepend=-1.0) > 0)[0]:
                cv2.circle(out, (int(pts[i, 0]), int(pts[i, 1])), max(1, width // 2 + 1), 255, -1, cv2.LINE_AA)
            continue
        on = (along % period) < dash
        edges = np.flatnonzero(np.diff(np.concatenate([[0], on.astype(np.int8), [0]])))
        for a, b in zip(edges[::2], edges[1::2]):
            if b - a >= 2:
                cv2.polylines(out, [pts[a:b].reshape(-1, 1, 2)], False, 255, width, cv2.LINE_AA)
    return out
