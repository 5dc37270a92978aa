"""A pen's ink on a printed line is the writing's: told by its colour, it stays with the digit.

A 2 written low has its base along the cell's bottom line. Taken out with the line, what is
left of it is a 7; a referee sees the blue base on the black line and reads 2. The photo is
drawn here: black lines, a held-out MNIST 2 in a ballpoint's blue whose lowest stroke lies on
the line, and printed neighbours.
"""

from __future__ import annotations

import cv2
import numpy as np

from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)

from vision.kniffel_pad.digits import DigitReader
from vision.pad import read_pad
from vision.pad.find import gray_of

BLUE, BLACK = (170, 60, 20), (30, 30, 30)
X0, Y0, CELL_W, CELL_H, ROWS, COLS = 100, 100, 240, 110, 4, 3
TWO = 237  # a held-out 2, flat and low: without its base it reads as another number


def _page(lines: tuple[int, int, int]) -> np.ndarray:
    images, labels = held_out_digits()
    assert labels[TWO] == 2
    glyph = cv2.resize(images[TWO].astype(np.float32) / 255, (84, 84))
    bottom = int(np.flatnonzero(glyph.max(axis=1) > 0.5)[-1])
    ink = np.zeros((700, 900), np.float32)
    top, left = Y0 + 2 * CELL_H - bottom, X0 + CELL_W + 70  # row 1, column 1, on its line
    ink[top:top + 84, left:left + 84] = glyph
    page = np.full((700, 900, 3), 245, np.uint8)
    for r in range(ROWS + 1):
        cv2.line(page, (X0, Y0 + r * CELL_H), (X0 + COLS * CELL_W, Y0 + r * CELL_H), lines, 3)
    for c in range(COLS + 1):
        cv2.line(page, (X0 + c * CELL_W, Y0), (X0 + c * CELL_W, Y0 + ROWS * CELL_H), lines, 3)
    a = ink[..., None]  # the pen writes over the print
    page = (page * (1 - a) + np.array(BLUE, np.float32) * a).astype(np.uint8)
    rng = np.random.default_rng(1)
    for r in range(ROWS):
        for c in range(COLS):
            if (r, c) != (1, 1):
                cv2.putText(page, str(int(rng.integers(1, 9))),
                            (X0 + c * CELL_W + 90, Y0 + (r + 1) * CELL_H - 25),
                            cv2.FONT_HERSHEY_SIMPLEX, 2.2, BLUE, 6, cv2.LINE_AA)
    return page


def test_a_blue_2_written_on_a_black_line_keeps_its_base(reader: DigitReader) -> None:
    page = _page(BLACK)
    cell = read_pad(page, reader).tables[0].cells[1][1]
    assert (cell.value, cell.struck) == (2, False) and cell.confidence >= 0.9
    with_alpha = cv2.cvtColor(page, cv2.COLOR_BGR2BGRA)  # a PNG's alpha is no colour
    assert read_pad(with_alpha, reader).tables[0].cells[1][1] == cell
    # the same photo as the reader sees it without colours: the base goes with the line
    grey = read_pad(gray_of(page), reader).tables[0].cells[1][1]
    assert grey.value != 2 or grey.confidence < 0.5


def test_a_pen_of_the_line_s_own_colour_is_not_told_from_it(reader: DigitReader) -> None:
    """Blue lines, a blue pen: nothing tells the base from the line, and the table is read
    as without colour (the lines are not kept as ink)."""
    page = _page(BLUE)
    got = read_pad(page, reader).tables[0]
    grey = read_pad(gray_of(page), reader).tables[0]
    assert [[(c.value, c.struck) for c in row] for row in got.cells] == [
        [(c.value, c.struck) for c in row] for row in grey.cells]
