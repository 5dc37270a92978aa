"""Murdero at the table: the player buttons pass the turn, the LEDs follow, a hand won blinks
the winner's LED and sounds the buzzer, the game's winner blinks on. Through the real Table
on gpiozero's MockFactory pins with a temp SQLite log; plus the pure press hook."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from cardpages_support import buzzer, lit, marks, ons_since, panel_config, press, settle, until
from companion.games.base import Timeline, Winners
from companion.games.murdero import GAME
from companion.table import Table
from companion.store import Store

PLAYERS = ("Ana", "Ben", "Cem")


def hand(winner: str | None, ended_by: str = "case") -> dict[str, Any]:
    """A hand's end: ``winner`` holds a complete red case, nobody else has anything."""
    players = []
    for name in PLAYERS:
        cases = [{"colour": "red", "cards": [1, 2, 3, 4, 5]}] if name == winner else []
        players.append({"name": name, "cases": cases, "held": []})
    return {"players": players, "ended_by": ended_by}


def big_win(winner: str, names: tuple[str, ...] = PLAYERS) -> dict[str, Any]:
    """Three complete cases and Real Estate: 80+ points, so a game ends in two hands."""
    players = []
    for name in names:
        cases = ([{"colour": "red", "cards": [1, 1, 2, 3, 4, 5]}, {"colour": "blue", "cards": [1, 1, 2, 3, 4, 5]},
                  {"colour": "green", "cards": [1, 1, 2, 3, 4, 5]}] if name == winner else [])
        players.append({"name": name, "cases": cases, "held": [],
                        "permanents": ["real_estate"] if name == winner else []})
    return {"players": players, "ended_by": "case"}


# --- the press hook (pure) ----------------------------------------------------------------------


def test_press_next_by_the_player_on_turn_passes_the_turn_left() -> None:
    assert GAME.press is not None
    tl = Timeline.start(GAME, {"players": list(PLAYERS), "first": 1})
    assert GAME.view(tl.state)["turn"] == 1
    assert GAME.press(tl.state, 0, "next") is None  # not on turn: means nothing
    assert GAME.press(tl.state, 1, "claim") is None and GAME.press(tl.state, 1, "quit") is None
    event = GAME.press(tl.state, 1, "next")
    assert event == {"type": "next_turn"}
    tl, effects = tl.push(GAME.decode(event))
    assert GAME.view(tl.state)["turn"] == 2 and [(e.kind, dict(e.data)) for e in effects] == [("turn", {"player": 2})]
    tl, _ = tl.push(GAME.decode(GAME.press(tl.state, 2, "next")))  # type: ignore[arg-type]
    assert GAME.view(tl.state)["turn"] == 0  # round the table


def test_the_deal_passes_left_each_hand_and_the_view_speaks_the_panels_language() -> None:
    tl = Timeline.start(GAME, {"players": list(PLAYERS), "first": "Ben"})
    tl, _ = tl.push(GAME.decode({"type": "next_turn"}))
    tl, effects = tl.push(GAME.decode({"type": "hand_entered", "hand": hand("Cem")}))
    view = GAME.view(tl.state)
    assert view["turn"] == 2  # Ben began hand 1, so Cem begins hand 2
    signals = [dict(e.data) for e in effects if e.kind == "signal"]
    assert signals == [{"seat": 2, "tune": "valid", "blink": True}]
    assert [p["name"] for p in view["players"]] == list(PLAYERS) and view["phase"] == "playing"
    assert [p["total"] for p in view["players"]] == [view["totals"][n] for n in PLAYERS]


def test_game_over_names_the_winners_seat_and_pairs_share_it() -> None:
    tl = Timeline.start(GAME, {"players": list(PLAYERS)})
    effects: tuple[Any, ...] = ()
    while not GAME.view(tl.state)["over"]:
        tl, effects = tl.push(GAME.decode({"type": "hand_entered", "hand": big_win("Ben")}))
    view = GAME.view(tl.state)
    assert view["winner"] == 1 and view["winner_seats"] == [1] and view["turn"] is None
    assert GAME.press is not None and GAME.press(tl.state, 1, "next") is None
    assert view["phase"] == "over"
    assert [e for e in effects if e.kind == "winner"] == [Winners((1,))]
    # Partner Murdero: the pair (1st+3rd) wins together; no single seat
    four = ("Ana", "Ben", "Cem", "Dee")
    tl = Timeline.start(GAME, {"players": list(four), "pairs": True})
    entry = big_win("Ana", four)
    while not GAME.view(tl.state)["over"]:
        tl, effects = tl.push(GAME.decode({"type": "hand_entered", "hand": entry}))
    view = GAME.view(tl.state)
    assert view["winner"] is None and view["winner_seats"] == [0, 2]
    assert [e for e in effects if e.kind == "winner"] == [Winners((0, 2))]


