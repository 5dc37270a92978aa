"""What a rendered table looks like: its style (font, colours, back pattern, victim picture,
table, and for the held-out family also tile material, light and lens), the scene a game keeps
(camera, tile places, light); the ground truth is :mod:`vision.synth.truth`. The train, bench
and family splits never share a font, colour scheme, back pattern or picture, and a second
family (:mod:`vision.synth.family2`) shares none of these, nor any other axis, with the three."""

from __future__ import annotations

import enum
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

import numpy as np

Colour = tuple[int, int, int]  # BGR
Split = Literal["train", "bench", "family", "family2"]
_T = TypeVar("_T")


def name_seed(*parts: object) -> int:
    """A seed from names, for what a style draws the same on every run (Python's ``hash``
    of a string changes from run to run)."""
    return zlib.crc32(repr(parts).encode())

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
    WORD = "word"  # a word printed in rows, as a publisher's name on the back
    MONOGRAM = "monogram"  # big initials in a ring, as a game's logo
    WAVES = "waves"
    HONEYCOMB = "honeycomb"
    # the second family's (vision/synth/family2_faces.py)
    STARS = "stars"  # small five-pointed stars in staggered rows
    CHEVRON = "chevron"  # zigzag rows
    CONCENTRIC = "concentric"  # nested squares round the middle


class Victim(enum.Enum):
    """The picture on the victim tile."""

    SKULL = "skull"
    DAGGER = "dagger"
    OUTLINE = "outline"  # a chalk outline of a body
    BLOOD = "blood"  # a splash with drops
    TOMBSTONE = "tombstone"
    MAGNIFIER = "magnifier"
    POISON = "poison"  # a bottle with a cross on its label
    FOOTPRINTS = "footprints"
    KEY = "key"  # an old brass key (the second family's)
    CANDLESTICK = "candlestick"  # a lit candle in a brass holder (the second family's)
    REVOLVER = "revolver"  # a revolver's silhouette (the second family's)


class Table(enum.Enum):
    WOOD = "wood"
    PLAIN = "plain"
    CLOTH = "cloth"
    FELT = "felt"  # a card table's baize: fine fibres, mottled
    CHECKED = "checked"  # a gingham cloth: straight lines of its own across the whole view
    PLANKS = "planks"  # boards with dark seams between them
    CERAMIC = "ceramic"  # square glazed tiles in light grout (train)
    PLAID = "plaid"  # broad and narrow stripes both ways, two colours (train)
    STAINED = "stained"  # dark stained wood with strong grain (train)
    FLEECE = "fleece"  # a soft cloth of tufts and faint blotches (train)
    LATHS = "laths"  # narrow laths of their own tones with thin joints (train)
    TERRAZZO = "terrazzo"  # stone chips of a few colours set in a ground (the second family)
    STRIPED = "striped"  # a cloth with broad stripes one way (the second family)
    OILCLOTH = "oilcloth"  # a wipe-clean cloth printed with small flowers (the second family)


class Lettering(enum.Enum):
    """How the letters are drawn: from ``Style.font``, or from strokes of our own (a letter
    skeleton drawn with a pen, or a dot matrix), shapes the letter model never trained on."""

    FONT = "font"
    MARKER = "marker"  # round strokes of a thick felt pen
    SERIF = "serif"  # a thinner pen with bars at the stroke ends
    SLANTED = "slanted"  # the marker leaning right, as an italic
    NARROW = "narrow"  # condensed, thin strokes
    OUTLINE = "outline"  # hollow letters: an ink rim round the face colour
    DOTS = "dot-matrix"  # 5x7 dots, as a printer or a stamp makes them
    # the second family's
    BLOCK = "block"  # very thick strokes with flat ends and square corners
    STENCIL = "stencil"  # thick strokes broken where a stencil leaves its bridges
    INLINE = "inline"  # a thick stroke with a thin line of the face colour along its middle
    # train letterings: ``Style.font`` redrawn by vision.glyphs.strokes, never the family's
    # own strokes
    FONT_HOLLOW = "font-hollow"  # the font's letters as an ink rim
    FONT_DOTS = "font-dots"  # the font's letters as a grid of dots along their middle line


