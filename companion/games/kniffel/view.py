"""What the phones and the table make of a state of Wort-Kniffel."""

from __future__ import annotations

from typing import Any

from companion.games.base import TableView, TimerRequest
from companion.games.kniffel.rules import ROLLS_PER_TURN, KniffelState


def table_view(state: KniffelState) -> TableView:
    """The player on turn; the hourglass runs from a turn's first throw until time is up."""
    over = state.finished
    timer = None
    if not over and state.rolls > 0 and not state.time_up:
        timer = TimerRequest(
            key=f"hourglass/{state.turn}", seconds=float(state.hourglass_s), seat=state.current,
            expiry={"type": "time_up", "turn": state.turn},
        )
    best = max(p.total for p in state.pads)
    return TableView(
        players=state.players,
        on_turn=None if over else state.current,
        over=over,
        winners=tuple(i for i, p in enumerate(state.pads) if p.total == best) if over else (),
        timer=timer,
        reason="most_points" if over else None,
    )


def view(state: KniffelState) -> dict[str, Any]:
    return {
        "game": "kniffel",
        "players": [{"name": n, **p.view()} for n, p in zip(state.players, state.pads)],
        "current": None if state.finished else state.players[state.current],
        "round": min(state.round, 11),
        "turn": state.turn,
        "roll": None if state.roll is None else str(state.roll),
        "rolls_left": ROLLS_PER_TURN - state.rolls,
        "hourglass_s": state.hourglass_s,
        "time_up": state.time_up,
        "finished": state.finished,
        "winners": list(state.winners()) if state.finished else [],
        "dice": list(state.dice.notation()),
    }
