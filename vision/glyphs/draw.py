"""Letters and non-letter pictures drawn as ink masks, and the colours faces are printed in."""

from __future__ import annotations

import functools
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from vision.glyphs.fonts import BGR, GlyphError, cap_height, load_font
from vision.glyphs.strokes import Style, restyle

_BASE_CAP = 128  # cap height in pixels of the cached master drawings


@functools.lru_cache(maxsize=2048)
def _master(font: str, letter: str, weight_q: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """One big drawing of a letter (cap height _BASE_CAP px) and its ink box, per stroke weight.

    Every size, turn and tilt is then one affine warp of this master: far cheaper than asking
    FreeType again, which is what makes rendering tens of thousands of training crops quick.
    """
    weight = weight_q / 4.0
    px = max(4, int(round(_BASE_CAP / cap_height(font))))
    fnt = load_font(font, px)
    stroke = int(round(max(0.0, weight) * px / 18.0))
    canvas = 3 * px
    img = Image.new("L", (canvas, canvas), 0)
    ImageDraw.Draw(img).text((px, px), letter, font=fnt, fill=255, stroke_width=stroke, stroke_fill=255)
    mask: np.ndarray = np.asarray(img, dtype=np.uint8).copy()
    if weight < 0:
        k = int(round(-weight * px / 18.0))
        if k > 0:
            mask = cv2.erode(mask, np.ones((k + 1, k + 1), np.uint8))
    ys, xs = np.nonzero(mask > 32)
    if len(xs) == 0:
        raise GlyphError(f"font {Path(font).name} draws nothing for {letter!r}")
    # keep only the letter and a margin (room for an underline): small enough to cache
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()), int(ys.min()), int(ys.max())
    pad = _BASE_CAP // 4
    top, left = max(0, y0 - pad), max(0, x0 - pad)
    mask = np.ascontiguousarray(mask[top : y1 + pad + 1, left : x1 + pad + 1])
    return mask, (x0 - left, x1 - left, y0 - top, y1 - top)


def glyph_mask(
    letter: str,
    font: Path,
    size: int,
    *,
    rotation: int = 0,
    scale: float = 0.6,
    tilt: float = 0.0,
    offset: tuple[float, float] = (0.0, 0.0),
    weight: float = 0.0,
    underline: bool = False,
    stretch: float = 1.0,
    shear: float = 0.0,
    style: Style | None = None,
) -> np.ndarray:
    """Coverage (0..1 float32, size x size) of one letter centred on a square face.

    ``scale`` is the cap height as a fraction of the face; ``offset`` shifts the letter by a
    fraction of the face; ``weight`` thickens (>0) or thins (<0) strokes (steps of 0.25);
    ``underline`` adds the bar that letter dice put under M, W, N, Z to show which way is up;
    ``stretch`` widens (>1) or narrows the letter and ``shear`` slants it (tan of the slant);
    ``style`` redraws it hollow, as dots, stencilled or dashed (:mod:`vision.glyphs.strokes`).
    """
    if not letter:
        raise GlyphError("empty letter")
    if rotation % 90:
        raise GlyphError(f"rotation must be a multiple of 90, not {rotation}")
    mask, (x0, x1, y0, y1) = _master(str(font), letter, int(round(weight * 4)))
    if underline:
        mask = mask.copy()
        bar_h = max(2, int(round(_BASE_CAP * 0.09)))
        top = y1 + max(2, int(round(_BASE_CAP * 0.1)))
        mask[top : top + bar_h, x0 : x1 + 1] = 255
        y1 = top + bar_h - 1
    if style is not None:
        mask = restyle(mask, (x0, x1, y0, y1), _BASE_CAP, style)
    big = size * 2  # warp at twice the size, then area-downsample: smooth, honest edges
    f = big * scale / _BASE_CAP
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    a = np.deg2rad(rotation + tilt)  # clockwise on screen (y points down)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    lin = rot @ np.array([[f * stretch, -shear * f], [0.0, f]])
    t = np.array([(big - 1) / 2.0 + offset[0] * big, (big - 1) / 2.0 + offset[1] * big])  # pixel centres
    m = np.hstack([lin, (t - lin @ np.array([cx, cy]))[:, None]]).astype(np.float64)
    src = mask
    if f < 0.5:  # shrink the master first so the warp does not alias thin strokes away
        k = 0.5 / f
        src = cv2.resize(mask, None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA)
        m[:, :2] *= k
    out = cv2.warpAffine(src, m, (big, big), flags=cv2.INTER_LINEAR, borderValue=0)
    small = cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)
    return small.astype(np.float32) / 255.0


