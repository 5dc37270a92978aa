"""Stable-frame gating: moving or covered frames are not read; a still table re-reads only
the cells that changed."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import CELLS, SIZE, Board
from tiles_support import fits  # noqa: F401 (fixture)
from vision.grid import begun, locate, looking, rectify
from vision.letters import LetterReader
from vision import synth
from vision.observation import RECT_BORDER, RECT_PX, TableReader
from vision.stable import Stillness, Turned, compare
from vision.tiles import CellState, TileReader

Game = tuple[list[Board], list[synth.GameFrame]]


@pytest.fixture(scope="module")
def game() -> Game:
    style = synth.styles("bench")[2]
    boards = synth.game_boards(seed=8, turns=2)
    frames = list(synth.render_game(boards, style, seed=8, size=(1280, 960), still_frames=3))
    return boards, frames


def test_stillness_needs_consecutive_quiet_frames() -> None:
    a = np.full((480, 640, 3), 120, np.uint8)
    b = a.copy()
    b[100:300, 100:300] = 200  # something moved
    s = Stillness(frames=2)
    assert not s.update(a)  # nothing to compare with yet
    assert s.update(a)
    assert not s.update(b)
    assert not s.update(a)  # moved back: still moving
    assert s.update(a)


def test_the_tiles_turned_since_the_reference_lie_in_the_grid() -> None:
    style = synth.styles("train")[0]
    layout = synth.make_layout(style, 5)
    img, truth = synth.render_table(synth.random_board(np.random.default_rng(5)), style, 5,
                                    layout=layout)
    ref, _ = synth.render_table(Board(), style, 5, layout=layout, frame=1)
    turned = Turned.between(img, ref)
    assert turned is not None
    share = turned.inside(truth.corners)
    assert share is not None and share > 0.9
    h, w = img.shape[:2]  # a quarter of the view beside the grid holds little of it
    t = np.asarray(truth.corners)
    beside = t + ([w * 0.5, 0.0] if t[:, 0].mean() < w / 2 else [-w * 0.5, 0.0])
    assert (turned.inside(beside) or 0.0) < 0.2
    brighter = np.clip(ref.astype(np.int16) * 5 // 4, 0, 255).astype(np.uint8)
    same = Turned.between(ref, brighter)  # the camera's exposure moved, nothing was turned
    assert same is not None and same.inside(truth.corners) is None
    assert Turned.between(img, ref[: h // 2]) is None  # not one view: nothing to say
    assert Turned.between(img[:, :, 0], ref[:, :, 0]) is None  # no colour frames


def _checked_table(turned: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A cloth of light and dark checks with a 6x6 grid of dark backs on 40 % of it, the
    first ``turned`` of them light faces: the frame's median gray jumps from dark to light."""
    ys, xs = np.mgrid[0:480, 0:640]
    light = ((ys // 24) + (xs // 24)) % 2 == 0
    img = np.where(light, 225, 60).astype(np.uint8)
    x0, y0, pitch = 160, 60, 60
    for k in range(36):
        r, c = divmod(k, 6)
        img[y0 + r * pitch + 4 : y0 + (r + 1) * pitch - 4,
            x0 + c * pitch + 4 : x0 + (c + 1) * pitch - 4] = 235 if k < turned else 25
    return np.dstack([img] * 3), (x0, y0, x0 + 6 * pitch, y0 + 6 * pitch)


def test_tiles_turned_on_a_checked_cloth_leave_the_cloth_unturned() -> None:
    """A lost reference grid came from this: the exposure taken from the frames' medians
    marked the whole cloth as turned, and the tiles' true grid held too little of it."""
    ref, (x0, y0, x1, y1) = _checked_table(0)
    img, _ = _checked_table(20)
    turned = Turned.between(img, ref)
    assert turned is not None
    share = turned.inside(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float))
    assert share is not None and share > 0.95
    brighter = np.clip(img.astype(np.int16) * 5 // 4, 0, 255).astype(np.uint8)
    again = Turned.between(brighter, ref)  # the exposure moved as well: still the tiles only
    assert again is not None
    inside = again.inside(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], float))
    assert inside is not None and inside > 0.95


