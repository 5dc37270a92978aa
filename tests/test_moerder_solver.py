"""The Mörder solver against a brute force over every simple six-cell path on the 6x6 table.

The brute force knows nothing of bitboards or search: it lists all paths of six different
cells, each touching the next in one of 8 directions, and reads the word along each.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from companion.games.moerder.board import (
    CELLS,
    SET_COUNTS,
    SIZE,
    Board,
    BoardError,
    Tile,
    index_cell,
)
from companion.games.moerder.solver import (
    BIT,
    KINDS,
    Estimate,
    _arrangements,
    analyse,
    board_masks,
    chains,
    completions,
    has_chain,
    has_chain_many,
    p_end,
    possible,
    random_full_masks,
    sample_masks,
)

WORD = np.array([0, 1, 2, 3, 4, 2], dtype=np.int8)  # M Ö R D E R as codes
CODE = {t: k for k, t in enumerate(KINDS)}  # victim is 5
HIDDEN = -1


@lru_cache(maxsize=1)
def all_paths() -> NDArray[np.int64]:
    """Every simple path of six cells on the table, as cell indices; each direction counted."""
    paths: list[tuple[int, ...]] = []

    def grow(path: tuple[int, ...]) -> None:
        if len(path) == 6:
            paths.append(path)
            return
        r, c = divmod(path[-1], SIZE)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                nxt = rr * SIZE + cc
                if (dr or dc) and 0 <= rr < SIZE and 0 <= cc < SIZE and nxt not in path:
                    grow(path + (nxt,))

    for start in range(CELLS):
        grow((start,))
    return np.array(paths, dtype=np.int64)


def codes_of(board: Board) -> NDArray[np.int8]:
    return np.array([HIDDEN if t is None else CODE[t] for t in board.cells], dtype=np.int8)


def brute_chains(board: Board) -> set[tuple[tuple[int, int], ...]]:
    paths = all_paths()
    hits = paths[(codes_of(board)[paths] == WORD).all(axis=1)]
    return {tuple(index_cell(int(i)) for i in p) for p in hits}


def brute_possible(board: Board) -> bool:
    paths = all_paths()
    codes = codes_of(board)[paths]
    fits = ((codes == WORD) | (codes == HIDDEN)).all(axis=1)
    remaining = board.remaining()
    for p, code in zip(paths[fits], codes[fits]):
        need = Counter(int(WORD[k]) for k in range(6) if code[k] == HIDDEN)
        if all(need[CODE[t]] <= remaining[t] for t in KINDS):
            return True
    return False


def brute_p_end(board: Board) -> float:
    """The share of distinct completions with a chain, by listing them (small boards only)."""
    hidden = [i for i, t in enumerate(board.cells) if t is None]
    pool = [CODE[t] for t, n in board.remaining().items() for _ in range(n)]
    arrangements = sorted(set(itertools.permutations(pool)))
    paths = all_paths()
    codes = codes_of(board)
    # only paths whose face-up cells already spell their part of the word can ever be a chain
    fits = ((codes[paths] == WORD) | (codes[paths] == HIDDEN)).all(axis=1)
    paths = paths[fits]
    hits = 0
    for arrangement in arrangements:
        full = codes.copy()
        full[hidden] = arrangement
        hits += bool((full[paths] == WORD).all(axis=1).any())
    return hits / len(arrangements)


def shuffled_board(rng: random.Random, face_up: int) -> Board:
    tiles = [t for t, n in SET_COUNTS.items() for _ in range(n)]
    rng.shuffle(tiles)
    down = set(rng.sample(range(CELLS), CELLS - face_up))
    return Board(tuple(None if i in down else t for i, t in enumerate(tiles)))


def wild_board(rng: random.Random) -> Board:
    """Any letters in any numbers, weighted per board: many R-D-E clusters, many edge cases."""
    kinds = [None, *KINDS]
    weights = [rng.random() ** 2 for _ in kinds]
    return Board(tuple(rng.choices(kinds, weights)[0] for _ in range(CELLS)))


def masks_of(boards: list[Board]) -> NDArray[np.uint64]:
    return np.stack([board_masks(b) for b in boards], axis=1)


# --- the brute force itself ----------------------------------------------------------------------


def test_there_are_156484_simple_six_cell_paths() -> None:
    paths = all_paths()
    assert len(paths) == 156_484
    assert len({tuple(p) for p in paths}) == len(paths)


# --- chains --------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_chains_match_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    board = wild_board(rng) if seed % 2 else shuffled_board(rng, rng.randint(10, 36))
    found = chains(board)
    assert len(found) == len(set(found))
    assert set(found) == brute_chains(board)
    for chain in found:
        assert [board[c] for c in chain] == [Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E, Tile.R]


def test_the_two_rs_must_be_different_tiles() -> None:
    # R3 = R6 would need the R to touch the E: not a chain ...
    alone = Board.parse("MÖ..../.R..../.DE.../....../....../......")
    assert chains(alone) == [] and not has_chain(alone)
    # ... but a second R beside that E makes one.
    second = Board.parse("MÖ..../.R.R../.DE.../....../....../......")
    assert chains(second) == [((0, 0), (0, 1), (1, 1), (2, 1), (2, 2), (1, 3))]
    assert has_chain(second)
    # An E with one R neighbour works when the chain reached the D from another R.
    other = Board.parse("MÖR.../...D.R/....E./....../....../......")
    assert has_chain(other) and len(chains(other)) == 1


def test_bitboard_check_matches_brute_force_on_many_boards() -> None:
    rng = random.Random(7)
    boards = [wild_board(rng) for _ in range(400)] + [shuffled_board(rng, 36) for _ in range(200)]
    fast = has_chain_many(masks_of(boards))
    slow = [bool(brute_chains(b)) for b in boards]
    assert fast.tolist() == slow
    assert 0 < sum(slow) < len(slow)  # both answers occur


board_st = st.lists(
    st.sampled_from([None, Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E]), min_size=CELLS, max_size=CELLS
).map(lambda cells: Board(tuple(cells)))


@settings(max_examples=150, deadline=None)
@given(board_st)
def test_bitboard_check_matches_brute_force_under_hypothesis(board: Board) -> None:
    assert has_chain(board) == bool(brute_chains(board))


def test_bitboard_check_on_random_full_tables_and_chunks() -> None:
    masks = random_full_masks(np.random.default_rng(3), 300)
    boards = [_board_from_masks(masks[:, j]) for j in range(masks.shape[1])]
    expected = [bool(brute_chains(b)) for b in boards]
    assert has_chain_many(masks).tolist() == expected
    assert has_chain_many(masks, chunk=7).tolist() == expected
    with pytest.raises(ValueError, match="shape"):
        has_chain_many(masks[:4])


def _board_from_masks(column: NDArray[np.uint64]) -> Board:
    cells: list[Tile | None] = [Tile.VICTIM] * CELLS
    for code, tile in enumerate(KINDS[:5]):
        for i in range(CELLS):
            if int(column[code]) & BIT[i]:
                cells[i] = tile
    return Board(tuple(cells))


def test_random_full_tables_hold_the_whole_set() -> None:
    masks = random_full_masks(np.random.default_rng(0), 500)
    for j in range(masks.shape[1]):
        board = _board_from_masks(masks[:, j])
        assert board.counts() == Counter(SET_COUNTS)


# --- possible ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(60))
def test_possible_matches_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    board = shuffled_board(rng, rng.randint(24, 35))
    assert possible(board) == brute_possible(board)


def test_possible_counts_the_r_twice() -> None:
    # The only chain left needs both face-down cells to be R; one R is unseen (and the victim).
    board = Board.parse("MÖ.DE./MMMMMM/RRRRRR/ÖÖDDEE/ÖÖDDEE/ÖÖDDEE")
    assert board.remaining()[Tile.R] == 1
    assert not possible(board) and not brute_possible(board)
    assert p_end(board, np.random.default_rng(0)) == Estimate(0.0, 0.0, 0, True)
    # With a second R unseen it can happen: 1 of the 3 ways to deal R, R, X.
    looser = Board.parse("MÖ.DE./MMMMMM/RRRRR./ÖÖDDEE/ÖÖDDEE/ÖÖDDEE")
    assert possible(looser) and brute_possible(looser)
    estimate = p_end(looser, np.random.default_rng(0))
    assert estimate.exact and estimate.p == pytest.approx(brute_p_end(looser)) == pytest.approx(
        1 / 3
    )


def test_possible_on_the_empty_and_a_chain_table() -> None:
    assert possible(Board())
    assert possible(Board.parse("MÖRDER/....../....../....../....../......"))


def test_possible_refuses_an_impossible_board() -> None:
    with pytest.raises(BoardError, match="8 M tiles"):
        possible(Board(tuple([Tile.M] * 8 + [None] * 28)))


# --- p_end ---------------------------------------------------------------------------------------


def test_completions_and_arrangements_count_each_deal_once() -> None:
    counts = [2, 1, 3, 0, 1, 1]
    rows = _arrangements(counts)
    pool = [k for k, n in enumerate(counts) for _ in range(n)]
    assert {tuple(r) for r in rows.tolist()} == set(itertools.permutations(pool))
    assert len(rows) == math.factorial(8) // (2 * 6)
    board = shuffled_board(random.Random(4), 30)
    assert completions(board) == len(
        set(itertools.permutations([t for t, n in board.remaining().items() for _ in range(n)]))
    )


@pytest.mark.parametrize("seed", range(12))
def test_exact_p_end_matches_brute_force(seed: int) -> None:
    rng = random.Random(2000 + seed)
    board = shuffled_board(rng, rng.randint(28, 33))
    estimate = p_end(board, np.random.default_rng(seed))
    assert estimate.exact and estimate.se == 0.0
    assert estimate.p == pytest.approx(brute_p_end(board), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_monte_carlo_p_end_agrees_with_the_exact_value(seed: int) -> None:
    rng = random.Random(3000 + seed)
    while True:  # a table where the end is truly open
        board = shuffled_board(rng, 28)
        exact = p_end(board, np.random.default_rng(0), exact_limit=10**6)
        if 0.1 < exact.p < 0.9:
            break
    assert exact.p == pytest.approx(brute_p_end(board), abs=1e-12)
    mc = p_end(board, np.random.default_rng(seed), exact_limit=0, target_se=0.005)
    assert not mc.exact and mc.se <= 0.005
    assert abs(mc.p - exact.p) <= 4 * mc.se


def test_p_end_is_certain_when_a_chain_stands_and_seeded_runs_repeat() -> None:
    board = Board.parse("MÖRDER/....../....../....../....../......")
    assert p_end(board, np.random.default_rng(1)) == Estimate(1.0, 0.0, 0, True)
    empty = Board()
    a = p_end(empty, np.random.default_rng(11))
    b = p_end(empty, np.random.default_rng(11))
    assert a == b and not a.exact and a.se <= 0.005


def test_sampled_completions_are_a_fair_deal() -> None:
    # Four face-down cells get M, M, Ö and the victim: 12 distinct deals, equally likely.
    board = Board.parse("MMMMMX/ÖÖÖÖÖÖ/RRRRRR/RDDDDD/DDEEEE/EEE...")
    board = board.with_tile((0, 5), None)
    assert completions(board) == 12
    masks = sample_masks(board, np.random.default_rng(5), 24_000)
    deals = Counter(zip(masks[0].tolist(), masks[1].tolist()))
    assert len(deals) == 12
    for n in deals.values():
        assert abs(n - 2000) < 5 * math.sqrt(2000)
    known = board_masks(board)
    assert all((masks[k] & known[k] == known[k]).all() for k in range(5))


def test_analyse_reports_chains_possible_and_p_end() -> None:
    board = Board.parse("MÖRDER/....../....../....../....../.....X")
    report = analyse(board, np.random.default_rng(0)).to_json()
    assert report["chains"] == [[[0, c] for c in range(6)]]
    assert report["chain_count"] == 1 and report["possible"] is True
    assert report["p_end"] == 1.0 and report["p_end_se"] == 0.0
    assert report["remaining"] == {"M": 6, "Ö": 6, "R": 5, "D": 6, "E": 6, "X": 0}
