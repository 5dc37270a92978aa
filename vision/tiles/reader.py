"""The cell reader: the stages of :mod:`vision.tiles.frame`, :mod:`vision.tiles.teach` and
:mod:`vision.tiles.settle` in order, with what a game keeps between frames (the back, the
reference cells, the last taught reader) held by the :class:`TileReader` its caller owns."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np

from companion.games.moerder.board import CELLS
from vision.letters import LetterReader
from vision.tiles.appearance import first_use
from vision.tiles.cells import ALPHABET, CellReading, CellState, TileError
from vision.tiles.faces import FaceModel
from vision.tiles.frame import (
    FrameRead,
    Teacher,
    find_faces,
    infer_the_back,
    like_the_group,
    look_again,
    needs_letters,
    start,
    verdict,
)
from vision.tiles.reference import CellRef, cell_refs
from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings
from vision.tiles.settle import by_elimination, by_likeness, victims, within_the_set
from vision.tiles.teach import TaughtCache, self_taught, taught_again

class TileReader:
    """Reads cells from their crops; ``back`` and ``victim`` are learned faces if known."""

    def __init__(self, letters: LetterReader, back: FaceModel | None = None,
                 victim: FaceModel | None = None, alphabet: str = ALPHABET,
                 settings: TileSettings = DEFAULT_SETTINGS) -> None:
        self.letters = letters
        self.back = back
        self.victim = victim
        self.alphabet = alphabet
        self.settings = settings
        self._taught = TaughtCache()
        # per cell, from a reference frame or the game's first frames (None: not seen yet)
        self.refs: tuple[CellRef | None, ...] | None = None
        first_use()

    def learn_back(self, crops: Sequence[np.ndarray], back: FaceModel | None = None,
                   ) -> FaceModel:
        """Learn the back from crops of face-down tiles (any number of them), unless the
        caller learned it from them already (``back``)."""
        self.back = back if back is not None else FaceModel.learn(crops, self.settings)
        self._taught = TaughtCache()  # a new game or set: what its letters taught is anew
        return self.back

    def learn_reference(self, crops: Sequence[np.ndarray], back: FaceModel | None = None,
                        ) -> FaceModel:
        """Learn the back (unless given), and every cell's own look, from a frame where all
        tiles lie face down (``crops`` in cell order, cropped with the grid later frames are
        read with)."""
        self.refs = tuple(cell_refs(crops, self.settings))
        return self.learn_back(crops, back)

    def remember_backs(self, where: Sequence[int], crops: Sequence[np.ndarray],
                       cells: Sequence[CellReading], sure: float = 0.6) -> int:
        """Take each of the cells ``where`` read face down (``cells``, from ``crops``) as
        that cell's reference, where it has none yet: without a reference frame, the game's
        first frames show each back on this table, under this light, and later frames are
        then compared cell by cell as with one. Returns how many cells were learned."""
        refs: list[CellRef | None] = (list(self.refs) if self.refs is not None
                                      else [None] * CELLS)
        new = [(w, crop) for w, crop, c in zip(where, crops, cells, strict=True)
               if 0 <= w < len(refs) and refs[w] is None
               and c.state is CellState.HIDDEN and c.confidence >= sure]
        for (w, _), ref in zip(new, cell_refs([crop for _, crop in new], self.settings),
                               strict=True):
            refs[w] = ref
        if new:
            self.refs = tuple(refs)
        return len(new)

    def read(self, crops: Sequence[np.ndarray], cells: Sequence[int] | None = None,
             teachers: Sequence[Teacher] = (), elsewhere: Collection[str] = (),
             ) -> list[CellReading]:
        """Readings for ``crops`` of the cells ``cells`` (default: 0, 1, ...); without a
        learned back, it is inferred from these crops (so pass all 36 of a frame then).
        ``teachers`` are sure letters of other cells of the same frame, as (cell, crop,
        label like "E@90"): when only a few cells are re-read they teach like the frame's
        own sure letters would; ``elsewhere`` are the letters read on the cells not read
        now (the board as a whole says which letters show nowhere)."""
        where = list(range(len(crops))) if cells is None else list(cells)
        if len(where) != len(crops):
            raise TileError(f"{len(crops)} crops for {len(where)} cells")
        f = start(crops, where, self.refs, self.back, self.settings, self.alphabet)
        f.teachers, f.elsewhere = list(teachers), set(elsewhere)
        need = needs_letters(f)
        if need:
            got = self.letters.read_many([crops[i] for i in need], self.alphabet,
                                         second_look=False)
            f.readings = dict(zip(need, got, strict=True))
        if f.back is None:
            infer_the_back(f, self.letters)
        look_again(f, self.letters)
        find_faces(f)
        self_taught(f, self.letters, self._taught)
        f.out = [verdict(f, i) for i in range(len(crops))]
        if f.inferred:
            like_the_group(f)
        return self._settle(f)

    def _settle(self, f: FrameRead) -> list[CellReading]:
        """The open cells by likeness, a second round of teaching, the one-victim rule, and
        the set's counts."""
        up = [f.same[i] is False for i in range(len(f.crops))]
        candidates = by_likeness(f, up)
        candidates = taught_again(f, self.letters, candidates)
        candidates = by_elimination(f, candidates, self.letters)
        victims(f, candidates, self.victim)
        final = [o if o is not None else CellReading(CellState.UNSURE) for o in f.out]
        return within_the_set(final, self.settings)


__all__ = ["TileReader"]
