"""Single letters drawn from installed fonts: tile faces for synth, training crops for letters.

The fonts are split once, by family, into ``train`` and ``test``: the letter model only ever
sees ``train`` families, so a benchmark on ``test`` families measures styles it never saw.
Clones (Liberation/Nimbus/Free Sans are all Helvetica-like) stay on the same side where
possible; the test families below are chosen because no train family resembles them closely.

Colours are BGR tuples, as everywhere in OpenCV. Rotation is clockwise, in degrees.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

_log = logging.getLogger(__name__)

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

# Families the letter model never trains on (unseen styles for tests and bench).
TEST_FAMILIES = frozenset({"Carlito", "Caladea", "URW Gothic", "DejaVu Serif"})
# Script and symbol faces: not letters a tile or cube would carry.
SKIP_FAMILIES = frozenset({"Z003", "D050000L", "Standard Symbols PS"})

# Shapes that are not letters, for the reject class (digits that look like letters are left out).
NON_LETTERS = "#&?@%*+=34"

Split = Literal["train", "test", "all"]
BGR = tuple[int, int, int]


class GlyphError(ValueError):
    """A font or letter that cannot be drawn."""


@functools.lru_cache(maxsize=1)
def _all_fonts() -> tuple[tuple[Path, str], ...]:
    """Every usable font as (path, family), one file per (family, style), sorted for stability."""
    seen: dict[tuple[str, str], Path] = {}
    files: list[Path] = []
    for root in FONT_DIRS:
        if root.is_dir():
            files.extend(p for p in root.rglob("*") if p.suffix.lower() in (".ttf", ".otf"))
    for path in sorted(files, key=lambda p: (p.name, str(p))):
        try:
            font = ImageFont.truetype(str(path), 32)
        except OSError:
            continue
        family, style = font.getname()
        family = family or path.stem
        if family in SKIP_FAMILIES or (family, style or "") in seen:
            continue
        if not _has_letters(font):
            continue
        seen[(family, style or "")] = path
    return tuple(sorted(((p, fam) for (fam, _), p in seen.items()), key=lambda x: str(x[0])))


def _has_letters(font: ImageFont.FreeTypeFont) -> bool:
    """True when the font draws all of A–Z and the umlauts (not its 'missing glyph' box)."""
    def ink(ch: str) -> bytes:
        im = Image.new("L", (64, 64), 0)
        ImageDraw.Draw(im).text((8, 8), ch, font=font, fill=255)
        return im.tobytes()

    missing = ink("\U0010fffd")
    return all(ink(ch) != missing for ch in LETTERS)


def font_paths(split: Split = "all") -> list[Path]:
    """Installed fonts that draw A–Z, Ä, Ö, Ü; ``test`` families are never used in training."""
    if split not in ("train", "test", "all"):
        raise GlyphError(f"unknown font split {split!r}")
    fonts = _all_fonts()
    if split == "all":
        return [p for p, _ in fonts]
    want_test = split == "test"
    return [p for p, fam in fonts if (fam in TEST_FAMILIES) == want_test]


def font_family(font: Path) -> str:
    """The family name of a font file (for reports)."""
    return str(_load_font(str(font), 32).getname()[0])


@functools.lru_cache(maxsize=512)
def _load_font(path: str, px: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(path, px)
    except OSError as exc:
        raise GlyphError(f"cannot load font {path}: {exc}") from exc


@functools.lru_cache(maxsize=256)
def _cap_height(path: str) -> float:
    """Height of 'H' per pixel of font size, so every letter of a font shares one scale."""
    font = _load_font(path, 200)
    box = font.getbbox("H")
    return max(1.0, float(box[3] - box[1])) / 200.0


_BASE_CAP = 128  # cap height in pixels of the cached master drawings


@functools.lru_cache(maxsize=2048)
def _master(font: str, letter: str, weight_q: int) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """One big drawing of a letter (cap height _BASE_CAP px) and its ink box, per stroke weight.

    Every size, turn and tilt is then one affine warp of this master: far cheaper than asking
    FreeType again, which is what makes rendering tens of thousands of training crops quick.
    """
    weight = weight_q / 4.0
    px = max(4, int(round(_BASE_CAP / _cap_height(font))))
    fnt = _load_font(font, px)
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
) -> np.ndarray:
    """Coverage (0..1 float32, size x size) of one letter centred on a square face.

    ``scale`` is the cap height as a fraction of the face; ``offset`` shifts the letter by a
    fraction of the face; ``weight`` thickens (>0) or thins (<0) strokes (steps of 0.25);
    ``underline`` adds the bar that letter dice put under M, W, N, Z to show which way is up;
    ``stretch`` widens (>1) or narrows the letter and ``shear`` slants it (tan of the slant).
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
) -> np.ndarray:
    """A square BGR tile face (uint8, size x size) with ``letter`` in ``fg`` on ``bg``.

    ``rotation`` (0/90/180/270) turns the letter clockwise; ``tilt`` adds a few degrees more.
    ``weight_jitter`` in about [-1, 1] makes strokes thinner or bolder than the font's own.
    """
    mask = glyph_mask(
        letter, font, size, rotation=rotation, scale=scale, tilt=tilt, offset=offset,
        weight=weight_jitter, underline=underline,
    )
    return _composite(mask, fg, bg)


