"""Letters drawn without a font file: a skeleton of each of the game's letters (M Ö R D E)
drawn with a pen (round, with serifs, slanted, narrow, hollow) or as a dot matrix. The letter
model learnt from installed fonts only, so these are shapes it never saw: the held-out
family's letters. The second family draws the same skeletons as blocks (flat ends, square
corners), as a stencil (bridges cut across the strokes) and inline (a thin line of the face
along each stroke). They are ours, point by point, so they look the same whatever libraries
are installed."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.styles import Colour, Lettering

Stroke = tuple[tuple[float, float], ...]  # (x, y) in cap heights, y downwards from the top


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float) -> Stroke:
    t = np.radians(np.linspace(a0, a1, 24))
    return tuple((float(cx + rx * np.cos(a)), float(cy + ry * np.sin(a))) for a in t)


# each letter: its width (in cap heights), its strokes, and where a serif pen puts bars
_SKELETONS: dict[str, tuple[float, tuple[Stroke, ...], Stroke]] = {
    "M": (0.86, (((0, 1), (0, 0), (0.43, 0.66), (0.86, 0), (0.86, 1)),),
          ((0, 1), (0.86, 1), (0, 0), (0.86, 0))),
    "O": (0.84, (_arc(0.42, 0.5, 0.42, 0.5, 0, 360),), ()),
    "R": (0.74, (((0, 1), (0, 0), (0.4, 0)) + _arc(0.4, 0.25, 0.3, 0.25, -90, 90)
                 + ((0, 0.5),), ((0.34, 0.5), (0.74, 1))),
          ((0, 1), (0, 0), (0.74, 1))),
    "D": (0.78, (((0.3, 1), (0, 1), (0, 0), (0.3, 0)) + _arc(0.3, 0.5, 0.48, 0.5, -90, 90),),
          ((0, 0), (0, 1))),
    "E": (0.66, (((0.66, 0), (0, 0), (0, 1), (0.66, 1)), ((0, 0.48), (0.54, 0.48))),
          ((0, 0), (0, 1))),
}


@dataclass(frozen=True)
class _Pen:
    width: float  # stroke width, in cap heights
    squeeze: float = 1.0  # letter width factor
    slant: float = 0.0  # x shift per cap height, at the top
    serif: float = 0.0  # bar length at the serif points, in cap heights
    hollow: float = 0.0  # rim width of a hollow letter, in cap heights
    square: bool = False  # flat stroke ends, square corners and square umlaut dots
    bridge: float = 0.0  # width of the stencil's bridges (``_BRIDGES``), in cap heights
    inline: float = 0.0  # width of the face-coloured line along each stroke, in cap heights


_PENS: dict[Lettering, _Pen] = {
    Lettering.MARKER: _Pen(0.16),
    Lettering.SERIF: _Pen(0.1, serif=0.24),
    Lettering.SLANTED: _Pen(0.14, slant=0.22),
    Lettering.NARROW: _Pen(0.09, squeeze=0.62),
    Lettering.OUTLINE: _Pen(0.22, hollow=0.045),
    Lettering.BLOCK: _Pen(0.22, square=True),
    Lettering.STENCIL: _Pen(0.2, bridge=0.06),
    Lettering.INLINE: _Pen(0.23, inline=0.035),
}

# where a stencil's bridges cut the strokes, as cuts (from, to) in cap heights: the parts a
# real stencil must hold apart (the V of the M from its stems, a bowl from its stem, the arms
# of the E from theirs, the O's counter from the sheet)
_BRIDGES: dict[str, tuple[Stroke, ...]] = {
    "M": (((0.14, -0.2), (0.14, 0.5)), ((0.72, -0.2), (0.72, 0.5))),
    "O": (((0.42, -0.2), (0.42, 0.2)), ((0.42, 0.8), (0.42, 1.2))),
    "R": (((0.16, -0.2), (0.16, 0.2)), ((0.16, 0.3), (0.16, 0.7))),
    "D": (((0.16, -0.2), (0.16, 0.2)), ((0.16, 0.8), (0.16, 1.2))),
    "E": (((0.16, -0.2), (0.16, 0.2)), ((0.16, 0.28), (0.16, 0.68)),
          ((0.16, 0.8), (0.16, 1.2))),
}

# 5 columns x 7 rows; Ö is an O with two dots two rows above its top
_DOTS: dict[str, tuple[str, ...]] = {
    "M": ("X...X", "XX.XX", "X.X.X", "X.X.X", "X...X", "X...X", "X...X"),
    "O": (".XXX.", "X...X", "X...X", "X...X", "X...X", "X...X", ".XXX."),
    "R": ("XXXX.", "X...X", "X...X", "XXXX.", "X.X..", "X..X.", "X...X"),
    "D": ("XXXX.", "X...X", "X...X", "X...X", "X...X", "X...X", "XXXX."),
    "E": ("XXXXX", "X....", "X....", "XXXX.", "X....", "X....", "XXXXX"),
}

_SUPER = 4  # drawn this many times larger, then shrunk: anti-aliased edges


class LetteringError(ValueError):
    """A letter this lettering cannot draw."""


def draw_letter(letter: str, side: int, lettering: Lettering, scale: float, ink: Colour,
                face: Colour) -> np.ndarray:
    """An upright ``letter`` on ``face``, ``side`` px square (BGR). Every letter shares one cap
    height (``scale`` of the side, less room for the umlaut's dots), as a font's would."""
    base = "O" if letter == "Ö" else letter
    if base not in _DOTS:
        raise LetteringError(f"{lettering.value} draws only M Ö R D E, not {letter!r}")
    big = side * _SUPER
    cap = scale * big * 0.8
    if lettering is Lettering.DOTS:
        mask = _dot_matrix(big, base, cap, letter == "Ö")
    elif lettering in _PENS:
        mask = _pen(big, base, cap, letter == "Ö", _PENS[lettering])
    else:
        raise LetteringError(f"{lettering.value} is not drawn here")
    small = cv2.resize(mask, (side, side), interpolation=cv2.INTER_AREA)
    alpha = small.astype(np.float32)[:, :, None] / 255
    out = np.array(face, np.float32) * (1 - alpha) + np.array(ink, np.float32) * alpha
    return np.asarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))


def _pen(big: int, base: str, cap: float, umlaut: bool, pen: _Pen) -> np.ndarray:
    """The skeleton drawn with ``pen`` into a mask, centred (with the umlaut's dots)."""
    width, strokes, serifs = _SKELETONS[base]
    width *= pen.squeeze
    dot = min(max(pen.width * 0.7, 0.07), 0.1)  # the umlaut's dot radius, in cap heights
    lift = pen.width / 2 + 0.07 + dot  # the dots' centre above the cap line
    gap = (lift + dot) * cap if umlaut else 0.0
    x0, y0 = (big - width * cap) / 2, (big - cap + gap) / 2
    thick = max(2, int(round(pen.width * cap)))

    def at(x: float, y: float) -> tuple[int, int]:
        return (int(round(x0 + (x * pen.squeeze + pen.slant * (1 - y)) * cap)),
                int(round(y0 + y * cap)))

    mask = np.zeros((big, big), np.uint8)
    paths = [np.array([at(x, y) for x, y in stroke], np.int32) for stroke in strokes]
    for pts in paths:
        if pen.square:
            _block_stroke(mask, pts.astype(np.float64), thick / 2)
        else:
            cv2.polylines(mask, [pts], False, 255, thick, cv2.LINE_AA)
    if pen.square:  # a sharp corner's pieces reach past the letter's box: cut them flat
        every = np.concatenate(paths)
        (x_lo, y_lo), (x_hi, y_hi) = every.min(axis=0) - thick // 2, every.max(axis=0) + thick // 2
        mask[:max(y_lo, 0)], mask[y_hi + 1:] = 0, 0
        mask[:, :max(x_lo, 0)], mask[:, x_hi + 1:] = 0, 0
    for x, y in serifs:
        half = pen.serif / 2 / pen.squeeze
        cv2.line(mask, at(x - half, y), at(x + half, y), 255, max(2, thick * 2 // 3),
                 cv2.LINE_AA)
    if umlaut:
        for sx in (0.28, 0.72):
            if pen.square:
                cx, cy = at(sx * width / pen.squeeze, -lift)
                r = int(dot * cap)
                cv2.rectangle(mask, (cx - r, cy - r), (cx + r, cy + r), 255, -1)
                continue
            cv2.circle(mask, at(sx * width / pen.squeeze, -lift), int(dot * cap), 255, -1,
                       cv2.LINE_AA)
    if pen.bridge:
        for a, b in _BRIDGES[base]:
            cv2.line(mask, at(*a), at(*b), 0, max(2, int(round(pen.bridge * cap))),
                     cv2.LINE_AA)
    if pen.inline:
        cv2.polylines(mask, paths, False, 0, max(2, int(round(pen.inline * cap))),
                      cv2.LINE_AA)
    if pen.hollow:
        rim = max(2, int(round(pen.hollow * cap)))
        core = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE,
                                                         (2 * rim + 1, 2 * rim + 1)))
        mask = np.asarray(cv2.subtract(mask, core), np.uint8)
    return mask


def _block_stroke(mask: np.ndarray, pts: np.ndarray, half: float) -> None:
    """A polyline ``half`` px either side of ``pts`` with flat ends and mitred corners, as a
    broad block letter's. A corner too sharp to mitre (the M's top) lets both pieces reach
    ``half`` past it, to be cut flat by the letter's box; an end that lands on ink already
    drawn (the R's leg on its bowl) is a joint and stays where it is, so that it does not poke
    through the other stroke."""
    keep = np.concatenate([[True], np.abs(np.diff(pts, axis=0)).sum(axis=1) > 0])
    pts = pts[keep]  # a point twice in a row (a stroke joining an arc) has no direction
    d = np.diff(pts, axis=0)
    d /= np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-9)
    n = np.stack([-d[:, 1], d[:, 0]], axis=1) * half
    closed = bool(np.array_equal(pts[0], pts[-1]))  # the O, the D: no ends, one more corner
    reach = np.zeros((len(d), 2), bool)  # does a piece reach past its start, its end
    reach[0, 0] = not closed and mask[int(pts[0][1]), int(pts[0][0])] == 0
    reach[-1, 1] = not closed and mask[int(pts[-1][1]), int(pts[-1][0])] == 0
    for k in range(0 if closed else 1, len(d)):
        cos_half = float(np.sqrt(max((1 + float(d[k - 1] @ d[k])) / 2, 0.0)))
        side = -np.sign(d[k - 1, 0] * d[k, 1] - d[k - 1, 1] * d[k, 0])  # outside the turn
        if cos_half <= 0.5:  # turning by more than 120 degrees: a mitre would be a spike
            reach[k - 1, 1] = reach[k, 0] = True
        elif side != 0:
            p, n1, n2 = pts[k], n[k - 1], n[k]
            mid = (n1 + n2) / max(float(np.linalg.norm(n1 + n2)), 1e-9) * half / cos_half
            corner = np.array([p, p + side * n1, p + side * mid, p + side * n2])
            cv2.fillConvexPoly(mask, np.round(corner).astype(np.int32), 255, cv2.LINE_AA)
    for k, (a, b) in enumerate(zip(pts[:-1], pts[1:], strict=True)):
        a = a - d[k] * half if reach[k, 0] else a
        b = b + d[k] * half if reach[k, 1] else b
        quad = np.array([a + n[k], b + n[k], b - n[k], a - n[k]])
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255, cv2.LINE_AA)


def _dot_matrix(big: int, base: str, cap: float, umlaut: bool) -> np.ndarray:
    """5x7 dots (Ö: two more dots two rows above), centred on the face."""
    pitch = cap / 7
    rows = list(_DOTS[base])
    if umlaut:
        rows = [".X.X.", "....."] + rows
    mask = np.zeros((big, big), np.uint8)
    x0 = (big - 5 * pitch) / 2 + pitch / 2
    y0 = (big - len(rows) * pitch) / 2 + pitch / 2
    for r, row in enumerate(rows):
        for c, mark in enumerate(row):
            if mark == "X":
                centre = (int(x0 + c * pitch), int(y0 + r * pitch))
                cv2.circle(mask, centre, int(pitch * 0.42), 255, -1, cv2.LINE_AA)
    return mask
