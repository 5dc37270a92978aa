"""Every game through the same table: at every turn the LED of the seat on turn is the one lit,
and at the end the winners' LEDs blink (gpiozero's MockFactory pins, a real SQLite log).

The seat expected on turn is read from each game's own phone JSON (its own words for whose
turn it is), never from the table's view, so a table that lit the wrong key would fail here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.store import Store
from companion.table import Table

NAMES = ("Ana", "Ben", "Cem")


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=list(NAMES[:2]),
        advisor=False, reminder_s=0.0,
    ).replace("hardware", quiet=True)  # the lights are checked here; the tunes elsewhere
    with Store(tmp_path / "log.sqlite") as store, Table(cfg, store, pin_factory=factory) as rt:
        yield rt


def _until(condition: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(what)
        time.sleep(0.005)


def _lit(factory: MockFactory, rt: Table) -> list[bool]:
    return [bool(factory.pin(p).state) for p in rt.pins.leds]


def _check_turn(factory: MockFactory, rt: Table, seat: int | None, step: str) -> None:
    want = [i == seat for i in range(len(rt.pins.leds))]
    _until(lambda: _lit(factory, rt) == want,
           f"{step}: LEDs {_lit(factory, rt)}, but seat {seat} is on turn")


def _check_winners(factory: MockFactory, rt: Table, winners: Sequence[int]) -> None:
    """The end's pattern, from the pin histories since the last move (``_play`` clears them):
    winners blink on; nobody won: every LED blinks, then all go dark."""
    pins = [factory.pin(p) for p in rt.pins.leds]

    def blinked(i: int) -> bool:
        return sum(1 for s in pins[i].states if s.state) >= 2

    if not winners:
        _until(lambda: all(blinked(i) for i in range(len(pins))), "not every LED blinked")
        assert rt.panel.wait_idle()
        assert not any(p.state for p in pins), "the LEDs did not go dark"
        return
    assert rt.panel.wait_idle()  # the last moment's flashes (an arrest, a claim) are over
    for pin in pins:
        pin.clear_states()
    _until(lambda: all(blinked(i) for i in winners), f"winners {list(winners)} do not blink")
    assert not any(s.state for i in range(len(pins)) if i not in winners for s in pins[i].states)


def _play(rt: Table, factory: MockFactory, game: str, setup: dict[str, Any],
          moves: Iterator[dict[str, Any]] | Sequence[dict[str, Any]],
          seat: Callable[[dict[str, Any]], int | None]) -> dict[str, Any]:
    """Start ``game``, make each move on the phone, and check the lit LED after each."""
    snap = rt.submit({"action": "new_game", "game": game, "setup": setup})
    _check_turn(factory, rt, seat(snap["view"]), f"{game} start")
    for n, move in enumerate(moves):
        for p in rt.pins.leds:
            factory.pin(p).clear_states()  # each move's lights from here on
        snap = rt.submit({"action": "event", "event": move})
        if n < 400 or snap["table"]["over"]:  # long random games: the first 400 moves suffice
            if not snap["table"]["over"]:
                _check_turn(factory, rt, seat(snap["view"]), f"{game} move {n + 1} {move}")
    assert snap["table"]["over"], f"{game} did not end"
    return snap


def test_finde_den_moerder(table: Table, factory: MockFactory) -> None:
    def moves() -> Iterator[dict[str, Any]]:
        for col, tile in enumerate("MÖRDER"):
            yield {"type": "turn_tile", "cell": [0, col], "tile": tile}
            if col < 5:
                yield {"type": "next"}
        yield {"type": "claim", "player": 1}  # the sixth tile was turned by Ben

    snap = _play(table, factory, "moerder", {"players": ["Ana", "Ben"]}, moves(),
                 lambda v: None if v["phase"] == "over" else v["turn"])
    assert snap["view"]["winner"] == 1
    _check_winners(factory, table, [snap["view"]["winner"]])


def test_wort_kniffel(table: Table, factory: MockFactory) -> None:
    boxes = ["chance", "two", "three", "four", "five", "six", "pair_of_words", "three_words",
             "full_house", "street", "kniffel"]

    def moves() -> Iterator[dict[str, Any]]:
        for box in boxes:
            for player in range(2):
                yield {"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}
                if player == 0 and box == "chance":
                    yield {"type": "enter", "box": "chance"}
                else:
                    yield {"type": "zero", "box": box}

    def seat(view: dict[str, Any]) -> int | None:
        names = [p["name"] for p in view["players"]]
        return None if view["finished"] else names.index(view["current"])

    snap = _play(table, factory, "kniffel", {"players": ["Ana", "Ben", "Cem"][:2]}, moves(), seat)
    names = [p["name"] for p in snap["view"]["players"]]
    winners = [names.index(w) for w in snap["view"]["winners"]]
    assert winners == [0]
    _check_winners(factory, table, winners)


def test_murdero(table: Table, factory: MockFactory) -> None:
    def big_win(winner: str) -> dict[str, Any]:
        players = []
        for name in NAMES:
            cases = [{"colour": c, "cards": [1, 1, 2, 3, 4, 5]} for c in ("red", "blue", "green")]
            players.append({"name": name, "cases": cases if name == winner else [], "held": [],
                            "permanents": ["real_estate"] if name == winner else []})
        return {"type": "hand_entered", "hand": {"players": players, "ended_by": "case"}}

    moves = [{"type": "next_turn"}, {"type": "next_turn"}, {"type": "next_turn"}, big_win("Ben")]
    snap = _play(table, factory, "murdero", {"players": list(NAMES)}, moves,
                 lambda v: v["turn"])
    assert snap["view"]["winner_seats"] == [1]
    _check_winners(factory, table, snap["view"]["winner_seats"])


def test_serial_killer(table: Table, factory: MockFactory) -> None:
    from companion.games.serialkiller import GAME
    from companion.games.serialkiller.simulate import play_random

    played = play_random(list(NAMES), random.Random(1))
    moves = [GAME.encode(e) for e in played.events]
    snap = _play(table, factory, "serialkiller", {"players": list(NAMES)}, moves,
                 lambda v: v["turn"])
    assert snap["view"]["winner"] is not None
    _check_winners(factory, table, [snap["view"]["winner"]])


@pytest.mark.parametrize("wins", [True, False])
def test_search(table: Table, factory: MockFactory, wins: bool) -> None:
    from test_web_search_table import a_losing_game, a_winning_game

    setup, line = a_winning_game() if wins else a_losing_game()

    def moves() -> Iterator[dict[str, Any]]:
        view = table.snapshot()["view"]
        for room in line:
            yield {"type": "move", "player": view["turn"], "room": room}
            view = table.snapshot()["view"]

    snap = _play(table, factory, "search", setup, moves(), lambda v: v["turn"])
    assert snap["view"]["score"]["win"] is wins
    _check_winners(factory, table, snap["view"]["winner_seats"])
