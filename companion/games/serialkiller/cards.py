"""A standard 52-card deck, and what each rank means in Serial Killer.

Cards are written as people say them: rank then suit, ``KH`` (King of Hearts), ``10S`` (``TS``
is read too), ``AD``, ``7C``; lower case and the suit symbols ♠♥♦♣ are accepted.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from companion.games.serialkiller.errors import SerialKillerError


class CardError(SerialKillerError):
    """A card token that names no card of a standard deck."""


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"


class Role(enum.Enum):
    """What a card is in the game (the rule sheet's card summary)."""

    INFORMANT = "informant"  # Ace
    VICTIM = "victim"  # King, Queen
    CORPSE = "corpse"  # Jack
    MISSED = "missed"  # number cards: a missed opportunity


class Rank(enum.Enum):
    """Ranks by their symbol; :attr:`high` orders them for drawing the first player (Ace high)."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def high(self) -> int:
        """2 lowest, Ace highest."""
        return _ORDER[self]

    @property
    def role(self) -> Role:
        if self is Rank.ACE:
            return Role.INFORMANT
        if self in (Rank.KING, Rank.QUEEN):
            return Role.VICTIM
        if self is Rank.JACK:
            return Role.CORPSE
        return Role.MISSED


_ORDER = {rank: i for i, rank in enumerate(Rank, start=2)}


@dataclass(frozen=True)
class Card:
    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return f"{self.rank.value}{self.suit.value}"

    @property
    def role(self) -> Role:
        return self.rank.role

    @property
    def sort_key(self) -> tuple[int, str]:
        return (self.rank.high, self.suit.value)

    @classmethod
    def parse(cls, token: str) -> Card:
        match = _TOKEN.match(token) if isinstance(token, str) else None
        if not match:
            raise CardError(f"{token!r} is not a card: write rank then suit, e.g. KH, 10S, AD, 7C")
        rank_text, suit_text = match.group(1).upper(), match.group(2)
        rank = Rank("10" if rank_text == "T" else rank_text)
        suit = Suit(_SUIT_SYMBOLS.get(suit_text, suit_text.upper()))
        return cls(rank, suit)


_TOKEN = re.compile(r"^\s*(10|[2-9]|[TJQKA])\s*([SHDC♠♥♦♣])\s*$", re.IGNORECASE)
_SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}

FULL_DECK: frozenset[Card] = frozenset(Card(r, s) for r in Rank for s in Suit)


def canonical(token: str) -> str:
    """The card token in its one written form (``th`` -> ``10H``)."""
    return str(Card.parse(token))


def sorted_cards(cards: frozenset[Card] | tuple[Card, ...]) -> list[Card]:
    return sorted(cards, key=lambda c: c.sort_key)
