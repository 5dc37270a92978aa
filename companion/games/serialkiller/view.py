"""What the phones, the table and the buttons make of a Serial Killer game."""

from __future__ import annotations

from typing import Any

from companion.games.base import TableView
from companion.games.serialkiller.cards import Role, sorted_cards
from companion.games.serialkiller.rules import (
    CLUES,
    Phase,
    SKState,
    grave_closed,
    grave_has_victim,
    open_graves,
)


def legal(state: SKState) -> tuple[str, ...]:
    """The event types the rules allow now (the phone shows these buttons)."""
    if state.phase is Phase.CHOOSING:
        return ("first_draw",)
    if state.phase is Phase.DRAWING:
        return ("draw",)
    victim = any(grave_has_victim(g) for g in state.graves)
    can_discredit = victim and state.clues[state.current] < CLUES
    others = any(state.active(i) for i in range(len(state.players)) if i != state.current)
    if state.phase is Phase.DECIDING and state.pending is not None:
        out = ["hold"]
        if state.pending.role is Role.CORPSE:
            out.append("bury")
        elif victim:
            out += (["inform"] if others else []) + (["discredit"] if can_discredit else [])
        return tuple(out)
    if state.phase is Phase.ENDING:
        mine = state.held[state.current]
        out = []
        if any(c.role is Role.CORPSE for c in mine) and open_graves(state):
            out.append("bury")
        if any(c.role is Role.INFORMANT for c in mine) and victim:
            out += (["inform"] if others else []) + (["discredit"] if can_discredit else [])
        return tuple(out + ["end_turn"])
    return ()


def table_view(state: SKState) -> TableView:
    """The player drawing or deciding; arrested players out; the last free player wins."""
    over = state.phase is Phase.OVER
    playing = state.phase not in (Phase.CHOOSING, Phase.OVER)
    return TableView(
        players=state.players,
        on_turn=state.current if playing else None,
        over=over,
        winners=(state.players.index(state.winner),) if state.winner is not None else (),
        out=tuple(i for i in range(len(state.players)) if not state.active(i)),
        reason="last_free" if over else None,
    )


def view(state: SKState) -> dict[str, Any]:
    playing = state.phase not in (Phase.CHOOSING, Phase.OVER)
    winner = state.players.index(state.winner) if state.winner is not None else None
    return {
        "game": "serialkiller",
        "phase": state.phase.value,
        # ``turn`` and ``winner`` are seats, as the runtime's panel and history read them
        "turn": state.current if playing else None,
        "turn_number": state.turn,
        "current": state.players[state.current] if playing else None,
        "players": [
            {
                "name": name,
                "clues": state.clues[i],
                "police": CLUES - state.clues[i],
                "held": [str(c) for c in state.held[i]],
                "arrested": not state.active(i),
                "current": playing and i == state.current,
            }
            for i, name in enumerate(state.players)
        ],
        "graves": [
            {
                "number": i + 1,
                "cards": [str(c) for c in g],
                "open": not grave_closed(g),
                "victims": [str(c) for c in g if c.role is Role.VICTIM],
                "corpse": next((str(c) for c in g if c.role is Role.CORPSE), None),
                "informants": [str(c) for c in g if c.role is Role.INFORMANT],
            }
            for i, g in enumerate(state.graves)
        ],
        "victim_stack": len(state.stack),
        "unseen": unseen(state),  # the phone dims the cards that cannot be drawn now
        "set_aside": [str(c) for c in state.aside],
        "draws_left": len(state.slots),
        "next_grave": state.slots[0] + 1 if state.phase is Phase.DRAWING and state.slots else None,
        "pending": str(state.pending) if state.pending is not None else None,
        "pending_grave": state.pending_slot + 1 if state.pending_slot is not None else None,
        "killed_this_turn": state.killed,
        # no victim yet the draws are done: the police find a clue when the turn ends
        "clue_due": state.phase is Phase.ENDING and not state.killed,
        "reshuffles": state.reshuffles,
        "arrests": list(state.arrests),
        "winner": winner,
        "winner_name": state.winner,
        "first_player_draws": [
            [{"player": state.players[p], "card": str(c)} for p, c in rnd]
            for rnd in (*state.first_rounds, *((state.first_draws,) if state.first_draws else ()))
        ],
        "drawing_for_first": [state.players[p] for p in state.drawers]
        if state.phase is Phase.CHOOSING
        else [],
        "legal": list(legal(state)),
    }


def unseen(state: SKState) -> list[str]:
    """The cards still in the victim stack, sorted (what the next draw can be)."""
    return [str(c) for c in sorted_cards(state.stack)]




def press(state: SKState, seat: int, gesture: str) -> dict[str, Any] | None:
    """The player on turn's button: a short press ends the turn once the rules allow it, a long
    press holds the Jack or Ace just drawn. Cards and the other choices come from the phone
    (later the camera); presses by anyone else mean nothing."""
    if state.phase in (Phase.CHOOSING, Phase.OVER) or seat != state.current:
        return None
    allowed = legal(state)
    if gesture == "next" and "end_turn" in allowed:
        return {"type": "end_turn"}
    if gesture == "claim" and "hold" in allowed:
        return {"type": "hold"}
    return None