# --- on the real runtime --------------------------------------------------------------------------


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = panel_config(tmp_path, PLAYERS)
    with Store(cfg.section("table")["database"]) as store, Table(cfg, store, pin_factory=factory) as rt:
        rt.submit({"action": "new_game", "game": "murdero",
                   "setup": {"players": list(PLAYERS), "first": 0}})
        yield rt


def test_buttons_pass_the_turn_and_the_leds_follow(table: Table, factory: MockFactory) -> None:
    snap = table.snapshot()
    assert snap["game"] == "murdero" and lit(factory, table, 3) == [True, False, False]
    game = snap["game_id"]
    # Ben is not on turn: his press means nothing, nothing is logged
    press(factory, table.pins.buttons[1])
    settle(table)
    assert table.snapshot()["view"]["turn"] == 0 and table.store.events(game) == []
    mark = marks(factory, table)
    press(factory, table.pins.buttons[0])
    snap = until(table, lambda s: s["view"]["turn"] == 1)
    assert lit(factory, table, 3) == [False, True, False] and snap["players"][1]["on_turn"]
    assert [(e.body, e.source) for e in table.store.events(game)] == [({"type": "next_turn"}, "button")]
    assert table.panel.wait_idle()
    assert ons_since(factory, buzzer(table), mark[buzzer(table)]) > 0  # the turn tune


def test_a_hand_won_blinks_the_winners_led_and_sounds(table: Table, factory: MockFactory) -> None:
    mark = marks(factory, table)
    snap = table.submit({"action": "event", "event": {"type": "hand_entered", "hand": hand("Cem")}})
    assert snap["view"]["turn"] == 1  # the deal passed left: Ben begins the next hand
    cem = table.pins.leds[2]
    until(table, lambda _: ons_since(factory, cem, mark[cem]) >= 2)
    assert table.panel.wait_idle()
    assert ons_since(factory, cem, mark[cem]) >= 2  # Cem's LED blinked
    assert ons_since(factory, table.pins.leds[0], mark[table.pins.leds[0]]) == 0  # Ana's stayed dark
    assert ons_since(factory, buzzer(table), mark[buzzer(table)]) > 0
    assert lit(factory, table, 3) == [False, True, False]  # then the turn shows again


def test_the_game_won_blinks_on_and_the_history_names_the_winner(table: Table, factory: MockFactory) -> None:
    while not table.snapshot()["view"]["over"]:
        table.submit({"action": "event", "event": {"type": "hand_entered", "hand": big_win("Ben")}})
    mark = marks(factory, table)
    ben = table.pins.leds[1]
    until(table, lambda _: len(factory.pin(ben).states) - mark[ben] >= 2)
    assert len(factory.pin(ben).states) - mark[ben] >= 2  # blinks (on, off…) until the next game
    assert table.history()[0]["winner"] == "Ben"
    # presses mean nothing now, except a long one: the same table again
    game = table.snapshot()["game_id"]
    press(factory, table.pins.buttons[1])
    settle(table)
    assert table.snapshot()["game_id"] == game
    press(factory, table.pins.buttons[0], 0.3)
    snap = until(table, lambda s: s["game_id"] != game)
    assert snap["game"] == "murdero" and snap["view"]["turn"] == 1  # the winner begins


def test_a_pair_wins_together_on_the_panel_and_in_the_history(table: Table, factory: MockFactory) -> None:
    four = ("Ana", "Ben", "Cem", "Dee")
    table.submit({"action": "new_game", "game": "murdero", "setup": {"players": list(four), "pairs": True}})
    while not table.snapshot()["view"]["over"]:
        table.submit({"action": "event", "event": {"type": "hand_entered", "hand": big_win("Ben", four)}})
    view = table.snapshot()["view"]
    assert view["winner_seats"] == [1, 3] and view["winner"] is None
    mark = marks(factory, table)
    leds = table.pins.leds
    until(table, lambda _: all(len(factory.pin(leds[i]).states) - mark[leds[i]] >= 2 for i in (1, 3)))
    # the pair's LEDs keep blinking (on and off again), the others stay dark
    switched = [len(factory.pin(p).states) - mark[p] for p in leds]
    assert [n >= 2 for n in switched] == [False, True, False, True]
    assert [ons_since(factory, leds[i], mark[leds[i]]) for i in (0, 2)] == [0, 0]
    assert table.history()[0]["winner"] == "Ben & Dee"
