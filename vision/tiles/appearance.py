"""A small appearance descriptor of a tile face that survives uneven light and glare.

Light changes mostly lightness, so chroma is kept apart; hand-laid tiles turn, so the pattern
is kept in all four turns; glare pixels (near white) are left out; crops a few pixels off
their place are matched over small shifts.
"""

from __future__ import annotations

import functools
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
    h, w = crop.shape[:2]
    m = int(round(0.12 * min(h, w)))
    inner = crop[m : h - m, m : w - m]
    small = cv2.resize(inner, (32, 32), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).reshape(-1, 3)  # bytes: a quicker median
    ok = gray.reshape(-1) < s.glare_level
    glare = 1.0 - float(ok.mean())
    use = lab[ok] if ok.sum() >= 30 else lab
    mid = np.median(use, axis=0).astype(np.float32)  # L, a, b at once (every cell has one)
    chroma, light = mid[1:], float(mid[0])
    high = gray - cv2.GaussianBlur(gray, (0, 0), 3.0)  # smooth light and glare left out
    gx = cv2.Sobel(high, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(high, cv2.CV_32F, 0, 1)
    texture = float(np.mean(np.hypot(gx, gy))) / 8.0
    spread = float(gray[gray < s.glare_level].std()) if ok.sum() >= 30 else float(gray.std())
    thumb = cv2.resize(cv2.GaussianBlur(gray, (0, 0), 1.2), (s.pattern, s.pattern),
                       interpolation=cv2.INTER_AREA)
    coarse = float(thumb.std()) / max(float(gray.std()), 1.0)
    band = thumb - cv2.GaussianBlur(thumb, (0, 0), 2.0)
    ink = float(np.mean(gray < np.median(gray) - 60))
    lines = float(np.mean(gray < cv2.GaussianBlur(gray, (0, 0), 4.0) - 40))
    g40 = cv2.cvtColor(cv2.resize(inner, (40, 40), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine = g40 - cv2.GaussianBlur(g40, (0, 0), 2.5)
    return Look(chroma, light, texture, spread, _four(thumb), glare, coarse, _four(band), ink,
                lines, fine)


@functools.cache
def first_use() -> None:
    """Pay once a process, when a reader is made (as it loads its network), what the libraries
    set up on first use: OpenCV's 8-bit Lab tables on the first Lab conversion (about 115 ms
    of one core here) and numpy.ma, which np.median imports on its first call (about 38 ms).
    Together they are more than a whole frame's read, which should never carry them."""
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)
    np.median(np.zeros(3, np.uint8))


def settled(s: TileSettings) -> Look:
    """Stands in for a cell its reference already settled: never compared, so not measured
    (saves the descriptor's cost on most cells of a game)."""
    blank = np.zeros((4, s.pattern * s.pattern), np.float32)
    return Look(np.zeros(2), 0.0, 0.0, 0.0, blank, 0.0, 1.0, blank.copy())


def shift_sim(a: Look, b: Look, s: TileSettings) -> float:
    """Best correlation of two faces' fine structure over small shifts and the four turns:
    tolerates crops a few pixels off (a tile off its lattice place), which the thumbnail
    comparison does not."""
    if a.fine is None or b.fine is None:
        return 0.0
    m = s.shift
    best = -1.0
    for k in range(4):
        t = np.ascontiguousarray(np.rot90(b.fine, k)[m:-m, m:-m])
        best = max(best, float(cv2.matchTemplate(a.fine, t, cv2.TM_CCOEFF_NORMED).max()))
    return best


@functools.cache
def _turns(side: int) -> np.ndarray:
    """(4, side*side) indices that lay a flattened thumbnail out in its four clockwise turns."""
    grid = np.arange(side * side).reshape(side, side)
    return np.stack([np.rot90(grid, -k).reshape(-1) for k in range(4)])


def _four(thumb: np.ndarray) -> np.ndarray:
    """Zero-mean unit vectors of a thumbnail in its four clockwise turns, so a turned tile
    matches in one of them (a turn moves pixels only: mean and norm are those of the
    thumbnail, so it is normalised once and then laid out four ways)."""
    t = thumb.reshape(-1).astype(np.float32)
    t = t - t.mean()
    n = float(np.sqrt(t @ t))
    if n > 1e-3:
        t = t / n
    out: np.ndarray = t[_turns(thumb.shape[0])]
    return out


def pattern_sim(a: Look, b: Look) -> float:
    """Best normalised correlation over the four turns (1 = same pattern)."""
    return float(np.max(a.pattern @ b.pattern[0]))


def ratio(a: float, b: float) -> float:
    """How many times the larger is the smaller: light scales values, so they compare so."""
    return max(a, b) / max(min(a, b), 1e-3)


def alike(a: Look, b: Look, sim_min: float, s: TileSettings) -> bool:
    """Could two cells show the same face? Uneven light scales lightness, contrast and texture
    together, so those are compared as ratios, and contrast and texture relative to the light;
    two faces without structure (plain) need only agree in colour."""
    if np.linalg.norm(a.chroma - b.chroma) >= 8 or ratio(a.light, b.light) >= 1.6:
        return False
    if max(a.texture, b.texture) < s.flat_texture:
        return True
    la, lb = max(a.light, 20.0), max(b.light, 20.0)
    return (ratio(a.texture / la, b.texture / lb) < 1.35
            and ratio(a.spread / la, b.spread / lb) < 1.35
            and (max(a.spread, b.spread) < 6 or pattern_sim(a, b) > sim_min
                 or max(a.coarse, b.coarse) < s.fine or shift_sim(a, b, s) >= s.shift_same))


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


__all__ = ["Look", "alike", "first_use", "glyph_vec", "look", "pattern_sim", "ratio", "settled", "shift_sim"]
