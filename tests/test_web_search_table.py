"""Search on the real table runtime: gpiozero's MockFactory buttons and LEDs, a temp SQLite log.

The game starts over the runtime's own action (as a phone's ``new_game``); then the seat
buttons are pressed on the mock pins: a short press makes the forced corridor move, a press
out of turn is refused, a long press asks for a hint; the LEDs follow the turn and the game's
end is logged.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.games.search.house import House
from companion.games.search import GAME
from companion.games.search.events import Move
from companion.games.search.rules import Phase, draw_starts, legal, team_score
from companion.games.search.solver import line_names, solve
from companion.table import Table
from companion.store import Store

LONG_S = 0.2


@pytest.fixture
def said() -> list[str]:
    return []


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory, said: list[str]) -> Iterator[Table]:
    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"],
                      advisor=False, reminder_s=0.0)
    cfg = cfg.replace("hardware", long_press_s=LONG_S, double_press_s=0.1, bounce_s=0.0)
    with Store(tmp_path / "log.sqlite") as store, \
            Table(cfg, store, pin_factory=factory, echo=said.append) as rt:
        yield rt


def search_setup(seed: int = 4, rule: str = "match") -> dict[str, Any]:
    house = House.generate(seed)
    rooms = [r for *_, r in draw_starts(house, 2, random.Random(seed)) if r is not None]
    return {"players": ["Ana", "Ben"], "seed": seed, "starts": [house.name(r) for r in rooms],
            "dot_rule": rule}


def start_search(rt: Table, setup: dict[str, Any] | None = None) -> dict[str, Any]:
    return rt.submit({"action": "new_game", "game": "search", "setup": setup or search_setup()})


def small_setup(seed: int) -> dict[str, Any]:
    """A 4x5 house (quick to play to its end), start rooms apart."""
    house = House.generate(seed, 4, 5)
    a = house.room("A1")
    b = next(r for r in reversed(house.rooms) if r != a and house.partner[r] != a)
    return {"players": ["Ana", "Ben"], "house": str(house), "starts": ["A1", house.name(b)]}


def a_winning_game() -> tuple[dict[str, Any], list[str]]:
    """A small house and the solver's line that wins on it."""
    for seed in range(40):
        setup = small_setup(seed)
        state = GAME.new(setup)
        best = solve(state)
        if best.best > 0:
            return setup, line_names(state, best.line)
    raise AssertionError("no winnable small house found")


def a_losing_game() -> tuple[dict[str, Any], list[str]]:
    """A small house and a line of moves the team loses with, found by the rules alone."""
    for seed in range(40):
        setup = small_setup(seed)
        for pick in (0, -1):
            s = GAME.new(setup)
            line = []
            while s.phase is Phase.PLAY:
                rooms, _ = legal(s)
                line.append(s.house.name(rooms[pick]))
                s = GAME.apply(s, Move(s.turn, line[-1])).state
            if team_score(s.tracks) <= 0:
                return setup, line
    raise AssertionError("no losing game found")


def press(factory: MockFactory, rt: Table, seat: int, hold_s: float = 0.03) -> None:
    pin = factory.pin(rt.pins.buttons[seat])
    pin.drive_low()
    time.sleep(hold_s)
    pin.drive_high()


def wait_for(rt: Table, test: Callable[[dict[str, Any]], bool], timeout_s: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        rt.drain()
        snap = rt.snapshot()
        if test(snap):
            return snap
        if time.monotonic() > deadline:
            raise AssertionError(f"the table never got there; last: {snap.get('last')}")
        time.sleep(0.02)


def leds(factory: MockFactory, rt: Table) -> list[bool]:
    return [bool(factory.pin(p).state) for p in rt.pins.leds[:2]]


def test_leds_show_whose_turn_and_a_short_press_takes_the_corridor(
    table: Table, factory: MockFactory, said: list[str]
) -> None:
    snap = start_search(table)
    view = snap["view"]
    assert snap["game"] == "search" and view["turn"] == 0
    assert leds(factory, table) == [True, False]
    # right after the start the corridor is forced: one press is the whole move
    assert len(view["legal"]) == 1 and view["legal"][0]["by"] == "corridor"
    target = view["legal"][0]["room"]
    press(factory, table, 0)
    snap = wait_for(table, lambda s: s["view"]["players"][0]["path"][-1] == target)
    assert snap["view"]["turn"] == 1
    assert leds(factory, table) == [False, True]
    last = table.store.events(snap["game_id"])[-1]
    assert last.body == {"type": "move", "player": 0, "room": target} and last.source == "button"
    assert any("LED 2 (Ben) on" in line for line in said)


def test_a_press_out_of_turn_is_refused_and_changes_nothing(
    table: Table, factory: MockFactory
) -> None:
    snap = start_search(table)
    events = len(table.store.events(snap["game_id"]))
    press(factory, table, 1)
    snap = wait_for(table, lambda s: (s.get("last") or {}).get("kind") == "refused")
    assert snap["last"]["code"] == "not_your_turn"
    assert len(table.store.events(snap["game_id"])) == events
    assert snap["view"]["turn"] == 0 and leds(factory, table)[0] is True


def test_a_long_press_asks_for_a_hint(table: Table, factory: MockFactory,
                                      said: list[str]) -> None:
    snap = start_search(table)
    press(factory, table, 1, hold_s=LONG_S + 0.15)
    snap = wait_for(table, lambda s: s["view"]["hint_asked"] == 1)
    assert table.store.events(snap["game_id"])[-1].body == {"type": "ask_hint", "player": 1}
    assert snap["view"]["turn"] == 0  # asking moves nobody
    table.panel.wait_idle()
    assert any(line.startswith("LED 1 (Ana) flickers") for line in said)  # the seat on turn


@pytest.mark.parametrize("play", ["best", "losing"])
def test_the_end_of_the_game_is_logged_and_shown(table: Table, factory: MockFactory,
                                                 said: list[str], play: str) -> None:
    setup, line = a_winning_game() if play == "best" else a_losing_game()
    snap = start_search(table, setup)
    view = snap["view"]
    while view["phase"] == "play":
        room = line.pop(0)
        move = {"type": "move", "player": view["turn"], "room": room}
        view = table.submit({"action": "event", "event": move})["view"]
    game = next(g for g in table.history() if g["id"] == snap["game_id"])
    assert game["ended"] is not None
    table.panel.wait_idle()
    if view["score"]["win"]:
        assert "LEDs 1, 2 blink: winners" in said
    else:
        assert "all LEDs blink: the game ends without a winner" in said
    assert (play == "best") is view["score"]["win"]


def test_a_long_press_after_the_end_plays_the_same_house_again(
    table: Table, factory: MockFactory
) -> None:
    setup, line = a_losing_game()
    snap = start_search(table, setup)
    for room in line:
        view = snap["view"]
        snap = table.submit({"action": "event", "event": {"type": "move", "player": view["turn"],
                                                          "room": room}})
    assert snap["view"]["phase"] == "over"
    press(factory, table, 1, hold_s=LONG_S + 0.15)
    again = wait_for(table, lambda s: s["game_id"] != snap["game_id"])
    assert again["game"] == "search" and again["view"]["phase"] == "play"
    assert again["view"]["house"]["text"] == snap["view"]["house"]["text"]
    assert [p["path"] for p in again["view"]["players"]] == [[s] for s in setup["starts"]]
    table.panel.wait_idle()  # the end's blinking runs out, then the turn shows
    assert leds(factory, table) == [True, False]
