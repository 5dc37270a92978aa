"""Rotation twins: an N turned a quarter is a Z in plain print, so the reader cannot tell them
from the glyph. The value digit, printed at the lower right of the true letter, names the
die; without one the die is ``?`` unless the table's set holds only one of the two. The N is
drawn in Carlito; what the reader alone makes of it is asserted first, so that a reader that
no longer confuses these faces shows up as a test to redraw rather than a rule untested."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from companion.games.kniffel.dice import DEFAULT_DICE, DiceSet, Face  # noqa: E402
from vision import glyphs  # noqa: E402
from vision.dice import TWIN_SHARE, DiceModels, _found, read_dice  # noqa: E402
from vision.dice_read import SYMBOLS  # noqa: E402
from vision.synth.dice_faces import dice_style, face_image  # noqa: E402

SIDE = 74
# the default set with its only Z swapped for a Y: N without its twin
ONLY_N = DiceSet.parse([" ".join(f"{f.letter}{f.value}" if f.letter != "Z" else "Y4" for f in die)
                        for die in DEFAULT_DICE.dice])


def _carlito() -> Path:
    fonts = [f for f in glyphs.font_paths("test") if glyphs.font_label(f) == "Carlito Regular"]
    if not fonts:
        pytest.skip("Carlito Regular is not installed")
    return fonts[0]


def _on_cloth(face: np.ndarray, angle: float) -> np.ndarray:
    """``face`` turned ``angle`` degrees clockwise on a grainy green cloth, with its shadow."""
    rng = np.random.default_rng(3)
    img = np.empty((240, 320, 3), np.float32)
    img[:] = (60, 110, 50)
    img += cv2.GaussianBlur(rng.normal(0, 12, (240, 320)).astype(np.float32), (0, 0), 1.5)[..., None]
    m = cv2.getRotationMatrix2D((SIDE / 2, SIDE / 2), -angle, 1.0)
    m[:, 2] += (160 - SIDE / 2, 120 - SIDE / 2)
    layer = cv2.warpAffine(face.astype(np.float32), m, (320, 240))
    mask = cv2.warpAffine(np.ones((SIDE, SIDE), np.float32), m, (320, 240))[..., None]
    shadow = np.roll(cv2.GaussianBlur(mask, (0, 0), 4)[..., None], (4, 4), (0, 1))
    img = img * (1 - 0.35 * shadow)
    out: np.ndarray = np.clip(img * (1 - mask) + layer * mask, 0, 255).astype(np.uint8)
    return out


@pytest.fixture(scope="module")
def with_digit() -> np.ndarray:
    """A Wort-Kniffel N with its 2, turned three quarters."""
    style = dataclasses.replace(dice_style(3, "bench"), font=_carlito(), face=(225, 235, 240),
                                ink=(30, 30, 30))
    return _on_cloth(face_image(Face("N", 2), SIDE, style), 270.0)


@pytest.fixture(scope="module")
def without_digit() -> np.ndarray:
    """A bare N (a cube that prints no digit), turned three quarters."""
    face = glyphs.render_glyph("N", _carlito(), SIDE, (30, 30, 30), (225, 235, 240), scale=0.62)
    return _on_cloth(cv2.resize(face, (SIDE, SIDE)), 270.0)


def _shares(img: np.ndarray) -> tuple[str, float, float]:
    """What the reader alone makes of the one die: its likeliest symbol, N's and Z's shares."""
    ((_, _, reading),) = _found(img, DiceModels.load(), None, None)
    return reading.best, reading.shares[SYMBOLS.index("N")], reading.shares[SYMBOLS.index("Z")]


def test_the_digit_names_the_twin(with_digit: np.ndarray) -> None:
    best, _, z = _shares(with_digit)
    assert best == "Z" and z > 0.9  # the glyph alone misleads (with this reader)
    for dice_set in (None, DEFAULT_DICE):
        (die,) = read_dice(with_digit, dice_set).dice
        assert (die.letter, die.value, die.value_from) == ("N", 2, "digit")
        assert die.rotation in (90, 270)


def test_without_a_digit_a_twin_is_unsure_when_the_set_has_both(without_digit: np.ndarray) -> None:
    _, n, z = _shares(without_digit)
    assert min(n, z) >= TWIN_SHARE, (n, z)  # both have a real share
    for dice_set in (None, DEFAULT_DICE):
        (die,) = read_dice(without_digit, dice_set).dice
        assert (die.letter, die.value) == ("?", None)


def test_without_a_digit_a_set_holding_one_twin_names_it(without_digit: np.ndarray) -> None:
    (die,) = read_dice(without_digit, ONLY_N).dice
    assert (die.letter, die.value, die.value_from) == ("N", 2, "set")
