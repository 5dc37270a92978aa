"""The teach step: a reader adapted to a tile set it could not read, saved and loaded back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import glyphs  # noqa: E402
from vision.letters import LetterError, LetterReader  # noqa: E402

ROTATIONS = (0, 90, 180, 270)


def _script_font() -> Path:
    """A calligraphic font the model never saw in any form (skipped from both splits)."""
    for root in glyphs.FONT_DIRS:
        for p in root.rglob("Z003*.otf") if root.is_dir() else ():
            return p
    pytest.skip("URW Z003 (fonts-urw-base35) is not installed")


def _tile(letter: str, font: Path, rotation: int, rng: np.random.Generator) -> np.ndarray:
    # a tile set in odd colours: cream letters on a dark red face
    return glyphs.render_glyph(
        letter, font, int(rng.integers(56, 80)), (180, 225, 235), (40, 30, 120), rotation=rotation,
        scale=float(rng.uniform(0.55, 0.65)), tilt=float(rng.uniform(-3, 3)),
        offset=(float(rng.normal(0, 0.02)), float(rng.normal(0, 0.02))),
    )


def test_taught_reader_reads_a_tile_set_the_model_cannot(tmp_path: Path) -> None:
    font = _script_font()
    base = LetterReader.load()
    rng = np.random.default_rng(1)
    # one photo's worth of teaching: each letter once, upright, as the teach step gives it
    examples = [(_tile(L, font, 0, rng), L) for L in "MÖRDE"]
    taught = base.taught(examples)
    path = tmp_path / "taught.npz"
    taught.save(path)
    loaded = LetterReader.load(path)
    assert loaded.prototypes is not None and len(loaded.prototypes) == 4 * 5

    probe = [(L, r, _tile(L, font, r, rng)) for L in "MÖRDE" for r in ROTATIONS for _ in range(2)]
    def score(reader: LetterReader) -> tuple[float, float]:
        rd = reader.read_many([c for _, _, c in probe], "MÖRDE")
        letters = sum(x.letter == L for (L, _, _), x in zip(probe, rd)) / len(probe)
        turns = sum(x.letter == L and x.rotation == r for (L, r, _), x in zip(probe, rd)) / len(probe)
        return letters, turns
    base_letters, _ = score(base)
    taught_letters, taught_turns = score(loaded)
    assert taught_letters >= 0.95
    assert taught_turns >= 0.9
    assert taught_letters > base_letters or base_letters >= 0.95
    # the loaded reader is the taught one, not just the shipped model
    assert score(taught) == (taught_letters, taught_turns)


def test_teaching_keeps_other_letters_and_rejects(tmp_path: Path) -> None:
    fonts = [f for f in glyphs.font_paths("test") if "Italic" not in glyphs.font_label(f)]
    if not fonts:
        pytest.skip("no test fonts installed")
    font = _script_font()
    rng = np.random.default_rng(2)
    taught = LetterReader.load().taught([(_tile(L, font, 0, rng), L) for L in "MÖRDE"])
    plain = glyphs.render_glyph("K", fonts[0], 64, (20, 20, 20), (230, 230, 230), rotation=90)
    assert taught.read(plain).letter == "K"
    blank = np.full((64, 64, 3), (40, 30, 120), np.uint8)
    assert taught.read(blank).letter is None


def test_taught_labels_may_carry_a_rotation() -> None:
    font = _script_font()
    rng = np.random.default_rng(3)
    turned = _tile("R", font, 270, rng)
    taught = LetterReader.load().taught([(turned, "R@270")])
    upright = taught.read(_tile("R", font, 0, rng), "MÖRDE")
    assert (upright.letter, upright.rotation) == ("R", 0)


@pytest.mark.parametrize("label", ["Q7", "", "R@45", "R@x", "ẞ"])
def test_bad_teaching_labels_are_errors(label: str) -> None:
    crop = np.full((40, 40), 128, np.uint8)
    with pytest.raises(LetterError):
        LetterReader.load().taught([(crop, label)])
    with pytest.raises(LetterError):
        LetterReader.load().taught([])
