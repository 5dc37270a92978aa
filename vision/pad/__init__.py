"""Score pads without markers (a commercial Gewinnkarte, a printed or hand-ruled sheet): find
every table in a photo, trace its lines and read every cell (``read_pad``)."""

from vision.pad.reader import Cell, PadError, PadReading, Table, draw, read_pad

__all__ = ["Cell", "PadError", "PadReading", "Table", "draw", "read_pad"]
