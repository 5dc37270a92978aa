"""A logged game replayed turn by turn, for the history view.

The export holds the set-up and the events exactly as the game's codec wrote them, so folding
them again with the game's own rules gives every state the table went through; the page then
draws each with the same renderer as the live table. Finished games never change, so their
replays are cached per app.
"""

from __future__ import annotations

import importlib
import json
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.games import find_game
from companion.games.base import RuleError, Timeline

if TYPE_CHECKING:
    from web.state import WebState

_log = logging.getLogger(__name__)

# (game's view, seed) -> {"possible": bool, "p_end": float, "p_end_se": float}
Advice = Callable[[dict[str, Any], int], dict[str, Any]]

# The history chart needs far less precision than the live meter: ±0.01 costs a sixteenth.
CHART_SE = 0.01


def _moerder_advice(view: dict[str, Any], seed: int) -> dict[str, Any]:
    import numpy as np

    from companion.games.moerder import solver
    from companion.games.moerder.board import Board

    board = Board.parse(str(view["board"]))
    estimate = solver.p_end(board, np.random.default_rng(seed), target_se=CHART_SE)
    return {"possible": estimate.p > 0 or solver.possible(board), "p_end": estimate.p,
            "p_end_se": estimate.se}


_ADVISORS: dict[str, Callable[[], Advice]] = {"moerder": lambda: _moerder_advice}


def advisor_for(game: str) -> Advice | None:
    """The game's advisor for the history chart, if it has one (games without show none)."""
    make = _ADVISORS.get(game)
    if make is None:
        return None
    try:
        importlib.import_module(f"companion.games.{game}.solver")
    except ModuleNotFoundError:
        return None
    return make()


def replay_game(ws: WebState, game_id: int) -> dict[str, Any]:
    """Every step of game ``game_id``; raises ``KeyError`` for an unknown id."""
    cached = ws.replays.get(game_id)
    if cached is not None:
        return cached
    data = ws.runtime.export(game_id)
    finished = bool(data.get("ended"))
    # The advisor's figures would spoil a game still in play unless the table switched it on.
    snapshot = ws.runtime.snapshot()
    live_advisor = bool((snapshot.get("advisor") or {}).get("enabled"))
    show_advice = finished or live_advisor
    result = _replay(data, game_id, show_advice)
    if finished and "error" not in result:
        with ws.replay_lock:
            ws.replays[game_id] = result
    return result


def _replay(data: dict[str, Any], game_id: int, show_advice: bool) -> dict[str, Any]:
    rules = find_game(str(data.get("game")))
    advise = advisor_for(rules.name) if show_advice else None
    meta = {k: v for k, v in data.items() if k != "events"}
    out: dict[str, Any] = {"game": meta, "steps": [], "advice": advise is not None}

    advice_by_board: dict[str, dict[str, Any] | None] = {}

    def step(index: int, item: dict[str, Any] | None, timeline: Timeline[Any]) -> None:
        view = rules.view(timeline.state)
        entry: dict[str, Any] = {
            "index": index,
            "seq": item.get("seq") if item else None,
            "at": item.get("at") if item else data.get("started"),
            "source": item.get("source") if item else None,
            "event": item.get("event") if item else None,
            "view": view,
        }
        if advise is not None:
            # Next, claims and passes leave the board as it was: reuse its figures.
            key = json.dumps(view.get("board", view), sort_keys=True)
            if key not in advice_by_board:
                try:
                    advice_by_board[key] = advise(view, game_id * 1000 + index)
                except (RuleError, ValueError) as exc:
                    _log.warning("advisor failed on game %s step %s: %s", game_id, index, exc)
                    advice_by_board[key] = None
            entry["advisor"] = advice_by_board[key]
        out["steps"].append(entry)

    try:
        timeline = Timeline.start(rules, data.get("setup") or {})
    except RuleError as exc:
        out["error"] = f"the game's set-up cannot be read: {exc}"
        return out
    step(0, None, timeline)
    for index, item in enumerate(data.get("events") or [], start=1):
        try:
            timeline, _ = timeline.push(rules.decode(item["event"]))
        except (RuleError, KeyError, TypeError) as exc:
            out["error"] = f"event {index} cannot be replayed: {exc}"
            _log.warning("replay of game %s stopped at event %s: %s", game_id, index, exc)
            break
        step(index, item, timeline)
    return out
