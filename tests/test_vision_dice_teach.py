"""Teaching the dice reader a real set from one photo: rendered dice in a font the reader never
trained on, laid in a row with their letters given; the taught faces are then known, other
throws of the same set are read at least as well, and the profile travels through the CLI."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games.kniffel.dice import DEFAULT_DICE
from vision.dice import DiceModels, read_dice, teach
from vision.synth.dice import render_throw, random_roll
from vision.synth.dice_faces import dice_style

STYLE = dice_style(105, "bench")  # a font the reader never trained on
SIZE = (1280, 960)


def _throw(seed: int) -> tuple[np.ndarray, list[str]]:
    """A throw of the set: the picture and its letters left to right."""
    roll = random_roll(DEFAULT_DICE, np.random.default_rng(seed))
    scene = render_throw(roll.faces, 1000 + seed, style=STYLE, size=SIZE)
    return scene.image, [t.letter for t in sorted(scene.truth, key=lambda t: t.center[0])]


def _score(image: np.ndarray, want: list[str], models: DiceModels | None) -> tuple[int, int]:
    got = [d.letter for d in read_dice(image, models=models).dice]
    right = sum(min(got.count(c), want.count(c)) for c in set(want))
    wrong = len([c for c in got if c != "?"]) - right
    return right, wrong


@pytest.fixture(scope="module")
def taught() -> DiceModels:
    image, letters = _throw(5)
    return DiceModels(DiceModels.load().finder, teach(image, letters))


def test_the_taught_faces_are_known(taught: DiceModels) -> None:
    image, letters = _throw(5)
    got = read_dice(image, models=taught).dice
    assert sorted(d.letter for d in got) == sorted(letters)
    assert min(d.confidence for d in got) >= 0.9


def test_other_throws_of_the_set_are_read_at_least_as_well(taught: DiceModels) -> None:
    base = np.zeros(2, int)
    after = np.zeros(2, int)
    for seed in (11, 12, 13, 14):
        image, want = _throw(seed)
        base += _score(image, want, None)
        after += _score(image, want, taught)
    assert after[0] >= base[0] and after[1] <= base[1], (base, after)


def test_wrong_letters_are_refused(tmp_path: Path) -> None:
    image, letters = _throw(5)
    from vision import VisionError

    with pytest.raises(VisionError, match="7 dice"):
        teach(image, letters[:3])


def test_the_profile_goes_through_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    image, letters = _throw(5)
    photo, profile = tmp_path / "set.png", tmp_path / "dice.npz"
    cv2.imwrite(str(photo), image)
    assert main(["vision", "teach", "--dice", str(photo), "--letters", " ".join(letters),
                 "-o", str(profile)]) == 0
    assert profile.is_file()
    assert main(["vision", "read-dice", str(photo), "--profile", str(profile), "--json"]) == 0
    assert main(["vision", "teach", "--dice", str(photo), "--letters", "T 7"]) == 2
    assert main(["vision", "read-dice", str(photo), "--profile", str(photo)]) == 2
    assert main(["vision", "teach", "--dice", str(photo), "--letters", "T O R",
                 "--reference", str(photo)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and all(line.startswith("companion: error:") for line in err)
