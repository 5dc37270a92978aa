"""How a box's marks become digits: which candidates are offered, and which chain wins.

The network's answers are given by hand here, so each rule of the decision is tested apart
from what a trained model happens to say; the pads' own tests read real renders.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from pad_support import digits_alone
from vision.kniffel_pad.digits import (CLASSES, DASH, JUNK, DigitReader, Piece, Segmentation,
                                       decide, pen_mask, segment)

BLANK_INPUT = np.zeros((28, 28), np.float32)
Box = tuple[int, int, int, int]


def _probs(*rows: tuple[int, float]) -> np.ndarray:
    """One row per piece: ``(class, probability)``, the rest spread over the other classes."""
    out = np.zeros((len(rows), len(CLASSES)), np.float32)
    for i, (c, p) in enumerate(rows):
        out[i, :] = (1.0 - p) / (len(CLASSES) - 1)
        out[i, c] = p
    return out


def _two_marks(first: Box, second: Box, joined: Box) -> Segmentation:
    """Two marks of a 44 px box (x, y, w, h), each alone or joined: pieces 0, 1 and 2."""
    return Segmentation(
        pieces=tuple(Piece(BLANK_INPUT, b) for b in (first, second, joined)),
        options=((0, 1, (0,)), (1, 2, (1,)), (0, 2, (2,))),
        marks=2, height=44)


def test_two_marks_standing_apart_are_two_digits_even_when_their_join_reads_surely() -> None:
    """A narrow 1 beside a 0 with a gap: read together the network says "0" almost surely,
    but two digit-sized marks with no column in common are two digits."""
    seg = _two_marks((10, 5, 5, 30), (22, 4, 20, 32), joined=(10, 4, 32, 32))
    reading = decide(seg, _probs((1, 0.9), (0, 0.99), (0, 0.999)), box_w=80)
    assert reading.value == 10 and not reading.struck


def test_a_join_of_a_mark_and_its_small_piece_still_wins() -> None:
    """The cost is for marks standing apart that are both the size of a digit: the bar of a
    5 beside its body (small, and read as junk alone) is still joined."""
    seg = _two_marks((18, 10, 16, 26), (30, 4, 12, 5), joined=(18, 4, 24, 32))  # body, bar
    reading = decide(seg, _probs((6, 0.5), (JUNK, 0.6), (5, 0.95)), box_w=80)
    assert reading.value == 5


def test_a_thin_stroke_short_of_the_digits_is_dropped_surely() -> None:
    """A 1 with a thinner, shorter stroke beside it (a line drawn twice): the network calls
    the stroke junk, but a little likelier a 1 than not at all would have made it 11. It is
    dropped, with no doubt; a digit-tall junk mark as tall as the digits is not (below)."""
    seg = _two_marks((10, 5, 6, 30), (19, 12, 2, 18), joined=(10, 5, 11, 30))
    probs = _probs((1, 0.99), (JUNK, 0.7), (0, 0.2))
    probs[1, 1] = 0.26
    reading = decide(seg, probs, box_w=80)
    assert reading.value == 1 and reading.confidence > 0.9
    tall = _two_marks((10, 5, 6, 30), (19, 6, 4, 28), joined=(10, 5, 13, 30))
    probs = _probs((1, 0.99), (JUNK, 0.7), (0, 0.2))
    probs[2, JUNK] = 0.0
    assert decide(tall, probs, box_w=80).confidence < 0.5


def test_two_touching_ones_are_offered_apart() -> None:
    """Two 1s written touching make one mark a third as wide as it is tall; it is offered
    cut in two, so the network can read both."""
    ink = np.zeros((44, 80), np.float32)
    cv2.line(ink, (30, 6), (30, 38), 1.0, 3)
    cv2.line(ink, (40, 6), (40, 38), 1.0, 3)
    cv2.line(ink, (30, 6), (40, 6), 1.0, 3)  # joined at the top
    seg = segment(ink)
    assert seg.marks == 1
    cut_in_two = [idx for start, stop, idx in seg.options
                  if (start, stop) == (0, 1) and len(idx) == 2]
    assert cut_in_two
    widths = [[seg.pieces[i].bbox[2] for i in idx] for idx in cut_in_two]
    assert any(max(w) < 10 for w in widths)  # one of the cuts parts the two strokes


def test_a_faint_digit_beside_a_dark_one_is_a_mark_of_its_own_and_whole() -> None:
    """Pen pixels are judged against the ink near them: a thin, pale 1 beside a bold one
    (a pen that skips) is kept whole, where a share of the box's darkest ink lost it."""
    ink = np.zeros((49, 84), np.float32)
    cv2.line(ink, (28, 8), (28, 40), 0.9, 4)  # bold
    cv2.line(ink, (52, 8), (52, 40), 1.0, 1)
    ink = cv2.GaussianBlur(ink, (0, 0), 0.8)
    ink[:, 45:] *= 0.25 / float(ink[:, 45:].max())  # pale: its strongest pixel 0.25
    seg = segment(ink, whole_only=True)
    assert seg.marks == 2
    faint = max(seg.pieces, key=lambda p: p.bbox[0])
    assert faint.bbox[3] >= 30  # the whole stroke, not its darkest specks


def test_a_slanted_stroke_broken_in_two_is_one_mark() -> None:
    """A thin slanted 1 whose pen skipped halfway is two short pieces, each less than a
    digit's height and read as specks: they were dropped and 15 read surely as 5. One above
    the other, a stroke's width apart sideways, they are one mark."""
    ink = np.zeros((50, 88), np.float32)
    cv2.line(ink, (29, 14), (28, 25), 1.0, 2)  # the upper half
    cv2.line(ink, (27, 29), (26, 40), 1.0, 2)  # the lower half, a gap below it
    cv2.circle(ink, (48, 26), 10, 1.0, 2)  # a digit beside
    seg = segment(ink, whole_only=True)
    assert seg.marks == 2
    stroke = min(seg.pieces, key=lambda p: p.bbox[0])
    assert stroke.bbox[3] >= 25  # both halves, top to bottom


