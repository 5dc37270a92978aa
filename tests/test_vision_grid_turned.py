"""The grid from the tiles turned since the reference frame, when no look finds one: dark
backs printed with a pattern on felt as dark show no tile, but a turned tile is a square of
change on any table, and the reference says where the window lies beyond them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.moerder.board import SIZE
from tiles_support import letters  # noqa: F401 (fixture)
from vision import framing
from vision.grid import GridNotFound, finish, locate, project
from vision.grid.turned import squares_of_change, windows_round
from vision.letters import LetterReader
from vision.observation import TableReader
from vision.stable import Turned
from vision.tiles import CellState, TileReader

FELT = (52, 38, 44)  # BGR: dark purple felt
PITCH = 88.0
TILE = 80.0
# the tiles turned face up: seven in five rows and five columns, two side by side
TURNED = {(1, 0), (1, 1), (2, 3), (3, 4), (4, 1), (5, 4), (3, 2)}


def _homography(angle: float = 0.06) -> np.ndarray:
    """Lattice (col, row) -> image px: turned a little and seen a little from the side."""
    c, s = np.cos(angle), np.sin(angle)
    h = np.array([[c * PITCH, -s * PITCH, 330.0], [s * PITCH, c * PITCH, 170.0],
                  [0.00004 * PITCH, 0.00003 * PITCH, 1.0]])
    return h


def _scene(turned: set[tuple[int, int]], printed: bool, seed: int = 3) -> np.ndarray:
    """A 1280x960 frame of 36 tiles laid by hand (each a little off its place and turned)
    on felt: backs of the felt's own colour, printed with staggered rows of light dashes
    edge to edge (or not at all: no back to see), the ``turned`` ones face up (light, with a
    dark bar). No look finds these tiles: the dashes close into no square, and the joints
    are felt between felt. The same ``seed`` lays the tiles the same way."""
    rng = np.random.default_rng(seed)
    img = np.empty((960, 1280, 3), np.uint8)
    img[:] = FELT
    h = _homography()
    half = TILE / 2 / PITCH
    for r in range(SIZE):
        for c in range(SIZE):
            turn, dx, dy = rng.normal(0, 0.05), rng.normal(0, 0.03), rng.normal(0, 0.03)
            rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            mid = np.array([c + 0.5 + dx, r + 0.5 + dy])

            def on_tile(pts: np.ndarray) -> np.ndarray:  # tile coords (-.5..5) -> px
                return np.round(project(h, mid + (pts * 2 * half) @ rot.T)).astype(np.int32)

            corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
            if (r, c) in turned:
                cv2.fillConvexPoly(img, on_tile(corners), (205, 214, 222))
                cv2.fillConvexPoly(img, on_tile(corners * [0.08, 0.5]), (40, 90, 30))
                continue
            if not printed:
                continue  # a back of the felt's own colour: nothing to see
            for i in range(4):
                y = -0.44 + 0.26 * i
                for j in range(-1, 4):
                    x = -0.5 + 0.3 * j + (0.15 if i % 2 else 0.0)
                    x0, x1 = max(x, -0.48), min(x + 0.2, 0.48)
                    if x1 > x0:
                        dash = np.array([[x0, y], [x1, y], [x1, y + 0.05], [x0, y + 0.05]])
                        cv2.fillConvexPoly(img, on_tile(dash), (120, 160, 150))
    img = cv2.add(img, rng.integers(0, 6, img.shape, dtype=np.uint8))
    return cv2.GaussianBlur(img, (3, 3), 0)


def _truth() -> np.ndarray:
    return project(_homography(), np.array([[0.0, 0.0], [6.0, 0.0], [6.0, 6.0], [0.0, 6.0]]))


def test_the_squares_of_change_are_the_turned_tiles() -> None:
    ref, frame = _scene(set(), True), _scene(TURNED, True)
    turned = Turned.between(frame, ref, side=640)
    assert turned is not None
    found = squares_of_change(turned.mask, turned.scale)
    lat = project(np.linalg.inv(_homography()), np.array([s.centre for s in found]))
    places = {(int(y), int(x)) for x, y in lat}
    assert places == TURNED
    assert np.abs(lat - np.floor(lat) - 0.5).max() < 0.15


def test_the_windows_round_the_turned_tiles_hold_them_all() -> None:
    ref, frame = _scene(set(), True), _scene(TURNED, True)
    turned = Turned.between(frame, ref, side=640)
    assert turned is not None
    windows = windows_round(squares_of_change(turned.mask, turned.scale))
    # the turned tiles span five rows and five columns: the window can start at two rows
    # and two columns
    assert len(windows) == 4
    right = [g for g in windows if np.abs(g.corners - _truth()).max() < 0.2 * PITCH]
    assert len(right) == 1
    # too few turned tiles say nothing
    few = Turned.between(_scene({(1, 1), (2, 3), (4, 4)}, True), ref, side=640)
    assert few is not None
    assert windows_round(squares_of_change(few.mask, few.scale)) == []


def test_the_window_is_placed_by_the_reference(letters: LetterReader) -> None:  # noqa: F811
    # of the four windows holding the turned tiles, one has only felt round it in the
    # reference; a window a row or a column off has a row of printed backs in its ring
    ref, frame = _scene(set(), True), _scene(TURNED, True)
    placed = finish(framing.placed_by_turned(frame, ref, TileReader(letters).settings))
    assert placed is not None
    assert np.abs(placed[0].corners - _truth()).max() < 0.2 * PITCH


def test_backs_like_the_felt_place_no_window(letters: LetterReader) -> None:  # noqa: F811
    # backs of the felt's own colour: every window cuts the reference alike, and its ring
    # too; which one is the grid's cannot be told, so none is placed
    ref, frame = _scene(set(), False), _scene(TURNED, False)
    assert finish(framing.placed_by_turned(frame, ref, TileReader(letters).settings)) is None


def test_a_grid_no_look_finds_is_found_from_the_turned_tiles(
        letters: LetterReader) -> None:  # noqa: F811
    # tiles laid as seed 2 lays them: evenly lit at the finer scale, the turned tiles of
    # the default laying make a lattice of their own, found right
    ref, frame = _scene(set(), True, 2), _scene(TURNED, True, 2)
    for image in (frame, ref):
        with pytest.raises(GridNotFound):
            locate(image)
    g = framing.checked_grid(frame, ref, TileReader(letters))
    assert np.abs(g.corners - _truth()).max() < 0.2 * PITCH


def test_the_table_finds_it_too(letters: LetterReader) -> None:  # noqa: F811
    # the reference shows no grid: the table keeps it, looks in each frame one fit at a
    # time, and once the look ends with none places the grid by the turned tiles
    ref, frame = _scene(set(), True), _scene(TURNED, True)
    reader = TableReader(TileReader(letters))
    reader.learn_reference(ref)
    assert reader.grid is None
    obs = None
    for _ in range(30):
        obs = reader.read(frame)
        if obs is not None:
            break
    assert obs is not None and reader.grid is not None
    assert np.abs(reader.grid.corners - _truth()).max() < 0.2 * PITCH
    hidden = {i for i, c in enumerate(obs.cells) if c.state is CellState.HIDDEN}
    assert hidden == {r * SIZE + c for r in range(SIZE) for c in range(SIZE)} - {
        r * SIZE + c for r, c in TURNED}
