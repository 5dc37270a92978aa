"""A photo of the printed pad in, every box and every sum check out: locate → rectify → read.

``locate`` finds the corner markers and the page's homography (or raises
:class:`PadNotFound`), ``rectify`` warps the photo onto the page at ``PX_PER_MM``,
``box_inks`` cuts every box's ink map, and ``read_pad`` glues them to the digit reader and
compares each written sum with the sum of the boxes read, by the game's own rules
(``companion.games.kniffel.pad.Pad``), so the pad and the referee never disagree on a bonus.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from companion.games.kniffel.dice import DEFAULT_DICE, DiceSet
from companion.games.kniffel.pad import (
    BOXES, UPPER, UPPER_BONUS, Pad, pen_first, settled_by_sums, sums_may_be,
)
from companion.games.kniffel.padcheck import BY_SUMS, SUM_PARTS, SURE
from companion.games.kniffel.written import possible_scores
from vision.ink import ink_map
from vision.kniffel_pad.digits import INSET_MM, BoxReading, DigitReader
from vision.kniffel_pad.layout import (
    PAGE_H, PAGE_W, ROWS, SUMS, Layout, PadSheetError, marker_corners,
)
from vision.kniffel_pad.sheet import DICTIONARY
from vision.photo import shrink

PX_PER_MM = 4.0
MIN_MARKERS = 3  # three corners fix the page; two would leave a fold or tilt unseen
# said where no marker of this pad is seen: a card sold in shops is read without markers
ELSEWHERE = "a score card without them: companion vision read-pad PHOTO --sums"


class PadNotFound(PadSheetError):
    """Too few of one pad's corner markers in the photo to know where the boxes are."""


@dataclass(frozen=True)
class Located:
    """The pad in a photo: its layout and the homography photo -> page pixels."""

    layout: Layout
    homography: np.ndarray
    markers: int


@dataclass(frozen=True)
class SumCheck:
    """A written sum against the boxes as read; ``sure`` when the sum and every box it adds
    were read as surely as the table needs to hold a finding against a player (one misread
    box of eleven is enough to flag a right total)."""

    written: int | None
    computed: int
    sure: bool = True

    @property
    def ok(self) -> bool | None:
        """None when nothing is written: a sum not yet added up is not an error."""
        return None if self.written is None else self.written == self.computed

    def view(self) -> dict[str, object]:
        return {"written": self.written, "computed": self.computed, "ok": self.ok,
                "sure": self.sure}


@dataclass(frozen=True)
class ColumnReading:
    column: int
    game: int
    player: int
    boxes: dict[str, BoxReading]
    sums: dict[str, SumCheck]

    def view(self) -> dict[str, object]:
        return {
            "column": self.column, "game": self.game, "player": self.player,
            "boxes": {k: v.view() for k, v in self.boxes.items() if k not in SUMS},
            "sums": {k: {**self.sums[k].view(), "confidence": round(self.boxes[k].confidence, 3)}
                     for k in SUMS},
        }


@dataclass(frozen=True)
class PadReading:
    layout: Layout
    columns: tuple[ColumnReading, ...]
    ms: float

    def view(self) -> dict[str, object]:
        return {"layout": {"players": self.layout.players, "games": self.layout.games},
                "players": [c.view() for c in self.columns], "ms": round(self.ms, 1)}


def _detector(quick: bool = False) -> cv2.aruco.ArucoDetector:
    """OpenCV's marker detector; ``quick`` thresholds the photo once (a 7 px window) instead
    of three times (3, 13 and 23 px): 10 ms instead of 26 on a camera-sized pad photo,
    whose handwriting gives many candidate outlines at every threshold."""
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    if quick:
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = 7
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(DICTIONARY), params)


def _markers(gray: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """The markers found: by one threshold when that finds all four corners of a pad, else
    by OpenCV's three (shade or glare over a marker)."""
    corners, ids, _ = _detector(quick=True).detectMarkers(gray)
    if ids is None or len(ids) < 4:
        corners, ids, _ = _detector().detectMarkers(gray)
    return [np.asarray(c) for c in corners], None if ids is None else np.asarray(ids)


def locate(image: np.ndarray) -> Located:
    """The pad's layout (from the markers' ids) and where its page lies in the photo."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners, ids = _markers(gray)
    if ids is None or len(ids) == 0:
        raise PadNotFound("no pad marker in the photo (is the whole pad in view?); " + ELSEWHERE)
    found = [(int(i), c.reshape(4, 2)) for i, c in zip(ids.ravel(), corners)]
    codes = Counter(i // 4 for i, _ in found if i < 48)
    if not codes:
        raise PadNotFound("markers in the photo, but none of a Wort-Kniffel pad; " + ELSEWHERE)
    code, count = codes.most_common(1)[0]
    if count < MIN_MARKERS:
        raise PadNotFound(f"only {count} of the pad's 4 corner markers found; "
                          "need the whole pad in view")
    src, dst = [], []
    for marker_id, pts in found:
        if marker_id // 4 != code:
            continue
        src += pts.tolist()
        dst += [(x * PX_PER_MM, y * PX_PER_MM) for x, y in marker_corners(marker_id % 4)]
    h, _ = cv2.findHomography(np.array(src, np.float32), np.array(dst, np.float32),
                             cv2.RANSAC, 3.0)
    if h is None:
        raise PadNotFound("the pad's markers do not agree on where the page is")
    return Located(Layout.from_code(code), np.asarray(h, np.float64), count)


def rectify(image: np.ndarray, located: Located) -> np.ndarray:
    """The page, gray, as if scanned flat at ``PX_PER_MM``."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    size = (round(PAGE_W * PX_PER_MM), round(PAGE_H * PX_PER_MM))
    return np.asarray(cv2.warpPerspective(gray, located.homography, size,
                                          flags=cv2.INTER_AREA, borderValue=255))


def box_rect(layout: Layout, column: int, row: int) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) in page pixels of a box's inside, clear of its printed lines."""
    x, y, w, h = layout.box(column, row)
    inset = INSET_MM
    return (round((x + inset) * PX_PER_MM), round((y + inset) * PX_PER_MM),
            round((x + w - inset) * PX_PER_MM), round((y + h - inset) * PX_PER_MM))


