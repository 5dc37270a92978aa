"""Letters printed as dots, which no font draws and the letter network reads poorly as they
are: the cells still doubtful after four turns are read again blurred, where the dots run
together into strokes."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.games.moerder.board import Board
from tiles_support import letters  # noqa: F401 (fixture)
from vision import synth
from vision.letters import LetterReader
from vision.observation import read_grid
from vision.tiles import TileReader
from vision.tiles.settings import DEFAULT_SETTINGS


@pytest.mark.parametrize("with_reference", [True, False])
def test_dotted_letters_are_read_blurred(letters: LetterReader,  # noqa: F811
                                         with_reference: bool) -> None:
    # a train style of narrow dotted letters on linen, 30 tiles face up
    style = next(s for s in synth.styles("train") if s.lettering is synth.Lettering.FONT_DOTS
                 and s.material is synth.Material.LINEN)
    layout = synth.make_layout(style, 2)
    board = synth.random_board(np.random.default_rng(2), face_up=30)
    img, _ = synth.render_table(board, style, 2, layout=layout)
    ref, _ = synth.render_table(Board(), style, 2, layout=layout, frame=1)
    want = [t.value if t else "." for t in board.cells]

    def read(blurred: tuple[float, ...]) -> tuple[int, int]:
        tiles = TileReader(letters, settings=dataclasses.replace(DEFAULT_SETTINGS,
                                                                 blurred=blurred))
        obs, _ = read_grid(img, tiles, reference=ref if with_reference else None)
        right = sum(c.char == w for c, w in zip(obs.cells, want) if w not in ".X")
        wrong = sum(c.char not in ("?", w) for c, w in zip(obs.cells, want))
        return right, wrong

    plain_right, _ = read(())
    right, wrong = read(DEFAULT_SETTINGS.blurred)
    assert plain_right <= 10  # the network alone reads few of them
    assert right >= 20
    assert wrong == 0

