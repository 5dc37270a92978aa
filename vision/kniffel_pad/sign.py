"""A minus sign before a handwritten number, told by its shape and place.

The digit network sees every mark scaled to one size, so a short flat bar is a speck of line
to it, and a bar that touches the digit after it is part of that digit (a "-4" is a sure 4).
Where it stands and how it is drawn tell a referee it is a minus: short, flat, level with
the middle of the digit after it, before it.
"""

from __future__ import annotations

import cv2
import numpy as np

# a minus touching its digit: columns at the mark's left holding nothing but one band of ink
# at most BAR_THICK of the mark's height thick (a felt pen's stroke is 0.2 of it), inside its
# middle rows (MIDDLE), for at least BAR_LONG of its height. The renders' bars are 0.35-0.55
# of the digit's height, up to 0.08 of it under the digit; of MNIST's 982 test 4s, 16 reach
# out as far as a quarter of their height to the left of their stroke, 2 as far as 0.32
BAR_THICK, BAR_LONG, MIDDLE = 0.3, 0.32, (0.25, 0.8)
EVEN = 0.1  # of the mark's height: a bar's columns differ no more in thickness (a pen keeps
# its width; a small 4's hooked arm doubles it)
LEVEL = 0.1  # of the mark's height: a bar's middle rises or falls no more along it
REST_HIGH = 0.8  # of the mark's height: what follows the bar is a whole digit this high
REST_WIDE = 1.4  # of the mark's height: and one digit wide at most (a 5's bar reaches out)


def apart(bar: tuple[int, int, int, int], digit: tuple[int, int, int, int]) -> bool:
    """Is the mark ``bar`` (x, y, w, h) a minus before the mark ``digit``: short and flat,
    left of it and level with its middle?"""
    x, y, w, h = bar
    fx, fy, _, fh = digit
    middle = y + h / 2
    flat = w >= 2 * h and w <= 1.5 * fh and x + w / 2 <= fx  # its middle before the digit
    return flat and fy + 0.25 * fh <= middle <= fy + 0.75 * fh


def bar_ahead(mask: np.ndarray) -> int | None:
    """The column where a minus written touching the digit after it ends, in ``mask`` (one
    mark, box pixels), or None. Columns from the mark's left that hold one thin band of ink
    in its middle rows, level and evenly thick, are the bar; a digit of the mark's full
    height follows, no wider than a digit, and no bar as long leaves it on its right (a
    line struck through a number is a bar on both sides; a 4's arm or the side of a 0 is
    shorter)."""
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))
    if h < 8 or w < BAR_LONG * h:
        return None
    cols = mask[y:y + h, x:x + w]
    long = int(np.ceil(BAR_LONG * h))  # the columns the bar must hold at least
    for c in (0, (long - 1) // 2, long - 1):  # a quick look at three, which most marks fail
        ink = np.flatnonzero(cols[:, c])
        if ink.size == 0 or ink[-1] - ink[0] + 1 > max(2, BAR_THICK * h):
            return None
    inked = cols.any(axis=0)
    top = np.argmax(cols, axis=0)
    bottom = h - 1 - np.argmax(cols[::-1], axis=0)
    extent = bottom - top + 1
    thin = (extent <= max(2, BAR_THICK * h)) & inked
    centre = (top + bottom) / 2.0
    bar = thin & (top >= MIDDLE[0] * h) & (bottom <= MIDDLE[1] * h)
    run = _level_run(bar, centre, LEVEL * h)
    after = _level_run(bar[::-1], centre[::-1], LEVEL * h)  # a bar on the right
    if run < BAR_LONG * h or w - run > REST_WIDE * h or after >= BAR_LONG * h:
        return None
    thick = extent[:long]  # the bar's own columns
    if int(thick.max() - thick.min()) > max(2, EVEN * h):
        return None
    rest = cols[:, run:].any(axis=1)
    return x + run if int(rest.sum()) >= REST_HIGH * h else None


def bar_end_off(mark: np.ndarray, digit: np.ndarray, at: int) -> np.ndarray:
    """``digit``, the part of ``mark`` right of the cut at column ``at`` (:func:`bar_ahead`),
    without the bar's end where the bar runs on under the digit's first columns apart from
    its strokes (a slanted 1's foot below it): read with the 1, that end made it a 4. In
    each column from the cut, a run of ink level with the bar, no thicker, beside other
    ink of the column, is the bar's; the first column where it is not ends the bar."""
    band = np.flatnonzero(mark[:, at - 1]) if at > 0 else np.zeros(0, int)
    if band.size == 0:
        return digit
    lo, hi = int(band[0]), int(band[-1])
    out = digit.copy()
    for c in range(at, mark.shape[1]):
        rows = np.flatnonzero(mark[:, c])
        runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1) if rows.size else []
        level = [r for r in runs if r[0] <= hi and r[-1] >= lo]
        if len(runs) < 2 or len(level) != 1 or len(level[0]) > hi - lo + 3:
            break
        out[level[0], c] = False
    return out


def _level_run(bar: np.ndarray, centre: np.ndarray, level: float) -> int:
    """How many columns from the first hold a bar at the first one's height: a stroke on
    its way up or down (a 1's up-stroke, a 4's slant) leaves it."""
    on = bar & (np.abs(centre - centre[0]) <= level)
    return int(np.argmin(on)) if not on.all() else len(on)


__all__ = ["apart", "bar_ahead", "bar_end_off"]
