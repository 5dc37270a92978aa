"""The table loop on real parts: a temp SQLite log, gpiozero's MockFactory, a replay camera."""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.errors import InputError
from companion.games.base import Refused
from companion.games.readings import GridReading
from companion.table import Busy, Table
from companion.store import Store
from vision.sources import ReplaySource

BLANK = "." * 36


def cells(**tiles: str) -> str:
    """A reading with some cells set: cells(c0_0="M", c2_3="?")."""
    out = list(BLANK)
    for key, ch in tiles.items():
        r, c = (int(x) for x in key[1:].split("_"))
        out[r * 6 + c] = ch
    return "".join(out)


def make_config(tmp_path: Path, **camera: object) -> config_mod.Config:
    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben", "Cem"],
                      advisor=False, reminder_s=0.0)
    cfg = cfg.replace("hardware", long_press_s=0.2, double_press_s=0.1, bounce_s=0.0)
    cfg = cfg.replace("vision", stable_frames=2)
    if camera:
        cfg = cfg.replace("camera", **camera)
    return cfg


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory) -> Iterator[Table]:
    cfg = make_config(tmp_path)
    with Store(cfg.section("table")["database"]) as store, Table(cfg, store, pin_factory=factory) as rt:
        yield rt


def see(rt: Table, reading: str, times: int = 2) -> dict[str, object]:
    for _ in range(times):
        rt.post_reading(GridReading(reading))
    rt.drain()
    return rt.snapshot()


def test_a_stable_reading_becomes_an_event_and_the_log_keeps_it(table: Table, factory: MockFactory) -> None:
    snap = table.snapshot()
    assert snap["game"] == "moerder" and [p["name"] for p in snap["players"]] == ["Ana", "Ben", "Cem"]
    table.post_reading(GridReading(cells(c0_0="M")))  # seen once: not believed yet
    table.drain()
    assert table.snapshot()["view"]["cells"][0][0] is None
    snap = see(table, cells(c0_0="M"), times=1)
    assert snap["view"]["cells"][0][0] == "M"
    assert [e.body for e in table.store.events(snap["game_id"])] == [
        {"type": "turn_tile", "cell": [0, 0], "tile": "M"}
    ]
    assert table.store.events(snap["game_id"])[0].source == "camera"


def test_a_hand_over_the_table_is_not_read(table: Table) -> None:
    table.post_reading(GridReading(cells(c0_0="M")))
    table.post_reading(GridReading(cells(c0_0="R"), still=False))
    table.post_reading(GridReading(cells(c0_0="M")))
    table.drain()
    assert table.snapshot()["view"]["cells"][0][0] is None


def test_buttons_drive_the_turn_and_leds_follow(table: Table, factory: MockFactory) -> None:
    see(table, cells(c1_1="E"))
    leds = [factory.pin(p) for p in table.pins.leds]
    assert [led.state for led in leds[:3]] == [True, False, False]
    button = factory.pin(table.pins.buttons[0])
    button.drive_low()
    time.sleep(0.03)
    button.drive_high()
    deadline = time.monotonic() + 5
    while table.snapshot()["view"]["turn"] != 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    snap = table.snapshot()
    assert snap["view"]["turn"] == 1 and snap["players"][1]["on_turn"]
    assert [led.state for led in leds[:3]] == [False, True, False]
    assert table.store.events(snap["game_id"])[-1].source == "button"


