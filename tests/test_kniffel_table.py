"""Wort-Kniffel as the table plays it: the hourglass button, a corrected throw, kept dice,
the pad's words and the chart, the buttons, the phones' words and the advisor."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import EventError, Refused, Timeline
from companion.games.kniffel import build_rules
from companion.games.kniffel.events import (
    CODEC,
    Enter,
    FixThrow,
    StartHourglass,
    Throw,
    TimeUp,
    Zero,
)
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import Box
from companion.games.kniffel.rules import KniffelState

WORDS = ["Tor", "Ei", "ich", "es", "an", "Chor", "reicht", "Rohheit", "Nische", "Ohr", "Hort"]
RULES = build_rules(Lexicon.from_words(WORDS))
TOREICH = "T2 O3 R2 E1 I1 C4 H3"
ICHESAN = "I1 C4 H3 E1 S2 A1 N2"


def start(**setup: Any) -> Timeline[KniffelState]:
    return Timeline.start(RULES, {"players": ["Ann", "Ben"], **setup})


def push(tl: Timeline[KniffelState], *events: Any) -> Timeline[KniffelState]:
    for e in events:
        tl, _ = tl.push(e)
    return tl


def test_the_button_turns_the_hourglass_before_the_first_throw() -> None:
    tl = start(hourglass_s=45)
    assert RULES.table(tl.state).timer is None
    tl = push(tl, StartHourglass())
    timer = RULES.table(tl.state).timer
    assert timer is not None and timer.seconds == 45 and timer.seat == 0
    with pytest.raises(Refused) as err:
        tl.push(StartHourglass())
    assert err.value.code == "hourglass_running"
    # the first throw keeps the same sand running (same key), the next turn a fresh one
    tl = push(tl, Throw(TOREICH))
    assert RULES.table(tl.state).timer == timer
    tl = push(tl, Zero(Box.SIX))
    assert RULES.table(tl.state).timer is None and not tl.state.started


def test_time_up_after_the_button_leaves_only_a_zero() -> None:
    tl = push(start(), StartHourglass(), TimeUp(turn=0))
    assert RULES.table(tl.state).timer is None
    with pytest.raises(Refused) as err:
        tl.push(Throw(TOREICH))
    assert err.value.code == "time_up"
    tl = push(tl, Zero(Box.KNIFFEL))
    assert tl.state.current == 1


def test_a_corrected_throw_is_the_same_throw() -> None:
    tl = push(start(), Throw(TOREICH))
    tl, effects = tl.push(FixThrow(ICHESAN))
    assert str(tl.state.roll) == ICHESAN and tl.state.rolls == 1
    assert effects[0].kind == "fixed"
    with pytest.raises(Refused) as err:
        tl.push(FixThrow("Q9 Q9 Q9 Q9 Q9 Q9 Q9"))
    assert err.value.code == "impossible_roll"
    with pytest.raises(Refused) as err:
        start().push(FixThrow(TOREICH))
    assert err.value.code == "no_roll"


def test_kept_dice_are_shown_and_must_be_dice_of_the_last_throw() -> None:
    with pytest.raises(Refused) as err:
        start().push(Throw(TOREICH, kept=(0,)))
    assert err.value.code == "bad_dice"
    tl = push(start(), Throw(TOREICH), Throw(TOREICH, kept=(0, 2, 2)))
    assert RULES.view(tl.state)["kept"] == [0, 2]
    with pytest.raises(Refused):
        tl.push(Throw(TOREICH, kept=(7,)))
    assert RULES.view(push(tl, Zero(Box.TWO)).state)["kept"] == []


def test_the_pad_remembers_words_and_the_chart_each_total() -> None:
    tl = push(start(), Throw(TOREICH), Enter(Box.PAIR_OF_WORDS, ("TOR", "EI")),
              Throw(ICHESAN), Zero(Box.SIX), Throw(TOREICH), Enter(Box.CHANCE))
    v = RULES.view(tl.state)
    assert v["players"][0]["words"] == {"pair_of_words": ["Tor", "Ei"], "chance": []}
    assert v["players"][0]["boxes"]["chance"] == 16
    assert v["chart"] == [[9, 25], [0]]
    assert v["throw"] is None and v["round"] == 2 and v["seat"] == 1


def test_the_view_shows_the_throw_as_dice_with_values() -> None:
    v = RULES.view(push(start(), Throw(TOREICH)).state)
    assert v["throw"][0] == {"letter": "T", "value": 2}
    assert v["rolls_left"] == 2 and v["hourglass"] is True
    assert "*" in v["letters"] and "T" in v["letters"]


def test_buttons() -> None:
    tl = start()
    assert RULES.press is not None
    assert RULES.press(tl.state, 0, "next") == {"type": "start_hourglass"}
    with pytest.raises(Refused) as err:
        RULES.press(tl.state, 1, "next")
    assert err.value.code == "not_your_turn"
    assert RULES.press(tl.state, 0, "claim") is None
    assert RULES.press(tl.state, 0, "quit") is None
    assert RULES.press(tl.state, 5, "next") is None


def test_phone_words_become_events() -> None:
    state = push(start(), Throw(TOREICH)).state
    assert RULES.act is not None
    assert RULES.act(state, "throw", {"dice": ICHESAN}) == [{"type": "throw", "dice": ICHESAN}]
    fixed = RULES.act(state, "throw", {"dice": ICHESAN, "fix": True})
    assert CODEC.decode(fixed[0]) == FixThrow(ICHESAN)
    entered = RULES.act(state, "enter", {"box": "pair_of_words", "words": ["TOR", "EI"]})
    assert CODEC.decode(entered[0]) == Enter(Box.PAIR_OF_WORDS, ("TOR", "EI"))
    assert CODEC.decode(RULES.act(state, "zero", {"box": "six"})[0]) == Zero(Box.SIX)
    for word, fields in (("throw", {}), ("enter", {"box": 3}), ("dance", {})):
        with pytest.raises(EventError):
            RULES.act(state, word, fields)


def test_the_advisor_names_the_best_entry_of_every_open_box_and_what_to_keep() -> None:
    advisor = RULES.advisor
    assert advisor is not None
    state = push(start(), Throw(TOREICH)).state
    key = advisor.key(state)
    assert key is not None and advisor.key(push(start(), Throw(ICHESAN)).state) != key
    figures = advisor.advise(state)
    best = {b["box"]: b for b in figures["best"]}
    assert best["pair_of_words"]["score"] >= 9 and len(best["pair_of_words"]["words"]) == 2
    assert best["chance"]["score"] == 16
    assert figures["best"][0]["value"] == max(b["value"] for b in figures["best"])
    keep = figures["keep"]
    assert keep is not None and keep["expected"] >= keep["stand"]
    assert advisor.advise(state) == figures  # the same throw shows the same figures
    assert advisor.key(push(start(), Throw(TOREICH), TimeUp(turn=0)).state) is None
