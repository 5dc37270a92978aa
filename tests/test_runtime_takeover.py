"""A phone taking the table from the demo: its new game is its own, old frames never reach it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion import demo
from companion.errors import InputError
from companion.games.readings import GridReading
from companion.table import Table
from companion.store import Store
from vision.sources import Frame

TURNED = "M" + "." * 35  # the old game's table: one tile face up


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp_path / "log.sqlite"), players=["Ada", "Bruno"],
                      advisor=False, reminder_s=0.0)
    cfg = cfg.replace("vision", stable_frames=2)
    with Store(cfg.section("table")["database"]) as store, Table(cfg, store, pin_factory=factory) as rt:
        yield rt


class HeldCamera:
    """A camera whose frames all show the old game's table (a face-up M)."""

    name = "held"
    live = False

    def __init__(self) -> None:
        self.closed = threading.Event()
        self.count = 0

    def open(self) -> None:
        self.closed.clear()

    def read(self) -> Frame:
        if self.closed.is_set():
            raise RuntimeError("read after close")
        self.count += 1
        time.sleep(0.01)
        return Frame(np.zeros((4, 4, 3), np.uint8), 0.0, self.count)

    def close(self) -> None:
        self.closed.set()


class GatedReader:
    """Reads every frame as the old table, but only once the gate opens (a slow vision read)."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.inside = threading.Event()

    def __call__(self, image: Any) -> GridReading:
        self.inside.set()
        self.gate.wait(10)
        return GridReading(TURNED)


PHONE_GAME = {"action": "new_game", "game": "moerder", "setup": {"players": ["Ana", "Ben", "Cem"],
                                                                  "first": 1}}


def test_a_frame_of_the_old_game_never_turns_a_tile_in_a_phones_new_game(table: Table) -> None:
    old = table.snapshot()["game_id"]
    camera, reader = HeldCamera(), GatedReader()
    assert table.attach_camera(camera, reader, game_id=old)
    assert reader.inside.wait(5)  # a frame of the old game is being read right now
    snap = table.submit(PHONE_GAME)
    assert snap["game_id"] != old
    reader.gate.set()  # the old frame's reading (and the next ones) arrive after the new game
    assert camera.closed.wait(5)  # the table took the old game's camera off (its thread ended)
    table.drain()
    snap = table.snapshot()
    assert snap["camera"]["status"] == "none"
    assert snap["view"]["cells"][0][0] is None and snap["events"] == 0 and snap["prompt"] is None
    assert table.store.events(snap["game_id"]) == []


def test_a_camera_for_a_game_gone_already_is_not_attached(table: Table) -> None:
    old = table.snapshot()["game_id"]
    table.submit(PHONE_GAME)
    camera = HeldCamera()
    assert not table.attach_camera(camera, GatedReader(), game_id=old)
    assert camera.closed.is_set() and table.snapshot()["camera"]["status"] == "none"


def test_a_new_game_over_a_game_no_longer_in_progress_is_refused(table: Table) -> None:
    old = table.snapshot()["game_id"]
    phone = table.submit(PHONE_GAME)["game_id"]
    with pytest.raises(InputError, match=f"game {phone}"):
        table.submit({"action": "new_game", "game": "moerder", "replaces": old,
                      "setup": {"players": ["Ada", "Bruno"], "first": 0}}, source="demo")
    snap = table.snapshot()
    assert snap["game_id"] == phone and [p["name"] for p in snap["players"]] == ["Ana", "Ben", "Cem"]


def test_the_demos_next_round_leaves_a_phones_game_alone(
    table: Table, factory: MockFactory, tmp_path: Path
) -> None:
    """Between rounds (the director's game over) a phone starts a game: the players sit back."""
    script = demo.play_out(7, players=("Ada", "Bruno"))
    lines: list[str] = []
    director = demo.Director(table, script, tmp_path / "no-session", reader=GatedReader(),
                             factory=factory, speed=10.0, pause_s=0.0, rounds=2, say=lines.append)
    director.game_id = table.snapshot()["game_id"]  # the round it played last
    phone = table.submit(PHONE_GAME)["game_id"]
    director.start()
    try:
        _until_said(lines, "sit back")
        snap = table.snapshot()
        assert snap["game_id"] == phone, lines
        assert [p["name"] for p in snap["players"]] == ["Ana", "Ben", "Cem"]
        assert snap["camera"]["status"] == "none" and director.round == 0
    finally:
        director.close()


def test_a_demo_started_again_on_its_log_carries_on_with_its_round(
    table: Table, factory: MockFactory, tmp_path: Path,
) -> None:
    """Killed mid-round and started again on the same log: the round goes on, not abandoned."""
    script = demo.play_out(7, players=("Ada", "Bruno"))
    first = script.boards[1]  # the script's first turn, as the table recorded it
    for i, tile in enumerate(first.cells):
        if tile is not None:
            table.submit({"action": "turn", "cell": list(divmod(i, 6)), "tile": tile.value},
                         source="demo")
    table.submit({"action": "next"}, source="demo")
    before = table.snapshot()
    lines: list[str] = []
    director = demo.Director(table, script, tmp_path / "no-session", reader=GatedReader(),
                             factory=factory, speed=10.0, pause_s=0.0, rounds=1, say=lines.append)
    director.start()
    try:
        _until_said(lines, "sit down")
        assert f"(game {before['game_id']})" in next(x for x in lines if "sit down" in x)
        assert table.snapshot()["game_id"] == before["game_id"]
        assert table.store.game(before["game_id"]).ended is None  # not abandoned
    finally:
        director.close()


def _until_said(lines: list[str], words: str, timeout: float = 10.0) -> None:
    """Wait until the director has said something with ``words`` in it."""
    deadline = time.monotonic() + timeout
    while not any(words in line for line in lines):
        assert time.monotonic() < deadline, lines
        time.sleep(0.01)


def test_a_phone_that_finished_its_game_keeps_the_table_until_it_gives_it_back(
    table: Table, factory: MockFactory, tmp_path: Path
) -> None:
    """A phone's game over is not the table given back: the players sit back until no phone
    has acted for ``give_back_s``; then the demo's next round starts."""
    script = demo.play_out(7, players=("Ada", "Bruno"))
    director = demo.Director(table, script, tmp_path / "no-session", reader=GatedReader(),
                             factory=factory, speed=10.0, pause_s=0.0, rounds=1,
                             say=lambda line: None, give_back_s=3600.0)
    director.game_id = table.snapshot()["game_id"]
    table.submit({"action": "new_game", "game": "kniffel", "setup": {"players": ["Ana", "Ben"]}})
    boxes = ["two", "three", "four", "five", "six", "pair_of_words", "three_words", "full_house",
             "street", "kniffel", "chance"]
    for box in boxes:  # a quick game: every box struck
        for _ in range(2):
            table.submit({"action": "throw", "dice": "T O R E I C H"})
            table.submit({"action": "zero", "box": box})
    assert table.snapshot()["table"]["over"]
    assert director._phone_plays()  # over, but the phone acted just now
    director.give_back_s = 0.0
    assert not director._phone_plays()  # left alone long enough: the table is the demo's again
