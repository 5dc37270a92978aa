"""Every cell of a traced table, cut out flat, told printed from handwritten, and read.

The grid lines' pixels are taken out of the ink and bridged where a stroke ran across them
(a closing across the line), so a digit written over a line keeps its shape. Each cell is
warped from its own four corners (a curled card bends cell by cell) to a fixed height, a
little taller than the cell so a digit that overshoots the line is whole; a mark whose
middle lies outside the cell belongs to the neighbour and is dropped.

Printed text is told from handwriting by column and row: label columns and header rows are
text all along (many marks, smaller than a handwritten digit), so a cell is printed when most
written cells of its column or its row look like text. Tesseract reads those only when asked
(``read_text``): it costs more than the rest of the photo.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import VisionError, ocr
from vision.ink import darkest
from vision.kniffel_pad.cuts import MIN_AREA
from vision.kniffel_pad.digits import INK_FLOOR, INK_ON, digit_groups, pen_mask
from vision.marks import components
from vision.pad.lattice import Lattice

CELL_H = 48  # px: a cell's height once cut out (the printed pad's boxes are read at this)
STRIP_MAX = 30000  # px: the tallest strip of printed cells handed to Tesseract at once
OVER = 0.25  # of the height, kept above and below a cell
MARGIN_PX = round(OVER * CELL_H)  # the cut's margin beyond the cell's lines
TEXT_VOTE = 0.65  # of a column's written cells looking printed: labels' 0.78-1, players' <= 0.5
ROW_VOTE = 0.8  # of a row's: a row of handwriting may hold a few broken digits
SMALL_H = 0.42  # of the height: a mark lower than this is no handwritten digit
WORD_H = 0.15  # of the height: a word's letters at least; lower is a stroke's width
WORD_TALL = 0.55  # of the height: a word with a capital and a descender ("Spiel") at most
WORD_FILL = (0.2, 0.72)  # of its box a word's ink fills: more than a stroke, less than a bar
# (a blurred word's letters run together: up to 0.68 on the far photos' labels)
WORD_RAGGED = 0.19  # a word's ink per column varies at least this much (std / mean)
PARTED = 0.6  # of a mark's ink: a column this pale between it and its line parts them
DIP = 0.75  # of a mark's strongest column: a column this pale on its line's side parts them
# a mark this many times as wide as tall and thinner than a word's letters (a minus, a dash,
# a speck drawn out) is no letter and no digit: it says nothing of whether the others are
# print. A small word blurred into one mark (a label read from further off) is as flat, but
# as high as letters: it counts
FLAT = 3
REMNANT = 0.1  # of the height: a line's leftover is at most this thick, this near its line


@dataclass(frozen=True)
class Group:
    """A printed cell: lattice rows r0..r1 and columns c0..c1 (one position, or merged)."""

    r0: int
    c0: int
    r1: int
    c1: int


def groups(lat: Lattice) -> list[Group]:
    """Cells as printed: positions whose shared line is missing are one cell (its lattice
    rectangle; union-find over the missing lines)."""
    rows, cols = lat.rows, lat.cols
    parent = list(range(rows * cols))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and not lat.v_edge[r, c + 1]:
                parent[root(r * cols + c)] = root(r * cols + c + 1)
            if r + 1 < rows and not lat.h_edge[r + 1, c]:
                parent[root(r * cols + c)] = root((r + 1) * cols + c)
    members: dict[int, list[int]] = {}
    for i in range(rows * cols):
        members.setdefault(root(i), []).append(i)
    out = []
    for ids in members.values():
        rs, cs = [i // cols for i in ids], [i % cols for i in ids]
        out.append(Group(min(rs), min(cs), max(rs), max(cs)))
    return sorted(out, key=lambda g: (g.r0, g.c0))


def clean_ink(lat: Lattice) -> np.ndarray:
    """The table's ink without its grid lines; a stroke that crossed a line is bridged."""
    ink = lat.ink.copy()
    on_line = lat.lines > 0
    ink[on_line] = 0.0
    k = max(5, round(max(ink.shape) / 200)) | 1
    across_h = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((k, 1), np.uint8))
    across_v = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((1, k), np.uint8))
    ink[on_line] = np.maximum(across_h, across_v)[on_line]
    return ink


