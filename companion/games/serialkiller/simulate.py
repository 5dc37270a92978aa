"""Legal games played at random: a dealer that shuffles a real deck and players that choose.

For tests (invariants over many games), benchmarks and demo logs. All randomness comes from
the :class:`random.Random` handed in, so a seed gives the same game every time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.serialkiller import GAME
from companion.games.serialkiller.cards import sorted_cards
from companion.games.serialkiller.events import (
    Bury,
    Discredit,
    Draw,
    EndTurn,
    FirstDraw,
    Hold,
    Inform,
)
from companion.games.serialkiller.rules import (
    Phase,
    SKState,
    grave_has_victim,
    open_graves,
)
from companion.games.serialkiller.view import legal


@dataclass(frozen=True)
class Played:
    setup: dict[str, Any]
    events: tuple[Any, ...]
    states: tuple[SKState, ...]  # states[0] from the set-up, then one per event


def _shuffled(state: SKState, rng: random.Random) -> list[str]:
    cards = [str(c) for c in sorted_cards(state.stack)]
    rng.shuffle(cards)
    return cards


def _choose(state: SKState, rng: random.Random) -> Any:
    kinds = list(legal(state))
    if state.phase is Phase.ENDING and len(kinds) > 1 and rng.random() < 0.4:
        kinds = ["end_turn"]
    kind = rng.choice(kinds)
    victims = [i + 1 for i, g in enumerate(state.graves) if grave_has_victim(g)]
    if kind == "hold":
        return Hold()
    if kind == "end_turn":
        return EndTurn()
    if kind == "bury":
        if state.phase is Phase.DECIDING:
            return Bury()
        return Bury(rng.choice(open_graves(state)) + 1)
    if kind == "discredit":
        return Discredit(rng.choice(victims))
    others = [state.players[i] for i in state.active_players if i != state.current]
    return Inform(rng.choice(others), rng.choice(victims))


def play_random(players: Sequence[str], rng: random.Random, max_events: int = 20_000) -> Played:
    """Play one legal game (drawing for the first player included) and return its log."""
    setup: dict[str, Any] = {"players": list(players)}
    state = GAME.new(setup)
    events: list[Any] = []
    states = [state]
    deck = _shuffled(state, rng)
    last_reshuffles = 0
    while state.phase is not Phase.OVER and len(events) < max_events:
        if state.phase is Phase.CHOOSING:
            drawn = {p for p, _ in state.first_draws}
            who = next(p for p in state.drawers if p not in drawn)
            event: Any = FirstDraw(state.players[who], deck.pop())
        elif state.phase is Phase.DRAWING:
            event = Draw(deck.pop())
        else:
            event = _choose(state, rng)
        before = state.phase
        state = GAME.apply(state, event).state
        events.append(event)
        states.append(state)
        if before is Phase.CHOOSING and state.phase is not Phase.CHOOSING:
            deck = _shuffled(state, rng)  # "To start the game: shuffle the deck."
        if state.reshuffles != last_reshuffles:
            last_reshuffles = state.reshuffles
            deck = _shuffled(state, rng)
    return Played(setup, tuple(events), tuple(states))


__all__ = ["Played", "play_random"]
