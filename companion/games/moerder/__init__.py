"""Finde den Mörder: find the chain M-Ö-R-D-E-R among 36 turned tiles.

The package has the shape every game has: :mod:`.rules` (state, ``new``, ``apply``, and every
reading of the rules a referee chose), :mod:`.events` (what can happen, and its JSON),
:mod:`.view` (what the phones, the table's lights and the buttons make of a state),
:mod:`.errors`; and its own: :mod:`.board` and :mod:`.chain` (the tiles and the word),
:mod:`.observe` (what the camera's reading of the tiles means), :mod:`.solver` and
:mod:`.advice` (whether a chain can still appear, and how likely one stands at the end).
"""

from companion.games.base import GameRules
from companion.games.moerder.advice import ADVISOR
from companion.games.moerder.board import Board, BoardError, Tile
from companion.games.moerder.errors import MoerderError
from companion.games.moerder.events import (
    CODEC,
    Claim,
    Correct,
    Next,
    Pass,
    Quit,
    TurnTile,
)
from companion.games.moerder.observe import observe
from companion.games.moerder.rules import MoerderState, Phase, WinReason, apply, new
from companion.games.moerder.view import act, press, table_view, view

GAME: GameRules[MoerderState] = GameRules(
    name="moerder",
    title="Finde den Mörder",
    new=new,
    apply=apply,
    decode=CODEC.decode,
    encode=CODEC.encode,
    view=view,
    table=table_view,
    press=press,
    act=act,
    observe=observe,
    reads="grid",
    advisor=ADVISOR,
)

__all__ = [
    "GAME",
    "Board",
    "BoardError",
    "Claim",
    "Correct",
    "MoerderError",
    "MoerderState",
    "Next",
    "Pass",
    "Phase",
    "Quit",
    "Tile",
    "TurnTile",
    "WinReason",
]
