"""A photo of any score pad in, every table and every cell out: find → trace → read.

Cells are reported as printed, position by position: a cell spanning several lattice
positions (a title row across the table) is read once, at its top-left position, with
``span`` [rows, cols]; the positions it covers hold no reading and ``merged`` [r, c], the
position that holds it. A struck box (/, \\ or — through it) is ``struck: true`` with
``value: 0``, as on the printed pad; printed cells have ``text`` (the words when Tesseract
was asked to read them, else ""), handwritten and blank ones ``text: null``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision import VisionError
from vision.kniffel_pad.digits import JUNK, DigitReader, FirstLook, segment
from vision.pad.cells import (
    MARGIN_PX, Group, clean_ink, cut, groups, looks_printed, printed_cells, read_text,
)
from vision.pad.find import find_tables, gray_of, top_to_bottom
from vision.pad.lattice import Lattice, lattices
from vision.pad.rows import may_hold
from vision.photo import shrink

PRINTED_CONFIDENCE = 0.9  # the column/row vote's own, not a network's
# which way up a photo is: the inkiest handwritten cells, and how much more surely their
# marks must read as digits or strokes for the photo to be turned. On tune sheets (seeds 17
# and 31, 8 and 10 sheets, 24 cells) an upright photo read 0.08-0.32 surer as it is than
# upside down, an upside-down one 0.08-0.23 surer turned. Sideways is looked at only when
# the handwritten cells, as cut, are narrower than high in the median (TALL): upright tune
# sheets 1.43-2.27, the same turned a quarter 0.47-0.72
SAMPLE, TURN_MARGIN, TALL = 24, 0.03, 1.0


class PadError(VisionError):
    """A photo that is no image, or shows no table."""


@dataclass(frozen=True)
class Cell:
    value: int | None
    struck: bool
    text: str | None
    confidence: float
    span: tuple[int, int] = (1, 1)
    merged: tuple[int, int] | None = None
    doubts: tuple[int, ...] = ()  # numbers the pen may as well say (BoxReading.doubts)
    # where the sums settled the cell (vision.pad.sums.settle): the reading they replaced
    before: Cell | None = None

    def view(self) -> dict[str, object]:
        out: dict[str, object] = {"value": self.value, "struck": self.struck, "text": self.text,
                                  "confidence": round(self.confidence, 3)}
        if self.span != (1, 1):
            out["span"] = list(self.span)
        if self.merged is not None:
            out["merged"] = list(self.merged)
        return out


@dataclass(frozen=True)
class Table:
    corners: np.ndarray  # 4x2 photo px: TL, TR, BR, BL
    cells: tuple[tuple[Cell, ...], ...]
    lattice: Lattice
    scale: float = 1.0  # photo px per px the lattice was traced at

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def view(self) -> dict[str, object]:
        return {"rows": self.rows, "cols": self.cols,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
                "cells": [[c.view() for c in row] for row in self.cells]}


@dataclass(frozen=True)
class PadReading:
    """``turns``: quarter turns (counter-clockwise) the photo was given to read it upright;
    corners are in the photo as given."""

    tables: tuple[Table, ...]
    ms: float
    turns: int = 0

    def view(self) -> dict[str, object]:
        return {"tables": [t.view() for t in self.tables], "ms": round(self.ms, 1)}

    def decoded(self, reduce: int, ms: float) -> PadReading:
        """The reading of a photo that was decoded at 1/``reduce`` of its size, with its
        corners in the file's own pixels; ``ms``: the whole read, the decoding included."""
        tables = tuple(replace(t, corners=t.corners * reduce, scale=t.scale * reduce)
                       for t in self.tables)
        return replace(self, tables=tables, ms=ms)


def cut_cells(lat: Lattice, text: bool = False) -> tuple[dict[Group, np.ndarray], set[Group]]:
    """Every cell of the table cut out (as printed, merged cells once), and which are print;
    the digit network's training cuts its handwritten cells with this too. ``text``: a
    printed cell over several rows is cut a row high each, its words as large as a row's
    for Tesseract (:func:`cell_warp`); only text is read from it."""
    ink = clean_ink(lat)
    boxes = {g: cut(ink, lat, g) for g in groups(lat)}
    printed = printed_cells({g: looks_printed(b) for g, b in boxes.items()})
    for g in printed if text else ():
        if g.r1 > g.r0:
            boxes[g] = cut(ink, lat, g, tall=True)
    return boxes, printed


