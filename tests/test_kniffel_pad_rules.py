"""The pad is read knowing the game: what each box may hold weighs a doubtful reading.

A Full-House is 25 or nothing, an upper box the sum of some of the dice; a referee who reads
a smudged "55" in the Full-House box reads 25, but a clearly written 35 is still a 35 (the
player's slip, which the table must see).
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)

from companion.games.kniffel.dice import DEFAULT_DICE, DiceSet
from companion.games.kniffel.pad import BOXES, Box
from companion.games.kniffel.written import possible_scores
from vision.kniffel_pad import synth
from vision.kniffel_pad.digits import BoxReading, DigitReader
from vision.kniffel_pad.layout import ROWS, Layout
from vision.kniffel_pad.numbers import PLACES, Guess, join
from vision.kniffel_pad.reader import BY_SUMS, PadReading, may_hold, read_pad

# every face worth 1 but the diamond (0): n dice add up to n, or n - 1 with the diamond
ONES = DiceSet.parse(["A1 B1 C1 D1 E1 F1"] * 5 + ["G1 H1 I1 J1 K1 *", "L1 M1 N1 O1 P1 Q1"])


def test_possible_scores_follow_the_rules() -> None:
    assert possible_scores(Box.FULL_HOUSE, ONES) == {0, 25}
    assert possible_scores(Box.STREET, ONES) == {0, 30}
    assert possible_scores(Box.KNIFFEL, ONES) == {0, 50}
    assert possible_scores(Box.FOUR, ONES) == {0, 3, 4}  # one word of four dice
    assert possible_scores(Box.TWO, ONES) == {0, 1, 2, 3, 4, 5, 6}  # 1-3 words of two
    assert possible_scores(Box.THREE_WORDS, ONES) == {0, 5, 6, 7}  # 6 or 7 dice
    assert possible_scores(Box.CHANCE, ONES) == {0, 6, 7}  # all seven


def test_what_each_row_may_hold_adds_up() -> None:
    hold = dict(zip((r.key for r in ROWS), may_hold(DEFAULT_DICE)))
    assert hold["bonus"] == {0, 35}
    upper = [b.value for b in BOXES if b.is_upper]
    assert max(hold["upper"]) == sum(max(hold[k]) for k in upper)
    assert max(hold["total"]) == max(hold["upper"]) + 35 + max(hold["lower"])
    assert max(hold["chance"]) == sum(max(f.value for f in die) for die in DEFAULT_DICE.dice)


def _guess(length: list[float], *places: dict[int, float]) -> Guess:
    """A network's belief as logits: how many digits, and each place's digits."""
    def logp(p: dict[int, float]) -> list[float]:
        rest = (1.0 - sum(p.values())) / (10 - len(p))
        return [float(np.log(p.get(d, rest))) for d in range(10)]
    parts = [float(np.log(x)) for x in length]
    for j in range(PLACES):
        parts += logp(places[j] if j < len(places) else {})
    return Guess(np.array(parts), 1.0)


def test_the_table_of_numbers_is_the_network_s_belief() -> None:
    rng = np.random.default_rng(0)
    g = Guess(rng.normal(0, 2, PLACES * 11), 1.3)
    table = g.table()
    lead_zero = (g.length[1] + g.length[2]) * g.places[0][0]  # "07" is no number of two digits
    assert table.shape == (1000,) and table.sum() == pytest.approx(1.0 - lead_zero)
    for v in rng.integers(0, 1000, 50):
        assert table[v] == pytest.approx(g.prob(int(v)))
    assert g.best()[0] == int(np.argmax(table))


def test_a_doubtful_number_the_box_cannot_hold_gives_way() -> None:
    # the digit reader says 15, the network 15 too but 25 is not far behind
    g = _guess([0.01, 0.98, 0.01], {1: 0.6, 2: 0.35}, {5: 0.99})
    read = BoxReading(15, False, 0.9, "15")
    assert join(read, g).value == 15
    full_house = possible_scores(Box.FULL_HOUSE, DEFAULT_DICE)
    weighed = join(read, g, full_house)
    assert weighed.value == 25 and weighed.confidence <= 0.35  # a question, not a claim
    assert join(read, g, possible_scores(Box.TWO, DEFAULT_DICE)).value == 15


def test_a_clear_slip_stands() -> None:
    # a Full-House written 35, and both readers are sure of it
    g = _guess([0.01, 0.98, 0.01], {3: 0.97, 2: 0.01}, {5: 0.99})
    weighed = join(BoxReading(35, False, 0.99, "35"), g, possible_scores(Box.FULL_HOUSE,
                                                                         DEFAULT_DICE))
    assert weighed.value == 35


@pytest.mark.parametrize("seed", [16, 36])
def test_rendered_pads_read_right_only_knowing_the_game(reader: DigitReader, seed: int) -> None:
    """Two rendered pads (held-out digits, the values the game gives, one slip of the
    player's each) whose every number is read right knowing what each box may hold, and
    one number read wrong by the pen without (whether or not the column's sums then settle
    it: test_kniffel_pad_settle.py)."""
    rng = np.random.default_rng(seed)
    img, truth, _ = synth.fill(Layout(2, 1), held_out_digits(), rng, fill_rate=1.0,
                               drawn="game", slip=1)
    photo = synth.photograph(img, rng)
    weighed = synth.score(read_pad(photo, reader), truth)
    plain = synth.score(_by_the_pen(read_pad(photo, reader, None)), truth)
    assert weighed.numbers_right == weighed.numbers
    assert plain.numbers_right == weighed.numbers - 1
    hold = may_hold(DEFAULT_DICE)
    slips = [v for (c, r), v in truth.items() if v is not None and v > 0 and v not in hold[r]]
    assert len(slips) == 1  # and it was read as written, with every other number


def _by_the_pen(reading: PadReading) -> PadReading:
    """``reading`` with every number the sums settled as its pen marks read it."""
    columns = tuple(replace(c, boxes={k: replace(b, value=b.doubts[0]) if b.confidence == BY_SUMS
                                      else b for k, b in c.boxes.items()})
                    for c in reading.columns)
    return replace(reading, columns=columns)


def test_a_reading_keeps_the_numbers_its_pen_marks_may_as_well_be() -> None:
    """A 1 with a long flag: both readers say 17, the network gives 11 some belief. The
    table must not hold 17 against an entered 11, so 11 is kept as a doubt; a clear 7 keeps
    none, and where the readers differ, the loser is one."""
    flag = _guess([0.01, 0.98, 0.01], {1: 0.99}, {7: 0.95, 1: 0.04})
    hooked = join(BoxReading(17, False, 0.99, "17"), flag)
    assert (hooked.value, hooked.doubts[:1]) == (17, (11,)) and hooked.confidence >= 0.9
    clear = _guess([0.01, 0.98, 0.01], {1: 0.99}, {7: 0.999, 1: 0.0005})
    assert 11 not in join(BoxReading(17, False, 0.99, "17"), clear).doubts
    differ = join(BoxReading(12, False, 0.6, "12"), clear)
    assert differ.value == 17 and 12 in differ.doubts


def _written(number: str, images: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """A box's ink with ``number`` written in held-out digits (the first of each), side by
    side as a hand writes them."""
    box = np.zeros((58, 60 + 30 * len(number)), np.float32)
    x = 12
    for ch in number:
        glyph = images[int(np.flatnonzero(labels == int(ch))[0])].astype(np.float32) / 255.0
        ys, xs = np.nonzero(glyph > 0.2)
        g = glyph[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
        g = cv2.resize(g, (max(1, round(g.shape[1] * 32 / g.shape[0])), 32))
        np.maximum(box[12:44, x:x + g.shape[1]], 0.8 * g, out=box[12:44, x:x + g.shape[1]])
        x += g.shape[1] + 4
    return box


def test_a_number_read_with_a_leading_zero_is_read_again(reader: DigitReader) -> None:
    """109 with its 1 lost to the digit reader reads "09": however sure it was, nobody
    writes a score so, and the whole-number network reads the box again. A sure 9 read as
    "9" is settled and left alone."""
    assert reader.numbers is not None
    box = _written("109", *held_out_digits())
    assert reader.numbers.guess_boxes({0: box})[0].best()[0] == 109
    padded, settled = reader.numbers.check(
        [box, box], [BoxReading(9, False, 0.999, "09"), BoxReading(9, False, 0.999, "9")])
    assert padded.value == 109 and padded.confidence < 0.5  # the readers differ: a question
    assert settled == BoxReading(9, False, 0.999, "9")