def test_unsure_cells_ask_the_table_instead_of_guessing(table: Table, factory: MockFactory) -> None:
    buzzer = factory.pin(table.pins.buzzer)
    snap = see(table, cells(c2_3="?"))
    prompt = snap["prompt"]
    assert prompt is not None and prompt["kind"] == "unsure" and prompt["cells"] == [[2, 3]]
    assert table.store.events(snap["game_id"]) == []
    assert snap["panel"]["status"] == "prompt"
    assert table.panel.wait_idle()
    assert any(s.state for s in buzzer.states)  # the buzzer asked
    # a phone answers: the tile is turned with the answer, durably, and the prompt goes
    snap = table.submit({"action": "resolve", "cells": {"2,3": "D"}})
    assert snap["prompt"] is None and snap["view"]["cells"][2][3] == "D"
    assert table.store.events(snap["game_id"])[-1].source == "web"
    # the camera still cannot tell: people have answered, so it does not ask again
    assert see(table, cells(c2_3="?"))["prompt"] is None
    # but a new doubt elsewhere is asked about
    assert see(table, cells(c2_3="?", c4_4="?"))["prompt"]["cells"] == [[4, 4]]


def test_a_confident_misread_corrected_on_the_phone_stays_corrected(table: Table) -> None:
    snap = see(table, cells(c2_2="X"))  # an E the camera takes for the victim
    assert snap["view"]["pending"]
    snap = table.submit({"action": "correct", "cell": [2, 2], "tile": "E"})
    assert snap["view"]["cells"][2][2] == "E" and not snap["view"]["pending"]
    snap = see(table, cells(c2_2="X"))  # the camera keeps its mistake
    assert snap["prompt"] is None and snap["view"]["cells"][2][2] == "E"
    snap = see(table, cells(c2_2="E"))  # and later sees it right
    assert snap["prompt"] is None and snap["view"]["cells"][2][2] == "E"
    snap = see(table, cells(c2_2="R"))  # a new disagreement is asked about again
    assert snap["prompt"]["code"] == "reading_differs"


def test_a_clearer_reading_settles_the_prompt(table: Table) -> None:
    assert see(table, cells(c2_3="?"))["prompt"] is not None
    snap = see(table, cells(c2_3="R"))
    assert snap["prompt"] is None and snap["view"]["cells"][2][3] == "R"


def test_an_impossible_reading_is_asked_about_not_applied(table: Table) -> None:
    # seven Ms over seven turns, then an eighth is seen
    board = list(BLANK)
    for i in range(7):
        board[i] = "M"
        see(table, "".join(board))
        table.submit({"action": "next"})
    board[7] = "M"
    snap = see(table, "".join(board))
    assert snap["prompt"]["kind"] == "impossible" and snap["prompt"]["code"] == "impossible_reading"
    assert snap["prompt"]["cells"] == [[1, 1]]
    assert snap["view"]["cells"][1][1] is None
    assert snap["last"]["code"] == "impossible_reading"
    # the table takes the tile back: the prompt goes
    board[7] = "."
    assert see(table, "".join(board))["prompt"] is None


def test_a_reading_against_the_board_is_asked_about(table: Table) -> None:
    see(table, cells(c0_0="M"))
    snap = see(table, cells(c0_0="R"))
    assert snap["prompt"]["code"] == "reading_differs" and snap["prompt"]["cells"] == [[0, 0]]
    snap = table.submit({"action": "correct", "cell": [0, 0], "tile": "R"})
    assert snap["view"]["cells"][0][0] == "R"


def test_phone_actions_errors_and_undo(table: Table) -> None:
    with pytest.raises(InputError, match="unknown action"):
        table.submit({"action": "dance"})
    with pytest.raises(InputError):
        table.submit({"nothing": 1})  # type: ignore[dict-item]
    with pytest.raises(Refused) as info:
        table.submit({"action": "next"})  # no tile turned yet
    assert info.value.code == "tile_not_turned"
    assert table.snapshot()["last"]["code"] == "tile_not_turned"
    see(table, cells(c0_0="M"))
    snap = table.submit({"action": "undo"})
    assert snap["view"]["cells"][0][0] is None and not snap["can_undo"]
    assert [e.body["type"] for e in table.store.events(snap["game_id"])] == ["turn_tile", "undo"]


