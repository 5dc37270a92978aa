"""The solver against an exhaustive brute force that shares none of its code.

The brute force lays each word die by die over every ordered choice of dice (a die lays its
letter, A/O/U also Ä/Ö/Ü, two S dice lay ß - the diamond may be one of them -, the diamond
anything), then tries every set of disjoint plays for every box.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kniffel_support import german_lexicon

from companion.games.base import Refused
from companion.games.kniffel.advice import advise
from companion.games.kniffel.dice import DEFAULT_DICE, Face, Roll
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, Box
from companion.games.kniffel.solver import (
    best_boxes,
    best_value,
    check_entry,
    rank,
)

UMLAUT = {"A": "ä", "O": "ö", "U": "ü"}


@pytest.fixture(scope="module")
def german() -> Lexicon:
    return german_lexicon()


def _matches(ch: str, f: Face) -> bool:
    return f.is_joker or ch == f.letter.lower() or ch == UMLAUT.get(f.letter)


def _lays(word: str, dice: Sequence[Face]) -> bool:
    """Do these dice, in this order, lay ``word`` with every die used?"""
    w, i = word.lower(), 0
    for pos, ch in enumerate(w):
        if i < len(dice) and _matches(ch, dice[i]):
            i += 1
        elif ch == "ß" and dice[i + 1 :] and _matches("s", dice[i]) and _matches("s", dice[i + 1]):
            i += 2
        else:
            return False
    return i == len(dice)


def _plays(roll: Roll, words: Sequence[str]) -> list[tuple[str, int]]:
    """Every (word, set of dice) the roll can lay: every way of taking dice letter by letter."""
    out = set()
    faces = roll.faces

    def walk(w: str, pos: int, used: int, word: str) -> None:
        if pos == len(w):
            if bin(used).count("1") >= 2:
                out.add((word.lower(), used))
            return
        ch = w[pos]
        for i in range(7):
            if used >> i & 1:
                continue
            if _matches(ch, faces[i]):
                walk(w, pos + 1, used | 1 << i, word)
            if ch == "ß" and _matches("s", faces[i]):  # ß as SS; the diamond may be an S
                for j in range(7):
                    if j != i and not used >> j & 1 and _matches("s", faces[j]):
                        walk(w, pos + 1, used | 1 << i | 1 << j, word)

    for w in words:
        walk(w.lower(), 0, 0, w)
    return sorted(out)


def _brute(roll: Roll, words: Sequence[str]) -> dict[Box, int | None]:
    plays = _plays(roll, words)

    def val(mask: int) -> int:
        return sum(roll.faces[i].value for i in range(7) if mask >> i & 1)

    def best(n_lo: int, n_hi: int, ok) -> int | None:  # type: ignore[no-untyped-def]
        """Every set of n_lo..n_hi plays with disjoint dice and different words."""
        top: list[int | None] = [None]

        def walk(start: int, used: int, chosen: list[tuple[str, int]]) -> None:
            if n_lo <= len(chosen) and ok([m for _, m in chosen]):
                s = sum(val(m) for _, m in chosen)
                if len({w for w, _ in chosen}) == len(chosen):
                    top[0] = s if top[0] is None else max(top[0], s)
            if len(chosen) == n_hi:
                return
            for j in range(start, len(plays)):
                if not plays[j][1] & used:
                    walk(j + 1, used | plays[j][1], [*chosen, plays[j]])

        walk(0, 0, [])
        return top[0]

    size = lambda k: lambda ms: all(bin(m).count("1") == k for m in ms)  # noqa: E731
    out: dict[Box, int | None] = {
        Box.TWO: best(1, 3, size(2)),
        Box.THREE: best(1, 2, size(3)),
        Box.FOUR: best(1, 1, size(4)),
        Box.FIVE: best(1, 1, size(5)),
        Box.SIX: best(1, 1, size(6)),
        Box.PAIR_OF_WORDS: best(2, 2, lambda ms: True),
        Box.THREE_WORDS: best(3, 3, lambda ms: True),
    }
    fh = best(2, 2, lambda ms: sum(ms) == 127)
    out[Box.FULL_HOUSE] = None if fh is None else 25
    kn = best(1, 1, lambda ms: ms[0] == 127)
    out[Box.KNIFFEL] = None if kn is None else 50
    out[Box.STREET] = 30 if all(f.letter in "AEIOU*" for f in roll.faces) else None
    out[Box.CHANCE] = sum(f.value for f in roll.faces)
    return out


def _random_roll(rng: random.Random) -> Roll:
    return Roll(tuple(rng.choice(die) for die in DEFAULT_DICE.dice))


def _small_list(full: Lexicon, rng: random.Random, roll: Roll) -> list[str]:
    """Words the roll can probably lay (sharing its letters) plus random others and ß/umlaut
    words, so the brute force meets joker, umlaut and ß cases."""
    letters = {f.letter.lower() for f in roll.faces} | {"ä", "ö", "ü", "ß"}
    near = [w for w in list(full) if set(w.lower()) <= letters]
    special = [w for w in list(full) if set(w.lower()) & {"ä", "ö", "ü", "ß"}]
    return sorted(set(rng.sample(near, min(120, len(near))) + rng.sample(special, 30)
                      + rng.sample(list(full), 30)))


@pytest.mark.parametrize("seed", range(12))
def test_agrees_with_brute_force_on_seeded_rolls(german, seed: int) -> None:
    rng = random.Random(seed)
    roll = _random_roll(rng)
    if seed % 3 == 0 and roll.joker is None:  # make sure the diamond is well covered
        roll = roll.replace([5], [Face("*", 0)])
    words = _small_list(german, rng, roll)
    lexicon = Lexicon.from_words(words)
    got = best_boxes(roll, lexicon)
    want = _brute(roll, words)
    assert {b: got[b].score for b in BOXES} == want
    for box, entry in got.items():  # the words returned really reach the score
        if entry.plays:
            for p in entry.plays:
                assert any(_lays(p.word, [roll.faces[i] for i in perm])
                           for perm in itertools.permutations(p.dice))
            if box.letters is not None or box in (Box.PAIR_OF_WORDS, Box.THREE_WORDS):
                assert entry.score == sum(roll.value_of(p.dice) for p in entry.plays)
            assert len({p.word.lower() for p in entry.plays}) == len(entry.plays)


@pytest.mark.parametrize(
    "dice",
    ["E1 E1 N2 S2 R2 * A1", "A1 * U2 S2 S2 E1 N2", "F4 U2 S2 S2 E1 N2 T2", "T2 O3 R2 E1 I1 C4 H3"],
)
def test_agrees_with_brute_force_on_umlaut_sharp_s_and_joker_rolls(dice: str) -> None:
    words = ["Fuß", "Füße", "Füßen", "Maß", "Masse", "süß", "Tür", "Tor", "Ei", "es", "er",
             "Ente", "Sense", "essen", "Rente", "Hort", "Rohheit", "nass", "Nase", "Ass", "aß",
             "tun", "Ton", "rot", "Ort", "Chor", "reicht", "an", "in", "so", "eng"]
    roll = Roll.parse(dice)
    got = best_boxes(roll, Lexicon.from_words(words))
    assert {b: got[b].score for b in BOXES} == _brute(roll, words)


@pytest.mark.parametrize("seed", range(4))
def test_full_list_agrees_with_brute_force(german, seed: int) -> None:
    """On the full German list (about 30,000 playable words), every box."""
    roll = _random_roll(random.Random(1000 + seed))
    if seed == 3 and roll.joker is None:
        roll = roll.replace([5], [Face("*", 0)])
    got = best_boxes(roll, german)
    assert {b: got[b].score for b in BOXES} == _brute(roll, list(german))


def test_full_list_finds_the_rule_examples(german) -> None:
    roll = Roll.parse("T2 O3 R2 E1 I1 C4 H3")
    assert check_entry(roll, Box.PAIR_OF_WORDS, ["TOR", "EI"], german).score == 9
    roll2 = Roll.parse("I1 C4 H3 E1 S2 A1 N2")
    assert check_entry(roll2, Box.THREE_WORDS, ["ICH", "ES", "AN"], german).score == 14
    best = best_boxes(roll2, german)
    assert best[Box.THREE_WORDS].score is not None and best[Box.THREE_WORDS].score >= 14
    assert best[Box.CHANCE].score == 14


def test_check_entry_reasons(german) -> None:
    roll = Roll.parse("T2 O3 R2 E1 I1 C4 H3")
    cases = {
        ("four", ("TOR",)): "wrong_length",
        ("four", ("HAUS",)): "cannot_spell",
        ("pair_of_words", ("TOR",)): "box_takes_words",
        ("pair_of_words", ("TOR", "TOR")): "same_word",
        ("three", ("XQZ",)): "not_a_word",
        ("pair_of_words", ("TOR", "ORT")): "cannot_spell",
        ("full_house", ("TOR", "EI")): "not_all_dice",
        ("kniffel", ("CHOR",)): "not_all_dice",
        ("street", ()): "not_vowels",
    }
    for (box, words), code in cases.items():
        with pytest.raises(Refused) as err:
            check_entry(roll, Box.parse(box), words, german)
        assert err.value.code == code, (box, words)


def test_rank_puts_the_bonus_first_and_skips_unfillable(german) -> None:
    roll = Roll.parse("T2 O3 R2 E1 I1 C4 H3")
    entries = best_boxes(roll, german)
    plain = rank(entries.values(), upper=0)
    assert [r.entry.box for r in plain][0] is Box.FULL_HOUSE
    assert all(r.entry.score is not None for r in plain)
    assert [r.value for r in plain] == sorted((r.value for r in plain), reverse=True)
    near = rank(entries.values(), upper=40)  # a 12 in four reaches 52: +35
    four = next(r for r in near if r.entry.box is Box.FOUR)
    assert four.bonus_secured and four.value == entries[Box.FOUR].score + 35
    assert near[0].bonus_secured


def test_best_value_matches_best_boxes_over_open_boxes(german) -> None:
    rng = random.Random(5)
    for _ in range(12):
        roll = _random_roll(rng)
        opened = frozenset(rng.sample(list(BOXES), 4))
        entries = best_boxes(roll, german, opened)
        want = max((e.score for e in entries.values() if e.score is not None), default=0)
        assert best_value(roll, german, opened) == want
        for upper in (30, 42, 49):
            ranked = rank(entries.values(), upper)
            assert best_value(roll, german, opened, upper) == max(
                (r.value for r in ranked), default=0)
        assert all(entries[b].score is None for b in BOXES if b not in opened)


def test_advice_with_one_die_to_roll_is_exact_and_matches_enumeration(german) -> None:
    """With only chance and four open, a brute enumeration of every keep set agrees."""
    roll = Roll.parse("H3 A1 U2 S2 E1 N2 K4")
    opened = frozenset({Box.FOUR, Box.KNIFFEL})
    advice = advise(roll, german, DEFAULT_DICE, 1, random.Random(0), opened,
                    samples=4, refine=0, exact_limit=36)
    owners = DEFAULT_DICE.assign(roll)
    assert owners is not None
    for opt in advice.options:
        free = [i for i in range(7) if i not in opt.keep]
        if len(free) > 2:
            assert not opt.exact
            continue
        assert opt.exact and opt.stderr == 0
        vals = []
        for draw in itertools.product(*(DEFAULT_DICE.dice[owners[i]] for i in free)):
            vals.append(best_value(roll.replace(free, draw), german, opened))
        assert opt.expected == pytest.approx(sum(vals) / len(vals))
    assert advice.best.expected == max(o.expected for o in advice.options)


def test_two_rolls_left_stops_when_the_first_reroll_beats_the_expected_second(german) -> None:
    roll = Roll.parse("H3 A1 U2 S2 E1 N2 K4")
    opened = frozenset({Box.FOUR, Box.KNIFFEL, Box.TWO})
    advice = advise(roll, german, DEFAULT_DICE, 2, random.Random(0), opened,
                    samples=4, refine=0)
    owners = DEFAULT_DICE.assign(roll)
    assert owners is not None
    for opt in advice.options:
        free = [i for i in range(7) if i not in opt.keep]
        if not opt.exact or not free:
            continue
        vals = [best_value(roll.replace(free, draw), german, opened)
                for draw in itertools.product(*(DEFAULT_DICE.dice[owners[i]] for i in free))]
        mean = sum(vals) / len(vals)
        assert opt.expected == pytest.approx(sum(max(v, mean) for v in vals) / len(vals))


def test_advice_is_reproducible_with_a_seed_and_reports_error(german) -> None:
    roll = Roll.parse("T2 O3 R2 E1 I1 C4 H3")
    a = advise(roll, german, DEFAULT_DICE, 2, random.Random(7), samples=4, refine=2,
               refine_samples=4)
    b = advise(roll, german, DEFAULT_DICE, 2, random.Random(7), samples=4, refine=2,
               refine_samples=4)
    assert a == b
    sampled = [o for o in a.options if not o.exact]
    assert sampled and all(o.stderr >= 0 and o.outcomes >= 4 for o in sampled)
    stand = next(o for o in a.options if len(o.keep) == 7)
    assert stand.expected == best_value(roll, german, frozenset(BOXES))
    # two rolls left is never worth less than one (the player may stop after the first)
    one = advise(roll, german, DEFAULT_DICE, 1, random.Random(7), samples=4, refine=2,
                 refine_samples=4)
    for o1, o2 in zip(sorted(one.options, key=lambda o: o.keep),
                      sorted(a.options, key=lambda o: o.keep)):
        assert o2.expected >= o1.expected - 1e-9


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(DEFAULT_DICE.dice[0] + DEFAULT_DICE.dice[5] + DEFAULT_DICE.dice[6]),
             min_size=7, max_size=7).filter(lambda fs: sum(f.is_joker for f in fs) <= 1),
    st.lists(st.text("tseklbcuadgänhioößü", min_size=2, max_size=7), min_size=1, max_size=40),
)
def test_agrees_with_brute_force_on_generated_words(faces: list[Face], words: list[str]) -> None:
    """Made-up words over the roll's letters, umlauts and ß: every box, exactly."""
    roll = Roll(tuple(faces))
    got = best_boxes(roll, Lexicon.from_words(words))
    assert {b: got[b].score for b in BOXES} == _brute(roll, words)


@pytest.mark.parametrize("seed", range(6))
def test_every_best_entry_passes_the_check(german, seed: int) -> None:
    """What ``best`` proposes, ``check`` (a separate code path) accepts at the same score."""
    roll = _random_roll(random.Random(500 + seed))
    for box, entry in best_boxes(roll, german).items():
        if entry.score is None:
            continue
        checked = check_entry(roll, box, [p.word for p in entry.plays], german)
        assert checked.score == entry.score, box