def _composite(mask: np.ndarray, fg: BGR, bg: BGR) -> np.ndarray:
    m = mask[..., None]
    f = np.asarray(fg, np.float32)[None, None, :]
    b = np.asarray(bg, np.float32)[None, None, :]
    out: np.ndarray = np.clip(b * (1.0 - m) + f * m, 0, 255).astype(np.uint8)
    return out


# --- crops as a camera sees them (training and benchmarks) -----------------------------------

def _light_colour(rng: np.random.Generator) -> BGR:
    base = rng.uniform(150, 255)
    tint = rng.normal(0, 18, 3)
    c = np.clip(base + tint, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def _dark_colour(rng: np.random.Generator) -> BGR:
    base = rng.uniform(0, 110)
    tint = rng.normal(0, 25, 3)
    c = np.clip(base + tint, 0, 255)
    return (int(c[0]), int(c[1]), int(c[2]))


def _shape_mask(rng: np.random.Generator, size: int) -> np.ndarray:
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


def camera_crop(
    rng: np.random.Generator,
    letter: str | None,
    font: Path | None,
    *,
    rotation: int = 0,
    max_tilt: float = 12.0,
    harsh: bool = True,
) -> np.ndarray:
    """A BGR crop of one tile/cube face as a camera might see it, with a known letter.

    ``letter=None`` draws a face that carries no letter (a picture, a symbol, a blank face or
    plain noise). ``harsh`` adds the worst of real photos: heavy blur, low resolution, glare,
    JPEG, a skewed view and the table showing around a rounded face.
    """
    size = 64
    tilt = float(rng.uniform(-max_tilt, max_tilt)) if rng.random() < 0.85 else float(rng.normal(0, max_tilt / 3))
    if letter is not None:
        if font is None:
            raise GlyphError("a letter needs a font")
        mask = glyph_mask(
            letter, font, size, rotation=rotation,
            scale=float(rng.uniform(0.42, 0.72)), tilt=tilt,
            offset=(float(rng.normal(0, 0.04)), float(rng.normal(0, 0.04))),
            weight=float(rng.uniform(-0.5, 1.25)),
            underline=bool(rng.random() < 0.08),
            stretch=float(np.exp(rng.normal(0, 0.1))),
            shear=float(rng.normal(0, 0.08)),
        )
    else:
        r = rng.random()
        if r < 0.35 and font is not None:
            sym = NON_LETTERS[int(rng.integers(0, len(NON_LETTERS)))]
            try:
                mask = glyph_mask(sym, font, size, rotation=int(rng.integers(0, 4)) * 90,
                                  scale=float(rng.uniform(0.4, 0.7)), tilt=tilt)
            except GlyphError:
                mask = _shape_mask(rng, size)
        elif r < 0.9:
            mask = _shape_mask(rng, size)
        else:
            mask = np.clip(rng.normal(0.3, 0.3, (size, size)), 0, 1).astype(np.float32)
            mask = cv2.GaussianBlur(mask, (0, 0), float(rng.uniform(0.5, 3)))
    if rng.random() < 0.75:
        bg, fg = _light_colour(rng), _dark_colour(rng)
    else:
        bg, fg = _dark_colour(rng), _light_colour(rng)
    if abs(sum(bg) - sum(fg)) < 150:  # keep the letter visible
        fg = (0, 0, 0) if sum(bg) > 380 else (255, 255, 255)
    face = _composite(mask, fg, bg).astype(np.float32)

    # light: a gradient and sometimes a glare spot
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

    # the face on the table: a margin of table, rounded corners, a slightly skewed view
    out_size = 80
    table = np.empty((out_size, out_size, 3), np.float32)
    table[:] = np.asarray(_dark_colour(rng) if rng.random() < 0.6 else _light_colour(rng), np.float32)
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
    alpha_src = _rounded_square(size, int(rng.uniform(0, 0.18) * size))
    alpha = cv2.warpPerspective(alpha_src, h, (out_size, out_size), flags=cv2.INTER_LINEAR)[..., None]
    img: np.ndarray = table * (1 - alpha) + warped * alpha

    # optics and sensor: blur, lost resolution, noise, JPEG
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
    return u8 if decoded is None else decoded


def font_label(font: Path) -> str:
    """'Family Style' for reports."""
    fam, style = _load_font(str(font), 32).getname()
    return f"{fam} {style}".strip()


def split_families(split: Split) -> Sequence[str]:
    """Family names on one side of the split (for reports)."""
    return sorted({font_family(p) for p in font_paths(split)})


# --- faces at any angle, boxed as a camera frame shows them ------------------------------------

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


def _rounded_square(side: int, radius: int) -> np.ndarray:
    a = np.zeros((side, side), np.float32)
    r = max(0, min(radius, side // 2 - 1))
    cv2.rectangle(a, (r, 0), (side - 1 - r, side - 1), 1.0, -1)
    cv2.rectangle(a, (0, r), (side - 1, side - 1 - r), 1.0, -1)
    for px, py in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(a, (px, py), r, 1.0, -1)
    return a


def _face_mask(rng: np.random.Generator, letter: str | None, font: Path | None, side: int) -> np.ndarray:
    """Ink coverage of an upright face: a letter (sometimes underlined) or a non-letter."""
    if letter is not None:
        if font is None:
            raise GlyphError("a letter needs a font")
        return glyph_mask(
            letter, font, side, scale=float(rng.uniform(0.4, 0.72)),
            tilt=0.0, offset=(float(rng.normal(0, 0.035)), float(rng.normal(0, 0.035))),
            weight=float(rng.uniform(-0.5, 1.25)), underline=bool(rng.random() < 0.12),
            stretch=float(np.exp(rng.normal(0, 0.1))), shear=float(rng.normal(0, 0.06)),
        )
    r = rng.random()
    if r < 0.3 and font is not None:
        sym = NON_LETTERS[int(rng.integers(0, len(NON_LETTERS)))]
        try:
            return glyph_mask(sym, font, side, scale=float(rng.uniform(0.4, 0.7)))
        except GlyphError:
            pass
    if r < 0.9:
        return _shape_mask(rng, side)
    m = np.clip(rng.normal(0.3, 0.3, (side, side)), 0, 1).astype(np.float32)
    return cv2.GaussianBlur(m, (0, 0), float(rng.uniform(0.5, 3)))


def _table(rng: np.random.Generator, n: int) -> np.ndarray:
    """A background: tray or table colour, grain or noise, a light gradient."""
    base = np.asarray(_dark_colour(rng) if rng.random() < 0.5 else rng.uniform(0, 255, 3), np.float32)
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
) -> tuple[np.ndarray, int]:
    """A BGR crop of one tile or cube face boxed as in a photo, and the letter's quarter turn.

    The face is turned ``turn`` degrees clockwise (random when None: any angle, often near a
    quarter turn, as tiles are laid and cubes settle in a tray); the answer's rotation is the
    nearest quarter turn. The box is the face's axis-aligned extent with an annotator's slop,
    so a face turned 45° fills it as a diamond with table and neighbours in the corners. Then
    a cube's sides, neighbouring faces, uneven light, glare, blur, lost resolution, a box that
    is not square (photos resized to another aspect) and JPEG.
    """
    w = 40  # face side while drawing
    n = 3 * w
    if turn is None:
        quarter = int(rng.integers(0, 4)) * 90
        spread = 7.0 if rng.random() < 0.55 else 45.0
        turn = quarter + float(rng.uniform(-spread, spread))
    turn = float(turn) % 360.0
    rotation = int(round(turn / 90.0)) % 4 * 90

    img = _table(rng, n)
    c0 = n / 2.0
    pitch = w * float(rng.uniform(1.04, 1.35))
    radius = int(rng.uniform(0.0, 0.22) * w)
    side_shift = rng.normal(0, 0.07 * w, 2) if rng.random() < 0.7 else np.zeros(2)
    shade = float(rng.uniform(0.45, 0.85))
    alpha_face = _rounded_square(w, radius)
    base_angle = float(rng.uniform(0, 360)) if rng.random() < 0.3 else turn

    def place(face: np.ndarray, cx: float, cy: float, angle: float, sides: bool) -> None:
        a = np.deg2rad(angle)
        m = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0]])
        m[:, 2] = [cx, cy] - m[:, :2] @ np.array([(w - 1) / 2.0, (w - 1) / 2.0])
        if sides:  # the cube's side faces: a darker body under the face, shifted by the view
            body = cv2.warpAffine(alpha_face, m + np.array([[0, 0, side_shift[0]], [0, 0, side_shift[1]]]),
                                  (n, n))[..., None]
            body_col = face[w // 2, 2].astype(np.float32) * shade
            img[:] = img * (1 - body) + body_col * body
        al = cv2.warpAffine(alpha_face, m, (n, n))[..., None]
        fc = cv2.warpAffine(face, m, (n, n), flags=cv2.INTER_LINEAR)
        img[:] = img * (1 - al) + fc * al

    cube = rng.random() < 0.6
    # neighbours first (the face itself is drawn last, on top)
    if rng.random() < 0.75:
        ga = np.deg2rad(base_angle)
        ux, uy = np.cos(ga) * pitch, np.sin(ga) * pitch
        for di, dj in ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)):
            if rng.random() < 0.2:
                continue
            fcol, icol = _face_colours(rng)
            other = LETTERS[int(rng.integers(0, len(LETTERS)))] if rng.random() < 0.8 else None
            mask = _face_mask(rng, other, font, w) if font is not None else np.zeros((w, w), np.float32)
            face = _composite(mask, icol, fcol).astype(np.float32)
            cx = c0 + di * ux - dj * uy + rng.normal(0, 0.05 * w)
            cy = c0 + di * uy + dj * ux + rng.normal(0, 0.05 * w)
            place(face, cx, cy, base_angle + float(rng.normal(0, 6)) + 90 * int(rng.integers(0, 4)), cube)

    fcol, icol = _face_colours(rng)
    mask = _face_mask(rng, letter, font, w)
    face = _composite(mask, icol, fcol).astype(np.float32)
    yy, xx = np.mgrid[0:w, 0:w].astype(np.float32) / w
    if rng.random() < 0.5:  # a cube's bevel darkens the face towards its edges
        edge = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
        width = rng.uniform(0.05, 0.18)
        face *= (1.0 - rng.uniform(0.15, 0.5) * np.clip(1 - edge / width, 0, 1) ** 2)[..., None]
    place(face, c0, c0, turn, cube)

    # light over everything: a gradient, sometimes a glare spot or a shadow
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

    # the box: the face's extent turned, with slop, then a camera's optics and sensor
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
    return (u8 if decoded is None else decoded), rotation
