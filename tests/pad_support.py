"""What the score-pad tests share: the handwritten digits kept out of training, and the digit
reader (loaded once per test module)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.games.kniffel.dice import DEFAULT_DICE
from vision.kniffel_pad.digits import DigitReader
from vision.kniffel_pad.hands import continental

HELDOUT = Path(__file__).parent / "data" / "pad_digits_heldout.npz"


def held_out_digits() -> tuple[np.ndarray, np.ndarray]:
    """Images and labels of handwriting the digit network never trained on."""
    with np.load(HELDOUT) as z:
        return z["images"], z["labels"]


def digits_alone() -> list[np.ndarray]:
    """Every held-out digit, and their 1s and 7s written the German way, each alone in a
    cell's cut (48 px high inside 12 px margins), 32 px high: 1200 boxes."""
    images, labels = held_out_digits()
    german = continental((images, labels), np.random.default_rng(0))
    boxes = []
    for glyph in [*images, *(g for g, y in zip(*german) if y in (1, 7))]:
        g = glyph.astype(np.float32) / 255.0
        ys, xs = np.nonzero(g > 0.2)
        g = g[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        g = cv2.resize(g, (max(1, round(g.shape[1] * 32 / g.shape[0])), 32))[:, :100]
        box = np.zeros((72, 150), np.float32)
        box[20:52, 24:24 + g.shape[1]] = 0.8 * g
        boxes.append(box)
    return boxes


# the default set's faces, each worth twice as much: a table whose own dice say so
DOUBLED_DICE = [" ".join("*" if f.letter == "*" else f"{f.letter}{2 * f.value}" for f in die)
                for die in DEFAULT_DICE.dice]


@pytest.fixture(scope="module")
def reader() -> DigitReader:
    return DigitReader.load()
