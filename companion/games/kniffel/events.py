"""What can happen in a game of Wort-Kniffel, as frozen values and their JSON.

:class:`Throw` (``throw``) the dice as they lie after a (re-)roll; :class:`Enter` (``enter``)
the roll in a box with the words laid; :class:`Zero` (``zero``) strike a box;
:class:`KniffelExtra` (``kniffel_extra``) a further Wort-Kniffel for 100 extra points and a
zero; :class:`StartHourglass` (``start_hourglass``) the hourglass turned before the first
throw (a button); :class:`PadEntry` (``pad_entry``) the score a player wrote on the paper
pad, taken as the entry once a phone confirmed it; :class:`TimeUp` (``time_up``) the
hourglass ran out (sent by the table's timer with the turn number, so a late timer from a
finished turn is refused as ``stale_timer``).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.codec import EventCodec
from companion.games.kniffel.pad import Box


@dataclass(frozen=True)
class Throw:
    """The seven dice after a throw, in notation (``"T2 O3 R2 E1 I1 C4 H3"``); ``kept``: the
    positions of dice the camera saw lying still through the throw (shown, not refereed: the
    rules let a player keep any dice)."""

    dice: str
    kept: tuple[int, ...] = ()


@dataclass(frozen=True)
class FixThrow:
    """The dice of the current throw as they really lie: a misread corrected by a person."""

    dice: str


@dataclass(frozen=True)
class Enter:
    """Write the roll into ``box`` with the words laid; ``table_ok``: the table accepted words
    the word list does not know (house rule decided at the table)."""

    box: Box
    words: tuple[str, ...] = ()
    table_ok: bool = False


@dataclass(frozen=True)
class Zero:
    """Strike ``box`` with a zero."""

    box: Box


@dataclass(frozen=True)
class KniffelExtra:
    """A further Wort-Kniffel: 100 extra points, and a zero in ``zero`` (player's choice)."""

    word: str
    zero: Box
    table_ok: bool = False


@dataclass(frozen=True)
class PadEntry:
    """The number ``seat`` wrote in ``box`` of the paper pad, taken as the entry after a phone
    confirmed what the camera read. No words: the table saw them laid and let them count, as
    it does with ``table_ok``; the rules still check the throw can make ``score`` there."""

    seat: int
    box: Box
    score: int


@dataclass(frozen=True)
class StartHourglass:
    """Turn the hourglass before the first throw (a player's button)."""


@dataclass(frozen=True)
class TimeUp:
    """The hourglass of turn ``turn`` ran out (sent by the runtime's clock)."""

    turn: int


EVENTS = (Throw, FixThrow, Enter, Zero, KniffelExtra, PadEntry, StartHourglass, TimeUp)
CODEC = EventCodec(EVENTS)

__all__ = ["CODEC", "EVENTS", "Enter", "FixThrow", "KniffelExtra", "PadEntry", "StartHourglass",
           "Throw", "TimeUp", "Zero"]
