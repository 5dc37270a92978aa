"""Pads filled in by hand and photographed, rendered: the training set and the yardstick.

Real handwritten digits (28x28 images with labels, e.g. MNIST's) are written into the
companion's own printed pad at a pen's size and stroke, with struck boxes and dashes, in
blue, black or pencil; the page is then "photographed": tilted in perspective, lit unevenly,
blurred, noised and JPEG-compressed. Every draw comes from the ``rng`` handed in, and every
mark's place on the page is returned, so the same renders train the reader (pieces labelled by
where they were written) and measure it (with digits it never saw).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.kniffel.dice import DEFAULT_DICE
from companion.games.kniffel.pad import Box, bonus_for
from companion.games.kniffel.written import possible_scores
from vision.glyphs.strokes import skeleton
from vision.kniffel_pad.layout import ROWS, Layout
from vision.kniffel_pad.reader import PX_PER_MM, PadReading
from vision.kniffel_pad.sheet import page_image

INKS = ((150, 60, 20), (40, 30, 30), (110, 110, 110), (170, 40, 40), (30, 30, 160))  # BGR
# "felt": MNIST's own strokes, thinned a little or not; "ballpoint": the digit's centre line
# drawn again as a line 0.4-0.7 mm wide (the game ships with ballpoints), far thinner for the
# digit's height than any MNIST stroke
PENS = ("felt", "ballpoint")
BALLPOINT_MM = (0.4, 0.7)  # a ballpoint line's width
# what each box may plausibly hold, to draw values from
RANGES = {"two": 24, "three": 30, "four": 24, "five": 30, "six": 36, "pair_of_words": 40,
          "three_words": 50, "full_house": 25, "street": 30, "kniffel": 50, "chance": 60}
# "wide": each box any number from 1 to its RANGES (the networks were trained so); "game":
# what a throw of the default dice can make there (a Full-House is 25), as players write
VALUES = ("wide", "game")
SUM_SLIPS = ("upper", "lower", "total")  # the sums a player may add up wrong


@dataclass(frozen=True)
class Mark:
    """One thing written: a digit ("0"-"9"), "-" or "/" and its box on the page (px)."""

    label: str
    bbox: tuple[int, int, int, int]
    column: int
    row: int


@dataclass(frozen=True)
class Filled:
    """A rendered pad: the photo, what each box holds (None blank, -1 struck), the marks."""

    photo: np.ndarray
    truth: dict[tuple[int, int], int | None]
    marks: tuple[Mark, ...]


def column_values(rng: np.random.Generator, fill: float, wrong_sum: bool = False,
                  any_number: bool = False, drawn: str = "wide", slip: bool = False,
                  wrong_in: str = "total") -> dict[str, int | None]:
    """A column as a player might write it: some boxes open, some struck (-1), sums added.
    ``any_number``: every number then redrawn as one of one to three digits, none likelier
    (training: a network that reads whole numbers should not learn only the game's totals).
    ``drawn``: one of :data:`VALUES`. ``slip``: one number is then one the box cannot hold
    by the rules (a Full-House written 35), added into the sums as written. ``wrong_sum``:
    one sum is added up wrong, the total, or with ``wrong_in`` "any" the upper, the lower
    or the total sum alike; a wrong subtotal is carried on into the bonus and the total, as
    the player goes on from what he wrote."""
    values: dict[str, int | None] = {}
    for row in ROWS:
        if row.is_sum:
            continue
        r = rng.random()
        values[row.key] = None if r > fill else (-1 if r < 0.1 * fill else
                                                 _points(rng, row.key, drawn))
    filled = [k for k, v in values.items() if v is not None and v > 0]
    if slip and filled:
        key = filled[int(rng.integers(0, len(filled)))]
        values[key] = played(possible_scores(Box(key), DEFAULT_DICE), rng, slip=True)
    upper = sum(max(0, values[k] or 0) for k in ("two", "three", "four", "five", "six"))
    lower = sum(max(0, v or 0) for k, v in values.items()
                if k not in ("two", "three", "four", "five", "six"))
    where, off = "total", 0  # the sum added up wrong, and by how much
    if wrong_sum:
        where = "total" if wrong_in == "total" else str(rng.choice(SUM_SLIPS))
        off = int(rng.choice([-10, -1, 1, 9, 10]))
        if where != "total" and {"upper": upper, "lower": lower}[where] + off < 0:
            off = -off  # nobody writes a sum below nothing
        upper, lower = upper + off * (where == "upper"), lower + off * (where == "lower")
    bonus = bonus_for(upper)
    values.update(upper=upper, bonus=bonus, lower=lower,
                  total=upper + bonus + lower + off * (where == "total"))
    if bonus == 0 and rng.random() < 0.4:
        values["bonus"] = -1  # a dash for "no bonus"
    for key, value in values.items() if any_number else ():
        if value is not None and value >= 0:
            places = int(rng.integers(1, 4))
            values[key] = int(rng.integers(10 ** (places - 1) if places > 1 else 0, 10 ** places))
    return values


def _points(rng: np.random.Generator, key: str, drawn: str) -> int:
    if drawn == "wide":
        return int(rng.integers(1, RANGES[key] + 1))
    return played(possible_scores(Box(key), DEFAULT_DICE), rng)


def played(can: frozenset[int], rng: np.random.Generator, slip: bool = False) -> int:
    """A number a player writes in a box that can hold ``can``: one of them (not 0, which is
    struck), or with ``slip`` one it cannot hold, from 1 to ten past the largest."""
    pool = ([v for v in range(1, max(can) + 11) if v not in can] if slip
            else sorted(can - {0}))
    return int(pool[int(rng.integers(0, len(pool)))])


def digit_glyph(bank: tuple[np.ndarray, np.ndarray], label: int, rng: np.random.Generator,
                height: int, pen: str = "felt", px_per_mm: float = PX_PER_MM) -> np.ndarray:
    """One handwritten digit of ``bank`` as ink (0..1) at a pen's size and stroke; shared with
    the markerless pads' renders (vision.pad.synth) so both write alike. ``px_per_mm``: the
    page's, for a ballpoint's width."""
    images, labels = bank
    choice = np.flatnonzero(labels == label)
    img = images[int(rng.choice(choice))].astype(np.float32) / 255.0
    ys, xs = np.nonzero(img > 0.1)
    img = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    scale = height / img.shape[0]
    w = max(2, round(img.shape[1] * scale * rng.uniform(0.85, 1.15)))
    out = cv2.resize(img, (w, height), interpolation=cv2.INTER_LINEAR)
    if pen == "ballpoint":
        return _ballpoint(out, rng, px_per_mm)
    thin = rng.uniform(0.0, 0.55)  # MNIST strokes are felt-pen wide; a finer felt pen
    out = np.clip((out - thin) / (1.0 - thin), 0.0, 1.0)
    if rng.random() < 0.15:
        out = cv2.dilate(out, np.ones((2, 2), np.uint8))
    return np.asarray(out, np.float32)


def _ballpoint(digit: np.ndarray, rng: np.random.Generator, px_per_mm: float) -> np.ndarray:
    """The digit as a ballpoint draws it: its centre line (Zhang and Suen's thinning, so
    every stroke is kept; thinning a felt stroke's ink instead loses the faint bar of a 5),
    as a line of even width with soft edges."""
    centre = skeleton((digit > 0.4).astype(np.uint8) * 255) > 0
    if not centre.any():
        return digit
    far = cv2.distanceTransform((~centre).astype(np.uint8), cv2.DIST_L2, 3)
    half = rng.uniform(*BALLPOINT_MM) * px_per_mm / 2
    return np.asarray(np.clip(half + 0.5 - far, 0.0, 1.0), np.float32)


def _write_number(ink: np.ndarray, rect: tuple[float, float, float, float], value: int,
                  bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
                  pen: str = "felt") -> list[tuple[str, tuple[int, int, int, int]]]:
    x, y, w, h = (v * PX_PER_MM for v in rect)
    height = round(h * rng.uniform(0.45, 0.72))
    glyphs = [digit_glyph(bank, int(c), rng, height, pen) for c in str(value)]
    gaps = [round(rng.uniform(-0.12, 0.25) * height) for _ in glyphs[1:]]
    total_w = sum(g.shape[1] for g in glyphs) + sum(gaps)
    if total_w > w * 0.9:  # write narrower in a narrow box, as people do
        shrink = w * 0.9 / total_w
        glyphs = [cv2.resize(g, (max(2, round(g.shape[1] * shrink)), g.shape[0])) for g in glyphs]
        gaps = [round(gp * shrink) for gp in gaps]
        total_w = sum(g.shape[1] for g in glyphs) + sum(gaps)
    cx = x + w / 2 + rng.uniform(-0.15, 0.15) * max(0.0, w - total_w)
    px = round(cx - total_w / 2)
    top = round(y + h / 2 - height / 2 + rng.uniform(-0.12, 0.12) * h)
    marks = []
    for i, g in enumerate(glyphs):
        dy = round(rng.uniform(-0.06, 0.06) * height)
        gy, gh, gw = top + dy, g.shape[0], g.shape[1]
        region = ink[gy:gy + gh, px:px + gw]
        np.maximum(region, g[:region.shape[0], :region.shape[1]], out=region)
        marks.append((str(value)[i], (px, gy, gw, gh)))
        px += gw + (gaps[i] if i < len(gaps) else 0)
    return marks


def _strike(ink: np.ndarray, rect: tuple[float, float, float, float],
            rng: np.random.Generator, pen: str = "felt"
            ) -> tuple[str, tuple[int, int, int, int]]:
    """A box struck out, with the same pen as its numbers: a ballpoint's stroke is as thin as
    its digits, a felt pen's as broad."""
    x, y, w, h = (v * PX_PER_MM for v in rect)
    kind = int(rng.integers(0, 4))
    m = rng.uniform(0.08, 0.2, 4)
    if kind == 0:  # a short dash (minus)
        cy = y + h * rng.uniform(0.4, 0.6)
        half = w * rng.uniform(0.12, 0.25)
        p0, p1 = (x + w / 2 - half, cy), (x + w / 2 + half, cy + rng.uniform(-2, 2))
    elif kind == 1:  # a stroke along the box
        cy = y + h * rng.uniform(0.35, 0.65)
        p0, p1 = (x + w * m[0], cy), (x + w * (1 - m[1]), cy + rng.uniform(-5, 5))
    elif kind == 2:  # /
        p0, p1 = (x + w * m[0], y + h * (1 - m[1])), (x + w * (1 - m[2]), y + h * m[3])
    else:  # \
        p0, p1 = (x + w * m[0], y + h * m[1]), (x + w * (1 - m[2]), y + h * (1 - m[3]))
    layer = np.zeros_like(ink)
    pts = (round(p0[0] * 4), round(p0[1] * 4)), (round(p1[0] * 4), round(p1[1] * 4))
    width = (max(2, round(rng.uniform(*BALLPOINT_MM) * PX_PER_MM)) if pen == "ballpoint"
             else int(rng.integers(5, 12)))
    cv2.line(layer, pts[0], pts[1], 1.0, width, cv2.LINE_AA, shift=2)
    np.maximum(ink, layer, out=ink)
    x0, x1 = sorted((p0[0], p1[0]))
    y0, y1 = sorted((p0[1], p1[1]))
    return ("-" if kind < 2 else "/"), (round(x0), round(y0), round(x1 - x0) + 1,
                                        round(y1 - y0) + 1)


def fill(layout: Layout, bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
         page: np.ndarray | None = None, fill_rate: float = 0.8, wrong: int | None = None,
         any_number: bool = False, pen: str = "felt", drawn: str = "wide",
         slip: int | None = None, wrong_in: str = "total"
         ) -> tuple[np.ndarray, dict[tuple[int, int], int | None], list[Mark]]:
    """The page (BGR, at PX_PER_MM) with every column filled; ``wrong`` a column whose
    total (or, ``wrong_in``, another sum) is written wrong, ``slip`` one with a number its
    box cannot hold; ``any_number`` and ``drawn`` as in :func:`column_values`; ``pen`` one
    of :data:`PENS`."""
    base = page if page is not None else page_image(layout, PX_PER_MM)
    ink = np.zeros(base.shape, np.float32)
    truth: dict[tuple[int, int], int | None] = {}
    marks: list[Mark] = []
    for column in range(layout.columns):
        values = column_values(rng, fill_rate, column == wrong, any_number, drawn,
                               column == slip, wrong_in)
        for row_index, row in enumerate(ROWS):
            value = values[row.key]
            truth[(column, row_index)] = value
            rect = layout.box(column, row_index)
            if value is None:
                continue
            written = ([_strike(ink, rect, rng, pen)] if value < 0
                       else _write_number(ink, rect, value, bank, rng, pen))
            marks += [Mark(label, bbox, column, row_index) for label, bbox in written]
    colour = np.array(INKS[int(rng.integers(0, len(INKS)))], np.float32)
    strength = rng.uniform(0.75, 1.0)
    paper = cv2.cvtColor(base, cv2.COLOR_GRAY2BGR).astype(np.float32)
    a = (ink * strength)[..., None]
    out = paper * (1 - a) + colour * a
    return np.clip(out, 0, 255).astype(np.uint8), truth, marks


def written(layout: Layout, values: dict[tuple[int, str], int],
            bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
            pen: str = "felt") -> np.ndarray:
    """The page (BGR) with exactly ``values`` written, by (column, row key); -1 strikes."""
    base = page_image(layout, PX_PER_MM)
    ink = np.zeros(base.shape, np.float32)
    rows = [r.key for r in ROWS]
    for (column, key), value in values.items():
        rect = layout.box(column, rows.index(key))
        if value < 0:
            _strike(ink, rect, rng, pen)
        else:
            _write_number(ink, rect, value, bank, rng, pen)
    paper = cv2.cvtColor(base, cv2.COLOR_GRAY2BGR).astype(np.float32)
    out = paper * (1 - ink[..., None]) + np.array(INKS[0], np.float32) * ink[..., None]
    return np.clip(out, 0, 255).astype(np.uint8)


def photograph(page: np.ndarray, rng: np.random.Generator, tilt: float = 0.05,
               scale: float = 1.25) -> np.ndarray:
    """The page as a camera above the table sees it: perspective, uneven light, blur. The
    frame leaves room round the page for its corners' jitter (``tilt``, a share of the
    page), so a steep view keeps the whole page in it."""
    h, w = page.shape[:2]
    room = 1 + 2 * tilt
    out_w, out_h = round(w * scale * max(1.25, room)), round(h * scale * max(1.1, room))
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    cx, cy = out_w / 2, out_h / 2
    dst = np.array([[cx + (sx - 0.5) * w * scale, cy + (sy - 0.5) * h * scale]
                    for sx, sy in ((0, 0), (1, 0), (1, 1), (0, 1))], np.float32)
    dst += (rng.uniform(-tilt, tilt, (4, 2)) * np.array([w, h]) * scale).astype(np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    table = tuple(float(v) for v in rng.uniform(40, 140, 3))
    img = cv2.warpPerspective(page, m, (out_w, out_h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=table)
    yy, xx = np.mgrid[0:out_h, 0:out_w].astype(np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    light = 1.0 - 0.35 * rng.random() * (0.5 + 0.5 * (gx * (xx / out_w - 0.5)
                                                       + gy * (yy / out_h - 0.5)) * 2)
    img = img.astype(np.float32) * np.clip(light, 0.45, 1.1)[..., None]
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.3))
    img += rng.normal(0, 3.0, img.shape).astype(np.float32)
    img8 = np.clip(img, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(75, 95))])
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)) if ok else img8


