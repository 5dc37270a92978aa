"""The renderer: deterministic, truthful, and its train/bench styles never overlap."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.games.moerder.board import CELLS, Board, Tile
from vision import synth


@pytest.fixture(scope="module")
def style() -> synth.Style:
    return synth.styles("train")[0]


def test_same_seed_same_image_and_other_seed_differs(style: synth.Style) -> None:
    board = synth.random_board(np.random.default_rng(1))
    a, ta = synth.render_table(board, style, seed=3, size=(1280, 960))
    b, tb = synth.render_table(board, style, seed=3, size=(1280, 960))
    c, _ = synth.render_table(board, style, seed=4, size=(1280, 960))
    assert np.array_equal(a, b)
    assert np.array_equal(ta.corners, tb.corners)
    assert a.shape == (960, 1280, 3)
    assert not np.array_equal(a, c)


def test_truth_describes_the_render(style: synth.Style) -> None:
    board = Board.parse("MÖRDER/....../....../....../....../.....X")
    img, truth = synth.render_table(board, style, seed=11, size=(1640, 1232))
    assert truth.board == board
    assert truth.tiles.shape == (CELLS, 4, 2)
    h, w = img.shape[:2]
    assert np.all((truth.corners >= 0) & (truth.corners < [w, h]))
    # a face-up tile is bright (its face colour) where a face-down one shows the back
    def mean_at(i: int) -> float:
        x0, y0 = truth.tiles[i].min(axis=0).astype(int) + 8
        x1, y1 = truth.tiles[i].max(axis=0).astype(int) - 8
        return float(np.abs(img[y0:y1, x0:x1].astype(float).mean(axis=(0, 1))
                            - np.array(style.back)).sum())
    assert mean_at(0) > mean_at(20)  # M is further from the back colour than a hidden tile
    assert all(r in (0, 90, 180, 270) for r in truth.rotations)
    assert truth.rotations[35] == 0  # the victim has no rotation


def test_style_splits_are_disjoint() -> None:
    train, bench = synth.styles("train"), synth.styles("bench")
    assert train and bench
    assert not {s.font for s in train} & {s.font for s in bench}
    assert not {s.pattern for s in train} & {s.pattern for s in bench}
    assert not {s.back for s in train} & {s.back for s in bench}
    assert not {s.victim for s in train} & {s.victim for s in bench}


def test_random_board_respects_the_set() -> None:
    rng = np.random.default_rng(5)
    for n in (0, 10, 36):
        b = synth.random_board(rng, face_up=n)
        assert sum(t is not None for t in b.cells) == n
        b.check_counts()
    assert synth.random_board(rng, face_up=36).counts()[Tile.VICTIM] == 1


def test_a_game_keeps_its_layout_and_turns_one_tile_at_a_time(style: synth.Style) -> None:
    boards = synth.game_boards(seed=2, turns=2)
    assert len(boards) == 3
    for before, after in zip(boards, boards[1:]):
        diff = [i for i in range(CELLS) if before.cells[i] != after.cells[i]]
        assert len(diff) == 1 and before.cells[diff[0]] is None
    frames = list(synth.render_game(boards, style, seed=2, size=(1280, 960)))
    assert [f.still for f in frames] == [True, False, True, False, True]
    assert [f.turn for f in frames] == [0, 1, 1, 2, 2]
    assert all(f.truth.hand == (not f.still) for f in frames)
    for f in frames[1:]:
        assert np.allclose(f.truth.tiles, frames[0].truth.tiles)


def test_train_sets_with_hollow_and_dotted_letters_draw_them_from_their_font() -> None:
    """The train analogues of lettering the letter model never saw: the font's own letter
    redrawn as a rim or as dots, which leaves much of the solid letter's ink bare."""
    from vision.synth.faces import _glyph

    styles = {s.lettering: s for s in synth.styles("train")}
    for lettering in (synth.Lettering.FONT_HOLLOW, synth.Lettering.FONT_DOTS):
        style = styles[lettering]
        solid = dataclasses.replace(style, lettering=synth.Lettering.FONT)
        ink = {}
        for name, s in (("styled", style), ("solid", solid)):
            face = _glyph("M", s.font, 96, s)
            ink[name] = np.abs(face.astype(int) - s.face).sum(axis=2) > 120
        bare = ink["solid"] & ~ink["styled"]
        assert ink["styled"].sum() > 100 and bare.sum() > 0.3 * ink["solid"].sum(), lettering
