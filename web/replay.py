"""A logged game replayed turn by turn, for the history view.

The export holds the set-up and the events exactly as the game's codec wrote them, so folding
them again with the game's own rules gives every state the table went through; the page then
draws each with the same renderer as the live table. Finished games never change, so their
replays are cached per app.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.games import find_game
from companion.games.base import RuleError, Timeline

if TYPE_CHECKING:
    from web.state import WebState

_log = logging.getLogger(__name__)

Advice = Callable[[Any, int], dict[str, Any]]


def advisor_for(game: str) -> Advice | None:
    """The game's advisor (``advise(state, seed) -> {"possible", "p_end", ...}``), if it has one.

    A game offers one by a module ``companion.games.<game>.advice`` with ``advise``; games
    without it simply show no chart.
    """
    try:
        module = importlib.import_module(f"companion.games.{game}.advice")
    except ModuleNotFoundError:
        return None
    advise: Advice | None = getattr(module, "advise", None)
    return advise


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

    def step(index: int, item: dict[str, Any] | None, timeline: Timeline[Any]) -> None:
        entry: dict[str, Any] = {
            "index": index,
            "seq": item.get("seq") if item else None,
            "at": item.get("at") if item else data.get("started"),
            "source": item.get("source") if item else None,
            "event": item.get("event") if item else None,
            "view": rules.view(timeline.state),
        }
        if advise is not None:
            try:
                entry["advisor"] = advise(timeline.state, game_id * 1000 + index)
            except (RuleError, ValueError) as exc:
                _log.warning("advisor failed on game %s step %s: %s", game_id, index, exc)
                entry["advisor"] = None
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
