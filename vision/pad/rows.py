"""What a row of a Kniffel card may hold, known by its printed label.

A referee who cannot tell whether the Zweier box says 6 or 7 knows it is one of 0, 2, ... 10,
and a Full House is 25 or nothing. The reader weighs a doubtful number by this
(:func:`vision.kniffel_pad.numbers.join`) where the labels were read (``read-pad --text`` or
``--sums``). Only the rows whose points the rules fix are known: the upper boxes (the dice
showing that face: up to five), the Pasch boxes and the Chance (all five dice), the Full
House, the two Straßen and the Kniffel. Sums may be added up wrongly and are left alone, and
so is any row of another game, or one whose label could not be read.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Collection

LIKE = 0.8  # a word this like a key word (difflib's ratio) is taken for it
DICE = 5
FACES = {"einer": 1, "einser": 1, "1er": 1, "zweier": 2, "2er": 2, "dreier": 3, "3er": 3,
         "vierer": 4, "4er": 4, "funfer": 5, "5er": 5, "sechser": 6, "6er": 6}
ALL_DICE = ("dreierpasch", "viererpasch", "pasch", "chance")
FIXED = {"house": 25, "kniffel": 50, "yahtzee": 50}
STREETS = {"kleine": 30, "kl": 30, "grosse": 40, "gr": 40}
# a row of another game, or one added up: its points are not the Kniffel card's
NOT_A_BOX = ("summe", "gesamt", "total", "endsumme", "bonus", "wort", "worter")


def fold(text: str) -> list[str]:
    """The label's words, lower case, without accents (OCR reads umlauts unevenly), ß as ss,
    digits kept ("3er")."""
    plain = unicodedata.normalize("NFKD", text.lower().replace("ß", "ss"))
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch))
    return re.findall(r"[a-z0-9]+", plain)


def _match(words: list[str], keys: Collection[str]) -> str | None:
    """The first key one of the label's words is (or is like, an OCR slip forgiven)."""
    for w in words:
        close = [w] if w in keys else difflib.get_close_matches(w, list(keys), 1, LIKE)
        if close:
            return close[0]
    return None


def has(words: list[str], keys: tuple[str, ...]) -> bool:
    return _match(words, keys) is not None


def _like(words: list[str], keys: dict[str, int]) -> int | None:
    key = _match(words, keys)
    return None if key is None else keys[key]


def may_hold(label: str) -> frozenset[int] | None:
    """The points a Kniffel card's row labelled ``label`` can hold (0 a struck box), or None
    where the label says nothing sure (a sum, a bonus, another game's row, no label)."""
    words = fold(label)
    if not words or has(words, NOT_A_BOX):
        return None
    if has(words, ALL_DICE):
        return frozenset({0, *range(DICE, 6 * DICE + 1)})
    if has(words, ("strasse", "strase", "str")):
        street = _like(words, STREETS)
        return frozenset({0, 30, 40} if street is None else {0, street})
    fixed = _like(words, FIXED)
    if fixed is not None:
        return frozenset({0, fixed})
    face = _like(words, FACES)
    return None if face is None else frozenset(face * n for n in range(DICE + 1))


__all__ = ["fold", "has", "may_hold"]
