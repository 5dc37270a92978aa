"""Murdero's scorekeeping as a game: hands entered at the table, the running table, game over.

The companion does not watch Murdero's turns; it scores each hand's end and keeps the running
table until a player (or pair) reaches 100 (200 in Partner Murdero).

Set-up JSON: ``{"players": ["Ann", "Bob", "Cid", "Dee"], "pairs": false, "first": 0}``
(players in seat order; with ``pairs`` the 1st and 3rd play against the 2nd and 4th, since
partners sit opposite; ``first`` is the seat that plays first, default 0). Events:
``hand_entered`` ``{"hand": HAND}``, ``hand_corrected`` ``{"number": 2, "hand": HAND}``,
``next_turn`` ``{}`` and ``new_game`` ``{"players": null, "pairs": null}`` (null keeps the
table as it was); HAND is the JSON in :mod:`companion.games.murdero.hand`.

The turn pointer exists only for the table's lights: the player on turn presses their button
when done and play passes left ("Play continues with the player on your left"). The sheet does
not say who begins the next hand; the reading chosen is that the deal passes left, so each
hand is begun by the seat after the one that began the hand before.
"""

from __future__ import annotations

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
from companion.games.murdero.events import HandCorrected, HandEntered, NewGame, NextTurn
from companion.games.murdero.hand import HandEnd, HandError, PlayerHand, seats_of_pairs
from companion.games.murdero.scoring import HandScore, score_hand, side_label

MIN_PLAYERS = 2
MAX_PLAYERS = 4
TARGET = 100
TARGET_PAIRS = 200


@dataclass(frozen=True)
class ScoredHand:
    entry: HandEnd
    score: HandScore


@dataclass(frozen=True)
class FinishedGame:
    totals: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]
    hands: int


@dataclass(frozen=True)
class MurderoState:
    players: tuple[str, ...]
    pairs: bool
    hands: tuple[ScoredHand, ...] = ()
    earlier: tuple[FinishedGame, ...] = ()
    turn: int = 0  # the seat on turn (the lights), not refereed
    starter: int = 0  # the seat that began the current hand

    @property
    def target(self) -> int:
        return TARGET_PAIRS if self.pairs else TARGET

    @property
    def sides(self) -> tuple[tuple[str, ...], ...]:
        if self.pairs:
            return tuple(
                tuple(self.players[i] for i in seats) for seats in seats_of_pairs(len(self.players))
            )
        return tuple((p,) for p in self.players)

    def running(self) -> list[dict[str, int]]:
        """Each side's total after each hand."""
        totals = {side_label(s): 0 for s in self.sides}
        out = []
        for scored in self.hands:
            for label, pts in scored.score.points().items():
                totals[label] += pts
            out.append(dict(totals))
        return out

    @property
    def totals(self) -> dict[str, int]:
        rows = self.running()
        return rows[-1] if rows else {side_label(s): 0 for s in self.sides}

    @property
    def game_winners(self) -> tuple[str, ...]:
        return _game_winners(self.totals, self.target)

    @property
    def over(self) -> bool:
        return bool(self.game_winners)

    def seats_of(self, labels: tuple[str, ...] | list[str]) -> list[int]:
        """The seats of the players in these sides (a pair's label names both partners)."""
        wanted = set(labels)
        return [
            i
            for side in self.sides
            if side_label(side) in wanted
            for i, name in enumerate(self.players)
            if name in side
        ]


def _game_winners(totals: Mapping[str, int], target: int) -> tuple[str, ...]:
    """Sides at or past the target; if several get there in the same hand, the highest total wins
    (equal highest share the win)."""
    reached = {label: pts for label, pts in totals.items() if pts >= target}
    if not reached:
        return ()
    best = max(reached.values())
    return tuple(label for label, pts in reached.items() if pts == best)


def _check_players(players: Any, pairs: bool) -> tuple[str, ...]:
    names = parse_players({"players": players}, MIN_PLAYERS, MAX_PLAYERS)
    if pairs and len(names) != 4:
        raise EventError("Partner Murdero needs four players")
    return names


def new(setup: Mapping[str, Any]) -> MurderoState:
    parse_players(setup, MIN_PLAYERS, MAX_PLAYERS, keys=("pairs", "first"))
    pairs = setup.get("pairs", False)
    if not isinstance(pairs, bool):
        raise EventError("pairs must be true or false")
    players = _check_players(setup.get("players"), pairs)
    first = setup.get("first", 0)
    if first is None:
        first = 0
    if isinstance(first, str) and first in players:
        first = players.index(first)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(players):
        raise EventError(f"first must be a seat 0-{len(players) - 1} or a player's name, not {first!r}")
    return MurderoState(players, pairs, turn=first, starter=first)


