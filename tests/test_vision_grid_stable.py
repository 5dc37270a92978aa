"""Stable-frame gating: moving or covered frames are not read; a still table re-reads only
the cells that changed."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import CELLS, Board
from vision import synth
from vision.grid import locate, rectify
from vision.letters import LetterReader
from vision.observation import RECT_BORDER, RECT_PX, TableReader
from vision.stable import Stillness, compare
from vision.tiles import CellState, TileReader

Game = tuple[list[Board], list[synth.GameFrame]]


@pytest.fixture(scope="module")
def game() -> Game:
    style = synth.styles("bench")[2]
    boards = synth.game_boards(seed=8, turns=2)
    frames = list(synth.render_game(boards, style, seed=8, size=(1280, 960), still_frames=2))
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