def test_new_game_ends_the_old_one_in_the_history(table: Table) -> None:
    old = table.snapshot()["game_id"]
    snap = table.submit({"action": "new_game", "game": "moerder",
                         "setup": {"players": ["Ana", "Ben"], "first": 1}})
    assert snap["game_id"] != old and snap["view"]["turn"] == 1
    hist = table.history()
    assert [h["id"] for h in hist[:2]] == [snap["game_id"], old]
    assert hist[1]["in_progress"] is False
    assert table.export(old)["id"] == old
    with pytest.raises(InputError, match="players"):
        table.submit({"action": "new_game", "game": "moerder", "setup": {"players": ["Solo"]}})


def test_a_restart_folds_the_game_back(tmp_path: Path, factory: MockFactory) -> None:
    cfg = make_config(tmp_path)
    db = cfg.section("table")["database"]
    with Store(db) as store, Table(cfg, store, pin_factory=factory) as rt:
        see(rt, cells(c0_0="M"))
        rt.submit({"action": "next"})
        see(rt, cells(c0_0="M", c5_5="E"))
        before = rt.snapshot()
    factory.reset()
    with Store(db) as store, Table(cfg, store, pin_factory=factory) as rt:
        after = rt.snapshot()
    assert after["game_id"] == before["game_id"]
    assert after["view"] == before["view"]


def test_live_streams_are_bounded(table: Table) -> None:
    n = table.config.section("web")["max_streams"]
    with pytest.MonkeyPatch.context():
        subs = [table.subscribe() for _ in range(n)]
        entered = [s.__enter__() for s in subs]
        with pytest.raises(Busy):
            table.subscribe()
        with pytest.raises(Busy):
            table.frames()
        version = table.snapshot()["version"]
        table.submit({"action": "settings", "advisor": False})
        msg = entered[0].get(timeout=5)
        assert msg is not None and msg["version"] > version
        subs[0].__exit__(None, None, None)
        with table.subscribe() as again:
            assert again.get(timeout=0.01) is None
        for s in subs[1:]:
            s.__exit__(None, None, None)


def _frames(folder: Path, n: int = 3) -> None:
    folder.mkdir(exist_ok=True)
    for i in range(n):
        cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((48, 64, 3), 40 * i, np.uint8))


def test_camera_lost_keeps_the_table_running_and_reconnects(tmp_path: Path, factory: MockFactory) -> None:
    folder = tmp_path / "cam"
    _frames(folder)
    cfg = make_config(tmp_path, source="replay", device=str(folder), loop=True, fps=50.0,
                      reconnect_min_s=0.05, reconnect_max_s=0.2)
    source = ReplaySource(folder, fps=50.0, loop=True)

    def empty_table(image: np.ndarray) -> GridReading:
        return GridReading(BLANK)  # every tile face down: what the first frames show

    def wait_for(status: str) -> dict[str, object]:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            snap = rt.snapshot()
            if snap["camera"]["status"] == status:
                return snap
            time.sleep(0.02)
        raise AssertionError(f"camera never became {status}: {rt.snapshot()['camera']}")

    with Store(tmp_path / "log.sqlite") as store, Table(
        cfg, store, source=source, reader=empty_table, pin_factory=factory
    ) as rt:
        wait_for("ok")
        hidden = tmp_path / "unplugged"
        shutil.move(str(folder), str(hidden))  # the camera goes away
        snap = wait_for("lost")
        assert snap["panel"]["status"] == "camera_lost" and snap["camera"]["message"]
        # the table still takes actions while the camera is gone
        assert rt.submit({"action": "settings", "advisor": False})["camera"]["status"] == "lost"
        status_led = factory.pin(rt.pins.status_led)
        status_led.clear_states()
        _until_pins(lambda: len({s.state for s in status_led.states[-2:]}) == 2)  # it blinks
        shutil.move(str(hidden), str(folder))  # plugged back in
        snap = wait_for("ok")
        assert snap["panel"]["status"] == "ok" and status_led.state is True


def _hold(factory: MockFactory, gpio: int, seconds: float) -> None:
    """A finger on the button for ``seconds`` (the gesture is told apart by how long)."""
    pin = factory.pin(gpio)
    pin.drive_low()
    time.sleep(seconds)
    pin.drive_high()


