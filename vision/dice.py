"""Find loose letter dice (or cubes in a tray) in a picture and read each top face.

Two stages, each a plain function of an image:

1. **find** (``vision.dice_find``): a small fully convolutional network marks every cube's
   centre and box size on a copy of the picture no larger than 640 px, so a 1640x1232 frame
   costs what a 640x480 one does. Cubes may touch, lie at any angle, sit in a tray or on cloth.
2. **read** (``vision.dice_read``): each box is cut from the full-resolution picture and read
   by a letter network fine-tuned on real cubes: A–Z, ``*`` for the diamond, or ``?`` when the
   calibrated confidence is below the threshold fitted on held-out TUNE photos (never a guess).
   A box the reader finds to be no face at all (a gap, the tray) is dropped, and so is one far
   smaller or larger than the dice read surely beside it: one set's dice are one size.

The corners are the face's outline where a bright (or dark) square blob is clear around the
centre, else the found box. The value digit Wort-Kniffel dice print beside the letter is read
for faces read sure (``vision.dice_value``); when there is none or it is unreadable the value
comes from ``dice_set``.

    found = read_dice(cv2.imread("table.jpg"), DEFAULT_DICE)
    [(d.letter, d.value) for d in found.dice]
"""

from __future__ import annotations

import dataclasses
import functools
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from companion.games.kniffel.dice import JOKER, DiceSet
from vision import VisionError
from vision.dice_find import Finder, Spot
from vision.dice_read import SYMBOLS, DiceReader, FaceReading
from vision.dice_value import TWINS, DigitReader, DigitReading, decide, shipped

UNSURE = "?"
# A set's dice are one size, so a die far smaller or larger than the dice read surely in the
# same picture is something else: a letter printed on a newspaper or a rug's pattern beside
# the tray. On TUNE, read by finders trained without the photo read, true dice lay within
# 0.63-1.55 of that size and the false ones left at 0.33-0.52 (and 1.8 and more among weaker
# peaks); the band keeps a margin on both sides.
SIZE_BAND = (0.6, 1.8)
# A face read as a rotation twin (``vision.dice_value.TWINS``) and showing no digit is ``?``
# when its twin has at least this share: more than the 1 % of sure answers the reader's
# threshold lets be wrong. Misread twins on renders left their partner 0.08 and more (the
# drawn N of the tests: Z 0.92, N 0.08); on TUNE 13 of 194 real N, Z, M and W cubes reach it.
TWIN_SHARE = 0.02

Point = tuple[float, float]


class DiceNotRead(VisionError):
    """The picture cannot be read for dice (not an image, too small)."""


@dataclass(frozen=True)
class Die:
    """One die as seen: ``letter`` A–Z, ``*`` or ``?``; pixel coordinates of the input."""

    letter: str
    value: int | None
    center: Point
    corners: tuple[Point, Point, Point, Point]
    confidence: float
    rotation: int  # the letter's quarter turn, clockwise (meaningless for O, X, ?)
    value_from: str | None = None  # "digit", "set", "digit-not-set", "rule" (the diamond) or None

    def to_json(self) -> dict[str, Any]:
        return {
            "letter": self.letter, "value": self.value, "value_from": self.value_from,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "confidence": round(self.confidence, 3),
        }


@dataclass(frozen=True)
class DiceFound:
    """Every die found in one picture, top to bottom then left to right, and the time taken."""

    dice: tuple[Die, ...]
    ms: float

    def to_json(self) -> dict[str, Any]:
        return {"dice": [d.to_json() for d in self.dice], "ms": round(self.ms, 1)}

    @property
    def letters(self) -> str:
        return "".join(d.letter for d in self.dice)


