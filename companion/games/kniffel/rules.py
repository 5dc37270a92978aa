"""A game of Wort-Kniffel as a pure state and the events that move it on.

Events (JSON ``type`` in brackets): :class:`Throw` (``throw``) the dice as they lie after a
(re-)roll; :class:`Enter` (``enter``) the roll in a box with the words laid; :class:`Zero`
(``zero``) strike a box; :class:`KniffelExtra` (``kniffel_extra``) a further Wort-Kniffel for
100 extra points and a zero; :class:`TimeUp` (``time_up``) the hourglass ran out. The hourglass
itself is the runtime's clock: the state only stores the configured seconds, announces each
turn (effect ``turn`` with ``hourglass_s``) and receives ``time_up`` with the turn number, so a
late timer from a finished turn is refused as ``stale_timer``.

The word check needs a :class:`Lexicon`; :func:`build_rules` closes over one. ``GAME`` has none
and accepts any word the dice can lay (the table judges); the runtime builds its rules with
``build_rules(load_lexicon(...))``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.base import (
    AnyEffect,
    Cue,
    Effect,
    EventCodec,
    EventError,
    GameRules,
    Outcome,
    Refused,
    Signal,
    TableView,
    TimerRequest,
    TurnMoved,
    Winners,
)
from companion.games.kniffel.dice import DEFAULT_DICE, DiceError, DiceSet, Roll
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import KNIFFEL, Box, Pad
from companion.games.kniffel.solver import best_boxes, check_entry

_log = logging.getLogger(__name__)

MIN_PLAYERS = 2
MAX_PLAYERS = 4
ROLLS_PER_TURN = 3
DEFAULT_HOURGLASS_S = 90


@dataclass(frozen=True)
class KniffelState:
    """Whole game: players' pads, whose turn, the dice on the table and the hourglass."""

    players: tuple[str, ...]
    pads: tuple[Pad, ...]
    dice: DiceSet = DEFAULT_DICE
    hourglass_s: int = DEFAULT_HOURGLASS_S
    current: int = 0
    turn: int = 0  # counts every turn of every player from 0
    roll: Roll | None = None
    rolls: int = 0
    time_up: bool = False

    @property
    def finished(self) -> bool:
        return all(p.is_full for p in self.pads)

    @property
    def round(self) -> int:
        return self.turn // len(self.players) + 1

    @property
    def pad(self) -> Pad:
        return self.pads[self.current]

    def winners(self) -> tuple[str, ...]:
        best = max(p.total for p in self.pads)
        return tuple(n for n, p in zip(self.players, self.pads) if p.total == best)


# --- events -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Throw:
    """The seven dice after a throw, in notation (``"T2 O3 R2 E1 I1 C4 H3"``)."""

    dice: str


@dataclass(frozen=True)
class Enter:
    """Write the roll into ``box`` with the words laid; ``table_ok``: the table accepted words
    the word list does not know (house rule decided at the table)."""

    box: Box
    words: tuple[str, ...] = ()
    table_ok: bool = False


@dataclass(frozen=True)
class Zero:
    """Strike ``box`` with a zero."""

    box: Box


@dataclass(frozen=True)
class KniffelExtra:
    """A further Wort-Kniffel: 100 extra points, and a zero in ``zero`` (player's choice)."""

    word: str
    zero: Box
    table_ok: bool = False


@dataclass(frozen=True)
class TimeUp:
    """The hourglass of turn ``turn`` ran out (sent by the runtime's clock)."""

    turn: int


EVENTS = (Throw, Enter, Zero, KniffelExtra, TimeUp)
codec = EventCodec(EVENTS)


# --- the rules --------------------------------------------------------------------------------


def new_game(setup: Mapping[str, Any]) -> KniffelState:
    """``{"players": [2-4 names], "hourglass_s": 90, "dice": [7 dice of 6 faces]}``."""
    if not isinstance(setup, Mapping):
        raise EventError("the set-up must be an object")
    unknown = set(setup) - {"players", "hourglass_s", "dice"}
    if unknown:
        raise EventError(f"unknown set-up field(s): {', '.join(sorted(unknown))}")
    players = setup.get("players")
    if (
        not isinstance(players, (list, tuple))
        or not all(isinstance(p, str) and p.strip() for p in players)
        or not MIN_PLAYERS <= len(players) <= MAX_PLAYERS
    ):
        raise EventError(f"players: {MIN_PLAYERS} to {MAX_PLAYERS} names")
    if len({p.strip() for p in players}) != len(players):
        raise EventError("players: names must differ")
    seconds = setup.get("hourglass_s", DEFAULT_HOURGLASS_S)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds <= 0:
        raise EventError("hourglass_s: a positive whole number of seconds")
    dice = DEFAULT_DICE
    if "dice" in setup:
        try:
            dice = DiceSet.parse(setup["dice"])
        except (DiceError, AttributeError, TypeError) as exc:
            raise EventError(f"dice: {exc}") from None
    names = tuple(p.strip() for p in players)
    return KniffelState(names, tuple(Pad() for _ in names), dice, seconds)


