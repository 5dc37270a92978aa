"""The game in progress as the table holds it: rules, timeline, log id, and what the phones
were last told. Owned by the table's thread; every change goes through the log first.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.errors import InputError
from companion.games.base import (
    Answered,
    AnyEffect,
    EventError,
    GameRules,
    Observed,
    Prompt,
    Refused,
    TableView,
    Timeline,
    Undo,
    effect_json,
)
from companion.games.readings import Record
from companion.store import GameRecord, Store

_log = logging.getLogger(__name__)


class Game:
    """One game on the table and its standing in the log."""

    def __init__(self, store: Store, rules: GameRules[Any], timeline: Timeline[Any],
                 game_id: int, colours: list[str]) -> None:
        self.store, self.rules, self.timeline, self.id = store, rules, timeline, game_id
        self.colours = colours
        self.prompt: Prompt | None = None
        self.memo: Any = None  # the game's own memory between camera readings
        self.shown: Mapping[str, Any] = {}  # what the phones may draw of the camera's view
        self.last: dict[str, Any] | None = None  # what happened last, for the phones
        self.advice: dict[str, Any] = {}
        self.advice_for: str | None = None

    @classmethod
    def create(cls, store: Store, rules: GameRules[Any], setup: Mapping[str, Any],
               colours: list[str], seats: int, announce: bool) -> Game:
        """A new game in the log; :class:`InputError` for a set-up the rules or the table
        (``seats`` buttons) cannot take."""
        try:
            timeline = Timeline.start(rules, setup)
        except EventError as exc:
            raise InputError(str(exc)) from None
        names = rules.table(timeline.state).players
        if len(names) > seats:
            raise InputError(f"{len(names)} players, but the table has {seats} buttons")
        chosen = [colours[i % len(colours)] if colours else "" for i in range(len(names))]
        game_id = store.new_game(rules.name, rules.title, dict(setup), list(zip(names, chosen)))
        _log.info("new game %d: %s with %s", game_id, rules.name, ", ".join(names))
        game = cls(store, rules, timeline, game_id, chosen)
        if announce:
            game.last = {"kind": "effects", "source": "system", "code": None, "reason": None,
                         "effects": [{"kind": "new_game",
                                      "data": {"game": rules.name, "game_id": game_id}}]}
        return game

    @classmethod
    def resume(cls, store: Store, record: GameRecord, rules: GameRules[Any]) -> Game:
        """Fold the game back from its log; an event that no longer applies is kept, skipped."""
        timeline = Timeline.start(rules, record.setup)
        skipped = 0
        for ev in store.events(record.id):
            try:
                event = Undo() if ev.body.get("type") == "undo" else rules.decode(ev.body)
                timeline, _ = timeline.push(event)
            except (Refused, EventError) as exc:
                skipped += 1
                _log.error("game %d event %d no longer applies: %s", record.id, ev.seq, exc)
        _log.info("resumed game %d (%s) from %d events%s", record.id, record.game, record.events,
                  f", {skipped} skipped" if skipped else "")
        game = cls(store, rules, timeline, record.id, [c for _, c in record.players])
        if game.table_view().over and not record.ended:
            store.end_game(record.id, game.result())  # killed between the end and its record
        return game

    @property
    def state(self) -> Any:
        return self.timeline.state

    def record(self) -> Record:
        """The game as the camera's readers are told of it; a game played with letter dice
        keeps its set in its state as ``dice``."""
        return Record(self.id, len(self.timeline.states), getattr(self.state, "dice", None))

    def table_view(self) -> TableView:
        return self.rules.table(self.timeline.state)

    def decode(self, body: Mapping[str, Any]) -> Any:
        return Undo() if body.get("type") == "undo" else self.rules.decode(body)

    def trial(self, bodies: Sequence[Mapping[str, Any]]) -> None:
        """Raise what the first unacceptable event would, changing nothing."""
        trial = self.timeline
        for body in bodies:
            trial, _ = trial.push(self.decode(body))

    def commit(self, body: Mapping[str, Any], source: str) -> tuple[AnyEffect, ...]:
        """Apply, log durably, and only then keep the new state."""
        event = self.decode(body)
        was_over = self.table_view().over
        timeline, effects = self.timeline.push(event)
        encoded = {"type": "undo"} if isinstance(event, Undo) else self.rules.encode(event)
        ends = self.rules.table(timeline.state).over and not was_over
        # durable before anyone sees it; a game's end (or its undoing) in the same transaction
        self.store.append(self.id, encoded, source, reopen=was_over,
                          end=_result(self.rules.table(timeline.state)) if ends else None)
        self.timeline = timeline
        self.last = {"kind": "effects", "source": source, "code": None, "reason": None,
                     "effects": [effect_json(e) for e in effects]}
        return effects

    def note_effects(self, effects: Sequence[AnyEffect], source: str) -> None:
        """Tell the phones about effects the table made (a timer started, warned, ran out)."""
        said = [effect_json(e) for e in effects]
        if self.last is not None and self.last.get("source") != "system":
            said = list(self.last.get("effects", [])) + said
        self.last = {"kind": "effects", "source": source, "code": None, "reason": None,
                     "effects": said}

    def refused(self, exc: Refused, source: str) -> None:
        self.last = {"kind": "refused", "source": source, "code": exc.code, "reason": exc.reason,
                     "effects": [], "details": _jsonable(exc.details)}

    def observe(self, observe: Callable[[Any, Any, Any], Observed], reading: Any) -> Observed:
        """What the game makes of a still reading; keeps its memory, question and view."""
        asked = observe(self.state, reading, self.memo)
        self.memo, self.prompt = asked.memo, asked.prompt
        if asked.shown:
            self.shown = dict(asked.shown)
        return asked

    def answered(self) -> None:
        """People answered the camera's question: the game hears it with the next reading."""
        self.prompt = None
        self.memo = Answered(self.memo)

    def abandon(self) -> None:
        """Another game takes the table: this one ends as it stands (unless it already has)."""
        if not self.table_view().over:
            self.store.end_game(self.id, {**self.result(), "reason": "abandoned"})

    def result(self) -> dict[str, Any]:
        """Who won and why, as the history shows it."""
        return _result(self.table_view())

    def replay_setup(self, view: TableView) -> dict[str, Any]:
        """The same table again: the winner begins, in a game whose set-up takes a first seat."""
        setup = dict(self.store.game(self.id).setup)
        if len(view.winners) == 1:
            with_first = {**setup, "first": view.winners[0]}
            try:
                Timeline.start(self.rules, with_first)
                return with_first
            except EventError:
                pass
        return setup

    def snapshot(self) -> dict[str, Any]:
        """The game's part of what every phone sees."""
        view = self.rules.view(self.state)
        table = self.table_view()
        extra = _players(view)
        players = [
            {"index": i, "name": name,
             "colour": self.colours[i] if i < len(self.colours) else None,
             "on_turn": i == table.on_turn and not table.over,
             **{k: v for k, v in (extra[i] if i < len(extra) else {}).items() if k != "name"}}
            for i, name in enumerate(table.players)
        ]
        return {
            "game": self.rules.name, "title": self.rules.title, "game_id": self.id,
            "players": players, "view": view,
            "table": {"on_turn": table.on_turn, "over": table.over,
                      "winners": list(table.winners), "out": list(table.out),
                      "question": table.question},
            "events": len(self.timeline.states) - 1,
            "can_undo": len(self.timeline.states) > 1,
            "seen": copy.deepcopy(dict(self.shown)) or None,
            "prompt": None if self.prompt is None else self.prompt.to_json(),
            "last": copy.deepcopy(self.last),
        }


def _result(view: TableView) -> dict[str, Any]:
    names = [n for i, n in enumerate(view.players) if i in view.winners]
    return {"winner": " & ".join(names) if names else None,
            "reason": view.reason if view.over else None}


def _players(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The view's players as objects (games list names or objects)."""
    return [dict(p) if isinstance(p, Mapping) else {"name": str(p)}
            for p in view.get("players") or []]


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return getattr(value, "value", str(value))


__all__ = ["Game"]
