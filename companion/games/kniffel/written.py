"""A number written on the paper pad, checked against the throw without its words.

The pad holds points, never words, so a score taken from the pad cannot be refereed word by
word. A referee at the table still asks whether the dice on the table can make that number in
that box: an upper box or a word box is the sum of some of the dice, as many as its words use;
Full-House, Straße and Wort-Kniffel score their fixed points (Straße only on seven vowels);
the Chance is all seven dice. Anything else was written for another throw or misread.
"""

from __future__ import annotations

from itertools import combinations

from companion.games.base import Refused
from companion.games.kniffel.dice import N_DICE, DiceSet, Roll
from companion.games.kniffel.lexicon import MIN_DICE
from companion.games.kniffel.pad import FULL_HOUSE, KNIFFEL, STREET, Box
from companion.games.kniffel.solver import check_entry

FIXED = {Box.FULL_HOUSE: FULL_HOUSE, Box.KNIFFEL: KNIFFEL}
# how many words each word box takes: each word at least MIN_DICE dice
WORD_BOXES = {Box.PAIR_OF_WORDS: 2, Box.THREE_WORDS: 3}


def dice_used(box: Box) -> tuple[int, ...]:
    """How many dice an entry in ``box`` may use (upper boxes: whole words of their length)."""
    letters = box.letters
    if letters is not None:
        lo, hi = box.words
        return tuple(letters * n for n in range(lo, hi + 1) if letters * n <= N_DICE)
    words = WORD_BOXES.get(box)
    if words is not None:
        return tuple(range(words * MIN_DICE, N_DICE + 1))
    return (N_DICE,)


def score_fits(roll: Roll, box: Box, score: int) -> bool:
    """The throw can make ``score`` in ``box``, whichever words were laid."""
    if box in FIXED:
        return score == FIXED[box]
    if box in (Box.STREET, Box.CHANCE):
        try:
            return check_entry(roll, box, ()).score == score
        except Refused:
            return False
    values = [f.value for f in roll.faces]
    return any(sum(values[i] for i in chosen) == score
               for n in dice_used(box) for chosen in combinations(range(N_DICE), n))


def possible_scores(box: Box, dice: DiceSet) -> frozenset[int]:
    """Every number some throw of ``dice`` can make in ``box``, and 0 (a box struck, or given
    up for a Wort-Kniffel extra, is written as a zero).

    The pad reader weighs what it reads by this, as a referee squinting at a smudged "23" in
    the Full-House box reads 25: the words are not on the pad, so an upper or word box may
    hold the sum of any dice of the set, as many as its words use, one face of each."""
    if box in FIXED:
        return frozenset({0, FIXED[box]})
    if box is Box.STREET:
        return frozenset({0, STREET})
    sums: list[set[int]] = [{0}] + [set() for _ in range(N_DICE)]  # by dice used
    for die in dice.dice[:N_DICE]:
        values = {f.value for f in die}
        for used in range(N_DICE - 1, -1, -1):
            sums[used + 1] |= {s + v for s in sums[used] for v in values}
    return frozenset({0}.union(*(sums[n] for n in dice_used(box))))


__all__ = ["dice_used", "possible_scores", "score_fits"]
