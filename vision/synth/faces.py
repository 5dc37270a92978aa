"""Tile faces drawn flat (letters, the back's pattern, the victim's picture), cached because a
game draws the same faces again and again."""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.glyphs.strokes import Style as Strokes
from vision.synth.family2_faces import (FAMILY2_BACKS, FAMILY2_MATERIALS, FAMILY2_VICTIMS,
                                        family2_back, family2_material, family2_victim)
from vision.synth.family_faces import FAMILY_BACKS, FAMILY_VICTIMS, family_back, family_victim
from vision.synth.family_faces import material as family_material
from vision.synth.materials import TRAIN_MATERIALS, train_material
from vision.synth.letterings import draw_letter
from vision.synth.styles import BackPattern, Lettering, Material, Style, Victim

_log = logging.getLogger(__name__)


def rounded_mask(side: int, radius: float) -> np.ndarray:
    r = max(1, int(round(radius * side)))
    mask = np.zeros((side, side), np.uint8)
    cv2.rectangle(mask, (r, 0), (side - 1 - r, side - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (side - 1, side - 1 - r), 255, -1)
    for cx, cy in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


# how each lettering drawn from a font redraws the font's letters (None: as the font has them)
_FONT_LETTERINGS: dict[Lettering, Strokes | None] = {
    Lettering.FONT: None,
    Lettering.FONT_HOLLOW: Strokes("hollow", width=0.06, fatten=0.03),
    Lettering.FONT_DOTS: Strokes("dots", rows=8, dot=0.75, reach=0.3),
}


def _glyph(letter: str, font: Path | None, side: int, style: Style) -> np.ndarray:
    """An upright letter on the tile face colour, ``side`` px square (BGR)."""
    if style.lettering not in _FONT_LETTERINGS or font is None:
        return draw_letter(letter, side, style.lettering, style.letter_scale, style.ink,
                           style.face)
    try:
        from vision import glyphs
    except ImportError:
        glyphs = None  # type: ignore[assignment]
    if glyphs is not None:
        try:
            img = glyphs.render_glyph(letter, font, side, style.ink, style.face,
                                      style=_FONT_LETTERINGS[style.lettering])
            if img.shape[:2] != (side, side):
                img = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA)
            return np.ascontiguousarray(img[:, :, :3])
        except Exception:  # noqa: BLE001 - fall back to our own drawing, logged
            _log.debug("glyphs.render_glyph failed for %r in %s", letter, font, exc_info=True)
    from PIL import Image, ImageDraw, ImageFont

    big = side * 2
    pil = ImageFont.truetype(str(font), size=int(big * style.letter_scale))
    pic = Image.new("RGB", (big, big), style.face[::-1])
    draw = ImageDraw.Draw(pic)
    x0, y0, x1, y1 = draw.textbbox((0, 0), letter, font=pil)
    draw.text(((big - (x1 - x0)) / 2 - x0, (big - (y1 - y0)) / 2 - y0), letter, font=pil,
              fill=style.ink[::-1])
    arr = np.asarray(pic)[:, :, ::-1]
    return cv2.resize(arr, (side, side), interpolation=cv2.INTER_AREA)


