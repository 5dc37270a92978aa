"""Faces at any angle, boxed as an annotated camera frame shows them."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.glyphs.draw import (
    composite,
    dark_colour,
    glyph_mask,
    rounded_square,
    shape_mask,
)
from vision.glyphs.fonts import BGR, LETTERS, NON_LETTERS, GlyphError
from vision.glyphs.strokes import Style, restyle_picture


def _face_colours(rng: np.random.Generator) -> tuple[BGR, BGR]:
    """(face, ink): mostly dark ink on a light face (cream, white, pastel), sometimes inverted."""
    if rng.random() < 0.82:
        warm = rng.uniform(0, 1)  # 0 white/grey .. 1 cream/yellow
        v = rng.uniform(150, 252)
        face = np.clip([v - warm * rng.uniform(20, 60), v - warm * rng.uniform(0, 15), v], 0, 255)
        face = np.clip(face + rng.normal(0, 10, 3), 0, 255)
        kind = rng.random()
        if kind < 0.45:  # black or grey ink
            ink = np.full(3, rng.uniform(0, 90)) + rng.normal(0, 8, 3)
        elif kind < 0.8:  # blue ink, as on many letter cubes
            ink = np.array([rng.uniform(90, 170), rng.uniform(20, 80), rng.uniform(0, 50)])
        else:  # any dark colour
            ink = rng.uniform(0, 120, 3)
    else:
        face = rng.uniform(0, 110, 3)
        ink = np.clip(rng.uniform(170, 255) + rng.normal(0, 15, 3), 0, 255)
    f = np.clip(face, 0, 255).astype(int)
    k = np.clip(ink, 0, 255).astype(int)
    return (int(f[0]), int(f[1]), int(f[2])), (int(k[0]), int(k[1]), int(k[2]))


def _face_mask(rng: np.random.Generator, letter: str | None, font: Path | None, side: int,
               style: Style | None = None) -> np.ndarray:
    """Ink coverage of an upright face: a letter (sometimes underlined) or a non-letter."""
    if letter is not None:
        if font is None:
            raise GlyphError("a letter needs a font")
        return glyph_mask(
            letter, font, side, scale=float(rng.uniform(0.4, 0.72)),
            tilt=0.0, offset=(float(rng.normal(0, 0.035)), float(rng.normal(0, 0.035))),
            weight=float(rng.uniform(-0.5, 1.25)), underline=bool(rng.random() < 0.12),
            stretch=float(np.exp(rng.normal(0, 0.1))), shear=float(rng.normal(0, 0.06)), style=style,
        )
    r = rng.random()
    if r < 0.3 and font is not None:
        sym = NON_LETTERS[int(rng.integers(0, len(NON_LETTERS)))]
        try:
            return glyph_mask(sym, font, side, scale=float(rng.uniform(0.4, 0.7)), style=style)
        except GlyphError:
            pass
    if r < 0.9:
        return restyle_picture(shape_mask(rng, side), style)
    m = np.clip(rng.normal(0.3, 0.3, (side, side)), 0, 1).astype(np.float32)
    return cv2.GaussianBlur(m, (0, 0), float(rng.uniform(0.5, 3)))


def _table(rng: np.random.Generator, n: int) -> np.ndarray:
    """A background: tray or table colour, grain or noise, a light gradient."""
    base = np.asarray(dark_colour(rng) if rng.random() < 0.5 else rng.uniform(0, 255, 3), np.float32)
    img = np.empty((n, n, 3), np.float32)
    img[:] = base
    if rng.random() < 0.3:  # wood grain
        yy = np.arange(n, dtype=np.float32)[:, None]
        grain = np.sin(yy * rng.uniform(0.1, 0.5) + rng.normal(0, 1.5, (1, n)).cumsum(axis=1) * 0.1)
        img += (grain * rng.uniform(5, 25))[..., None]
    img += rng.normal(0, rng.uniform(2, 10), img.shape).astype(np.float32)
    return img


def face_crop(
    rng: np.random.Generator,
    letter: str | None,
    font: Path | None,
    *,
    turn: float | None = None,
    style: Style | None = None,
) -> tuple[np.ndarray, int]:
    """A BGR crop of one tile or cube face boxed as in a photo, and the letter's quarter turn.

    The face is turned ``turn`` degrees clockwise (random when None: any angle, often near a
    quarter turn, as tiles are laid and cubes settle in a tray); the answer's rotation is the
    nearest quarter turn. The box is the face's axis-aligned extent with an annotator's slop,
    so a face turned 45° fills it as a diamond with table and neighbours in the corners. Then
    a cube's sides, neighbouring faces, uneven light, glare, blur, lost resolution, a box that
    is not square (photos resized to another aspect) and JPEG. ``style`` draws the letters
    (the face's and its neighbours', and a symbol on a face with no letter) hollow, as dots,
    stencilled or dashed, as one set of tiles prints them all.
    """
    w = 40  # face side while drawing
    if turn is None:
        quarter = int(rng.integers(0, 4)) * 90
        spread = 7.0 if rng.random() < 0.55 else 45.0
        turn = quarter + float(rng.uniform(-spread, spread))
    turn = float(turn) % 360.0
    rotation = int(round(turn / 90.0)) % 4 * 90
    # every step draws from ``rng`` in a fixed order, so a seed gives the same crop
    tray = _Tray.lay(rng, w, turn)
    tray.neighbours(rng, font, style)
    tray.face(rng, letter, font, turn, style)
    _light(rng, tray.img)
    return _boxed(rng, tray.img, w, turn), rotation


class _Tray:
    """The scene around the face: faces of one size on a table or tray, cubes or tiles."""

    def __init__(self, img: np.ndarray, w: int, pitch: float, alpha: np.ndarray,
                 side_shift: np.ndarray, shade: float, base_angle: float) -> None:
        self.img = img
        self.w = w
        self.n = img.shape[0]
        self.pitch = pitch
        self.alpha = alpha
        self.side_shift = side_shift
        self.shade = shade
        self.base_angle = base_angle
        self.cube = False

    @classmethod
    def lay(cls, rng: np.random.Generator, w: int, turn: float) -> _Tray:
        n = 3 * w
        img = _table(rng, n)
        pitch = w * float(rng.uniform(1.04, 1.35))
        radius = int(rng.uniform(0.0, 0.22) * w)
        side_shift = rng.normal(0, 0.07 * w, 2) if rng.random() < 0.7 else np.zeros(2)
        shade = float(rng.uniform(0.45, 0.85))
        base_angle = float(rng.uniform(0, 360)) if rng.random() < 0.3 else turn
        tray = cls(img, w, pitch, rounded_square(w, radius), side_shift, shade, base_angle)
        tray.cube = rng.random() < 0.6
        return tray

    def place(self, face: np.ndarray, cx: float, cy: float, angle: float) -> None:
        """Draw ``face`` centred at (cx, cy) turned ``angle`` degrees, over a cube's darker
        body when the faces are cubes."""
        w, n, img = self.w, self.n, self.img
        a = np.deg2rad(angle)
        m = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0]])
        m[:, 2] = [cx, cy] - m[:, :2] @ np.array([(w - 1) / 2.0, (w - 1) / 2.0])
        if self.cube:  # the cube's side faces: a darker body under the face, shifted by the view
            shift = np.array([[0, 0, self.side_shift[0]], [0, 0, self.side_shift[1]]])
            body = cv2.warpAffine(self.alpha, m + shift, (n, n))[..., None]
            body_col = face[w // 2, 2].astype(np.float32) * self.shade
            img[:] = img * (1 - body) + body_col * body
        al = cv2.warpAffine(self.alpha, m, (n, n))[..., None]
        fc = cv2.warpAffine(face, m, (n, n), flags=cv2.INTER_LINEAR)
        img[:] = img * (1 - al) + fc * al

    def neighbours(self, rng: np.random.Generator, font: Path | None, style: Style | None = None) -> None:
        """Most of the eight neighbouring faces, drawn before the face itself (it lies on top)."""
        if rng.random() >= 0.75:
            return
        w, c0 = self.w, self.n / 2.0
        ga = np.deg2rad(self.base_angle)
        ux, uy = np.cos(ga) * self.pitch, np.sin(ga) * self.pitch
        for di, dj in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
            if rng.random() < 0.2:
                continue
            fcol, icol = _face_colours(rng)
            other = LETTERS[int(rng.integers(0, len(LETTERS)))] if rng.random() < 0.8 else None
            mask = _face_mask(rng, other, font, w, style) if font is not None else np.zeros((w, w), np.float32)
            face = composite(mask, icol, fcol).astype(np.float32)
            cx = c0 + di * ux - dj * uy + rng.normal(0, 0.05 * w)
            cy = c0 + di * uy + dj * ux + rng.normal(0, 0.05 * w)
            self.place(face, cx, cy, self.base_angle + float(rng.normal(0, 6)) + 90 * int(rng.integers(0, 4)))

    def face(self, rng: np.random.Generator, letter: str | None, font: Path | None,
             turn: float, style: Style | None = None) -> None:
        """The face itself in the middle, a cube's bevel darkening it towards its edges."""
        w, c0 = self.w, self.n / 2.0
        fcol, icol = _face_colours(rng)
        mask = _face_mask(rng, letter, font, w, style)
        face = composite(mask, icol, fcol).astype(np.float32)
        yy, xx = np.mgrid[0:w, 0:w].astype(np.float32) / w
        if rng.random() < 0.5:  # a cube's bevel darkens the face towards its edges
            edge = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
            width = rng.uniform(0.05, 0.18)
            face *= (1.0 - rng.uniform(0.15, 0.5) * np.clip(1 - edge / width, 0, 1) ** 2)[..., None]
        self.place(face, c0, c0, turn)