def build_rules(lexicon: Lexicon | None = None) -> GameRules[KniffelState]:
    """The game's rules; with ``lexicon`` words are checked against it."""

    def apply(state: KniffelState, event: Any) -> Outcome[KniffelState]:
        return _apply(state, event, lexicon)

    return GameRules[KniffelState](
        name="kniffel",
        title="Wort-Kniffel",
        new=new_game,
        apply=apply,
        decode=codec.decode,
        encode=codec.encode,
        view=view,
        table=table_view,
    )


def _apply(state: KniffelState, event: Any, lexicon: Lexicon | None) -> Outcome[KniffelState]:
    if state.finished:
        raise Refused("game_over", "the game is over")
    if isinstance(event, TimeUp):
        if event.turn != state.turn or state.time_up:
            raise Refused("stale_timer", "that hourglass belongs to another turn", turn=event.turn)
        who = state.players[state.current]
        return Outcome(
            replace(state, time_up=True),
            (Effect("time_up", {"player": who, "turn": state.turn}), Signal(Cue.END, state.current)),
        )
    if isinstance(event, Zero):
        if state.roll is None and not state.time_up:
            raise Refused("no_roll", "roll the dice first")
        _need_open(state.pad, event.box)
        return _finish_turn(state, state.pad.write(event.box, 0), event.box, 0, ())
    if state.time_up:
        raise Refused("time_up", "the sand ran out: strike a box with a zero")
    if isinstance(event, Throw):
        return _throw(state, event, lexicon)
    if not isinstance(event, (Enter, KniffelExtra)):
        raise Refused("unknown_event", f"not a Wort-Kniffel event: {type(event).__name__}")
    if state.roll is None:
        raise Refused("no_roll", "roll the dice first")
    if isinstance(event, Enter):
        _need_open(state.pad, event.box)
        entry = check_entry(state.roll, event.box, event.words, lexicon, event.table_ok)
        assert entry.score is not None
        words = tuple(p.word for p in entry.plays)
        return _finish_turn(
            state, state.pad.write(event.box, entry.score), event.box, entry.score, words
        )
    first = state.pad[Box.KNIFFEL]
    if first is None:
        raise Refused("no_first_kniffel", "the first Wort-Kniffel goes into its box")
    if first != KNIFFEL:
        raise Refused("no_first_kniffel", "the Wort-Kniffel box was struck: no extra points")
    _need_open(state.pad, event.zero)
    entry = check_entry(state.roll, Box.KNIFFEL, (event.word,), lexicon, event.table_ok)
    pad = state.pad.add_kniffel_extra().write(event.zero, 0)
    words = tuple(p.word for p in entry.plays)
    outcome = _finish_turn(state, pad, event.zero, 0, words)
    extra = Effect("kniffel_extra", {"player": state.players[state.current], "word": words[0]})
    return Outcome(outcome.state, (extra, *outcome.effects))


def _throw(state: KniffelState, event: Throw, lexicon: Lexicon | None) -> Outcome[KniffelState]:
    if state.rolls >= ROLLS_PER_TURN:
        raise Refused("no_rolls_left", f"a turn has at most {ROLLS_PER_TURN} throws")
    try:
        roll = Roll.parse(event.dice, state.dice)
    except DiceError as exc:
        raise Refused("bad_dice", str(exc)) from None
    if state.dice.assign(roll) is None:
        raise Refused("impossible_roll", f"the dice set cannot show {roll}", dice=str(roll))
    nxt = replace(state, roll=roll, rolls=state.rolls + 1)
    left = ROLLS_PER_TURN - nxt.rolls
    who = state.players[state.current]
    effects = [Effect("rolled", {"player": who, "roll": str(roll), "rolls_left": left})]
    if lexicon is not None:
        fits = [b.value for b, e in best_boxes(roll, lexicon, state.pad.open_boxes).items()
                if e.score is not None]
        if not fits:
            effects.append(Effect("nothing_fits", {"player": who, "rolls_left": left}))
    return Outcome(nxt, tuple(effects))


def _need_open(pad: Pad, box: Box) -> None:
    if not pad.is_open(box):
        raise Refused("box_filled", f"box {box.value} is already filled", box=box.value)


def _finish_turn(
    state: KniffelState, pad: Pad, box: Box, score: int, words: tuple[str, ...]
) -> Outcome[KniffelState]:
    who = state.players[state.current]
    pads = tuple(pad if i == state.current else p for i, p in enumerate(state.pads))
    effects: list[AnyEffect] = [Effect("entered", {"player": who, "box": box.value, "score": score,
                                  "words": list(words)})]
    if pad.bonus and not state.pad.bonus:
        effects.append(Effect("upper_bonus", {"player": who}))
    nxt = replace(
        state,
        pads=pads,
        current=(state.current + 1) % len(state.players),
        turn=state.turn + 1,
        roll=None,
        rolls=0,
        time_up=False,
    )
    if nxt.finished:
        totals = {n: p.total for n, p in zip(nxt.players, nxt.pads)}
        effects.append(Effect("game_over", {"totals": totals, "winners": list(nxt.winners())}))
        effects.append(Winners(tuple(i for i, n in enumerate(nxt.players) if n in nxt.winners())))
    else:
        effects.append(TurnMoved(nxt.current, {"name": nxt.players[nxt.current], "turn": nxt.turn,
                                               "round": nxt.round, "hourglass_s": nxt.hourglass_s}))
    return Outcome(nxt, tuple(effects))


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
