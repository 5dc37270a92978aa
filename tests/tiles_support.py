"""The table the tile tests read: one bench-style board (never tuned on) and its reference."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import Board
from vision import synth
from vision.letters import LetterReader

Scene = tuple[synth.Style, synth.Layout, Board, np.ndarray, np.ndarray]


def bench_scene() -> Scene:
    """A bench-style table and its all-face-down reference frame."""
    style = synth.styles("bench")[1]
    layout = synth.make_layout(style, 61, (1640, 1232), glare=False)
    board = synth.random_board(np.random.default_rng(61), face_up=18)
    img, _ = synth.render_table(board, style, 61, layout=layout)
    ref, _ = synth.render_table(Board(), style, 61, layout=layout, frame=3)
    return style, layout, board, img, ref


@pytest.fixture(scope="module")
def letters() -> LetterReader:
    """The shipped letter reader (imported as a fixture by the tile tests)."""
    return LetterReader.load()


@pytest.fixture(scope="module")
def scene() -> Scene:
    """:func:`bench_scene`, once a test module (imported as a fixture)."""
    return bench_scene()
