"""What a rendered table looks like: its style (font, colours, back pattern, victim picture,
table), the scene a game keeps (camera, tile places, light) and the ground truth; the train
and bench splits never share a font, colour scheme, back pattern or picture."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np

from companion.games.moerder.board import Board

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

