"""Search's referee: start rooms, the two ways to move, lost turns, the end and the team score.

Readings of the rule text are listed in the package docstring (``companion.games.search``).
The move generator :func:`moves_for` works on plain tuples and bit masks so the solver and the
referee share one definition of a legal move.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator, Mapping, Sequence
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
from companion.games.search.events import AskHint, Move, Start
from companion.games.search.house import House, HouseError, Room, deck

MIN_PLAYERS, MAX_PLAYERS = 2, 4
PENALTY = 5  # "minus five times the difference"


class DotRule(enum.Enum):
    """How the garbled dot sentence is read (package docstring)."""

    MATCH = "match"  # default: only into a room whose dots match some player's current room
    DIFFERENT = "different"  # house rule: never into a room whose dots match any current room


class Phase(enum.Enum):
    START = "start"  # players are drawing start rooms, in turn order
    PLAY = "play"
    OVER = "over"  # nobody can move


class Way(enum.Enum):
    """How a move reaches its room: rule 2 (corridor) or rule 1 (a door to a neighbour)."""

    CORRIDOR = "corridor"
    DOOR = "door"


@dataclass(frozen=True)
class Options:
    dot_rule: DotRule = DotRule.MATCH
    # The start room's dots are circled, so they count on the track (package docstring).
    start_scores: bool = True


@dataclass(frozen=True)
class Player:
    name: str
    path: tuple[Room, ...] = ()  # rooms in the order visited; the last is the current room
    track: int = 0  # boxes checked on the score track

    @property
    def room(self) -> Room | None:
        return self.path[-1] if self.path else None


@dataclass(frozen=True)
class SearchState:
    house: House
    options: Options
    players: tuple[Player, ...]
    phase: Phase = Phase.START
    turn: int = 0
    # Who asked for a hint in this position (a long button press, the phone's button); the
    # next move clears it. Pages show the solver's advice while it is set.
    hint_asked: int | None = None

    @property
    def positions(self) -> tuple[Room, ...]:
        """Current rooms of the players who have started, in player order."""
        return tuple(p.path[-1] for p in self.players if p.path)

    def visited_masks(self) -> tuple[int, ...]:
        return tuple(_mask(p.path) for p in self.players)

    @property
    def tracks(self) -> tuple[int, ...]:
        return tuple(p.track for p in self.players)


# --- the move rules, shared with the solver -------------------------------------------------


def _mask(rooms: Sequence[Room]) -> int:
    m = 0
    for r in rooms:
        m |= 1 << r
    return m


def is_blocked(house: House, positions: Sequence[Room], mover: int, room: Room) -> bool:
    """'A player may never enter a room occupied by another player or connected to such a
    room by a corridor.'"""
    for q, pos in enumerate(positions):
        if q != mover and (room == pos or house.partner[room] == pos):
            return True
    return False


def dots_allowed(rule: DotRule, house: House, positions: Sequence[Room], room: Room) -> bool:
    current = {house.dots[p] for p in positions}
    if rule is DotRule.DIFFERENT:
        return house.dots[room] not in current
    return house.dots[room] in current


def moves_for(
    house: House, rule: DotRule, positions: Sequence[Room], visited: Sequence[int], mover: int
) -> tuple[tuple[Room, ...], Way]:
    """The rooms ``mover`` may enter now, and whether by corridor (forced) or by a door."""
    here = positions[mover]
    seen = visited[mover]
    partner = house.partner[here]
    if not (seen >> partner) & 1:
        # Rule 2: the corridor, regardless of dots; nothing else is allowed.
        if is_blocked(house, positions, mover, partner):
            return (), Way.CORRIDOR
        return (partner,), Way.CORRIDOR
    out = tuple(
        r
        for r in house.adjacent(here)
        if not (seen >> r) & 1
        and not is_blocked(house, positions, mover, r)
        and dots_allowed(rule, house, positions, r)
    )
    return out, Way.DOOR


def team_score(tracks: Sequence[int]) -> int:
    """The farthest track minus five times its gap to the shortest one."""
    high, low = max(tracks), min(tracks)
    return high - PENALTY * (high - low)


