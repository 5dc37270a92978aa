"""The score pad: eleven boxes, the upper bonus and the Wort-Kniffel extra points."""

from __future__ import annotations

import enum
import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from companion.games.kniffel.errors import KniffelError

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

UPPER_BONUS = 35
UPPER_BONUS_AT = 50
FULL_HOUSE = 25
STREET = 30
KNIFFEL = 50
KNIFFEL_EXTRA = 100


class PadError(KniffelError):
    """A box name that does not exist, or writing into a box already filled."""


class Box(enum.Enum):
    """The eleven boxes; the value is the key used in JSON, the CLI and events."""

    TWO = "two"
    THREE = "three"
    FOUR = "four"
    FIVE = "five"
    SIX = "six"
    PAIR_OF_WORDS = "pair_of_words"
    THREE_WORDS = "three_words"
    FULL_HOUSE = "full_house"
    STREET = "street"
    KNIFFEL = "kniffel"
    CHANCE = "chance"

    @classmethod
    def parse(cls, text: str) -> Box:
        key = text.strip().lower().replace("-", "_")
        for box in cls:
            if box.value == key:
                return box
        known = ", ".join(b.value for b in cls)
        raise PadError(f"unknown box {text!r}; boxes: {known}")

    @property
    def is_upper(self) -> bool:
        return self in UPPER

    @property
    def letters(self) -> int | None:
        """How many dice each word of an upper box uses."""
        return UPPER_LETTERS.get(self)

    @property
    def words(self) -> tuple[int, int]:
        """How many words the box takes, at least and at most."""
        return WORD_COUNTS[self]


BOXES: tuple[Box, ...] = tuple(Box)
UPPER: tuple[Box, ...] = (Box.TWO, Box.THREE, Box.FOUR, Box.FIVE, Box.SIX)
UPPER_LETTERS: dict[Box, int] = {Box.TWO: 2, Box.THREE: 3, Box.FOUR: 4, Box.FIVE: 5, Box.SIX: 6}
WORD_COUNTS: dict[Box, tuple[int, int]] = {
    Box.TWO: (1, 3),
    Box.THREE: (1, 2),
    Box.FOUR: (1, 1),
    Box.FIVE: (1, 1),
    Box.SIX: (1, 1),
    Box.PAIR_OF_WORDS: (2, 2),
    Box.THREE_WORDS: (3, 3),
    Box.FULL_HOUSE: (2, 2),
    Box.STREET: (0, 0),
    Box.KNIFFEL: (1, 1),
    Box.CHANCE: (0, 0),
}


def parse_boxes(text: str) -> frozenset[Box]:
    """A comma-separated list of box keys, e.g. ``"two,four,chance"``."""
    parts = [p for p in text.split(",") if p.strip()]
    if not parts:
        raise PadError("no boxes given")
    return frozenset(Box.parse(p) for p in parts)


def bonus_for(upper: int) -> int:
    """The bonus an upper part adding up to ``upper`` earns (also a sum as a player wrote
    it, which the bonus written below it follows)."""
    return UPPER_BONUS if upper >= UPPER_BONUS_AT else 0


@dataclass(frozen=True)
class Pad:
    """One player's column: ``None`` for an open box, else the points written (0 = struck)."""

    scores: tuple[int | None, ...] = (None,) * len(BOXES)
    kniffel_extra: int = 0

    def __post_init__(self) -> None:
        if len(self.scores) != len(BOXES):
            raise PadError(f"a pad has {len(BOXES)} boxes, got {len(self.scores)}")

    def __getitem__(self, box: Box) -> int | None:
        return self.scores[BOXES.index(box)]

    def is_open(self, box: Box) -> bool:
        return self[box] is None

    @property
    def open_boxes(self) -> frozenset[Box]:
        return frozenset(b for b in BOXES if self.is_open(b))

    @property
    def is_full(self) -> bool:
        return all(s is not None for s in self.scores)

    def write(self, box: Box, score: int) -> Pad:
        if not self.is_open(box):
            raise PadError(f"box {box.value} is already filled")
        scores = list(self.scores)
        scores[BOXES.index(box)] = score
        return Pad(tuple(scores), self.kniffel_extra)

    def add_kniffel_extra(self) -> Pad:
        return Pad(self.scores, self.kniffel_extra + KNIFFEL_EXTRA)

    @property
    def upper(self) -> int:
        return sum(self[b] or 0 for b in UPPER)

    @property
    def bonus(self) -> int:
        """35 once the upper boxes reach 50, "auf beliebige Weise" - even before all are filled."""
        return bonus_for(self.upper)

    @property
    def lower(self) -> int:
        return sum(self[b] or 0 for b in BOXES if b not in UPPER)

    @property
    def total(self) -> int:
        return self.upper + self.bonus + self.lower + self.kniffel_extra

    @property
    def sums(self) -> dict[str, int]:
        """The sum rows of a paper pad, by their keys: what a written sum is checked
        against."""
        return {"upper": self.upper, "bonus": self.bonus, "lower": self.lower,
                "total": self.total}

    def view(self) -> dict[str, object]:
        return {
            "boxes": {b.value: self[b] for b in BOXES},
            "upper": self.upper,
            "bonus": self.bonus,
            "lower": self.lower,
            "kniffel_extra": self.kniffel_extra,
            "total": self.total,
        }


