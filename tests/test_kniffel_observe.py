"""The camera's dice at the table: a throw is believed once the dice rest, kept dice are
noticed, dice pushed together to lay a word are not a throw, unsure dice are asked about and
answered on the phone, a fourth throw is refused; and the table's one camera reads dice for
Wort-Kniffel and the grid for Mörder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import Answered, Timeline
from companion.games.kniffel import build_rules
from companion.games.kniffel.events import Throw
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.observe import Memo, observe
from companion.games.readings import DiceReading, DieSeen, GridReading
from companion.table import Table
from companion.table.camera import Readers

RULES = build_rules(Lexicon.from_words(["Tor", "Ei", "ich", "Chor"]))
SIZE = 80.0


def lay(letters: str, shift: dict[int, float] | None = None) -> DiceReading:
    """Seven dice in a row (``?`` unsure); ``shift``: dice moved right by that many edges."""
    moved = shift or {}
    return DiceReading(tuple(
        DieSeen(ch, None, (100 + 150 * i + SIZE * moved.get(i, 0.0), 400.0), SIZE,
                ("H",) if ch == "?" else ())
        for i, ch in enumerate(letters)))


def state(*events: Any) -> Any:
    tl = Timeline.start(RULES, {"players": ["Ana", "Ben"]})
    for e in events:
        tl, _ = tl.push(e)
    return tl.state


def test_seven_dice_at_rest_are_a_throw_once() -> None:
    seen = observe(state(), lay("TOREICH"), None)
    assert seen.events == (Throw("T O R E I C H"),) and seen.prompt is None
    after = state(*seen.events)
    assert str(after.roll) == "T2 O3 R2 E1 I1 C4 H3"  # values from the table's set
    again = observe(after, lay("TOREICH"), seen.memo)
    assert again.events == () and again.prompt is None


def test_laying_a_word_moves_dice_but_is_no_throw() -> None:
    first = observe(state(), lay("TOREICH"), None)
    pushed = lay("TOREICH", {0: 2.0, 1: 1.5, 2: -1.0})
    assert observe(state(*first.events), pushed, first.memo).events == ()


def test_a_reroll_notices_the_kept_dice() -> None:
    first = observe(state(), lay("TOREICH"), None)
    now = state(*first.events)
    # T, O, R stay where they lay; the other four are thrown again
    seen = observe(now, lay("TORSANE", {3: 0.9, 4: 1.2}), first.memo)
    assert seen.events == (Throw("T O R S A N E", kept=(0, 1, 2)),)


def test_fewer_than_seven_dice_are_not_a_throw_yet() -> None:
    seen = observe(state(), lay("TOREIC"), None)
    assert seen.events == () and seen.prompt is None
    assert len(seen.shown["dice"]) == 6


def test_an_unsure_die_is_asked_and_the_answer_is_kept() -> None:
    seen = observe(state(), lay("TOREIC?"), None)
    assert seen.events == () and seen.prompt is not None
    assert seen.prompt.code == "dice_unsure" and seen.prompt.answers == ("throw",)
    assert seen.prompt.to_json()["unsure"] == [6]
    # the phone answered with the whole throw; the camera still sees its "?" and keeps quiet
    answered = state(Throw("T O R E I C H"))
    quiet = observe(answered, lay("TOREIC?"), Answered(seen.memo))
    assert quiet.events == () and quiet.prompt is None and isinstance(quiet.memo, Memo)
    assert observe(answered, lay("TOREIC?"), quiet.memo).prompt is None


def test_a_fourth_throw_is_refused_with_the_rules_reason() -> None:
    three = state(Throw("T O R E I C H"), Throw("I C H E S A N"), Throw("T O R E I C H"))
    seen = observe(three, lay("ICHESAN"), Memo(lay("TOREICH").dice))
    assert seen.events == () and seen.prompt is not None
    assert seen.prompt.refused and seen.prompt.code == "no_rolls_left"


def test_nothing_is_read_once_the_sand_ran_out_or_for_another_kind_of_reading() -> None:
    from companion.games.kniffel.events import TimeUp

    out = state(Throw("T O R E I C H"), TimeUp(turn=0))
    assert observe(out, lay("ICHESAN"), None).events == ()
    assert observe(state(), GridReading("." * 36), None).events == ()


# --- at the table -------------------------------------------------------------------------------


@pytest.fixture()
def table(tmp_path: Path) -> Iterator[Table]:
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion import config as config_mod
    from companion.store import Store

    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp_path / "log.sqlite"), players=["Ana", "Ben"],
                      advisor=False, reminder_s=0.0)
    with Store(tmp_path / "log.sqlite") as store, \
            Table(cfg, store, pin_factory=MockFactory(pin_class=MockPWMPin)) as rt:
        yield rt


def see(rt: Table, reading: Any, times: int = 2) -> dict[str, Any]:
    for _ in range(times):
        rt.post_reading(reading)
    rt.drain()
    snap: dict[str, Any] = rt.snapshot()
    return snap


def test_the_table_takes_a_throw_from_the_camera_and_asks_about_doubts(table: Table) -> None:
    table.submit({"action": "new_game", "game": "kniffel", "setup": {"players": ["Ana", "Ben"]}})
    snap = see(table, lay("TOREICH"))
    assert snap["view"]["roll"] == "T2 O3 R2 E1 I1 C4 H3"
    assert snap["timer"] is not None  # the first throw turned the hourglass
    events = table.store.events(snap["game_id"])
    assert events[-1].body == {"type": "throw", "dice": "T O R E I C H", "kept": []}
    snap = see(table, lay("TORSA?E", {3: 0.9}))
    assert snap["prompt"]["code"] == "dice_unsure" and snap["view"]["rolls"] == 1
    snap = table.submit({"action": "throw", "dice": "T O R S A N E"})
    assert snap["prompt"] is None and snap["view"]["rolls"] == 2
    assert see(table, lay("TORSA?E", {3: 0.9}))["prompt"] is None  # answered: not asked again


def test_one_camera_reads_what_the_game_on_the_table_needs() -> None:
    class Rules:
        def __init__(self, reads: str | None) -> None:
            self.reads = reads

    made: list[str] = []

    def maker(kind: str) -> Any:
        def make() -> Any:
            made.append(kind)
            return lambda image: kind
        return make

    readers = Readers({"grid": maker("grid"), "dice": maker("dice")})
    on_table: list[Any] = [Rules("grid")]
    readers.bind(lambda: on_table[0])
    assert readers(None) == "grid" and readers(None) == "grid"
    on_table[0] = Rules("dice")
    assert readers(None) == "dice"
    on_table[0] = Rules(None)
    assert readers(None) is None
    assert made == ["grid", "dice"]  # each made when first needed
    on_table[0] = Rules("grid")
    assert readers(None) == "grid" and made == ["grid", "dice", "grid"]  # the idle one let go


def test_after_a_restart_the_dice_of_the_throw_the_game_has_are_no_new_throw() -> None:
    thrown = state(Throw("T O R E I C H"))
    seen = observe(thrown, lay("TOREICH", {0: 3.0}), None)
    assert seen.events == () and isinstance(seen.memo, Memo)
    again = observe(thrown, lay("ICHESAN"), seen.memo).events
    assert len(again) == 1 and again[0].dice == "I C H E S A N"


def test_after_an_answer_the_next_throw_is_still_a_throw() -> None:
    asked = observe(state(), lay("TOREIC?"), None)
    answered = state(Throw("T O R E I C H"))
    again = observe(answered, lay("TORSANE", {3: 0.9}), Answered(asked.memo))
    assert len(again.events) == 1 and again.events[0].dice == "T O R S A N E"
    assert again.events[0].kept == (0, 1, 2)  # kept against the dice people answered about