class Material(enum.Enum):
    """What a tile is made of: it changes the face, not the layout."""

    CARD = "card"
    WOOD = "wood"  # grain under the print
    GLOSSY = "glossy"  # plastic that throws the lamp back as a bright sheen
    BORDERED = "bordered"  # card with a printed border line inside its edge
    # train-side (vision/synth/materials.py), unlike the family's on purpose
    LINEN = "linen"  # card bound in a fine woven cloth
    SATIN = "satin"  # a lacquer whose sheen lies in a band across the face
    FRAMED = "framed"  # card with two thin printed frames in a colour of their own
    # the second family's (vision/synth/family2_faces.py)
    CORK = "cork"  # fine brown speckles under the print
    MARBLE = "marble"  # soft grey veins under the print
    PARCHMENT = "parchment"  # a mottled, yellowed paper, darker towards its edges


# a material's colours: (material, face, ink, back, back_ink, corner radius)
TileColours = tuple[Material, Colour, Colour, Colour, Colour, float]


@dataclass(frozen=True)
class Light:
    """The room's light over the whole view (on top of the layout's uneven light)."""

    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # gain per channel, BGR
    gradient: float = 0.0  # how much darker the far side is than the near one (0..1)
    spot: float = 0.0  # extra brightness inside a hard-edged spot, darker outside


@dataclass(frozen=True)
class Lens:
    """What a cheap lens adds: barrel distortion, darker corners, a focus a little off."""

    barrel: float = 0.0  # k1: a point at the corner of the view moves inwards by this share
    vignette: float = 0.0  # how much darker the corners are than the centre (0..1)
    defocus: float = 0.0  # radius of the blur disk, as a share of the image width


@dataclass(frozen=True)
class Style:
    """How a tile set and its table look."""

    name: str
    font: Path | None  # None when ``lettering`` does not draw from a font file
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
    lettering: Lettering = Lettering.FONT
    material: Material = Material.CARD
    back_text: str = ""  # what a WORD or MONOGRAM back prints
    light: Light = Light()
    lens: Lens = Lens()


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
    """Fonts of a split: vision.glyphs' own split if present (train/test), else ours. The
    families have none: every installed font is on one side of the letter model's split."""
    if split in ("family", "family2"):
        return []
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
    if split == "family":
        return family_styles()
    if split == "family2":
        from vision.synth.family2 import family2_styles  # built on this module's types

        return family2_styles()
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
    if split == "train":
        out += _patterned_styles(fonts(split), len(out))
        out += _room_styles(fonts(split), len(out))
        out += _dim_styles(fonts(split), len(out))
        out += _material_styles(fonts(split), len(out))
        out += _lettered_styles(fonts(split), len(out))
    return out


# train tables with a pattern of their own (vision/synth/patterned.py), after the others so
# that every earlier train style keeps its index: (table, its colour, the colour scheme)
_PATTERNED: tuple[tuple[Table, Colour, int], ...] = (
    (Table.CERAMIC, (150, 120, 60), 0), (Table.PLAID, (30, 120, 200), 1),
    (Table.STAINED, (30, 45, 70), 2), (Table.CERAMIC, (190, 200, 200), 4),
    (Table.PLAID, (140, 60, 60), 3), (Table.STAINED, (25, 30, 40), 4),
)


def _patterned_styles(found: list[Path], start: int) -> list[Style]:
    """Train styles on the patterned tables: the locator is tuned on these, never on the
    family's checked cloth, felt or planks."""
    out: list[Style] = []
    for i, (table, colour, k) in enumerate(_PATTERNED):
        font = found[(5 * i + 3) % len(found)]
        face, ink, back, back_ink, _ = _SCHEMES["train"][k]
        pattern = _PATTERNS["train"][i % len(_PATTERNS["train"])]
        out.append(Style(
            name=f"train-{start + i}-{font.stem}-{table.value}", font=font, face=face, ink=ink,
            back=back, back_ink=back_ink, pattern=pattern,
            victim=_VICTIMS["train"][i % len(_VICTIMS["train"])], table=table,
            table_colour=colour, radius=(0.05, 0.1, 0.14)[i % 3],
            letter_scale=(0.6, 0.66, 0.56)[i % 3]))
    return out


