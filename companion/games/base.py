"""The shape every game shares: events in, next state and effects out, undo by folding.

A game is a :class:`GameRules` value holding pure functions. The runtime, the CLI and the web
find it by name (``companion.games.find_game``) and never special-case a game. Undo is not a
game's business: :class:`Timeline` keeps the states an event log folds into, so undoing is
dropping the newest one, the same for every game (python-chess's ``push``/``pop``).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from companion.errors import CompanionError

S = TypeVar("S")


class RuleError(CompanionError, ValueError):
    """Root of the errors a game's rules raise."""


class Refused(RuleError):
    """An event the rules do not allow now; the state is unchanged.

    ``code`` is a stable, machine-readable word (``claim_invalid``, ``not_your_turn``,
    ``impossible_reading``…) that the runtime maps to LEDs, buzzer and phone prompts;
    the message is the reason a person reads.
    """

    def __init__(self, code: str, reason: str, **details: Any) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.details = details


class EventError(RuleError):
    """An event (or set-up) that cannot be decoded: wrong type, missing or malformed field."""


class Cue(enum.Enum):
    """The sounds a game may ask the table for; the table's panel owns the tunes."""

    TURN = "turn"
    VALID = "valid"
    INVALID = "invalid"
    REMINDER = "reminder"
    ALARM = "alarm"
    END = "end"


@dataclass(frozen=True)
class Effect:
    """A game's own moment for the phones (a victim turned, a hand scored, a card drawn).

    ``kind`` is a short word the pages understand; ``data`` is JSON-ready detail. The table
    shows nothing of it on the panel: what should light or sound is one of the typed effects
    below, so a game never relies on the table knowing its words.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TurnMoved:
    """The turn passed to ``seat``: its LED lights and the turn tune plays. ``details`` are
    for the phones (the round, the draws to come…)."""

    seat: int
    details: Mapping[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "turn"

    @property
    def data(self) -> dict[str, Any]:
        return {"player": self.seat, **self.details}


@dataclass(frozen=True)
class Winners:
    """The game ended; ``seats`` won together (a pair, a team), or nobody when empty.
    ``details`` are for the phones (why, the winner's name…)."""

    seats: tuple[int, ...]
    details: Mapping[str, Any] = field(default_factory=dict)
    kind: ClassVar[str] = "winner"

    @property
    def data(self) -> dict[str, Any]:
        one = self.seats[0] if len(self.seats) == 1 else None
        return {"player": one, "players": list(self.seats), **self.details}


@dataclass(frozen=True)
class Signal:
    """A game's moment the panel should show: a ``cue`` to sound and, with ``blink``, the
    seat's LED flashing (an arrest, a hand won, a claim judged)."""

    cue: Cue
    seat: int | None = None
    blink: bool = False
    kind: ClassVar[str] = "signal"

    @property
    def data(self) -> dict[str, Any]:
        return {"tune": self.cue.value, "seat": self.seat, "blink": self.blink}


@dataclass(frozen=True)
class TimerStarted:
    """The table started the timer a game asked for (emitted by the table, not by games)."""

    key: str
    seconds: float
    seat: int | None
    kind: ClassVar[str] = "timer_started"

    @property
    def data(self) -> dict[str, Any]:
        return {"key": self.key, "seconds": self.seconds, "seat": self.seat}


@dataclass(frozen=True)
class TimerWarned:
    """The timer's last seconds began: the seat's LED blinks faster, the buzzer warns."""

    key: str
    left_s: float
    seat: int | None
    kind: ClassVar[str] = "timer_warning"

    @property
    def data(self) -> dict[str, Any]:
        return {"key": self.key, "left_s": self.left_s, "seat": self.seat}


@dataclass(frozen=True)
class TimerExpired:
    """The timer ran out; its expiry event follows through the rules like any other."""

    key: str
    seat: int | None
    kind: ClassVar[str] = "timer_expired"

    @property
    def data(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat}


AnyEffect = Effect | TurnMoved | Winners | Signal | TimerStarted | TimerWarned | TimerExpired


def effect_json(effect: AnyEffect) -> dict[str, Any]:
    """An effect as the phones receive it: ``{"kind": ..., "data": {...}}``."""
    return {"kind": effect.kind, "data": json_ready(dict(effect.data))}


@dataclass(frozen=True)
class TimerRequest:
    """A timer a game wants running now, named in its :class:`TableView`.

    The game declares it rather than starting it, so undo, a restart and a new game need no
    special case: the table runs whatever the current state asks for. ``key`` names this run
    (a new key is a fresh timer; the same key carries on); ``expiry`` is the event (as JSON for
    ``decode``) the table applies when it runs out; the last ``warn_s`` seconds are announced.
    """

    key: str
    seconds: float
    seat: int | None
    expiry: Mapping[str, Any]
    warn_s: float = 10.0


@dataclass(frozen=True)
class TableView:
    """What the table needs from any state of any game, so it never reads a game's JSON.

    ``on_turn``: the seat whose LED is lit (None: nobody, e.g. between hands or at the end);
    ``over`` and ``winners``: the game has ended and these seats won (empty: nobody);
    ``out``: seats no longer playing (quit, arrested); ``question``: a stable code for what the
    table must do before play goes on (the victim's neighbours to turn), or None; ``timer``: the
    timer the state wants running; ``reason``: why the game ended, for the history.
    """

    players: tuple[str, ...]
    on_turn: int | None
    over: bool = False
    winners: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    question: str | None = None
    timer: TimerRequest | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Prompt:
    """A question the camera puts to the table (unsure tiles, a reading the rules refuse).

    ``details`` are the game's JSON-ready particulars (the cells, what was seen there);
    ``refused``: the rules refused what the camera saw (not merely unsure), so the phones also
    show it as a refusal with the rules' code and reason. ``answers``: the phone words (of the
    game's ``act``) that answer it; any other action leaves the question standing.
    """

    kind: str
    code: str
    message: str
    details: Mapping[str, Any] = field(default_factory=dict)
    refused: bool = False
    answers: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "code": self.code, "message": self.message,
                **json_ready(dict(self.details))}


