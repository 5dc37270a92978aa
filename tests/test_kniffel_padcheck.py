"""The paper pad held against the record, pure: a number written otherwise than recorded and
a sum added up wrong are told (once, with the reminder tune), unsure reads never; a number the
player on turn wrote in an open box is offered and becomes the entry only by the phone's
confirmation; the column compared is the game in progress."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.games.base import Cue, Effect, Refused, Signal, Timeline
from companion.games.kniffel import build_rules
from companion.games.kniffel.events import Enter, PadEntry, Throw, Zero
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.observe import observe
from companion.games.kniffel.pad import Box
from companion.games.kniffel.padcheck import check_pad, choose_game
from companion.games.kniffel.written import score_fits
from companion.games.readings import DiceReading, PadBoxSeen, PadColumnSeen, PadSeen

RULES = build_rules(Lexicon.from_words(["Tor", "Ei", "ich", "Chor"]))
Rows = Mapping[str, int | str | None]  # a number, "-" struck, "?14" unsure 14, None blank


def state(*events: Any) -> Any:
    tl = Timeline.start(RULES, {"players": ["Ana", "Ben"]})
    for e in events:
        tl, _ = tl.push(e)
    return tl.state


def row(value: int | str | None) -> PadBoxSeen:
    if value == "-":
        return PadBoxSeen(0, struck=True)
    if isinstance(value, str) and value.startswith("?"):
        return PadBoxSeen(int(value[1:]), confidence=0.4)
    assert value is None or isinstance(value, int)
    return PadBoxSeen(value)


def pad(*columns: Rows, games: int = 1, look: int = 0) -> PadSeen:
    """Columns game by game, player by player, as printed (two players)."""
    return PadSeen(2, games, tuple(
        PadColumnSeen(i % 2, i // 2, {k: row(v) for k, v in c.items()})
        for i, c in enumerate(columns)), look)


def seen(p: PadSeen) -> DiceReading:
    return DiceReading((), pad=p)


# Ana wrote TOR EI (T2 O3 R2 E1 I1 = 9) in the word pair; Ben threw and it is his turn
ANA_NINE = (Throw("T O R E I C H"), Enter(Box.PAIR_OF_WORDS, ("TOR", "EI")))
BOX = Box


def test_a_number_written_otherwise_than_recorded_is_told_with_the_reminder() -> None:
    now = state(*ANA_NINE)
    seen_ = observe(now, seen(pad({"pair_of_words": 14}, {})), None)
    (effect, signal) = seen_.effects
    assert isinstance(effect, Effect) and effect.kind == "pad_check"
    assert effect.data["findings"] == [{
        "kind": "box", "seat": 0, "player": "Ana", "row": "pair_of_words", "written": 14,
        "expected": 9, "struck": False, "event": None}]
    assert signal == Signal(Cue.REMINDER)
    assert seen_.shown["pad"]["findings"][0]["expected"] == 9
    assert seen_.events == ()  # never overridden: the record still says 9
    # a strike where a number is recorded is told as 0 written
    struck = check_pad(now, pad({"pair_of_words": "-"}, {}))
    assert [(f.written, f.struck) for f in struck.findings] == [(0, True)]


def test_a_sum_added_up_wrong_is_told_and_a_right_one_is_not() -> None:
    now = state(*ANA_NINE)
    assert check_pad(now, pad({"pair_of_words": 9, "lower": 9, "total": 9}, {})).findings == ()
    wrong = check_pad(now, pad({"pair_of_words": 9, "lower": 9, "total": 19}, {})).findings
    assert [(f.kind, f.row, f.written, f.expected) for f in wrong] == [("sum", "total", 19, 9)]
    # a bonus written without 50 in the upper part
    bonus = check_pad(now, pad({"pair_of_words": 9, "bonus": 35}, {})).findings
    assert [(f.kind, f.row, f.expected) for f in bonus] == [("sum", "bonus", 0)]
    # a box written wrong and the sum of it: told once, as the box
    box = check_pad(now, pad({"pair_of_words": 14, "lower": 14}, {})).findings
    assert [f.kind for f in box] == ["box"]


def test_a_sum_added_up_wrong_and_carried_on_is_told_once_where_it_was_made() -> None:
    """Ana's upper sum says 10 where her upper boxes hold nothing; her total carries the 10
    on (10 + 9): one mistake, told at the upper sum. A total that follows neither the boxes
    nor her own sums is told too."""
    now = state(*ANA_NINE)
    carried = check_pad(now, pad({"pair_of_words": 9, "upper": 10, "lower": 9,
                                  "total": 19}, {})).findings
    assert [(f.row, f.written, f.expected) for f in carried] == [("upper", 10, 0)]
    both = check_pad(now, pad({"pair_of_words": 9, "upper": 10, "lower": 9,
                               "total": 29}, {})).findings
    assert [f.row for f in both] == ["upper", "total"]
    # a bonus written for an upper sum that was added up to 50 wrongly: the sum is told
    bonus = check_pad(now, pad({"pair_of_words": 9, "upper": 50, "bonus": 35, "lower": 9,
                                "total": 94}, {})).findings
    assert [f.row for f in bonus] == ["upper"]


def test_unsure_reads_are_never_held_against_anyone() -> None:
    now = state(*ANA_NINE)
    assert observe(now, seen(pad({"pair_of_words": "?14"}, {})), None).effects == ()
    # a sum over an unsure box is not checked either
    assert check_pad(now, pad({"pair_of_words": "?14", "lower": 30}, {})).findings == ()


def test_a_number_that_may_as_well_be_the_entry_is_not_held_against_anyone() -> None:
    """Ana entered 9; the reader read her pen as 14 surely, but its pen marks may as well be
    the entry (a doubt): a referee who knows the 9 reads it so. A doubt that is not the
    entry changes nothing."""
    now = state(*ANA_NINE)
    may_be_nine = PadBoxSeen(14, doubts=(9, 11))
    others = PadBoxSeen(14, doubts=(11, 74))
    assert check_pad(now, PadSeen(2, 1, (
        PadColumnSeen(0, 0, {"pair_of_words": may_be_nine}),))).findings == ()
    told = check_pad(now, PadSeen(2, 1, (PadColumnSeen(0, 0, {"pair_of_words": others}),)))
    assert [(f.kind, f.written, f.expected) for f in told.findings] == [("box", 14, 9)]
    # a sum that may as well be what the boxes add up to is not told either
    total = PadBoxSeen(19, doubts=(9,))
    assert check_pad(now, PadSeen(2, 1, (PadColumnSeen(0, 0, {
        "pair_of_words": PadBoxSeen(9), "total": total}),))).findings == ()
    # a total that adds up with one box read as one of its doubts is not told again: Ana
    # wrote 11 for her 9 (told, as the box), read 14 that may be 11, and a total of 11
    slip = PadBoxSeen(14, doubts=(11,))
    assert [f.kind for f in check_pad(now, PadSeen(2, 1, (PadColumnSeen(0, 0, {
        "pair_of_words": slip, "total": PadBoxSeen(11)}),))).findings] == ["box"]
    # with no such doubt, the box is told (and the total matches the record: not told)
    assert [f.kind for f in check_pad(now, PadSeen(2, 1, (PadColumnSeen(0, 0, {
        "pair_of_words": others, "total": PadBoxSeen(10)}),))).findings] == ["box", "sum"]
    # and the game whose column may be read as the record is the one compared
    two = PadSeen(2, 2, (PadColumnSeen(0, 0, {"pair_of_words": PadBoxSeen(17)}),
                         PadColumnSeen(0, 1, {"pair_of_words": may_be_nine})))
    assert choose_game(now, two) == 1


def test_a_number_the_column_adds_up_as_the_entry_is_not_held_against_anyone() -> None:
    """Ana entered 9 and wrote it so that it was read 14 surely, with no doubt; but her
    lower sum and total say 9, and do not add up with 14: a referee reads her 9. Where
    they add up with the 14 (she wrote 14 and added it), the box is told."""
    now = state(*ANA_NINE)
    added_nine = {"pair_of_words": 14, "lower": 9, "total": 9}
    assert check_pad(now, pad(added_nine, {})).findings == ()
    added_fourteen = {"pair_of_words": 14, "lower": 14, "total": 14}
    told = check_pad(now, pad(added_fourteen, {})).findings
    assert [(f.kind, f.written, f.expected) for f in told] == [("box", 14, 9)]
    # sums that add up neither way tell the box and the lower sum (the total carries the
    # lower sum on: told once, where it was made)
    neither = check_pad(now, pad({"pair_of_words": 14, "lower": 12, "total": 12}, {})).findings
    assert [(f.kind, f.row) for f in neither] == [("box", "pair_of_words"), ("sum", "lower")]


def test_the_number_the_player_on_turn_wrote_is_offered_and_taken_only_when_confirmed() -> None:
    ben = state(*ANA_NINE, Throw("I C H E S A N"))  # I1 C4 H3 E1 S2 A1 N2
    seen_ = observe(ben, seen(pad({"pair_of_words": 9}, {"three": 8})), None)
    (offer,) = seen_.shown["pad"]["findings"]
    assert offer["kind"] == "offer" and offer["player"] == "Ben" and offer["written"] == 8
    assert offer["event"] == {"type": "pad_entry", "seat": 1, "box": "three", "score": 8}
    assert seen_.events == () and len(seen_.effects) == 1  # shown, no reminder: not a fault
    # the phone confirms: the offered event is the entry, with no words
    tl = Timeline(RULES, (ben,))
    tl, effects = tl.push(RULES.decode(offer["event"]))
    assert tl.state.pads[1][BOX.THREE] == 8 and tl.state.current == 0
    assert tl.state.written[-1].words == ()
    # once taken, the same pad agrees with the record
    assert check_pad(tl.state, pad({"pair_of_words": 9}, {"three": 8})).findings == ()
    # an 8 read as 18 (which no two words of this throw make), its pen may as well say 8:
    # the 8 is offered; with no doubt the throw can make, the 18 is told as unrecorded
    blurred = PadSeen(2, 1, (PadColumnSeen(1, 0, {"three": PadBoxSeen(
        18, doubts=(8, 19))}),))
    (doubt,) = check_pad(ben, blurred).findings
    assert (doubt.kind, doubt.written) == ("offer", 8)
    plain = PadSeen(2, 1, (PadColumnSeen(1, 0, {"three": PadBoxSeen(
        18, doubts=(19,))}),))
    assert [(f.kind, f.written) for f in check_pad(ben, plain).findings] == [("unrecorded", 18)]
    # a strike written in an open box is offered as a zero
    strike = check_pad(ben, pad({}, {"kniffel": "-"})).findings[0]
    assert strike.kind == "offer" and strike.event() == {"type": "zero", "box": "kniffel"}


def test_a_number_the_throw_cannot_make_or_out_of_turn_is_told_not_offered() -> None:
    ben = state(*ANA_NINE, Throw("I C H E S A N"))
    kinds = {(f.seat, f.row): f.kind for f in check_pad(
        ben, pad({"pair_of_words": 9, "chance": 20}, {"three": 40})).findings}
    assert kinds == {(0, "chance"): "unrecorded", (1, "three"): "unrecorded"}
    before_throw = state(*ANA_NINE)
    assert check_pad(before_throw, pad({"pair_of_words": 9}, {"three": 8})).findings[0].kind == (
        "unrecorded")


def test_the_same_finding_is_told_once_and_a_new_one_is_told() -> None:
    now = state(*ANA_NINE)
    first = observe(now, seen(pad({"pair_of_words": 14}, {})), None)
    again = observe(now, seen(pad({"pair_of_words": 14}, {}, look=1)), first.memo)
    assert first.effects and again.effects == ()
    assert again.shown["pad"]["findings"]  # still shown while the pad says so
    gone = observe(now, DiceReading(()), again.memo)  # the pad out of view a moment
    back = observe(now, seen(pad({"pair_of_words": 14}, {}, look=2)), gone.memo)
    assert back.effects == ()
    other = observe(now, seen(pad({"pair_of_words": 14, "total": 40}, {}, look=3)), back.memo)
    (effect, _) = other.effects
    assert isinstance(effect, Effect)
    assert [f["row"] for f in effect.data["findings"]] == ["total"]


def test_the_game_in_progress_is_the_column_compared() -> None:
    now = state(*ANA_NINE)
    full = {k: 5 for k in ("two", "three", "four", "five", "six", "pair_of_words",
                           "three_words", "chance")}
    two_games = pad(full, full, {"pair_of_words": 9}, {}, games=3)
    assert choose_game(now, two_games) == 1
    assert check_pad(now, two_games).findings == ()
    assert choose_game(state(), pad({}, {}, {}, {}, games=2)) == 0  # a fresh pad: its first
    # the first game still empty but a number in it: that is the game being written
    assert choose_game(state(*ANA_NINE), pad({"pair_of_words": 14}, {}, {}, {}, games=2)) == 0


def test_the_rules_take_a_written_number_only_as_the_throw_allows() -> None:
    ben = state(*ANA_NINE, Throw("I C H E S A N"))
    for event, code in ((PadEntry(0, BOX.THREE, 8), "not_your_turn"),
                        (PadEntry(1, BOX.THREE, 40), "score_not_in_throw"),
                        (PadEntry(1, BOX.PAIR_OF_WORDS, 8), None)):
        if code is None:
            RULES.apply(ben, event)
            continue
        with pytest.raises(Refused) as err:
            RULES.apply(ben, event)
        assert err.value.code == code
    with pytest.raises(Refused) as err:
        RULES.apply(state(*ANA_NINE), PadEntry(1, BOX.THREE, 8))
    assert err.value.code == "no_roll"
    roll = ben.roll
    assert score_fits(roll, BOX.CHANCE, roll.total) and not score_fits(roll, BOX.CHANCE, 5)
    assert score_fits(roll, BOX.FULL_HOUSE, 25) and not score_fits(roll, BOX.FULL_HOUSE, 24)
    assert not score_fits(roll, BOX.STREET, 30)  # ICHESAN is not seven vowels
    assert score_fits(roll, BOX.TWO, 2) and score_fits(roll, BOX.SIX, 13)
    assert RULES.apply(ben, Zero(BOX.KNIFFEL)).state.pads[1][BOX.KNIFFEL] == 0
