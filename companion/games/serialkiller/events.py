"""What can happen in a game of Serial Killer, as frozen values and their JSON.

Events (JSON, ``type`` plus fields; graves are numbered 1-6):

- ``first_draw {"player": "Ann", "card": "KH"}``: a card drawn to decide who goes first.
- ``draw {"card": "QS"}``: the current player's next card from the victim stack.
- ``hold {}``: keep the Jack or Ace just drawn (its grave is skipped this turn).
- ``bury {"grave": 3}``: put a corpse (Jack) in a grave: the one just drawn into the grave it
  was drawn for (``grave`` may be left out), or a held one, at the end of the turn, into any
  open grave.
- ``inform {"target": "Bob", "grave": 2}`` / ``discredit {"grave": 2}``: play an informant
  (the Ace just drawn, or a held one at the end of the turn) onto a victim in ``grave``
  (left out: the first grave holding a victim).
- ``end_turn {}``: the current player's turn is over; play passes clockwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.codec import EventCodec
from companion.games.serialkiller.cards import CardError, canonical


def _card_field(event: Any, name: str = "card") -> None:
    try:
        object.__setattr__(event, name, canonical(getattr(event, name)))
    except CardError as exc:
        raise ValueError(str(exc)) from None


@dataclass(frozen=True)
class FirstDraw:
    player: str
    card: str

    def __post_init__(self) -> None:
        _card_field(self)


@dataclass(frozen=True)
class Draw:
    card: str

    def __post_init__(self) -> None:
        _card_field(self)


@dataclass(frozen=True)
class Hold:
    pass


@dataclass(frozen=True)
class Bury:
    grave: int | None = None


@dataclass(frozen=True)
class Inform:
    target: str
    grave: int | None = None


@dataclass(frozen=True)
class Discredit:
    grave: int | None = None


@dataclass(frozen=True)
class EndTurn:
    pass


EVENTS = (FirstDraw, Draw, Hold, Bury, Inform, Discredit, EndTurn)
CODEC = EventCodec(list(EVENTS))

__all__ = ["CODEC", "EVENTS", "Bury", "Discredit", "Draw", "EndTurn", "FirstDraw", "Hold", "Inform"]