# train rooms and lenses, after the patterned tables (every earlier train style keeps its
# index): the reader is tuned on these lights and lenses, never on the family's, so none of
# them is one of the family's values
_ROOMS: tuple[tuple[Light, Lens], ...] = (
    (Light(cast=(0.9, 1.0, 1.1), spot=0.25), Lens(barrel=0.03)),
    (Light(gradient=0.25), Lens(vignette=0.25)),
    (Light(spot=0.35, gradient=0.2), Lens()),
    (Light(cast=(1.1, 1.0, 0.9)), Lens(defocus=0.0012)),
    (Light(cast=(0.95, 1.0, 1.05), gradient=0.4), Lens(barrel=0.06, vignette=0.2)),
    (Light(spot=0.4), Lens(barrel=0.04, defocus=0.001)),
)


def _room_styles(found: list[Path], start: int) -> list[Style]:
    """Train styles under a room's light (a colour cast, a gradient, a lamp's spot) and seen
    through a cheap lens, on the usual train tables and tiles."""
    out: list[Style] = []
    tables = (Table.WOOD, Table.PLAIN, Table.CLOTH)
    for i, (light, lens) in enumerate(_ROOMS):
        font = found[(7 * i + 5) % len(found)]
        face, ink, back, back_ink, table_colour = _SCHEMES["train"][(i + 1) % len(
            _SCHEMES["train"])]
        out.append(Style(
            name=f"train-{start + i}-{font.stem}-room", font=font, face=face, ink=ink,
            back=back, back_ink=back_ink, pattern=_PATTERNS["train"][(i + 2) % len(
                _PATTERNS["train"])],
            victim=_VICTIMS["train"][i % len(_VICTIMS["train"])], table=tables[i % 3],
            table_colour=table_colour, radius=(0.05, 0.1, 0.14)[i % 3],
            letter_scale=(0.6, 0.66, 0.56)[i % 3], light=light, lens=lens))
    return out


# train tables close to the tiles' colours under a room's light, after the rooms (every
# earlier train style keeps its index): where tiles stand out little from a soft or jointed
# table, and the light is uneven over the view. (table, its colour, colour scheme, light,
# lens); none of these values is the family's
_DIM: tuple[tuple[Table, Colour, int, Light, Lens], ...] = (
    (Table.FLEECE, (50, 45, 135), 0, Light(cast=(0.88, 1.0, 1.08), spot=0.3),
     Lens(vignette=0.35)),
    (Table.LATHS, (150, 195, 220), 3, Light(gradient=0.3, cast=(1.05, 1.0, 0.92)),
     Lens(barrel=0.07)),
    (Table.FLEECE, (100, 65, 35), 1, Light(gradient=0.45), Lens(vignette=0.25, barrel=0.03)),
    (Table.LATHS, (40, 42, 48), 2, Light(spot=0.38, gradient=0.15), Lens(vignette=0.2)),
    (Table.FLEECE, (55, 120, 60), 3, Light(cast=(1.1, 1.0, 0.88), gradient=0.2),
     Lens(barrel=0.06, defocus=0.0012)),
    (Table.LATHS, (205, 215, 215), 4, Light(spot=0.3), Lens(barrel=0.04, vignette=0.3)),
)


def _dim_styles(found: list[Path], start: int) -> list[Style]:
    """Train styles whose tiles stand out little from a soft or jointed table under uneven
    light: the locator is tuned on these, never on the family's felt or planks."""
    out: list[Style] = []
    for i, (table, colour, k, light, lens) in enumerate(_DIM):
        font = found[(11 * i + 2) % len(found)]
        face, ink, back, back_ink, _ = _SCHEMES["train"][k]
        out.append(Style(
            name=f"train-{start + i}-{font.stem}-{table.value}-dim", font=font, face=face,
            ink=ink, back=back, back_ink=back_ink,
            pattern=_PATTERNS["train"][(i + 1) % len(_PATTERNS["train"])],
            victim=_VICTIMS["train"][i % len(_VICTIMS["train"])], table=table,
            table_colour=colour, radius=(0.05, 0.1, 0.14)[i % 3],
            letter_scale=(0.6, 0.66, 0.56)[i % 3], light=light, lens=lens))
    return out