@dataclass(frozen=True)
class DiceModels:
    """The networks, loaded once and shared (each serialises its own calls); ``digits``
    None: the shipped value digit reader."""

    finder: Finder
    reader: DiceReader
    digits: DigitReader | None = None

    @classmethod
    def load(cls, profile: str | None = None, shared: bool = True) -> DiceModels:
        """The shipped networks; ``profile``: a reader taught the table's own set (``teach``).
        ``shared``: the process-wide copy; the table takes its own, so that the networks are
        let go with its reader when the game on the table reads something else."""
        if not shared:
            return cls(Finder.load(), DiceReader.load(profile or None))
        if not profile:
            return _shipped()
        return _with_profile(profile)


@functools.cache
def _shipped() -> DiceModels:
    return DiceModels(Finder.load(), DiceReader.load())


@functools.lru_cache(maxsize=2)
def _with_profile(profile: str) -> DiceModels:
    return DiceModels(_shipped().finder, DiceReader.load(profile))


def read_dice(
    image_bgr: np.ndarray,
    dice_set: DiceSet | None = None,
    *,
    models: DiceModels | None = None,
    min_score: float | None = None,
) -> DiceFound:
    """Every die in ``image_bgr`` (any size), its top face and its value: the printed digit
    when read sure, else ``dice_set``'s value for the letter (``vision.dice_value.decide``)."""
    t0 = time.perf_counter()
    image = _as_bgr(image_bgr)
    m = models if models is not None else DiceModels.load()
    values = dice_set.letter_values() if dice_set is not None else None
    found = [(die, reading) for die, _, reading in _found(image, m, values, min_score)]
    dice = _with_digits(image, found, m.digits if m.digits is not None else shipped(), values,
                        m.reader.min_confidence)
    return DiceFound(dice, (time.perf_counter() - t0) * 1000.0)


def _with_digits(image: np.ndarray, found: Sequence[tuple[Die, FaceReading]], digits: DigitReader,
                 values: dict[str, int] | None, sure_at: float) -> tuple[Die, ...]:
    """The dice with the value digits of the faces read sure and of rotation twins (only
    those are looked at); a twin is named by its digit's corner (``_twin_die``)."""
    twin = [_is_twin(r, sure_at) for _, r in found]
    look = [i for i, (d, _) in enumerate(found) if twin[i] or d.letter not in (UNSURE, JOKER)]
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    faces = [(found[i][1].best if twin[i] else found[i][0].letter, found[i][0].center,
              found[i][0].corners, found[i][0].rotation) for i in look]
    out = [d for d, _ in found]
    for i, face, p in zip(look, faces, digits.corners(gray, faces), strict=True):
        die, reading = found[i]
        if twin[i]:
            out[i] = _twin_die(die, reading, digits.twin(face[0], p), values)
        else:
            value, source = decide(die.letter, digits.decide(die.letter, p), values)
            out[i] = dataclasses.replace(die, value=value, value_from=source)
    return tuple(out)


def _is_twin(r: FaceReading, sure_at: float) -> bool:
    """A face read as one of two rotation twins (``TWINS``), the pair together sure. Every
    such face is named by its digit, not only those whose twin has a share: a rendered N with
    its 2, turned a quarter, was read Z at 0.92 with N at 0.001."""
    return r.best in TWINS and bool(r.shares) and _pair(r)[0] + _pair(r)[1] >= sure_at


def _pair(r: FaceReading) -> tuple[float, float]:
    """The shares of the letter read and of its twin."""
    return r.shares[SYMBOLS.index(r.best)], r.shares[SYMBOLS.index(TWINS[r.best][0])]


