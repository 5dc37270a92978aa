"""The advisor's figures for a board: can the word still appear, and how likely one stands at
the end (the quitter's bet). Computed off the table's thread; the Monte Carlo draws from a
generator seeded by the board, so the same board always shows the same figures."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

from companion.games.base import Advisor
from companion.games.moerder.rules import MoerderState, Phase


def _key(state: MoerderState) -> str | None:
    return None if state.phase is Phase.OVER else str(state.board)


def _advise(state: MoerderState) -> Mapping[str, Any]:
    import numpy as np  # only the advisor's thread needs it: ``companion --help`` stays quick

    from companion.games.moerder import solver

    board = str(state.board)
    rng = np.random.default_rng(zlib.crc32(board.encode()))
    result = solver.analyse(state.board, rng).to_json()
    return {k: result[k] for k in ("possible", "p_end", "p_end_se")}


ADVISOR: Advisor[MoerderState] = Advisor(key=_key, advise=_advise)