def sums_may_be(scores: Sequence[int | None],
                doubts: Sequence[Sequence[int]]) -> dict[str, frozenset[int]]:
    """What each sum row of boxes holding ``scores`` (in ``BOXES`` order) comes to as
    written, or with one box read as one of its ``doubts`` instead: a written sum that is
    one of these may be right, the pen saying another number than was read."""
    pads = [Pad(tuple(scores))] + [Pad(tuple(scores[:i]) + (d,) + tuple(scores[i + 1:]))
                                   for i, others in enumerate(doubts) for d in others]
    sums = [p.sums for p in pads]
    return {k: frozenset(s[k] for s in sums) for k in sums[0]}


# how many readings of a column the sums may settle at once: a box and a sum both blurred is
# common (a 1 hooked in a box and in the total it went into); three would let many doubts
# together explain almost any written sum
SETTLE_AT_MOST = 2
# two at a time are tried only among so many choices (780 pairs): a column full of doubts
# settles nothing two at a time rather than taking a moment per pair
SETTLE_PAIRS_AMONG = 40


def settled_by_sums(read: Mapping[str, int | None],
                    doubts: Mapping[str, Sequence[int]]) -> dict[str, int]:
    """The readings of a column that its written sums settle: ``read`` holds each row as read
    (boxes and sums by key, a strike as 0, None blank), ``doubts`` what each row that may be
    read otherwise may as well say. When the sums as read do not add up but reading one row
    (else two) as one of its doubts makes every written sum add up, and only one such choice
    does, that choice is returned, row by row. When none does (a sum the player added up
    wrong, which is what the check is for), each half of the pad whose own sum does not add
    up is settled so by that sum alone: a referee adds the upper boxes up against "Summe
    oben" before he looks at the total, and a hooked 1 that makes the upper sum add up as a
    7 is a 7 whatever the total says. A referee who cannot tell a hooked 1 from a 7 adds
    the column up before he calls anything wrong, but does not read a clear number otherwise
    to hide a slip: only a row with doubts moves, and only where the sums leave no choice."""
    up = {b.value for b in UPPER}
    low = {b.value for b in BOXES} - up
    upper0 = sum(read.get(k) or 0 for k in up)
    lower0 = sum(read.get(k) or 0 for k in low)
    written = {k: read.get(k) for k in Pad().sums}

    def sums(change: dict[str, int]) -> dict[str, int]:
        """What the boxes add up to with ``change`` read in place of the readings."""
        upper = upper0 + sum(v - (read.get(k) or 0) for k, v in change.items() if k in up)
        lower = lower0 + sum(v - (read.get(k) or 0) for k, v in change.items() if k in low)
        bonus = bonus_for(upper)
        return {"upper": upper, "bonus": bonus, "lower": lower, "total": upper + bonus + lower}

    def adds_up(change: dict[str, int], keys: Iterable[str] = written) -> bool:
        computed = sums(change)
        return all(change.get(k, written[k]) in (None, computed[k]) for k in keys)

    if adds_up({}):
        return {}
    choices = [(k, d) for k, ds in doubts.items() for d in ds if d != read.get(k)]
    whole = only_way(choices, adds_up)
    if whole:
        return whole
    out: dict[str, int] = {}
    for rows, key in ((up, "upper"), (low, "lower")):
        if written[key] is not None and not adds_up({}, (key,)):
            out.update(only_way([(k, d) for k, d in choices if k in rows or k == key],
                                partial(adds_up, keys=(key,))))
    return out


def pen_first(pen: int | None, doubts: Sequence[int], value: int) -> tuple[int, ...]:
    """The doubts of a reading the sums settled as ``value``: the number the pen said first
    (the table still knows the player may have written it), then its other doubts."""
    return (() if pen is None else (pen,)) + tuple(d for d in doubts if d != value)


def only_way(choices: Sequence[tuple[K, V]], adds_up: Callable[[dict[K, V]], bool],
             ) -> dict[K, V]:
    """The one set of ``choices`` (a row and what to read it as), one row's first, else two
    rows', for which ``adds_up`` holds; nothing when none or more than one does. Any
    column the sums settle is settled so: the printed pad's by its rows' keys, any card's
    (``vision.pad.sums``) by its cells."""
    for n in range(1, SETTLE_AT_MOST + 1 if len(choices) <= SETTLE_PAIRS_AMONG else 2):
        found = [dict(c) for c in itertools.combinations(choices, n)
                 if len({k for k, _ in c}) == n and adds_up(dict(c))]
        if found:
            return found[0] if len(found) == 1 else {}
    return {}