def _back(side: int, style: Style) -> np.ndarray:
    if style.pattern in FAMILY_BACKS:
        return family_back(side, style)
    if style.pattern in FAMILY2_BACKS:
        return family2_back(side, style)
    img = np.empty((side, side, 3), np.uint8)
    img[:] = style.back
    ink = style.back_ink
    s = side
    p = style.pattern
    if p is BackPattern.STRIPES:
        for k in range(-s, 2 * s, max(4, s // 8)):
            cv2.line(img, (k, 0), (k + s, s), ink, max(2, s // 20), cv2.LINE_AA)
    elif p is BackPattern.DOTS:
        step = max(6, s // 6)
        for y in range(step // 2, s, step):
            for x in range(step // 2, s, step):
                cv2.circle(img, (x, y), max(2, step // 4), ink, -1, cv2.LINE_AA)
    elif p is BackPattern.CHECKER:
        step = max(4, s // 6)
        for y in range(0, s, step):
            for x in range(0, s, step):
                if (x // step + y // step) % 2:
                    img[y : y + step, x : x + step] = ink
    elif p is BackPattern.RINGS:
        for r in range(s // 10, s, max(4, s // 10)):
            cv2.circle(img, (s // 2, s // 2), r, ink, max(2, s // 30), cv2.LINE_AA)
    elif p is BackPattern.DIAMONDS:
        step = max(8, s // 4)
        for y in range(0, s + step, step):
            for x in range(0, s + step, step):
                pts = np.array([(x, y - step // 3), (x + step // 3, y), (x, y + step // 3),
                                (x - step // 3, y)], np.int32)
                cv2.fillConvexPoly(img, pts, ink, cv2.LINE_AA)
    elif p is BackPattern.CROSSHATCH:
        for k in range(-s, 2 * s, max(5, s // 7)):
            cv2.line(img, (k, 0), (k + s, s), ink, max(1, s // 40), cv2.LINE_AA)
            cv2.line(img, (k, s), (k + s, 0), ink, max(1, s // 40), cv2.LINE_AA)
    elif p is BackPattern.FRAME:
        m = s // 8
        cv2.rectangle(img, (m, m), (s - m, s - m), ink, max(2, s // 25), cv2.LINE_AA)
        cv2.rectangle(img, (2 * m, 2 * m), (s - 2 * m, s - 2 * m), ink, max(1, s // 40),
                      cv2.LINE_AA)
    return img


def _victim(side: int, style: Style) -> np.ndarray:
    if style.victim in FAMILY_VICTIMS:
        return family_victim(side, style)
    if style.victim in FAMILY2_VICTIMS:
        return family2_victim(side, style)
    img = np.empty((side, side, 3), np.uint8)
    img[:] = style.face
    s = side
    red = (30, 30, 170)
    dark = style.ink
    v = style.victim
    if v is Victim.SKULL:
        cv2.circle(img, (s // 2, int(s * 0.42)), int(s * 0.27), dark, -1, cv2.LINE_AA)
        cv2.rectangle(img, (int(s * 0.36), int(s * 0.55)), (int(s * 0.64), int(s * 0.78)), dark, -1)
        for cx in (0.4, 0.6):
            cv2.circle(img, (int(s * cx), int(s * 0.42)), int(s * 0.07), style.face, -1,
                       cv2.LINE_AA)
        for cx in (0.43, 0.5, 0.57):
            cv2.line(img, (int(s * cx), int(s * 0.66)), (int(s * cx), int(s * 0.78)), style.face,
                     max(1, s // 40))
    elif v is Victim.DAGGER:
        blade = np.array([(0.5, 0.12), (0.57, 0.25), (0.55, 0.62), (0.45, 0.62), (0.43, 0.25)])
        cv2.fillConvexPoly(img, (blade * s).astype(np.int32), (150, 150, 160), cv2.LINE_AA)
        cv2.rectangle(img, (int(s * 0.3), int(s * 0.62)), (int(s * 0.7), int(s * 0.68)), dark, -1)
        cv2.rectangle(img, (int(s * 0.46), int(s * 0.68)), (int(s * 0.54), int(s * 0.88)), dark,
                      -1)
        for x, y in ((0.35, 0.3), (0.65, 0.45), (0.6, 0.8)):
            cv2.circle(img, (int(s * x), int(s * y)), max(2, s // 22), red, -1, cv2.LINE_AA)
    elif v is Victim.OUTLINE:
        t = max(2, s // 30)
        cv2.circle(img, (s // 2, int(s * 0.2)), int(s * 0.09), dark, t, cv2.LINE_AA)
        cv2.line(img, (s // 2, int(s * 0.3)), (s // 2, int(s * 0.6)), dark, t, cv2.LINE_AA)
        for a, b in (((0.5, 0.36), (0.22, 0.5)), ((0.5, 0.36), (0.8, 0.28)),
                     ((0.5, 0.6), (0.3, 0.88)), ((0.5, 0.6), (0.72, 0.86))):
            cv2.line(img, (int(s * a[0]), int(s * a[1])), (int(s * b[0]), int(s * b[1])), dark, t,
                     cv2.LINE_AA)
        cv2.circle(img, (int(s * 0.7), int(s * 0.55)), int(s * 0.08), red, -1, cv2.LINE_AA)
    else:  # BLOOD
        cv2.ellipse(img, (s // 2, s // 2), (int(s * 0.28), int(s * 0.2)), 20, 0, 360, red, -1,
                    cv2.LINE_AA)
        for x, y, r in ((0.2, 0.25, 0.06), (0.8, 0.3, 0.05), (0.75, 0.8, 0.07), (0.25, 0.78, 0.04),
                        (0.5, 0.15, 0.035)):
            cv2.circle(img, (int(s * x), int(s * y)), int(s * r), red, -1, cv2.LINE_AA)
    return img


@lru_cache(maxsize=256)
def _face_cached(kind: str, side: int, style: Style) -> np.ndarray:
    if kind == "back":
        img = _back(side, style)
    elif kind == "X":
        img = _victim(side, style)
    else:
        img = _glyph(kind, style.font, side, style)
    img = img.copy()
    if style.material in TRAIN_MATERIALS:
        img = train_material(img, kind, style)
    elif style.material in FAMILY2_MATERIALS:
        img = family2_material(img, kind, style)
    elif style.material is not Material.CARD:
        img = family_material(img, kind, style)
    # a thin darker rim: tiles are cut from card, their edge catches less light
    cv2.rectangle(img, (0, 0), (side - 1, side - 1), tuple(int(c * 0.8) for c in img[1, 1]),
                  max(1, side // 50))
    img.setflags(write=False)
    return img


def tile_face(kind: str, side: int, style: Style, turn: int = 0) -> np.ndarray:
    """One tile face, square BGR: ``kind`` is a letter, ``"X"`` (victim) or ``"back"``.

    ``turn`` rotates the face clockwise by 0/90/180/270 degrees.
    """
    img = _face_cached(kind, side, style)
    return np.ascontiguousarray(np.rot90(img, -(turn // 90) % 4))