def next_turn(
    house: House, rule: DotRule, positions: Sequence[Room], visited: Sequence[int], after: int
) -> tuple[int | None, tuple[int, ...]]:
    """Who moves after player ``after`` (``None`` when nobody can), and who loses a turn."""
    n = len(positions)
    lost: list[int] = []
    for step in range(1, n + 1):
        q = (after + step) % n
        if moves_for(house, rule, positions, visited, q)[0]:
            return q, tuple(lost)
        lost.append(q)
    return None, tuple(lost)


# --- set-up ---------------------------------------------------------------------------------


def new_state(
    house: House,
    names: Sequence[str],
    options: Options = Options(),
    starts: Sequence[Room] | None = None,
) -> SearchState:
    """A game on ``house``; with ``starts``, the players already stand in those rooms."""
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise EventError(f"Search is for {MIN_PLAYERS}-{MAX_PLAYERS} players, not {len(names)}")
    state = SearchState(house, options, tuple(Player(str(n)) for n in names))
    if starts is None:
        return state
    if len(starts) != len(names):
        raise EventError(f"{len(names)} start rooms expected, got {len(starts)}")
    for p, room in enumerate(starts):
        try:
            state, _ = place_start(state, p, room)
        except Refused as exc:
            raise EventError(f"start room {house.name(room)}: {exc.reason}") from None
    return state


def new(setup: Mapping[str, Any]) -> SearchState:
    """Set-up: ``players`` (2-4 names), ``house`` (text) or ``seed`` (int) for a fresh house,
    optional ``dot_rule`` ("match", the default, or "different"), ``start_scores`` (bool) and ``starts``
    (room names, one per player; without them players draw cards with ``Start`` events)."""
    names = parse_players(setup, MIN_PLAYERS, MAX_PLAYERS,
                          keys=("house", "seed", "dot_rule", "start_scores", "starts"))
    try:
        if isinstance(setup.get("house"), str):
            house = House.parse(setup["house"])
        elif isinstance(setup.get("seed"), int) and not isinstance(setup.get("seed"), bool):
            house = House.generate(setup["seed"])
        else:
            raise EventError("set-up needs 'house' (text) or 'seed' (a whole number)")
        rule_name = setup.get("dot_rule", DotRule.MATCH.value)
        try:
            rule = DotRule(rule_name)
        except ValueError:
            raise EventError(f"dot_rule must be 'match' or 'different', not {rule_name!r}") from None
        start_scores = setup.get("start_scores", True)
        if not isinstance(start_scores, bool):
            raise EventError("start_scores must be true or false")
        starts = setup.get("starts")
        rooms = None
        if starts is not None:
            if not isinstance(starts, list) or not all(isinstance(s, str) for s in starts):
                raise EventError("set-up 'starts' must be a list of room names like C7")
            rooms = [house.room(s) for s in starts]
        return new_state(house, names, Options(rule, start_scores), rooms)
    except HouseError as exc:
        raise EventError(str(exc)) from None


def draw_starts(
    house: House, players: int, rng: random.Random
) -> list[tuple[int, int, Room | None]]:
    """Draw start cards for ``players`` like the table does, with the generator handed in.

    Returns every draw as (row card, column card, room), the room ``None`` for a draw that
    had to be drawn again (both rooms the cards name are taken). The cards are returned in the
    order that names the room chosen: the first crossing when it is free, else the other.
    Used cards are set aside; an empty deck is the set-aside cards shuffled again.
    """
    cards = list(deck())
    rng.shuffle(cards)
    used: list[int] = []
    positions: list[Room] = []
    draws: list[tuple[int, int, Room | None]] = []
    failures = 0
    while len(positions) < players:
        if len(cards) < 2:
            cards += used
            used = []
            rng.shuffle(cards)
        a, b = cards.pop(), cards.pop()
        used += [a, b]
        free = [(r, c) for r, c in ((a, b), (b, a))
                if not is_blocked(house, positions, len(positions), house.room_for_cards(r, c))]
        if not free:
            draws.append((a, b, None))
            failures += 1
            if failures > 1000:
                raise HouseError("no free start room is left for the cards")
            continue
        row, col = free[0]
        room = house.room_for_cards(row, col)
        draws.append((row, col, room))
        positions.append(room)
    return draws


# --- apply ----------------------------------------------------------------------------------


