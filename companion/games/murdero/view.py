"""What the phones, the table and the buttons make of a Murdero game."""

from __future__ import annotations

from typing import Any

from companion.games.base import TableView
from companion.games.murdero import cards
from companion.games.murdero.hand import HandEnd
from companion.games.murdero.rules import MurderoState
from companion.games.murdero.scoring import HandScore, side_label


def score_view(score: HandScore) -> dict[str, Any]:
    return {
        "ended_by": score.ended_by.value,
        "winners": list(score.winners),
        "sides": [
            {
                "label": s.label,
                "players": list(s.players),
                "won": s.won,
                "points": s.points,
                "lines": [
                    {"points": line.points, "reason": line.reason, "code": line.code,
                     "details": dict(line.details)}
                    for line in s.lines
                ],
            }
            for s in score.sides
        ],
    }


def _player_table(hand: HandEnd) -> list[dict[str, Any]]:
    out = []
    for p in hand.players:
        out.append(
            {
                "name": p.name,
                "cases": [
                    {
                        "colour": c.colour.value,
                        "cards": list(c.cards),
                        "joker": c.joker,
                        "complete": c.complete,
                    }
                    for c in p.cases
                ],
                "permanents": [a.value for a in p.all_permanents],
                "held": list(p.held),
            }
        )
    return out


def view(state: MurderoState) -> dict[str, Any]:
    running = state.running()
    totals = state.totals
    won = state.seats_of(state.game_winners)
    return {
        "game": "murdero",
        # objects with a name, a seat on turn, "over" and a winner's seat: what the runtime's
        # panel and history read for every game
        "players": [
            {"name": name, "seat": i, "side": side_label(side), "total": totals[side_label(side)]}
            for i, name in enumerate(state.players)
            for side in state.sides
            if name in side
        ],
        "turn": None if state.over else state.turn,
        "phase": "over" if state.over else "playing",
        "winner": won[0] if len(won) == 1 else None,
        "winner_seats": won,
        "pairs": state.pairs,
        "sides": [{"label": side_label(s), "players": list(s)} for s in state.sides],
        "target": state.target,
        "hands": [
            {
                "number": i + 1,
                **score_view(h.score),
                "totals": running[i],
                "table": _player_table(h.entry),
            }
            for i, h in enumerate(state.hands)
        ],
        "totals": state.totals,
        "over": state.over,
        "winners": list(state.game_winners),
        "earlier_games": [
            {"totals": dict(g.totals), "winners": list(g.winners), "hands": g.hands}
            for g in state.earlier
        ],
        "deck": {
            "case_cards": [
                {"number": int(s), "stage": s.label, "copies_per_colour": s.copies} for s in cards.Stage
            ],
            "colours": [c.value for c in cards.Colour],
            "action_cards": cards.ACTION_CARDS_IN_DECK,
        },
        "reference": cards.reference(),
    }


def table_view(state: MurderoState) -> TableView:
    """The seat on turn (lights only: Murdero's turns are not refereed); the winning side."""
    return TableView(
        players=state.players,
        on_turn=None if state.over else state.turn,
        over=state.over,
        winners=tuple(state.seats_of(state.game_winners)),
        reason="target_reached" if state.over else None,
    )


def press(state: MurderoState, seat: int, gesture: str) -> dict[str, Any] | None:
    """A short press by the player on turn passes the turn; every other press means nothing
    (hands are entered on the phone)."""
    if gesture == "next" and not state.over and seat == state.turn:
        return {"type": "next_turn"}
    return None
