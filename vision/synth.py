"""Render realistic photos of a Finde-den-Mörder table, with the ground truth of every tile.

Tests, the bench and ``companion demo`` need tables we know the answer for. A render draws a
top-down "table plane" (wood or cloth, 36 hand-laid tiles with their shadows), then looks at it
through a tilted camera (a homography), and spoils it the way a real camera does: uneven
light, glare, blur, sensor noise and JPEG. Everything is drawn from a seed, so a render is
reproducible bit for bit.

Styles come in two splits that never overlap: ``"train"`` (fonts, colours, back patterns and
victim pictures that may be used to tune or train anything) and ``"bench"`` (never used for
tuning; the bench measures on them only). Fonts come from :mod:`vision.glyphs` when it is
there (its own train/test split), else from a built-in list with the same rule.

Example::

    layout = make_layout(style, seed=7)
    for image, truth in render_game(boards, style, seed=7):  # same tiles, turned one by one
        ...
"""

from __future__ import annotations

import enum
import logging
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Literal

import cv2
import numpy as np

from companion.games.moerder.board import CELLS, SIZE, Board, Tile

_log = logging.getLogger(__name__)

Colour = tuple[int, int, int]  # BGR
Split = Literal["train", "bench"]

RESOLUTIONS: tuple[tuple[int, int], ...] = ((1280, 960), (1640, 1232), (1920, 1080), (1600, 1200))


class BackPattern(enum.Enum):
    """What the back of every tile shows (the same for all 36)."""

    PLAIN = "plain"
    STRIPES = "stripes"
    DOTS = "dots"
    CHECKER = "checker"
    RINGS = "rings"
    DIAMONDS = "diamonds"
    CROSSHATCH = "crosshatch"
    FRAME = "frame"


class Victim(enum.Enum):
    """The picture on the victim tile."""

    SKULL = "skull"
    DAGGER = "dagger"
    OUTLINE = "outline"  # a chalk outline of a body
    BLOOD = "blood"  # a splash with drops


class Table(enum.Enum):
    WOOD = "wood"
    PLAIN = "plain"
    CLOTH = "cloth"


@dataclass(frozen=True)
class Style:
    """How a tile set and its table look."""

    name: str
    font: Path
    face: Colour
    ink: Colour
    back: Colour
    back_ink: Colour
    pattern: BackPattern
    victim: Victim
    table: Table
    table_colour: Colour
    radius: float = 0.08  # corner radius as a fraction of the tile side
    letter_scale: float = 0.62  # letter height / tile side


@dataclass(frozen=True)
class Layout:
    """Everything about a scene that stays put during a game: camera, tiles, light."""

    size: tuple[int, int]  # output (width, height)
    canvas: tuple[int, int]  # table-plane canvas (width, height)
    homography: np.ndarray  # 3x3, canvas -> image
    tile: int  # tile side in canvas px
    centres: np.ndarray  # (36, 2) tile centres in canvas px, row-major
    angles: np.ndarray  # (36,) tile rotation in degrees (counter-clockwise in the canvas)
    turns: tuple[int, ...]  # per cell, how far the face is turned clockwise: 0/90/180/270
    light: np.ndarray  # low-res multiplicative light field
    glare: tuple[float, float, float, float] | None  # x, y (image px), radius, strength
    blur: float
    noise: float
    jpeg: int
    seed: int


@dataclass(frozen=True)
class Truth:
    """What a render shows: the answer a reader should give."""

    board: Board
    rotations: tuple[int, ...]  # per cell, the letter's clockwise turn (0 for hidden/victim)
    corners: np.ndarray  # (4, 2) outer grid corners in the image: TL, TR, BR, BL
    tiles: np.ndarray  # (36, 4, 2) each tile's corners in the image
    style: str
    hand: bool  # a hand covers part of the grid


# --------------------------------------------------------------------------------------------
# Styles

