"""What can happen in a game of Search, as frozen values and their JSON."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.codec import EventCodec


@dataclass(frozen=True)
class Start:
    """The two cards a player drew for the start room: the row's triangle, then the column's."""

    player: int
    row_card: int
    col_card: int


@dataclass(frozen=True)
class Move:
    """A player circles the dots of ``room`` (named like ``C7``)."""

    player: int
    room: str


@dataclass(frozen=True)
class AskHint:
    """A player (any seat: the game is cooperative) asks the companion where the player on
    turn should go. It changes no room or track; it is logged so the review can count hints."""

    player: int


CODEC = EventCodec([Start, Move, AskHint])

__all__ = ["CODEC", "AskHint", "Move", "Start"]