def test_one_turned_tile_is_the_only_change(game: Game) -> None:
    boards, frames = game
    first = next(f for f in frames if f.turn == 0)
    second = next(f for f in frames if f.turn == 1 and f.still)
    g = locate(first.image)
    change = compare(rectify(second.image, g, RECT_PX, RECT_BORDER),
                     rectify(first.image, g, RECT_PX, RECT_BORDER), RECT_PX, g.tile, RECT_BORDER)
    turned = [i for i in range(CELLS) if boards[0].cells[i] != boards[1].cells[i]]
    assert list(change.cells) == turned
    assert not change.covered and not change.moved


def _rect_of(colours: dict[int, tuple[int, int, int]], lift: int = 0, seed: int = 0,
             ) -> np.ndarray:
    """A rectified grid of red backs (cells in ``colours`` painted so), a little noise, all
    ``lift`` levels brighter."""
    side = SIZE * RECT_PX + 2 * RECT_BORDER
    img = np.full((side, side, 3), (60, 90, 60), np.int16)  # the table round the grid
    for i in range(CELLS):
        r, c = divmod(i, SIZE)
        y, x = RECT_BORDER + r * RECT_PX, RECT_BORDER + c * RECT_PX
        img[y + 3:y + RECT_PX - 3, x + 3:x + RECT_PX - 3] = colours.get(i, (40, 40, 200))
    noise = np.random.default_rng(seed).normal(0, 2, img.shape)
    return np.clip(img + noise + lift, 0, 255).astype(np.uint8)


def test_a_face_of_the_backs_grey_in_another_colour_is_a_change() -> None:
    """A green face where a red back of the same grey lay: a grey difference sees nothing."""
    green = (40, 122, 40)  # grey 88, as the red back's (40, 40, 200)
    before, after = _rect_of({}), _rect_of({14: green}, seed=1)
    change = compare(after, before, RECT_PX, 0.9, RECT_BORDER)
    assert change.cells == (14,) and not change.covered and not change.moved


def test_a_lamp_brightening_the_whole_table_a_little_turns_no_tile() -> None:
    """Every square a little brighter is the light, not 36 turned tiles (nor a hand over
    them); a tile turned in that frame is still seen."""
    before = _rect_of({})
    change = compare(_rect_of({}, lift=12, seed=1), before, RECT_PX, 0.9, RECT_BORDER)
    assert change.cells == () and not change.covered and not change.moved
    change = compare(_rect_of({20: (230, 230, 230)}, lift=12, seed=2), before, RECT_PX, 0.9,
                     RECT_BORDER)
    assert change.cells == (20,) and not change.covered


def test_a_hand_over_the_grid_is_covered(game: Game) -> None:
    _, frames = game
    first = frames[0]
    hand = next(f for f in frames if not f.still)
    g = locate(first.image)
    change = compare(rectify(hand.image, g, RECT_PX, RECT_BORDER),
                     rectify(first.image, g, RECT_PX, RECT_BORDER), RECT_PX, g.tile, RECT_BORDER)
    assert change.covered or change.moved


def test_table_reader_follows_a_game(game: Game) -> None:
    boards, frames = game
    reader = TableReader(TileReader(LetterReader.load()), still_frames=2)
    seen = []
    for f in frames:
        obs = reader.read(f.image)
        if not f.still:
            assert obs is None and reader.status in ("moving", "covered")
            # even held still, a hand is never read
            assert reader.read(f.image) is None
            continue
        if obs is None:
            continue
        seen.append((f.turn, obs))
    assert {t for t, _ in seen} == {0, 1, 2}
    for turn, obs in seen:
        for i, (cell, tile) in enumerate(zip(obs.cells, boards[turn].cells, strict=True)):
            if tile is None:
                assert cell.state is CellState.HIDDEN, (turn, i, cell)
            else:
                assert cell.state is not CellState.HIDDEN, (turn, i, cell)
    # the back was learned from the all-face-down first frame, and later frames re-read only
    # the turned tile
    assert reader.tiles.back is not None
    for turn in (1, 2):
        first_of_turn = next(o for t, o in seen if t == turn)
        turned = [i for i in range(CELLS) if boards[turn - 1].cells[i] != boards[turn].cells[i]]
        assert list(first_of_turn.changed) == turned


