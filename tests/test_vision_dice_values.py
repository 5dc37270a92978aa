"""The value digit of letter dice: read from the picture where the die prints one (even with
no dice set), taken from the set where it prints none or it cannot be read, never invented;
and the value rule a referee would apply (``vision.dice_value.decide``)."""

from __future__ import annotations

import math

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from companion.games.kniffel.dice import DEFAULT_DICE, Roll  # noqa: E402
from vision import glyphs  # noqa: E402
from vision.dice import Die, DiceFound, read_dice  # noqa: E402
from vision.dice_value import DigitReading, decide  # noqa: E402
from vision.synth.dice import DiceScene, DieTruth, render_throw  # noqa: E402

# values the default set does not give these letters, so a right value can only come from
# the picture; letters whose lower right corner is clear of the letter (for the paint test)
ROLL = Roll.parse("T7 I6 P3 F9 T0 V8 U4")
SEED = 11
SET_VALUES = DEFAULT_DICE.letter_values()


def _match(found: DiceFound, t: DieTruth) -> Die:
    d = min(found.dice, key=lambda d: math.dist(d.center, t.center))
    assert math.dist(d.center, t.center) < 20, t
    return d


@pytest.fixture(scope="module")
def scene() -> DiceScene:
    return render_throw(ROLL.faces, SEED, split="bench")


def test_printed_digits_are_read_from_the_picture_without_a_set(scene: DiceScene) -> None:
    found = read_dice(scene.image)
    read = 0
    for t in scene.truth:
        d = _match(found, t)
        if d.letter != t.letter:
            continue  # a letter left unsure gives no value at all
        assert d.value in (t.value, None), (t, d)  # never a wrong digit
        if d.value is not None:
            assert d.value_from == "digit"
            read += 1
    assert read >= 5


def test_a_digit_the_set_disagrees_with_wins_and_is_reported(scene: DiceScene) -> None:
    found = read_dice(scene.image, DEFAULT_DICE)
    flagged = [d for d in found.dice if d.value_from == "digit-not-set"]
    assert len(flagged) >= 4
    for d in flagged:
        t = min(scene.truth, key=lambda t: math.dist(d.center, t.center))
        assert d.value == t.value != SET_VALUES[d.letter]


def _painted(scene: DiceScene) -> np.ndarray:
    """The scene with each die's lower right corner (as its letter reads) painted over in
    the colour of the face's blank top right corner."""
    img = scene.image.copy()
    for t in scene.truth:
        tl, tr, br, bl = (np.asarray(p) for p in t.corners)

        def at(u: float, v: float) -> np.ndarray:
            return (1 - v) * ((1 - u) * tl + u * tr) + v * ((1 - u) * bl + u * br)

        x, y = (int(round(c)) for c in at(0.82, 0.18))
        colour = tuple(int(c) for c in scene.image[y, x])
        quad = np.array([at(0.56, 0.52), at(0.99, 0.52), at(0.99, 0.99), at(0.56, 0.99)])
        cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), colour, cv2.LINE_AA)
    return img


def test_a_painted_over_digit_gives_the_sets_value_not_an_invented_one(scene: DiceScene) -> None:
    found = read_dice(_painted(scene), DEFAULT_DICE)
    sure = [d for d in found.dice if d.letter != "?"]
    assert len(sure) >= 4
    for d in sure:
        assert d.value_from == "set" and d.value == SET_VALUES[d.letter], d


def _cubes() -> np.ndarray:
    """Letter cubes as a Boggle set prints them: a letter and no digit, on a dark tray."""
    fonts = sorted(glyphs.font_paths("test"), key=lambda f: glyphs.font_label(f) != "Carlito Regular")
    if not fonts:
        pytest.skip("no test fonts installed")
    img = np.full((360, 560, 3), (40, 60, 90), np.uint8)
    for i, (letter, angle) in enumerate((("E", 0), ("R", 90), ("N", 200), ("A", 15),
                                         ("K", 270), ("D", 180))):
        face = glyphs.render_glyph(letter, fonts[0], 80, (25, 25, 25), (230, 238, 242), scale=0.6)
        face = cv2.resize(face, (80, 80))
        m = cv2.getRotationMatrix2D((40, 40), -angle, 1.0)
        m[:, 2] += (60 + 160 * (i % 3) - 40 + 20, 90 + 170 * (i // 3) - 40)
        layer = cv2.warpAffine(face, m, (560, 360))
        mask = cv2.warpAffine(np.full((80, 80), 255, np.uint8), m, (560, 360)) > 127
        img[mask] = layer[mask]
    return cv2.GaussianBlur(img, (0, 0), 0.7)


def test_a_cube_without_a_digit_takes_its_value_from_the_set() -> None:
    img = _cubes()
    with_set, without = read_dice(img, DEFAULT_DICE), read_dice(img)
    sure = [d for d in with_set.dice if d.letter != "?"]
    assert len(sure) >= 4
    for d in sure:
        assert d.value_from == "set" and d.value == SET_VALUES[d.letter], d
    assert all(d.value is None and d.value_from is None for d in without.dice)


@pytest.mark.parametrize("letter, digit, values, want", [
    ("T", 2, SET_VALUES, (2, "digit")),  # the digit and the set agree
    ("T", 5, SET_VALUES, (5, "digit-not-set")),  # the die's print wins, reported
    ("T", 5, None, (5, "digit")),
    ("T", None, SET_VALUES, (SET_VALUES["T"], "set")),  # no digit read: the set's
    ("T", None, None, (None, None)),  # nothing to go by: no value, never a guess
    ("?", 5, SET_VALUES, (None, None)),  # a letter nobody can name is worth nothing
    ("*", None, None, (0, "rule")),  # the diamond is worth 0, set or not
    ("Q", None, {"T": 2}, (None, None)),  # a letter the set does not have
])
def test_the_value_rule(letter: str, digit: int | None, values: dict[str, int] | None,
                        want: tuple[int | None, str | None]) -> None:
    assert decide(letter, DigitReading(digit, 0.99), values) == want


def test_json_says_where_each_value_came_from(scene: DiceScene) -> None:
    out = read_dice(scene.image, DEFAULT_DICE).to_json()
    assert set(out) == {"dice", "ms"}
    for die in out["dice"]:
        assert set(die) == {"letter", "value", "value_from", "center", "corners", "confidence"}
        assert die["value_from"] in ("digit", "set", "digit-not-set", "rule", None)
        assert (die["value"] is None) == (die["value_from"] is None)