@dataclass(frozen=True)
class Observed:
    """What a game makes of one still camera reading: events to apply in order (each one
    already checked against the rules), a question when it cannot decide, and ``memo``, the
    game's own memory between readings, handed back with the next reading. ``shown`` is what
    the phones may draw of the camera's view (how each letter lies), JSON-ready. ``effects``:
    what the table should tell without anything changing on the record (a score pad that
    disagrees with it): sounded and shown like a move's effects, never applied."""

    events: tuple[Any, ...] = ()
    prompt: Prompt | None = None
    memo: Any = None
    shown: Mapping[str, Any] = field(default_factory=dict)
    effects: tuple[AnyEffect, ...] = ()


@dataclass(frozen=True)
class Answered:
    """Handed to ``observe`` in place of its memo once people answered the camera's question
    (even by saying the game has it right): what the camera saw there is overruled."""

    memo: Any


@dataclass(frozen=True)
class Advisor(Generic[S]):
    """Figures worth computing off the table's thread (the Mörder odds).

    ``key(state)`` says when the figures change (None: nothing to advise); ``advise(state)``
    computes them, pure and deterministic, so the same state always shows the same figures.
    """

    key: Callable[[S], str | None]
    advise: Callable[[S], Mapping[str, Any]]


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """What ``apply`` returns: the next state and the effects of getting there."""

    state: S
    effects: tuple[AnyEffect, ...] = ()


@dataclass(frozen=True)
class Undo:
    """Take back the newest event still standing. Handled by :class:`Timeline`, not by games."""


