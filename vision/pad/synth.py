"""Commercial-style score pads without markers, filled by hand and photographed: the yardstick.

A sheet holds one table (a Gewinnkarte: a label column of printed texts and 1-6 player
columns) or two (its upper and lower halves); its style sets the font, the printed lines
(thin and thick, grey, black or coloured), tinted rows, a title row spanning the width, or a
sheet ruled by hand with wobbly pen lines, or a second label column saying how each row is
scored, as on a Gewinnkarte as sold. Cells are filled with real handwritten digits
(``vision.kniffel_pad.synth.digit_glyph``, from the bank handed in: the bench and tests hand
in the digits the network never trained on), minus signs, and boxes struck with /, \\ or —,
each column in its own ink; the sum rows, if asked, as a player adds them up
(``vision.pad.card``). The photo adds a curl (a smooth displacement field), perspective,
uneven light and a shadow, blur, noise and JPEG. The ``heldout`` style family is never used
while tuning the reader; the bench reports it apart. A reading is held against the truth by
``vision.pad.score.Score``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.kniffel_pad.synth import INKS, digit_glyph
from vision.pad.card import LOWER, NAMED, SUM_ROWS, UPPER, CellTruth, box_value, sum_cell
from vision.pad.paper import blank

PX = 6.0  # page pixels per mm
# the share of the frame the sheet takes (its longer fit): a photo taken to read the card;
# bench/pad_bench.py --photo far takes it from further off
FILL = (0.75, 0.92)
Colour = tuple[int, int, int]
FONT_DIRS = (Path("/usr/share/fonts"),)


@dataclass(frozen=True)
class Style:
    """How a sheet is printed (or ruled)."""

    name: str
    family: Literal["tune", "heldout"]
    font: str  # a font file's name
    line: Colour
    thin: float  # mm
    thick: float  # mm
    hand_ruled: bool = False
    tint: Colour | None = None  # sum rows (or every other row) tinted
    title: bool = False  # a title row spanning every column
    halves: float = 0.3  # chance of two tables on the sheet
    described: bool = False  # a second label column: how each row is scored (:data:`NAMED`)


STYLES = (
    Style("gewinnkarte", "tune", "LiberationSans-Regular.ttf", (40, 40, 40), 0.2, 0.6,
          tint=(215, 230, 240), title=True),
    Style("halves", "tune", "DejaVuSans.ttf", (90, 90, 90), 0.3, 0.5, halves=1.0),
    Style("hand-ruled", "tune", "FreeSerifItalic.ttf", (140, 60, 20), 0.45, 0.45,
          hand_ruled=True, halves=0.2),
    Style("ledger", "heldout", "C059-Roman.otf", (150, 120, 40), 0.18, 0.5,
          tint=(225, 240, 225), title=True, halves=0.4),
    Style("described", "tune", "DejaVuSansCondensed.ttf", (30, 60, 120), 0.25, 0.6,
          tint=(240, 225, 200), title=True, halves=0.2, described=True),
)


def styles(family: str) -> list[Style]:
    return [s for s in STYLES if s.family == family]


@dataclass(frozen=True)
class TableTruth:
    rows: int
    cols: int
    corners: np.ndarray  # 4x2, photo px: top-left, top-right, bottom-right, bottom-left
    cells: tuple[tuple[CellTruth, ...], ...]


@dataclass(frozen=True)
class Rendered:
    photo: np.ndarray
    tables: tuple[TableTruth, ...]
    style: str


@dataclass
class Marks:
    """Where every handwritten mark lies, for training the digit network on what this
    reader cuts: ``ids`` numbers each mark's pixels on the page (0: none), ``classes[id-1]``
    is its class (a digit, 10 a dash or minus, 11 a slash); ``photo`` is ``ids`` as the
    camera saw it (set by :func:`photograph`)."""

    ids: np.ndarray
    classes: list[int]
    photo: np.ndarray | None = None

    def add(self, where: np.ndarray, top: int, left: int, cls: int) -> None:
        """A mark: the pixels of ``where`` (a bool patch) placed at (top, left)."""
        region = self.ids[top:top + where.shape[0], left:left + where.shape[1]]
        self.classes.append(cls)
        region[where[:region.shape[0], :region.shape[1]]] = len(self.classes)


@lru_cache(maxsize=16)
def _font_path(name: str) -> str | None:
    for folder in FONT_DIRS:
        for path in folder.rglob(name):
            return str(path)
    return None


def _font(name: str, px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = _font_path(name)
    return ImageFont.truetype(path, px) if path else ImageFont.load_default()


@dataclass
class _Table:
    """One table on the page (mm): its column edges, row edges and truth while drawing."""

    xs: list[float]
    ys: list[float]
    title: bool
    header: int  # index of the header row
    labels: int  # label columns (the row's name; how it is scored)
    sums: int  # index of the first sum row
    cells: list[list[CellTruth]]


def _plan(style: Style, rng: np.random.Generator) -> tuple[list[_Table], float, float]:
    """Tables and the page size (mm): widths, heights and row counts drawn from the style."""
    players = int(rng.integers(1, 7))
    label_w = rng.uniform(28, 42)
    desc_w = rng.uniform(26, 36) if style.described else 0.0
    col_w = rng.uniform(11, 18) if players > 3 else rng.uniform(13, 22)
    row_h = rng.uniform(6.5, 9.5)
    halves = rng.random() < style.halves
    parts = [UPPER, LOWER] if halves else [UPPER + LOWER]
    margin, gap = rng.uniform(6, 14), rng.uniform(8, 18)
    tables, y = [], margin
    for i, labels in enumerate(parts):
        title = style.title and i == 0
        n_rows = len(labels) + 1 + title
        left = margin + label_w + desc_w
        xs = [margin, margin + label_w] + [left] * style.described + [
            left + (k + 1) * col_w for k in range(players)]
        ys = [y + k * row_h for k in range(n_rows + 1)]
        if style.hand_ruled:
            xs = [x + rng.uniform(-0.08, 0.08) * col_w * (0 < k < len(xs) - 1)
                  for k, x in enumerate(xs)]
            ys = [v + rng.uniform(-0.1, 0.1) * row_h * (0 < k < len(ys) - 1)
                  for k, v in enumerate(ys)]
        sums = int(title) + 1 + len(labels) - 3  # the last three rows are sums
        tables.append(_Table(xs, ys, title, int(title), 1 + style.described, sums, []))
        y = ys[-1] + gap
    return tables, xs[-1] + margin, y - gap + margin


def _line(page: np.ndarray, p0: tuple[float, float], p1: tuple[float, float], colour: Colour,
          width_mm: float, wobble: float, rng: np.random.Generator) -> None:
    """A printed line, or a pen line ruled by hand (``wobble`` mm of waviness)."""
    n = 24 if wobble else 2
    t = np.linspace(0.0, 1.0, n)
    pts = np.stack([p0[0] + (p1[0] - p0[0]) * t, p0[1] + (p1[1] - p0[1]) * t], axis=1)
    if wobble:
        normal = np.array([p0[1] - p1[1], p1[0] - p0[0]]) / max(1e-6, float(np.hypot(
            p1[0] - p0[0], p1[1] - p0[1])))
        phase, freq = rng.uniform(0, 6.3, 2), rng.uniform(1.0, 3.0, 2)
        off = wobble * (0.6 * np.sin(freq[0] * 6.3 * t + phase[0])
                        + 0.4 * np.sin(freq[1] * 13 * t + phase[1]))
        pts = pts + off[:, None] * normal[None, :]
    pix = np.round(pts * PX * 16).astype(np.int32)
    width = max(1, round(width_mm * PX))
    cv2.polylines(page, [pix], False, colour, width, cv2.LINE_AA, shift=4)


def _draw_grid(page: np.ndarray, t: _Table, style: Style, rng: np.random.Generator) -> None:
    wob = rng.uniform(0.2, 0.6) if style.hand_ruled else 0.0

    def over() -> float:
        return float(rng.uniform(-0.5, 2.5)) if style.hand_ruled else 0.0

    if style.tint is not None:
        for r in range(len(t.ys) - 1):
            if r >= t.sums or (style.name == "ledger" and r % 2):
                y0, y1 = round(t.ys[r] * PX), round(t.ys[r + 1] * PX)
                page[y0:y1, round(t.xs[0] * PX):round(t.xs[-1] * PX)] = style.tint
    for r, y in enumerate(t.ys):
        thick = r in (0, len(t.ys) - 1, t.header + 1, t.sums) or (t.title and r == 1)
        _line(page, (t.xs[0] - over(), y), (t.xs[-1] + over(), y), style.line,
              style.thick if thick else style.thin, wob, rng)
    for c, x in enumerate(t.xs):
        thick = c in (0, t.labels, len(t.xs) - 1)
        top = t.ys[0] if (c in (0, len(t.xs) - 1) or not t.title) else t.ys[1]
        _line(page, (x, top - over()), (x, t.ys[-1] + over()), style.line,
              style.thick if thick else style.thin, wob, rng)


def _text(layer: Image.Image, style: Style, text: str, box: tuple[float, ...],
          centre: bool, rng: np.random.Generator) -> None:
    x0, y0, x1, y1 = (v * PX for v in box)
    size = round((y1 - y0) * rng.uniform(0.42, 0.55))
    font = _font(style.font, size)
    draw = ImageDraw.Draw(layer)
    while size > 6 and draw.textlength(text, font=font) > (x1 - x0) * 0.92:
        size -= 1
        font = _font(style.font, size)
    w = draw.textlength(text, font=font)
    x = x0 + ((x1 - x0 - w) / 2 if centre else 1.5 * PX)
    draw.text((x, (y0 + y1) / 2), text, fill=255, font=font, anchor="lm")


def _write(ink: np.ndarray, box: tuple[float, ...], value: int,
           bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
           marks: Marks | None = None, pen: str = "felt") -> None:
    """A handwritten number (a minus as a short bar before it), sometimes over the line."""
    x0, y0, x1, y1 = (v * PX for v in box)
    w, h = x1 - x0, y1 - y0
    height = round(h * rng.uniform(0.5, 0.78))
    glyphs = [digit_glyph(bank, int(c), rng, height, pen, PX) for c in str(abs(value))]
    if value < 0:
        bar = np.zeros((height, max(4, round(height * rng.uniform(0.35, 0.55)))), np.float32)
        cy = height // 2 + int(rng.integers(-2, 3))
        bar[max(0, cy - 1):cy + 2, :] = 1.0
        glyphs.insert(0, bar)
    gaps = [round(rng.uniform(-0.08, 0.25) * height) for _ in glyphs[1:]] + [0]
    total = sum(g.shape[1] for g in glyphs) + sum(gaps)
    if total > 0.88 * w:
        k = 0.88 * w / total
        glyphs = [cv2.resize(g, (max(2, round(g.shape[1] * k)), g.shape[0])) for g in glyphs]
        gaps = [round(g * k) for g in gaps]
        total = sum(g.shape[1] for g in glyphs) + sum(gaps)
    px = round(x0 + w / 2 - total / 2 + rng.uniform(-0.15, 0.15) * max(0.0, w - total))
    shift = rng.uniform(0.12, 0.3) if rng.random() < 0.15 else rng.uniform(-0.1, 0.1)
    top = round(y0 + h / 2 - height / 2 + shift * h)
    classes = ([10] if value < 0 else []) + [int(c) for c in str(abs(value))]
    for g, gap, cls in zip(glyphs, gaps, classes):
        gy = top + round(rng.uniform(-0.05, 0.05) * height)
        region = ink[gy:gy + g.shape[0], px:px + g.shape[1]]
        np.maximum(region, g[:region.shape[0], :region.shape[1]], out=region)
        if marks is not None:
            marks.add(g > 0.3, gy, px, cls)
        px += g.shape[1] + gap


def _strike(ink: np.ndarray, box: tuple[float, ...], rng: np.random.Generator,
            marks: Marks | None = None) -> None:
    x0, y0, x1, y1 = (v * PX for v in box)
    w, h = x1 - x0, y1 - y0
    m = rng.uniform(0.06, 0.2, 4)
    kind = int(rng.integers(0, 3))
    if kind == 0:  # — along the box
        cy = y0 + h * rng.uniform(0.35, 0.65)
        p0, p1 = (x0 + w * m[0], cy), (x1 - w * m[1], cy + rng.uniform(-0.15, 0.15) * h)
    elif kind == 1:  # /
        p0, p1 = (x0 + w * m[0], y1 - h * m[1]), (x1 - w * m[2], y0 + h * m[3])
    else:  # \
        p0, p1 = (x0 + w * m[0], y0 + h * m[1]), (x1 - w * m[2], y1 - h * m[3])
    layer = np.zeros_like(ink)
    a = (round(p0[0] * 4), round(p0[1] * 4))
    b = (round(p1[0] * 4), round(p1[1] * 4))
    cv2.line(layer, a, b, 1.0, max(2, round(h * rng.uniform(0.04, 0.09))), cv2.LINE_AA, shift=2)
    np.maximum(ink, layer, out=ink)
    if marks is not None:
        marks.add(layer > 0.3, 0, 0, 10 if kind == 0 else 11)


def _fill(t: _Table, labels: tuple[str, ...], style: Style, layer: Image.Image,
          inks: list[np.ndarray], bank: tuple[np.ndarray, np.ndarray],
          rng: np.random.Generator, fill: float, marks: Marks | None = None,
          pen: str = "felt", sums: list[dict[str, int]] | None = None,
          played: bool = False) -> None:
    """Every cell of one table; ``sums``: each player column's boxes and sums, carried from
    the sheet's upper table to its lower one, when the sum rows are added up; ``played``:
    as in :func:`render_sheet`."""
    rows, cols = len(t.ys) - 1, len(t.xs) - 1
    t.cells = [[CellTruth("blank") for _ in range(cols)] for _ in range(rows)]
    if t.title:
        _text(layer, style, "KNIFFEL  Gewinnkarte", (t.xs[0], t.ys[0], t.xs[-1], t.ys[1]),
              True, rng)
        t.cells[0] = [CellTruth("label", text="KNIFFEL Gewinnkarte")] + [
            CellTruth("merged") for _ in range(cols - 1)]
    h, first = t.header, t.labels
    for c in range(first, cols):
        name = f"Spiel {c - first + 1}"
        _text(layer, style, name, (t.xs[c], t.ys[h], t.xs[c + 1], t.ys[h + 1]), True, rng)
        t.cells[h][c] = CellTruth("label", text=name)
    for i, label in enumerate(labels):
        r = h + 1 + i
        box = (t.xs[0], t.ys[r], t.xs[1], t.ys[r + 1])
        _text(layer, style, label, box, False, rng)
        t.cells[r][0] = CellTruth("label", text=label)
        if t.labels > 1:
            text = NAMED[label]
            _text(layer, style, text, (t.xs[1], t.ys[r], t.xs[2], t.ys[r + 1]), False, rng)
            t.cells[r][1] = CellTruth("label", text=text)
        for c in range(first, cols):
            u = rng.random()
            box = (t.xs[c], t.ys[r], t.xs[c + 1], t.ys[r + 1])
            if sums is not None and label in SUM_ROWS:
                t.cells[r][c] = cell = sum_cell(label, sums[c - first], u, fill, rng)
                if cell.kind == "struck":
                    _strike(inks[c - first], box, rng, marks)
                elif cell.kind == "number":
                    _write(inks[c - first], box, int(cell.value or 0), bank, rng, marks, pen)
                continue
            if u > fill:
                continue
            if u < 0.09 * fill and r < t.sums:
                _strike(inks[c - first], box, rng, marks)
                t.cells[r][c] = CellTruth("struck", 0)
            else:
                value = box_value(rng, r >= t.sums and sums is None, label if played else None)
                _write(inks[c - first], box, value, bank, rng, marks, pen)
                t.cells[r][c] = CellTruth("number", value)
                if sums is not None:
                    sums[c - first]["upper" if label in UPPER else "lower"] += value


def render_sheet(style: Style, bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
                 marks: Marks | None = None, pen: str = "felt", adding_up: bool = False,
                 played: bool = False, squared: bool = False) -> tuple[np.ndarray, list[_Table]]:
    """The filled sheet, flat (BGR at ``PX``), and its tables in mm; ``marks`` (its ids
    left empty) is filled with where every handwritten mark went; ``pen`` as
    :data:`vision.kniffel_pad.synth.PENS`; ``adding_up``: the sum rows hold what the player
    added up (:func:`vision.pad.card.sum_cell`), else numbers drawn like the others';
    ``played``: the boxes hold what the Kniffel rules give there
    (:func:`vision.pad.card.box_value`), else any number up to 50; ``squared``: on squared
    paper (:func:`vision.pad.paper.blank`)."""
    tables, w_mm, h_mm = _plan(style, rng)
    size = (round(h_mm * PX), round(w_mm * PX))
    if marks is not None:
        marks.ids = np.zeros(size, np.int32)
    page = blank(size, PX, rng, squared)
    layer = Image.new("L", (size[1], size[0]), 0)
    players = len(tables[0].xs) - 1 - tables[0].labels
    inks = [np.zeros(size, np.float32) for _ in range(players)]
    parts = [UPPER, LOWER] if len(tables) == 2 else [UPPER + LOWER]
    fill = float(rng.uniform(0.5, 1.0))
    sums = [{"upper": 0, "lower": 0} for _ in range(players)] if adding_up else None
    for t, labels in zip(tables, parts):
        _draw_grid(page, t, style, rng)
        _fill(t, labels, style, layer, inks, bank, rng, fill, marks, pen, sums, played)
    out = page.astype(np.float32)
    printed = np.asarray(layer, np.float32)[..., None] / 255.0
    out = out * (1 - printed) + np.array([25, 25, 25], np.float32) * printed
    for ink in inks:
        colour = np.array(INKS[int(rng.integers(0, len(INKS)))], np.float32)
        a = ink[..., None] * rng.uniform(0.75, 1.0)
        out = out * (1 - a) + colour * a
    return np.clip(out, 0, 255).astype(np.uint8), tables


def _curl(shape: tuple[int, int], rng: np.random.Generator, amount: float) -> np.ndarray:
    """A smooth displacement field (page px, HxWx2): a page that is not lying flat."""
    h, w = shape
    coarse = rng.normal(0, 1, (3, 4, 2)).astype(np.float32)
    field = np.asarray(cv2.resize(coarse, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    field[..., 1] += rng.uniform(-1.5, 1.5) * (xx ** 2 - 0.33)  # a bent card
    peak = float(np.abs(field).max()) or 1.0
    out: np.ndarray = field * (amount * max(h, w) / peak)
    return out


def photograph(page: np.ndarray, tables: list[_Table], rng: np.random.Generator,
               size: tuple[int, int] = (1640, 1232), tilt: float = 0.04,
               curl: float = 0.008, marks: Marks | None = None,
               fill: tuple[float, float] = FILL) -> tuple[np.ndarray, list[np.ndarray]]:
    """The sheet seen by a camera (``size`` w x h): curl, perspective, light, blur, JPEG;
    with each table's corners in the photo (and ``marks.photo``, the marks seen there).
    ``fill``: the range of the frame's share the sheet's longer fit takes."""
    ph, pw = page.shape[:2]
    ow, oh = size
    scale = min(ow / pw, oh / ph) * rng.uniform(*fill)
    angle = np.deg2rad(rng.uniform(-6, 6))
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64)
    dst = (src - [pw / 2, ph / 2]) @ rot.T * scale + [ow / 2, oh / 2]
    dst += rng.uniform(-tilt, tilt, (4, 2)) * np.array([pw, ph]) * scale
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
    field = _curl((ph, pw), rng, curl)
    yy, xx = np.mgrid[0:oh, 0:ow].astype(np.float32)
    back = cv2.perspectiveTransform(np.stack([xx, yy], -1).reshape(-1, 1, 2),
                                    np.linalg.inv(m)).reshape(oh, ow, 2)
    d = cv2.remap(field, back[..., 0], back[..., 1], cv2.INTER_LINEAR,
                  borderMode=cv2.BORDER_REPLICATE)
    bg = tuple(float(v) for v in rng.uniform(40, 150, 3))
    img = cv2.remap(page, back[..., 0] + d[..., 0], back[..., 1] + d[..., 1],
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=bg)
    if marks is not None:
        marks.photo = cv2.remap(marks.ids.astype(np.float32), back[..., 0] + d[..., 0],
                                back[..., 1] + d[..., 1], cv2.INTER_NEAREST).astype(np.int32)
    corners = []
    for t in tables:
        pts = np.array([[t.xs[0], t.ys[0]], [t.xs[-1], t.ys[0]], [t.xs[-1], t.ys[-1]],
                        [t.xs[0], t.ys[-1]]]) * PX
        q = pts.copy()
        for _ in range(3):  # q + field(q) = pts
            qi = np.clip(np.round(q).astype(int), 0, [pw - 1, ph - 1])
            q = pts - field[qi[:, 1], qi[:, 0]]
        corners.append(cv2.perspectiveTransform(q.reshape(-1, 1, 2).astype(np.float32),
                                                m).reshape(4, 2))
    return _light(img, rng), corners


def _light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, a soft shadow, blur, sensor noise and JPEG."""
    oh, ow = img.shape[:2]
    small = np.ones((oh // 8, ow // 8), np.float32)
    gx, gy = rng.uniform(-1, 1, 2)
    yy, xx = np.mgrid[0:oh // 8, 0:ow // 8].astype(np.float32)
    small *= 1.0 - 0.3 * rng.random() * (1 + gx * (xx / (ow / 8) - 0.5) + gy * (
        yy / (oh / 8) - 0.5))
    if rng.random() < 0.6:
        shadow = np.zeros_like(small)
        c = (int(rng.integers(0, ow // 8)), int(rng.integers(0, oh // 8)))
        axes = (int(rng.integers(ow // 40, ow // 12)), int(rng.integers(oh // 30, oh // 10)))
        cv2.ellipse(shadow, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(2.0, ow / 8 / 60))
        small *= 1.0 - rng.uniform(0.2, 0.45) * shadow
    light = cv2.resize(np.clip(small, 0.4, 1.1), (ow, oh), interpolation=cv2.INTER_LINEAR)
    out = img.astype(np.float32) * light[..., None]
    out = np.asarray(cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.1) * max(1.0, ow / 1640)),
                     np.float32)
    out += rng.normal(0, 3.0, out.shape).astype(np.float32)
    img8 = np.clip(out, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 93))])
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)) if ok else img8


def render(style: Style, bank: tuple[np.ndarray, np.ndarray], rng: np.random.Generator,
           size: tuple[int, int] = (1640, 1232), tilt: float = 0.04,
           curl: float = 0.008, marks: Marks | None = None, pen: str = "felt",
           adding_up: bool = False, played: bool = False, squared: bool = False,
           fill: tuple[float, float] = FILL) -> Rendered:
    """A filled sheet of ``style``, photographed, with every table's truth (top to bottom);
    ``adding_up``, ``played`` and ``squared`` as in :func:`render_sheet`, ``fill`` as in
    :func:`photograph`."""
    page, tables = render_sheet(style, bank, rng, marks, pen, adding_up, played, squared)
    photo, corners = photograph(page, tables, rng, size, tilt, curl, marks, fill)
    truth = tuple(TableTruth(len(t.ys) - 1, len(t.xs) - 1, c,
                             tuple(tuple(row) for row in t.cells))
                  for t, c in zip(tables, corners))
    return Rendered(photo, truth, style.name)


__all__ = ["CellTruth", "Marks", "PX", "Rendered", "STYLES", "Style", "TableTruth", "photograph",
           "render", "render_sheet", "styles"]
