"""The paper a score table is on: plain, or squared (5 mm squares printed faintly, the
"Karopapier" of German school pads), on which people at a table rule their own score
sheets. The renders' blank page (:mod:`vision.pad.synth`)."""

from __future__ import annotations

import cv2
import numpy as np

SQUARE_MM = 5.0


def blank(size: tuple[int, int], px_per_mm: float, rng: np.random.Generator,
          squared: bool = False) -> np.ndarray:
    """A blank page ``size`` (h, w) px, BGR: paper of a random white, squared or not. Plain
    paper draws from ``rng`` exactly as the renders did before squared paper existed."""
    paper = np.array([rng.uniform(235, 252), rng.uniform(238, 252), rng.uniform(240, 255)])
    page = np.empty((*size, 3), np.uint8)
    page[:] = paper.astype(np.uint8)
    if squared:
        # a blue-grey or grey print, a fifth to a third darker than the paper
        hue = np.array([1.0, 0.93, 0.85]) if rng.random() < 0.7 else np.ones(3)
        colour = tuple(float(c) for c in paper * hue * rng.uniform(0.68, 0.82))
        step = SQUARE_MM * px_per_mm
        x0, y0 = rng.uniform(0, step, 2)
        for x in np.arange(x0, size[1], step):
            cv2.line(page, (round(x), 0), (round(x), size[0] - 1), colour, 1)
        for y in np.arange(y0, size[0], step):
            cv2.line(page, (0, round(y)), (size[1] - 1, round(y)), colour, 1)
    return page


__all__ = ["SQUARE_MM", "blank"]
