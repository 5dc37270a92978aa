"""The shared game shape: undo by folding, and the event codec's clear errors."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from companion.games.base import (
    Effect,
    EventError,
    GameRules,
    Outcome,
    Refused,
    TableView,
    Timeline,
    Undo,
    fold,
)
from companion.games.codec import EventCodec


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Add:
    amount: int
    colour: Colour = Colour.RED
    cells: tuple[tuple[int, int], ...] = ()
    note: str | None = None


def _apply(state: int, event: Any) -> Outcome[int]:
    if not isinstance(event, Add):
        raise Refused("unknown", "unknown event")
    if state + event.amount > 10:
        raise Refused("too_much", "the counter stops at 10")
    return Outcome(state + event.amount, (Effect("added", {"to": state + event.amount}),))


codec = EventCodec([Add])
COUNTER = GameRules[int](
    name="counter",
    title="Counter",
    new=lambda setup: int(setup.get("start", 0)),
    apply=_apply,
    decode=codec.decode,
    encode=codec.encode,
    view=lambda state: {"value": state},
    table=lambda state: TableView(players=("Ana", "Ben"), on_turn=state % 2),
)


def test_undo_drops_the_newest_state_only() -> None:
    tl = Timeline.start(COUNTER, {})
    tl, effects = tl.push(Add(3))
    assert effects == (Effect("added", {"to": 3}),)
    tl, _ = tl.push(Add(4))
    tl, _ = tl.push(Undo())
    assert tl.state == 3
    tl, _ = tl.push(Undo())
    assert tl.state == 0
    with pytest.raises(Refused) as info:
        tl.push(Undo())
    assert info.value.code == "nothing_to_undo"


def test_refused_event_leaves_timeline_unchanged() -> None:
    tl, _ = Timeline.start(COUNTER, {}).push(Add(9))
    with pytest.raises(Refused, match="stops at 10"):
        tl.push(Add(2))
    assert tl.state == 9


def test_fold_replays_a_log_with_undo() -> None:
    assert fold(COUNTER, {"start": 1}, [Add(2), Add(5), Undo(), Add(1)]).state == 4


def test_codec_round_trips_nested_values() -> None:
    event = Add(2, Colour.BLUE, ((0, 1), (2, 3)), "x")
    data = codec.encode(event)
    assert data == {"type": "add", "amount": 2, "colour": "blue", "cells": [[0, 1], [2, 3]], "note": "x"}
    assert codec.decode(data) == event
    assert codec.decode({"type": "undo"}) == Undo()


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [
        ({"type": "nope"}, "unknown event type"),
        ({"amount": 1}, "unknown event type"),
        ({"type": "add"}, "missing field 'amount'"),
        ({"type": "add", "amount": "1"}, "whole number"),
        ({"type": "add", "amount": True}, "whole number"),
        ({"type": "add", "amount": 1, "colour": "green"}, "not one of"),
        ({"type": "add", "amount": 1, "cells": [[1]]}, "expected 2 items"),
        ({"type": "add", "amount": 1, "extra": 0}, "unknown field"),
        ([1, 2], "JSON object"),
    ],
)
def test_codec_rejects_bad_events_with_a_reason(obj: Mapping[str, Any], fragment: str) -> None:
    with pytest.raises(EventError, match=fragment):
        codec.decode(obj)
