"""A crop of one face as a camera sees it, for training and benchmarks."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.glyphs.draw import (
    composite,
    dark_colour,
    glyph_mask,
    light_colour,
    rounded_square,
    shape_mask,
)
from vision.glyphs.fonts import NON_LETTERS, GlyphError
from vision.glyphs.strokes import Style, restyle_picture


def camera_crop(
    rng: np.random.Generator,
    letter: str | None,
    font: Path | None,
    *,
    rotation: int = 0,
    max_tilt: float = 12.0,
    harsh: bool = True,
    style: Style | None = None,
) -> np.ndarray:
    """A BGR crop of one tile/cube face as a camera might see it, with a known letter.

    ``letter=None`` draws a face that carries no letter (a picture, a symbol, a blank face or
    plain noise). ``harsh`` adds the worst of real photos: heavy blur, low resolution, glare,
    JPEG, a skewed view and the table showing around a rounded face. ``style`` draws the
    letter (or symbol) hollow, as dots, stencilled or dashed.
    """
    size = 64
    # every step draws from ``rng`` in a fixed order, so a seed gives the same crop
    mask = _ink(rng, letter, font, size, rotation, max_tilt, style)
    face = _lit_face(rng, mask, size, harsh)
    img = _on_table(rng, face, size, harsh)
    return _through_camera(rng, img, harsh)


def _ink(rng: np.random.Generator, letter: str | None, font: Path | None, size: int,
         rotation: int, max_tilt: float, style: Style | None = None) -> np.ndarray:
    """The face's ink: the letter, or for the reject class a symbol, a picture or noise."""
    tilt = float(rng.uniform(-max_tilt, max_tilt)) if rng.random() < 0.85 else float(rng.normal(0, max_tilt / 3))
    if letter is not None:
        if font is None:
            raise GlyphError("a letter needs a font")
        return glyph_mask(
            letter, font, size, rotation=rotation,
            scale=float(rng.uniform(0.42, 0.72)), tilt=tilt,
            offset=(float(rng.normal(0, 0.04)), float(rng.normal(0, 0.04))),
            weight=float(rng.uniform(-0.5, 1.25)),
            underline=bool(rng.random() < 0.08),
            stretch=float(np.exp(rng.normal(0, 0.1))),
            shear=float(rng.normal(0, 0.08)), style=style,
        )
    r = rng.random()
    if r < 0.35 and font is not None:
        sym = NON_LETTERS[int(rng.integers(0, len(NON_LETTERS)))]
        try:
            return glyph_mask(sym, font, size, rotation=int(rng.integers(0, 4)) * 90,
                              scale=float(rng.uniform(0.4, 0.7)), tilt=tilt, style=style)
        except GlyphError:
            return restyle_picture(shape_mask(rng, size), style)
    if r < 0.9:
        return restyle_picture(shape_mask(rng, size), style)
    mask = np.clip(rng.normal(0.3, 0.3, (size, size)), 0, 1).astype(np.float32)
    out: np.ndarray = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(0.5, 3)))
    return out


def _lit_face(rng: np.random.Generator, mask: np.ndarray, size: int, harsh: bool) -> np.ndarray:
    """The inked face in its colours under uneven light: a gradient, a cube's bevel, glare."""
    if rng.random() < 0.75:
        bg, fg = light_colour(rng), dark_colour(rng)
    else:
        bg, fg = dark_colour(rng), light_colour(rng)
    if abs(sum(bg) - sum(fg)) < 150:  # keep the letter visible
        fg = (0, 0, 0) if sum(bg) > 380 else (255, 255, 255)
    face = composite(mask, fg, bg).astype(np.float32)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    g = 1.0 + rng.uniform(-0.25, 0.25) * (xx - 0.5) + rng.uniform(-0.25, 0.25) * (yy - 0.5)
    face *= g[..., None]
    if harsh and rng.random() < 0.5:  # a cube's bevel: the face darkens towards its edges
        edge = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
        width = rng.uniform(0.05, 0.18)
        face *= (1.0 - rng.uniform(0.2, 0.6) * np.clip(1 - edge / width, 0, 1) ** 2)[..., None]
    if harsh and rng.random() < 0.15:
        gx, gy = rng.uniform(0, 1, 2)
        rad = rng.uniform(0.1, 0.3)
        spot = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * rad**2))
        face += (spot * rng.uniform(40, 120))[..., None]
    return face


def _on_table(rng: np.random.Generator, face: np.ndarray, size: int, harsh: bool) -> np.ndarray:
    """The face on the table: a margin of table, rounded corners, a slightly skewed view."""
    out_size = 80
    table = np.empty((out_size, out_size, 3), np.float32)
    table[:] = np.asarray(dark_colour(rng) if rng.random() < 0.6 else light_colour(rng), np.float32)
    table += rng.normal(0, 8, table.shape).astype(np.float32)
    fill = float(rng.uniform(0.72, 1.0)) if harsh else float(rng.uniform(0.85, 1.0))
    side = fill * out_size
    c = out_size / 2.0 + rng.normal(0, 0.03 * out_size, 2)
    skew = 0.06 if harsh else 0.02
    dst = np.array(
        [[c[0] - side / 2, c[1] - side / 2], [c[0] + side / 2, c[1] - side / 2],
         [c[0] + side / 2, c[1] + side / 2], [c[0] - side / 2, c[1] + side / 2]], np.float32
    ) + rng.normal(0, skew * side, (4, 2)).astype(np.float32)
    src = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    h = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(face, h, (out_size, out_size), flags=cv2.INTER_LINEAR)
    alpha_src = rounded_square(size, int(rng.uniform(0, 0.18) * size))
    alpha = cv2.warpPerspective(alpha_src, h, (out_size, out_size), flags=cv2.INTER_LINEAR)[..., None]
    img: np.ndarray = table * (1 - alpha) + warped * alpha
    return img


def _through_camera(rng: np.random.Generator, img: np.ndarray, harsh: bool) -> np.ndarray:
    """Optics and sensor: blur, motion blur, lost resolution, noise, JPEG."""
    sigma = float(rng.uniform(0, 2.6 if harsh else 1.0))
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if harsh and rng.random() < 0.15:  # motion blur
        k = int(rng.integers(3, 8))
        ker: np.ndarray = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        rm = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        ker = cv2.warpAffine(ker, rm, (k, k))
        ker = (ker / max(1e-6, float(ker.sum()))).astype(np.float32)
        img = cv2.filter2D(img, -1, ker)
    low = int(rng.integers(18, 80)) if harsh else int(rng.integers(36, 80))
    img = cv2.resize(img, (low, low), interpolation=cv2.INTER_AREA)
    img += rng.normal(0, rng.uniform(0, 10 if harsh else 4), img.shape).astype(np.float32)
    u8: np.ndarray = np.asarray(np.clip(img, 0, 255), dtype=np.uint8)
    q = int(rng.integers(25 if harsh else 60, 96))
    ok, buf = cv2.imencode(".jpg", u8, [cv2.IMWRITE_JPEG_QUALITY, q])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return u8 if decoded is None else np.asarray(decoded)