def cell_warp(lat: Lattice, g: Group, tall: bool = False,
              ) -> tuple[np.ndarray, tuple[int, int], int, int]:
    """(flat px -> cell px homography, the cut's size (w, h), the margin, the cell's width
    inside it): the cell ``CELL_H`` high inside its lines, ``OVER`` of that more on every
    side. ``tall``: ``CELL_H`` for each row the cell spans, so that a printed cell over two
    rows ("Summe" above "Bonus", a line between them not printed) keeps its text as large
    as a row's own (scaled into one row's height, its words were too small for Tesseract)."""
    c = lat.corners
    quad = np.array([c[g.r0, g.c0], c[g.r0, g.c1 + 1], c[g.r1 + 1, g.c1 + 1],
                     c[g.r1 + 1, g.c0]], np.float32)
    w_px = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    h_px = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    high = CELL_H * (g.r1 - g.r0 + 1 if tall else 1)
    width = max(8, round(high * w_px / max(h_px, 1.0)))
    pad = MARGIN_PX
    dst = np.array([[pad, pad], [pad + width, pad], [pad + width, pad + high],
                    [pad, pad + high]], np.float32)
    m = cv2.getPerspectiveTransform(quad, dst)
    return m, (width + 2 * pad, high + 2 * pad), pad, width


def cut(ink: np.ndarray, lat: Lattice, g: Group, tall: bool = False) -> np.ndarray:
    """The cell as :func:`cell_warp` frames it (a number written over the line is whole),
    with marks centred outside the cell removed (the neighbours' overshooting digits)."""
    m, size, pad, width = cell_warp(lat, g, tall)
    box = cv2.warpPerspective(ink, m, size, flags=cv2.INTER_LINEAR)
    mask = pen_mask(box).astype(np.uint8)  # the marks the digit reader will see
    n, labels, stats, _ = components(mask)
    high = size[1] - 2 * pad
    gone = [i for i in range(1, n) if _not_this_cells(
        int(stats[i, 0]), int(stats[i, 1]), int(stats[i, 2]), int(stats[i, 3]), width, pad,
        high)]
    upright = [i for i in gone if _digit_tall(stats[i])]
    if upright:  # a mark along a side line is the line's only where no paper parts them
        raw = cv2.warpPerspective(lat.ink, m, size, flags=cv2.INTER_LINEAR)
        kept = {i for i in upright if _apart_from_its_side(raw, labels == i, stats[i], width, pad)}
        gone = [i for i in gone if i not in kept]
    if gone:
        drop = np.zeros(n, np.uint8)  # a lookup by label: np.isin sorts, this indexes
        drop[gone] = 1
        box[cv2.dilate(drop[labels], np.ones((3, 3), np.uint8)) > 0] = 0
    out: np.ndarray = box
    return out


def _digit_tall(stat: np.ndarray) -> bool:
    """A thin upright mark as tall as a handwritten digit (a 1, or a side line's leftover)."""
    w, h = int(stat[2]), int(stat[3])
    return SMALL_H * CELL_H <= h <= CELL_H and h >= 3 * w


def _apart_from_its_side(raw: np.ndarray, mine: np.ndarray, stat: np.ndarray, width: int,
                         pad: int) -> bool:
    """Is this digit-tall mark by the cell's left or right line parted from the line by
    paper? A 1 written a few pixels inside the line looks like the line's leftover, but
    between them the page is paler, where a leftover runs into its line, fading away from
    it. Blurred, a gap of a pixel or two keeps some ink: a column paler than ``PARTED`` of
    the mark's ink parts them, and so does a dip, a column (its own edge, when the pen
    takes it in) paler than ``DIP`` of the mark's strongest column on the line's side of
    it: a leftover fades from its line and has none."""
    x, y, w, h = (int(v) for v in stat[:4])
    left = x + w / 2 < pad + width / 2
    a, b = (pad, x) if left else (x + w, pad + width + 1)  # from the line's middle
    if b - a < 2:
        return False
    profile = np.median(raw[y:y + h], axis=0)  # along the mark
    band = profile[max(0, a):b]
    ink = float(np.median(raw[mine]))
    if bool((band < PARTED * ink).any()):  # columns paler along the mark
        return True
    if left:  # from the line's middle to the mark's strongest column
        run = profile[max(0, a):x + w]
        peak = (x - max(0, a)) + int(np.argmax(profile[x:x + w]))
    else:
        run = profile[x:b][::-1]
        peak = (b - x - w) + int(np.argmax(run[b - x - w:]))
    return bool(run[:peak].min(initial=np.inf) < DIP * run[peak])


