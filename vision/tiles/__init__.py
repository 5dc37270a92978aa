"""Read each cell of a located grid: face down, a letter (which, how turned) or the victim.

The back is the same on all 36 tiles, so it is learned rather than assumed: from a reference
frame where every tile lies face down (the game's first frame), from a taught profile, or,
without either, from the cells themselves: the largest group of alike cells when it is larger
than any letter's count in the set (8+), else the largest group (3+) of cells without letter
evidence. The victim is a picture: a face-up tile that is neither a letter nor the back. A
cell that fits none of these well is reported ``UNSURE`` with its best guess's confidence,
never silently guessed.

A read runs in stages of plain functions: compare each cell with its reference
(:mod:`~vision.tiles.reference`), measure its look (:mod:`~vision.tiles.appearance`), learn or
infer the back (:mod:`~vision.tiles.faces`), give each cell a first verdict
(:mod:`~vision.tiles.frame`), teach the frame's own letters (:mod:`~vision.tiles.teach`) and
settle what is left (:mod:`~vision.tiles.settle`). The thresholds they use are one
:class:`TileSettings`; what a game remembers between frames lives in the caller's
:class:`TileReader`.
"""

import numpy as np

from vision.tiles.appearance import Look
from vision.tiles.appearance import look as _look
from vision.tiles.cells import ALPHABET, CellReading, CellState, TileError
from vision.tiles.faces import FaceModel
from vision.tiles.reader import TileReader
from vision.tiles.reference import CellRef, against_reference, cell_ref
from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings
from vision.tiles.settle import settle_set


def look(crop: np.ndarray, settings: TileSettings = DEFAULT_SETTINGS) -> Look:
    """The appearance descriptor of one tile crop (BGR), with the default thresholds unless
    told otherwise (callers comparing against a :class:`FaceModel` use the same)."""
    return _look(crop, settings)


__all__ = ["ALPHABET", "DEFAULT_SETTINGS", "CellReading", "CellRef", "CellState", "FaceModel",
           "Look", "TileError", "TileReader", "TileSettings",
           "against_reference", "cell_ref", "look", "settle_set"]