# train tile materials, after the dim tables (every earlier train style keeps its index): the
# reader is tuned on a cloth-bound, a satin and a framed card, never on the family's wood,
# glossy plastic or single border; (material, colour scheme, room or None)
_MATERIALS: tuple[tuple[Material, int, int | None], ...] = (
    (Material.LINEN, 0, None), (Material.SATIN, 1, None), (Material.FRAMED, 2, None),
    (Material.LINEN, 3, 0), (Material.SATIN, 4, 2), (Material.FRAMED, 1, 5),
)


def _material_styles(found: list[Path], start: int) -> list[Style]:
    """Train styles on tiles with a face of their own (texture, sheen, frame), some under a
    train room's light."""
    out: list[Style] = []
    tables = (Table.PLAIN, Table.CLOTH, Table.WOOD)
    for i, (material, k, room) in enumerate(_MATERIALS):
        font = found[(11 * i + 2) % len(found)]
        face, ink, back, back_ink, table_colour = _SCHEMES["train"][k % len(_SCHEMES["train"])]
        light, lens = _ROOMS[room] if room is not None else (Light(), Lens())
        out.append(Style(
            name=f"train-{start + i}-{font.stem}-{material.value}", font=font, face=face,
            ink=ink, back=back, back_ink=back_ink,
            pattern=_PATTERNS["train"][(i + 1) % len(_PATTERNS["train"])],
            victim=_VICTIMS["train"][(i + 2) % len(_VICTIMS["train"])], table=tables[i % 3],
            table_colour=table_colour, radius=(0.08, 0.12, 0.05)[i % 3],
            letter_scale=(0.62, 0.58, 0.64)[i % 3], material=material, light=light, lens=lens))
    return out


# --------------------------------------------------------------------------------------------
# The family: held out of all tuning and training, and unlike train and bench on every axis

# (material, face, ink, back, back_ink, radius): colours that suit the material
_FAMILY_TILES: tuple[TileColours, ...] = (
    (Material.WOOD, (150, 195, 225), (25, 45, 70), (40, 75, 120), (20, 40, 70), 0.06),
    (Material.GLOSSY, (40, 210, 245), (15, 15, 15), (160, 60, 10), (230, 160, 90), 0.12),
    (Material.BORDERED, (215, 235, 235), (120, 30, 20), (30, 25, 95), (110, 160, 210), 0.04),
    (Material.CARD, (250, 250, 255), (10, 60, 10), (70, 35, 20), (170, 190, 210), 0.22),
    (Material.GLOSSY, (235, 235, 240), (140, 20, 20), (20, 20, 20), (90, 90, 120), 0.18),
    (Material.WOOD, (120, 170, 205), (15, 15, 15), (25, 55, 55), (90, 150, 150), 0.1),
)
_FAMILY_BACKS: tuple[tuple[BackPattern, str], ...] = (
    (BackPattern.WORD, "MORD"), (BackPattern.MONOGRAM, "FdM"), (BackPattern.WAVES, ""),
    (BackPattern.WORD, "KRIMI"), (BackPattern.HONEYCOMB, ""),
)
_FAMILY_TABLES: tuple[tuple[Table, Colour], ...] = (
    (Table.FELT, (50, 105, 25)), (Table.CHECKED, (40, 40, 170)), (Table.PLANKS, (70, 110, 150)),
    (Table.FELT, (90, 30, 40)), (Table.CHECKED, (130, 90, 30)), (Table.PLANKS, (45, 65, 90)),
)
# train sets whose letters are a font drawn hollow or as dots, after the materials (every
# earlier train style keeps its index): the reader is tuned on these, never on the family's
# outline and dot-matrix strokes; (lettering, material, table and its colour or None for the
# scheme's, colour scheme, room or None)
_LETTERED: tuple[tuple[Lettering, Material, Table, Colour | None, int, int | None], ...] = (
    (Lettering.FONT_HOLLOW, Material.SATIN, Table.PLAID, (30, 120, 200), 0, 2),
    (Lettering.FONT_DOTS, Material.LINEN, Table.STAINED, (30, 45, 70), 1, None),
    (Lettering.FONT_HOLLOW, Material.CARD, Table.CLOTH, None, 2, 4),
    (Lettering.FONT_DOTS, Material.FRAMED, Table.CERAMIC, (150, 120, 60), 3, 0),
    (Lettering.FONT_DOTS, Material.CARD, Table.WOOD, None, 4, 5),
    (Lettering.FONT_HOLLOW, Material.LINEN, Table.PLAIN, None, 1, 1),
)


