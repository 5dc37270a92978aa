"""A reading of a rendered sheet held against the render's truth (vision.pad.synth): the
tally the bench and the tests read the markerless pads by."""

from __future__ import annotations

from dataclasses import dataclass

from vision.pad.card import CellTruth
from vision.pad.reader import Cell, PadReading
from vision.pad.synth import TableTruth


@dataclass
class Score:
    """Tables found with the right rows x cols; handwritten cells read right, by kind; printed
    labels read as print."""

    tables: int = 0
    tables_right: int = 0
    numbers: int = 0
    numbers_right: int = 0
    numbers_unsure: int = 0
    struck: int = 0
    struck_right: int = 0
    blank: int = 0
    blank_right: int = 0
    labels: int = 0
    labels_right: int = 0  # read as print
    hand_as_print: int = 0  # handwritten or blank cells read as print (their number lost)

    def add(self, truth: tuple[TableTruth, ...], reading: PadReading | None,
            unsure: float = 0.5) -> None:
        """Cells are compared only in tables found with the right shape (a table found wrong,
        or a photo that gave no reading, counts every cell of it as missed)."""
        tables = list(reading.tables) if reading is not None else []
        for k, t in enumerate(truth):
            self.tables += 1
            got = tables[k] if k < len(tables) else None
            right = got is not None and (got.rows, got.cols) == (t.rows, t.cols)
            self.tables_right += right
            for r, row in enumerate(t.cells):
                for c, cell in enumerate(row):
                    read = got.cells[r][c] if right and got is not None else None
                    self._cell(cell, read, unsure)

    def _cell(self, cell: CellTruth, read: Cell | None, unsure: float) -> None:
        value, struck = (read.value, read.struck) if read is not None else (None, False)
        text, conf = (read.text, read.confidence) if read is not None else (None, 0.0)
        if cell.kind == "number":
            self.numbers += 1
            ok = read is not None and value == cell.value and not struck and text is None
            self.numbers_right += ok
            self.numbers_unsure += ok is False and read is not None and conf < unsure
        elif cell.kind == "struck":
            self.struck += 1
            self.struck_right += bool(struck)
        elif cell.kind == "blank":
            self.blank += 1
            self.blank_right += read is not None and value is None and not struck
        elif cell.kind == "label":
            self.labels += 1
            self.labels_right += read is not None and text is not None
        self.hand_as_print += cell.kind in ("number", "struck", "blank") and text is not None


__all__ = ["Score"]