def render_glyph(
    letter: str,
    font: Path,
    size: int,
    fg: BGR,
    bg: BGR,
    rotation: int = 0,
    weight_jitter: float = 0.0,
    *,
    scale: float = 0.6,
    tilt: float = 0.0,
    offset: tuple[float, float] = (0.0, 0.0),
    underline: bool = False,
    style: Style | None = None,
) -> np.ndarray:
    """A square BGR tile face (uint8, size x size) with ``letter`` in ``fg`` on ``bg``.

    ``rotation`` (0/90/180/270) turns the letter clockwise; ``tilt`` adds a few degrees more.
    ``weight_jitter`` in about [-1, 1] makes strokes thinner or bolder than the font's own;
    ``style`` draws it hollow or as dots (:mod:`vision.glyphs.strokes`).
    """
    mask = glyph_mask(
        letter, font, size, rotation=rotation, scale=scale, tilt=tilt, offset=offset,
        weight=weight_jitter, underline=underline, style=style,
    )
    return composite(mask, fg, bg)


def composite(mask: np.ndarray, fg: BGR, bg: BGR) -> np.ndarray:
    m = mask[..., None]
    f = np.asarray(fg, np.float32)[None, None, :]
    b = np.asarray(bg, np.float32)[None, None, :]
    out: np.ndarray = np.clip(b * (1.0 - m) + f * m, 0, 255).astype(np.uint8)
    return out

# --- crops as a camera sees them (training and benchmarks) -----------------------------------