def _lettered_styles(found: list[Path], start: int) -> list[Style]:
    """Train sets with hollow or dotted letters, on train tiles, tables and rooms."""
    out: list[Style] = []
    for i, (lettering, material, table, colour, k, room) in enumerate(_LETTERED):
        font = found[(13 * i + 4) % len(found)]
        face, ink, back, back_ink, table_colour = _SCHEMES["train"][k]
        light, lens = _ROOMS[room] if room is not None else (Light(), Lens())
        out.append(Style(
            name=f"train-{start + i}-{font.stem}-{lettering.value}", font=font, face=face,
            ink=ink, back=back, back_ink=back_ink, pattern=_PATTERNS["train"][i % 4],
            victim=_VICTIMS["train"][i % 2], table=table, table_colour=colour or table_colour,
            radius=(0.1, 0.05, 0.14)[i % 3], letter_scale=(0.64, 0.6, 0.66)[i % 3],
            lettering=lettering, material=material, light=light, lens=lens))
    return out


_FAMILY_LIGHTS: tuple[Light, ...] = (
    Light(cast=(0.78, 0.95, 1.15)),  # a warm bulb
    Light(cast=(1.15, 1.0, 0.85), gradient=0.35),  # cold daylight from one window
    Light(spot=0.45),  # a desk lamp's hard circle
    Light(cast=(0.85, 0.95, 1.1), gradient=0.5, spot=0.3),
)
_FAMILY_LENSES: tuple[Lens, ...] = (
    Lens(barrel=0.08), Lens(vignette=0.45), Lens(defocus=0.0022),
    Lens(barrel=0.05, vignette=0.3), Lens(barrel=0.1, defocus=0.0015),
)
_FAMILY_LETTERINGS: tuple[Lettering, ...] = (
    Lettering.MARKER, Lettering.SERIF, Lettering.SLANTED, Lettering.NARROW, Lettering.OUTLINE,
    Lettering.DOTS,
)


def _pick(seq: tuple[_T, ...], i: int) -> _T:
    """The ``i``-th of a cycle that moves on by one each round, so that two axes whose cycles
    have the same length do not stay paired."""
    return seq[(i + i // len(seq)) % len(seq)]


def family_styles(count: int = 12) -> list[Style]:
    """The held-out family: each axis cycles with its own period, so the ``count`` styles mix
    letterings, materials, backs, victims, tables, lights and lenses in many combinations."""
    victims = (Victim.TOMBSTONE, Victim.MAGNIFIER, Victim.POISON, Victim.FOOTPRINTS)
    out: list[Style] = []
    for i in range(count):
        material, face, ink, back, back_ink, radius = _pick(_FAMILY_TILES, i)
        pattern, text = _FAMILY_BACKS[i % len(_FAMILY_BACKS)]
        table, table_colour = _FAMILY_TABLES[i % 3 + 3 * (i // 3 % 2)]
        lettering = _FAMILY_LETTERINGS[i % len(_FAMILY_LETTERINGS)]
        out.append(Style(
            name=f"family-{i}-{lettering.value}-{material.value}-{pattern.value}",
            font=None, face=face, ink=ink, back=back, back_ink=back_ink, pattern=pattern,
            victim=victims[i % len(victims)], table=table, table_colour=table_colour,
            radius=radius, letter_scale=(0.58, 0.64, 0.6)[i % 3], lettering=lettering,
            material=material, back_text=text, light=_pick(_FAMILY_LIGHTS, i),
            lens=_pick(_FAMILY_LENSES, i),
        ))
    return out