_FALLBACK_FONTS: dict[str, tuple[str, ...]] = {
    # fonts we may tune on, and fonts the bench keeps unseen; used only without vision.glyphs
    "train": (
        "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
        "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSans-Bold.otf",
        "/usr/share/fonts/truetype/crosextra/Carlito-Bold.ttf",
    ),
    "bench": (
        "/usr/share/fonts/truetype/crosextra/Caladea-Bold.ttf",
        "/usr/share/fonts/opentype/urw-base35/URWGothic-Demi.otf",
        "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
        "/usr/share/fonts/opentype/urw-base35/P052-Bold.otf",
    ),
}

# (face, ink, back, back_ink, table colour): colours of the two splits never coincide
_SCHEMES: dict[str, tuple[tuple[Colour, Colour, Colour, Colour, Colour], ...]] = {
    "train": (
        ((235, 240, 242), (30, 30, 30), (40, 40, 150), (70, 80, 190), (60, 100, 150)),
        ((200, 235, 245), (20, 40, 90), (90, 50, 20), (140, 100, 60), (120, 120, 120)),
        ((245, 245, 245), (20, 20, 160), (30, 30, 30), (70, 70, 70), (40, 90, 60)),
        ((170, 215, 235), (40, 25, 20), (40, 110, 40), (90, 160, 90), (140, 160, 185)),
        ((225, 225, 215), (60, 20, 20), (110, 40, 100), (160, 90, 150), (80, 60, 50)),
    ),
    "bench": (
        ((230, 245, 250), (25, 25, 25), (20, 60, 110), (60, 110, 170), (120, 140, 120)),
        ((210, 210, 220), (10, 10, 90), (120, 90, 30), (170, 140, 80), (50, 50, 50)),
        ((190, 230, 240), (50, 30, 10), (60, 60, 60), (30, 30, 30), (150, 170, 190)),
        ((240, 240, 235), (90, 20, 40), (20, 90, 120), (50, 140, 180), (100, 70, 55)),
    ),
}

_PATTERNS: dict[str, tuple[BackPattern, ...]] = {
    "train": (BackPattern.PLAIN, BackPattern.STRIPES, BackPattern.DOTS, BackPattern.CHECKER),
    "bench": (BackPattern.RINGS, BackPattern.DIAMONDS, BackPattern.CROSSHATCH, BackPattern.FRAME),
}
_VICTIMS: dict[str, tuple[Victim, ...]] = {
    "train": (Victim.SKULL, Victim.DAGGER),
    "bench": (Victim.OUTLINE, Victim.BLOOD),
}


def fonts(split: Split) -> list[Path]:
    """Fonts of a split: vision.glyphs' own split if present (train/test), else ours."""
    try:
        from vision import glyphs  # the letters helper's renderer, when it is there
    except ImportError:
        glyphs = None  # type: ignore[assignment]
    if glyphs is not None:
        found = list(glyphs.font_paths("train" if split == "train" else "test"))
        if found:
            return sorted(found)
    return [Path(p) for p in _FALLBACK_FONTS[split] if Path(p).exists()]


def styles(split: Split) -> list[Style]:
    """The styles of a split, in a fixed order: every font with a rotating colour scheme."""
    out: list[Style] = []
    schemes = _SCHEMES[split]
    tables = (Table.WOOD, Table.PLAIN, Table.CLOTH)
    for i, font in enumerate(fonts(split)):
        face, ink, back, back_ink, table_colour = schemes[i % len(schemes)]
        out.append(
            Style(
                name=f"{split}-{i}-{font.stem}",
                font=font,
                face=face,
                ink=ink,
                back=back,
                back_ink=back_ink,
                pattern=_PATTERNS[split][i % len(_PATTERNS[split])],
                victim=_VICTIMS[split][i % len(_VICTIMS[split])],
                table=tables[i % len(tables)],
                table_colour=table_colour,
                radius=(0.05, 0.1, 0.14)[i % 3],
                letter_scale=(0.6, 0.66, 0.56)[i % 3],
            )
        )
    if not out:
        raise RuntimeError(f"no fonts found for the {split} styles")
    return out