def box_inks(page: np.ndarray, layout: Layout) -> list[np.ndarray]:
    """Every box's ink map, column by column, row by row (``ROWS`` order)."""
    ink = ink_map(page)
    out = []
    for column in range(layout.columns):
        for row in range(len(ROWS)):
            x0, y0, x1, y1 = box_rect(layout, column, row)
            out.append(ink[y0:y1, x0:x1])
    return out


def check_sums(boxes: dict[str, BoxReading]) -> dict[str, SumCheck]:
    """Each written sum against the sum of the boxes as read, by the game's own pad. A sum
    that does not add up is sure only when it and its boxes were read surely and no one
    of their doubts (:class:`BoxReading`) would make it add up: a referee looks again at
    a hooked 1 before he calls a total wrong."""
    values = [boxes[b.value].value for b in BOXES]
    computed = Pad(tuple(values)).sums
    may_be = sums_may_be(values, [boxes[b.value].doubts for b in BOXES])
    checks = {}
    for k in SUMS:
        parts = (k, *(b.value for b in SUM_PARTS[k]))
        written = boxes[k]
        explained = written.value != computed[k] and (
            computed[k] in written.doubts or written.value in may_be[k])
        checks[k] = SumCheck(written.value, computed[k], not explained and all(
            boxes[r].confidence >= SURE for r in parts))
    return checks


def settle(boxes: dict[str, BoxReading]) -> dict[str, BoxReading]:
    """A column with the readings its written sums settle (``settled_by_sums``) read so:
    any box with doubts, and a sum read unsurely (a sum read surely is what the player
    wrote, right or wrong: it is what the check is for). A settled reading keeps the number
    the pen said among its doubts and is not sure (``BY_SUMS``). On the bench pads, 17 of
    26 misread numbers are settled so, none wrongly."""
    read = {k: (0 if r.struck else r.value) for k, r in boxes.items()}
    doubts = {k: r.doubts for k, r in boxes.items()
              if r.doubts and (k not in SUMS or r.confidence < SURE)}
    out = dict(boxes)
    for k, value in settled_by_sums(read, doubts).items():
        out[k] = replace(boxes[k], value=value, struck=False, confidence=BY_SUMS,
                         doubts=pen_first(read[k], boxes[k].doubts, value))
    return out


def _sumset(sets: list[frozenset[int]]) -> frozenset[int]:
    out = {0}
    for s in sets:
        out = {a + b for a in out for b in s}
    return frozenset(out)


@lru_cache(maxsize=8)
def may_hold(dice: DiceSet) -> tuple[frozenset[int], ...]:
    """What each row may hold, in ``ROWS`` order: a box what a throw of ``dice`` can make in
    it (or 0), a sum what those boxes can add up to, the bonus 0 or its points."""
    boxes = {b.value: possible_scores(b, dice) for b in BOXES}
    upper = _sumset([boxes[b.value] for b in UPPER])
    lower = _sumset([boxes[b.value] for b in BOXES if b not in UPPER])
    bonus = frozenset({0, UPPER_BONUS})
    sums = {"upper": upper, "bonus": bonus, "lower": lower,
            "total": _sumset([upper, bonus, lower])}
    return tuple(boxes[r.key] if r.key in boxes else sums[r.key] for r in ROWS)


def read_pad(image: np.ndarray, reader: DigitReader,
             dice: DiceSet | None = DEFAULT_DICE) -> PadReading:
    """Every box and sum of the pad in ``image`` (BGR or gray). ``dice``: the table's set,
    which says what each box may hold (a doubtful reading is weighed by it); None reads
    every number alike."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise PadSheetError("a photo must be a non-empty gray or BGR image")
    t0 = time.perf_counter()
    image, _ = shrink(image)  # the page is read at PX_PER_MM whatever the photo's size
    located = locate(image)
    layout = located.layout
    expect = None if dice is None else may_hold(dice) * layout.columns
    readings = reader.read_boxes(box_inks(rectify(image, located), layout), sums=True,
                                 expect=expect)
    columns = []
    for column in range(layout.columns):
        chunk = readings[column * len(ROWS):(column + 1) * len(ROWS)]
        boxes = settle({row.key: r for row, r in zip(ROWS, chunk)})
        game, player = layout.column_of(column)
        columns.append(ColumnReading(column, game, player, boxes, check_sums(boxes)))
    return PadReading(layout, tuple(columns), (time.perf_counter() - t0) * 1000.0)


__all__ = ["ColumnReading", "Located", "PX_PER_MM", "PadNotFound", "PadReading", "SumCheck",
           "box_inks", "box_rect", "check_sums", "locate", "may_hold", "read_pad", "rectify"]