def test_without_a_reference_frame_the_first_frames_teach_each_cell_its_back(game: Game,
                                                                             ) -> None:
    """The game's first frame (all face down) becomes each cell's reference, as a reference
    frame would; a turned tile keeps the back it showed, so later frames compare with it."""
    boards, frames = game
    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    first = next(f for f in frames if f.still and f.turn == 0)
    assert reader.read(first.image) is None  # the grid's fit: it is read on the next frame
    assert reader.status == "no-grid"
    obs = reader.read(first.image)
    assert obs is not None
    hidden = [i for i, c in enumerate(obs.cells) if c.state is CellState.HIDDEN]
    refs = reader.tiles.refs
    assert refs is not None and len(hidden) >= 30
    assert [i for i, r in enumerate(refs) if r is not None] == hidden
    for f in frames:  # the rest of the game as the camera sees it
        obs = reader.read(f.image) or obs
    assert obs is not None
    turned = [i for i in range(CELLS) if boards[2].cells[i] is not None]
    assert all(obs.cells[i].state is not CellState.HIDDEN for i in turned)
    assert reader.tiles.refs is not None
    assert all(reader.tiles.refs[i] is refs[i] for i in turned if refs[i] is not None)


def test_a_moved_camera_forgets_the_cells_references() -> None:
    """Each cell's reference is cropped where the cell lay; when the grid is found elsewhere
    (the camera was bumped) those pixels are another cell's, so they are dropped and learned
    again from what the new view shows face down."""
    style = synth.styles("bench")[2]
    board = Board()
    here, _ = synth.render_table(board, style, 8, layout=synth.make_layout(style, 8, (1280, 960)))
    there, _ = synth.render_table(board, style, 8,
                                  layout=synth.make_layout(style, 9, (1280, 960)))
    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    reader.learn_reference(here)
    old = reader.tiles.refs
    assert old is not None and all(r is not None for r in old)
    obs = None
    for _ in range(3):  # the view changed: motion first, then still frames of the new view
        obs = reader.read(there) or obs
    assert obs is not None and reader.grid is not None
    refs = reader.tiles.refs
    assert refs is not None and not any(r is a for r, a in zip(refs, old, strict=True))
    assert sum(c.state is CellState.HIDDEN for c in obs.cells) >= 30


def test_the_first_frame_of_a_game_in_the_references_view_keeps_its_grid(
        game: Game, fits: list[int]) -> None:
    """The game's first frame, seen where the reference frame was, is read with the grid the
    cells' references were cut with: not located again (face-down grids are the slowest to
    find), and its turned tile is read against its own reference."""
    boards, frames = game
    style = synth.styles("bench")[2]
    ref, _ = synth.render_table(Board(), style, seed=8,
                                layout=synth.make_layout(style, 8, (1280, 960)), frame=99)
    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    reader.learn_reference(ref)
    grid, refs = reader.grid, reader.tiles.refs
    before = len(fits)
    later = next(f for f in frames if f.still and f.turn == 1)
    obs = reader.read(later.image)
    assert obs is not None and len(fits) == before
    assert reader.grid is grid and reader.tiles.refs is refs
    turned = [i for i in range(CELLS) if boards[1].cells[i] is not None]
    assert [i for i, c in enumerate(obs.cells) if c.state is not CellState.HIDDEN] == turned


