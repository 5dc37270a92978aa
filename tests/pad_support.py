"""What the score-pad tests share: the handwritten digits kept out of training, and the digit
reader (loaded once per test module)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.games.kniffel.dice import DEFAULT_DICE
from vision.kniffel_pad.digits import DigitReader

HELDOUT = Path(__file__).parent / "data" / "pad_digits_heldout.npz"


def held_out_digits() -> tuple[np.ndarray, np.ndarray]:
    """Images and labels of handwriting the digit network never trained on."""
    with np.load(HELDOUT) as z:
        return z["images"], z["labels"]


# the default set's faces, each worth twice as much: a table whose own dice say so
DOUBLED_DICE = [" ".join("*" if f.letter == "*" else f"{f.letter}{2 * f.value}" for f in die)
                for die in DEFAULT_DICE.dice]


@pytest.fixture(scope="module")
def reader() -> DigitReader:
    return DigitReader.load()