def filled_pad(layout: Layout, bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
               page: np.ndarray | None = None, wrong: int | None = None,
               pen: str = "felt") -> Filled:
    """A filled pad, photographed, with the truth of every box and every mark's place."""
    img, truth, marks = fill(layout, bank, rng, page, float(rng.uniform(0.6, 1.0)), wrong,
                             pen=pen)
    return Filled(photograph(img, rng), truth, tuple(marks))


@dataclass
class Score:
    """Boxes read right, by what they held: a number, a strike, nothing."""

    numbers: int = 0
    numbers_right: int = 0
    struck: int = 0
    struck_right: int = 0
    blank: int = 0
    blank_right: int = 0

    def add(self, truth: int | None, value: int | None, struck: bool) -> None:
        if truth is None:
            self.blank += 1
            self.blank_right += value is None and not struck
        elif truth < 0:
            self.struck += 1
            self.struck_right += struck
        else:
            self.numbers += 1
            self.numbers_right += value == truth and not struck

    @property
    def written(self) -> float:
        """Share of written boxes (numbers and strikes) read right."""
        n = self.numbers + self.struck
        return (self.numbers_right + self.struck_right) / n if n else 1.0


def score(reading: PadReading, truth: dict[tuple[int, int], int | None],
          into: Score | None = None) -> Score:
    out = into if into is not None else Score()
    for col in reading.columns:
        for row_index, row in enumerate(ROWS):
            box = col.boxes[row.key]
            out.add(truth[(col.column, row_index)], box.value, box.struck)
    return out


