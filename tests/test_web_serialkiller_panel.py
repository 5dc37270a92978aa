"""Serial Killer at the table: the player on turn's button ends the turn (a long press holds
the Jack or Ace just drawn), LEDs show whose turn, an arrest blinks that player's LED with the
alarm, the winner's LED blinks on. Through the real Table on gpiozero's MockFactory pins with
a temp SQLite log; plus the pure press hook against the engine's legal moves."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from cardpages_support import buzzer, lit, marks, ons_since, panel_config, press, settle, until
from companion.games.base import Timeline
from companion.games.serialkiller import GAME, SKState, legal
from companion.games.serialkiller.view import unseen
from companion.table import Table
from companion.store import Store

PLAYERS = ("Ana", "Ben", "Cem")
EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "serialkiller-game.json"
GESTURES = ("next", "claim", "quit")


# --- the press hook (pure) ----------------------------------------------------------------------


def random_games(seed: int, games: int = 6) -> Iterator[SKState]:
    """Every state of a few games played with random cards and random legal choices."""
    rng = random.Random(seed)
    for _ in range(games):
        tl = Timeline.start(GAME, {"players": list(PLAYERS), "first": rng.randrange(3)})
        for _ in range(400):
            state = tl.state
            yield state
            moves = legal(state)
            if not moves:
                break
            move = rng.choice(moves)
            view = GAME.view(state)
            if move == "draw":
                body: dict[str, Any] = {"type": "draw", "card": rng.choice(unseen(state))}
            elif move == "inform":
                targets = [p["name"] for p in view["players"] if not p["arrested"] and not p["current"]]
                body = {"type": "inform", "target": rng.choice(targets)}
            elif move == "bury" and view["phase"] == "ending":
                graves = [g["number"] for g in view["graves"] if g["open"]]
                body = {"type": "bury", "grave": rng.choice(graves)}
            else:
                body = {"type": move}
            tl, _ = tl.push(GAME.decode(body))


def test_press_means_only_what_the_rules_allow_the_player_on_turn() -> None:
    assert GAME.press is not None
    seen = set()
    for state in random_games(seed=7):
        view = GAME.view(state)
        for seat in range(len(PLAYERS)):
            for gesture in GESTURES:
                body = GAME.press(state, seat, gesture)
                if body is None:
                    continue
                seen.add((gesture, body["type"]))
                assert seat == view["turn"]  # only the player on turn
                assert body["type"] in view["legal"]  # never an event the rules refuse now
                GAME.apply(state, GAME.decode(body))  # and the engine takes it
        if view["turn"] is not None and "end_turn" in view["legal"]:
            assert GAME.press(state, view["turn"], "next") == {"type": "end_turn"}
        if view["turn"] is not None and "hold" in view["legal"]:
            assert GAME.press(state, view["turn"], "claim") == {"type": "hold"}
    assert seen == {("next", "end_turn"), ("claim", "hold")}


def test_effects_name_seats_for_the_panel() -> None:
    tl = Timeline.start(GAME, {"players": list(PLAYERS), "first": 1})
    assert GAME.view(tl.state)["turn"] == 1 and GAME.view(tl.state)["current"] == "Ben"
    for card in ("KS", "2S", "3S", "4S", "5S", "6S"):
        tl, effects = tl.push(GAME.decode({"type": "draw", "card": card}))
        if card == "KS":  # a kill: the killer's seat hears the valid tune, no blink
            assert {"seat": 1, "tune": "valid", "blink": False} in [dict(e.data) for e in effects
                                                                      if e.kind == "signal"]
    tl, effects = tl.push(GAME.decode({"type": "end_turn"}))
    assert [dict(e.data) for e in effects if e.kind == "turn"] == [
        {"player": 2, "name": "Cem", "turn": 2, "draws": 5}]


# --- on the real runtime --------------------------------------------------------------------------


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = panel_config(tmp_path, PLAYERS)
    with Store(cfg.section("table")["database"]) as store, Table(cfg, store, pin_factory=factory) as rt:
        yield rt


def draw(rt: Table, *cards: str) -> dict[str, Any]:
    snap: dict[str, Any] = {}
    for card in cards:
        snap = rt.submit({"action": "event", "event": {"type": "draw", "card": card}})
    return snap


def test_the_player_on_turn_ends_the_turn_with_a_press(table: Table, factory: MockFactory) -> None:
    snap = table.submit({"action": "new_game", "game": "serialkiller",
                         "setup": {"players": list(PLAYERS), "first": 0}})
    game = snap["game_id"]
    assert lit(factory, table, 3) == [True, False, False]
    snap = draw(table, "KS", "2S", "3S", "4S", "5S", "6S")
    assert snap["view"]["phase"] == "ending"
    # not Ben's turn: nothing; a long press by Ana now means nothing either (nothing to hold)
    press(factory, table.pins.buttons[1])
    press(factory, table.pins.buttons[0], 0.3)
    settle(table)
    assert table.snapshot()["view"]["phase"] == "ending"
    mark = marks(factory, table)
    press(factory, table.pins.buttons[0])
    snap = until(table, lambda s: s["view"]["turn"] == 1)
    assert lit(factory, table, 3) == [False, True, False] and snap["players"][1]["on_turn"]
    assert table.store.events(game)[-1].body == {"type": "end_turn"}
    assert table.store.events(game)[-1].source == "button"
    assert table.panel.wait_idle()
    assert ons_since(factory, buzzer(table), mark[buzzer(table)]) > 0  # the turn tune
    # Ben draws a Jack: a long press holds it
    draw(table, "JH")
    assert table.snapshot()["view"]["phase"] == "deciding"
    press(factory, table.pins.buttons[1], 0.3)
    snap = until(table, lambda s: s["view"]["phase"] == "drawing")
    assert snap["view"]["players"][1]["held"] == ["JH"]
    assert table.store.events(game)[-1].body == {"type": "hold"}


def test_an_arrest_blinks_and_sounds_the_winner_blinks_on(table: Table, factory: MockFactory) -> None:
    log = json.loads(EXAMPLE.read_text())
    snap = table.submit({"action": "new_game", "game": "serialkiller", "setup": log["setup"]})
    names = [p["name"] for p in snap["players"]]
    # play the logged game up to the event that arrests someone, then that event
    tl = Timeline.start(GAME, log["setup"])
    for i, event in enumerate(log["events"]):
        tl, effects = tl.push(GAME.decode(event))
        if any(e.kind == "arrested" for e in effects):
            arrest_at = i
            arrested = next(e.data["player"] for e in effects if e.kind == "arrested")
            break
    for event in log["events"][:arrest_at]:
        table.submit({"action": "event", "event": event})
    seat = names.index(arrested)
    mark = marks(factory, table)
    snap = table.submit({"action": "event", "event": log["events"][arrest_at]})
    assert snap["view"]["players"][seat]["arrested"]
    led = table.pins.leds[seat]
    until(table, lambda _: ons_since(factory, led, mark[led]) >= 2)
    assert table.panel.wait_idle(10.0)  # the replayed game queued seconds of tunes
    assert ons_since(factory, led, mark[led]) >= 2  # the arrested player's LED blinked
    assert ons_since(factory, buzzer(table), mark[buzzer(table)]) > 0
    for event in log["events"][arrest_at + 1:]:
        table.submit({"action": "event", "event": event})
    view = table.snapshot()["view"]
    assert view["phase"] == "over"
    winner = view["winner"]
    mark = marks(factory, table)
    led = table.pins.leds[winner]
    until(table, lambda _: len(factory.pin(led).states) - mark[led] >= 2)
    assert len(factory.pin(led).states) - mark[led] >= 2  # blinks (on, off…) until the next game
    assert table.history()[0]["winner"] == names[winner] == view["winner_name"]
    game = table.snapshot()["game_id"]
    press(factory, table.pins.buttons[0], 0.3)  # the same table again
    snap = until(table, lambda s: s["game_id"] != game)
    assert snap["game"] == "serialkiller" and snap["view"]["players"][0]["clues"] == 6


def test_the_tables_export_replays_on_the_command_line(
    table: Table, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    log = json.loads(EXAMPLE.read_text())
    snap = table.submit({"action": "new_game", "game": "serialkiller", "setup": log["setup"]})
    for event in log["events"]:
        snap = table.submit({"action": "event", "event": event})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(table.export(snap["game_id"])))
    assert main(["serialkiller", "replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["winner"] == snap["view"]["winner_name"] and out["final"] == snap["view"]
    # another game's export is a clear error, exit 2
    other = table.export(snap["game_id"]) | {"game": "murdero"}
    path.write_text(json.dumps(other))
    assert main(["serialkiller", "replay", str(path)]) == 2
    assert "not of Serial Killer" in capsys.readouterr().err
