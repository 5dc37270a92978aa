"""A minus before a handwritten number on a score sheet: apart from its digit, or written into
it, and the digits alone that must not be taken for one (vision/kniffel_pad/sign.py)."""

from __future__ import annotations

import cv2
import numpy as np

from pad_support import digits_alone, held_out_digits, reader  # noqa: F401 (a fixture)
from vision.kniffel_pad.digits import DigitReader


def _written(digits: list[int], dash: bool, gap: int = 4) -> np.ndarray:
    """A cell's ink as the reader cuts it (48 px high and a quarter more above and below),
    holding held-out digits, after a short dash when ``dash``, ``gap`` px before them
    (touching them when negative)."""
    images, labels = held_out_digits()
    box = np.zeros((72, 150), np.float32)
    x = 12
    if dash:
        box[35:39, x:x + 14] = 0.8
        x += 14 + gap
    for d in digits:
        glyph = images[int(np.flatnonzero(labels == d)[3])].astype(np.float32) / 255.0
        ys, xs = np.nonzero(glyph > 0.2)
        g = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        g = cv2.resize(g, (round(g.shape[1] * 32 / g.shape[0]), 32))
        box[20:52, x:x + g.shape[1]] = np.maximum(box[20:52, x:x + g.shape[1]], 0.8 * g)
        x += g.shape[1] + 4
    return box


def test_a_minus_before_the_digits_makes_the_number_negative(reader: DigitReader) -> None:
    for digits in ([3, 7], [1, 5], [4]):
        minus, plain = reader.read_boxes([_written(digits, dash=True),
                                          _written(digits, dash=False)], signed=True)
        assert plain.value is not None and plain.value > 0 and not plain.struck
        assert (minus.value, minus.struck) == (-plain.value, False)
        unsigned = reader.read_boxes([_written(digits, dash=True)])[0]
        assert unsigned.value == plain.value  # the printed Wort-Kniffel pad has no minus


def test_a_minus_touching_its_digit_is_read(reader: DigitReader) -> None:
    """Written into the digit after it, a minus is one mark with that digit, and the network
    reads "-4" as a sure 4; a level bar at the digit's middle, before it, is a minus."""
    for digits in ([3, 7], [4], [5], [9], [6, 3], [8]):
        plain = reader.read_boxes([_written(digits, dash=False)], signed=True)[0]
        for gap in (0, -1, -3):
            minus = reader.read_boxes([_written(digits, dash=True, gap=gap)], signed=True)[0]
            assert (minus.value, minus.struck) == (-plain.value, False), (digits, gap)


def test_a_minus_under_a_slanted_ones_foot_leaves_the_one_a_one(reader: DigitReader) -> None:
    """A minus written into a slanted 1 runs on under the 1's foot; cut off where the 1
    begins, its end stayed with the 1, which then read as a 4 ("-45" for -15)."""
    for width in (3, 4):
        box = np.zeros((72, 150), np.float32)
        box[34:38, 12:32] = 0.8  # the minus
        cv2.line(box, (28, 52), (40, 20), 0.8, width, cv2.LINE_AA)  # the 1, its foot under it
        box[:, 50:98] = np.maximum(box[:, 50:98], _written([5], dash=False)[:, 12:60])
        assert reader.read_boxes([box], signed=True)[0].value == -15


def test_digits_alone_are_not_taken_for_a_minus_and_a_digit(reader: DigitReader) -> None:
    """A 4's arm, a 1's up-stroke or a 7's bar reach out left at the middle as a minus
    does: of the held-out digits written alone, and their 1s and 7s written the German way,
    at most one in a thousand is read negative (one 4 in a hundred reaches as far)."""
    boxes = digits_alone()
    negative = [r for r in reader.read_boxes(boxes, signed=True) if (r.value or 0) < 0]
    assert len(boxes) == 1200 and len(negative) <= 1