# --------------------------------------------------------------------------------------------
# Tile faces


def _rounded_mask(side: int, radius: float) -> np.ndarray:
    r = max(1, int(round(radius * side)))
    mask = np.zeros((side, side), np.uint8)
    cv2.rectangle(mask, (r, 0), (side - 1 - r, side - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (side - 1, side - 1 - r), 255, -1)
    for cx, cy in ((r, r), (side - 1 - r, r), (r, side - 1 - r), (side - 1 - r, side - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


def _glyph(letter: str, font: Path, side: int, style: Style) -> np.ndarray:
    """An upright letter on the tile face colour, ``side`` px square (BGR)."""
    try:
        from vision import glyphs
    except ImportError:
        glyphs = None  # type: ignore[assignment]
    if glyphs is not None:
        try:
            img = glyphs.render_glyph(letter, font, side, style.ink, style.face)
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


# --------------------------------------------------------------------------------------------
# Table, camera and light


def _table(size: tuple[int, int], style: Style, rng: np.random.Generator) -> np.ndarray:
    w, h = size
    base = np.array(style.table_colour, np.float32)
    sw, sh = max(8, w // 8), max(8, h // 8)
    if style.table is Table.WOOD:
        y = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
        x = np.linspace(0, 1, sw, dtype=np.float32)[None, :]
        wobble = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (sw, sh))
        freq = rng.uniform(25, 45)
        grain = np.sin((y + 0.04 * wobble + 0.02 * x) * freq * math.pi)
        field = 0.85 + 0.15 * grain + 0.04 * rng.normal(0, 1, (sh, sw)).astype(np.float32)
        if rng.random() < 0.5:
            field = field.T.copy()
            field = cv2.resize(field, (sw, sh))
    elif style.table is Table.CLOTH:
        field = 1 + 0.06 * rng.normal(0, 1, (sh, sw)).astype(np.float32)
    else:
        field = np.ones((sh, sw), np.float32)
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_CUBIC)
    img = field[:, :, None] * base[None, None, :]
    if style.table is Table.CLOTH:
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _camera(size: tuple[int, int], canvas: tuple[int, int], rng: np.random.Generator,
            grid_corners: np.ndarray, tilt: float) -> np.ndarray:
    """A homography canvas -> image: a camera tilted by ``tilt`` degrees, turned a little,
    with the grid framed inside the image."""
    w, h = size
    cw, ch = canvas
    f = float(max(w, h))
    k = np.array([[f, 0, cw / 2], [0, f, ch / 2], [0, 0, 1]])
    direction = rng.uniform(0, 2 * math.pi)
    ax, ay = math.radians(tilt) * math.cos(direction), math.radians(tilt) * math.sin(direction)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    yaw = math.radians(rng.uniform(-8, 8))
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0],
                   [0, 0, 1]])
    h0 = k @ rz @ rx @ ry @ np.linalg.inv(k)
    pts = cv2.perspectiveTransform(grid_corners.reshape(-1, 1, 2).astype(np.float64), h0)
    pts = pts.reshape(-1, 2)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    frac = rng.uniform(0.55, 0.85)
    scale = min(frac * h / (hi[1] - lo[1]), 0.92 * w / (hi[0] - lo[0]))
    span = (hi - lo) * scale
    room = np.array([w, h]) - span
    off = room * np.array([rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75)]) - lo * scale
    s = np.array([[scale, 0, off[0]], [0, scale, off[1]], [0, 0, 1]])
    out: np.ndarray = s @ h0
    return out


