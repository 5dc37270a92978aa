"""A game of Wort-Kniffel as a pure state, moved on by its events (:mod:`.events`).

The hourglass is the table's timer: the state stores the configured seconds and asks for the
timer in its table view from a turn's first throw (:mod:`.view`); the table sends ``time_up``
with the turn number when the sand has run out.

The word check needs a :class:`Lexicon`, handed to :func:`apply`; the registered ``GAME`` has
none and accepts any word the dice can lay; the table's rules are bound to the German word list
at the edge (``GameRules.needs``).
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
from companion.games.kniffel.dice import DEFAULT_DICE, DiceError, DiceSet, Roll
from companion.games.kniffel.events import (
    Enter,
    FixThrow,
    KniffelExtra,
    PadEntry,
    StartHourglass,
    Throw,
    TimeUp,
    Zero,
)
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import KNIFFEL, Box, Pad
from companion.games.kniffel.solver import best_boxes, check_entry
from companion.games.kniffel.written import score_fits

MIN_PLAYERS = 2
MAX_PLAYERS = 4
ROLLS_PER_TURN = 3
DEFAULT_HOURGLASS_S = 90


@dataclass(frozen=True)
class Written:
    """One entry as the pad shows it: who, which box, the points and words, and the player's
    total after it (the chart of totals by round)."""

    seat: int
    box: Box
    score: int
    words: tuple[str, ...]
    total: int


@dataclass(frozen=True)
class KniffelState:
    """Whole game: players' pads, whose turn, the dice on the table and the hourglass.

    ``started``: the hourglass was turned by hand before the first throw; ``kept``: the dice
    the camera saw kept through the last re-roll; ``written``: every entry so far, in order.
    """

    players: tuple[str, ...]
    pads: tuple[Pad, ...]
    dice: DiceSet = DEFAULT_DICE
    hourglass_s: int = DEFAULT_HOURGLASS_S
    current: int = 0
    turn: int = 0  # counts every turn of every player from 0
    roll: Roll | None = None
    rolls: int = 0
    time_up: bool = False
    started: bool = False
    kept: tuple[int, ...] = ()
    written: tuple[Written, ...] = ()

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


# --- the rules --------------------------------------------------------------------------------


def new(setup: Mapping[str, Any]) -> KniffelState:
    """``{"players": [2-4 names], "hourglass_s": 90, "dice": [7 dice of 6 faces]}``."""
    names = parse_players(setup, MIN_PLAYERS, MAX_PLAYERS, keys=("hourglass_s", "dice"))
    seconds = setup.get("hourglass_s", DEFAULT_HOURGLASS_S)
    if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds <= 0:
        raise EventError("hourglass_s: a positive whole number of seconds")
    dice = DEFAULT_DICE
    if "dice" in setup:
        try:
            dice = DiceSet.parse(setup["dice"])
        except (DiceError, AttributeError, TypeError) as exc:
            raise EventError(f"dice: {exc}") from None
    return KniffelState(names, tuple(Pad() for _ in names), dice, seconds)


def apply(
    state: KniffelState, event: Any, lexicon: Lexicon | None = None,
) -> Outcome[KniffelState]:
    """The next state; words are checked against ``lexicon`` (None: any word the dice lay)."""
    if state.finished:
        raise Refused("game_over", "the game is over")
    match event:
        case TimeUp():
            return _time_up(state, event)
        case Zero():
            return _zero(state, event)
        case Throw():
            _not_after_time(state)
            return _throw(state, event, lexicon)
        case FixThrow():
            _not_after_time(state)
            return _fix_throw(state, event)
        case StartHourglass():
            _not_after_time(state)
            return _start_hourglass(state)
        case Enter():
            _not_after_time(state)
            return _enter(state, event, lexicon)
        case KniffelExtra():
            _not_after_time(state)
            return _kniffel_extra(state, event, lexicon)
        case PadEntry():
            _not_after_time(state)
            return _pad_entry(state, event)
    raise Refused("unknown_event", f"Wort-Kniffel has no event {type(event).__name__}")


def _not_after_time(state: KniffelState) -> None:
    if state.time_up:
        raise Refused("time_up", "the sand ran out: strike a box with a zero")


def _time_up(state: KniffelState, event: TimeUp) -> Outcome[KniffelState]:
    if event.turn != state.turn or state.time_up:
        raise Refused("stale_timer", "that hourglass belongs to another turn", turn=event.turn)
    who = state.players[state.current]
    return Outcome(
        replace(state, time_up=True),
        (Effect("time_up", {"player": who, "turn": state.turn}), Signal(Cue.END, state.current)),
    )


def _zero(state: KniffelState, event: Zero) -> Outcome[KniffelState]:
    if state.roll is None and not state.time_up:
        raise Refused("no_roll", "roll the dice first")
    _need_open(state.pad, event.box)
    return _finish_turn(state, state.pad.write(event.box, 0), event.box, 0, ())


def _enter(state: KniffelState, event: Enter, lexicon: Lexicon | None) -> Outcome[KniffelState]:
    if state.roll is None:
        raise Refused("no_roll", "roll the dice first")
    _need_open(state.pad, event.box)
    entry = check_entry(state.roll, event.box, event.words, lexicon, event.table_ok)
    assert entry.score is not None
    words = tuple(p.word for p in entry.plays)
    return _finish_turn(state, state.pad.write(event.box, entry.score), event.box, entry.score, words)


def _pad_entry(state: KniffelState, event: PadEntry) -> Outcome[KniffelState]:
    """The number written on the pad, confirmed on a phone: the player's own box, after a
    throw, and a number that throw can make there (no words to check: see ``written``)."""
    if event.seat != state.current:
        raise Refused("not_your_turn", f"it is {state.players[state.current]}'s turn",
                      player=state.players[state.current])
    if state.roll is None:
        raise Refused("no_roll", "roll the dice first")
    _need_open(state.pad, event.box)
    if not score_fits(state.roll, event.box, event.score):
        raise Refused("score_not_in_throw",
                      f"the throw {state.roll} cannot make {event.score} in {event.box.value}",
                      box=event.box.value, score=event.score)
    return _finish_turn(state, state.pad.write(event.box, event.score), event.box, event.score,
                        ())


def _kniffel_extra(
    state: KniffelState, event: KniffelExtra, lexicon: Lexicon | None,
) -> Outcome[KniffelState]:
    if state.roll is None:
        raise Refused("no_roll", "roll the dice first")
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


def _start_hourglass(state: KniffelState) -> Outcome[KniffelState]:
    if state.started or state.rolls > 0:
        raise Refused("hourglass_running", "the hourglass is already running")
    who = state.players[state.current]
    return Outcome(replace(state, started=True), (Effect("hourglass", {"player": who}),))


def _read_roll(state: KniffelState, dice: str) -> Roll:
    try:
        roll = Roll.parse(dice, state.dice)
    except DiceError as exc:
        raise Refused("bad_dice", str(exc)) from None
    if state.dice.assign(roll) is None:
        raise Refused("impossible_roll", f"the dice set cannot show {roll}", dice=str(roll))
    return roll


def _fix_throw(state: KniffelState, event: FixThrow) -> Outcome[KniffelState]:
    if state.roll is None:
        raise Refused("no_roll", "roll the dice first")
    roll = _read_roll(state, event.dice)
    who = state.players[state.current]
    return Outcome(replace(state, roll=roll),
                   (Effect("fixed", {"player": who, "roll": str(roll)}),))


def _throw(state: KniffelState, event: Throw, lexicon: Lexicon | None) -> Outcome[KniffelState]:
    if state.rolls >= ROLLS_PER_TURN:
        raise Refused("no_rolls_left", f"a turn has at most {ROLLS_PER_TURN} throws")
    roll = _read_roll(state, event.dice)
    kept = tuple(sorted(set(event.kept)))
    if any(not 0 <= i < len(roll.faces) for i in kept) or (state.roll is None and kept):
        raise Refused("bad_dice", "kept dice must be dice of the last throw")
    nxt = replace(state, roll=roll, rolls=state.rolls + 1, kept=kept)
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
    written = Written(state.current, box, score, words, pad.total)
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
        started=False,
        kept=(),
        written=state.written + (written,),
    )
    if nxt.finished:
        totals = {n: p.total for n, p in zip(nxt.players, nxt.pads)}
        effects.append(Effect("game_over", {"totals": totals, "winners": list(nxt.winners())}))
        effects.append(Winners(tuple(i for i, n in enumerate(nxt.players) if n in nxt.winners())))
    else:
        effects.append(TurnMoved(nxt.current, {"name": nxt.players[nxt.current], "turn": nxt.turn,
                                               "round": nxt.round, "hourglass_s": nxt.hourglass_s}))
    return Outcome(nxt, tuple(effects))
