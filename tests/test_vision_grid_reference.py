"""read-grid with a reference frame: the frame's grid is checked against it (the tiles turned
since lie in the grid, and the grid cuts the reference into alike backs), and the
reference's own grid is taken where the frame's fails."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import Board
from tiles_support import fits, letters, with_reference  # noqa: F401 (fixtures)
from vision import framing, synth
from vision.grid import Grid, GridNotFound, locate
from vision.grid import looking as grid_looking
from vision.letters import LetterReader
from vision.observation import TableReader, read_grid
from vision.stable import Turned
from vision.tiles import TileReader
from vision.tiles.appearance import looks
from vision.tiles.faces import model_from_looks

Scene = tuple[Board, np.ndarray, synth.Truth, np.ndarray]


def _scene(style: synth.Style, seed: int) -> Scene:
    """A random board of ``style`` (board, frame, truth, the face-down frame of the same
    view)."""
    board = synth.random_board(np.random.default_rng(seed))
    img, truth, ref = with_reference(style, seed, board)
    return board, img, truth, ref


def _on_glazed_tiles(seed: int) -> Scene:
    """A train board of checkered tiles with dotted letters on a table of glazed tiles
    larger than the game's."""
    return _scene(next(s for s in synth.styles("train") if s.table is synth.Table.CERAMIC
                       and s.lettering is synth.Lettering.FONT_DOTS), seed)


def _off(grid: Grid, truth: synth.Truth) -> float:
    """How far a grid's corners lie from the truth, in cell pitches."""
    return truth.off(grid)[1]


def _wants(board: Board) -> list[str]:
    return [t.value if t else "." for t in board.cells]


def test_a_frame_whose_grid_is_not_found_is_read_with_the_references(
        letters: LetterReader) -> None:  # noqa: F811
    # this frame shows no grid of its own, the face-down frame of the same game does, and
    # the camera stayed put (a train-85 board: dark backs on dark laths under a dim lamp;
    # the train-22 board read here before now shows a grid of its own, evenly lit)
    board, img, truth, ref = _scene(synth.styles("train")[85], 4027)
    with pytest.raises(GridNotFound):
        locate(img)
    obs, g = read_grid(img, TileReader(letters), reference=ref)
    assert _off(g, truth) < 0.5
    want = _wants(board)
    assert not [i for i, (c, w) in enumerate(zip(obs.cells, want)) if c.char not in ("?", w)]
    assert sum(c.char == w for c, w in zip(obs.cells, want)) >= 30


def test_a_lattice_of_the_tables_larger_squares_over_the_tiles_gives_way_to_the_references(
        letters: LetterReader) -> None:  # noqa: F811
    # the frame's lattice of glazed squares covers the tiles and holds every tile turned
    # since; but it cuts the face-down frame into pieces of checkered backs, each cut
    # elsewhere, not one back 36 times: the reference's own grid is the tiles'
    board, img, truth, ref = _on_glazed_tiles(305)
    assert _off(locate(img), truth) > 1.0
    obs, g = read_grid(img, TileReader(letters), reference=ref)
    assert _off(g, truth) < 0.5
    # (its one dotted Ö the letter model cannot read is taken for the victim: a letter
    # model matter, docs/vision-grid.md)
    assert sum(c.char == w for c, w in zip(obs.cells, _wants(board))) >= 34
    assert all((c.char == ".") == (w == ".") for c, w in zip(obs.cells, _wants(board)))


def _under_a_lamp(seed: int) -> Scene:
    """A train board on a plaid under a lamp's spot."""
    style = synth.styles("train")[94]
    assert style.table is synth.Table.PLAID
    return _scene(style, seed)


def test_a_lattice_of_a_lamp_lit_cloth_gives_way_to_the_grid_round_the_turned_tiles(
        letters: LetterReader) -> None:  # noqa: F811
    # a plaid under a lamp's spot: its bright checks stand out from the cloth at the image's
    # border as tiles do, and make a better lattice than the touching tiles, in the frame
    # and in the face-down frame alike; the tiles' own grid lies where they turned
    board, img, truth, ref = _under_a_lamp(12)
    assert _off(locate(img), truth) > 1.0
    assert _off(locate(ref), truth) > 1.0
    obs, g = read_grid(img, TileReader(letters), reference=ref)
    assert _off(g, truth) < 0.5
    assert [c.char for c in obs.cells] == _wants(board)