def _light(rng: np.random.Generator, img: np.ndarray) -> None:
    """Light over everything: a gradient, sometimes a glare spot or a shadow."""
    n = img.shape[0]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    img *= (1.0 + rng.uniform(-0.5, 0.5) * (xx - 0.5) + rng.uniform(-0.5, 0.5) * (yy - 0.5))[..., None]
    if rng.random() < 0.15:
        gx, gy = rng.uniform(0.35, 0.65, 2)
        rad = rng.uniform(0.03, 0.1)
        img += (np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rad**2)) * rng.uniform(40, 140))[..., None]
    if rng.random() < 0.15:
        a = rng.uniform(0, 2 * np.pi)
        d = (xx - 0.5) * np.cos(a) + (yy - 0.5) * np.sin(a) - rng.uniform(-0.1, 0.1)
        img *= (1.0 - rng.uniform(0.2, 0.5) * (d > 0))[..., None]


def _boxed(rng: np.random.Generator, img: np.ndarray, w: int, turn: float) -> np.ndarray:
    """The box: the face's extent turned, with slop, then a camera's optics and sensor."""
    n = img.shape[0]
    c0 = n / 2.0
    half = (w / 2.0) * (abs(np.cos(np.deg2rad(turn))) + abs(np.sin(np.deg2rad(turn))))
    half *= float(rng.uniform(0.95, 1.12))
    x0, x1, y0, y1 = (c0 - half + rng.normal(0, 0.05 * w), c0 + half + rng.normal(0, 0.05 * w),
                      c0 - half + rng.normal(0, 0.05 * w), c0 + half + rng.normal(0, 0.05 * w))
    sigma = float(rng.uniform(0, 2.0)) * (2 * half / 40.0)
    if rng.random() < 0.15:
        sigma = float(rng.uniform(2.0, 3.5)) * (2 * half / 40.0)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.12:  # motion blur
        k = int(rng.integers(3, 9))
        ker: np.ndarray = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        rm = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        ker = cv2.warpAffine(ker, rm, (k, k))
        img = cv2.filter2D(img, -1, (ker / max(1e-6, float(ker.sum()))).astype(np.float32))
    crop = img[int(max(0, y0)) : int(min(n, y1)), int(max(0, x0)) : int(min(n, x1))]
    h_out = int(rng.integers(16, 64))
    aspect = float(np.exp(rng.normal(0.12, 0.22)))  # photos squeezed to a square canvas
    w_out = int(np.clip(round(h_out * aspect), 12, 96))
    crop = cv2.resize(crop, (w_out, h_out), interpolation=cv2.INTER_AREA)
    crop += rng.normal(0, rng.uniform(0, 9), crop.shape).astype(np.float32)
    u8: np.ndarray = np.asarray(np.clip(crop, 0, 255), dtype=np.uint8)
    ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 96))])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return u8 if decoded is None else np.asarray(decoded)
