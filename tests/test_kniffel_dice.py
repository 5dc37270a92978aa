"""Dice notation, the dice set and which die shows which face."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.kniffel.dice import DEFAULT_DICE, DiceError, DiceSet, Face, Roll

letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
faces = st.builds(Face, letters, st.integers(0, 99))


@given(st.lists(faces, min_size=7, max_size=7), st.integers(0, 7))
def test_roll_notation_round_trips(fs: list[Face], joker_at: int) -> None:
    if joker_at < 7:
        fs[joker_at] = Face("*", 0)
    roll = Roll(tuple(fs))
    assert Roll.parse(str(roll)) == roll
    assert Roll.parse(str(roll).lower().replace(" ", ", ")) == roll


def test_rule_text_values_are_the_default_sets() -> None:
    values = DEFAULT_DICE.letter_values()
    shown = {"T": 2, "O": 3, "R": 2, "E": 1, "I": 1, "C": 4, "H": 3, "S": 2, "A": 1, "N": 2}
    assert {k: values[k] for k in shown} == shown
    assert Roll.parse("T O R E I C H") == Roll.parse("T2 O3 R2 E1 I1 C4 H3")


def test_the_rule_texts_rolls_are_throwable_with_the_default_set() -> None:
    for text in ("T2 O3 R2 E1 I1 C4 H3", "I1 C4 H3 E1 S2 A1 N2"):
        owners = DEFAULT_DICE.assign(Roll.parse(text))
        assert owners is not None and sorted(owners) == list(range(7))


def test_the_set_has_one_diamond_and_a_vowel_on_every_die() -> None:
    assert sum(f.is_joker for die in DEFAULT_DICE.dice for f in die) == 1
    assert all(any(f.is_vowel for f in die) for die in DEFAULT_DICE.dice)
    assert DiceSet.parse(DEFAULT_DICE.notation()) == DEFAULT_DICE


def test_assign_agrees_with_trying_every_permutation() -> None:
    rng = random.Random(3)
    for _ in range(40):
        fs = tuple(rng.choice(rng.choice(DEFAULT_DICE.dice)) for _ in range(7))
        if sum(f.is_joker for f in fs) > 1:
            continue
        roll = Roll(fs)
        possible = any(
            all(roll.faces[p] in DEFAULT_DICE.dice[d] for p, d in enumerate(perm))
            for perm in itertools.permutations(range(7))
        )
        owners = DEFAULT_DICE.assign(roll)
        assert (owners is not None) == possible
        if owners is not None:
            assert all(roll.faces[p] in DEFAULT_DICE.dice[d] for p, d in enumerate(owners))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("T2 O3 R2 E1 I1 C4", "7 dice"),
        ("T2 O3 R2 E1 I1 C4 H3 E1", "7 dice"),
        ("T2 O3 R2 E1 I1 * *", "at most one diamond"),
        ("T2 O3 R2 E1 I1 C4 H", None),
        ("T2 O3 R2 E1 I1 C4 Ä2", "bad die"),
        ("T2 O3 R2 E1 I1 C4 12", "bad die"),
        ("T2 O3 R2 E1 I1 C4 *3", "worth 0"),
        ("T2 O3 R2 E1 I1 C4 Q", "has no value"),
        ("", "7 dice"),
    ],
)
def test_bad_notation_says_what_is_wrong(text: str, words: str | None) -> None:
    if words is None:
        assert Roll.parse(text).faces[-1] == Face("H", 3)
        return
    with pytest.raises(DiceError, match=words):
        Roll.parse(text)


def test_a_malformed_set_is_refused() -> None:
    with pytest.raises(DiceError, match="one diamond"):
        DiceSet.parse(["A1 B2 C3 D4 E5 F6"] * 7)
    with pytest.raises(DiceError, match="expected 6"):
        DiceSet.parse(["A1 B2 C3 D4 E5"] + list(DEFAULT_DICE.notation()[1:]))
    with pytest.raises(DiceError, match="7 dice"):
        DiceSet.parse(list(DEFAULT_DICE.notation()[:6]))
    with pytest.raises(DiceError, match="die 3"):
        dice = list(DEFAULT_DICE.notation())
        DiceSet.parse([*dice[:2], "A1 B2 C3 D4 E5 %", *dice[3:]])


def test_every_package_error_has_one_root_and_is_a_value_error() -> None:
    from companion.errors import InputError
    from companion.games.kniffel import KniffelError
    from companion.games.kniffel.pad import PadError
    from companion.wordlist import WordListError

    for cls in (DiceError, PadError, WordListError):
        assert issubclass(cls, KniffelError) and issubclass(cls, ValueError)
    assert issubclass(WordListError, InputError)