def _twin_die(die: Die, r: FaceReading, told: tuple[str, int, DigitReading] | None,
              values: dict[str, int] | None) -> Die:
    """A rotation twin named by its digit's corner. Without a digit, a face whose twin has a
    real share is named by the table's set when it holds only one of the two, else ``?``;
    never the likelier glyph, as both are one glyph."""
    partner, quarters = TWINS[r.best]
    mine, theirs = _pair(r)
    if told is not None:
        letter, turn, digit = told
    elif theirs < TWIN_SHARE:
        value, source = decide(die.letter, None, values)
        return dataclasses.replace(die, value=value, value_from=source)
    else:
        in_set = [x for x in (r.best, partner) if values is not None and x in values]
        if len(in_set) != 1:
            return dataclasses.replace(die, letter=UNSURE, value=None, value_from=None)
        letter, turn, digit = in_set[0], (0 if in_set[0] == r.best else quarters), None
    value, source = decide(letter, digit, values)
    return dataclasses.replace(die, letter=letter, value=value, value_from=source,
                               confidence=round(mine + theirs, 4), rotation=(die.rotation + 90 * turn) % 360)


def _found(image: np.ndarray, m: DiceModels, values: dict[str, int] | None,
           min_score: float | None) -> list[tuple[Die, np.ndarray, FaceReading]]:
    """Every die with its crop and reading, in reading order (rows from the top, then left
    to right)."""
    spots = m.finder.find(image, min_score)
    crops = [_crop(image, s) for s in spots]
    readings = m.reader.read_many(crops)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    faces = [(spot, reading, crop) for spot, reading, crop in zip(spots, readings, crops, strict=True)
             if 1.0 - reading.face < m.reader.drop_not_a_face]
    alike = one_size([s for s, _, _ in faces], [r.symbol is not None for _, r, _ in faces])
    out = [(_die(spot, reading, values, _outline(gray, spot)), crop, reading)
           for (spot, reading, crop), keep in zip(faces, alike, strict=True) if keep]
    out.sort(key=lambda dc: (round(dc[0].center[1] / max(8.0, _side(dc[0]))), dc[0].center[0]))
    return out


def one_size(spots: Sequence[Spot], sure: Sequence[bool],
             band: tuple[float, float] = SIZE_BAND) -> list[bool]:
    """Which found dice are of the picture's die size: the median side of the dice read
    surely (a sure letter vouches for a die), or of all of them when none is sure and there
    are at least three (a median of two says nothing). A picture of one die keeps it."""
    sides = [math.sqrt(s.w * s.h) for s in spots]
    ref = [side for side, ok in zip(sides, sure, strict=True) if ok]
    if not ref:
        ref = sides if len(sides) >= 3 else []
    if not ref:
        return [True] * len(sides)
    size = statistics.median(ref)
    return [band[0] * size <= side <= band[1] * size for side in sides]


def teach(image_bgr: np.ndarray, letters: Sequence[str],
          models: DiceModels | None = None) -> DiceReader:
    """The reader taught a photo of the table's own dice laid in a row, their letters given
    left to right (``*`` the diamond): the set's print is known from then on, as
    ``vision teach`` does for tiles. A row, because loose dice have no reading order a person
    and the finder would agree on."""
    m = models if models is not None else DiceModels.load()
    found = sorted(_found(_as_bgr(image_bgr), m, None, None), key=lambda dc: dc[0].center[0])
    if len(found) != len(letters):
        raise DiceNotRead(f"the photo shows {len(found)} dice, not the {len(letters)} given")
    return m.reader.taught([(crop, letter) for (_, crop, _), letter in zip(found, letters)])


def _die(spot: Spot, reading: FaceReading, values: dict[str, int] | None,
         corners: tuple[Point, Point, Point, Point]) -> Die:
    letter = reading.symbol if reading.symbol is not None else UNSURE
    value, source = decide(letter, None, values)
    return Die(letter, value, (spot.x, spot.y), corners, reading.confidence, reading.rotation, source)


def _side(d: Die) -> float:
    xs = [p[0] for p in d.corners]
    return (max(xs) - min(xs)) * 0.7


def _as_bgr(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise DiceNotRead("a picture must be a non-empty gray or BGR image array")
    if min(image.shape[:2]) < 16:
        raise DiceNotRead(f"picture too small: {image.shape[1]}x{image.shape[0]}")
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] == 1:
        return cv2.cvtColor(image[..., 0], cv2.COLOR_GRAY2BGR)
    return image


