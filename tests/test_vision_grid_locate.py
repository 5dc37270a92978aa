"""Locating the grid on renders with known truth, and the named error when there is none.

The real tray photos are read only when COMPANION_BOGGLE_PHOTOS names their folder."""

from __future__ import annotations

import dataclasses
import os

import cv2
import numpy as np
import pytest

from companion.games.moerder.board import CELLS, SIZE, Board
from vision import VisionError, dice_photos, glyphs, synth
from vision.grid import Grid, GridNotFound, Look, crop_tile, locate, project, rectify


def _cell_errors(img: np.ndarray, truth: synth.Truth) -> tuple[float, float]:
    """Worst cell-centre and corner error, in pitches."""
    return truth.off(locate(img))


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


@pytest.mark.parametrize(("table", "seed"), [(synth.Table.CERAMIC, 7172),
                                           (synth.Table.PLAID, 7201)])
def test_a_table_with_squares_of_its_own_is_not_taken_for_the_grid(table: synth.Table,
                                                                   seed: int) -> None:
    # glazed tiles in grout, a plaid's checks: more squares than the game has tiles, of
    # their own size; the grid is on the tiles, not on the table's pattern
    style = next(s for s in synth.styles("train") if s.table is table)
    board = synth.random_board(np.random.default_rng(seed))
    img, truth = synth.render_table(board, style, seed)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.2
    assert corners < 0.3


def test_tiles_laid_edge_to_edge_on_a_tiled_table_are_the_grid_not_the_tables_squares() -> None:
    # the tiles touch, so they make one blob and no squares; the table's glazed squares
    # (larger than a tile, ruled by light grout running out from under the tiles) are many
    style = next(s for s in synth.styles("train") if s.table is synth.Table.CERAMIC
                 and s.lettering is synth.Lettering.FONT_DOTS)
    layout = synth.make_layout(style, 110)
    board = synth.random_board(np.random.default_rng(110))
    img, truth = synth.render_table(board, style, 110, layout=layout)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.2
    assert corners < 0.3


def test_face_down_tiles_with_striped_backs_laid_edge_to_edge_are_the_grid() -> None:
    # the face-down frame a game starts from: one blob of touching tiles, and their striped
    # print has edges everywhere, as many as the joints between them; along a whole row of
    # tiles the stripes even out and the joints stand out in the mean brightness
    style = synth.styles("train")[53]
    assert style.pattern is synth.BackPattern.STRIPES
    layout = synth.make_layout(style, 353, (1640, 1232))
    img, truth = synth.render_table(Board(), style, 353, layout=layout, frame=10_000)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.25
    assert corners < 0.3


def test_dark_backs_on_a_dark_table_under_a_dim_lamp_are_found_as_if_evenly_lit() -> None:
    # the face-down frame of a dim room: near-black backs on dark laths differ from them by
    # a few grey levels outside the lamp's spot, too few for edges or the table's colour;
    # the ratio is as large there as under the spot, and the log of the light evens it out
    style = synth.styles("train")[85]
    assert style.table is synth.Table.LATHS and max(style.back) < 40
    layout = synth.make_layout(style, 13246, (1640, 1232))
    img, truth = synth.render_table(Board(), style, 13246, layout=layout, frame=1)
    cells, corners = _cell_errors(img, truth)
    assert cells < 0.25
    assert corners < 0.3


@pytest.mark.parametrize(("which", "seed"), [(0, 8051), (1, 8120)])
def test_backs_near_a_fleeces_colour_are_found_by_their_outline(which: int, seed: int) -> None:
    # striped or checked backs close to a fleece's colour, under a lamp or a gradient: colour
    # sees the faces only, and the backs' own pattern cuts every region between edges into
    # slivers; filled whole, the figures the edges close are the backs
    style = [s for s in synth.styles("train") if s.table is synth.Table.FLEECE][which]
    layout = synth.make_layout(style, seed)
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
    assert np.abs(g.corners - truth.corners).max() < 0.3 * truth.pitch


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
    p = truth.pitch
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


