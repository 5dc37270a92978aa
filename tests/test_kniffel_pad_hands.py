"""1s and 7s as written at a German table, drawn onto MNIST's digits."""

from __future__ import annotations

import numpy as np
from pad_support import held_out_digits

from vision.kniffel_pad import hands


def _digits(label: int) -> np.ndarray:
    images, labels = held_out_digits()
    return images[labels == label]


def _added(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    return (after.astype(int) - before.astype(int)) > 96


def test_a_one_gets_an_up_stroke_down_and_left_from_the_top_of_its_stem() -> None:
    rng = np.random.default_rng(1)
    flagged = 0
    for img in _digits(1)[:40]:
        out = hands.flag_one(img, rng)
        new = _added(img, out)
        if not new.any():
            continue
        flagged += 1
        ys, xs = np.nonzero(img > 96)
        ny, nx = np.nonzero(new)
        top, height = ys.min(), ys.max() - ys.min() + 1
        assert ny.max() <= top + 0.55 * height  # in the upper half
        assert nx.min() < np.median(xs[ys <= top + 1]) - 2  # reaching left of the stem
        assert (out >= img).all()  # ink only added
    assert flagged >= 30  # of 40; a 1 leaning back stays bare


def test_a_seven_gets_a_bar_across_its_stem_near_the_middle() -> None:
    rng = np.random.default_rng(2)
    barred = 0
    for img in _digits(7)[:40]:
        new = _added(img, hands.bar_seven(img, rng))
        if not new.any():
            continue
        barred += 1
        ys, _ = np.nonzero(img > 96)
        top, height = ys.min(), ys.max() - ys.min() + 1
        ny, nx = np.nonzero(new)
        assert top + 0.3 * height <= np.median(ny) <= top + 0.75 * height
        assert np.ptp(nx) >= 0.2 * height  # a bar, not a dot
    assert barred >= 25  # of 40; a 7 its writer barred already keeps its own bar


def test_only_ones_and_sevens_change_by_share_and_the_bank_is_left_as_it_was() -> None:
    images, labels = held_out_digits()
    before = images.copy()
    same, _ = hands.continental((images, labels), np.random.default_rng(3), share=0.0)
    assert (same == images).all()
    half, kept = hands.continental((images, labels), np.random.default_rng(3), share=0.5)
    assert (kept == labels).all() and (images == before).all()
    changed = (half != images).reshape(len(images), -1).any(axis=1)
    assert set(labels[changed].tolist()) == {1, 7}
    for label in (1, 7):
        share = changed[labels == label].mean()
        assert 0.25 <= share <= 0.6, (label, share)
