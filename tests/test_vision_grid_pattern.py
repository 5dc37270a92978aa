"""A table's own pattern runs on past any window of it; a grid of 36 tiles ends. A window
fitted on squares in the table's colours is refused when the places round it hold squares
too (on a checked cloth, the cloth's lattice had been read as the grid). The table's
squares cut by the image's edge are the table's too. A lattice of oblong cells is no grid
of square tiles."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import SIZE
from vision import synth
from vision.grid import locate, runs_on
from vision.grid.lattice import fit_lattice
from vision.grid.model import Candidate, GridNotFound

PITCH = 40.0
H = np.array([[PITCH, 0.0, 200.0], [0.0, PITCH, 150.0], [0.0, 0.0, 1.0]])  # window at (200, 150)


def _squares(places: list[tuple[float, float]], guess: bool = False,
             h: np.ndarray = H) -> list[Candidate]:
    out = []
    for r, c in places:
        centre = h[:2, 2] + PITCH * np.array([c + 0.5, r + 0.5])
        quad = centre + 0.4 * PITCH * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
        out.append(Candidate(quad, centre, 0.8 * PITCH, guess=guess, table=True))
    return out


WINDOW = [(r, c) for r in range(6) for c in range(6)]


def test_squares_running_on_past_the_window_are_a_pattern() -> None:
    cloth = [(r, c) for r in range(-3, 9) for c in range(-3, 9)]
    assert runs_on(_squares(cloth), H, (800, 1000))
    rng = np.random.default_rng(3)  # a third of the cloth's squares missed
    some = [p for p in cloth if rng.random() > 0.33]
    assert runs_on(_squares(WINDOW + some), H, (800, 1000))


def test_squares_of_the_windows_size_past_its_ring_are_a_pattern() -> None:
    # a cloth in folds: its checks drift half a pitch off the window's lattice past the
    # window, so no place of the ring holds one; there are more of them than in the window
    drifted = [(r + 0.5, c + 0.5) for r in range(-6, 12) for c in range(-6, 12)
               if not (-2 <= r <= 7 and -2 <= c <= 7)]
    assert runs_on(_squares(WINDOW + drifted), H, (1200, 1400))
    assert not runs_on(_squares(WINDOW + drifted[:30]), H, (1200, 1400))
    small = [Candidate(q.quad, q.centre, 0.3 * PITCH, table=True) for q in _squares(drifted)]
    assert not runs_on(_squares(WINDOW) + small, H, (1200, 1400))  # another size: not it


def test_a_grid_that_ends_is_no_pattern() -> None:
    assert not runs_on(_squares(WINDOW), H, (800, 1000))
    strays = [(-1, 0), (6, 3), (2, -1), (4, 6), (-1, 6)]  # a few squares beside it
    assert not runs_on(_squares(WINDOW + strays), H, (800, 1000))
    ring = [(r, c) for r in range(-1, 7) for c in range(-1, 7) if r in (-1, 6) or c in (-1, 6)]
    # guessed centres (blob peaks) are not squares seen
    assert not runs_on(_squares(WINDOW) + _squares(ring, guess=True), H, (800, 1000))


def test_a_window_filling_the_view_says_nothing() -> None:
    cloth = [(r, c) for r in range(-3, 9) for c in range(-3, 9)]
    near = H.copy()
    near[:2, 2] = 10.0  # the window from (10, 10) to (250, 250), the ring out of a 255 px view
    assert not runs_on(_squares(cloth, h=near), near, (255, 255))
    assert runs_on(_squares(cloth, h=near), near, (400, 400))


def test_a_glazed_tables_squares_cut_by_the_edge_do_not_move_the_window() -> None:
    """The grid bench's 71st train board read without a reference (a run of that mode
    alone): 34 tiles face up on glazed tiles whose top row the frame cuts. Those cut squares
    were not taken for the table's (their ring is mostly grout), outnumbered the bottom row,
    where only three touching tiles stand out as squares, and the window sat a row too high:
    every cell read as its upper neighbour, surely."""
    rng = np.random.default_rng(20261123)
    board = [synth.random_board(rng) for _ in range(71)][70]
    style = synth.styles("train")[70]
    assert style.table is synth.Table.CERAMIC
    layout = synth.make_layout(style, 20261193)
    img, truth = synth.render_table(board, style, 20261193, layout=layout)
    pitch = float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 6
    assert float(np.abs(locate(img).corners - truth.corners).max()) < 0.3 * pitch


def _marks(across: float, down: float, side: float) -> list[Candidate]:
    """Squares of ``side`` px on a 6x6 lattice ``across`` px wide and ``down`` px tall a cell."""
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            centre = np.array([100 + across * c, 100 + down * r], float)
            quad = centre + side / 2 * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
            out.append(Candidate(quad, centre, side))
    return out


def test_a_lattice_of_oblong_cells_is_no_grid_of_tiles() -> None:
    # the words printed on dark backs, two rows of them a tile, were fitted as a lattice
    # half a tile tall a cell: a grid of square tiles, even seen at a slant, has no such
    # cells; one seen at a slant (cells 4:3) still is a grid
    view = np.full((480, 640, 3), 60, np.uint8)
    evidence = np.ones((480, 640), np.uint8)
    with pytest.raises(GridNotFound, match="oblong"):
        fit_lattice(_marks(48, 24, 16), evidence, view)
    assert len(fit_lattice(_marks(48, 36, 30), evidence, view)[1]) == SIZE * SIZE


def test_a_cloths_checks_at_half_the_window_pitch_are_no_grid() -> None:
    """A face-down frame of wave-printed backs on a gingham cloth (the first held-out
    family's eighth style, looked into): no back stands out as a square, and under the
    evenly lit look a lattice at twice the checks' pitch fitted in the frame's corner, every
    check too small for a tile and so set aside as a square printed on one. The window was
    judged by its tile-sized squares only, of which it had none, and was taken: a grid 6.7
    pitches off the tiles. Judged by the checks it sits on, it is the cloth's own pattern."""
    from companion.games.moerder.board import Board

    style = synth.styles("family")[7]
    layout = synth.make_layout(style, 777703)
    frame, truth = synth.render_table(Board(), style, 777703, layout=layout, frame=1)
    try:
        grid = locate(frame)
    except GridNotFound:
        return  # the table asks where the grid is: better than a grid on the cloth
    assert truth.off(grid)[0] < 0.3
