"""Letters printed as dots, which no font draws and the letter network reads poorly as they
are: the cells still doubtful after four turns are read again blurred, where the dots run
together into strokes."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pytest

from companion.games.moerder.board import Board
from tiles_support import letters  # noqa: F401 (fixture)
from vision import synth
from vision.letters import LetterReader, LetterReading
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


def test_letters_of_another_set_are_not_read_blurred(letters: LetterReader,  # noqa: F811
                                                     ) -> None:
    """A clear letter outside the set (a cube of another game) is read surely as that
    letter in four turns: blurring cannot make it one of the set, and a tray of such cubes
    spent three more network passes a cell on it."""
    style = synth.styles("bench")[1]
    foreign = [synth.tile_face(ch, 64, style, turn)
               for ch, turn in zip("AKBTSHGL", (0, 90, 180, 270, 0, 90, 180, 0))]
    for r in letters.read_again(foreign, "MÖRDE"):
        assert r.letter is None and r.outside > 0.9
    assert letters.read_again(foreign[:1])[0].outside == 0.0  # no alphabet: nothing outside
    passes: list[int] = []

    class Counted(LetterReader):
        def read_again(self, crops: Sequence[np.ndarray],
                       alphabet: str | None = None) -> list[LetterReading]:
            passes.append(len(crops))
            return super().read_again(crops, alphabet)

    counted = Counted(letters.net, letters.prototypes, letters.proto_labels,
                      letters.min_confidence, second_look=letters.second_look)
    crops = ([synth.tile_face("back", 64, style) for _ in range(26)]
             + [synth.tile_face("M", 64, style), synth.tile_face("E", 64, style, 90)] + foreign)
    cells = TileReader(counted).read(crops)
    assert [c.char for c in cells] == ["."] * 26 + ["M", "E"] + ["?"] * 8
    # the eight in their four turns, and no blurred look after them; before them, two of
    # the 26 alike backs (a printed face, not a plain one) were looked at harder, as they
    # are and blurred, one batch each, before they were taken for the back
    assert passes == [4, 4, 8]