def test_marks_beside_each_other_are_not_stacked() -> None:
    """Two short marks side by side at one height (a 1's pieces would be one above the
    other) stay two marks."""
    ink = np.zeros((50, 88), np.float32)
    cv2.line(ink, (26, 20), (26, 30), 1.0, 2)
    cv2.line(ink, (30, 20), (30, 30), 1.0, 2)
    assert segment(ink, whole_only=True).marks == 2


class _ReadsAOne(DigitReader):
    """The digit network as it read a long slash through a cell on a tune sheet: a 1."""

    def probs(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        return _probs(*[(1, 0.96)] * len(images))


def test_a_stroke_across_a_cell_cut_wide_strikes_it() -> None:
    """The markerless reader cuts a cell with a margin beyond its lines (a number written
    over a line stays whole); a stroke's share of the cell is measured between the lines.
    Over the whole cut, a slash across 70 % of the cell read as a 1 was 1, not struck."""
    reader = _ReadsAOne.load(None, numbers=None)
    box = np.zeros((72, 94), np.float32)  # 48 px high and 70 wide inside, 12 px margins
    cv2.line(box, (24, 56), (74, 18), 0.8, 3)
    assert reader.read_boxes([box], signed=True, margin=12)[0].struck
    assert not reader.read_boxes([box], signed=True)[0].struck  # the cut's width: as before


class _ReadsFlatAsDash(DigitReader):
    """A network that reads any flat mark as a dash and anything taller as a 5."""

    def probs(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        rows = []
        for image in images:
            ys, xs = np.nonzero(np.asarray(image) > 0.2)
            flat = np.ptp(ys) + 1 < 0.45 * (np.ptp(xs) + 1)
            rows.append((DASH, 0.97) if flat else (5, 0.99))
        return _probs(*rows)


def test_a_dash_beside_another_mark_is_tried_joined_with_it() -> None:
    """A 5 written in two strokes, its bar apart from a flat body: alone each reads as a
    dash, surely, and the body spans 40 % of the box, which strikes it. A dash is never
    settled alone beside other marks (a 35 with such a 5 was read struck), while a strike
    whose pen skipped, two dashes in line, still strikes."""
    reader = _ReadsFlatAsDash.load(None, numbers=None)
    five = np.zeros((60, 100), np.float32)
    cv2.line(five, (30, 36), (70, 38), 0.8, 3)  # the body
    cv2.line(five, (42, 14), (62, 14), 0.8, 3)  # the bar
    skipped = np.zeros((60, 100), np.float32)
    cv2.line(skipped, (10, 30), (44, 31), 0.8, 3)
    cv2.line(skipped, (52, 31), (90, 32), 0.8, 3)
    five_read, skipped_read = reader.read_boxes([five, skipped])
    assert (five_read.value, five_read.struck) == (5, False)
    assert skipped_read.struck


def test_an_empty_cut_has_no_pen() -> None:
    assert pen_mask(np.zeros((0, 12), np.float32)).shape == (0, 12)


def _crossed(rng: np.random.Generator) -> np.ndarray:
    """A cut box (48 px high inside 12 px margins, 70-160 wide) crossed out with an X by
    hand: two bowed strokes, their ends off the corners, of any pen, blurred."""
    w = int(rng.integers(70, 160))
    box = np.zeros((72, w + 24), np.float32)
    hw, hh = rng.uniform(0.35, 0.95) * w / 2, rng.uniform(0.5, 0.95) * 24
    cx, cy = 12 + w / 2 + rng.uniform(-0.1, 0.1) * w, 36 + rng.uniform(-4, 4)
    width = int(rng.integers(2, 6))

    def off() -> float:
        return float(rng.uniform(-0.24, 0.24) * min(hw, hh))

    for (x0, y0), (x1, y1) in (((cx - hw, cy - hh), (cx + hw, cy + hh)),
                               ((cx - hw, cy + hh), (cx + hw, cy - hh))):
        p0, p1 = (x0 + off(), y0 + off()), (x1 + off(), y1 + off())
        bow = ((p0[0] + p1[0]) / 2 + off() / 2, (p0[1] + p1[1]) / 2 + off() / 2)
        pts = np.round(np.array([p0, bow, p1]) * 4).astype(np.int32)
        cv2.polylines(box, [pts], False, 0.8, width, cv2.LINE_AA, shift=2)
    return cv2.GaussianBlur(box, (0, 0), float(rng.uniform(0.5, 1.3)))


def test_a_box_crossed_out_with_an_x_is_struck() -> None:
    """An X is wider than a digit, so it was cut in two and read as a number ("26", "76");
    two strokes corner to corner along its own outline are an X, read as struck."""
    reader = DigitReader.load()
    rng = np.random.default_rng(5)
    boxes = [_crossed(rng) for _ in range(60)]
    struck = [r for r in reader.read_boxes(boxes, signed=True, margin=12) if r.struck]
    assert len(struck) >= 57 and all(r.value == 0 for r in struck)


def test_no_digit_alone_is_taken_for_an_x() -> None:
    """Of the held-out digits and their German 1s and 7s, none lies along both diagonals
    of its outline from end to end (an 8, a 4 or a barred 7 cross them only here and
    there)."""
    crossed = sum(segment(box).cross for box in digits_alone())
    assert crossed == 0