def _not_this_cells(x: int, y: int, w: int, h: int, width: int, pad: int,
                    high: int = CELL_H) -> bool:
    """A mark centred outside the cell is the neighbour's; a flat sliver along the cell's
    top or bottom line is what is left of a wobbly or thick line (a hand-ruled sheet), not
    writing: a minus or a struck line is drawn through the middle of the box. So is a thin
    sliver hugging the left or right line, unless paper parts it from the line (a 1 written
    just inside it: :func:`_apart_from_its_side`). ``high``: the cell's height in the cut (a
    row's, or more for a printed cell cut :func:`cell_warp`'s ``tall`` way)."""
    middle, centre = y + h / 2, x + w / 2
    if not (pad <= middle <= pad + high and pad <= centre <= pad + width):
        return True
    band = REMNANT * CELL_H
    to_rows = min(abs(middle - pad), abs(middle - pad - high))
    to_sides = min(abs(centre - pad), abs(centre - pad - width))
    flat = h <= band and to_rows <= 1.5 * band
    thin = w <= band and to_sides <= band
    along = (w >= 4 * h and to_rows <= 2 * band) or (h >= 4 * w and to_sides <= 2 * band)
    return bool(flat or thin or along)


def looks_printed(box: np.ndarray) -> bool | None:
    """None for an empty cell; True when its marks look like print: several marks, most
    far smaller than a handwritten digit (letters of a label), or a word beside marks that
    small (a header's "Spiel 1"), or very many. Marks are counted as the digit reader
    joins them (:func:`digit_groups`): a 5 written in two strokes, its bar apart from its
    body, made "25" three marks, two of them low, and its row was taken for a header.
    "Most far smaller" is judged on the upright marks: a minus and a speck beside a small
    "-13" made half its marks low."""
    top = darkest(box)
    if top < INK_ON * 0.6:
        return None
    mask = (box > float(np.clip(0.4 * top, INK_FLOOR, INK_ON))).astype(np.uint8)
    n, labels, stats, _ = components(mask)
    ids = sorted((i for i in range(1, n) if stats[i, 4] >= MIN_AREA), key=lambda i: stats[i, 0])
    if not ids:
        return None
    marks = digit_groups(stats, ids)
    high = [int((stats[m, 1] + stats[m, 3]).max() - stats[m, 1].min()) for m in marks]
    wide = [int((stats[m, 0] + stats[m, 2]).max() - stats[m, 0].min()) for m in marks]
    upright = [h for h, w in zip(high, wide) if w < FLAT * h or h >= WORD_H * CELL_H]
    small = bool(upright) and float(np.median(upright)) < SMALL_H * CELL_H
    words = [len(m) == 1 and _word(stats[m[0]]) and _ragged(labels, m[0], stats[m[0]])
             for m in marks]
    rest_small = all(h < SMALL_H * CELL_H for h, w in zip(high, words) if not w)
    return (small and len(upright) >= 3) or (any(words) and (small or rest_small)) or (
        len(marks) >= 7)


def _word(stat: np.ndarray) -> bool:
    """A mark that is letters run together (an italic, tightly set or blurred label): wider
    than tall, and neither a thin stroke nor a filled bar. A word lower than a digit is 1.5
    times as wide as tall; one as tall as a digit (a capital and a descender) must be 1.8
    times, as two handwritten digits run together are about as wide as tall."""
    _, _, w, h, area = (int(v) for v in stat[:5])
    if not (WORD_H * CELL_H <= h < WORD_TALL * CELL_H
            and WORD_FILL[0] <= area / max(1, w * h) <= WORD_FILL[1]):
        return False
    return w >= (1.5 if h < SMALL_H * CELL_H else 1.8) * h