def make_layout(style: Style, seed: int, size: tuple[int, int] | None = None, *,
                tilt: float | None = None, jitter: float = 0.07, spin: float = 6.0,
                glare: bool | None = None, blur: float | None = None,
                jpeg: int | None = None) -> Layout:
    """Draw a scene from ``seed``: camera, tile positions and turns, light and camera faults.

    ``jitter`` (fraction of a tile) and ``spin`` (degrees) bound how sloppily tiles lie;
    the other keywords pin what the seed would otherwise choose.
    """
    rng = np.random.default_rng(seed)
    if size is None:
        size = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    w, h = size
    tile = int(rng.integers(90, 130))
    # gaps vary between rows and between columns, and from tile to tile
    gap_base = rng.uniform(0.03, 0.16) * tile
    col_gaps = gap_base * rng.uniform(0.6, 1.4, SIZE - 1)
    row_gaps = gap_base * rng.uniform(0.6, 1.4, SIZE - 1)
    xs = np.concatenate([[0.0], np.cumsum(tile + col_gaps)])
    ys = np.concatenate([[0.0], np.cumsum(tile + row_gaps)])
    span = max(xs[-1], ys[-1]) + tile
    cw = ch = int(span * 2.2)
    origin = (cw - (xs[-1] + tile)) / 2, (ch - (ys[-1] + tile)) / 2
    centres = np.array([[origin[0] + xs[c] + tile / 2, origin[1] + ys[r] + tile / 2]
                        for r in range(SIZE) for c in range(SIZE)])
    centres += rng.uniform(-jitter, jitter, (CELLS, 2)) * tile
    angles = rng.uniform(-spin, spin, CELLS)
    turns = tuple(int(t) * 90 for t in rng.integers(0, 4, CELLS))
    gx0, gy0 = origin
    gx1, gy1 = origin[0] + xs[-1] + tile, origin[1] + ys[-1] + tile
    grid = np.array([[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]])
    tilt_deg = float(rng.uniform(0, 20)) if tilt is None else tilt
    hom = _camera(size, (cw, ch), rng, grid, tilt_deg)
    light = rng.uniform(0.65, 1.15, (3, 4)).astype(np.float32)
    glare_on = bool(rng.random() < 0.3) if glare is None else glare
    g = None
    if glare_on:
        gc = cv2.perspectiveTransform(centres[int(rng.integers(CELLS))].reshape(1, 1, 2), hom)
        g = (float(gc[0, 0, 0]), float(gc[0, 0, 1]), float(rng.uniform(0.03, 0.08) * w),
             float(rng.uniform(0.5, 0.9)))
    return Layout(
        size=(w, h),
        canvas=(cw, ch),
        homography=hom,
        tile=tile,
        centres=centres,
        angles=angles,
        turns=turns,
        light=light,
        glare=g,
        blur=float(rng.uniform(0, 1.4)) if blur is None else blur,
        noise=float(rng.uniform(1, 5)),
        jpeg=int(rng.integers(55, 96)) if jpeg is None else jpeg,
        seed=seed,
    )


def _tile_corners(layout: Layout, i: int) -> np.ndarray:
    """Corners TL, TR, BR, BL of tile ``i`` in canvas px."""
    half = layout.tile / 2
    a = math.radians(layout.angles[i])
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    out: np.ndarray = local @ rot.T + layout.centres[i]
    return out


def _paste(canvas: np.ndarray, face: np.ndarray, mask: np.ndarray, corners: np.ndarray) -> None:
    """Warp a square face onto its four canvas corners, blending by ``mask``."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    side = face.shape[0]
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    roi = canvas[y0:y1, x0:x1]
    size = (roi.shape[1], roi.shape[0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    alpha = alpha[:, :, None]
    roi[:] = (warped * alpha + roi * (1 - alpha)).astype(np.uint8)


def _shade(canvas: np.ndarray, corners: np.ndarray, depth: float) -> None:
    """A soft shadow under a tile (the light comes from the upper left)."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 12
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 12
    roi = canvas[y0:y1, x0:x1]
    mask = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, (corners - [x0, y0] + depth).astype(np.int32), 1.0, cv2.LINE_AA)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), depth * 0.8 + 0.5), np.float32)
    roi[:] = (roi * (1 - 0.45 * soft[:, :, None])).astype(np.uint8)


