"""What the cell reader reports for one cell, and its error."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from vision import VisionError

ALPHABET = "MÖRDE"


class TileError(VisionError):
    """A back or victim model that cannot be built or loaded."""


class CellState(enum.Enum):
    HIDDEN = "hidden"
    LETTER = "letter"
    VICTIM = "victim"
    UNSURE = "unsure"


@dataclass(frozen=True)
class CellReading:
    """One cell: ``letter`` and ``rotation`` (degrees clockwise) only for letters."""

    state: CellState
    letter: str | None = None
    rotation: int = 0
    confidence: float = 0.0

    @property
    def char(self) -> str:
        """The cell in the board notation, '?' when unsure."""
        if self.state is CellState.HIDDEN:
            return "."
        if self.state is CellState.VICTIM:
            return "X"
        if self.state is CellState.LETTER and self.letter:
            return self.letter
        return "?"

    def to_json(self) -> dict[str, object]:
        return {"state": self.state.value, "letter": self.letter, "rotation": self.rotation,
                "confidence": round(self.confidence, 3)}


__all__ = ["ALPHABET", "CellReading", "CellState", "TileError"]
