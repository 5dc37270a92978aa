"""A column's written sums settle the numbers its pen leaves in doubt, as a referee adds a
column up before calling a blurred 1 a 7; a sum read surely is never moved to hide a slip."""

from __future__ import annotations

import numpy as np
import pytest

from pad_support import held_out_digits, reader  # noqa: F401 (a fixture)

from companion.games.kniffel.pad import SETTLE_PAIRS_AMONG, settled_by_sums
from vision.kniffel_pad import synth
from vision.kniffel_pad.digits import BoxReading, DigitReader
from vision.kniffel_pad.layout import ROWS, Layout
from vision.kniffel_pad.reader import BY_SUMS, check_sums, read_pad, settle

# a column of twos but a Full-House of 25 and a Chance of 20; its sums as the player added
# them: upper 10, no bonus (0), lower 2 + 2 + 25 + 2 + 2 + 20 = 53, total 63
COLUMN = {**{r.key: 2 for r in ROWS}, "full_house": 25, "chance": 20,
          "upper": 10, "bonus": 0, "lower": 53, "total": 63}


def test_the_one_doubt_that_makes_every_sum_add_up_is_taken() -> None:
    assert settled_by_sums(COLUMN, {}) == {}
    read = dict(COLUMN, full_house=15)  # a 2 with a small foot, read as 1
    assert settled_by_sums(read, {"full_house": (25,)}) == {"full_house": 25}
    assert settled_by_sums(read, {"full_house": (35,)}) == {}  # no doubt adds up
    # a box and the total both blurred: two readings settled together
    both = dict(read, total=68)
    assert settled_by_sums(both, {"full_house": (25,), "total": (63, 69)}) == {
        "full_house": 25, "total": 63}


def test_a_half_is_settled_by_its_own_sum_when_the_total_was_added_up_wrong() -> None:
    """The Zweier read 12 where the pen may as well say 2, and the total written 73, ten
    too many. No one reading makes every sum add up (the total is the player's slip), but
    "Summe oben" says the Zweier is 2, as a referee reads it; the total is then found wrong
    as written. Where the half's own sum leaves two ways, nothing moves."""
    read = dict(COLUMN, two=12, total=73)
    assert settled_by_sums(read, {"two": (2,)}) == {"two": 2}
    assert check_sums(settle({k: BoxReading(v, False, 0.99, doubts=(2,) if k == "two" else ())
                              for k, v in read.items()}))["total"].ok is False
    either = dict(read, three=12, upper=20, total=83)  # one of the two is 12: which?
    assert settled_by_sums(either, {"two": (2,), "three": (2,)}) == {}
    # the lower half adds up as read: it is left alone
    assert settled_by_sums(read, {"two": (2,), "chance": (30,)}) == {"two": 2}


def test_two_ways_of_adding_up_settle_nothing() -> None:
    """The Chance read 30 or 20, the Full-House 15 or 25: either alone makes the lower sum
    and the total add up, so the sums cannot tell which, and neither is moved."""
    read = dict(COLUMN, full_house=15, chance=30)
    assert settled_by_sums(read, {"full_house": (25,), "chance": (20,)}) == {}


def test_a_column_full_of_doubts_is_not_searched_pair_by_pair() -> None:
    """Two readings off (the Full-House and the total) settle together among a few doubts;
    among more choices than SETTLE_PAIRS_AMONG only one at a time is tried, so a column
    of smudges costs no more than 780 pairs. Then only the lower sum settles the Full-House
    alone, and the total stays as read."""
    read = dict(COLUMN, full_house=15, total=68)
    few = {"full_house": (25,), "total": (63, 69)}
    assert settled_by_sums(read, few) == {"full_house": 25, "total": 63}
    smudges = {k: tuple(range(90, 90 + SETTLE_PAIRS_AMONG)) for k in ("two", "three")}
    assert settled_by_sums(read, {**few, **smudges}) == {"full_house": 25}