def place_start(
    state: SearchState, player: int, room: Room
) -> tuple[SearchState, tuple[AnyEffect, ...]]:
    """Put the player due to start in ``room`` (what a legal card draw does)."""
    if state.phase is not Phase.START:
        raise Refused("already_started", "every player already has a start room")
    if player != state.turn:
        raise Refused(
            "not_your_turn",
            f"{state.players[state.turn].name} draws a start room first",
            player=player,
            turn=state.turn,
        )
    positions = [*state.positions, room]
    if is_blocked(state.house, positions, player, room):
        raise Refused(
            "draw_again",
            f"{state.house.name(room)} is occupied or joined by corridor to an occupied room: "
            "draw two cards again",
            room=state.house.name(room),
        )
    dots = state.house.dots[room] if state.options.start_scores else 0
    players = list(state.players)
    players[player] = replace(players[player], path=(room,), track=dots)
    effects: list[AnyEffect] = [
        Effect(
            "started",
            {"player": player, "room": state.house.name(room), "track": players[player].track},
        )
    ]
    nxt = replace(state, players=tuple(players), turn=player + 1)
    if player + 1 < len(players):
        effects.append(TurnMoved(player + 1, {"phase": Phase.START.value}))
        return nxt, tuple(effects)
    nxt = replace(nxt, phase=Phase.PLAY)
    return _advance(nxt, len(players) - 1, effects)


def _advance(
    state: SearchState, after: int, effects: list[AnyEffect]
) -> tuple[SearchState, tuple[AnyEffect, ...]]:
    house, rule = state.house, state.options.dot_rule
    turn, lost = next_turn(house, rule, state.positions, state.visited_masks(), after)
    for q in lost:
        if turn is not None:
            effects.append(Effect("turn_lost", {"player": q}))
            # the panel: that seat's LED blinks and the reminder tune says "stuck"
            effects.append(Signal(Cue.REMINDER, q, blink=True))
    if turn is None:
        tracks = state.tracks
        score = team_score(tracks)
        # Cooperative: the whole table wins or nobody does (the panel's winner pattern).
        if score > 0:
            effects.append(Winners(tuple(range(len(tracks)))))
        else:
            effects.append(Winners(()))
        effects.append(Effect("game_over", {"score": score, "win": score > 0, "tracks": tracks}))
        return replace(state, phase=Phase.OVER, turn=0, hint_asked=None), tuple(effects)
    effects.append(TurnMoved(turn, {"phase": Phase.PLAY.value}))
    return replace(state, turn=turn), tuple(effects)


def refusal(state: SearchState, player: int, room: Room) -> Refused | None:
    """Why ``player`` may not enter ``room`` now, or ``None`` when the move is legal."""
    house = state.house
    if state.phase is Phase.OVER:
        return Refused("game_over", "the game is over: nobody can move")
    if state.phase is Phase.START:
        return Refused("not_started", "every player needs a start room first")
    if not 0 <= player < len(state.players):
        return Refused("no_such_player", f"there is no player {player}", player=player)
    if player != state.turn:
        return Refused(
            "not_your_turn",
            f"it is {state.players[state.turn].name}'s turn",
            player=player,
            turn=state.turn,
        )
    positions, visited = state.positions, state.visited_masks()
    here = positions[player]
    name = house.name(room)
    partner = house.partner[here]
    if room == here:
        return Refused("stay", f"you are in {name} already; move to another room", room=name)
    if not (visited[player] >> partner) & 1 and room != partner:
        return Refused(
            "must_take_corridor",
            f"you have not visited {house.name(partner)}, joined to {house.name(here)} by "
            f"corridor: you must go there",
            room=name,
            corridor=house.name(partner),
        )
    if (visited[player] >> room) & 1:
        return Refused("already_visited", f"you have visited {name} already", room=name)
    for q, pos in enumerate(positions):
        if q != player and pos == room:
            return Refused(
                "occupied", f"{state.players[q].name} is in {name}", room=name, by=q
            )
    for q, pos in enumerate(positions):
        if q != player and house.partner[room] == pos:
            return Refused(
                "corridor_to_occupied",
                f"{name} is joined by corridor to {house.name(pos)}, where "
                f"{state.players[q].name} is",
                room=name,
                by=q,
            )
    if room == partner:
        return None  # rule 2: regardless of the number of dots
    if room not in house.adjacent(here):
        return Refused(
            "not_adjacent", f"{name} is not next to {house.name(here)}", room=name
        )
    current = sorted({house.dots[p] for p in positions})
    if not dots_allowed(state.options.dot_rule, house, positions, room):
        if state.options.dot_rule is DotRule.DIFFERENT:
            return Refused(
                "same_dots",
                f"{name} has {house.dots[room]} dots, like a room a player is in "
                f"(occupied rooms have {current} dots)",
                room=name,
            )
        return Refused(
            "dots_unmatched",
            f"{name} has {house.dots[room]} dots; no player's room has that many "
            f"(occupied rooms have {current} dots)",
            room=name,
        )
    return None