def test_a_frame_without_a_grid_is_cut_once_a_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Looking for a grid that is not there tries two scales, then rounder blobs at both,
    then both shapes on the frame evenly lit at both scales, and keeps the table's own
    squares on a patterned table: every try at one scale and light looks at the same cuts
    of the frame, made once (cutting it was most of a try's cost)."""
    import vision.grid as grid

    cuts: list[tuple[int, ...]] = []
    real = grid.segments

    def counted(small: np.ndarray, mask: np.ndarray | None = None) -> grid.Segments:
        cuts.append(small.shape)
        return real(small, mask)

    monkeypatch.setattr(grid, "segments", counted)
    style = next(s for s in synth.styles("train") if s.table is synth.Table.CERAMIC)
    layout = synth.make_layout(style, 3, (1640, 1232))
    table, _ = synth.render_table(synth.random_board(np.random.default_rng(3), face_up=0),
                                  style, 3, layout=layout)
    bare = cv2.resize(table[:300, :400], (1640, 1232))  # the tiled table alone, no tiles
    with pytest.raises(GridNotFound):
        locate(bare)
    # the working scale and the finer one, each as it is and evenly lit, once each
    assert sorted(cuts) == [(481, 640, 3), (481, 640, 3), (769, 1024, 3), (769, 1024, 3)]


def _tray(n: int, gap: int, side: int = 62, corner: float = 0.0) -> np.ndarray:
    """An n x n tray of light letter cubes: an orange tray on a light grey table whose colour
    the cubes' faces nearly share, so the not-table mask is the tray with holes where the
    cubes are (as in photos of real cube trays)."""
    rng = np.random.default_rng(n * 100 + gap)
    img = np.full((480, 640, 3), 200.0, np.float32) + rng.normal(0, 3, (480, 640, 1))
    pitch = side + gap
    span = n * pitch - gap
    x0, y0 = (640 - span) // 2, (480 - span) // 2
    rim = int(0.7 * pitch)
    img[y0 - rim:y0 + span + rim, x0 - rim:x0 + span + rim] = (40, 140, 235)
    font = sorted(glyphs.font_paths("test"))[0]
    for i in range(n * n):
        face = glyphs.render_glyph("DWIEYLEONEOQETLO"[i % 16], font, side, (20, 20, 20),
                                   (230, 230, 230), scale=0.6)
        y, x = y0 + (i // n) * pitch, x0 + (i % n) * pitch
        # a face with corners rounded by ``corner`` of its side (0.5: a disc)
        r = corner * side
        yy, xx = np.mgrid[0:side, 0:side] + 0.5
        dx = np.maximum(np.abs(xx - side / 2) - (side / 2 - r), 0)
        dy = np.maximum(np.abs(yy - side / 2) - (side / 2 - r), 0)
        on = (np.hypot(dx, dy) <= r + 1e-6)[..., None]
        img[y:y + side, x:x + side] = np.where(on, cv2.resize(face, (side, side)),
                                               img[y:y + side, x:x + side])
    return np.clip(img, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("gap", [4, 8, 14, 18])
def test_a_4x4_tray_is_not_taken_for_a_6x6_grid(gap: int) -> None:
    # the tray between and around the cubes gives guessed tile centres half a pitch off the
    # cubes; they must not fill the rows and columns a 6x6 window lacks
    with pytest.raises(GridNotFound):
        locate(_tray(4, gap))


@pytest.mark.parametrize("gap", [6, 12, 18])
def test_a_6x6_tray_of_the_same_cubes_is_found(gap: int) -> None:
    side = 50
    img = _tray(SIZE, gap, side)
    g = locate(img)
    span = SIZE * (side + gap) - gap
    x0, y0 = (640 - span) // 2, (480 - span) // 2
    want = np.array([[x0, y0], [x0 + span, y0], [x0 + span, y0 + span], [x0, y0 + span]])
    assert np.abs(g.corners - want).max() < 0.3 * (side + gap)


def _camera(img: np.ndarray, turn: float, tilt: float = 0.0,
            zoom: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """The drawing seen by a camera turned by ``turn`` degrees, tilted (the far edge narrower
    by ``2 * tilt`` of the width) and zoomed; and the homography drawing -> view."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[tilt * w, 0], [(1 - tilt) * w, 0], [w, h], [0, h]])
    m = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), turn, zoom), [0, 0, 1]]) @ (
        cv2.getPerspectiveTransform(src, dst))
    return cv2.warpPerspective(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE), m


def _farthest_cube(g: Grid, m: np.ndarray, side: int, gap: int) -> float:
    """How far (px) the cube farthest from any cell's centre is: every cube has a cell on it
    (rows run down the image whatever the turn, so compared as sets)."""
    pitch = side + gap
    x0, y0 = (640 - (SIZE * pitch - gap)) // 2, (480 - (SIZE * pitch - gap)) // 2
    centres = np.float64([[[x0 + (c + 0.5) * pitch - gap / 2, y0 + (r + 0.5) * pitch - gap / 2]
                           for r in range(SIZE) for c in range(SIZE)]])
    want = cv2.perspectiveTransform(centres, m)[0]
    got = np.array([g.cell_quad(i // SIZE, i % SIZE).mean(axis=0) for i in range(SIZE * SIZE)])
    return float(max(np.linalg.norm(got - c, axis=1).min() for c in want))


def test_a_tilted_tray_of_round_cube_faces_is_found() -> None:
    # faces drawn as discs, the camera tilted and turned: no blob is square enough for the
    # first look, the second (rounder blobs) finds the trays' cubes; the lattice is only
    # roughly right under so steep a tilt, within 0.4 of a pitch
    side, gap = 50, 8
    img, m = _camera(_tray(SIZE, gap, side, corner=0.5), 25, tilt=0.25)
    assert _farthest_cube(locate(img), m, side, gap) < 0.4 * (side + gap)


@pytest.mark.parametrize(("side", "gap", "turn", "zoom"), [(40, 12, 20, 1.0), (50, 6, 20, 0.5)])
def test_a_turned_6x6_tray_of_round_faces_is_found_on_its_own_lattice(side: int, gap: int,
                                                                      turn: float,
                                                                      zoom: float) -> None:
    # the lattice grown along the discs' boxes runs askew across the tray and is refused;
    # grown again along where each disc's nearest discs lie, it is the tray's own
    img, m = _camera(_tray(SIZE, gap, side, corner=0.5), turn, zoom=zoom)
    assert _farthest_cube(locate(img), m, side, gap) < 0.25 * zoom * (side + gap)


@pytest.mark.parametrize(("side", "gap", "turn", "zoom"), [
    (62, 12, 40, 1.0), (40, 6, 40, 0.5), (62, 6, 20, 0.5)])
def test_a_turned_4x4_tray_of_round_faces_is_not_taken_for_a_6x6(side: int, gap: int,
                                                                   turn: float,
                                                                   zoom: float) -> None:
    # a disc's box lies any way (here square to the image), so the lattice grown along it
    # runs at a slant across a turned tray: through every other cell at a finer pitch, a
    # checkerboard that holds a cube in every row and column of a 6x6 window (reported before)
    img, _ = _camera(_tray(4, gap, side, corner=0.5), turn, zoom=zoom)
    with pytest.raises(GridNotFound):
        locate(img)


PHOTOS = os.environ.get("COMPANION_BOGGLE_PHOTOS")


@pytest.mark.slow
@pytest.mark.skipif(not PHOTOS, reason="COMPANION_BOGGLE_PHOTOS not set")
@pytest.mark.parametrize(("split", "missed", "false"), [("tune", 0, 0), ("report", 1, 0)])
def test_real_6x6_trays_are_found_and_smaller_ones_are_not(split: str, missed: int,
                                                           false: int) -> None:
    # floors at the figures of docs/vision-grid.md (the rules were chosen on TUNE)
    assert PHOTOS is not None
    wrong = {6: 0, 0: 0}
    for photo in dice_photos.load(PHOTOS, split):  # type: ignore[arg-type]
        six = len(photo.cubes) == CELLS
        try:
            locate(cv2.imread(str(photo.path), cv2.IMREAD_COLOR))
            wrong[0] += not six
        except GridNotFound:
            wrong[6] += six
    assert wrong[6] <= missed and wrong[0] <= false, wrong


@pytest.mark.parametrize("gap", [6, 14])
def test_a_tray_filling_the_view_is_found_though_its_cubes_are_the_tables_colour(gap: int,
                                                                                 ) -> None:
    """A close-up: the cubes reach the photo's edge, so the table's colour is learned from
    them and every cube looks like a square of the table's own pattern. Leaving those out
    leaves nothing; the grid is then looked for among them, and each cell sits on a cube."""
    side, m, zoom = 50, 10, 1.5
    span = SIZE * (side + gap) - gap
    x0, y0 = (640 - span) // 2, (480 - span) // 2
    img = _tray(SIZE, gap, side)[y0 + m:y0 + span - m, x0 + m:x0 + span - m]
    g = locate(cv2.resize(img, None, fx=zoom, fy=zoom))
    centres = project(g.homography, np.array([[c + 0.5, r + 0.5] for r in range(SIZE)
                                              for c in range(SIZE)]))
    want = np.array([[(c * (side + gap) + side / 2 - m) * zoom,
                      (r * (side + gap) + side / 2 - m) * zoom]
                     for r in range(SIZE) for c in range(SIZE)])
    assert np.abs(centres - want).max() < 0.3 * (side + gap) * zoom


def test_a_look_goes_fit_by_fit_and_ends_with_the_grid_or_none() -> None:
    """A ``Look`` is ``locate`` one fit a call (the table spreads it over frames): a frame
    with no grid gives None for each of its eight fits but the last, which raises
    GridNotFound, and a step more for each cut of the frame at the finer scale, as it is and
    evenly lit (the rounder look there shares that cut); a board gives at its first fit the
    grid ``locate`` gives."""
    cloth = np.random.default_rng(3).integers(90, 110, (1232, 1640, 3)).astype(np.uint8)
    look = Look()
    assert [look.step(cloth) for _ in range(9)] == [None] * 9
    assert look.fits == 7
    with pytest.raises(GridNotFound):
        look.step(cloth)
    style = synth.styles("bench")[0]
    img, truth = synth.render_table(Board(), style, 5, size=(1640, 1232))
    found = Look().step(img)
    assert found is not None
    assert np.allclose(found.corners, locate(img).corners)
    assert float(np.abs(found.corners - truth.corners).max()) < 0.3 * truth.pitch
