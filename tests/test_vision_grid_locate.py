"""Locating the grid on renders with known truth, and the named error when there is none."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.games.moerder.board import CELLS, SIZE
from vision import VisionError, synth
from vision.grid import GridNotFound, crop_tile, locate, rectify


def _pitch(truth: synth.Truth) -> float:
    return float(np.linalg.norm(truth.corners[1] - truth.corners[0]) / SIZE)


def _cell_errors(img: np.ndarray, truth: synth.Truth) -> tuple[float, float]:
    """Worst cell-centre and corner error, in pitches."""
    g = locate(img)
    p = _pitch(truth)
    cells = max(np.linalg.norm(g.cell_quad(i // SIZE, i % SIZE).mean(axis=0)
                               - truth.tiles[i].mean(axis=0)) / p for i in range(CELLS))
    corners = float(np.abs(g.corners - truth.corners).max() / p)
    return float(cells), corners


@pytest.mark.parametrize(("split", "index", "seed", "size"), [
    ("train", 0, 21, (1640, 1232)),
    ("bench", 1, 22, (1920, 1080)),
    ("bench", 3, 23, (1280, 960)),
])
def test_every_cell_found_under_tilt_and_jitter(split: str, index: int, seed: int,
                                                size: tuple[int, int]) -> None:
    style = synth.styles(split)[index]  # type: ignore[arg-type]
    layout = synth.make_layout(style, seed, size, tilt=20.0)
    board = synth.random_board(np.random.default_rng(seed))
    img, truth = synth.render_table(board, style, seed, layout=layout)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.2
    assert corners < 0.3


def test_rows_run_down_the_image_even_when_the_camera_is_turned() -> None:
    style = synth.styles("train")[1]
    board = synth.random_board(np.random.default_rng(4), face_up=36)
    img, truth = synth.render_table(board, style, 40, size=(1280, 960))
    g = locate(img)
    assert g.corners[0][1] < g.corners[3][1]  # TL above BL
    assert g.corners[0][0] < g.corners[1][0]  # TL left of TR
    assert np.abs(g.corners - truth.corners).max() < 0.3 * _pitch(truth)


def test_a_tile_far_off_its_place_is_still_cropped_whole() -> None:
    style = synth.styles("train")[2]
    layout = synth.make_layout(style, 31, (1640, 1232), glare=False)
    centres = layout.centres.copy()
    centres[0] -= [0.3 * layout.tile, 0.25 * layout.tile]  # a third of a tile out of line
    angles = layout.angles.copy()
    angles[14] = 14.0  # and one turned well past the usual few degrees
    layout = dataclasses.replace(layout, centres=centres, angles=angles)
    board = synth.random_board(np.random.default_rng(31), face_up=20)
    img, truth = synth.render_table(board, style, 31, layout=layout)
    g = locate(img)
    p = _pitch(truth)
    for cell in (0, 14):
        found = g.cell_quad(cell // SIZE, cell % SIZE).mean(axis=0)
        assert np.linalg.norm(found - truth.tiles[cell].mean(axis=0)) / p < 0.12
    # and the lattice itself is not dragged along by the stray tile
    lattice = g.to_lattice(truth.tiles[1].mean(axis=0)[None])[0]
    assert np.allclose(lattice, [1.5, 0.5], atol=0.2)


def test_glare_does_not_lose_the_grid() -> None:
    style = synth.styles("bench")[0]
    layout = synth.make_layout(style, 52, (1640, 1232), glare=True)
    assert layout.glare is not None
    board = synth.random_board(np.random.default_rng(52))
    img, truth = synth.render_table(board, style, 52, layout=layout)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.2 and corners < 0.3


def test_rectify_and_crop_shapes() -> None:
    style = synth.styles("train")[3]
    img, _ = synth.render_table(synth.random_board(np.random.default_rng(3)), style, 3,
                                size=(1280, 960))
    g = locate(img)
    assert rectify(img, g, 20).shape == (120, 120, 3)
    assert crop_tile(img, g, 5, 5, 48).shape == (48, 48, 3)


def test_no_grid_is_a_named_error() -> None:
    rng = np.random.default_rng(0)
    empty = np.full((960, 1280, 3), (60, 100, 150), np.uint8)
    empty = np.clip(empty + rng.normal(0, 6, empty.shape), 0, 255).astype(np.uint8)
    with pytest.raises(GridNotFound):
        locate(empty)
    few = empty.copy()
    for k in range(3):  # three lonely squares are no grid
        few[200:300, 200 + 200 * k : 300 + 200 * k] = 240
    with pytest.raises(GridNotFound):
        locate(few)
    assert issubclass(GridNotFound, VisionError) and issubclass(GridNotFound, ValueError)
    with pytest.raises(GridNotFound):
        locate(np.zeros((10, 10, 3), np.uint8))