def test_the_first_quiet_frame_with_tiles_turned_finds_where_the_grid_lies_exactly() -> None:
    """A grid found in face-down tiles alone can lie a fraction of a cell off (striped backs
    laid edge to edge show their joints faintly); the first quiet frame with tiles turned
    locates it as read-grid --reference would, and the board is read again on the next."""
    style, seed = synth.styles("train")[55], 355
    boards = synth.game_boards(seed, turns=2)
    layout = synth.make_layout(style, seed, (1640, 1232))
    ref, truth = synth.render_table(Board(), style, seed, layout=layout, frame=10_000)
    img, _ = synth.render_table(boards[1], style, seed, layout=layout, frame=1)
    pitch = float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 6

    def off() -> float:
        assert reader.grid is not None
        return float(np.abs(reader.grid.corners - truth.corners).max()) / pitch

    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    reader.learn_reference(ref)
    assert off() > 0.3
    reader.read(ref)
    assert reader.read(img) is None and reader.status == "moving"
    first = reader.read(img)  # the turned tile, read on the grid of the backs
    assert first is not None and first.changed and off() > 0.3
    quiet = reader.read(img)  # the look's fit, on a quiet frame: nothing else is read
    assert quiet is not None and not quiet.changed and off() > 0.3
    again = reader.read(img)  # the next frame: the backs it cuts measured, the grid taken
    assert off() < 0.15
    assert again is not None and len(again.changed) == CELLS
    assert again.grid == str(boards[1])
    assert reader.read(img) is not None and off() < 0.15  # one look a game


def test_a_look_that_ends_and_the_next_one_begun_fit_on_frames_of_their_own(
        fits: list[int]) -> None:
    """A look that fails ends with its last fit; when a new one began on that same quiet
    frame, its first fit came too, and the frame took two fits (255 ms of CPU on a
    patterned cloth). The new look makes its first fit on the next frame."""
    style, seed = synth.styles("train")[55], 355
    boards = synth.game_boards(seed, turns=2)
    layout = synth.make_layout(style, seed, (1640, 1232))
    ref, truth = synth.render_table(Board(), style, seed, layout=layout, frame=10_000)
    img, _ = synth.render_table(boards[1], style, seed, layout=layout, frame=1)
    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    reader.learn_reference(ref)
    reader.read(ref)
    reader.read(img)
    first = reader.read(img)  # the turned tile read; the look waits for a quiet frame
    assert first is not None and first.changed
    cloth = np.random.default_rng(3).integers(90, 110, (1232, 1640, 3)).astype(np.uint8)
    failing = begun(looking(cloth))  # a look one fit from its end, finding nothing
    while len(fits) < 7:  # of its eight
        failing.send(None)
    turned = Turned.between(img, ref)
    assert turned is not None
    reader._proving = failing, turned, False
    per_frame = []
    for _ in range(4):
        before = len(fits)
        assert reader.read(img) is not None
        per_frame.append(len(fits) - before)
    assert per_frame[:2] == [1, 1]  # the failing look's last fit, then the new look's first
    assert max(per_frame) == 1
    assert reader.grid is not None
    pitch = float(np.linalg.norm(truth.corners[1] - truth.corners[0])) / 6
    assert float(np.abs(reader.grid.corners - truth.corners).max()) < 0.15 * pitch


def test_with_no_grid_anywhere_the_look_goes_on_one_fit_a_frame(fits: list[int]) -> None:
    """A table where no grid is found cost each still frame four fits (square tiles at two
    scales, then rounder blobs at both), over a frame's time; the look now makes one fit a
    frame and begins again when all four have failed, so a later frame can still find
    the grid."""
    cloth = np.random.default_rng(3).integers(90, 110, (1232, 1640, 3)).astype(np.uint8)
    reader = TableReader(TileReader(LetterReader.load()), still_frames=1)
    per_frame = []
    for _ in range(7):
        before = len(fits)
        assert reader.read(cloth) is None
        per_frame.append(len(fits) - before)
    assert reader.status == "no-grid"
    assert max(per_frame) == 1 and sum(per_frame) >= 5  # one fit a still frame, and on