def apply(state: SearchState, event: Any) -> Outcome[SearchState]:
    """The next state and its effects; raises :class:`Refused` for anything the rules forbid."""
    match event:
        case Start():
            return _start(state, event)
        case Move():
            return _move(state, event)
        case AskHint():
            return _ask_hint(state, event)
    raise Refused("unknown_event", f"Search has no event {type(event).__name__}")


def _start(state: SearchState, event: Start) -> Outcome[SearchState]:
    """The event names the room chosen by the order of its cards (row first). When that room
    is taken but the other the same cards name is free, the player is told to take the other
    one: "draw again" is only for cards whose rooms are both taken."""
    try:
        room, *other = state.house.rooms_for_cards(event.row_card, event.col_card)
    except HouseError as exc:
        raise Refused("bad_card", str(exc)) from None
    if not 0 <= event.player < len(state.players):
        raise Refused("no_such_player", f"there is no player {event.player}")
    try:
        nxt, effects = place_start(state, event.player, room)
    except Refused as exc:
        if exc.code != "draw_again" or not other or is_blocked(
            state.house, [*state.positions, other[0]], event.player, other[0]
        ):
            raise
        name, alt = state.house.name(room), state.house.name(other[0])
        raise Refused("other_room", f"{name} is occupied or joined by corridor to an occupied "
                      f"room; the same cards also name {alt}: start there", room=name, alt=alt,
                      row_card=event.col_card, col_card=event.row_card) from None
    return Outcome(nxt, effects)


def _move(state: SearchState, event: Move) -> Outcome[SearchState]:
    try:
        room = state.house.room(event.room)
    except HouseError as exc:
        raise Refused("no_such_room", str(exc)) from None
    why = refusal(state, event.player, room)
    if why is not None:
        raise why
    way = Way.CORRIDOR if state.house.partner[state.positions[event.player]] == room else Way.DOOR
    p = state.players[event.player]
    mover = replace(p, path=p.path + (room,), track=p.track + state.house.dots[room])
    players = state.players[: event.player] + (mover,) + state.players[event.player + 1 :]
    moved: list[AnyEffect] = [
        Effect(
            "moved",
            {
                "player": event.player,
                "room": event.room.strip().upper(),
                "by": way.value,
                "dots": state.house.dots[room],
                "track": mover.track,
            },
        )
    ]
    nxt, more = _advance(
        replace(state, players=players, hint_asked=None), event.player, moved
    )
    return Outcome(nxt, more)


def _ask_hint(state: SearchState, event: AskHint) -> Outcome[SearchState]:
    if not 0 <= event.player < len(state.players):
        raise Refused("no_such_player", f"there is no player {event.player}")
    if state.phase is not Phase.PLAY:
        code = "game_over" if state.phase is Phase.OVER else "not_started"
        raise Refused(code, "a hint is for a player on turn during play")
    asked = replace(state, hint_asked=event.player)
    return Outcome(
        asked,
        (
            Effect("hint_asked", {"player": event.player, "for": state.turn}),
            Signal(Cue.REMINDER, state.turn, blink=True),
        ),
    )


def legal(state: SearchState) -> tuple[tuple[Room, ...], Way]:
    """The rooms the player on turn may enter (empty outside play)."""
    if state.phase is not Phase.PLAY:
        return (), Way.DOOR
    return moves_for(
        state.house, state.options.dot_rule, state.positions, state.visited_masks(), state.turn
    )


def replay(state: SearchState, moves: Sequence[str]) -> Iterator[tuple[SearchState, Move]]:
    """Play named rooms in turn order from ``state``, yielding each state after a move.

    A refused move raises :class:`Refused` with the move's number in ``details['move']``.
    """
    for i, name in enumerate(moves, start=1):
        event = Move(state.turn, name)
        try:
            state = apply(state, event).state
        except Refused as exc:
            exc.details["move"] = i
            raise
        yield state, event


