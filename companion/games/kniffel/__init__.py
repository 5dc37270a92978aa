"""Wort-Kniffel: seven letter dice, words against the hourglass, eleven boxes on a pad.

Where the rule text is silent or ambiguous, this package reads it as a referee at the table
would (each reading has a test in ``tests/test_kniffel_readings.py``):

1. Words never share a die, and the words of one entry are different words (TOR and TOR
   from two sets of dice are one word, not two).
2. Upper boxes with several words (``two``: up to three, ``three``: one or two) score the sum
   of all dice used by all their words; a word's length is the number of dice it uses.
3. A word has at least two letters (the smallest box is for two-letter words).
4. The diamond stands for any one letter, Ä Ö Ü and ß included, and is worth 0. It may also
   stand for a letter another die already shows.
5. A, O, U dice may be read as Ä, Ö, Ü (TUR lays Tür). ß is laid as two S dice (the capital
   spelling, FUSS for Fuß; the diamond may be one of the two S) or with the diamond alone;
   all dice used count, and a word's length is its dice (FUSS goes in ``four``). Letters no
   die shows (é) can only be the diamond.
6. Street and chance need no words: the Straße is seven vowels (A E I O U, the diamond), the
   chance the sum of all seven dice, whatever they spell.
7. Full-House: exactly two words that together use all seven dice, 25 points. Wort-Zweier
   (``pair_of_words``) and Wort-Dreier (``three_words``) take exactly two and three words.
8. The upper bonus (35) counts as soon as the upper boxes reach 50 ("auf beliebige Weise"),
   not only when all five are filled.
9. Wort-Kniffel extra: only after a Wort-Kniffel scored 50 in its box. Each further one is
   worth 100 extra points, and for it the player writes a zero in an open box of their choice
   this turn (:class:`~companion.games.kniffel.rules.KniffelExtra`); the player may instead
   enter the roll normally. A struck (zero) Wort-Kniffel box earns no extra points.
10. A player may strike any open box with a zero after throwing, even if the roll fits
    elsewhere; when the roll fits no open box a zero is the only move (effect
    ``nothing_fits``).
11. Hourglass: it runs from the turn's first throw (or from a player's button, before it);
    when the runtime reports the sand ran out, the player can no longer throw or enter words;
    the only move left is a zero in an open box of their choice.
12. A roll must be one the dice set can show (each face on a different die); a misread roll
    is refused as ``impossible_roll`` rather than scored.
13. A number written on the paper pad is the entry only once a phone confirms it
    (:class:`~companion.games.kniffel.events.PadEntry`): the player on turn, after a throw, in
    an open box, and a number the throw can make there (the sum of as many dice as the box's
    words use; a fixed box's points; the Chance's total). The pad holds no words, so the words
    count as the table's, as with ``table_ok``; nothing is recorded for them.

Words come from :mod:`companion.wordlist` (at the edge: it reads the list and its cache);
the solver and the rules receive the index.
"""

import functools
from collections.abc import Mapping
from typing import Any

from companion.games.base import GameRules
from companion.games.kniffel.dice import DEFAULT_DICE, DiceError, DiceSet, Face, Roll
from companion.games.kniffel.errors import KniffelError
from companion.games.kniffel.events import (
    CODEC,
    Enter,
    FixThrow,
    KniffelExtra,
    PadEntry,
    StartHourglass,
    Throw,
    TimeUp,
    Zero,
)
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.observe import observe
from companion.games.kniffel.pad import BOXES, Box, Pad, PadError
from companion.games.kniffel.rules import KniffelState, apply, new
from companion.games.kniffel.view import act, advisor, press, table_view, view


def build_rules(lexicon: Lexicon | None = None) -> GameRules[KniffelState]:
    """Wort-Kniffel's rules; with ``lexicon`` every word is checked against it."""
    return GameRules(
        name="kniffel",
        title="Wort-Kniffel",
        new=new,
        apply=functools.partial(apply, lexicon=lexicon),
        decode=CODEC.decode,
        encode=CODEC.encode,
        view=view,
        table=table_view,
        press=press,
        act=act,
        observe=observe,
        reads="dice",
        advisor=None if lexicon is None else advisor(lexicon),
        needs=("lexicon",),
        bind=_bind,
    )


def _bind(resources: Mapping[str, Any]) -> GameRules[KniffelState]:
    return build_rules(resources["lexicon"])


GAME = build_rules()

__all__ = [
    "BOXES",
    "DEFAULT_DICE",
    "GAME",
    "Box",
    "DiceError",
    "DiceSet",
    "Enter",
    "Face",
    "FixThrow",
    "KniffelError",
    "KniffelExtra",
    "KniffelState",
    "Lexicon",
    "Pad",
    "PadEntry",
    "PadError",
    "Roll",
    "StartHourglass",
    "Throw",
    "TimeUp",
    "Zero",
    "build_rules",
]
