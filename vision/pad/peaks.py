"""Where a table's grid lines cross it: the places the lines are traced from.

A line is where much of a stretch of the flattened table is line (:func:`places`). The
stretches are a quarter of the table each, because a curled or bent line drifts by more
than its width over the whole table, and spread over all of it, it would be no peak at all.
Within a stretch a line may still lean (a curled card squared by its outer lines shows its
inner lines fanning out), so each stretch is looked at along a few slopes; and a wavy line
sits higher in one stretch than the next, so a line's places in neighbouring stretches are
joined into one line.
"""

from __future__ import annotations

import numpy as np

LINE_SHARE = 0.65  # a grid line runs along at least this share of a band of the table
GAP_FILL = 1.7  # a gap this many usual rows wide is looked at again
BANDS = 4  # stretches along a line in which it is looked for
LEAN = 0.1  # a line may lean this much (a tangent) within a stretch
LEAN_PARTS = 4  # ...followed in this many parts of it
CLOSE = 0.35  # of the usual spacing (3rd quartile: split peaks make many small gaps)


def places(mask: np.ndarray, min_gap: int) -> list[int]:
    """Where the lines along ``mask``'s rows (a line mask, lines running along axis 1)
    are, at least ``min_gap`` px apart, top to bottom."""
    drift = LEAN * mask.shape[1] / BANDS + 2  # a line's move between two stretches' middles
    return _joined(_profiles(mask), min_gap, LINE_SHARE, drift)


def _profiles(mask: np.ndarray) -> list[np.ndarray]:
    """How much of each row of ``mask`` is line, in each of ``BANDS`` stretches along it."""
    return [_leaning(b) for b in np.array_split(mask, BANDS, axis=1)]


def _leaning(band: np.ndarray) -> np.ndarray:
    """A stretch's profile along the best of a few slopes (up to ``LEAN``), each line placed
    at the stretch's middle: taken straight, a leaning line's peak spreads over the width
    it drifts, and a column line 3 degrees off upright covered half of a stretch."""
    parts = np.array_split(band, LEAN_PARTS, axis=1)
    sums = [p.sum(axis=1).astype(np.float32) for p in parts]
    pad = int(np.ceil(LEAN * band.shape[1]))
    middle = (len(parts) - 1) / 2
    step = band.shape[1] / len(parts)
    best = np.zeros(band.shape[0] + 2 * pad, np.float32)
    for slope in np.linspace(-LEAN, LEAN, 2 * LEAN_PARTS + 1):
        total = np.zeros_like(best)
        for j, part in enumerate(sums):
            at = pad + int(round(slope * step * (j - middle)))
            total[at:at + len(part)] += part
        np.maximum(best, total, out=best)
    out: np.ndarray = best[pad:pad + band.shape[0]] / max(1, band.shape[1])
    return out


def _smooth(profile: np.ndarray) -> np.ndarray:
    """A profile smoothed over 5 px, so a line's peak is one place, not two beside it."""
    out: np.ndarray = np.convolve(profile, np.array([1, 2, 3, 2, 1], np.float32) / 9.0,
                                  mode="same")
    return out


def _maxima(smooth: np.ndarray, min_gap: int, level: float) -> list[int]:
    """Places at least ``level`` high and ``min_gap`` apart, strongest first."""
    taken: list[int] = []
    near = np.zeros(len(smooth) + 2 * min_gap, bool)  # within min_gap of a place taken
    for i in np.argsort(-smooth)[:int((smooth >= level).sum())].tolist():
        if not near[i + min_gap]:
            taken.append(i)
            near[i + 1:i + 2 * min_gap] = True
    return taken


def _joined(profiles: list[np.ndarray], min_gap: int, level: float, drift: float
            ) -> list[int]:
    """The lines, each where it is strongest. A line's maxima in neighbouring stretches
    less than ``drift`` px apart, and each the other's nearest, are one line: a wavy or
    leaning line sits a fraction of a row higher in one stretch than in the next, and taken
    from all stretches at once it made a line and a copy of it beside it. A line is seen
    in two stretches at least: a label column's words, looked at along a slope, can fill
    one stretch, and a grid line runs on."""
    smooth = [_smooth(p) for p in profiles]
    found = [_maxima(s, min_gap, level) for s in smooth]
    owner: dict[tuple[int, int], int] = {}
    best: list[tuple[float, int]] = []  # each line's strength and place
    seen: list[int] = []  # in how many stretches
    for b, here in enumerate(found):
        for p in here:
            line = None
            if b > 0 and found[b - 1]:
                q = min(found[b - 1], key=lambda q: abs(q - p))
                if abs(q - p) < drift and min(here, key=lambda r: abs(r - q)) == p:
                    line = owner[(b - 1, q)]
            if line is None:
                line = len(best)
                best.append((0.0, p))
                seen.append(0)
            owner[(b, p)] = line
            seen[line] += 1
            if smooth[b][p] > best[line][0]:
                best[line] = (float(smooth[b][p]), p)
    whole = np.max(smooth, axis=0)
    taken: list[int] = []
    for (_, p), n in sorted(zip(best, seen), reverse=True):
        if n >= 2 and all(abs(p - t) >= min_gap for t in taken):
            taken.append(p)
    return _missed(_spaced(sorted(taken), whole), whole, min_gap, level)


def _missed(peaks: list[int], smooth: np.ndarray, min_gap: int, level: float) -> list[int]:
    """A gap of ``GAP_FILL`` of the table's usual rows (or columns) or more is most often a
    line bent more than a stretch can hold (a curled page's last rows): its peak is spread,
    and lower. The strongest place well inside such a gap is offered when half as strong as
    a line must be; whether it is a grid line is decided by its trace, as for every other."""
    if len(peaks) < 3:
        return peaks
    usual = float(np.median(np.diff(peaks)))
    room = max(min_gap, round(0.3 * usual))
    while True:  # a gap of three rows gets its two lines one at a time
        out = [peaks[0]]
        for a, b in zip(peaks[:-1], peaks[1:]):
            if b - a >= GAP_FILL * usual and b - a > 2 * room:
                k = a + room + int(np.argmax(smooth[a + room:b - room]))
                if smooth[k] >= 0.5 * level:
                    out.append(k)
            out.append(b)
        if len(out) == len(peaks):
            return out
        peaks = out


def _spaced(peaks: list[int], strength: np.ndarray) -> list[int]:
    """Peaks less than ``CLOSE`` of the table's usual row (or column) apart are one line
    seen twice (a curled line spreads its peak over a few px), and the weaker goes; no row
    of a score table is that much thinner than the others."""
    while len(peaks) > 2:
        gaps = np.diff(peaks)
        k = int(np.argmin(gaps))
        if gaps[k] >= CLOSE * float(np.percentile(gaps, 75)):
            break
        peaks = peaks[:k] + peaks[k + 1:] if strength[peaks[k]] < strength[peaks[k + 1]] \
            else peaks[:k + 1] + peaks[k + 2:]
    return peaks


__all__ = ["places"]
