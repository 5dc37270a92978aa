"""A box crossed out with an X, told by its shape.

Players strike a box they give up with a line, a slash, or an X. The digit network knows a
line and a slash, but an X is no class of its own: it is wider than a digit, so it was cut
in two and read as a number ("26", "76"). An X is two strokes corner to corner: its ink lies
along both diagonals of its own outline, and covers both from end to end; no digit does.
"""

from __future__ import annotations

import cv2
import numpy as np

NEAR = 0.15  # of the mark's smaller side: ink this near a diagonal lies on it (a hand's wobble)
ON_DIAGONALS = 0.9  # of the mark's ink, on one diagonal or the other
COVERED = 0.8  # of each diagonal's length, with ink on it (tenths)
SHAPE = (0.3, 6.0)  # width for height: an X drawn across a box, tall or as flat as a wide box
MIN_PX = 10  # smaller marks are specks


def is_cross(mask: np.ndarray) -> bool:
    """Is this mark (one connected mark, box pixels) an X?"""
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))
    if min(w, h) < MIN_PX or not SHAPE[0] <= w / h <= SHAPE[1]:
        return False
    cols = mask[y:y + h, x:x + w]
    ch, cw = max(1, h // 4), max(1, w // 4)  # an X reaches its four corners, and its middle
    if not (cols[:ch, :cw].any() and cols[:ch, -cw:].any() and cols[-ch:, :cw].any()
            and cols[-ch:, -cw:].any() and cols[ch:-ch, cw:-cw].any()):
        return False
    ys, xs = np.nonzero(cols)
    px, py = xs.astype(np.float32), ys.astype(np.float32)
    a, b = float(w - 1), float(h - 1)
    length = float(np.hypot(a, b))
    falling = np.abs(b * px - a * py) / length  # from the top left corner to the bottom right
    rising = np.abs(b * px + a * py - a * b) / length  # from the bottom left to the top right
    near = max(2.5, NEAR * min(w, h))
    on_falling, on_rising = falling <= near, rising <= near
    if float((on_falling | on_rising).mean()) < ON_DIAGONALS:
        return False
    along = px / a  # where along either diagonal, 0..1 (w > 1: MIN_PX)
    return all(len(np.unique(np.minimum((along[on] * 10).astype(int), 9))) >= 10 * COVERED
               for on in (on_falling, on_rising))


__all__ = ["is_cross"]