@dataclass(frozen=True)
class GameRules(Generic[S]):
    """One game's pure functions, registered by name; the table treats every game alike.

    - ``new(setup)``: the initial state from a JSON-like set-up (players, first player…);
      raises :class:`EventError` for a bad set-up.
    - ``apply(state, event)``: the :class:`Outcome`, or raises :class:`Refused`.
    - ``decode(obj)`` / ``encode(event)``: events to and from JSON-ready dicts with a ``type``.
    - ``view(state)``: the JSON-ready picture of the state the phones and the CLI show.
    - ``table(state)``: the :class:`TableView`: seat on turn, the end, winners, a question, a
      timer. The only thing the table reads of a state: lights, tunes and timers follow it.
    - ``press(state, seat, gesture)``: what a player's hardware button means now, as an
      event JSON for ``decode`` (``gesture`` is ``next``, ``claim`` or ``quit``: short, long
      and double press), or ``None`` when the press means nothing now. ``None`` for the
      whole hook: the game has no button actions.
    - ``act(state, word, fields)``: a phone's own words for this game (Mörder's ``claim``,
      ``resolve``…) as event JSONs applied all or nothing; raises :class:`EventError` for a
      word it does not know. The table's own words (``event``, ``undo``…) never reach it.
    - ``observe(state, reading, memo)``: a still camera reading as :class:`Observed` events
      and questions; ``None`` for a game the camera does not read. ``reads`` names the kind of
      reading it takes (``grid``: a tile grid, ``dice``: loose dice), so the table's camera
      reads what the game on the table needs.
    - ``advisor``: figures worth computing off the table's thread, or ``None``.
    - ``needs`` and ``bind(resources)``: resources the full rules need that a pure package
      cannot load itself (Wort-Kniffel's word list, by the name ``lexicon``); the edge loads
      them by name and ``bind`` returns the rules that use them.

    What a game wants shown on the panel it says with typed effects (:class:`TurnMoved`,
    :class:`Winners`, :class:`Signal`); :class:`Effect` is for the phones only.
    """

    name: str
    title: str
    new: Callable[[Mapping[str, Any]], S]
    apply: Callable[[S, Any], Outcome[S]]
    decode: Callable[[Mapping[str, Any]], Any]
    encode: Callable[[Any], dict[str, Any]]
    view: Callable[[S], dict[str, Any]]
    table: Callable[[S], TableView]
    press: Callable[[S, int, str], Mapping[str, Any] | None] | None = None
    act: Callable[[S, str, Mapping[str, Any]], Sequence[Mapping[str, Any]]] | None = None
    observe: Callable[[S, Any, Any], Observed] | None = None
    reads: str | None = None
    advisor: Advisor[S] | None = None
    needs: tuple[str, ...] = ()
    bind: Callable[[Mapping[str, Any]], GameRules[S]] | None = None


def parse_players(setup: Mapping[str, Any], low: int, high: int,
                  keys: Sequence[str] = ()) -> tuple[str, ...]:
    """The set-up's ``players``: ``low`` to ``high`` distinct, non-empty names; any key other
    than ``players`` and the game's own ``keys`` is refused by name.

    One parser for every game, so every game refuses the same mistakes in the same words.
    """
    if not isinstance(setup, Mapping):
        raise EventError("the set-up must be a JSON object")
    extra = set(setup) - {"players", *keys}
    if extra:
        raise EventError(f"set-up: unknown field(s) {', '.join(sorted(map(str, extra)))}")
    names = setup.get("players")
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
        raise EventError("players: a list of names")
    cleaned = tuple(n.strip() for n in names)
    if not low <= len(cleaned) <= high:
        raise EventError(f"players: {low} to {high} players, not {len(cleaned)}")
    if any(not n for n in cleaned):
        raise EventError("players: a name may not be empty")
    if len(set(n.casefold() for n in cleaned)) != len(cleaned):
        raise EventError("players: two players have the same name")
    return cleaned


@dataclass(frozen=True)
class Timeline(Generic[S]):
    """The states a game went through; the newest is ``state``. Immutable."""

    rules: GameRules[S]
    states: tuple[S, ...]

    @classmethod
    def start(cls, rules: GameRules[S], setup: Mapping[str, Any]) -> Timeline[S]:
        return cls(rules, (rules.new(setup),))

    @property
    def state(self) -> S:
        return self.states[-1]

    def push(self, event: Any) -> tuple[Timeline[S], tuple[AnyEffect, ...]]:
        """Apply ``event`` (or undo); raises :class:`Refused` and leaves ``self`` as it was."""
        if isinstance(event, Undo):
            if len(self.states) == 1:
                raise Refused("nothing_to_undo", "there is nothing to undo")
            back = Timeline(self.rules, self.states[:-1])
            return back, (Effect("undone", {}),)
        outcome = self.rules.apply(self.state, event)
        return Timeline(self.rules, self.states + (outcome.state,)), outcome.effects


def fold(rules: GameRules[S], setup: Mapping[str, Any], events: Sequence[Any]) -> Timeline[S]:
    """Rebuild a game from its set-up and its log; every logged event was accepted once."""
    timeline = Timeline.start(rules, setup)
    for event in events:
        timeline, _ = timeline.push(event)
    return timeline


def json_ready(value: Any) -> Any:
    """Enums by value, dataclasses and mappings as objects, tuples as lists: JSON-ready."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_ready(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [json_ready(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    return value
