"""The camera view's overlay: the whole 6x6 grid, not just its outline, and the dice boxes,
drawn at the size the phones get."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.readings import DiceReading, DieSeen, GridReading
from companion.table.overlay import WIDTH, draw, grid_lines

cv2 = pytest.importorskip("cv2")


def test_a_square_grid_has_seven_rows_and_seven_columns_of_lines() -> None:
    lines = grid_lines([(0, 0), (60, 0), (60, 60), (0, 60)])
    assert len(lines) == 14
    assert ((0.0, 10.0), (60.0, 10.0)) in lines  # the first inner row boundary
    assert ((30.0, 0.0), (30.0, 60.0)) in lines  # the middle column boundary


def green(image: np.ndarray, x: int, y: int) -> bool:
    b, g, r = (int(v) for v in image[y, x])
    return g > 150 and b < 100 and r < 100


def test_inner_lines_are_drawn_on_the_scaled_picture() -> None:
    frame = np.zeros((1200, 1600, 3), np.uint8)
    reading = GridReading("." * 36, corners=((200.0, 200.0), (1400.0, 200.0),
                                             (1400.0, 1000.0), (200.0, 1000.0)))
    out = draw(frame, reading)
    assert out.shape[1] == WIDTH  # scaled for the phones
    # the middle column boundary at x = 800 in the frame is x = 400 in the picture
    assert green(out, 400, 250)
    assert not green(out, 450, 250)  # inside a cell
    assert not frame.any()  # the camera's own frame is left as it was


def test_each_die_gets_a_box() -> None:
    frame = np.zeros((600, 800, 3), np.uint8)
    dice = DiceReading((DieSeen("T", 2, (200.0, 300.0), 80.0),
                        DieSeen("?", None, (500.0, 300.0), 80.0)))
    out = draw(frame, dice)
    assert green(out, 160, 300)  # the left edge of the first die's box
    assert tuple(int(v) for v in out[300, 460]) != (0, 0, 0)  # the unsure one, in amber
    assert not out[300, 200].any()  # the die's face is left to be seen