def in_shadow(photo: np.ndarray, top: float, bottom: float, light: float, soft: float
              ) -> np.ndarray:
    """``photo`` with a straight-edged shadow (``light`` of the light) over its left part,
    from ``top`` of its width along the top edge to ``bottom`` along the bottom, its edge
    blurred by ``soft`` px: a hand or a phone held over a pad under a lamp (any pad's
    photo: the benches and tests of both pad readers use it)."""
    h, w = photo.shape[:2]
    lit = np.ones((h, w), np.float32)
    cv2.fillPoly(lit, [np.array([[0, 0], [w * top, 0], [w * bottom, h], [0, h]], np.int32)],
                 light)
    shaded = np.clip(photo * cv2.GaussianBlur(lit, (0, 0), soft)[..., None], 0, 255)
    return shaded.astype(np.uint8)


def in_noise(photo: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """``photo`` with sensor noise of ``sigma`` grey levels a channel, before any smoothing:
    a dim room's photo (the markerless bench's ``--photo noise`` and its test)."""
    noisy = photo + rng.normal(0, sigma, photo.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8)


__all__ = ["PENS", "VALUES", "Filled", "Score", "score", "Mark", "column_values", "digit_glyph",
           "fill", "filled_pad", "in_noise", "in_shadow", "photograph", "played", "written"]
