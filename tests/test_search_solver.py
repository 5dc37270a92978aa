"""The solver against brute force through the referee itself, on small houses."""

from __future__ import annotations

import random

import pytest

from companion.games.search.errors import SearchError
from companion.games.search.house import House
from companion.games.search.events import Move
from companion.games.search.rules import (
    DotRule,
    Options,
    Phase,
    SearchState,
    apply,
    is_blocked,
    legal,
    new_state,
    team_score,
)
from companion.games.search.solver import Progress, brute_force, hint, review, solve


def small_position(seed: int) -> SearchState | None:
    rng = random.Random(seed)
    rows, cols = rng.choice([(2, 3), (3, 3), (2, 4), (3, 4), (4, 4), (4, 5)])
    if (rows * cols) % 2:
        rows, cols = 3, 4
    house = House.generate(seed, rows, cols)
    n = rng.choice([2, 2, 3])
    rooms = list(house.rooms)
    rng.shuffle(rooms)
    starts: list[int] = []
    for r in rooms:
        if not is_blocked(house, [*starts, r], len(starts), r):
            starts.append(r)
        if len(starts) == n:
            break
    if len(starts) < n:
        return None
    rule = rng.choice(list(DotRule))
    s = new_state(house, [f"P{i}" for i in range(n)], Options(rule, rng.random() < 0.8), starts)
    return s if s.phase is Phase.PLAY else None


POSITIONS = [p for p in (small_position(seed) for seed in range(90)) if p is not None]


def replay(s: SearchState, line: tuple[int, ...]) -> SearchState:
    for room in line:
        s = apply(s, Move(s.turn, s.house.name(room))).state
    return s


def test_the_sample_holds_real_games() -> None:
    assert len(POSITIONS) > 60
    assert {p.options.dot_rule for p in POSITIONS} == set(DotRule)
    assert max(p.house.rows * p.house.cols for p in POSITIONS) == 20
    assert sum(1 for p in POSITIONS if len(p.players) == 3) > 5


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_solver_matches_brute_force(index: int) -> None:
    s = POSITIONS[index]
    truth = brute_force(s)
    solution = solve(s)
    assert not solution.stopped
    assert solution.best == solution.bound == truth
    end = replay(s, solution.line)  # the line is a real game reaching that score
    assert end.phase is Phase.OVER
    assert team_score(end.tracks) == truth


def test_midgame_positions_match_brute_force() -> None:
    checked = 0
    for s in POSITIONS[:30]:
        rng = random.Random(len(s.house.dots))
        for _ in range(3):
            if s.phase is not Phase.PLAY:
                break
            moves, _ = legal(s)
            s = apply(s, Move(s.turn, s.house.name(rng.choice(moves)))).state
        if s.phase is Phase.PLAY:
            assert solve(s).best == brute_force(s)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("limit", [1, 2, 5, 20, 100])
def test_stopping_early_brackets_the_truth(limit: int) -> None:
    stopped = 0
    for s in POSITIONS:
        truth = brute_force(s)
        solution = solve(s, node_limit=limit)
        assert solution.best <= truth <= solution.bound
        assert team_score(replay(s, solution.line).tracks) == solution.best
        stopped += solution.stopped
    assert stopped > 0


def test_should_stop_callback_and_progress_reports() -> None:
    house = House.generate(1)
    s = new_state(house, ["a", "b"], Options(), [house.room("C3"), house.room("F8")])
    calls: list[Progress] = []
    asked = {"n": 0}

    def stop() -> bool:
        asked["n"] += 1
        return asked["n"] >= 3

    solution = solve(s, should_stop=stop, on_progress=calls.append, check_every=50)
    assert solution.stopped
    assert asked["n"] == 3 and len(calls) == 3
    assert calls[-1].nodes == 150
    assert solution.best <= solution.bound
    assert team_score(replay(s, solution.line).tracks) == solution.best


def test_hint_is_a_legal_first_move_of_a_best_game() -> None:
    for s in POSITIONS[:25]:
        h = hint(s)
        rooms, way = legal(s)
        assert h.room in rooms and h.way is way and h.player == s.turn
        after = apply(s, Move(s.turn, s.house.name(h.room))).state
        assert brute_force(after) == brute_force(s)


def test_review_sets_the_game_against_the_best() -> None:
    for s in POSITIONS[:15]:
        rng = random.Random(7)
        names = []
        state = s
        while state.phase is Phase.PLAY:
            moves, _ = legal(state)
            room = state.house.name(rng.choice(moves))
            names.append(room)
            state = apply(state, Move(state.turn, room)).state
        r = review(s, names)
        assert r.reached == team_score(state.tracks)
        assert r.solution.best == brute_force(s) >= r.reached
        if r.reached < r.solution.best:
            assert r.first_departure is not None
            before = s
            for name in names[: r.first_departure - 1]:
                before = apply(before, Move(before.turn, name)).state
            assert brute_force(before) == r.solution.best  # still on a best line before it
        else:
            assert r.first_departure is None


def test_finished_games_and_unstarted_games() -> None:
    s = POSITIONS[0]
    end = replay(s, solve(s).line)
    done = solve(end)
    assert done.best == done.bound == team_score(end.tracks) and done.line == ()
    with pytest.raises(SearchError, match="start room"):
        solve(new_state(s.house, ["a", "b"]))
