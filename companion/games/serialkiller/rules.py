"""Serial Killer's engine: every card drawn and every choice made, checked against deck and rules.

Set-up JSON: ``{"players": ["Ann", "Bob", "Cid"], "first": null}``, players in clockwise
order. Without ``first`` the game opens by drawing for the first player (``first_draw``
events); with it, the first player is taken as decided at the table.
Events: :mod:`.events`.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    AnyEffect,
    Cue,
    Effect,
    EventError,
    Outcome,
    Refused,
    Signal,
    TurnMoved,
    Winners,
    parse_players,
)
from companion.games.serialkiller.cards import (
    FULL_DECK,
    Card,
    Role,
)
from companion.games.serialkiller.events import (
    Bury,
    Discredit,
    Draw,
    EndTurn,
    FirstDraw,
    Hold,
    Inform,
)

_log = logging.getLogger(__name__)

CLUES = 6
MIN_PLAYERS = 2
# The rule text names no most; six is what one deck's kings and queens and six graves give a
# table before a player waits a whole round of closed graves (a reading: see __init__).
MAX_PLAYERS = 6
GRAVES = 6



# --- state -----------------------------------------------------------------------------------


class Phase(enum.Enum):
    CHOOSING = "choosing"  # drawing for the first player
    DRAWING = "drawing"  # the current player draws one card per grave open at the turn's start
    DECIDING = "deciding"  # a Jack or Ace just drawn: hold it, or bury / use it now
    ENDING = "ending"  # draws done: bury held corpses, play held informants, end the turn
    OVER = "over"


@dataclass(frozen=True)
class SKState:
    players: tuple[str, ...]
    clues: tuple[int, ...]
    held: tuple[tuple[Card, ...], ...]
    graves: tuple[tuple[Card, ...], ...]
    stack: frozenset[Card]  # the victim stack: cards not yet seen since the last shuffle
    phase: Phase
    current: int = 0
    slots: tuple[int, ...] = ()  # graves (0-based) still to draw for this turn, in order
    pending: Card | None = None
    pending_slot: int | None = None
    killed: bool = False
    turn: int = 0
    reshuffles: int = 0
    aside: tuple[Card, ...] = ()  # held cards of arrested players, back in at the next reshuffle
    arrests: tuple[str, ...] = ()
    winner: str | None = None
    # drawing for the first player
    drawers: tuple[int, ...] = ()
    first_draws: tuple[tuple[int, Card], ...] = ()
    first_rounds: tuple[tuple[tuple[int, Card], ...], ...] = ()

    def active(self, i: int) -> bool:
        return self.clues[i] > 0

    @property
    def active_players(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.players)) if self.active(i))

    def cards_out(self) -> tuple[Card, ...]:
        """Every card not in the victim stack: graves, hands, aside, first-player draws."""
        out: list[Card] = [c for g in self.graves for c in g]
        out += [c for h in self.held for c in h]
        out += list(self.aside)
        out += [c for _, c in self.first_draws]
        out += [c for r in self.first_rounds for _, c in r] if self.phase is Phase.CHOOSING else []
        if self.pending is not None:
            out.append(self.pending)
        return tuple(out)


def grave_closed(grave: tuple[Card, ...]) -> bool:
    """Full once it holds a victim or a corpse; number cards (and nothing) leave it open."""
    return any(c.role in (Role.VICTIM, Role.CORPSE) for c in grave)


def grave_has_victim(grave: tuple[Card, ...]) -> bool:
    return any(c.role is Role.VICTIM for c in grave)


def open_graves(state: SKState) -> tuple[int, ...]:
    return tuple(i for i, g in enumerate(state.graves) if not grave_closed(g))


# --- set-up ----------------------------------------------------------------------------------


def new(setup: Mapping[str, Any]) -> SKState:
    names = parse_players(setup, MIN_PLAYERS, MAX_PLAYERS, keys=("first",))
    base = SKState(
        players=names,
        clues=(CLUES,) * len(names),
        held=((),) * len(names),
        graves=((),) * GRAVES,
        stack=FULL_DECK,
        phase=Phase.CHOOSING,
        drawers=tuple(range(len(names))),
    )
    first = setup.get("first")
    if first is None:
        return base
    if isinstance(first, int) and not isinstance(first, bool) and 0 <= first < len(names):
        first = names[first]  # a seat, as the table's new-game form and buttons give it
    if first not in names:
        raise EventError(f"first player {first!r} is not one of {', '.join(names)}")
    return _start_play(base, names.index(first))


def _start_play(state: SKState, first: int) -> SKState:
    """Shuffle the whole deck into the victim stack; the first player draws for all six graves."""
    return replace(
        state,
        stack=FULL_DECK,
        phase=Phase.DRAWING,
        current=first,
        slots=tuple(range(GRAVES)),
        turn=1,
        drawers=(),
        first_draws=(),
    )


# --- apply -----------------------------------------------------------------------------------


def apply(state: SKState, event: Any) -> Outcome[SKState]:
    if state.phase is Phase.OVER:
        raise Refused("game_over", f"the game is over: {state.winner} is still on the loose",
                      winner=state.winner)
    effects: list[AnyEffect] = []
    match event:
        case FirstDraw():
            after = _first_draw(state, event, effects)
        case Draw():
            after = _draw(state, event, effects)
        case Hold():
            after = _hold(state, event, effects)
        case Bury():
            after = _bury(state, event, effects)
        case Inform():
            after = _inform(state, event, effects)
        case Discredit():
            after = _discredit(state, event, effects)
        case EndTurn():
            after = _end_turn(state, event, effects)
        case _:
            name = type(event).__name__
            raise Refused("unknown_event", f"Serial Killer has no event {name}", event=name)
    return Outcome(after, tuple(effects))


def _refuse_phase(state: SKState, what: str) -> Refused:
    now = {
        Phase.CHOOSING: "the players are drawing for who goes first",
        Phase.DRAWING: f"{state.players[state.current]} is drawing ({len(state.slots)} card(s) to go)",
        Phase.DECIDING: f"{state.players[state.current]} must first hold, bury or use the {state.pending}",
        Phase.ENDING: f"{state.players[state.current]}'s draws are done; bury, inform, discredit or end the turn",
        Phase.OVER: "the game is over",
    }[state.phase]
    # ``rule`` is the phase, so a phone words the sentence the phase needs
    card = str(state.pending) if state.pending is not None else None
    return Refused("wrong_phase", f"cannot {what} now: {now}", phase=state.phase.value,
                   rule=state.phase.value, player=state.players[state.current], card=card,
                   left=len(state.slots))


def _take(state: SKState, token: str) -> Card:
    card = Card.parse(token)
    if card not in state.stack:
        where, place = _where(state, card)
        raise Refused("card_not_in_stack", f"{card} cannot be drawn: it is already out ({where}) "
                      "and the deck has not been reshuffled since", card=str(card), **place)
    return card


def _where(state: SKState, card: Card) -> tuple[str, dict[str, Any]]:
    """Where a card that is out lies, in English and as details (``rule``: the place) for phones."""
    for i, grave in enumerate(state.graves):
        if card in grave:
            return f"in grave {i + 1}", {"rule": "grave", "grave": i + 1}
    for i, hand in enumerate(state.held):
        if card in hand:
            return f"held by {state.players[i]}", {"rule": "held", "player": state.players[i]}
    if card in state.aside:
        return "set aside with an arrested player's cards", {"rule": "aside"}
    if card == state.pending:
        return "just drawn", {"rule": "pending"}
    return "drawn for the first player", {"rule": "first"}


def _first_draw(state: SKState, event: FirstDraw, effects: list[AnyEffect]) -> SKState:
    if state.phase is not Phase.CHOOSING:
        raise _refuse_phase(state, "draw for the first player")
    if event.player not in state.players:
        raise Refused("unknown_player", f"{event.player!r} is not playing", player=event.player)
    who = state.players.index(event.player)
    if who not in state.drawers:
        raise Refused("not_drawing", f"{event.player} is not in this draw (only tied players draw "
                      "again)", player=event.player)
    if any(p == who for p, _ in state.first_draws):
        raise Refused("already_drew", f"{event.player} has drawn in this round", player=event.player)
    card = _take(state, event.card)
    draws = state.first_draws + ((who, card),)
    state = replace(state, stack=state.stack - {card}, first_draws=draws)
    if len(draws) < len(state.drawers):
        return state
    best = max(c.rank.high for _, c in draws)
    tied = tuple(sorted(p for p, c in draws if c.rank.high == best))
    rounds = state.first_rounds + (draws,)
    if len(tied) > 1:
        effects.append(Effect("first_tie", {"players": [state.players[p] for p in tied]}))
        return replace(state, drawers=tied, first_draws=(), first_rounds=rounds)
    effects.append(Effect("first_player", {"player": state.players[tied[0]]}))
    effects.append(TurnMoved(tied[0], {"name": state.players[tied[0]], "turn": 1, "draws": GRAVES}))
    return _start_play(replace(state, first_rounds=rounds), tied[0])


def _draw(state: SKState, event: Draw, effects: list[AnyEffect]) -> SKState:
    if state.phase is not Phase.DRAWING:
        raise _refuse_phase(state, "draw")
    if not state.slots:  # cannot happen by the rules; never crash the table over it
        raise Refused("no_draws_left", "this turn has no draws left")
    card = _take(state, event.card)
    slot, rest = state.slots[0], state.slots[1:]
    state = replace(state, stack=state.stack - {card}, slots=rest)
    who = state.players[state.current]
    if card.role in (Role.CORPSE, Role.INFORMANT):
        return replace(state, phase=Phase.DECIDING, pending=card, pending_slot=slot)
    state = _place(state, slot, card)
    if card.role is Role.VICTIM:
        effects.append(Effect("kill", {"player": who, "card": str(card), "grave": slot + 1}))
        effects.append(Signal(Cue.VALID, state.current))
    else:
        effects.append(Effect("missed", {"player": who, "card": str(card), "grave": slot + 1}))
    state = replace(state, killed=state.killed or card.role is Role.VICTIM)
    return _after_placing(state, effects)


def _place(state: SKState, grave: int, card: Card) -> SKState:
    graves = list(state.graves)
    graves[grave] = graves[grave] + (card,)
    return replace(state, graves=tuple(graves))


def _after_placing(state: SKState, effects: list[AnyEffect]) -> SKState:
    """Reshuffle if all six graves are full; end the drawing once every card is drawn."""
    state = _maybe_reshuffle(state, effects)
    if state.phase in (Phase.DRAWING, Phase.DECIDING):
        if state.slots and state.stack:
            return replace(state, phase=Phase.DRAWING, pending=None, pending_slot=None)
        return _draws_done(replace(state, slots=(), pending=None, pending_slot=None), effects)
    return state


def _maybe_reshuffle(state: SKState, effects: list[AnyEffect]) -> SKState:
    if open_graves(state):
        return state
    back = frozenset(c for g in state.graves for c in g) | state.stack | frozenset(state.aside)
    effects.append(Effect("reshuffle", {"cards": len(back)}))
    _log.debug("all graves full: reshuffling %d cards", len(back))
    return replace(state, graves=((),) * GRAVES, stack=back, aside=(), reshuffles=state.reshuffles + 1)


def _draws_done(state: SKState, effects: list[AnyEffect]) -> SKState:
    """The turn's cards are drawn; a failed kill's clue waits for the end of the turn.

    "A held informant can be played at the end of a turn": the clue is found only once those
    plays are over (:func:`_end_turn`), so a held Ace can save its owner as one just drawn can.
    """
    return replace(state, phase=Phase.ENDING)


def _lose_clue(state: SKState, who: int, why: str, effects: list[AnyEffect]) -> SKState:
    clues = list(state.clues)
    clues[who] -= 1
    state = replace(state, clues=tuple(clues))
    if clues[who] == 0:  # the panel's moment: the arrested player's light blinks, the alarm
        effects.append(Signal(Cue.ALARM, who, blink=True))
    # ``cause`` (and ``by``) let a phone word ``why`` in its own language
    by = {"by": state.players[state.current]} if who != state.current else {}
    cause = "informed_on" if by else "failed_to_kill"
    effects.append(Effect("clue_found", {"player": state.players[who], "clues": clues[who],
                                         "why": why, "cause": cause, **by}))
    if clues[who] > 0:
        return state
    held = list(state.held)
    aside = state.aside + held[who]
    held[who] = ()
    state = replace(state, held=tuple(held), aside=aside, arrests=state.arrests + (state.players[who],))
    effects.append(Effect("arrested", {"player": state.players[who]}))
    left = state.active_players
    if len(left) == 1:
        winner = state.players[left[0]]
        effects.append(Winners((left[0],), {"name": winner}))
        return replace(state, phase=Phase.OVER, winner=winner, slots=(), pending=None, pending_slot=None)
    return state


def _next_turn(state: SKState, effects: list[AnyEffect]) -> SKState:
    n = len(state.players)
    nxt = next(i % n for i in range(state.current + 1, state.current + n + 1) if state.active(i % n))
    slots = open_graves(state)
    state = replace(
        state,
        phase=Phase.DRAWING,
        current=nxt,
        slots=slots,
        killed=False,
        pending=None,
        pending_slot=None,
        turn=state.turn + 1,
    )
    effects.append(
        TurnMoved(nxt, {"name": state.players[nxt], "turn": state.turn, "draws": len(slots)})
    )
    return state


def _hold(state: SKState, event: Hold, effects: list[AnyEffect]) -> SKState:
    if state.phase is not Phase.DECIDING or state.pending is None:
        raise _refuse_phase(state, "hold a card")
    card = state.pending
    held = list(state.held)
    held[state.current] = held[state.current] + (card,)
    kind = "corpse_held" if card.role is Role.CORPSE else "informant_held"
    effects.append(Effect(kind, {"player": state.players[state.current], "card": str(card)}))
    return _after_placing(replace(state, held=tuple(held)), effects)


def _grave_index(grave: int | None) -> int | None:
    if grave is None:
        return None
    if not 1 <= grave <= GRAVES:
        raise Refused("no_such_grave", f"graves are numbered 1 to {GRAVES}, not {grave}",
                      grave=grave, graves=GRAVES)
    return grave - 1


def _held_card(state: SKState, role: Role) -> tuple[Card, bool]:
    """The card a bury/inform/discredit plays: the one just drawn, or one the player holds."""
    who = state.players[state.current]
    if state.phase is Phase.DECIDING and state.pending is not None:
        if state.pending.role is not role:
            raise Refused(
                "wrong_card",
                f"the card just drawn is the {state.pending}, not a {role.value}",
                card=str(state.pending),
                role=role.value,
            )
        return state.pending, True
    if state.phase is not Phase.ENDING:
        verb = "bury a corpse" if role is Role.CORPSE else "play an informant"
        raise _refuse_phase(state, verb)
    for card in state.held[state.current]:
        if card.role is role:
            return card, False
    raise Refused("none_held", f"{who} holds no {role.value}", player=who, role=role.value)


def _release(state: SKState, card: Card, fresh: bool) -> SKState:
    if fresh:
        return state
    held = list(state.held)
    mine = list(held[state.current])
    mine.remove(card)
    held[state.current] = tuple(mine)
    return replace(state, held=tuple(held))


def _bury(state: SKState, event: Bury, effects: list[AnyEffect]) -> SKState:
    card, fresh = _held_card(state, Role.CORPSE)
    grave = _grave_index(event.grave)
    if fresh:
        assert state.pending_slot is not None
        if grave is not None and grave != state.pending_slot:
            raise Refused(
                "wrong_grave",
                f"a corpse buried as it is drawn goes into the grave it was drawn for ({state.pending_slot + 1}); "
                "hold it to bury it elsewhere at the end of the turn",
                grave=state.pending_slot + 1,
            )
        grave = state.pending_slot
    elif grave is None:
        raise Refused("grave_needed", "say which open grave the corpse goes into")
    if grave_closed(state.graves[grave]):
        raise Refused("grave_closed", f"grave {grave + 1} is already full", grave=grave + 1)
    state = _place(_release(state, card, fresh), grave, card)
    effects.append(
        Effect(
            "corpse_buried",
            {"player": state.players[state.current], "card": str(card), "grave": grave + 1},
        )
    )
    if fresh:
        return _after_placing(state, effects)
    return _maybe_reshuffle(state, effects)


def _victim_grave(state: SKState, grave: int | None) -> int:
    if grave is None:
        for i, g in enumerate(state.graves):
            if grave_has_victim(g):
                return i
        raise Refused("no_victim", "an informant needs a victim (King or Queen) in a grave, and "
                      "there is none", rule="none")
    if not grave_has_victim(state.graves[grave]):
        raise Refused("no_victim", f"grave {grave + 1} holds no victim (King or Queen) for the "
                      "informant", rule="grave", grave=grave + 1)
    return grave


def _inform(state: SKState, event: Inform, effects: list[AnyEffect]) -> SKState:
    card, fresh = _held_card(state, Role.INFORMANT)
    if event.target not in state.players:
        raise Refused("unknown_player", f"{event.target!r} is not playing", player=event.target)
    target = state.players.index(event.target)
    if target == state.current:
        raise Refused(
            "inform_on_self", "an informant informs on another player; to get a clue back, discredit"
        )
    if not state.active(target):
        raise Refused("already_arrested", f"{event.target} has already been arrested",
                      player=event.target)
    grave = _victim_grave(state, _grave_index(event.grave))
    state = _place(_release(state, card, fresh), grave, card)
    effects.append(
        Effect(
            "informed",
            {"player": state.players[state.current], "target": event.target, "grave": grave + 1},
        )
    )
    state = _lose_clue(state, target, f"informed on by {state.players[state.current]}", effects)
    if state.phase is Phase.OVER or not fresh:
        return state
    return _after_placing(state, effects)


def _discredit(state: SKState, event: Discredit, effects: list[AnyEffect]) -> SKState:
    card, fresh = _held_card(state, Role.INFORMANT)
    who = state.current
    if state.clues[who] >= CLUES:
        raise Refused("no_clue_to_discredit", f"the police have no clue on {state.players[who]} "
                      "to discredit", player=state.players[who])
    grave = _victim_grave(state, _grave_index(event.grave))
    state = _place(_release(state, card, fresh), grave, card)
    clues = list(state.clues)
    clues[who] += 1
    state = replace(state, clues=tuple(clues))
    effects.append(
        Effect("discredited", {"player": state.players[who], "clues": clues[who], "grave": grave + 1})
    )
    return _after_placing(state, effects) if fresh else state


def _end_turn(state: SKState, event: EndTurn, effects: list[AnyEffect]) -> SKState:
    if state.phase is not Phase.ENDING:
        raise _refuse_phase(state, "end the turn")
    if not state.killed:  # the end-of-turn plays are over: now the police find the clue
        state = _lose_clue(state, state.current, "failed to kill", effects)
        if state.phase is Phase.OVER:
            return state
    return _next_turn(state, effects)
