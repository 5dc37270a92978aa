"""Where a box's marks are cut into digits: at their thinnest columns.

Pure functions of a mark's mask (box pixels, bool); the digit reader offers each cut to the
network and keeps the likeliest (:mod:`vision.kniffel_pad.digits`).
"""

from __future__ import annotations

import cv2
import numpy as np

MIN_AREA = 14  # px at the pad's PX_PER_MM: smaller marks are dust


def bbox(mask: np.ndarray) -> tuple[int, int, int, int]:
    """x, y, w, h as Python ints (OpenCV's are numpy's, which JSON and dataclasses keep)."""
    x, y, w, h = cv2.boundingRect(mask.view(np.uint8))
    return int(x), int(y), int(w), int(h)


def cuts(mask: np.ndarray, parts: int) -> list[list[int]]:
    """Where to cut a mark into ``parts`` side by side: at its thinnest columns near the
    even places; in two, also nearer either end (a narrow 1 or 4 beside a wide 8)."""
    x, _, w, _ = bbox(mask)
    profile = mask[:, x:x + w].sum(axis=0).astype(np.float32)

    def thinnest(lo: float, hi: float) -> int:
        a, b = max(1, round(lo * w)), min(w - 1, round(hi * w) + 1)
        return x + (a + int(np.argmin(profile[a:b])) if b > a else (a + b) // 2)

    if parts == 2:
        found = {thinnest(0.22, 0.42), thinnest(0.38, 0.62), thinnest(0.58, 0.78)}
        return [[c] for c in sorted(found)]
    return [[thinnest(k / parts - 1 / (3 * parts), k / parts + 1 / (3 * parts))
             for k in range(1, parts)]]


def cut_at(mask: np.ndarray, cuts: list[int]) -> list[np.ndarray] | None:
    """The mask cut at these columns (None if a part would be too thin or empty)."""
    x, _, w, _ = bbox(mask)
    out = []
    for a, b in zip([x, *cuts], [*cuts, x + w]):
        part = np.zeros_like(mask)
        part[:, a:b] = mask[:, a:b]
        if b - a < 2 or int(part.sum()) < MIN_AREA:
            return None
        out.append(part)
    return out


__all__ = ["bbox", "cut_at", "cuts"]
