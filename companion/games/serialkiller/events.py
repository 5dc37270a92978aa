"""What can happen in a game of Serial Killer, as frozen values and their JSON."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import EventCodec
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