def _seat_order(state: MurderoState, hand: HandEnd) -> HandEnd:
    """The entry's players in the table's seat order; the names must be the table's."""
    by_name: dict[str, PlayerHand] = {p.name: p for p in hand.players}
    if sorted(by_name) != sorted(state.players) or len(hand.players) != len(state.players):
        raise Refused(
            "wrong_players",
            f"the hand lists {', '.join(hand.names)}; this game's players are {', '.join(state.players)}",
            listed=", ".join(hand.names),
            players=", ".join(state.players),
        )
    return replace(hand, players=tuple(by_name[n] for n in state.players))


def _score(state: MurderoState, hand: HandEnd) -> ScoredHand:
    hand = _seat_order(state, hand)
    try:
        return ScoredHand(hand, score_hand(hand, state.pairs))
    except HandError as exc:
        # one code for every broken hand rule (callers rely on it); ``rule`` says which
        raise Refused("hand_invalid", str(exc), rule=exc.code, **exc.details) from None


def _hand_effects(state: MurderoState, scored: ScoredHand, number: int) -> list[AnyEffect]:
    effects: list[AnyEffect] = [
        Effect(
            "hand_scored",
            {"number": number, "points": scored.score.points(), "totals": state.totals},
        )
    ]
    if scored.score.winners:
        effects.append(Effect("hand_won", {"number": number, "winners": list(scored.score.winners)}))
        for seat in state.seats_of(scored.score.winners):
            effects.append(Signal(Cue.VALID, seat, blink=True))
    if state.over:
        effects.append(
            Effect("game_over", {"winners": list(state.game_winners), "totals": state.totals})
        )
        effects.append(Winners(tuple(state.seats_of(state.game_winners))))
    return effects


def apply(state: MurderoState, event: Any) -> Outcome[MurderoState]:
    """The next state and its effects; raises :class:`Refused` for anything the rules forbid."""
    match event:
        case HandEntered():
            return _hand_entered(state, event)
        case NextTurn():
            return _next_turn(state)
        case HandCorrected():
            return _hand_corrected(state, event)
        case NewGame():
            return _new_game(state, event)
    raise Refused(
        "unknown_event", f"Murdero has no event {type(event).__name__}", event=type(event).__name__
    )


def _game_over(state: MurderoState) -> Refused:
    return Refused(
        "game_over",
        f"the game is over ({', '.join(state.game_winners)} won); start a new game",
        winners=", ".join(state.game_winners),
    )


def _hand_entered(state: MurderoState, event: HandEntered) -> Outcome[MurderoState]:
    if state.over:
        raise _game_over(state)
    scored = _score(state, event.hand)
    starter = (state.starter + 1) % len(state.players)
    after = replace(state, hands=state.hands + (scored,), turn=starter, starter=starter)
    effects = _hand_effects(after, scored, len(after.hands))
    if not after.over:
        effects.append(TurnMoved(starter))
    return Outcome(after, tuple(effects))


def _next_turn(state: MurderoState) -> Outcome[MurderoState]:
    if state.over:
        raise _game_over(state)
    turn = (state.turn + 1) % len(state.players)
    return Outcome(replace(state, turn=turn), (TurnMoved(turn),))


def _hand_corrected(state: MurderoState, event: HandCorrected) -> Outcome[MurderoState]:
    if not 1 <= event.number <= len(state.hands):
        raise Refused(
            "no_such_hand",
            f"there is no hand {event.number}; {len(state.hands)} played",
            number=event.number,
            played=len(state.hands),
        )
    scored = _score(state, event.hand)
    hands = state.hands[: event.number - 1] + (scored,) + state.hands[event.number :]
    after = replace(state, hands=hands)
    rows = after.running()
    for i, row in enumerate(rows[:-1]):
        if _game_winners(row, state.target):
            raise Refused(
                "correction_ends_game_early",
                f"with this correction the game ends after hand {i + 1}, but {len(rows)} hands "
                "were played; undo the later hands first",
                ends_after=i + 1,
                played=len(rows),
            )
    return Outcome(after, tuple(_hand_effects(after, scored, event.number)))


def _new_game(state: MurderoState, event: NewGame) -> Outcome[MurderoState]:
    pairs = state.pairs if event.pairs is None else event.pairs
    players = state.players if event.players is None else event.players
    try:
        players = _check_players(players, pairs)
    except EventError as exc:
        raise Refused("bad_setup", str(exc), count=len(players or ()), pairs=pairs) from None
    earlier = state.earlier
    if state.hands:
        earlier += (FinishedGame(tuple(state.totals.items()), state.game_winners, len(state.hands)),)
    return Outcome(
        MurderoState(players, pairs, (), earlier),
        (Effect("new_game", {"players": list(players)}), TurnMoved(0)),
    )


