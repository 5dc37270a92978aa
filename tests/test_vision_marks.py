"""Connected marks (``vision.marks.components``): the same answer as OpenCV's default."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.marks import components


def _masks() -> list[np.ndarray]:
    """Masks like the readers label: specks, strokes, digits touching, odd sizes, one row,
    blocks meeting only at a corner (8-connected, so one mark)."""
    rng = np.random.default_rng(3)
    out = [(rng.random((h, w)) > p).astype(np.uint8)
           for h, w, p in ((72, 110, 0.9), (73, 111, 0.6), (1, 40, 0.5), (40, 1, 0.5),
                           (5, 5, 0.3), (300, 401, 0.97))]
    strokes = np.zeros((72, 150), np.uint8)
    cv2.putText(strokes, "1075", (5, 55), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.6, 1, 3)
    corner = np.zeros((6, 6), np.uint8)
    corner[1:3, 1:3] = corner[3:5, 3:5] = 1
    return [*out, strokes, corner, np.zeros((9, 9), np.uint8)]


@pytest.mark.parametrize("k", range(9))
def test_marks_are_labelled_as_opencvs_default_labels_them(k: int) -> None:
    mask = _masks()[k]
    n, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    got = components(mask)
    assert got[0] == n
    assert np.array_equal(got[1], labels)
    assert np.array_equal(got[2], stats)
    assert np.allclose(got[3], centres, equal_nan=True)


def test_marks_touching_only_at_a_corner_are_one() -> None:
    n, labels, stats, _ = components(_masks()[7])
    assert n == 2 and int(stats[1, cv2.CC_STAT_AREA]) == 8
