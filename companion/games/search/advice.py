"""The solver for a page: a hint for the player on turn and the end-of-game review, from the
game's own view JSON, with a node budget so a request never runs unbounded.

The web holds the runtime's snapshot, not the state object; the view carries everything the
state is made of (the house text, the options, each player's path and track, phase and turn),
so :func:`state_from_view` rebuilds it exactly and the page's figures are the referee's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import EventError
from companion.games.search import solver
from companion.games.search.house import House, HouseError
from companion.games.search.rules import (
    DotRule,
    Options,
    Phase,
    Player,
    SearchState,
    legal,
    new_state,
    team_score,
)

HINT_NODES = 20_000  # a few seconds on a Pi: good first moves turn up early (the probes)
REVIEW_NODES = 100_000


def state_from_view(view: Mapping[str, Any]) -> SearchState:
    """The state ``rules.view`` drew; raises :class:`EventError` for a view of another shape."""
    try:
        house = House.parse(view["house"]["text"])
        options = Options(DotRule(view["options"]["dot_rule"]), bool(view["options"]["start_scores"]))
        players = tuple(
            Player(str(p["name"]), tuple(house.room(r) for r in p["path"]), int(p["track"]))
            for p in view["players"]
        )
        phase = Phase(view["phase"])
        turn = view["turn"] if phase is not Phase.OVER else 0
        asked = view.get("hint_asked")
        return SearchState(house, options, players, phase, int(turn), asked)
    except (KeyError, TypeError, ValueError, HouseError) as exc:
        raise EventError(f"not a Search view: {exc}") from None


def position_key(view: Mapping[str, Any]) -> str:
    """What a hint depends on: the same key, the same advice (pages share one computation)."""
    players = ";".join(",".join(p["path"]) for p in view["players"])
    opts = view["options"]
    return f"{view['house']['text']}|{opts['dot_rule']}|{opts['start_scores']}|{players}|{view['turn']}"


def hint_json(state: SearchState, node_limit: int = HINT_NODES) -> dict[str, Any]:
    """Where the player on turn should go, with the score that line reaches and its bound."""
    rooms, way = legal(state)
    if not rooms:
        raise EventError("nobody is to move: the game is over or has not started")
    h = solver.hint(state, node_limit=node_limit)
    sol = h.solution
    return {
        "player": h.player,
        "room": state.house.name(h.room),
        "by": h.way.value,
        "forced": len(rooms) == 1,
        "best": sol.best,
        "bound": sol.bound,
        "exact": sol.exact,
        "nodes": sol.nodes,
        "line": solver.line_names(state, sol.line),
        "now": team_score(state.tracks),
    }


def start_of(state: SearchState) -> SearchState:
    """The same game back at its start rooms (every player's first room)."""
    if any(not p.path for p in state.players):
        raise EventError("every player needs a start room first")
    return new_state(
        state.house, [p.name for p in state.players], state.options, [p.path[0] for p in state.players]
    )


def review_json(state: SearchState, node_limit: int = REVIEW_NODES) -> dict[str, Any]:
    """The score the table reached against the best game found from the same start rooms.

    The table's own game is a game too: when the budget ran out before the search found
    anything better, the best found is the table's (``table_best``).
    """
    start = start_of(state)
    reached = team_score(state.tracks)
    sol = solver.solve(start, node_limit=node_limit)
    best = max(sol.best, reached)
    return {
        "reached": reached,
        "best": best,
        "bound": max(sol.bound, best),
        "exact": sol.exact and sol.best >= reached,
        "table_best": reached >= sol.best,
        "nodes": sol.nodes,
        "line": solver.line_names(start, sol.line) if sol.best >= reached else [],
        "moves": sum(len(p.path) - 1 for p in state.players),
        "final": state.phase is Phase.OVER,
    }


__all__ = [
    "HINT_NODES",
    "REVIEW_NODES",
    "hint_json",
    "position_key",
    "review_json",
    "start_of",
    "state_from_view",
]
