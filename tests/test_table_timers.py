"""Timers belong to the table: Wort-Kniffel's hourglass asked for by the game's state, run on
an injected monotonic clock, announced on the buzzer, ended by the game's own event, paused from
a phone, and carried on after a restart from its checkpoint in the log."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.errors import InputError
from companion.games.base import Refused, TimerExpired, TimerRequest, TimerStarted, TimerWarned
from companion.store import Store
from companion.table import Table
from companion.table.timers import Countdown, follow

THROW = {"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _config(tmp_path: Path) -> config_mod.Config:
    return config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"], game="kniffel",
        setup={"hourglass_s": 60}, advisor=False, reminder_s=0.0,
    )


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory, clock: Clock) -> Iterator[Table]:
    with Store(tmp_path / "log.sqlite") as store, Table(
        _config(tmp_path), store, pin_factory=factory, clock=clock,
    ) as rt:
        yield rt


def _after(rt: Table, clock: Clock, seconds: float) -> dict[str, Any]:
    clock.now += seconds
    rt.drain()
    return rt.snapshot()


def _until(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not shown in time"
        time.sleep(0.005)


def _kinds(snap: dict[str, Any]) -> list[str]:
    return [e["kind"] for e in (snap["last"] or {}).get("effects", [])]


def test_the_hourglass_starts_with_the_first_throw_warns_and_ends_the_turn(
    table: Table, clock: Clock, factory: MockFactory,
) -> None:
    assert table.snapshot()["timer"] is None  # nothing runs before the dice are thrown
    snap = table.submit({"action": "event", "event": THROW})
    assert snap["timer"]["seconds"] == 60 and snap["timer"]["seat"] == 0
    assert "timer_started" in _kinds(snap)
    snap = _after(table, clock, 45)
    assert snap["timer"]["left_s"] == 15 and "timer_warning" not in _kinds(snap)
    buzzer = factory.pin(table.pins.buzzer)
    buzzer.clear_states()
    led = factory.pin(table.pins.leds[0])
    led.clear_states()
    snap = _after(table, clock, 6)  # 9 s left: the last ten seconds are announced
    assert "timer_warning" in _kinds(snap)
    assert table.panel.wait_idle() and any(s.state for s in buzzer.states)
    _until(lambda: sum(1 for s in led.states if s.state) >= 3)  # Ana's LED blinks: hurry
    snap = _after(table, clock, 10)
    game = snap["game_id"]
    last = table.store.events(game)[-1]
    assert last.body == {"type": "time_up", "turn": 0} and last.source == "timer"
    assert snap["view"]["time_up"] is True and snap["timer"] is None
    with pytest.raises(Refused) as refused:  # only a zero is left for Ana
        table.submit({"action": "event", "event": {"type": "enter", "box": "chance"}})
    assert refused.value.code == "time_up"
    snap = table.submit({"action": "event", "event": {"type": "zero", "box": "chance"}})
    assert snap["players"][1]["on_turn"] and snap["timer"] is None
    ben = factory.pin(table.pins.leds[1])
    _until(lambda: ben.state and not led.state)  # Ben's turn: his LED steady, Ana's dark


def test_a_paused_hourglass_does_not_run_and_undo_takes_it_back(table: Table, clock: Clock) -> None:
    table.submit({"action": "event", "event": THROW})
    snap = table.submit({"action": "timer", "pause": True})
    assert snap["timer"]["paused"] is True
    snap = _after(table, clock, 500)
    assert snap["timer"]["left_s"] == 60 and snap["view"]["time_up"] is False
    table.submit({"action": "timer", "pause": False})
    snap = _after(table, clock, 20)
    assert snap["timer"]["left_s"] == 40
    snap = table.submit({"action": "undo"})  # the throw taken back: no hourglass runs
    assert snap["timer"] is None
    with pytest.raises(InputError):
        table.submit({"action": "timer", "pause": True})


def test_the_hourglass_carries_on_after_a_restart(tmp_path: Path, factory: MockFactory) -> None:
    clock = Clock()
    with Store(tmp_path / "log.sqlite") as store, Table(
        _config(tmp_path), store, pin_factory=factory, clock=clock,
    ) as rt:
        rt.submit({"action": "event", "event": THROW})
        _after(rt, clock, 30)
        rt.submit({"action": "timer", "pause": True})  # a checkpoint, as every few seconds
    later = Clock()
    later.now = 5.0  # a new boot: the monotonic clock starts again
    with Store(tmp_path / "log.sqlite") as store, Table(
        _config(tmp_path), store, pin_factory=factory, clock=later,
    ) as rt:
        snap = rt.snapshot()
        assert snap["timer"]["left_s"] == 30 and snap["timer"]["paused"] is True
        rt.submit({"action": "timer", "pause": False})
        snap = _after(rt, later, 31)
        assert rt.store.events(snap["game_id"])[-1].body == {"type": "time_up", "turn": 0}


# --- the countdown alone: a pure state machine on explicit times ------------------------------


def test_the_countdown_announces_the_warning_and_the_end_once() -> None:
    req = TimerRequest("t/1", 20.0, 1, {"type": "time_up"}, warn_s=5.0)
    countdown, said = follow(None, req, 0.0)
    assert said == (TimerStarted("t/1", 20.0, 1),) and countdown is not None
    assert countdown.due(0.0) == 15.0
    countdown, said = countdown.step(14.0)
    assert said == ()
    countdown, said = countdown.step(16.0)
    assert said == (TimerWarned("t/1", 4.0, 1),)
    countdown, said = countdown.step(17.0)
    assert said == ()
    countdown, said = countdown.step(20.0)
    assert said == (TimerExpired("t/1", 1),) and countdown.expired
    assert countdown.step(30.0)[1] == ()


def test_the_same_key_carries_on_and_a_new_key_starts_afresh() -> None:
    req = TimerRequest("t/1", 20.0, 0, {"type": "time_up"})
    running = Countdown(req, 0.0, 0.0)
    same, said = follow(running, req, 8.0)
    assert same is not None and same.left(8.0) == 12.0 and said == ()
    fresh, said = follow(running, TimerRequest("t/2", 20.0, 1, {}), 8.0)
    assert fresh is not None and fresh.left(8.0) == 20.0 and said[0].kind == "timer_started"
    assert follow(running, None, 8.0) == (None, ())