def test_a_sum_read_surely_is_what_was_written() -> None:
    """A total written 73 (ten too many) and read surely stays 73 though its doubts hold
    63: the check is there to tell it. Read unsurely, the sums settle it."""
    boxes = {k: BoxReading(v, False, 0.99) for k, v in COLUMN.items()}
    sure = dict(boxes, total=BoxReading(73, False, 0.97, doubts=(63,)))
    assert settle(sure)["total"].value == 73
    assert check_sums(settle(sure))["total"].ok is False
    blurred = dict(sure, total=BoxReading(73, False, 0.6, doubts=(63,)))
    settled = settle(blurred)["total"]
    assert (settled.value, settled.confidence, settled.doubts) == (63, BY_SUMS, (73,))


def test_a_settled_box_is_not_sure_and_keeps_what_the_pen_said() -> None:
    """A settled number is the sums' word, not the pen's: never held against a player (below
    the table's SURE), the pen's number kept among its doubts."""
    boxes = {k: BoxReading(v, False, 0.99) for k, v in COLUMN.items()}
    boxes["full_house"] = BoxReading(15, False, 0.98, doubts=(25,))
    settled = settle(boxes)
    assert (settled["full_house"].value, settled["full_house"].doubts) == (25, (15,))
    assert settled["full_house"].confidence == BY_SUMS < 0.9
    checks = check_sums(settled)
    assert all(c.ok for c in checks.values())
    assert not checks["lower"].sure and not checks["total"].sure
    assert checks["upper"].sure and checks["bonus"].sure  # no settled box in the upper part


@pytest.mark.parametrize("seed", [126, 130])
def test_a_rendered_pad_s_blurred_numbers_are_settled_by_its_sums(reader: DigitReader,
                                                                  seed: int) -> None:
    """Rendered pads (held-out digits, the game's values, every sum added right) whose pen
    leaves numbers wrong that the sums settle: every box is then read as written."""
    rng = np.random.default_rng(seed)
    img, truth, _ = synth.fill(Layout(1, 1), held_out_digits(), rng, fill_rate=1.0,
                               drawn="game")
    column = read_pad(synth.photograph(img, rng), reader).columns[0]
    settled = [r for r, row in enumerate(ROWS) if column.boxes[row.key].confidence == BY_SUMS]
    assert settled
    for r in settled:  # the pen said otherwise
        assert column.boxes[ROWS[r].key].doubts[0] != truth[(0, r)]
    assert all(column.boxes[row.key].value == max(truth[(0, r)], 0)
               for r, row in enumerate(ROWS) if truth[(0, r)] is not None)
    assert all(check.ok for check in column.sums.values() if check.written is not None)


def test_a_player_adds_up_any_sum_wrong_and_carries_it_on() -> None:
    """The bench's renders with ``wrong_in="any"``: the slip lies in the upper, the lower or
    the total sum alike, and a wrong subtotal goes on into the bonus and the total, as the
    player writes on from what he wrote; with the total only, the renders stay as they
    were (the same random stream)."""
    from companion.games.kniffel.pad import BOXES, UPPER_BONUS, UPPER_BONUS_AT, Pad

    where = set()
    for seed in range(60):
        values = synth.column_values(np.random.default_rng(seed), 0.9, wrong_sum=True,
                                     drawn="game", wrong_in="any")
        boxes = tuple(None if values[b.value] is None else max(values[b.value] or 0, 0)
                      for b in BOXES)
        right = Pad(boxes).sums
        off = [k for k in ("upper", "lower", "total") if values[k] != right[k]]
        assert off, "one sum is written wrong"
        where.add(off[0])
        bonus = UPPER_BONUS if (values["upper"] or 0) >= UPPER_BONUS_AT else 0
        carried = (values["upper"] or 0) + bonus + (values["lower"] or 0)
        assert values["total"] == carried or off == ["total"]
    assert where == {"upper", "lower", "total"}
    rng_a, rng_b = np.random.default_rng(3), np.random.default_rng(3)
    assert synth.column_values(rng_a, 0.9, True) == synth.column_values(rng_b, 0.9, True,
                                                                         wrong_in="total")
