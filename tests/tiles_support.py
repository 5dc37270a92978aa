"""The table the tile tests read: one bench-style board (never tuned on) and its reference;
a letter reader that answers from a script; and the grid's fits, counted."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from companion.games.moerder.board import Board
from vision import synth
from vision.letters import N_CLASSES, REJECT, LetterReader, LetterReading, class_index

Scene = tuple[synth.Style, synth.Layout, Board, np.ndarray, np.ndarray]


def bench_scene() -> Scene:
    """A bench-style table and its all-face-down reference frame."""
    style = synth.styles("bench")[1]
    layout = synth.make_layout(style, 61, (1640, 1232), glare=False)
    board = synth.random_board(np.random.default_rng(61), face_up=18)
    img, _ = synth.render_table(board, style, 61, layout=layout)
    ref, _ = synth.render_table(Board(), style, 61, layout=layout, frame=3)
    return style, layout, board, img, ref


def with_reference(style: synth.Style, seed: int, board: Board
                   ) -> tuple[np.ndarray, synth.Truth, np.ndarray]:
    """``board`` on ``style`` laid as ``seed`` lays it (as the grid bench renders its boards):
    the frame, its truth, and the face-down frame of the same view."""
    layout = synth.make_layout(style, seed)
    img, truth = synth.render_table(board, style, seed, layout=layout)
    ref, _ = synth.render_table(Board(), style, seed, layout=layout, frame=1)
    return img, truth, ref


def faces(style: synth.Style, kinds: Sequence[str]) -> list[np.ndarray]:
    """Clean 64 px tile faces of ``style``: each kind a letter, "X" (the victim) or "back"."""
    return [synth.tile_face(k, 64, style) for k in kinds]


class Scripted:
    """A letter reader that answers from a script: isolates the tile rules from the model.
    ``again`` are the answers of a second look in four turns (default: the same)."""

    def __init__(self, answers: dict[int, LetterReading], crops: Sequence[np.ndarray],
                 again: dict[int, LetterReading] | None = None,
                 probs: dict[int, dict[str, float]] | None = None) -> None:
        self.answers = answers
        self.again = answers if again is None else again
        self.probs = probs or {}  # per cell, its classes' probabilities, like "M@90"
        self.ids = {id(c): i for i, c in enumerate(crops)}

    def class_probs(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """The scripted probabilities; what no script gives goes to "not a letter"."""
        out = np.zeros((len(crops), N_CLASSES), np.float32)
        for n, c in enumerate(crops):
            for label, p in self.probs.get(self.ids[id(c)], {}).items():
                letter, turn = label.split("@")
                out[n, class_index(letter, int(turn))] = p
            out[n, REJECT] = 1.0 - out[n].sum()
        return out

    def read_many(self, crops: Sequence[np.ndarray], alphabet: str | None = None,
                  second_look: bool = True) -> list[LetterReading]:
        return [self.answers.get(self.ids[id(c)], LetterReading(None, 0, 0.05)) for c in crops]

    def read_again(self, crops: Sequence[np.ndarray],
                   alphabet: str | None = None) -> list[LetterReading]:
        return [self.again.get(self.ids.get(id(c), -1), LetterReading(None, 0, 0.05))
                for c in crops]


@pytest.fixture(scope="module")
def letters() -> LetterReader:
    """The shipped letter reader (imported as a fixture by the tile tests)."""
    return LetterReader.load()


@pytest.fixture(scope="module")
def scene() -> Scene:
    """:func:`bench_scene`, once a test module (imported as a fixture)."""
    return bench_scene()


@pytest.fixture
def fits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry for every lattice fit the grid's looks make from now on: a table's frame
    may make one."""
    import vision.grid as grid_module

    made: list[int] = []
    real_fit = grid_module._fit

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return real_fit(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(grid_module, "_fit", counted)
    return made
