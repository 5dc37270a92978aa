"""What a seat's button means in Search (``GAME.press``).

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

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.games.base import Refused
from companion.games.search.rules import Phase, SearchState, legal

_log = logging.getLogger(__name__)


def press(state: SearchState, seat: int, gesture: str) -> Mapping[str, Any] | None:
    """The event JSON a press stands for, ``None`` when it means nothing; raises
    :class:`Refused` when it means something the rules do not allow now."""
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
