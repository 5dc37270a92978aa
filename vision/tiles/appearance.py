"""A small appearance descriptor of a tile face that survives uneven light and glare.

Light changes mostly lightness, so chroma is kept apart; hand-laid tiles turn, so the pattern
is kept in all four turns; glare pixels (near white) are left out; crops a few pixels off
their place are matched over small shifts.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.tiles.settings import TileSettings


@dataclass(frozen=True)
class Look:
    """What a tile face looks like, in a form that light and turning change little."""

    chroma: np.ndarray  # (2,) median a, b (Lab) of the non-glare pixels
    light: float  # median L
    texture: float  # mean gradient magnitude / contrast
    spread: float  # gray standard deviation
    pattern: np.ndarray  # (4, P*P) zero-mean unit-norm thumbnails in the four turns
    glare: float  # fraction of glare pixels
    coarse: float  # how much of the contrast survives blurring: low for fine patterns
    detail: np.ndarray  # (4, P*P) like ``pattern`` without its smooth part (glare, shade)
    ink: float = 0.0  # share of pixels far darker than the face: drawn lines, letters
    lines: float = 0.0  # share of pixels far darker than their own surroundings (glare is smooth)
    fine: np.ndarray | None = None  # (40, 40) gray minus its blur, for shift-tolerant matching


def look(crop: np.ndarray, s: TileSettings) -> Look:
    """The descriptor of one tile crop (BGR), using its inner 76% to stay off the gaps."""
    return looks([crop], s)[0]


def looks(crops: Sequence[np.ndarray], s: TileSettings) -> list[Look]:
    """The descriptors of many crops at once: a frame measures up to 72 (its cells and the
    reference's), and each step is run once over all of them as a stack rather than once a
    crop, where NumPy's and OpenCV's cost per call was most of the time (about 0.5 ms a crop
    one by one)."""
    if not crops:
        return []
    inner = [_inner(c) for c in crops]
    small = np.stack([cv2.resize(c, (32, 32), interpolation=cv2.INTER_AREA) for c in inner])
    n = len(small)
    gray = gray_each(small)
    lab = cv2.cvtColor(small.reshape(n * 32, 32, 3), cv2.COLOR_BGR2LAB).reshape(n, -1, 3)
    flat = gray.reshape(n, -1)
    lit = flat < s.glare_level
    glare = 1.0 - lit.mean(axis=1)
    ok = lit.copy()
    ok[ok.sum(axis=1) < 30] = True  # nearly all glare: every pixel counts
    mid = _masked_median(lab, ok)  # L, a, b at once (every cell has one)
    high = gray - blur_each(gray, 3.0)  # smooth light and glare left out
    texture = np.hypot(*_sobel(high)).mean(axis=(1, 2)) / 8.0
    spread = _masked_std(flat, ok)
    blurred = blur_each(gray, 1.2)
    thumb = np.stack([cv2.resize(b, (s.pattern, s.pattern), interpolation=cv2.INTER_AREA)
                      for b in blurred])
    coarse = thumb.reshape(n, -1).std(axis=1) / np.maximum(flat.std(axis=1), 1.0)
    band = thumb - blur_each(thumb, 2.0)
    ink = (flat < np.median(flat, axis=1)[:, None] - 60).mean(axis=1)
    lines = (gray < blur_each(gray, 4.0) - 40).mean(axis=(1, 2))
    g40 = gray_each(np.stack([cv2.resize(c, (40, 40), interpolation=cv2.INTER_AREA)
                                for c in inner]))
    fine = g40 - blur_each(g40, 2.5)
    pattern, detail = _four(thumb), _four(band)
    return [Look(mid[i, 1:], float(mid[i, 0]), float(texture[i]), float(spread[i]),
                 pattern[i], float(glare[i]), float(coarse[i]), detail[i], float(ink[i]),
                 float(lines[i]), fine[i]) for i in range(n)]


def _inner(crop: np.ndarray) -> np.ndarray:
    h, w = crop.shape[:2]
    m = int(round(0.12 * min(h, w)))
    return crop[m : h - m, m : w - m]


def gray_each(bgr: np.ndarray) -> np.ndarray:
    """(n, h, w) float32 gray of (n, h, w, 3) BGR images, converted as one image."""
    n, h, w = bgr.shape[:3]
    g = cv2.cvtColor(bgr.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY)
    out: np.ndarray = g.reshape(n, h, w).astype(np.float32)
    return out


def blur_each(stack: np.ndarray, sigma: float) -> np.ndarray:
    """OpenCV's Gaussian blur (its kernel, mirrored borders) of each image of a (n, h, w)
    float32 stack. A blur with mirrored borders is a fixed linear map of each column and each
    row, so it is two small matrix products over the whole stack: five to seven times
    quicker than blurring each crop (or a mosaic of them) and equal to within 1e-4 grey
    levels."""
    _, h, w = stack.shape
    out: np.ndarray = _blur_matrix(h, sigma) @ stack @ _blur_matrix(w, sigma).T
    return out


@functools.cache
def _blur_matrix(side: int, sigma: float) -> np.ndarray:
    """(side, side): row i holds the weights cv2.GaussianBlur gives each pixel of a line of
    ``side`` pixels for output pixel i, the border mirrored (BORDER_REFLECT_101)."""
    k = int(round(8 * sigma + 1)) | 1  # OpenCV's own kernel size for float images
    kernel = cv2.getGaussianKernel(k, sigma, cv2.CV_32F).ravel().astype(np.float64)
    rows = np.repeat(np.arange(side), k)
    p = rows + np.tile(np.arange(k), side) - k // 2
    while (p < 0).any() or (p >= side).any():  # mirror until inside (once, unless k > side)
        p = np.where(p < 0, -p, np.where(p >= side, 2 * (side - 1) - p, p))
    m = np.zeros((side, side))
    np.add.at(m, (rows, p), np.tile(kernel, side))
    return m.astype(np.float32)


def _sobel(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """OpenCV's 3x3 Sobel derivatives (x, y) of each image of a stack, mirrored borders."""
    p = np.pad(stack, ((0, 0), (1, 1), (1, 1)), mode="reflect")
    rows = p[:, :-2] + 2 * p[:, 1:-1] + p[:, 2:]  # smoothed down the columns
    cols = p[:, :, :-2] + 2 * p[:, :, 1:-1] + p[:, :, 2:]  # smoothed along the rows
    return rows[:, :, 2:] - rows[:, :, :-2], cols[:, 2:] - cols[:, :-2]


def _masked_median(values: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """(n, c) float32 median of each row's ``ok`` pixels of (n, p, c) bytes, as np.median
    takes it (the mean of the two middle values of an even count)."""
    big = np.where(ok[:, :, None], values.astype(np.int16), 999)  # the left-out sort last
    big.sort(axis=1)
    count = ok.sum(axis=1)
    rows = np.arange(len(values))
    lo = big[rows, (count - 1) // 2]
    hi = big[rows, count // 2]
    out: np.ndarray = ((lo + hi) / 2.0).astype(np.float32)
    return out


def _masked_std(values: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Standard deviation of each row's ``ok`` values."""
    count = ok.sum(axis=1)
    mean = (values * ok).sum(axis=1) / count
    dev = (values - mean[:, None]) * ok
    out: np.ndarray = np.sqrt((dev * dev).sum(axis=1) / count)
    return out


@functools.cache
def first_use() -> None:
    """Pay once a process, when a reader is made (as it loads its network), what the libraries
    set up on first use: OpenCV's 8-bit Lab tables on the first Lab conversion (about 115 ms
    of one core here) and numpy.ma, which np.median imports on its first call (about 38 ms).
    Together they are more than a whole frame's read, which should never carry them."""
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)
    np.median(np.zeros(3, np.float32))  # a float median: its NaN check imports numpy.ma


def settled(s: TileSettings) -> Look:
    """Stands in for a cell its reference already settled: never compared, so not measured
    (saves the descriptor's cost on most cells of a game)."""
    blank = np.zeros((4, s.pattern * s.pattern), np.float32)
    return Look(np.zeros(2), 0.0, 0.0, 0.0, blank, 0.0, 1.0, blank.copy())


def shift_sim(a: Look, b: Look, s: TileSettings) -> float:
    """Best correlation of two faces' fine structure over small shifts and the four turns:
    tolerates crops a few pixels off (a tile off its lattice place), which the thumbnail
    comparison does not."""
    return shift_sims(a, [b], s)[0]


def shift_sims(a: Look, others: Sequence[Look], s: TileSettings) -> list[float]:
    """:func:`shift_sim` of ``a`` with each of ``others`` (0 where a face has no fine
    structure), ``a``'s windows made once."""
    if a.fine is None:
        return [0.0] * len(others)
    windows = _windows(a.fine, s.shift)
    return [_best(windows, _middles(b, s.shift)) if b.fine is not None else 0.0
            for b in others]


def pair_sims(seen: Sequence[Look], s: TileSettings) -> list[float]:
    """:func:`shift_sim` of every pair of ``seen`` (0 where a face has no fine structure),
    each face's windows and turns made once rather than once a pair."""
    windows = [_windows(lk.fine, s.shift) if lk.fine is not None else None for lk in seen]
    middles = [_middles(lk, s.shift) if lk.fine is not None else None for lk in seen]
    out: list[float] = []
    for a in range(len(seen)):
        for b in range(a + 1, len(seen)):
            wa, mb = windows[a], middles[b]
            out.append(_best(wa, mb) if wa is not None and mb is not None else 0.0)
    return out


def _best(windows: tuple[np.ndarray, np.ndarray], middles: np.ndarray) -> float:
    raw, scale = windows
    return float(((raw @ middles.T) * scale[:, None]).max())


def _unit_rows(rows: np.ndarray) -> np.ndarray:
    """Rows made zero-mean and of unit length: their dot products are then the normalised
    correlation (cv2.TM_CCOEFF_NORMED)."""
    out = rows - rows.mean(axis=1, keepdims=True)
    unit: np.ndarray = out / np.maximum(np.sqrt((out * out).sum(axis=1, keepdims=True)), 1e-6)
    return unit


def _windows(fine: np.ndarray, m: int) -> tuple[np.ndarray, np.ndarray]:
    """((2m+1)^2, side^2) every window of ``fine`` as large as its middle, and (2m+1)^2 the
    inverse of each window's norm about its mean. With a face's four turned middles as unit
    rows, one matrix product scaled by the second gives the normalised correlation at every
    shift and turn: what four cv2.matchTemplate calls gave, about four times quicker, and a
    face's windows serve every face it is compared with. The middles' mean is zero, so a
    window's own mean drops out of the product; its norm comes from two integral images
    instead of passes over the 121 windows (a twentieth of a read's time went to those)."""
    side = fine.shape[0] - 2 * m
    raw = np.lib.stride_tricks.sliding_window_view(fine, (side, side)).reshape(-1, side * side)
    total, squares = cv2.integral2(np.asarray(fine, np.float64))
    n = 2 * m + 1

    def box(ii: np.ndarray) -> np.ndarray:
        out: np.ndarray = (ii[side:side + n, side:side + n] - ii[:n, side:side + n]
                           - ii[side:side + n, :n] + ii[:n, :n])
        return out.reshape(-1)

    s1, s2 = box(total), box(squares)
    spread = np.sqrt(np.maximum(s2 - s1 * s1 / (side * side), 0.0))
    # a flat window correlates with nothing (as when its unit row was all zeros): its
    # product, rounding left over from a mean that did not drop out exactly, is not scaled up
    scale = np.divide(1.0, spread, out=np.zeros_like(spread), where=spread > 1e-6)
    return raw, scale.astype(np.float32)


def _middles(b: Look, m: int) -> np.ndarray:
    """(4, side^2): the face's middle in its four turns, as unit rows."""
    assert b.fine is not None
    side = b.fine.shape[0] - 2 * m
    four = np.stack([np.rot90(b.fine, k)[m:-m, m:-m] for k in range(4)])
    return _unit_rows(four.reshape(4, side * side))


@functools.cache
def _turns(side: int) -> np.ndarray:
    """(4, side*side) indices that lay a flattened thumbnail out in its four clockwise turns."""
    grid = np.arange(side * side).reshape(side, side)
    return np.stack([np.rot90(grid, -k).reshape(-1) for k in range(4)])


def _four(thumbs: np.ndarray) -> np.ndarray:
    """(n, 4, side*side) zero-mean unit vectors of (n, side, side) thumbnails in their four
    clockwise turns, so a turned tile matches in one of them (a turn moves pixels only: mean
    and norm are those of the thumbnail, so it is normalised once and then laid out four
    ways)."""
    n, side = thumbs.shape[:2]
    t = thumbs.reshape(n, -1).astype(np.float32)
    t = t - t.mean(axis=1, keepdims=True)
    norm = np.sqrt((t * t).sum(axis=1, keepdims=True))
    t = np.where(norm > 1e-3, t / np.maximum(norm, 1e-3), t)
    out: np.ndarray = t[:, _turns(side)]
    return out


def ratio(a: float, b: float) -> float:
    """How many times the larger is the smaller: light scales values, so they compare so."""
    return max(a, b) / max(min(a, b), 1e-3)


def alike(rows: Sequence[Look], cols: Sequence[Look], sim_min: float, s: TileSettings,
          wanted: np.ndarray | None = None) -> np.ndarray:
    """(r, c): could cell ``rows[i]`` and cell ``cols[j]`` show the same face? Uneven light
    scales lightness, contrast and texture together, so those are compared as ratios, and
    contrast and texture relative to the light; two faces without structure (plain) need only
    agree in colour; patterned faces agree in their thumbnails or, a few pixels off each
    other, in their fine structure. Each test runs over all pairs at once, the costly
    shift-tolerant match only for the ``wanted`` pairs (default all) the others leave open."""
    def col(seen: Sequence[Look], f: str) -> np.ndarray:
        return np.array([getattr(lk, f) for lk in seen], np.float64)

    def ratios(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out: np.ndarray = (np.maximum(a[:, None], b[None]) /
                           np.maximum(np.minimum(a[:, None], b[None]), 1e-3))
        return out

    def either(f: str) -> np.ndarray:
        out: np.ndarray = np.maximum(col(rows, f)[:, None], col(cols, f)[None])
        return out

    chroma_r, chroma_c = (np.array([lk.chroma for lk in x], np.float64).reshape(-1, 2)
                          for x in (rows, cols))
    colour = ((np.linalg.norm(chroma_r[:, None] - chroma_c[None], axis=2) < 8)
              & (ratios(col(rows, "light"), col(cols, "light")) < 1.6))
    flat = either("texture") < s.flat_texture
    lit_r, lit_c = np.maximum(col(rows, "light"), 20.0), np.maximum(col(cols, "light"), 20.0)
    kin = ((ratios(col(rows, "texture") / lit_r, col(cols, "texture") / lit_c) < 1.35)
           & (ratios(col(rows, "spread") / lit_r, col(cols, "spread") / lit_c) < 1.35))
    psim = np.einsum("ikp,jp->ijk", np.array([lk.pattern for lk in rows], np.float32),
                     np.array([lk.pattern[0] for lk in cols], np.float32)).max(axis=2)
    plain = (either("spread") < 6) | (psim > sim_min) | (either("coarse") < s.fine)
    out: np.ndarray = colour & (flat | (kin & plain))
    open_pairs = colour & ~flat & kin & ~plain
    if wanted is not None:
        open_pairs &= wanted
    middles: dict[int, np.ndarray] = {}
    for i in np.flatnonzero(open_pairs.any(axis=1)).tolist():
        # one face's windows (435 KB) for all its pairs at once, then let go: kept for
        # every face they were 16 MB more at the read's peak
        fine = rows[i].fine
        windows = _windows(fine, s.shift) if fine is not None else None
        for j in np.flatnonzero(open_pairs[i]).tolist():
            if windows is None or cols[j].fine is None:
                out[i, j] = False
                continue
            if j not in middles:
                middles[j] = _middles(cols[j], s.shift)
            out[i, j] = _best(windows, middles[j]) >= s.shift_same
    return out


def alike_matrix(seen: Sequence[Look], sim_min: float, s: TileSettings) -> np.ndarray:
    """(n, n) :func:`alike` of every pair of ``seen`` (``seen[i]`` against ``seen[j]`` for
    i < j, mirrored; no cell is counted alike to itself)."""
    n = len(seen)
    upper = np.triu(alike(seen, seen, sim_min, s, np.triu(np.ones((n, n), bool), 1)), 1)
    result: np.ndarray = upper | upper.T
    return result


def glyph_vec(crop: np.ndarray, s: TileSettings) -> np.ndarray:
    """(4, GLYPH*GLYPH) zero-mean unit thumbnails of the crop's inner part in four clockwise
    turns: all tiles of a set share one print, so a cell is compared with the sure letters of
    its own frame this way."""
    h, w = crop.shape[:2]
    m = int(round(0.1 * min(h, w)))
    gray = cv2.cvtColor(crop[m : h - m, m : w - m], cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (s.glyph, s.glyph), interpolation=cv2.INTER_AREA).astype(np.float32)
    t = np.asarray(cv2.GaussianBlur(small, (0, 0), 0.8), np.float32).reshape(-1)
    t = t - t.mean()
    out: np.ndarray = (t / max(float(np.linalg.norm(t)), 1e-3))[_turns(s.glyph)]
    return out


__all__ = ["Look", "alike", "alike_matrix", "blur_each", "first_use", "gray_each", "glyph_vec",
           "look", "looks", "pair_sims", "ratio", "settled", "shift_sim", "shift_sims"]