def _box(image: np.ndarray, s: Spot) -> tuple[int, int, int, int]:
    h, w = image.shape[:2]
    x0, y0 = int(round(max(0.0, s.x - s.w / 2))), int(round(max(0.0, s.y - s.h / 2)))
    x1, y1 = int(round(min(float(w), s.x + s.w / 2))), int(round(min(float(h), s.y + s.h / 2)))
    return x0, y0, max(x1, x0 + 4), max(y1, y0 + 4)


def _crop(image: np.ndarray, s: Spot) -> np.ndarray:
    x0, y0, x1, y1 = _box(image, s)
    return image[y0:y1, x0:x1]


def _outline(gray: np.ndarray, s: Spot) -> tuple[Point, Point, Point, Point]:
    """The face's four corners: the turned rectangle of the blob under the centre when it is
    clearly a square of the right size, else the found box (clockwise from top left)."""
    x0, y0, x1, y1 = _box(gray, s)
    fallback = ((float(x0), float(y0)), (float(x1), float(y0)), (float(x1), float(y1)), (float(x0), float(y1)))
    patch = gray[y0:y1, x0:x1]
    if min(patch.shape) < 12:
        return fallback
    _, bw = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    h, w = bw.shape
    if bw[h // 2 - h // 4: h // 2 + h // 4, w // 2 - w // 4: w // 2 + w // 4].mean() < 128:
        bw = 255 - bw  # a dark face with light ink
    contours, _ = cv2.findContours(bw, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return fallback
    c = max(contours, key=cv2.contourArea)
    (cx, cy), (rw, rh), ang = cv2.minAreaRect(c)
    area, fill = rw * rh, cv2.contourArea(c) / max(1.0, rw * rh)
    square = 0.75 < rw / max(rh, 1.0) < 1.33
    if not (square and fill > 0.8 and 0.3 * w * h < area < 1.05 * w * h
            and abs(cx - w / 2) < 0.2 * w and abs(cy - h / 2) < 0.2 * h):
        return fallback
    pts = cv2.boxPoints(((cx, cy), (rw, rh), ang)) + (x0, y0)
    return _clockwise(pts)


def _clockwise(pts: np.ndarray) -> tuple[Point, Point, Point, Point]:
    """Four points clockwise (in image coordinates) starting from the top-left-most."""
    c = pts.mean(axis=0)
    order = np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))
    p = pts[order]
    start = int(np.argmin(p[:, 0] + p[:, 1]))
    p = np.roll(p, -start, axis=0)
    q = [(float(x), float(y)) for x, y in p]
    return q[0], q[1], q[2], q[3]


def draw(image_bgr: np.ndarray, found: DiceFound | Sequence[Die]) -> np.ndarray:
    """A copy of the picture with each die's outline and reading (green sure, orange ``?``)."""
    out = _as_bgr(image_bgr).copy()
    dice = found.dice if isinstance(found, DiceFound) else tuple(found)
    thick = max(1, out.shape[1] // 600)
    for d in dice:
        colour = (0, 200, 0) if d.letter != UNSURE else (0, 160, 255)
        cv2.polylines(out, [np.asarray(d.corners, np.int32)], True, colour, thick, cv2.LINE_AA)
        label = d.letter + (str(d.value) if d.value is not None and d.letter != JOKER else "")
        org = (int(d.center[0]) - 6 * thick, int(d.center[1]) + 5 * thick)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick, (0, 0, 0), 3 * thick, cv2.LINE_AA)
        cv2.putText(out, label, org, cv2.FONT_HERSHEY_SIMPLEX, 0.5 * thick, colour, thick, cv2.LINE_AA)
    return out


__all__ = ["DiceFound", "DiceModels", "DiceNotRead", "Die", "SIZE_BAND", "UNSURE", "draw", "one_size",
           "read_dice", "teach"]