def _read_table(lat: Lattice, cells: tuple[dict[Group, np.ndarray], set[Group]],
                reader: DigitReader, text: bool, rules: bool,
                seen: FirstLook | None = None) -> Table:
    boxes, printed = cells
    cells_of = list(boxes)
    hand = [g for g in cells_of if g not in printed]
    labels = sorted(printed, key=lambda g: (g.r0, g.c0))
    words = dict(zip(labels, read_text([boxes[g] for g in labels]) if text
                     else [""] * len(printed)))
    expect = [_may_hold(g, words) for g in hand] if text and rules else None
    readings = dict(zip(hand, reader.read_boxes([boxes[g] for g in hand], signed=True,
                                                margin=MARGIN_PX, expect=expect,
                                                seen=seen)))
    grid: list[list[Cell | None]] = [[None] * lat.cols for _ in range(lat.rows)]
    for g in cells_of:
        span = (g.r1 - g.r0 + 1, g.c1 - g.c0 + 1)
        if g in printed:
            cell = Cell(None, False, words[g], PRINTED_CONFIDENCE, span)
        else:
            r = readings[g]
            cell = Cell(r.value, r.struck, None, r.confidence, span, doubts=r.doubts)
        for rr in range(g.r0, g.r1 + 1):
            for cc in range(g.c0, g.c1 + 1):
                grid[rr][cc] = cell if (rr, cc) == (g.r0, g.c0) else Cell(
                    None, False, None, 1.0, merged=(g.r0, g.c0))
    rows = tuple(tuple(c for c in row if c is not None) for row in grid)
    return Table(lat.photo_corners(), rows, lat)


def _may_hold(cell: Group, words: dict[Group, str]) -> frozenset[int] | None:
    """What a handwritten cell may hold by the printed labels left of it in its rows."""
    label = " ".join(w for g, w in words.items()
                     if g.c1 < cell.c0 and g.r0 <= cell.r1 and cell.r0 <= g.r1)
    return may_hold(label)


# a photo's tables, each traced and its cells cut
Found = list[tuple[Lattice, tuple[dict[Group, np.ndarray], set[Group]]]]


def _tables(image: np.ndarray, text: bool) -> Found:
    """Every table found in ``image`` (BGR or gray), traced, its cells cut."""
    gray = gray_of(image)
    lats = [lat for found in find_tables(gray) for lat in lattices(gray, found.quad, image)]
    return [(lat, cut_cells(lat, text)) for lat in lats]


def _hand(found: Found) -> list[np.ndarray]:
    return [b for _, (boxes, printed) in found for g, b in boxes.items() if g not in printed]


def _both_ways(inks: list[np.ndarray], reader: DigitReader
               ) -> tuple[float, float, FirstLook | None]:
    """How surely the marks of the inkiest cells read as digits or strokes as they are, and
    each turned upside down (the marks as cut, turned whole); 0, 0 without marks. Also what
    the cells' reading would ask again: those cells' marks and the network's answer for
    each mark as it is."""
    sample = sorted(inks, key=lambda b: -float(b.sum()))[:SAMPLE]
    firsts = [segment(b, whole_only=True) for b in sample]
    marks = [p.image for sg in firsts for p in sg.pieces]
    if not marks:
        return 0.0, 0.0, None
    level = np.asarray(marks, np.float32)
    both = reader.probs(np.concatenate([level, np.rot90(level, 2, axes=(1, 2))]))
    as_is, upside_down = both[:, :JUNK].max(axis=1).reshape(2, len(level)).mean(axis=1)
    answers = {m.tobytes(): p for m, p in zip(marks, both[:len(marks)])}  # the as-is half
    cuts = {b.tobytes(): sg for b, sg in zip(sample, firsts)}
    return float(as_is), float(upside_down), FirstLook(cuts, answers)


def upright(image: np.ndarray, found: Found, reader: DigitReader, text: bool
            ) -> tuple[int, Found | None, FirstLook | None]:
    """Quarter turns (counter-clockwise, as ``np.rot90``) that make the pad in ``image``
    upright. A pad on a table is often photographed from the far side or from beside it (a
    phone held flat does not know which way is up), and its digits tell: the marks of the
    inkiest cells read more surely as digits or strokes one way up than the others. Upside
    down is the marks as cut, turned whole; sideways, a number's digits stand one above the
    other in the cells, so the cells are cut again with the tables turned a quarter, but
    only when they stand taller than wide (``TALL``; score sheets have them wider). A
    turn is taken only when clearly surer than the photo as it is (``TURN_MARGIN``): 0, 1
    and 8 read alike both ways, and a good reading turned by mistake is lost whole. Also
    returns the tables turned a quarter, when they were looked at so, and what was learnt
    of the photo as it is (:func:`_both_ways`)."""
    hand = _hand(found)
    if not hand:
        return 0, None, None
    as_is, upside_down, seen = _both_ways(hand, reader)
    sure = {0: as_is, 2: upside_down}
    side = None
    if float(np.median([b.shape[1] / b.shape[0] for b in hand])) < TALL:
        side = _turned(found, image.shape, 1, text)
        sure |= dict(zip((1, 3), _both_ways(_hand(side), reader)[:2]))
    best = max(sure, key=lambda k: sure[k])
    return (best if sure[best] >= sure[0] + TURN_MARGIN else 0), side, seen


