"""The last look of locating: face-down tiles laid by hand, touching, are one blob, and its
outline is the grid's (vision.grid.blob)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.moerder.board import SIZE, Board
from vision import synth
from vision.grid import GridNotFound, locate
from vision.grid import blob
from vision.grid.model import WORK_SIDE
from vision.grid.squares import work_image

PX = 40  # px of a cell in the blob seen from above, as the blob's checks look at it


def _face_down(index: int, seed: int) -> tuple[np.ndarray, synth.Truth]:
    style = synth.styles("train")[index]
    layout = synth.make_layout(style, seed)
    return synth.render_table(Board(), style, seed, layout=layout, frame=1)


@pytest.mark.parametrize(("index", "seed"), [(37, 780700), (38, 780800), (39, 780901)])
def test_a_block_of_backs_with_a_tile_jutting_out_is_the_grid(index: int, seed: int) -> None:
    # a tile pushed out of the block's side makes a fifth corner of its outline; the four
    # corners whose quad covers the blob best are the grid's (before: no grid, or corners
    # further off than this allows)
    img, truth = _face_down(index, seed)
    cells, corners = truth.off(locate(img))
    assert cells < 0.25
    assert corners < 0.3


def test_backs_laid_by_hand_off_their_lines_are_the_grid_by_their_pitch() -> None:
    # touching backs printed with dots, each row laid a little off the lattice's lines:
    # no joint stands out where the lattice puts it, but the tiles follow one another a
    # pitch apart (before: no grid)
    img, truth = _face_down(6, 777600)
    cells, corners = truth.off(locate(img))
    assert cells < 0.25
    assert corners < 0.3


def _block(img: np.ndarray, truth: synth.Truth, n: int) -> np.ndarray:
    """The top-left n x n tiles of the grid seen from above as a 6x6 blob is looked at."""
    small, scale = work_image(img, WORK_SIDE)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    lattice = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], np.float32)
    to_image = cv2.getPerspectiveTransform(lattice, (truth.corners * scale).astype(np.float32))
    part = cv2.perspectiveTransform(np.array([[[0, 0], [n, 0], [n, n], [0, n]]], np.float32),
                                    to_image)[0]
    h = cv2.getPerspectiveTransform(lattice, part) @ np.diag([1 / PX, 1 / PX, 1.0])
    top: np.ndarray = cv2.warpPerspective(gray, h, (SIZE * PX, SIZE * PX),
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return top.astype(np.float32)


@pytest.mark.parametrize(("index", "seed"), [(6, 777600), (10, 778000), (53, 782300)])
def test_a_5x5_or_4x4_block_does_not_repeat_at_the_lattices_pitch(index: int, seed: int
                                                                   ) -> None:
    # a 5x5 or 4x4 block of backs stretched over the 6x6 lattice repeats at 1.2 or 1.5
    # cells: the pitch rule must not make it a grid
    img, truth = _face_down(index, seed)
    assert not blob._repeats_at_pitch(_block(img, truth, 5), PX)
    assert not blob._repeats_at_pitch(_block(img, truth, 4), PX)


def test_a_5x5_block_of_backs_is_no_grid() -> None:
    # the face-down frame whose 6x6 block is found by its pitch, with all but its top-left
    # 5x5 tiles painted over in the table's median colour
    img, truth = _face_down(6, 777600)
    t = truth.tiles  # each tile's corners: top-left, top-right, bottom-right, bottom-left
    block = np.array([t[0][0], t[4][1], t[28][2], t[24][3]])
    keep = np.zeros(img.shape[:2], np.uint8)
    cv2.fillConvexPoly(keep, np.round(block).astype(np.int32), 1)
    table = np.median(img[keep == 0], axis=0).astype(np.uint8)
    with pytest.raises(GridNotFound):
        locate(np.where(keep[..., None] > 0, img, table))
