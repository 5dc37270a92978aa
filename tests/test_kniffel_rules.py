"""A game of Wort-Kniffel through its events: turns, throws, entries, hourglass, the end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games import find_game
from companion.games.base import EventError, Refused, Timeline, TurnMoved, Undo, Winners, fold
from companion.games.kniffel import GAME, build_rules
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, Box
from companion.games.kniffel.events import CODEC, Enter, KniffelExtra, Throw, TimeUp, Zero
from companion.games.kniffel.rules import KniffelState

WORDS = ["Tor", "Ei", "ich", "es", "an", "Chor", "reicht", "Rohheit", "Nische", "Ohr", "Hort",
         "Abdruck"]
RULES = build_rules(Lexicon.from_words(WORDS))
TOREICH = "T2 O3 R2 E1 I1 C4 H3"
KNIFFEL_ROLL = "A1 B3 D2 R2 U2 C4 K4"  # ABDRUCK, throwable with the default set


def start(players: tuple[str, ...] = ("Ann", "Ben"), **setup: Any) -> Timeline[KniffelState]:
    return Timeline.start(RULES, {"players": list(players), **setup})


def push(tl: Timeline[KniffelState], *events: Any) -> Timeline[KniffelState]:
    for e in events:
        tl, _ = tl.push(e)
    return tl


def test_registry_finds_the_game() -> None:
    assert find_game("kniffel") is GAME
    assert GAME.name == "kniffel"


@pytest.mark.parametrize(
    "setup",
    [{}, {"players": ["Ann"]}, {"players": ["A", "B", "C", "D", "E"]}, {"players": ["A", "A"]},
     {"players": ["A", "B"], "hourglass_s": 0}, {"players": ["A", "B"], "hourglass_s": True},
     {"players": ["A", "B"], "dice": ["A1"]}, {"players": ["A", "B"], "colour": "red"}],
)
def test_bad_setups_are_event_errors(setup: dict[str, Any]) -> None:
    with pytest.raises(EventError):
        RULES.new(setup)


def test_a_turn_enters_a_roll_and_passes_on() -> None:
    tl = start()
    tl, effects = tl.push(Throw(TOREICH))
    assert effects[0].kind == "rolled" and effects[0].data["rolls_left"] == 2
    tl, effects = tl.push(Enter(Box.PAIR_OF_WORDS, ("TOR", "EI")))
    assert tl.state.pads[0][Box.PAIR_OF_WORDS] == 9
    assert [e.kind for e in effects] == ["entered", "turn"]
    assert effects[-1] == TurnMoved(1, {"name": "Ben", "turn": 1, "round": 1, "hourglass_s": 90})
    assert tl.state.current == 1 and tl.state.roll is None and tl.state.rolls == 0


def test_three_throws_at_most() -> None:
    tl = push(start(), Throw(TOREICH), Throw(TOREICH), Throw(TOREICH))
    with pytest.raises(Refused) as err:
        tl.push(Throw(TOREICH))
    assert err.value.code == "no_rolls_left"


def test_entering_needs_a_throw_an_open_box_and_valid_words() -> None:
    tl = start()
    with pytest.raises(Refused) as err:
        tl.push(Enter(Box.CHANCE))
    assert err.value.code == "no_roll"
    tl = push(tl, Throw(TOREICH), Enter(Box.CHANCE), Throw(TOREICH), Enter(Box.CHANCE),
              Throw(TOREICH))
    with pytest.raises(Refused) as err:
        tl.push(Enter(Box.CHANCE))
    assert err.value.code == "box_filled"
    with pytest.raises(Refused) as err:
        tl.push(Enter(Box.FOUR, ("HAUS",)))
    assert err.value.code == "not_a_word"
    with pytest.raises(Refused) as err:
        tl.push(Enter(Box.SIX, ("NISCHE",)))
    assert err.value.code == "cannot_spell"
    assert tl.state.pads[0][Box.CHANCE] == 16


def test_table_can_accept_an_unknown_word() -> None:
    tl = push(start(), Throw(TOREICH))
    with pytest.raises(Refused):
        tl.push(Enter(Box.FOUR, ("ROCH",)))
    tl = push(tl, Enter(Box.FOUR, ("ROCH",), table_ok=True))
    assert tl.state.pads[0][Box.FOUR] == 3 + 2 + 4 + 3


def test_bad_and_impossible_throws_are_refused() -> None:
    tl = start()
    for dice, code in (("T2 O3", "bad_dice"), ("Q9 Q9 Q9 Q9 Q9 Q9 Q9", "impossible_roll")):
        with pytest.raises(Refused) as err:
            tl.push(Throw(dice))
        assert err.value.code == code
    assert tl.state.rolls == 0


def test_hourglass_expiry_forces_a_zero_and_stale_timers_are_refused() -> None:
    tl = push(start(hourglass_s=60), Throw(TOREICH))
    with pytest.raises(Refused) as err:
        tl.push(TimeUp(turn=5))
    assert err.value.code == "stale_timer"
    tl, effects = tl.push(TimeUp(turn=0))
    assert effects[0].kind == "time_up" and tl.state.time_up
    for event in (Throw(TOREICH), Enter(Box.CHANCE)):
        with pytest.raises(Refused) as err:
            tl.push(event)
        assert err.value.code == "time_up"
    tl, effects = tl.push(Zero(Box.KNIFFEL))
    assert tl.state.pads[0][Box.KNIFFEL] == 0
    assert effects[-1].data["hourglass_s"] == 60 and not tl.state.time_up


def test_expiry_before_any_throw_still_ends_the_turn_with_a_zero() -> None:
    tl = push(start(), TimeUp(turn=0), Zero(Box.SIX))
    assert tl.state.pads[0][Box.SIX] == 0 and tl.state.current == 1


def test_nothing_fits_is_announced_when_only_closed_boxes_would_take_the_roll() -> None:
    tl = start()
    # Ann fills chance and many boxes; the effect is about the current player's open boxes
    state = tl.state
    pad = state.pads[0]
    for box in BOXES:
        if box is not Box.KNIFFEL:
            pad = pad.write(box, 0)
    from dataclasses import replace

    tl = Timeline(RULES, (replace(state, pads=(pad, state.pads[1])),))
    tl, effects = tl.push(Throw(TOREICH))
    assert [e.kind for e in effects] == ["rolled", "nothing_fits"]
    tl, effects = tl.push(Throw(KNIFFEL_ROLL))
    assert [e.kind for e in effects] == ["rolled"]


def test_a_full_game_ends_with_totals_and_winners() -> None:
    tl = start(("Ann", "Ben", "Cid"))
    for rnd in range(11):
        for p in range(3):
            box = BOXES[rnd]
            tl = push(tl, Throw(KNIFFEL_ROLL))
            if box is Box.KNIFFEL and p == 0:
                tl, effects = tl.push(Enter(Box.KNIFFEL, ("ABDRUCK",)))
            elif box is Box.CHANCE:
                tl, effects = tl.push(Enter(Box.CHANCE))
            else:
                tl, effects = tl.push(Zero(box))
    assert tl.state.finished
    assert effects[-2].kind == "game_over" and effects[-1] == Winners((0,))
    chance = 1 + 3 + 2 + 2 + 2 + 4 + 4
    assert effects[-2].data["totals"] == {"Ann": 50 + chance, "Ben": chance, "Cid": chance}
    assert effects[-2].data["winners"] == ["Ann"]
    with pytest.raises(Refused) as err:
        tl.push(Throw(KNIFFEL_ROLL))
    assert err.value.code == "game_over"
    view = RULES.view(tl.state)
    assert view["finished"] and view["winners"] == ["Ann"] and view["current"] is None
    json.dumps(view)


def test_undo_and_fold_rebuild_the_same_state() -> None:
    events = [Throw(TOREICH), Enter(Box.PAIR_OF_WORDS, ("TOR", "EI")), Throw(KNIFFEL_ROLL)]
    tl = fold(RULES, {"players": ["Ann", "Ben"]}, events)
    back, _ = tl.push(Undo())
    assert back.state == fold(RULES, {"players": ["Ann", "Ben"]}, events[:2]).state


events_st = st.one_of(
    st.builds(Throw, st.text(max_size=30)),
    st.builds(Enter, st.sampled_from(BOXES), st.tuples(st.text(max_size=8)), st.booleans()),
    st.builds(Zero, st.sampled_from(BOXES)),
    st.builds(KniffelExtra, st.text(max_size=8), st.sampled_from(BOXES), st.booleans()),
    st.builds(TimeUp, st.integers(-5, 50)),
)


@given(events_st)
def test_events_round_trip_through_json(event: Any) -> None:
    assert CODEC.decode(json.loads(json.dumps(CODEC.encode(event)))) == event


def test_decoding_bad_events_is_a_clear_error() -> None:
    with pytest.raises(EventError, match="box"):
        CODEC.decode({"type": "enter", "box": "seven"})
    with pytest.raises(EventError, match="unknown event"):
        CODEC.decode({"type": "roll"})


@given(st.lists(events_st, max_size=25))
def test_random_event_streams_never_crash_and_refusals_leave_state(events: list[Any]) -> None:
    tl = start()
    for e in events:
        try:
            nxt, _ = tl.push(e)
        except Refused:
            continue
        tl = nxt
    json.dumps(RULES.view(tl.state))
    assert all(p.total >= 0 for p in tl.state.pads)


def test_game_without_lexicon_accepts_any_word_the_dice_lay() -> None:
    tl = Timeline.start(GAME, {"players": ["Ann", "Ben"]})
    tl = push(tl, Throw(TOREICH), Enter(Box.FOUR, ("ROCH",)))
    assert tl.state.pads[0][Box.FOUR] == 3 + 2 + 4 + 3