def test_a_hands_shadow_over_face_down_tiles_leaves_them_face_down(
        letters: LetterReader) -> None:  # noqa: F811
    # a soft shadow darkens every channel of the backs under it alike: their colour moves
    # far from the reference's, their print does not
    style, seed = synth.styles("train")[0], 4001
    board = synth.random_board(np.random.default_rng(seed))
    img, truth, ref = with_reference(style, seed, board)
    shaded = synth.hand_shadow(img, truth.corners, seed)
    obs, _ = read_grid(shaded, TileReader(letters), reference=ref)
    want = _wants(board)
    assert not [i for i, (c, w) in enumerate(zip(obs.cells, want)) if c.char not in ("?", w)]
    assert [c.char for c, w in zip(obs.cells, want) if w == "."] == ["."] * want.count(".")


def test_the_table_finds_the_grid_where_the_tiles_turned_when_the_cloth_fooled_it(
        letters: LetterReader, fits: list[int]) -> None:  # noqa: F811
    # the same table at a game: the face-down frame's grid is the cloth's, and the table's
    # frames compared with it there never change; the first frame with tiles turned outside
    # that grid makes the table look for it as read-grid does, one fit a frame, and read
    # the board whole on the frame the look ends
    board, img, truth, ref = _under_a_lamp(12)
    table = TableReader(TileReader(letters))
    table.learn_reference(ref)
    assert table.grid is not None and _off(table.grid, truth) > 1.0
    seen = [table.read(ref) for _ in range(2)][-1]
    assert seen is not None and seen.grid == str(Board())
    assert table.read(img) is None  # the hand has just left: not yet still
    per_frame = []
    for _ in range(12):  # three locates of four fits at most
        before = len(fits)
        seen = table.read(img)
        per_frame.append(len(fits) - before)
        if _off(table.grid, truth) < 0.5:
            break
    assert _off(table.grid, truth) < 0.5
    assert max(per_frame) == 1 and len(per_frame) > 1
    assert seen is not None and len(seen.changed) == 36
    assert [c.char for c in seen.cells] == _wants(board)


def _dim_laths() -> Scene:
    """The grid bench's 88th train board with its reference: dark backs on dark laths under
    a dim lamp, where neither the frame nor the face-down frame shows a grid as a whole."""
    rng = np.random.default_rng(20261123)
    board = [synth.random_board(rng) for _ in range(88)][87]
    style, seed = synth.styles("train")[87], 20261123 + 87
    assert style.table is synth.Table.LATHS
    img, truth, ref = with_reference(style, seed, board)
    return board, img, truth, ref


def test_the_grid_round_the_turned_tiles_is_taken_before_the_references_when_it_ends(
        letters: LetterReader, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    # the frame's own look finds nothing; round the tiles turned since it finds the grid at
    # once, and the ring of places round that window shows the laths, not backs: the
    # reference is not looked at (six fits more, up to 180 ms of a single photo's read)
    board, img, truth, ref = _dim_laths()
    with pytest.raises(GridNotFound):
        locate(img)
    looked: list[bool] = []
    real = grid_looking

    def spy(image: np.ndarray, follow: bool = False) -> object:
        looked.append(image is ref)
        return real(image, follow)

    monkeypatch.setattr(framing, "looking", spy)
    obs, g = read_grid(img, TileReader(letters), reference=ref)
    assert looked == [False, False]
    assert _off(g, truth) < 0.5
    want = _wants(board)
    assert not [i for i, (c, w) in enumerate(zip(obs.cells, want)) if c.char not in ("?", w)]


def _round_turned(img: np.ndarray, ref: np.ndarray) -> tuple[Turned, Grid]:
    """The grid located in the frame round the tiles turned since the reference."""
    turned = Turned.between(img, ref)
    assert turned is not None and (box := turned.box(framing.TURNED_MARGIN)) is not None
    x0, y0, x1, y1 = box
    return turned, locate(img[y0:y1, x0:x1]).moved(x0, y0)


def _ends(ref: np.ndarray, grid: Grid, letters: LetterReader) -> bool:  # noqa: F811
    settings = TileReader(letters).settings
    cells = looks(framing.crops_of(ref, grid), settings)
    back = model_from_looks(cells, settings)
    return framing.bounded(ref, grid, cells, back, settings)


def test_a_window_of_the_tables_own_squares_runs_on_in_the_reference(
        letters: LetterReader) -> None:  # noqa: F811
    # round the turned tiles of the glazed board a lattice of the table's larger squares
    # holds them and cuts the reference into alike squares; the ring round its window is as
    # alike as they, so it waits for the reference's own grid (which the read then takes).
    # On the dim laths the ring is further from the backs than the backs from each other,
    # though within the back's sure distance
    _, img, truth, ref = _on_glazed_tiles(111)
    turned, near = _round_turned(img, ref)
    assert _off(near, truth) > 1.0 and framing.holds(turned, near)
    assert not _ends(ref, near, letters)
    _, img, truth, ref = _dim_laths()
    _, near = _round_turned(img, ref)
    assert _off(near, truth) < 0.5
    assert _ends(ref, near, letters)
