"""Finde den Mörder: find the chain M-Ö-R-D-E-R among 36 turned tiles.

``GAME`` is the registered :class:`~companion.games.base.GameRules`; the rules and every reading
of the rule text are documented in :mod:`companion.games.moerder.rules`, the analysis (all
chains, whether one is still possible, the chance one stands at the end) in
:mod:`companion.games.moerder.solver`.
"""

from companion.games.moerder.board import Board, BoardError, Tile
from companion.games.moerder.rules import (
    GAME,
    Claim,
    Correct,
    MoerderState,
    Next,
    Pass,
    Phase,
    Quit,
    TurnTile,
    WinReason,
)

__all__ = [
    "GAME",
    "Board",
    "BoardError",
    "Claim",
    "Correct",
    "MoerderState",
    "Next",
    "Pass",
    "Phase",
    "Quit",
    "Tile",
    "TurnTile",
    "WinReason",
]

import dataclasses as _dc

from companion.games.moerder.advice import ADVISOR as _ADVISOR
from companion.games.moerder.observe import observe as _observe
from companion.games.moerder import _tmp_act

GAME = _dc.replace(GAME, observe=_observe, advisor=_ADVISOR, act=_tmp_act.act)
