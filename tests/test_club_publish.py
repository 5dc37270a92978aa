"""A table in a club, against Debian's real Mosquitto: every committed event reaches the broker
once and in order (QoS 1), the retained state follows the game, the log's mark survives a
restart, a broker outage loses and doubles nothing on the board, and the table plays on while
the broker is away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.club import ClubPublisher, ClubSettings
from companion.club.publisher import MARK
from companion.store import Store
from mqtt_support import Broker, Listener, running_broker, table_password, wait_until
from web.board.listen import Listener as BoardListener
from web.board.model import Board
from web_support import make_table

TABLES = ["t1", "t2"]
MOERDER_WIN = [  # Ana and Ben turn MÖRDER into the first row; Ben turned the R… and claims
    *[step for col, tile in enumerate("MÖRDER")
      for step in ([{"type": "turn_tile", "cell": [0, col], "tile": tile}]
                   + ([{"type": "next"}] if col < 5 else []))],
    {"type": "claim", "player": 1},
]


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    with running_broker(tmp_path / "broker", TABLES) as b:
        yield b


def settings(broker: Broker, table: str = "t1", **kw: Any) -> ClubSettings:
    made = ClubSettings.from_section({"broker": broker.url, "table": table,
                                      "password": table_password(table), "reconnect_max_s": 1.0,
                                      **kw})
    assert made is not None
    return made


def new_game(store: Store, players: tuple[str, ...] = ("Ana", "Ben")) -> int:
    return store.new_game("moerder", "Finde den Mörder", {"players": list(players)},
                          [(p, "red") for p in players])


def test_every_event_once_in_order_and_the_state_retained(tmp_path: Path, broker: Broker) -> None:
    listener = Listener(broker)
    with Store(tmp_path / "log.sqlite") as store:
        game = new_game(store)
        publisher = ClubPublisher(settings(broker), store).start()
        try:
            for body in MOERDER_WIN:
                store.append(game, body, "web", end={"winner": "Ben"} if
                             body["type"] == "claim" else None)
            wait_until(lambda: len(listener.of("event")) == len(MOERDER_WIN), what="every event")
            wait_until(lambda: publisher.mark == store.last_row(), what="the mark at the end")
            assert store.setting(MARK) == str(store.last_row())
        finally:
            publisher.close()
    events = listener.of("event")
    assert [e["seq"] for e in events] == list(range(1, len(MOERDER_WIN) + 1))
    assert [e["event"] for e in events] == MOERDER_WIN
    assert {e["table"] for e in events} == {"t1"} and {e["game_id"] for e in events} == {game}
    first, last = events[0]["summary"], events[-1]["summary"]
    assert first["on_turn"] == "Ana" and not first["over"]
    assert last["over"] and last["winners"] == ["Ben"] and last["on_turn"] is None
    assert [p["name"] for p in last["players"]] == ["Ana", "Ben"]
    listener.close()
    # a newcomer gets the retained state at once: the game as it ended, and the goodbye
    late = Listener(broker)
    wait_until(lambda: late.of("state") and late.of("status"), what="the retained messages")
    state = late.of("state")[-1]
    assert state["table"] == "t1" and state["game"]["over"] and state["game"]["seq"] == len(
        MOERDER_WIN)
    assert late.of("status")[-1]["status"] == "offline"
    assert all(retained for _, _, retained in late.messages)
    late.close()


def test_the_mark_survives_a_restart_nothing_is_sent_twice(tmp_path: Path,
                                                           broker: Broker) -> None:
    listener = Listener(broker)
    with Store(tmp_path / "log.sqlite") as store:
        game = new_game(store)
        first = ClubPublisher(settings(broker), store).start()
        for body in MOERDER_WIN[:3]:
            store.append(game, body, "web")
        wait_until(lambda: first.mark == store.last_row(), what="the first three acknowledged")
        first.close()
        for body in MOERDER_WIN[3:6]:  # played while the table's club voice was off
            store.append(game, body, "web")
        second = ClubPublisher(settings(broker), store).start()
        try:
            wait_until(lambda: second.mark == store.last_row(), what="the rest acknowledged")
        finally:
            second.close()
    wait_until(lambda: len(listener.of("event")) >= 6, what="six events")
    assert [e["seq"] for e in listener.of("event")] == [1, 2, 3, 4, 5, 6]
    listener.close()


def test_a_table_joining_a_club_begins_with_its_game_in_progress(tmp_path: Path,
                                                                 broker: Broker) -> None:
    listener = Listener(broker)
    with Store(tmp_path / "log.sqlite") as store:
        old = new_game(store)
        store.append(old, MOERDER_WIN[0], "web")
        store.end_game(old, {"winner": None, "reason": "abandoned"})
        game = new_game(store)
        store.append(game, MOERDER_WIN[0], "web")
        publisher = ClubPublisher(settings(broker), store).start()
        try:
            wait_until(lambda: publisher.mark == store.last_row(), what="the game in progress")
        finally:
            publisher.close()
    # the broker's acknowledgement can come before the listener is handed the event; one
    # publisher's messages arrive in order, so an old game's event would come before this one
    wait_until(lambda: any(e["game_id"] == game for e in listener.of("event")),
               what="the game in progress at the listener")
    assert [(e["game_id"], e["seq"]) for e in listener.of("event")] == [(game, 1)]
    listener.close()


def test_a_broker_outage_loses_and_doubles_nothing_and_the_table_plays_on(
        tmp_path: Path, broker: Broker) -> None:
    board = Board()
    ear = BoardListener(_board_broker(broker), board, "board-outage").start()
    wait_until(lambda: ear.connected, what="the board on the broker")
    with make_table(tmp_path / "table") as table:
        publisher = ClubPublisher(settings(broker), table.store).start()
        try:
            game = table.snapshot()["game_id"]
            for body in MOERDER_WIN[:4]:
                table.submit({"action": "event", "event": body})
            wait_until(lambda: board.counted().get("t1") == 4, what="four events on the board")
            broker.stop()
            wait_until(lambda: publisher.status == "offline", what="the table noticing")
            for body in MOERDER_WIN[4:]:  # the table plays on exactly as without a club
                snap = table.submit({"action": "event", "event": body})
            assert snap["table"]["over"] and snap["table"]["winners"] == [1]
            assert publisher.mark < table.store.last_row()
            broker.start()
            total = len(MOERDER_WIN)
            wait_until(lambda: board.counted().get("t1") == total, timeout=30,
                       what="every event on the board after the outage")
            wait_until(lambda: publisher.mark == table.store.last_row(), what="the mark")
        finally:
            publisher.close()
            ear.close()
    assert board.seqs("t1") == {game: total}  # every seq, none missing
    tables = board.tables()
    assert tables[0]["game"]["over"] and tables[0]["game"]["winners"] == ["Ben"]
    assert board.standings()["moerder"][0] == {"name": "Ben", "games": 1, "wins": 1, "rank": 1}


def test_events_played_while_the_broker_was_down_and_the_table_restarted_arrive_once(
        tmp_path: Path, broker: Broker) -> None:
    broker.stop()
    with Store(tmp_path / "log.sqlite") as store:
        game = new_game(store)
        first = ClubPublisher(settings(broker), store).start()
        for body in MOERDER_WIN[:5]:
            store.append(game, body, "web")
        first.close()  # the table is switched off before the broker came back
        broker.start()
        listener = Listener(broker)
        second = ClubPublisher(settings(broker), store).start()
        try:
            wait_until(lambda: second.mark == store.last_row(), what="the outbox emptied")
        finally:
            second.close()
    wait_until(lambda: len(listener.of("event")) >= 5, what="five events")
    assert [e["seq"] for e in listener.of("event")] == [1, 2, 3, 4, 5]
    listener.close()


def _board_broker(broker: Broker) -> Any:
    from companion.club.settings import parse_broker
    from mqtt_support import BOARD_PASSWORD, BOARD_USER

    return parse_broker(broker.url.replace("//", f"//{BOARD_USER}:{BOARD_PASSWORD}@"))
