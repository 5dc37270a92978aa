"""Squared paper's print told from a table's own lines.

People at a table rule their own score sheet on squared paper as often as they use a printed
card: 5 mm squares printed faintly over the whole page. The print is a grid of lines too, as
regular as a table's; read as the table's, it adds rows and columns, joins a sheet's two
tables into one, and in an empty cell reads as a 1, a minus or a strike. Two things tell it
from the table: it is fainter than the table's lines and the writing (a pen's, a pencil's),
and it is one comb of lines at one spacing both ways, across the whole table. A table's own
rows are regular too, but its columns are not spaced as its rows, and a comb at half a
table's spacing finds half of its teeth empty.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.pad.find import line_masks

FAINT = 0.05  # ink map level: the print's pixels, fainter than any table's line, count from here
TEETH = 12  # the print has at least this many squares across a table, each way
BANDS = 4  # quarters of the table, each on its own: a curled page's print drifts
LATTICE = 0.01  # a comb's score at least (a third of its teeth hold this much more line)
SQUARE = 0.1  # the rows' spacing within this share of the columns' (the flattening squares a
# photo's perspective only roughly)
FINER = 0.5  # of the best comb's score: a finer comb this good is the print (a print every s
# is one every 2s too)
APART_PX = 2  # faint pixels this near darker ink are a line's or a digit's edge, not print
PRINT = 1.6  # times the print's median level at most: darker ink is a pen's or a pencil's


def _scores(profiles: list[np.ndarray], spacings: np.ndarray) -> np.ndarray:
    """A comb's score for each spacing, in every band (``profiles``: how much of each row
    of a band is faint line): at its best phase, a third of its teeth hold at least this
    much more line than half-way to the next tooth. A third, not a half: a comb at half a
    table's regular spacing has every other tooth empty, and its median is still a line."""
    out = np.zeros((len(profiles), len(spacings)))
    for b, p in enumerate(profiles):
        n = len(p)
        peak = p.copy()  # the most within 2 px: a tooth may lie that far off its place
        for d in (-2, -1, 1, 2):
            np.maximum(peak, np.roll(p, d), out=peak)
        dip = np.minimum(np.minimum(p, np.roll(p, 1)), np.roll(p, -1))
        for i, s in enumerate(spacings):
            k = np.arange(int((n - 1 - s) / s))
            if len(k) < TEETH:
                continue
            phase = np.arange(int(s))[:, None]
            at = np.round(phase + k * s).astype(int)
            mid = np.minimum(np.round(phase + (k + 0.5) * s).astype(int), n - 1)
            third = len(k) // 3
            out[b, i] = np.partition(peak[at] - dip[mid], third, axis=1)[:, third].max()
    return out


def _candidates(profiles: list[np.ndarray], most: int = 4) -> list[float]:
    """Spacings worth scoring: the strongest maxima of the bands' autocorrelation, each made
    exact by the maxima at its multiples (a comb of 40 teeth drifts off its lines if its
    spacing is a quarter of a pixel off). A few strong lines move the autocorrelation too;
    the comb's score decides."""
    n = len(profiles[0])
    ac = np.zeros(n)
    for p in profiles:
        f = np.fft.rfft(p - p.mean(), 2 * n)
        a = np.fft.irfft(f * np.conj(f))[:n]
        ac += a / max(float(a[0]), 1e-9)
    lags = [i for i in range(6, int(n / TEETH)) if ac[i] >= ac[i - 1] and ac[i] >= ac[i + 1]]
    out = []
    for lag in sorted(lags, key=lambda i: -ac[i])[:most]:
        num = den = 0.0
        for m in range(1, n // (2 * lag) + 1):
            at = m * lag if m == 1 else round(m * num / den)
            if at + 3 >= n:
                break
            j = at - 2 + int(np.argmax(ac[at - 2:at + 3]))
            y0, y1, y2 = ac[j - 1], ac[j], ac[j + 1]
            bend = y0 - 2 * y1 + y2
            top = j + (float(np.clip(0.5 * (y0 - y2) / bend, -0.5, 0.5)) if bend < 0 else 0.0)
            num, den = num + m * top, den + m * m
        out.append(num / den)
    return out


def _comb(profiles: list[np.ndarray], near: float | None = None) -> float | None:
    """The spacing of a comb of faint lines across ``profiles`` that three bands of four
    show, the finest of those scoring nearly as well as the best; None when none scores
    ``LATTICE``. ``near``: only spacings within ``SQUARE`` of it (the other way's)."""
    if near is not None:
        tried = list(np.arange((1 - SQUARE) * near, (1 + SQUARE) * near, 0.1))
    else:
        tried = sorted({c / d for c in _candidates(profiles) for d in (1, 2, 3) if c / d >= 6})
    if not tried:
        return None
    score = np.sort(_scores(profiles, np.array(tried)), axis=0)[1]  # three bands of four
    best = float(score.max())
    if best < LATTICE:
        return None
    return float(tried[int(np.flatnonzero(score >= FINER * best)[0])])


def print_lines(ink: np.ndarray) -> np.ndarray | None:
    """The pixels of a flat table's ink map (:func:`vision.pad.find.paper_ink`) that are
    squared paper's print, or None on plain paper: the faint pixels of long lines, once the
    faint lines make a comb of one spacing both ways. Faint is below the line pixels' Otsu
    threshold (the print and the lines' edges below it, the lines and the writing above),
    and what is removed is fainter than ``PRINT`` times the print's median level."""
    faint = (ink > FAINT).astype(np.uint8)
    fh, fw = faint.shape
    h, v = (m > 0 for m in line_masks(faint, max(15, round(fw / 20)), 3,
                                      max(15, round(fh / 20))))
    on = h | v
    if on.sum() < 100:
        return None
    level = np.clip(ink[on] * 255, 0, 255).astype(np.uint8).reshape(-1, 1)
    t = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] / 255.0
    dark = (ink > t).astype(np.uint8)  # as Otsu splits: above the threshold
    apart = cv2.dilate(dark, np.ones((2 * APART_PX + 1,) * 2, np.uint8)) == 0
    lines_h, lines_v = h & (dark == 0), v & (dark == 0)
    rows = [b.mean(axis=1) for b in np.array_split((lines_h & apart).astype(np.float32),
                                                   BANDS, axis=1)]
    cols = [b.mean(axis=0) for b in np.array_split((lines_v & apart).astype(np.float32),
                                                   BANDS, axis=0)]
    across = _comb(cols)
    if across is None or _comb(rows, across) is None:
        return None
    paper = (lines_h | lines_v) & apart
    out: np.ndarray = (lines_h | lines_v) & (ink < PRINT * float(np.median(ink[paper])))
    return out


__all__ = ["print_lines"]