def _until(rt: Table, check: object, timeout: float = 5.0) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = rt.snapshot()
        if check(snap):  # type: ignore[operator]
            return snap
        time.sleep(0.01)
    raise AssertionError(f"condition not reached: {rt.snapshot()['view']}")


def test_a_long_press_claim_wins_and_another_starts_the_next_game(table: Table, factory: MockFactory) -> None:
    word = "MÖRDER"
    seen = list(BLANK)
    for i, ch in enumerate(word):
        seen[i] = ch
        see(table, "".join(seen))
        if i < len(word) - 1:
            table.submit({"action": "next"})
    on_turn = table.snapshot()["view"]["turn"]
    _hold(factory, table.pins.buttons[on_turn], 0.35)
    snap = _until(table, lambda s: s["view"]["phase"] == "over")
    assert snap["view"]["winner"] == on_turn and snap["view"]["chain"] == [[0, c] for c in range(6)]
    assert table.history()[0]["winner"] == snap["players"][on_turn]["name"]
    winner_led = factory.pin(table.pins.leds[on_turn])
    _until_pins(lambda: [s.state for s in winner_led.states].count(True) >= 2)  # it blinks
    old = snap["game_id"]
    _hold(factory, table.pins.buttons[(on_turn + 1) % 3], 0.35)
    snap = _until(table, lambda s: s["game_id"] != old)
    assert snap["view"]["phase"] == "playing" and snap["view"]["turn"] == on_turn  # winner starts


def test_a_claim_without_a_chain_is_refused_on_the_panel(table: Table, factory: MockFactory) -> None:
    see(table, cells(c0_0="M"))
    buzzer = factory.pin(table.pins.buzzer)
    _hold(factory, table.pins.buttons[0], 0.35)
    snap = _until(table, lambda s: (s["last"] or {}).get("code") == "claim_invalid")
    assert snap["view"]["phase"] == "playing" and snap["view"]["winner"] is None
    assert table.panel.wait_idle()
    assert any(s.state for s in buzzer.states)


def test_the_advisor_fills_its_figures_off_the_table_thread(tmp_path: Path, factory: MockFactory) -> None:
    cfg = make_config(tmp_path).replace("table", advisor=True)
    with Store(tmp_path / "log.sqlite") as store, Table(cfg, store, pin_factory=factory) as rt:
        see(rt, cells(c0_0="M", c0_1="Ö"))
        snap = _until(rt, lambda s: s["advisor"].get("p_end") is not None, timeout=20)
        adv = snap["advisor"]
        assert adv["enabled"] and adv["possible"] is True and 0.0 < adv["p_end"] <= 1.0
        assert adv["p_end_se"] >= 0.0
        snap = rt.submit({"action": "settings", "advisor": False})
        assert snap["advisor"]["enabled"] is False


def test_a_camera_gone_silent_is_signalled(tmp_path: Path, factory: MockFactory) -> None:
    from vision.sources import SessionWriter

    # frames for 3 s (a watcher who subscribes late still gets one), then none for a minute
    with SessionWriter(tmp_path / "slow") as w:
        for i in range(13):
            w.add(np.zeros((48, 64, 3), np.uint8), 0.25 * i)
        w.add(np.zeros((48, 64, 3), np.uint8), 60.0)
    cfg = make_config(tmp_path, read_timeout_s=1.0)
    with Store(tmp_path / "log.sqlite") as store, Table(
        cfg, store, source=ReplaySource(tmp_path / "slow"),
        reader=lambda image: GridReading(BLANK), pin_factory=factory,
    ) as rt:
        stream = rt.frames()  # someone watches: frames are encoded
        assert next(stream).startswith(b"\xff\xd8")
        snap = _until(rt, lambda s: s["camera"]["status"] == "lost", timeout=20.0)
        assert "no frame" in snap["camera"]["message"] and snap["panel"]["status"] == "camera_lost"
        # the last picture is stale now: nobody is shown it as the table as it is
        with pytest.raises(StopIteration):
            next(rt.frames())
        stream.close()
        import web
        from companion.store import hash_pin
        from web_support import PIN

        store.set_setting("pin_hash", hash_pin(PIN, rounds=1000))
        still = web.create_app(rt, {}).test_client().get("/api/camera.jpg", headers={"X-Companion-Pin": PIN})
        assert still.status_code == 503 and still.get_json()["error"] == "camera_lost"


