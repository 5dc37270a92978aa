"""The installed fonts, split once by family into train and test so the letter model is
measured on styles it never saw."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

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
    return str(load_font(str(font), 32).getname()[0])


@functools.lru_cache(maxsize=512)
def load_font(path: str, px: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(path, px)
    except OSError as exc:
        raise GlyphError(f"cannot load font {path}: {exc}") from exc


@functools.lru_cache(maxsize=256)
def cap_height(path: str) -> float:
    """Height of 'H' per pixel of font size, so every letter of a font shares one scale."""
    font = load_font(path, 200)
    box = font.getbbox("H")
    return max(1.0, float(box[3] - box[1])) / 200.0


def font_label(font: Path) -> str:
    """'Family Style' for reports."""
    fam, style = load_font(str(font), 32).getname()
    return f"{fam} {style}".strip()


def split_families(split: Split) -> Sequence[str]:
    """Family names on one side of the split (for reports)."""
    return sorted({font_family(p) for p in font_paths(split)})

