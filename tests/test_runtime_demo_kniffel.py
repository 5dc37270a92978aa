"""The Wort-Kniffel round of ``companion demo``: rendered throws replayed through the camera
and the real dice reader into a real table; the simulated players answer the camera and write
their entries on the phone, as people would."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.commands import vision_reader
from companion.demo_kniffel import KNIFFEL_PLAYERS, KniffelRound, load_throws, render_session
from companion.store import Store
from companion.table import Table


def test_the_demo_plays_wort_kniffel_turns_through_the_camera(
    tmp_path: Path, factory: MockFactory,
) -> None:
    session = render_session(7, tmp_path / "session", (960, 720), rounds=1)
    throws = load_throws(session)
    assert {t.turn for t in throws} == {0, 1} and all(len(t.roll.split()) == 7 for t in throws)
    cfg = config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=list(KNIFFEL_PLAYERS),
        game="kniffel", advisor=False, reminder_s=0.0)
    lines: list[str] = []
    with Store(tmp_path / "log.sqlite") as store, Table(cfg, store, pin_factory=factory) as rt:
        game = rt.snapshot()["game_id"]
        stop = threading.Event()
        played = KniffelRound(rt, session, vision_reader(cfg.section("vision")), speed=4.0,
                              stop=stop, say=lines.append)
        thread = threading.Thread(target=played.play, args=(game, lambda snap: False))
        thread.start()
        try:
            deadline = time.monotonic() + 180
            while rt.snapshot()["view"]["turn"] < 2:
                assert time.monotonic() < deadline, lines
                time.sleep(0.2)
        finally:
            stop.set()
            thread.join(timeout=30)
        events = rt.store.events(game)
    # every throw came through the camera: read by it, or asked about by it and answered
    read = sum(1 for e in events if (e.source, e.body["type"]) == ("camera", "throw"))
    asked = sum(1 for line in lines if "answers the camera's question" in line)
    assert read + asked == len(throws), lines
    assert sum(1 for e in events if e.body["type"] in ("enter", "zero")) == 2
    # each turn's last throw on the table is the recording's, however the camera first read it
    rolls = [e.body["dice"] for e in events if e.body["type"] in ("throw", "fix_throw")]
    for turn in (0, 1):
        last = max((t for t in throws if t.turn == turn), key=lambda t: t.throw)
        assert last.roll in rolls, (last, rolls)
    assert any("writes the entry" in line for line in lines)