def _hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray) -> None:
    """Draw a hand and forearm reaching from the nearest image edge towards ``target``."""
    h, w = img.shape[:2]
    tx, ty = target
    edges = [(tx, -0.2 * h), (tx, 1.2 * h), (-0.2 * w, ty), (1.2 * w, ty)]
    dists = [ty, h - ty, tx, w - tx]
    sx, sy = edges[int(np.argmin(dists))]
    sx += rng.uniform(-0.2, 0.2) * w
    d = np.array([tx - sx, ty - sy], float)
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    width = rng.uniform(0.07, 0.1) * max(w, h)
    skin = np.array([rng.uniform(90, 160), rng.uniform(120, 180), rng.uniform(170, 235)])
    mask = np.zeros((h, w), np.uint8)
    arm = np.array([[sx, sy] + n * width / 2, [sx, sy] - n * width / 2,
                    [tx, ty] - n * width * 0.45, [tx, ty] + n * width * 0.45], np.int32)
    cv2.fillConvexPoly(mask, arm, 255, cv2.LINE_AA)
    cv2.ellipse(mask, (int(tx), int(ty)), (int(width * 0.7), int(width * 0.55)),
                math.degrees(math.atan2(d[1], d[0])), 0, 360, 255, -1, cv2.LINE_AA)
    for k in range(4):
        off = (k - 1.5) * width * 0.3
        base = np.array([tx, ty]) + n * off + d * width * 0.4
        tip = base + d * width * rng.uniform(0.7, 1.1)
        cv2.line(mask, tuple(base.astype(int)), tuple(tip.astype(int)), 255,
                 int(width * 0.2), cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32) / 255
    small = cv2.resize(mask, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    small = np.roll(small, (int(width * 0.3 / 8), int(width * 0.3 / 8)), (0, 1))
    small = cv2.GaussianBlur(small, (0, 0), max(1.0, width * 0.2 / 8))
    shadow = cv2.resize(small, (w, h)).astype(np.float32) / 255
    out = img.astype(np.float32) * (1 - 0.5 * shadow[:, :, None])
    shading = 0.8 + 0.25 * cv2.GaussianBlur(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)),
                                            (0, 0), 2).astype(np.float32)
    shade = np.asarray(cv2.resize(shading, (w, h)), np.float32)[:, :, None]
    skin_img = skin[None, None, :] * shade
    out = out * (1 - soft[:, :, None]) + skin_img * soft[:, :, None]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)


