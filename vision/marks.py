"""Connected marks of a mask, labelled the quick way.

OpenCV's default labelling with statistics costs some 70 us on a box of a score pad (72x110
px) on one core, nearly all of it fixed cost, where Grana's block-based labelling with the same
statistics takes 33 us. A pad photo labels some 300 such boxes. Both label by 2x2 blocks in
the same scan order, so the labels, statistics and centres are the same to the last value.
"""

from __future__ import annotations

import cv2
import numpy as np


def components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """(count with the background, labels, stats, centres) of an 8-connected uint8 mask, as
    ``cv2.connectedComponentsWithStats(mask, connectivity=8)`` gives them."""
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return int(n), labels, stats, centres


__all__ = ["components"]
