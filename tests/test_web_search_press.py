"""Search at the table: what a button press means, the panel's effects, and the solver's
answers for the page (hint, review) rebuilt from the view the page holds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Refused, Winners
from companion.games.search import GAME
from companion.games.search.advice import (
    hint_json,
    position_key,
    review_json,
    start_of,
    state_from_view,
)
from companion.games.search.house import House
from companion.games.search.events import AskHint, Move
from companion.games.search.view import view
from companion.games.search.rules import (
    Options,
    Phase,
    SearchState,
    apply,
    draw_starts,
    legal,
    new_state,
    team_score,
)
from companion.games.search.solver import brute_force


def started(seed: int, players: int = 2, rows: int = 8, cols: int = 11) -> SearchState:
    house = House.generate(seed, rows, cols)
    if house.is_standard:
        rooms = [r for *_, r in draw_starts(house, players, random.Random(seed)) if r is not None]
    else:  # small houses lack some triangles: start rooms picked like free draws
        rng, rooms = random.Random(seed), []
        for r in rng.sample(list(house.rooms), len(house.rooms)):
            if all(r != q and house.partner[r] != q for q in rooms) and len(rooms) < players:
                rooms.append(r)
    return new_state(house, [f"P{i}" for i in range(players)], Options(), rooms)


def play(s: SearchState, rng: random.Random, moves: int) -> SearchState:
    for _ in range(moves):
        if s.phase is not Phase.PLAY:
            break
        rooms, _ = legal(s)
        s = apply(s, Move(s.turn, s.house.name(rng.choice(rooms)))).state
    return s


def decoded(obj: object) -> object:
    assert isinstance(obj, dict)
    return GAME.decode(obj)


def test_game_has_a_press_hook() -> None:
    assert GAME.press is not None


def test_short_press_makes_the_forced_move_and_only_that() -> None:
    forced = choice = 0
    for seed in range(30):
        s = play(started(seed), random.Random(seed), seed % 7)
        if s.phase is not Phase.PLAY:
            continue
        rooms, _ = legal(s)
        assert GAME.press is not None
        if len(rooms) == 1:
            forced += 1
            event = decoded(GAME.press(s, s.turn, "next"))
            assert event == Move(s.turn, s.house.name(rooms[0]))
            assert apply(s, event).state.players[s.turn].room == rooms[0]
        else:
            choice += 1
            with pytest.raises(Refused) as info:
                GAME.press(s, s.turn, "next")
            assert info.value.code == "choose_room"
            assert sorted(info.value.details["rooms"]) == sorted(s.house.name(r) for r in rooms)
        other = (s.turn + 1) % len(s.players)
        with pytest.raises(Refused) as info:
            GAME.press(s, other, "next")
        assert info.value.code == "not_your_turn"
    assert forced and choice  # both cases were met


def test_right_after_the_start_the_corridor_is_forced_for_a_button() -> None:
    s = started(4)
    partner = s.house.partner[s.players[0].path[-1]]
    assert GAME.press is not None
    assert decoded(GAME.press(s, 0, "next")) == Move(0, s.house.name(partner))


def test_press_while_drawing_start_rooms_asks_for_the_phone() -> None:
    s = GAME.new({"players": ["Ann", "Bob"], "seed": 2})
    assert GAME.press is not None
    with pytest.raises(Refused) as info:
        GAME.press(s, 0, "next")
    assert info.value.code == "enter_cards"
    assert GAME.press(s, 0, "claim") is None


def test_long_press_asks_a_hint_that_the_next_move_clears() -> None:
    s = started(5, players=3)
    asker = (s.turn + 2) % 3  # any seat may ask: the game is cooperative
    assert GAME.press is not None
    event = decoded(GAME.press(s, asker, "claim"))
    assert event == AskHint(asker)
    out = apply(s, event)
    assert out.state.hint_asked == asker and view(out.state)["hint_asked"] == asker
    assert out.state.players == s.players and out.state.turn == s.turn
    assert view(out.state)["winners"] is None
    signal = [e for e in out.effects if e.kind == "signal"]
    assert signal and signal[0].data["seat"] == s.turn and signal[0].data["blink"] is True
    rooms, _ = legal(out.state)
    moved = apply(out.state, Move(s.turn, s.house.name(rooms[0]))).state
    assert moved.hint_asked is None


def test_presses_that_mean_nothing() -> None:
    s = started(6)
    assert GAME.press is not None
    assert GAME.press(s, s.turn, "quit") is None
    assert GAME.press(s, 7, "next") is None  # a button at an empty seat
    over = play(s, random.Random(6), 500)
    assert over.phase is Phase.OVER
    assert GAME.press(over, 0, "next") is None and GAME.press(over, 0, "claim") is None
    with pytest.raises(Refused) as info:
        apply(over, AskHint(0))
    assert info.value.code == "game_over"


def test_the_end_names_the_whole_table_winner_or_nobody() -> None:
    outcomes = set()
    for seed in range(12):
        s = started(seed)
        rng = random.Random(seed)
        effects: tuple = ()
        while s.phase is Phase.PLAY:
            rooms, _ = legal(s)
            out = apply(s, Move(s.turn, s.house.name(rng.choice(rooms))))
            s, effects = out.state, out.effects
        kinds = [e.kind for e in effects]
        assert kinds[-2:] == ["winner", "game_over"]
        win = team_score(s.tracks) > 0
        outcomes.add(win)
        assert effects[-2] == Winners((0, 1) if win else ())
        assert view(s)["winners"] == view(s)["winner_seats"] == ([0, 1] if win else [])
    assert outcomes == {True, False}


def test_a_lost_turn_blinks_that_seat() -> None:
    seen = 0
    for seed in range(40):
        s = started(seed, players=3)
        rng = random.Random(seed)
        while s.phase is Phase.PLAY:
            rooms, _ = legal(s)
            out = apply(s, Move(s.turn, s.house.name(rng.choice(rooms))))
            lost = [e.data["player"] for e in out.effects if e.kind == "turn_lost"]
            signals = [e.data["seat"] for e in out.effects if e.kind == "signal"]
            assert signals == lost
            seen += len(lost)
            s = out.state
    assert seen


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4), moves=st.integers(0, 40),
       ask=st.booleans())
def test_the_view_rebuilds_the_state(seed: int, players: int, moves: int, ask: bool) -> None:
    s = play(started(seed, players), random.Random(seed), moves)
    if ask and s.phase is Phase.PLAY:
        s = apply(s, AskHint(0)).state
    assert state_from_view(view(s)) == s


def test_a_view_during_the_start_draw_rebuilds_too() -> None:
    s = GAME.new({"players": ["Ann", "Bob", "Cy"], "seed": 9, "dot_rule": "different",
                  "start_scores": False})
    assert state_from_view(view(s)) == s


def test_hint_on_a_small_house_is_a_best_move() -> None:
    for seed in range(6):
        s = started(seed, rows=4, cols=4)
        if s.phase is not Phase.PLAY:
            continue
        h = hint_json(state_from_view(view(s)), node_limit=200_000)
        rooms, _ = legal(s)
        assert h["room"] in {s.house.name(r) for r in rooms}
        assert h["exact"] and h["best"] == h["bound"] == brute_force(s)
        # the advised move keeps the best score reachable
        after = apply(s, Move(s.turn, h["room"])).state
        assert brute_force(after) == h["best"]


def test_review_sets_the_reached_score_against_the_best_from_the_start() -> None:
    for seed in range(6):
        s0 = started(seed, rows=4, cols=4)
        end = play(s0, random.Random(seed), 200)
        r = review_json(state_from_view(view(end)), node_limit=200_000)
        assert start_of(end) == s0
        assert r["reached"] == team_score(end.tracks)
        assert r["exact"] and r["best"] == brute_force(s0) >= r["reached"]
        assert r["table_best"] is (r["reached"] == r["best"])


def test_review_under_a_tiny_budget_still_counts_the_tables_own_game() -> None:
    s0 = started(1)
    end = play(s0, random.Random(1), 500)
    r = review_json(end, node_limit=50)
    assert r["best"] >= r["reached"] == team_score(end.tracks)
    assert r["bound"] >= r["best"]


def test_position_key_changes_with_every_move() -> None:
    s = started(3)
    keys = set()
    rng = random.Random(3)
    for _ in range(10):
        keys.add(position_key(view(s)))
        s = play(s, rng, 1)
    assert len(keys) == 10
