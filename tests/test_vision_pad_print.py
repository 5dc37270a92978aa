"""Printed cells told from handwritten ones (``vision.pad.cells``): labels and headers are
read as print, handwriting never is.

Boxes are drawn as the reader cuts them: an ink map 48 px high inside its lines and a
quarter more above and below.
"""

from __future__ import annotations

import numpy as np
import pytest

from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)

from vision.kniffel_pad.digits import DigitReader
from vision.pad import read_pad, synth
from vision.pad.cells import Group, looks_printed, printed_cells
from vision.pad.score import Score


def _box(*marks: tuple[int, int, float]) -> np.ndarray:
    """A box holding marks (w, h, share of their box inked) side by side on one line."""
    box = np.zeros((72, 240), np.float32)
    x = 10
    for w, h, fill in marks:
        y = 50 - h
        box[y, x:x + w] = 0.8  # the top row joins the mark's columns into one mark
        per_row = round((fill * w * h - w) / (h - 1))
        box[y + 1:y + h, x:x + per_row] = 0.8
        x += w + 6
    return box


def test_a_blurred_label_word_looks_printed() -> None:
    """Letters a camera's blur ran together ("Zweier" on a hand-ruled card) fill more of
    their box than sharp ones: 0.61 here."""
    assert looks_printed(_box((65, 19, 0.62))) is True
    assert looks_printed(_box((40, 19, 0.62), (16, 19, 0.5))) is True


def test_a_header_word_with_a_descender_beside_its_number_looks_printed() -> None:
    """ "Spiel 1": the capital S and the p's descender make the word as tall as half the
    cell, taller than most letters, but it is twice as wide as tall."""
    assert looks_printed(_box((46, 24, 0.5), (9, 17, 0.6))) is True
    assert looks_printed(_box((53, 26, 0.48), (12, 19, 0.6))) is True


@pytest.mark.parametrize("marks", [
    [(40, 30, 0.4)],  # two digits run together
    [(44, 26, 0.4)],  # the same, written small
    [(18, 30, 0.4), (20, 31, 0.4)],  # two digits apart
    [(60, 5, 0.9)],  # a minus or a stroke along the box
])
def test_handwriting_does_not_look_printed(marks: list[tuple[int, int, float]]) -> None:
    assert looks_printed(_box(*marks)) is False


def test_a_number_with_a_digit_written_in_two_strokes_does_not_look_printed() -> None:
    """A 5 written in two strokes is two low marks, its bar over its body: beside its 2
    they made three marks, most far lower than a digit, and the row of a "25" so written
    was taken for a header. Bar and body are one digit, as the digit reader joins them."""
    two = (18, 48, 40, 60)
    bar, body = (18, 24, 70, 88), (29, 48, 70, 88)  # a slip of paper between them
    assert looks_printed(_drawn(two, bar, body)) is False
    # three low marks side by side instead: letters of a word
    assert looks_printed(_drawn((33, 48, 40, 58), (18, 32, 70, 88), (35, 48, 100, 118))) is True


def test_a_minus_and_a_speck_beside_small_digits_do_not_make_print() -> None:
    """ "-13" written small, a speck drawn out beside it: two of its four marks are low, but
    they are flat, neither letters nor digits; the two digits alone are no label."""
    minus, speck = (44, 48, 24, 41), (55, 58, 110, 122)
    assert looks_printed(_drawn(minus, (33, 58, 49, 56), (32, 57, 77, 97), speck)) is False
    # three low upright marks beside them: print, the flat ones aside
    low = ((33, 47, 49, 58), (33, 47, 77, 87), (33, 47, 130, 140))
    assert looks_printed(_drawn(minus, *low, speck)) is True


def _drawn(*marks: tuple[int, int, int, int]) -> np.ndarray:
    """A box holding filled marks, each (top, bottom, left, right)."""
    box = np.zeros((72, 240), np.float32)
    for y0, y1, x0, x1 in marks:
        box[y0:y1, x0:x1] = 0.8
    return box


def test_a_line_of_small_words_looks_printed_though_each_word_is_long() -> None:
    """ "nur Einser zählen" in a photo taken from further off: each word blurred into one
    mark, two of them over three times as wide as tall. Such marks are no minus or dash
    (those are thin), so they still count among the marks judged small; left out, the label
    column was taken for handwriting and its words read as numbers."""
    assert looks_printed(_drawn((28, 42, 20, 52), (23, 42, 62, 120), (23, 42, 130, 191))) is True
    # a minus and a speck are thin: beside small digits they still do not make print
    assert looks_printed(_drawn((30, 34, 20, 40), (20, 44, 50, 62), (20, 44, 70, 84))) is False


def test_a_box_struck_with_a_wobbly_stroke_does_not_look_printed() -> None:
    """A felt pen's stroke through the box, rising a little: as low as a word and about as
    full of its box, but as thick in every column. A column with half its boxes struck
    (early in a game) was taken for a label column, and its numbers were lost."""
    box = np.zeros((72, 240), np.float32)
    thick = np.random.default_rng(2).integers(5, 8, 110)
    for k in range(110):
        top = 40 - round(5 * k / 110)
        box[top:top + int(thick[k]), 20 + k] = 0.8
    assert looks_printed(box) is False


