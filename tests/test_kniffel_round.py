"""A round of Wort-Kniffel at a table on real parts: rendered throws of the seven dice read by
the real dice reader, the rules, the hourglass on an injected clock, gpiozero's MockFactory
LEDs and buzzer, the phone's entries and answers."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.store import Store
from companion.table import Table
from companion.table.camera import DiceReader

SEED = 3


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory, clock: Clock) -> Iterator[Table]:
    cfg = config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"], game="kniffel",
        setup={"hourglass_s": 60}, advisor=False, reminder_s=0.0)
    with Store(tmp_path / "log.sqlite") as store, \
            Table(cfg, store, pin_factory=factory, clock=clock) as rt:
        yield rt


def _until(condition: Any, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not shown in time"
        time.sleep(0.005)


def _play_throw(table: Table, reader: DiceReader, frames: list[Any]) -> dict[str, Any]:
    """The camera's frames of one throw through the reader into the table; the people answer
    the camera's question with the dice as they lie, as they would on the phone."""
    for frame in frames:
        reading = reader(frame.image)
        if reading is not None:
            table.post_reading(reading)
    table.drain()
    snap: dict[str, Any] = table.snapshot()
    if snap["prompt"] is not None:
        snap = table.submit({"action": "throw", "dice": str(frames[-1].roll)})
    return snap


def test_a_round_of_wort_kniffel_through_the_camera(
    table: Table, factory: MockFactory, clock: Clock,
) -> None:
    from vision.synth.dice import iter_throws
    from companion.games.kniffel.dice import DEFAULT_DICE

    reader = DiceReader({"min_confidence": 0.6})
    frames = list(iter_throws(DEFAULT_DICE, SEED, turns=2, throws=2, size=(1280, 960)))
    throws = [[f for f in frames if (f.turn, f.throw) == key]
              for key in sorted({(f.turn, f.throw) for f in frames})]
    ana, ben = factory.pin(table.pins.leds[0]), factory.pin(table.pins.leds[1])
    buzzer = factory.pin(table.pins.buzzer)
    _until(lambda: ana.state and not ben.state)  # Ana's turn: her LED lit

    # Ana's first throw comes to rest: the table takes it, and the hourglass starts
    snap = _play_throw(table, reader, throws[0])
    truth = throws[0][-1].roll
    assert snap["view"]["rolls"] == 1 and snap["timer"]["seat"] == 0
    assert sorted(str(snap["view"]["roll"]).split()) == sorted(str(truth).split())
    # she throws again, keeping some dice: the same turn, the second throw
    snap = _play_throw(table, reader, throws[1])
    assert snap["view"]["rolls"] == 2
    assert sorted(str(snap["view"]["roll"]).split()) == sorted(str(throws[1][-1].roll).split())

    # the sand runs low: her LED blinks fast and the buzzer warns; at zero only a zero is left
    buzzer.clear_states()
    ana.clear_states()
    clock.now += 51
    table.drain()
    assert table.panel.wait_idle() and any(s.state for s in buzzer.states)
    _until(lambda: sum(1 for s in ana.states if s.state) >= 3)
    buzzer.clear_states()
    clock.now += 10
    table.drain()
    assert table.panel.wait_idle() and any(s.state for s in buzzer.states)  # and sounds at zero
    snap = table.snapshot()
    assert snap["view"]["time_up"] is True and snap["timer"] is None
    snap = table.submit({"action": "zero", "box": "kniffel"})
    assert snap["view"]["players"][0]["boxes"]["kniffel"] == 0
    _until(lambda: ben.state and not ana.state)  # Ben's turn

    # Ben throws; the dice Ana left lying are not his throw until his dice come to rest
    snap = _play_throw(table, reader, throws[2])
    assert snap["view"]["rolls"] == 1 and snap["timer"]["seat"] == 1
    snap = table.submit({"action": "enter", "box": "chance", "words": []})
    chance = sum(f.value for f in (throws[2][-1].roll.faces))
    assert snap["view"]["players"][1]["boxes"]["chance"] == chance
    assert [e.body["type"] for e in table.store.events(snap["game_id"])].count("throw") == 3
    _until(lambda: ana.state and not ben.state)