def _turned(found: Found, shape: tuple[int, ...], quarters: int, text: bool) -> Found:
    """The tables ``found`` in a photo (of ``shape``), as they lie in that photo turned
    ``quarters`` times (``np.rot90``): their lattices turned, their cells cut again, top to
    bottom there. A table is traced once, whichever way up the photo was taken."""
    lats = [lat.turned(shape, quarters) for lat, _ in found]
    return [(lat, cut_cells(lat, text)) for lat in top_to_bottom(lats, Lattice.photo_corners)]


def _unturn(points: np.ndarray, turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points of the photo turned ``turns`` times (``np.rot90``; ``shape`` the turned
    photo's) in the photo as given."""
    h, w = shape[:2]
    for _ in range(turns):
        points = np.stack([h - 1 - points[:, 1], points[:, 0]], axis=1)
        h, w = w, h
    return points


def read_pad(image: np.ndarray, reader: DigitReader, text: bool = False,
             rules: bool = True) -> PadReading:
    """Every table in ``image`` (BGR or gray), top to bottom of the pad read upright (a photo
    taken upside down or sideways is turned first, :func:`upright`); ``text`` runs Tesseract
    on the printed cells. Raises :class:`PadError` when the photo shows no table. With
    ``text`` and ``rules``, a Kniffel card's rows whose points the rules fix weigh a
    doubtful number by what they may hold (:mod:`vision.pad.rows`)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise PadError("a photo must be a non-empty gray or BGR image")
    t0 = time.perf_counter()
    image, scale = shrink(image)
    found = _tables(image, text)
    turns, side, seen = upright(image, found, reader, text)
    if turns:
        found = side if turns == 1 and side is not None else _turned(
            found, image.shape, turns, text)
        image = np.ascontiguousarray(np.rot90(image, turns))
        seen = None
    tables = []
    for lat, cells in found:
        table = _read_table(lat, cells, reader, text, rules, seen)
        corners = _unturn(table.corners, turns, image.shape) / scale
        tables.append(Table(corners, table.cells, table.lattice, 1 / scale))
    if not tables:
        raise PadError("no table in the photo (no grid of crossing lines found)")
    return PadReading(tuple(tables), (time.perf_counter() - t0) * 1000.0, turns)


def draw(image: np.ndarray, reading: PadReading) -> np.ndarray:
    """The photo, turned as it was read, with every table's lattice and what each cell was
    read as."""
    image = np.ascontiguousarray(np.rot90(image, reading.turns))
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    thick = max(1, image.shape[1] // 800)
    for t in reading.tables:
        lat = t.lattice
        pts = cv2.perspectiveTransform(lat.corners.reshape(-1, 1, 2).astype(np.float32),
                                       lat.to_photo).reshape(lat.rows + 1, lat.cols + 1, 2)
        pts = pts * t.scale
        for r, row in enumerate(t.cells):
            for c, cell in enumerate(row):
                if cell.merged is not None:
                    continue
                g = Group(r, c, r + cell.span[0] - 1, c + cell.span[1] - 1)
                q = np.array([pts[g.r0, g.c0], pts[g.r0, g.c1 + 1], pts[g.r1 + 1, g.c1 + 1],
                              pts[g.r1 + 1, g.c0]], np.int32)
                colour = (160, 160, 160) if cell.text is not None else (
                    (0, 0, 255) if cell.struck else (0, 170, 0))
                cv2.polylines(out, [q], True, colour, thick, cv2.LINE_AA)
                label = "T" if cell.text is not None else (
                    "X" if cell.struck else ("" if cell.value is None else str(cell.value)))
                at = (int(q[:, 0].min()) + 2, int(q[:, 1].max()) - 3)
                cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.4 * thick, (255, 0, 255),
                            thick, cv2.LINE_AA)
    return out


__all__ = ["Cell", "PadError", "PadReading", "Table", "cut_cells", "draw", "read_pad", "upright"]