def _votes(cells: dict[tuple[int, int], bool | None]) -> dict[Group, bool | None]:
    return {Group(r, c, r, c): v for (r, c), v in cells.items()}


def test_a_one_player_tables_header_is_print_and_its_numbers_are_not() -> None:
    """One player column under its header, beside a label column: a stray speck makes a
    number look printed, and the row is no header for it (its label is the label column's)."""
    cells = {(r, 0): True for r in range(6)}
    cells |= {(0, 1): True, (1, 1): False, (2, 1): None, (3, 1): True, (4, 1): False,
              (5, 1): False}
    printed = printed_cells(_votes(cells))
    assert printed == {Group(r, 0, r, 0) for r in range(6)} | {Group(0, 1, 0, 1)}


def test_a_row_is_a_header_when_most_of_its_cells_beyond_the_labels_look_printed() -> None:
    cells = {(r, 0): True for r in range(5)}
    for c in (1, 2, 3):
        cells |= {(r, c): False for r in range(5)}
    cells |= {(2, 1): True, (2, 2): True, (2, 3): True}  # the lower half's header
    cells |= {(4, 1): True, (4, 3): True}  # specks in two of three numbers: no header
    printed = printed_cells(_votes(cells))
    assert {g for g in printed if g.c0 > 0} == {Group(2, c, 2, c) for c in (1, 2, 3)}


def test_a_player_column_with_half_its_boxes_looking_printed_is_handwriting() -> None:
    """Early in a game a column holds few boxes; two of four looking printed (a struck box,
    a number beside specks) do not make it a label column. A label column looks printed
    nearly all along."""
    cells = {(r, 0): r != 4 for r in range(10)}  # one label read as handwriting
    cells |= {(r, 1): None for r in range(10)} | {(0, 1): True}  # the header
    cells |= {(2, 1): False, (3, 1): True, (5, 1): True, (6, 1): False}
    printed = printed_cells(_votes(cells))
    assert printed == {Group(r, 0, r, 0) for r in range(10)} | {Group(0, 1, 0, 1)}


@pytest.mark.parametrize("style,seed", [(0, 209), (2, 209)])
def test_every_label_and_header_is_read_as_print(reader: DigitReader, style: int,
                                                 seed: int) -> None:
    """Cards whose header row ("Spiel 1" ...) and, on the hand-ruled one, blurred labels
    were read as handwriting (20 of 30 and 19 of 29 labels were print)."""
    r = synth.render(synth.STYLES[style], held_out_digits(), np.random.default_rng(seed))
    got = read_pad(r.photo, reader)
    score = Score()
    score.add(r.tables, got)
    assert score.labels > 20 and score.labels_right == score.labels
    assert score.hand_as_print == 0


def test_a_sheet_of_many_printed_cells_is_read_in_strips_tesseract_can_take() -> None:
    # 500 printed cells stacked are 48000 px tall, past Tesseract's 32767: read in strips,
    # each word still given to its own cell (the strips' seams included)
    import cv2

    from vision import on_one_core
    from vision.pad.cells import STRIP_MAX, read_text

    on_one_core()
    words = ["Summe", "Bonus", "Chance"]
    boxes = []
    for k in range(500):
        ink = np.zeros((72, 240), np.uint8)
        cv2.putText(ink, words[k % 3], (10, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 255, 2)
        boxes.append(ink.astype(np.float32) / 255.0)
    assert sum(b.shape[0] + 24 for b in boxes) > STRIP_MAX
    read = read_text(boxes)
    assert len(read) == 500
    assert sum(r == words[k % 3] for k, r in enumerate(read)) >= 490


def test_a_printed_cell_over_two_rows_is_read_line_by_line() -> None:
    # "Summe" above "Bonus" with the line between them not traced: the cell is cut a row
    # high for each row, so both words keep a row's size and neither is taken for a
    # neighbour's mark, and Tesseract's two lines come back as two lines
    from types import SimpleNamespace

    import cv2

    from vision import on_one_core
    from vision.pad.cells import Group, cut, read_text

    on_one_core()
    page = np.zeros((260, 300), np.uint8)
    for x in (48, 248):
        page[40:220, x:x + 4] = 230  # the side lines
    for y in (48, 208):
        page[y:y + 4, 40:260] = 230  # top and bottom; none between the rows
    cv2.putText(page, "Summe", (60, 110), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 230, 2)
    cv2.putText(page, "Bonus", (60, 190), cv2.FONT_HERSHEY_SIMPLEX, 1.2, 230, 2)
    ink = page.astype(np.float32) / 255.0
    corners = np.array([[[50, 50], [250, 50]], [[50, 130], [250, 130]],
                        [[50, 210], [250, 210]]], np.float32)
    lat = SimpleNamespace(ink=ink, corners=corners)
    cleaned = np.where(ink > 0.85, 0.0, ink).astype(np.float32)
    cleaned[50:208, 52:248] = ink[50:208, 52:248]
    box = cut(cleaned, lat, Group(0, 0, 1, 0), tall=True)  # type: ignore[arg-type]
    assert read_text([box]) == ["Summe\nBonus"]