def test_frames_stream_jpegs_and_free_their_slot(tmp_path: Path, factory: MockFactory) -> None:
    folder = tmp_path / "cam"
    _frames(folder)
    cfg = make_config(tmp_path)
    with Store(tmp_path / "log.sqlite") as store, Table(
        cfg, store, source=ReplaySource(folder, fps=20.0, loop=True),
        reader=lambda image: GridReading(BLANK, corners=((1, 1), (60, 1), (60, 40), (1, 40))),
        pin_factory=factory,
    ) as rt:
        stream = rt.frames()
        first, second = next(stream), next(stream)
        assert first.startswith(b"\xff\xd8") and second.startswith(b"\xff\xd8")
        image = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
        assert image.shape[:2] == (48, 64)
        assert tuple(int(v) for v in image[1, 30]) != (0, 0, 0)  # the grid outline is drawn
        n = cfg.section("web")["max_streams"]
        held = [rt.subscribe() for _ in range(n - 1)]
        for h in held:
            h.__enter__()
        with pytest.raises(Busy):
            rt.subscribe()
        stream.close()  # a phone leaves: its slot is free again
        with rt.subscribe():
            pass
        for h in held:
            h.__exit__(None, None, None)


def test_answering_a_prompt_turns_the_victim_first_and_is_all_or_nothing(table: Table) -> None:
    # the camera cannot read the victim nor two of its neighbours
    snap = see(table, cells(c3_3="?", c2_2="?", c4_4="?"))
    assert sorted(snap["prompt"]["cells"]) == [[2, 2], [3, 3], [4, 4]]
    snap = table.submit({"action": "resolve", "cells": {"2,2": "M", "3,3": "X", "4,4": "E"}})
    assert snap["view"]["cells"][3][3] == "X" and snap["view"]["cells"][2][2] == "M"
    assert len(snap["view"]["pending"]) == 6
    events = len(table.store.events(snap["game_id"]))
    # an answer the rules refuse logs nothing at all
    with pytest.raises(Refused):
        table.submit({"action": "resolve", "cells": {"2,3": "R", "0,0": "D"}})
    assert len(table.store.events(snap["game_id"])) == events


def test_a_short_press_off_turn_means_nothing(table: Table, factory: MockFactory,
                                               caplog: pytest.LogCaptureFixture) -> None:
    see(table, cells(c0_0="M"))
    before = table.snapshot()
    button = factory.pin(table.pins.buttons[2])  # Cem, not on turn
    with caplog.at_level(logging.DEBUG, logger="companion.table"):
        button.drive_low()
        time.sleep(0.03)  # as long as a finger presses it
        button.drive_high()
        _until_pins(lambda: "seat 2 next means nothing now" in caplog.text)
    after = table.snapshot()
    assert after["view"] == before["view"] and after["last"] == before["last"]
    assert len(table.store.events(after["game_id"])) == 1