def _ragged(labels: np.ndarray, i: int, stat: np.ndarray) -> bool:
    """Is mark ``i``'s ink uneven along it, as letters are (gaps, ascenders)? A stroke
    striking a box is as thick in every column: on the tune sheets the strokes' spread was
    0.09-0.17 of their mean, the words' that passed :func:`_word` 0.21-0.61, and a column of
    struck boxes taken for print loses its player's numbers."""
    x, y, w, h = (int(v) for v in stat[:4])
    ink = (labels[y:y + h, x:x + w] == i).sum(axis=0)
    return float(ink.std()) >= WORD_RAGGED * float(ink.mean())


def printed_cells(votes: dict[Group, bool | None]) -> set[Group]:
    """The cells read as print: in a column where most written cells look printed (a
    label column; a player column with two boxes of four struck or specked is not), in a
    row where most cells outside those columns do (a header), or spanning several columns
    (a title). A row's vote needs two cells, as a stray speck beside a digit makes one
    cell look printed, or the row must lie above every row with a cell that does not (the
    header of a table with one player column)."""
    def tally(key: str, skip: frozenset[int] = frozenset()) -> dict[int, list[bool]]:
        out: dict[int, list[bool]] = {}
        for g, v in votes.items():
            if v is not None and g.r0 == g.r1 and g.c0 == g.c1 and g.c0 not in skip:
                out.setdefault(getattr(g, key), []).append(v)
        return out

    label_cols = frozenset(c for c, v in tally("c0").items() if sum(v) / len(v) >= TEXT_VOTE)
    by_row = tally("r0", label_cols)
    header = set()
    for r in sorted(by_row):
        if not all(by_row[r]):
            break
        header.add(r)
    rows = {r: sum(v) / len(v) for r, v in by_row.items() if len(v) >= 2 or r in header}
    return {g for g, v in votes.items() if v is not None and (
        g.c0 in label_cols or rows.get(g.r0, 0.0) >= ROW_VOTE or g.c1 > g.c0)}


def read_text(boxes: list[np.ndarray]) -> list[str]:
    """Printed cells read by Tesseract, in strips of cells stacked (one call a strip, each word
    of its output assigned to the cell it lies in; a cell's lines of text joined by a
    newline). A strip stays under Tesseract's largest image (32767 px a side): a sheet of
    many printed cells is read in several."""
    out: list[str] = []
    strip: list[np.ndarray] = []
    height = CELL_H // 2  # the strip's top gap
    for b in boxes:
        if strip and height + b.shape[0] + CELL_H // 2 > STRIP_MAX:
            out += _read_strip(strip)
            strip, height = [], CELL_H // 2
        strip.append(b)
        height += b.shape[0] + CELL_H // 2
    return out + (_read_strip(strip) if strip else [])


def _read_strip(boxes: list[np.ndarray]) -> list[str]:
    width = max(b.shape[1] for b in boxes)
    gap = CELL_H // 2
    strip = np.full((sum(b.shape[0] + gap for b in boxes) + gap, width + 2 * gap), 255, np.uint8)
    tops = []
    y = gap
    for b in boxes:
        strip[y:y + b.shape[0], gap:gap + b.shape[1]] = np.clip(255 - b * 400, 0, 255)
        tops.append(y)
        y += b.shape[0] + gap
    try:
        read = ocr.words(strip, lang="deu", psm=6)
    except ocr.OcrError as exc:
        raise VisionError(f"Tesseract could not read the printed cells: {exc}") from exc
    words: list[list[ocr.Word]] = [[] for _ in boxes]
    for word in read:
        middle = word.top + word.height / 2
        k = max(0, int(np.searchsorted(tops, middle, side="right")) - 1)
        words[k].append(word)
    return ["\n".join(" ".join(w.text for w in cell if w.line == line)
                      for line in dict.fromkeys(w.line for w in cell)) for cell in words]


__all__ = ["CELL_H", "Group", "cell_warp", "clean_ink", "cut", "groups", "looks_printed",
           "printed_cells", "read_text"]