def _spoil(img: np.ndarray, layout: Layout, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, glare, blur, noise and JPEG: what a cheap camera does to a table."""
    h, w = img.shape[:2]
    light = cv2.resize(layout.light, (w, h), interpolation=cv2.INTER_CUBIC)
    out = img.astype(np.float32) * light[:, :, None]
    if layout.glare is not None:
        gx, gy, gr, gs = layout.glare
        yy, xx = np.ogrid[:h, :w]
        blob = np.exp(-((xx - gx) ** 2 + ((yy - gy) * 1.4) ** 2) / (2 * gr**2)).astype(np.float32)
        out += (255 * gs) * blob[:, :, None]
    if layout.blur > 0.2:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), layout.blur), np.float32)
    out += rng.normal(0, layout.noise, (h, w, 1)).astype(np.float32)
    img8 = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, layout.jpeg])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def render_table(board: Board, style: Style, seed: int, *, layout: Layout | None = None,
                 hand: bool = False, frame: int = 0,
                 size: tuple[int, int] | None = None) -> tuple[np.ndarray, Truth]:
    """A BGR photo of ``board`` laid out as ``layout`` (drawn from ``seed`` if not given).

    ``frame`` varies only the sensor noise (and the hand), so frames of one game differ the
    way consecutive camera frames do.
    """
    if layout is None:
        layout = make_layout(style, seed, size)
    rng = np.random.default_rng([layout.seed, frame, 1 if hand else 0])
    table_rng = np.random.default_rng([layout.seed, 7])
    canvas = _table(layout.canvas, style, table_rng)
    side = layout.tile
    mask = _rounded_mask(side, style.radius)
    corners_all = np.array([_tile_corners(layout, i) for i in range(CELLS)])
    depth = max(2.0, side * 0.04)
    for i in range(CELLS):
        _shade(canvas, corners_all[i], depth)
    for i, tile in enumerate(board.cells):
        kind = "back" if tile is None else tile.value
        face = tile_face(kind, side, style, layout.turns[i] if tile is not None else 0)
        _paste(canvas, face, mask, corners_all[i])
    img = cv2.warpPerspective(canvas, layout.homography, layout.size, flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REFLECT)
    tiles = cv2.perspectiveTransform(corners_all.reshape(-1, 1, 2), layout.homography)
    tiles = tiles.reshape(CELLS, 4, 2)
    if hand:
        grid_c = tiles.reshape(-1, 2).mean(axis=0)
        target = grid_c + rng.uniform(-0.25, 0.25, 2) * (tiles[35, 2] - tiles[0, 0])
        _hand(img, rng, target)
    img = _spoil(img, layout, rng)
    rotations = tuple(
        layout.turns[i] if (t is not None and t is not Tile.VICTIM) else 0
        for i, t in enumerate(board.cells)
    )
    corners = np.array([tiles[0, 0], tiles[SIZE - 1, 1], tiles[CELLS - 1, 2],
                        tiles[CELLS - SIZE, 3]])
    return img, Truth(board, rotations, corners, tiles, style.name, hand)


def random_board(rng: np.random.Generator, face_up: int | None = None) -> Board:
    """A board as a real game could show it: ``face_up`` tiles turned (random if None)."""
    pool = [t for t, n in ((Tile.M, 7), (Tile.OE, 7), (Tile.R, 7), (Tile.D, 7), (Tile.E, 7),
                           (Tile.VICTIM, 1)) for _ in range(n)]
    rng.shuffle(pool)
    n = int(rng.integers(0, CELLS + 1)) if face_up is None else face_up
    shown = set(rng.permutation(CELLS)[:n].tolist())
    return Board(tuple(pool[i] if i in shown else None for i in range(CELLS)))


@dataclass(frozen=True)
class GameFrame:
    """One frame of a rendered game: the image, its truth, and the turn it belongs to."""

    image: np.ndarray
    truth: Truth
    turn: int
    still: bool = field(default=True)  # False while a hand is over the grid


def game_boards(seed: int, turns: int = CELLS) -> list[Board]:
    """Boards of a game in which one more tile is turned each turn (seeded order)."""
    final = random_board(np.random.default_rng([seed, 3]), face_up=CELLS)
    order = np.random.default_rng([seed, 4]).permutation(CELLS)[:turns]
    boards = [Board()]
    cells: list[Tile | None] = [None] * CELLS
    for i in order:
        cells[int(i)] = final.cells[int(i)]
        boards.append(Board(tuple(cells)))
    return boards


def render_game(boards: Sequence[Board], style: Style, seed: int, *,
                size: tuple[int, int] | None = None, hands: bool = True,
                still_frames: int = 1) -> Iterator[GameFrame]:
    """Frames of a whole game on one layout: before each new board (after the first) a frame
    with a hand reaching over the grid if ``hands``, then ``still_frames`` still frames."""
    layout = make_layout(style, seed, size)
    frame = 0
    for turn, board in enumerate(boards):
        if hands and turn > 0:
            img, truth = render_table(boards[turn - 1], style, seed, layout=layout, hand=True,
                                      frame=frame)
            frame += 1
            yield GameFrame(img, truth, turn, still=False)
        for _ in range(still_frames):
            img, truth = render_table(board, style, seed, layout=layout, frame=frame)
            frame += 1
            yield GameFrame(img, truth, turn)


__all__ = [
    "BackPattern",
    "GameFrame",
    "Layout",
    "Style",
    "Table",
    "Truth",
    "Victim",
    "fonts",
    "game_boards",
    "make_layout",
    "random_board",
    "render_game",
    "render_table",
    "styles",
    "tile_face",
]