def test_the_typed_effects_and_the_table_view_reach_the_panel(table: Table, factory: MockFactory) -> None:
    from companion.games.base import Cue, Signal, TableView, Winners
    from companion.table import signals

    table.submit({"action": "new_game", "game": "kniffel",
                  "setup": {"players": ["Ana", "Ben", "Cem"]}})
    table.drain()  # the table thread is idle: show effects as it would
    buzzer = factory.pin(table.pins.buzzer)
    leds = [factory.pin(p) for p in table.pins.leds]
    signals.sound(table.panel, [Signal(Cue.ALARM, seat=1, blink=True)])
    assert table.panel.wait_idle()
    assert [s.state for s in leds[1].states].count(True) >= 3  # seat 2 blinked
    assert any(s.state for s in buzzer.states)
    signals.sound(table.panel, [Winners((0, 2))])
    signals.steady(table.panel, TableView(("Ana", "Ben", "Cem"), None, over=True, winners=(0, 2)),
                   camera_lost=False, asking=False)
    _until_pins(lambda: [s.state for s in leds[0].states].count(True) >= 1
                and [s.state for s in leds[2].states].count(True) >= 1)
    assert leds[1].state is False


def _until_pins(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the pins never showed it"
        time.sleep(0.01)


def test_a_frames_stream_ends_when_the_camera_goes_away(tmp_path: Path, factory: MockFactory) -> None:
    folder = tmp_path / "cam"
    _frames(folder)
    cfg = make_config(tmp_path, read_timeout_s=0.5)
    with Store(tmp_path / "log.sqlite") as store, Table(
        cfg, store, source=ReplaySource(folder, fps=20.0, loop=True),
        reader=lambda image: GridReading(cells(c0_0="?")), pin_factory=factory,
    ) as rt:
        stream = rt.frames()
        assert next(stream).startswith(b"\xff\xd8")
        _until(rt, lambda s: s["prompt"] is not None)  # the camera asks about (0,0)
        rt.detach_camera("unplugged")
        snap = _until(rt, lambda s: s["camera"]["status"] == "none")
        assert snap["prompt"] is None  # nobody could ever settle it now
        import threading

        drained = threading.Thread(target=lambda: list(stream), daemon=True)
        drained.start()  # what was left, then the stream must end on its own
        drained.join(timeout=10)
        assert not drained.is_alive()
        n = cfg.section("web")["max_streams"]
        subs = [rt.subscribe() for _ in range(n)]  # every slot is free again
        for sub in subs:
            sub.__enter__()
            sub.__exit__(None, None, None)


def test_a_log_whose_last_event_won_is_resumed_as_a_finished_game(
    tmp_path: Path, factory: MockFactory,
) -> None:
    """An older log, killed between the winning event and the end's record: the fold shows the
    game won, and the table records it so (never as abandoned) before it starts the next."""
    cfg = make_config(tmp_path)
    with Store(tmp_path / "log.sqlite") as store:
        gid = store.new_game("moerder", "Finde den Mörder", {"players": ["Ana", "Ben"]},
                             [("Ana", "red"), ("Ben", "blue")])
        for col, tile in enumerate("MÖRDER"):
            store.append(gid, {"type": "turn_tile", "cell": [0, col], "tile": tile}, "camera")
            if col < 5:
                store.append(gid, {"type": "next"}, "button")
        store.append(gid, {"type": "claim", "player": 1}, "button")  # no end recorded
        assert store.game(gid).ended is None
    with Store(tmp_path / "log.sqlite") as store, Table(cfg, store, pin_factory=factory) as rt:
        game = store.game(gid)
        assert game.ended is not None and game.result == {"winner": "Ben", "reason": "found"}
        assert rt.snapshot()["game_id"] == gid and rt.snapshot()["table"]["over"]


def test_only_an_answer_settles_the_cameras_question(table: Table) -> None:
    see(table, cells(c0_0="M"))
    snap = see(table, cells(c0_0="M", c3_3="?"))
    assert snap["prompt"] is not None and snap["prompt"]["cells"] == [[3, 3]]
    snap = table.submit({"action": "next"})  # play goes on; the question is not answered
    assert snap["prompt"] is not None
    snap = see(table, cells(c0_0="M", c3_3="?"))
    assert snap["prompt"] is not None and snap["prompt"]["cells"] == [[3, 3]]
    snap = table.submit({"action": "resolve", "cells": {"3,3": "E"}})
    assert snap["prompt"] is None and snap["view"]["cells"][3][3] == "E"
