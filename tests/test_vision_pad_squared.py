"""Score sheets ruled on squared paper: the paper's faint print is not the table's lines."""

from __future__ import annotations

import numpy as np

from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)
from vision.kniffel_pad.digits import DigitReader
from vision.pad import read_pad, synth
from vision.pad.find import find_tables, gray_of, paper_ink
from vision.pad.lattice import flatten
from vision.pad.score import Score
from vision.pad.squared import print_lines
from vision.photo import shrink


def _ink(print_every: int | None, rows: int = 40, cols: int = 130) -> np.ndarray:
    """A flat table's ink map: dark ruled lines (3 px) every ``rows`` and ``cols`` px, on a
    faint 1 px print every ``print_every`` px both ways (or none)."""
    ink = np.zeros((640, 820), np.float32)
    if print_every:
        ink[5::print_every, :] = 0.2
        ink[:, 5::print_every] = 0.2
    for y in range(20, 620, rows):
        ink[y:y + 3, 20:800] = 0.9
    for x in range(20, 800, cols):
        ink[20:620, x:x + 3] = 0.9
    return ink


def test_the_faint_print_is_found_and_the_ruled_lines_are_not_in_it() -> None:
    ink = _ink(20)
    paper = print_lines(ink)
    assert paper is not None
    printed = (ink > 0.1) & (ink < 0.5)
    assert paper[printed].mean() > 0.9  # the print, wherever it lies
    assert not paper[ink > 0.5].any()  # never a ruled line


def test_a_table_on_plain_paper_has_no_print() -> None:
    assert print_lines(_ink(None)) is None


def test_a_table_of_square_cells_on_plain_paper_has_no_print() -> None:
    """Its lines are dark (no faint comb of lines besides them), and half-way between two
    of its lines is paper: a comb at half its spacing finds every other tooth empty."""
    assert print_lines(_ink(None, rows=40, cols=40)) is None


def test_a_sheet_ruled_along_its_squares_still_shows_its_print() -> None:
    """Ruled along the print, every other row and every third column of print lies under
    a dark line: those teeth of the comb are hidden, not missing."""
    ink = np.zeros((640, 820), np.float32)
    ink[20::20, :] = 0.2
    ink[:, 20::20] = 0.2
    for y in range(19, 620, 40):
        ink[y:y + 3, 19:801] = 0.9
    for x in range(19, 800, 60):
        ink[19:621, x:x + 3] = 0.9
    assert print_lines(ink) is not None


def test_a_camera_photo_of_two_tables_on_squared_paper_is_read_as_two(
        reader: DigitReader) -> None:
    """At the Pi camera's size the print is a pixel wide and broken at every line and digit
    (pieces a cell long), and the flattening leaves its squares 5-7 % apart from one
    quarter of the table to the next: the print was not found, and it joined the sheet's
    two tables into one of 22 rows (a tune render, seed 12)."""
    rng = np.random.default_rng(12)
    for style in synth.styles("tune")[:2]:  # the second sheet this seed renders
        r = synth.render(style, held_out_digits(), rng, tilt=0.04, curl=0.008,
                         size=(1640, 1232), squared=True)
    got = read_pad(r.photo, reader)
    assert [(t.rows, t.cols) for t in got.tables] == [(t.rows, t.cols) for t in r.tables]


def _flat_inks(squared: bool, sizes: tuple[tuple[int, int], ...]) -> list[np.ndarray]:
    """The flat ink map of every table found in renders of every tune style (seed 300,
    not tuned on), as the reader sees them (a phone photo shrunk first)."""
    out = []
    for size in sizes:
        rng = np.random.default_rng(300)
        for style in synth.styles("tune"):
            r = synth.render(style, held_out_digits(), rng, size=size, squared=squared)
            gray = gray_of(shrink(r.photo)[0])
            out += [paper_ink(flatten(gray, f.quad)[0]) for f in find_tables(gray)]
    return out


def test_no_print_is_found_on_plain_renders_and_most_is_on_squared_phone_photos() -> None:
    """Tables of every tune style, at camera and phone size, on seeds not tuned on. While
    tuning, none of 345 tables of plain renders (seeds 20-49) was taken for squared paper,
    and the print was found in 33 of 38 tables of squared ones (seeds 12-15)."""
    plain = _flat_inks(False, ((1640, 1232), (3000, 4000)))
    assert not any(print_lines(ink) is not None for ink in plain)
    found = [print_lines(ink) is not None for ink in _flat_inks(True, ((3000, 4000),))]
    assert sum(found) >= len(found) // 2


def test_sheets_ruled_on_squared_paper_are_read(reader: DigitReader) -> None:
    """Phone photos of hand-ruled sheets and of cards in two halves, on squared paper (seeds
    not tuned on): the tables are found with their own rows and columns, the two halves
    apart (the print joins them at the finder's scale), and their numbers read. Measured 5
    of 8 sheets traced right and 224 of 331 numbers (4 and 206 before the print was looked
    for in pieces a cell long; 1 and 34 before squared paper was told apart). Narrow
    tables (two columns) stay joined to the page: too few squares across to tell the
    print's comb."""
    right = numbers = read = 0
    for style in ("hand-ruled", "halves"):
        for seed in (300, 301, 302, 303):
            r = synth.render(next(s for s in synth.STYLES if s.name == style), held_out_digits(),
                             np.random.default_rng(seed), size=(3000, 4000), squared=True)
            got = read_pad(r.photo, reader)
            right += [(t.rows, t.cols) for t in got.tables] == [(t.rows, t.cols)
                                                                for t in r.tables]
            score = Score()
            score.add(r.tables, got)
            numbers, read = numbers + score.numbers, read + score.numbers_right
    assert right >= 3
    assert read >= 0.5 * numbers