def light_colour(rng: np.random.Generator) -> BGR:
    base = rng.uniform(150, 255)
    tint = rng.normal(0, 18, 3)
    c = np.clip(base + tint, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def dark_colour(rng: np.random.Generator) -> BGR:
    base = rng.uniform(0, 110)
    tint = rng.normal(0, 25, 3)
    c = np.clip(base + tint, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def shape_mask(rng: np.random.Generator, size: int) -> np.ndarray:
    """A picture that is not a letter: blobs, strokes, a figure, a pattern (reject class)."""
    img: np.ndarray = np.zeros((size, size), np.uint8)
    kind = rng.integers(0, 11)
    c = size // 2
    th = int(rng.integers(1, max(2, size // 10)))
    if kind == 0:  # a little figure: head, body, limbs (like a victim tile)
        r = int(size * rng.uniform(0.07, 0.14))
        cv2.circle(img, (c, int(c - size * 0.2)), r, 255, -1)
        cv2.line(img, (c, c - int(size * 0.1)), (c, c + int(size * 0.15)), 255, th + 1)
        for dx in (-1, 1):
            cv2.line(img, (c, c), (c + dx * int(size * 0.15), c - int(size * 0.05)), 255, th)
            cv2.line(img, (c, c + int(size * 0.15)), (c + dx * int(size * 0.12), c + int(size * 0.3)), 255, th)
    elif kind == 1:  # random strokes
        for _ in range(int(rng.integers(2, 6))):
            p = rng.integers(size // 5, 4 * size // 5, 4)
            cv2.line(img, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), 255, th)
    elif kind == 2:  # blobs
        for _ in range(int(rng.integers(1, 5))):
            p = rng.integers(size // 5, 4 * size // 5, 2)
            ax = rng.integers(2, size // 5, 2)
            cv2.ellipse(img, (int(p[0]), int(p[1])), (int(ax[0]), int(ax[1])), float(rng.uniform(0, 180)), 0, 360, 255, -1)
    elif kind == 3:  # pattern like a tile back
        step = int(rng.integers(4, max(5, size // 4)))
        for x in range(0, size, step):
            cv2.line(img, (x, 0), (x + size // 2, size), 255, 1)
    elif kind == 4:  # a skull or face: a disc with holes for eyes and mouth
        r = int(size * rng.uniform(0.22, 0.32))
        cv2.circle(img, (c, c), r, 255, -1)
        e = max(2, r // 3)
        for dx in (-1, 1):
            cv2.circle(img, (c + dx * r // 2, c - r // 5), e, 0, -1)
        cv2.ellipse(img, (c, c + r // 2), (r // 2, max(1, r // 6)), 0, 0, 360, 0, -1)
    elif kind == 5:  # a dagger: blade, guard, grip
        blade = int(size * rng.uniform(0.25, 0.4))
        cv2.line(img, (c, c - blade), (c, c + size // 8), 255, th + 2)
        cv2.line(img, (c - size // 7, c + size // 8), (c + size // 7, c + size // 8), 255, th + 1)
        cv2.line(img, (c, c + size // 8), (c, c + size // 4), 255, th + 2)
    elif kind == 6:  # a splash: a blob with spikes and drops
        pts = []
        for k in range(14):
            a = 2 * np.pi * k / 14
            rr = size * (rng.uniform(0.12, 0.2) if k % 2 else rng.uniform(0.22, 0.36))
            pts.append((int(c + rr * np.cos(a)), int(c + rr * np.sin(a))))
        cv2.fillPoly(img, [np.array(pts, np.int32)], 255)
        for _ in range(int(rng.integers(1, 5))):
            p = rng.integers(size // 8, 7 * size // 8, 2)
            cv2.circle(img, (int(p[0]), int(p[1])), int(rng.integers(1, max(2, size // 16))), 255, -1)
    elif kind == 8:  # the outline of a random closed shape (a chalk line, a frame, a drawing)
        k = int(rng.integers(5, 12))
        ang = np.sort(rng.uniform(0, 2 * np.pi, k))
        rad = size * rng.uniform(0.15, 0.4, k)
        ring = np.stack([c + rad * np.cos(ang), c + rad * np.sin(ang) * rng.uniform(0.6, 1.4)], axis=1)
        cv2.polylines(img, [ring.astype(np.int32)], True, 255, th + int(rng.integers(0, 2)), cv2.LINE_AA)
    elif kind == 9:  # a filled random polygon, sometimes with a hole
        k = int(rng.integers(3, 9))
        corners = rng.uniform(size * 0.15, size * 0.85, (k, 2))
        cv2.fillPoly(img, [cv2.convexHull(corners.astype(np.int32))], 255)
        if rng.random() < 0.5:
            cv2.circle(img, (int(rng.integers(size // 3, 2 * size // 3)),) * 2, int(size * 0.08), 0, -1)
    elif kind == 10:  # a few small marks: an icon of parts
        for _ in range(int(rng.integers(2, 6))):
            p = rng.integers(size // 5, 4 * size // 5, 2)
            if rng.random() < 0.5:
                cv2.circle(img, (int(p[0]), int(p[1])), int(rng.integers(2, max(3, size // 8))), 255,
                           -1 if rng.random() < 0.5 else th)
            else:
                q = p + rng.integers(-size // 4, size // 4, 2)
                cv2.rectangle(img, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), 255, -1 if rng.random() < 0.5 else th)
    if kind != 7 and rng.random() < 0.5:  # pictures come in any direction
        img = cv2.rotate(img, [cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE][int(rng.integers(0, 3))])
    # kind 7: blank face
    return img.astype(np.float32) / 255.0


def rounded_square(side: int, radius: int) -> np.ndarray:
    """A face's opacity: tiles and cubes have rounded corners that show the table."""
    a = np.zeros((side, side), np.float32)
    r = max(0, min(radius, side // 2 - 1))
    cv2.rectangle(a, (r, 0), (side - 1 - r, side - 1), 1.0, -1)
    cv2.rectangle(a, (0, r), (side - 1, side - 1 - r), 1.0, -1)
    for px, py in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(a, (px, py), r, 1.0, -1)
    return a
