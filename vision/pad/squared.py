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
RUN = 40  # a print line's run is at least this share of the table's shorter side: the
# table's own lines and writing cut it into pieces a cell long
THIN_PX = 4  # a faint line this thick or more is a pen's (a light one), not print, when
# the comb is looked for
WOBBLE = 0.05  # each band's comb within this share of the spacing found: the flattening
# leaves a page's squares 5-7 % apart from one quarter to the next
HIDDEN = 0.5  # of a band's width: a dark line runs along this row (the table's own)
REACH = 4  # px either side of it: the line's half width and a tooth's reach (2)
CHUNK = 16  # spacings scored at once (8 and 64 were no faster)


def _scores(profiles: list[np.ndarray], spacings: np.ndarray,
            hidden: list[np.ndarray]) -> np.ndarray:
    """A comb's score for each spacing, in every band (``profiles``: how much of each row
    of a band is faint line): at its best phase, a third of its teeth hold at least this
    much more line than half-way to the next tooth. A third, not a half: a comb at half a
    table's regular spacing has every other tooth empty, and its median is still a line.
    ``hidden``: each band's rows under the table's own dark lines, where no print shows; a
    tooth there is left out, not counted empty (a sheet ruled along its squares hides every
    other tooth of its rows' print), and a phase needs ``TEETH`` teeth in sight."""
    out = np.zeros((len(profiles), len(spacings)))
    for b, (p, under) in enumerate(zip(profiles, hidden)):
        peak = p.copy()  # the most within 2 px: a tooth may lie that far off its place
        for d in (-2, -1, 1, 2):
            np.maximum(peak, np.roll(p, d), out=peak)
        dip = np.minimum(np.minimum(p, np.roll(p, 1)), np.roll(p, -1))
        for part in np.array_split(np.arange(len(spacings)), max(1, len(spacings) // CHUNK)):
            out[b, part] = _band(peak, dip, under, spacings[part])
    return out


def _band(peak: np.ndarray, dip: np.ndarray, under: np.ndarray, spacings: np.ndarray
          ) -> np.ndarray:
    """:func:`_scores` in one band for a few spacings at once: [spacing, phase, tooth].
    Teeth are sorted only at phases whose third can reach ``FINER`` of ``LATTICE`` (those
    below it change nothing :func:`_comb` decides; scored 0): most phases on plain paper,
    where sorting them all was most of the check's time."""
    n = len(peak)
    teeth = ((n - 1 - spacings) / spacings).astype(int)
    if teeth.max(initial=0) < TEETH:
        return np.zeros(len(spacings))
    phase = np.arange(int(spacings.max()))[None, :, None]
    k = np.arange(teeth.max())[None, None, :]
    s = spacings[:, None, None]
    at = np.minimum(np.round(phase + k * s).astype(int), n - 1)
    mid = np.minimum(np.round(phase + (k + 0.5) * s).astype(int), n - 1)
    seen = (k < teeth[:, None, None]) & (phase < s.astype(int)) & ~under[at]
    lift = np.where(seen, peak[at] - dip[mid], np.inf)
    count = seen.sum(axis=2)
    strong = (seen & (lift >= FINER * LATTICE)).sum(axis=2)
    worth = (count >= TEETH) & (strong >= count - count // 3)
    third = np.zeros(count.shape)
    if worth.any():
        rows = np.sort(lift[worth], axis=1)
        third[worth] = np.take_along_axis(rows, (count[worth] // 3)[:, None], axis=1)[:, 0]
    out: np.ndarray = np.where(teeth >= TEETH, third.max(axis=1), 0.0)
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


def _comb(profiles: list[np.ndarray], hidden: list[np.ndarray], near: float | None = None
          ) -> float | None:
    """The spacing of a comb of faint lines across ``profiles`` that three bands of four
    show, each within ``WOBBLE`` of it, the finest of those scoring nearly as well as the
    best; None when none scores ``LATTICE``. ``hidden``: as for :func:`_scores`; ``near``:
    each band's spacing within ``SQUARE`` of it (the other way's)."""
    if near is not None:
        centres = [near]
        windows = [np.arange((1 - SQUARE) * near, (1 + SQUARE) * near, 0.1)]
    else:
        centres = sorted({c / d for c in _candidates(profiles) for d in (1, 2, 3) if c / d >= 6})
        if not centres or _scores(profiles, np.array(centres), hidden).max() < LATTICE:
            return None  # no quarter shows a comb at any spacing found: plain paper
        windows = [np.arange((1 - WOBBLE) * c, (1 + WOBBLE) * c + 0.05, 0.1) for c in centres]
    scores = _scores(profiles, np.concatenate(windows), hidden)
    ends = np.cumsum([len(w) for w in windows])[:-1]
    per_band = np.stack([w.max(axis=1) for w in np.split(scores, ends, axis=1)], axis=1)
    score = np.sort(per_band, axis=0)[1]  # three bands of four
    best = float(score.max())
    if best < LATTICE:
        return None
    return float(centres[int(np.flatnonzero(score >= FINER * best)[0])])


def _profiles(mask: np.ndarray, axis: int) -> list[np.ndarray]:
    """Each band's share of every row (``axis`` 1: the table cut into quarters of its width)
    or of every column (``axis`` 0: quarters of its height) that ``mask`` covers."""
    return [b.mean(axis=axis) for b in np.array_split(mask.astype(np.float32), BANDS, axis=axis)]


def _under(dark_lines: np.ndarray) -> np.ndarray:
    """The rows of a band's profile that a dark line runs along (``HIDDEN`` of the band),
    widened by ``REACH`` either side."""
    on = (dark_lines >= HIDDEN).astype(np.uint8)[:, None]
    out: np.ndarray = cv2.dilate(on, np.ones((2 * REACH + 1, 1), np.uint8))[:, 0] > 0
    return out


def print_lines(ink: np.ndarray) -> np.ndarray | None:
    """The pixels of a flat table's ink map (:func:`vision.pad.find.paper_ink`) that are
    squared paper's print, or None on plain paper: the faint pixels of long lines, once the
    faint lines make a comb of one spacing both ways. Long is a cell long (``RUN``): the
    table's lines and writing cut the print into such pieces. Faint is below the line
    pixels' Otsu threshold (the print and the lines' edges below it, the lines and the
    writing above). The comb is looked for in thin lines only (a light pen's digits are
    faint too, and their strokes as long); what is removed is every faint line pixel
    fainter than ``PRINT`` times the print's median level."""
    faint = (ink > FAINT).astype(np.uint8)
    run = max(15, round(min(faint.shape) / RUN))
    h, v = (m > 0 for m in line_masks(faint, run, 3, run))
    on = h | v
    if on.sum() < 100:
        return None
    level = np.clip(ink[on] * 255, 0, 255).astype(np.uint8).reshape(-1, 1)
    t = cv2.threshold(level, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)[0] / 255.0
    dark = (ink > t).astype(np.uint8)  # as Otsu splits: above the threshold
    apart = cv2.dilate(dark, np.ones((2 * APART_PX + 1,) * 2, np.uint8)) == 0
    lines_h, lines_v = h & (dark == 0), v & (dark == 0)
    # faint pixels in runs THIN_PX wide (or tall): across a vertical (horizontal) line,
    # one that thick
    wide = cv2.morphologyEx(faint, cv2.MORPH_OPEN, np.ones((1, THIN_PX), np.uint8)) > 0
    tall = cv2.morphologyEx(faint, cv2.MORPH_OPEN, np.ones((THIN_PX, 1), np.uint8)) > 0
    seen_h, seen_v = lines_h & apart & ~tall, lines_v & apart & ~wide
    hidden_rows = [_under(p) for p in _profiles(h & (dark > 0), 1)]
    hidden_cols = [_under(p) for p in _profiles(v & (dark > 0), 0)]
    across = _comb(_profiles(seen_v, 0), hidden_cols)
    if across is None or _comb(_profiles(seen_h, 1), hidden_rows, across) is None:
        return None
    paper = (lines_h | lines_v) & apart
    out: np.ndarray = (lines_h | lines_v) & (ink < PRINT * float(np.median(ink[paper])))
    return out


__all__ = ["print_lines"]
