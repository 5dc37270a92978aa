"""How a set of letter dice looks (font, face and ink colours, table, light) and its faces
drawn flat: a capital letter with its value as a small subscript, or the diamond.

Faces are cached by (face, style, size): a throw sequence draws the same seven faces again and
again, and FreeType is the slow part of a frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.games.kniffel.dice import Face
from vision.glyphs import glyph_mask
from vision.synth.styles import Colour, Split, Table, fonts

# Upright faces only: dice are printed in plain or bold capitals, never slanted or hairline.
_SKIP_FONT_WORDS = ("italic", "oblique", "ita.", "bdita", "light", "math")

# BGR. Faces are ivory, white or yellowish plastic (wood-coloured sets exist but are rare).
_FACES: tuple[Colour, ...] = ((240, 244, 246), (215, 235, 244), (185, 228, 242),
                              (160, 218, 236), (226, 232, 232), (200, 222, 230))
_INKS: tuple[Colour, ...] = ((25, 25, 25), (90, 35, 20), (30, 30, 120), (40, 75, 25),
                             (30, 50, 80), (60, 50, 50))
_TABLES: tuple[tuple[Table, Colour], ...] = (
    (Table.WOOD, (60, 100, 150)), (Table.WOOD, (40, 70, 110)), (Table.WOOD, (90, 130, 170)),
    (Table.CLOTH, (50, 110, 40)), (Table.CLOTH, (110, 60, 30)), (Table.CLOTH, (40, 40, 110)),
    (Table.PLAIN, (120, 120, 120)), (Table.PLAIN, (150, 170, 190)), (Table.CLOTH, (70, 70, 70)),
)
_FELTS: tuple[Colour, ...] = ((45, 90, 30), (35, 30, 100), (90, 50, 25), (50, 50, 50))


@dataclass(frozen=True)
class DiceStyle:
    """How one dice set and its table look; drawn from a seed by :func:`dice_style`."""

    name: str
    font: Path
    face: Colour
    ink: Colour
    table: Table
    table_colour: Colour
    felt: Colour  # the tray's lining, when there is a tray
    radius: float = 0.14  # corner radius of a face, as a fraction of its side
    letter_scale: float = 0.52  # cap height / face side
    value_scale: float = 0.2  # digit height / face side
    light_angle: float = 225.0  # where the light comes from, degrees (image: x right, y down)
    shadow: float = 0.45  # how dark a die's shadow is (0..1)


def die_fonts(split: Split) -> list[Path]:
    """Fonts of a split fit for dice: upright faces; ``bench`` keeps the fonts the letter
    reader never trained on."""
    out = [f for f in fonts(split) if not any(w in f.name.lower() for w in _SKIP_FONT_WORDS)]
    return out or fonts(split)


def dice_style(seed: int, split: Split = "train") -> DiceStyle:
    """A style drawn from ``seed``: font of ``split``, colours, table, light and shadow."""
    rng = np.random.default_rng([seed, 101])
    font_list = die_fonts(split)
    font = font_list[int(rng.integers(len(font_list)))]

    def jitter(c: Colour, spread: float) -> Colour:
        v = np.clip(np.asarray(c, float) + rng.normal(0, spread, 3), 0, 255)
        return (int(v[0]), int(v[1]), int(v[2]))

    table, table_colour = _TABLES[int(rng.integers(len(_TABLES)))]
    return DiceStyle(
        name=f"dice-{split}-{seed}-{font.stem}",
        font=font,
        face=jitter(_FACES[int(rng.integers(len(_FACES)))], 5),
        ink=jitter(_INKS[int(rng.integers(len(_INKS)))], 8),
        table=table,
        table_colour=jitter(table_colour, 12),
        felt=jitter(_FELTS[int(rng.integers(len(_FELTS)))], 8),
        radius=float(rng.uniform(0.08, 0.2)),
        letter_scale=float(rng.uniform(0.46, 0.58)),
        value_scale=float(rng.uniform(0.16, 0.22)),
        light_angle=float(rng.uniform(0, 360)),
        shadow=float(rng.uniform(0.3, 0.55)),
    )


def rounded_alpha(side: int, radius: float) -> np.ndarray:
    """Opacity (float32 0..1) of a square face with rounded corners, antialiased."""
    big = 4 * side
    r = max(1, int(round(radius * big)))
    m = np.zeros((big, big), np.uint8)
    cv2.rectangle(m, (r, 0), (big - 1 - r, big - 1), 255, -1)
    cv2.rectangle(m, (0, r), (big - 1, big - 1 - r), 255, -1)
    for cx, cy in ((r, r), (big - 1 - r, r), (r, big - 1 - r), (big - 1 - r, big - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1)
    small = cv2.resize(m, (side, side), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32) / 255.0


def _ink_box(mask: np.ndarray) -> tuple[int, int, int, int]:
    ys, xs = np.nonzero(mask > 0.3)
    if len(xs) == 0:
        n = mask.shape[0] // 2
        return n, n, n, n
    return int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())


def _letter_ink(face: Face, side: int, style: DiceStyle) -> np.ndarray:
    """Coverage of the letter (a little left of centre) and its value at its lower right.

    Wide letters (M, W) are shrunk so the value never touches them, as on printed dice.
    """
    scale = style.letter_scale
    letter = glyph_mask(face.letter, style.font, side, scale=scale, offset=(-0.05, -0.02))
    x0, x1, _, _ = _ink_box(letter)
    if x1 - x0 > 0.62 * side:
        scale *= 0.62 * side / (x1 - x0)
        letter = glyph_mask(face.letter, style.font, side, scale=scale, offset=(-0.05, -0.02))
    x0, x1, y0, y1 = _ink_box(letter)
    digits = str(face.value)
    probe = glyph_mask(digits, style.font, side, scale=style.value_scale)
    dx0, dx1, dy0, dy1 = _ink_box(probe)
    dw, dh = dx1 - dx0, dy1 - dy0
    # the value's left edge a little right of the letter, its foot a little below the letter's
    want_x = min(x1 + 0.03 * side + dw / 2, side * 0.92 - dw / 2)
    want_y = min(y1 + 0.06 * side - dh / 2, side * 0.9 - dh / 2)
    off = ((want_x - (dx0 + dx1) / 2) / side, (want_y - (dy0 + dy1) / 2) / side)
    value = glyph_mask(digits, style.font, side, scale=style.value_scale, offset=off)
    out: np.ndarray = np.maximum(letter, value)
    return out


def _diamond_ink(side: int) -> np.ndarray:
    """The ◆ of the joker face: a filled rhombus, a little taller than wide."""
    big = 4 * side
    c = big / 2
    pts = np.array([(c, c - 0.33 * big), (c + 0.26 * big, c), (c, c + 0.33 * big),
                    (c - 0.26 * big, c)], np.int32)
    m = np.zeros((big, big), np.uint8)
    cv2.fillConvexPoly(m, pts, 255)
    small = cv2.resize(m, (side, side), interpolation=cv2.INTER_AREA)
    return np.asarray(small, np.float32) / 255.0


@lru_cache(maxsize=512)
def face_image(face: Face, side: int, style: DiceStyle) -> np.ndarray:
    """A die's face flat and upright (BGR uint8, ``side`` square), its rounded edge shaded.

    The edge darkens towards the rim because a die's edges are rounded off and turn away
    from the light; without it a top face would look like a printed sticker.
    """
    ink = _diamond_ink(side) if face.is_joker else _letter_ink(face, side, style)
    bg = np.asarray(style.face, np.float32)
    fg = np.asarray(style.ink, np.float32)
    img = bg[None, None, :] * (1 - ink[:, :, None]) + fg[None, None, :] * ink[:, :, None]
    inside = (rounded_alpha(side, style.radius) > 0.5).astype(np.uint8)
    dist = cv2.distanceTransform(np.pad(inside, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
    rim = 0.72 + 0.28 * np.clip(dist / max(1.0, 0.09 * side), 0, 1)
    out: np.ndarray = np.clip(img * rim[:, :, None], 0, 255).astype(np.uint8)
    out.setflags(write=False)
    return out


def light_vector(style: DiceStyle) -> np.ndarray:
    """Unit vector (image x, y) pointing towards the light."""
    a = math.radians(style.light_angle)
    return np.array([math.cos(a), math.sin(a)])
