"""A score sheet photographed upside down or from beside it: read as upright."""

from __future__ import annotations

import numpy as np
import pytest
from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)

import vision.pad.reader as pad_reader
from vision.kniffel_pad.digits import DigitReader
from vision.pad import read_pad, synth
from vision.pad.lattice import lattices
from vision.pad.score import Score


def _render(style: int, seed: int) -> synth.Rendered:
    return synth.render(synth.STYLES[style], held_out_digits(), np.random.default_rng(seed))


def _turn_points(points: np.ndarray, turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points of a photo in that photo turned ``turns`` times by ``np.rot90``."""
    h, w = shape[:2]
    for _ in range(turns):
        points = np.stack([points[:, 1], w - 1 - points[:, 0]], axis=1)
        h, w = w, h
    return points


@pytest.mark.parametrize("style, seed, turns", [(0, 100, 2), (2, 7, 2), (0, 100, 1),
                                               (1, 3, 3)])
def test_a_card_photographed_upside_down_or_sideways_reads_as_upright(
        reader: DigitReader, style: int, seed: int, turns: int) -> None:
    r = _render(style, seed)
    upright = read_pad(r.photo, reader)
    assert upright.turns == 0
    got = read_pad(np.ascontiguousarray(np.rot90(r.photo, turns)), reader)
    assert got.turns == (4 - turns) % 4
    # the lines are those traced in the photo as given (turned with it, not traced again):
    # a cell's cut moves by a fraction of a pixel, which may tip a doubtful mark
    cells = [[(c.value, c.struck) for c in row] for row in got.tables[0].cells]
    was = [[(c.value, c.struck) for c in row] for row in upright.tables[0].cells]
    assert [len(row) for row in cells] == [len(row) for row in was]
    same = sum(a == b for row, row_was in zip(cells, was) for a, b in zip(row, row_was))
    assert same >= 0.95 * sum(len(row) for row in was)
    right, right_was = Score(), Score()
    right.add(r.tables, got)
    right_was.add(r.tables, upright)
    assert right.numbers_right >= right_was.numbers_right - 0.05 * right_was.numbers
    want = _turn_points(upright.tables[0].corners, turns, r.photo.shape)
    assert np.abs(np.sort(got.tables[0].corners, axis=0) - np.sort(want, axis=0)).max() < 3


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_card_upside_down_or_sideways_is_traced_once(
        reader: DigitReader, monkeypatch: pytest.MonkeyPatch, turns: int) -> None:
    """Its lattice is turned with the photo, to tell which way is up and to read it, not
    traced again (a fifth of a read, each time)."""
    traced: list[object] = []
    monkeypatch.setattr(pad_reader, "lattices", lambda *a: traced.append(a) or lattices(*a))
    got = read_pad(np.ascontiguousarray(np.rot90(_render(2, 7).photo, turns)), reader)
    assert got.turns == (4 - turns) % 4 and len(traced) == len(got.tables)
