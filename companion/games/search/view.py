"""What the phones, the table and the buttons make of a game of Search."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Refused, TableView
from companion.games.search.house import Room
from companion.games.search.rules import (
    Phase,
    SearchState,
    legal,
    refusal,
    team_score,
)


def table_view(state: SearchState) -> TableView:
    """The player on turn; at the end the whole team wins, or nobody (cooperative)."""
    over = state.phase is Phase.OVER
    won = over and team_score(state.tracks) > 0
    return TableView(
        players=tuple(p.name for p in state.players),
        on_turn=None if over else state.turn,
        over=over,
        winners=tuple(range(len(state.players))) if won else (),
        reason=("team_won" if won else "team_lost") if over else None,
    )


def view(state: SearchState) -> dict[str, Any]:
    """Everything a page of the house needs: rooms, who is where, tracks, moves, score."""
    house = state.house
    occupant = {p.room: i for i, p in enumerate(state.players) if p.room is not None}
    visited_by: dict[Room, list[int]] = {}
    for i, p in enumerate(state.players):
        for r in p.path:
            visited_by.setdefault(r, []).append(i)
    moves, way = legal(state)
    tracks = state.tracks
    refusals: dict[str, dict[str, str]] = {}
    if state.phase is Phase.PLAY:
        for r in house.rooms:
            why = refusal(state, state.turn, r)
            if why is not None:
                refusals[house.name(r)] = {"code": why.code, "reason": why.reason}
    started = all(p.path for p in state.players)
    score = team_score(tracks) if started else None
    winners = (
        None
        if state.phase is not Phase.OVER
        else (list(range(len(state.players))) if team_score(tracks) > 0 else [])
    )
    return {
        "game": "search",
        "phase": state.phase.value,
        "turn": state.turn if state.phase is not Phase.OVER else None,
        "hint_asked": state.hint_asked,
        # Cooperative: at the end the whole table wins or nobody does (None while playing).
        # ``winner_seats`` is the key every game's view shares with the runtime's panel.
        "winners": winners,
        "winner_seats": winners,
        "options": {
            "dot_rule": state.options.dot_rule.value,
            "start_scores": state.options.start_scores,
        },
        "house": {
            "rows": house.rows,
            "cols": house.cols,
            "row_marks": list(house.row_marks),
            "col_marks": list(house.col_marks),
            "total_dots": house.total_dots,
            "text": str(house),
            "rooms": [
                {
                    "name": house.name(r),
                    "row": r // house.cols,
                    "col": r % house.cols,
                    "dots": house.dots[r],
                    "corridor": house.name(house.partner[r]),
                    "occupant": occupant.get(r),
                    "visited_by": visited_by.get(r, []),
                }
                for r in house.rooms
            ],
        },
        "players": [
            {
                "index": i,
                "name": p.name,
                "room": house.name(p.room) if p.room is not None else None,
                "path": [house.name(r) for r in p.path],
                "track": p.track,
            }
            for i, p in enumerate(state.players)
        ],
        "legal": [{"room": house.name(r), "by": way.value} for r in moves],
        "refusals": refusals,
        "score": None
        if score is None
        else {
            "high": max(tracks),
            "low": min(tracks),
            "team": score,
            "win": score > 0,
            "final": state.phase is Phase.OVER,
        },
    }


def press(state: SearchState, seat: int, gesture: str) -> Mapping[str, Any] | None:
    """The event JSON a press stands for, ``None`` when it means nothing; raises
    :class:`Refused` when it means something the rules do not allow now.

    What a seat's button means in Search (``GAME.press``).

    Search has no pass and no claim: turns move on by themselves when a player moves, and a
    player who cannot move is skipped. So the button does what needs no choice:

    - **short press** (``next``) by the player on turn: make the move the rules leave them
      (the corridor rule forces one room; sometimes only one door is open). With a choice of
      rooms the press is refused (``choose_room``: tap the room on a phone), and a press by
      another seat is refused (``not_your_turn``), so the seat's LED and the buzzer say no.
      While start rooms are drawn it is refused too (``enter_cards``: the cards are tapped on
      a phone).
    - **long press** (``claim``) by any seat during play: ask for a hint for the player on turn
      (``ask_hint``); the phones show the solver's advice, the LED of the seat on turn blinks.
    - **double press** (``quit``): nothing (nobody leaves a cooperative game).

    After the game the runtime's own extra applies (a long press starts the same table again).
    """
    if state.phase is Phase.OVER or not 0 <= seat < len(state.players):
        return None
    if gesture == "claim":
        if state.phase is Phase.PLAY:
            return {"type": "ask_hint", "player": seat}
        return None
    if gesture != "next":
        return None
    turn_name = state.players[state.turn].name
    if state.phase is Phase.START:
        raise Refused(
            "enter_cards",
            f"{turn_name} draws two cards for the start room: tap them on a phone",
            player=seat,
        )
    if seat != state.turn:
        raise Refused("not_your_turn", f"it is {turn_name}'s turn", player=seat, turn=state.turn)
    rooms, way = legal(state)
    if len(rooms) == 1:
        return {"type": "move", "player": seat, "room": state.house.name(rooms[0])}
    raise Refused(
        "choose_room",
        f"{len(rooms)} rooms are open to {turn_name}: tap one on a phone",
        player=seat,
        rooms=[state.house.name(r) for r in rooms],
    )
