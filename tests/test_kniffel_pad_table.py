"""The score pad at the table on real parts: a rendered photo of the companion's printed pad
with handwritten digits goes through the camera's dice reader (which notices the pad beside
the dice and reads it on its own thread) into the table; a number written otherwise than the
entry recorded is shown on the phones and the buzzer plays the reminder (gpiozero's
MockFactory), once; nothing on the record changes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory
from pad_support import DOUBLED_DICE, held_out_digits

from companion import config as config_mod
from companion.games.kniffel.dice import DiceSet
from companion.games.readings import Record
from companion.store import Store
from companion.table import Table
from companion.table.camera import DiceReader


@pytest.fixture
def said() -> list[str]:
    return []


@contextmanager
def _table(tmp_path: Path, factory: MockFactory, said: list[str],
           **setup: Any) -> Iterator[Table]:
    cfg = config_mod.defaults().replace(
        "table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"], game="kniffel",
        setup={"hourglass_s": 600, **setup}, advisor=False, reminder_s=0.0)
    with Store(tmp_path / "log.sqlite") as store, \
            Table(cfg, store, pin_factory=factory, echo=said.append) as rt:
        yield rt


@pytest.fixture
def table(tmp_path: Path, factory: MockFactory, said: list[str]) -> Iterator[Table]:
    with _table(tmp_path, factory, said) as rt:
        yield rt


def _photo(values: dict[tuple[int, str], int], seed: int) -> Any:
    from vision.kniffel_pad import synth
    from vision.kniffel_pad.layout import Layout

    bank = held_out_digits()
    rng = np.random.default_rng(seed)
    return synth.photograph(synth.written(Layout(2, 3), values, bank, rng), rng)


def _look(table: Table, reader: DiceReader, watch: Any, photo: Any) -> dict[str, Any]:
    """The camera's frames of the pad lying still: the table stirred, then at rest."""
    for _ in range(2):
        table.post_reading(reader(photo))
    assert watch.settle()
    for _ in range(3):
        table.post_reading(reader(photo))
    table.drain()
    snap: dict[str, Any] = table.snapshot()
    return snap


def test_a_number_written_otherwise_is_told_with_the_reminder(
    table: Table, factory: MockFactory, said: list[str],
) -> None:
    from vision.kniffel_pad.digits import DigitReader
    from vision.kniffel_pad.watch import PadWatch

    watch = PadWatch(DigitReader.load())
    reader = DiceReader({"min_confidence": 0.6}, pad=watch)
    game = table.game
    assert game is not None
    reader.follow(game.record)  # as the table's camera does
    table.submit({"action": "throw", "dice": "T O R E I C H"})
    snap = table.submit({"action": "enter", "box": "pair_of_words", "words": ["TOR", "EI"]})
    assert snap["view"]["players"][0]["boxes"]["pair_of_words"] == 9
    buzzer = factory.pin(table.pins.buzzer)
    assert table.panel.wait_idle()
    buzzer.clear_states()
    said.clear()

    # Ana wrote 14 in her Wort-Zweier (first game's column); the record says 9
    snap = _look(table, reader, watch, _photo({(0, "pair_of_words"): 14}, seed=1))
    assert snap["seen"]["pad"]["game"] == 0
    assert snap["seen"]["pad"]["findings"] == [{
        "kind": "box", "seat": 0, "player": "Ana", "row": "pair_of_words", "written": 14,
        "expected": 9, "struck": False, "event": None}]
    told = [e for e in snap["last"]["effects"] if e["kind"] == "pad_check"]
    assert told and told[0]["data"]["findings"][0]["written"] == 14
    assert table.panel.wait_idle() and any(s.state for s in buzzer.states)
    assert [line for line in said if line.startswith("buzzer:")] == [
        line for line in said if line.startswith("buzzer: reminder")] != []
    assert snap["view"]["players"][0]["boxes"]["pair_of_words"] == 9  # never overridden
    assert len(table.store.events(snap["game_id"])) == 2

    # the pad nudged and seen again, and the record moved on: read again, not told again
    said.clear()
    table.submit({"action": "throw", "dice": "I C H E S A N"})
    again = _look(table, reader, watch, _photo({(0, "pair_of_words"): 14}, seed=2))
    assert again["seen"]["pad"]["findings"][0]["written"] == 14
    assert not [line for line in said if "reminder" in line]
    assert again["seen"]["dice"] == []  # the pad's printed boxes are not taken for dice


def test_the_pad_is_read_for_the_table_s_own_dice(
    tmp_path: Path, factory: MockFactory, said: list[str],
) -> None:
    """With dice worth twice the default set's, T O R E I C H makes a Chance of 32, which no
    throw of the default set can (29 at most). Ana writes it before entering it: the table
    offers it, read surely. Weighed by the default set's boxes, this 32 is doubted and read
    as an unsure 22 (seed 2), and nothing would be offered."""
    from vision.kniffel_pad.digits import DigitReader
    from vision.kniffel_pad.watch import PadWatch

    photo = _photo({(0, "chance"): 32}, seed=2)
    watch = PadWatch(DigitReader.load())
    reader = DiceReader({"min_confidence": 0.6}, pad=watch)
    with _table(tmp_path, factory, said, dice=DOUBLED_DICE) as table:
        game = table.game
        assert game is not None
        reader.follow(game.record)
        table.submit({"action": "throw", "dice": "T O R E I C H"})
        assert game.record() == Record(game.id, 2, DiceSet.parse(DOUBLED_DICE))
        snap = _look(table, reader, watch, photo)
    (offer,) = snap["seen"]["pad"]["findings"]
    assert (offer["kind"], offer["player"], offer["row"], offer["written"]) == (
        "offer", "Ana", "chance", 32)
    assert offer["event"] == {"type": "pad_entry", "seat": 0, "box": "chance", "score": 32}


def test_a_pad_read_for_another_dice_set_is_read_again() -> None:
    """The next game on the table is played with other dice: the pad lying as it was is read
    again for them, not kept as read for the last game's set."""
    from vision.kniffel_pad.digits import DigitReader
    from vision.kniffel_pad.watch import PadWatch

    photo = _photo({(0, "chance"): 32}, seed=2)
    watch = PadWatch(DigitReader.load(), background=False)
    record = Record(1, 2)
    watch.follow(lambda: record)

    def chance() -> tuple[int | None, float]:
        seen = watch(photo)
        assert seen is not None
        box = next(c for c in seen.columns if (c.player, c.game) == (0, 0)).rows["chance"]
        return box.value, box.confidence

    value, confidence = chance()
    assert value != 32 and confidence < 0.5  # the default set's Chance is 29 at most
    record = Record(2, 1, DiceSet.parse(DOUBLED_DICE))
    value, confidence = chance()
    assert value == 32 and confidence >= 0.9
