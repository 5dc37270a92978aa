"""The seven letter dice: faces, a roll's notation and the physical set the table plays with.

Notation: seven tokens separated by spaces (or commas), each a letter followed by its point
value (``T2``), or ``*`` for the diamond (``*0`` is accepted too). A letter without a value
takes the value its face has in the dice set, so ``"T O R E I C H"`` works with the default
set. Example: ``"T2 O3 R2 E1 I1 C4 H3"``.

The default set (:data:`DEFAULT_DICE`) is a reconstruction, not the publisher's: the rule text
shows only ten faces (T2 O3 R2 E1 I1 C4 H3 S2 A1 N2), and both of its example rolls must be
throwable, so each shown letter sits on a die that lets ``T O R E I C H`` and ``I C H E S A N``
come up together. The other faces follow German letter frequency, every die has a vowel (so a
Straße is possible) and rarer letters are worth more. A table with the real set puts its faces
in the config (``DiceSet.parse``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.kniffel.errors import KniffelError

N_DICE = 7
FACES_PER_DIE = 6
JOKER = "*"
# What the diamond may not be worth: "hat aber keinen Punktwert".
JOKER_VALUE = 0
VOWELS = frozenset("AEIOU")
DIE_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
MAX_VALUE = 99

_TOKEN = re.compile(r"^([A-Za-z]|\*)(\d{1,2})?$")


class DiceError(KniffelError):
    """Bad dice notation, a roll the set cannot throw, or a malformed dice set."""


@dataclass(frozen=True, order=True)
class Face:
    """One face: an upper-case letter (or ``*``, the diamond) and its point value."""

    letter: str
    value: int

    def __post_init__(self) -> None:
        if self.letter == JOKER:
            if self.value != JOKER_VALUE:
                raise DiceError(f"the diamond is worth {JOKER_VALUE}, not {self.value}")
        elif self.letter not in DIE_LETTERS:
            raise DiceError(f"{self.letter!r} is not a die letter (A-Z, * for the diamond)")
        elif not 0 <= self.value <= MAX_VALUE:
            raise DiceError(f"{self.letter}: value {self.value} is out of range 0-{MAX_VALUE}")

    @property
    def is_joker(self) -> bool:
        return self.letter == JOKER

    @property
    def is_vowel(self) -> bool:
        """A, E, I, O, U and the diamond count as vowels for the Straße."""
        return self.is_joker or self.letter in VOWELS

    def __str__(self) -> str:
        return JOKER if self.is_joker else f"{self.letter}{self.value}"

    @classmethod
    def parse(cls, token: str, values: dict[str, int] | None = None) -> Face:
        """One token of the notation; ``values`` supplies a missing value by letter."""
        m = _TOKEN.match(token.strip())
        if m is None:
            raise DiceError(
                f"bad die {token!r}: write a letter and its value (T2), or * for the diamond"
            )
        letter, digits = m.group(1).upper(), m.group(2)
        if letter == JOKER:
            return cls(JOKER, int(digits) if digits else JOKER_VALUE)
        if digits is not None:
            return cls(letter, int(digits))
        if values is None or letter not in values:
            raise DiceError(
                f"die {letter!r} has no value: write it as {letter}<value>, e.g. {letter}2"
            )
        return cls(letter, values[letter])


@dataclass(frozen=True)
class Roll:
    """Seven faces as they lie on the table, in the order given (positions 0-6)."""

    faces: tuple[Face, ...]

    def __post_init__(self) -> None:
        if len(self.faces) != N_DICE:
            raise DiceError(f"a roll has {N_DICE} dice, got {len(self.faces)}")
        jokers = sum(f.is_joker for f in self.faces)
        if jokers > 1:
            raise DiceError(f"a roll shows at most one diamond, got {jokers}")

    @classmethod
    def parse(cls, text: str, dice: DiceSet | None = None) -> Roll:
        """Read the notation; values missing from tokens come from ``dice`` (default set)."""
        if not isinstance(text, str):
            raise DiceError("a roll must be given as text")
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        values = (dice if dice is not None else DEFAULT_DICE).letter_values()
        return cls(tuple(Face.parse(t, values) for t in tokens))

    def __str__(self) -> str:
        return " ".join(str(f) for f in self.faces)

    def __len__(self) -> int:
        return len(self.faces)

    @property
    def total(self) -> int:
        return sum(f.value for f in self.faces)

    @property
    def joker(self) -> int | None:
        """Position of the diamond, if it shows."""
        for i, f in enumerate(self.faces):
            if f.is_joker:
                return i
        return None

    def value_of(self, positions: Sequence[int]) -> int:
        return sum(self.faces[i].value for i in positions)

    def replace(self, positions: Sequence[int], faces: Sequence[Face]) -> Roll:
        out = list(self.faces)
        for i, f in zip(positions, faces, strict=True):
            out[i] = f
        return Roll(tuple(out))


@dataclass(frozen=True)
class DiceSet:
    """The physical set: seven dice of six faces; exactly one face of one die is the diamond."""

    dice: tuple[tuple[Face, ...], ...]

    def __post_init__(self) -> None:
        if len(self.dice) != N_DICE:
            raise DiceError(f"a dice set has {N_DICE} dice, got {len(self.dice)}")
        for n, die in enumerate(self.dice, start=1):
            if len(die) != FACES_PER_DIE:
                raise DiceError(f"die {n} has {len(die)} faces, expected {FACES_PER_DIE}")
        jokers = sum(f.is_joker for die in self.dice for f in die)
        if jokers != 1:
            raise DiceError(f"the set has one diamond face, got {jokers}")

    @classmethod
    def parse(cls, dice: Sequence[str]) -> DiceSet:
        """Seven strings of six tokens each, e.g. ``["T2 S2 E1 L2 B3 K4", ...]``."""
        if isinstance(dice, str):
            raise DiceError("a dice set is a list of seven dice, one string of six faces each")
        parsed = []
        for n, die in enumerate(dice, start=1):
            try:
                parsed.append(tuple(Face.parse(t) for t in re.split(r"[\s,]+", die.strip()) if t))
            except DiceError as exc:
                raise DiceError(f"die {n}: {exc}") from None
        return cls(tuple(parsed))

    def notation(self) -> tuple[str, ...]:
        return tuple(" ".join(str(f) for f in die) for die in self.dice)

    def letter_values(self) -> dict[str, int]:
        """Each letter's value (the first die showing it decides when dice disagree)."""
        out: dict[str, int] = {}
        for die in self.dice:
            for f in die:
                out.setdefault(f.letter, f.value)
        return out

    def assign(self, roll: Roll) -> tuple[int, ...] | None:
        """Which die shows each position's face: a perfect matching, or ``None`` if the set
        cannot throw this roll. Deterministic: the lowest-numbered die that fits is preferred.
        """
        owner: list[int | None] = [None] * N_DICE  # die -> position

        def place(pos: int, seen: set[int]) -> bool:
            for d, die in enumerate(self.dice):
                if d in seen or roll.faces[pos] not in die:
                    continue
                seen.add(d)
                held = owner[d]
                if held is None or place(held, seen):
                    owner[d] = pos
                    return True
            return False

        for pos in range(N_DICE):
            if not place(pos, set()):
                return None
        result = [0] * N_DICE
        for d, held in enumerate(owner):
            assert held is not None  # seven positions placed on seven dice
            result[held] = d
        return tuple(result)


DEFAULT_DICE = DiceSet.parse(
    [
        "T2 S2 E1 L2 B3 K4",
        "O3 A1 E1 D2 M3 W4",
        "R2 N2 U2 G3 I1 P4",
        "E1 A1 N2 S2 Z4 F4",
        "I1 E1 R2 T2 L2 V5",
        "C4 U2 A1 D2 G3 *",
        "H3 E1 N2 I1 O3 K4",
    ]
)
