"""Analysis of a Finde den Mörder table: the chains on it, whether one can still appear, and
the chance that one stands once every tile is turned (the quitter's bet is ``1 - p_end``).

Speed comes from bitboards checked for many boards at once. A board is five 64-bit masks, one
per letter, in a layout seven bits wide (bit ``7 * row + col``): column 6 is a guard that is
always empty, so a shift by one cell never wraps into the next row, and each shifted mask is
cut back to the board by the next AND with a letter mask. "Cells that can be the k-th letter
of a chain" is then a dilation of the previous set ANDed with the k-th letter, one numpy
operation per step for every board in the batch.

The one non-trivial part is that the two R's must be different tiles. A walk
M-Ö-R-D-E-R with R3 = R6 needs that R to touch the E; so for every E with exactly one R
neighbour ``r``, a chain through it needs an R3 other than ``r``. :func:`has_chain_many` decides
this exactly by direction: a D reached from exactly one R3 (in direction ``w``) gives its E
neighbour in direction ``u`` a valid chain iff that E does not touch the R3, i.e. iff
``max(|u - w|) == 2``. Tests check every function here against a brute force over all 156,484
simple six-cell paths.

Randomness is handed in: :func:`p_end` takes a ``numpy.random.Generator``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from companion.games.moerder.board import (
    CELLS,
    SIZE,
    Board,
    BoardError,
    Tile,
    index_cell,
)
from companion.games.moerder.chain import (
    NEIGHBOUR_INDICES,
    WORD_TILES,
    Chain,
    find_chains,
)

__all__ = [
    "Analysis",
    "BoardError",
    "Estimate",
    "analyse",
    "board_masks",
    "chains",
    "completions",
    "has_chain",
    "has_chain_many",
    "p_end",
    "possible",
    "random_full_masks",
    "sample_masks",
]

# Tile codes in the mask arrays: row k of a (5, N) mask array is LETTERS[k]; 5 is the victim.
LETTERS: tuple[Tile, ...] = (Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E)
CODE: dict[Tile, int] = {t: k for k, t in enumerate(LETTERS)} | {Tile.VICTIM: 5}
KINDS: tuple[Tile, ...] = (*LETTERS, Tile.VICTIM)
M, OE, R, D, E = range(5)

STRIDE = SIZE + 1  # one guard column per row
BIT: tuple[int, ...] = tuple(1 << (STRIDE * r + c) for r, c in map(index_cell, range(CELLS)))
BITS = np.array(BIT, dtype=np.uint64)

DIRECTIONS: tuple[tuple[int, int], ...] = tuple(
    (dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc
)

# Default chunk of boards per numpy pass: big enough to amortise the ~150 operations, small
# enough that the working arrays stay in the CPU cache.
CHUNK = 8192
# Enumerate completions exactly when there are at most this many distinct ones.
EXACT_LIMIT = 20_000
TARGET_SE = 0.005


_SHIFTS: dict[tuple[int, int], tuple[bool, np.uint64]] = {
    d: (STRIDE * d[0] + d[1] > 0, np.uint64(abs(STRIDE * d[0] + d[1]))) for d in DIRECTIONS
}
_U1 = np.uint64(1)
_UROW = np.uint64(STRIDE)


def _shift(x: NDArray[np.uint64], d: tuple[int, int]) -> NDArray[np.uint64]:
    """Move every set cell by ``d``; cells leaving the board land in the guard or fall off."""
    left, k = _SHIFTS[d]
    return np.left_shift(x, k) if left else np.right_shift(x, k)


def _box(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The 3x3 neighbourhood of every set cell (itself included), separably: row, then column.

    Including the cell itself is harmless: the result is always ANDed with a different letter.
    """
    h = x | (x << _U1)
    h |= x >> _U1
    out: NDArray[np.uint64] = h | (h << _UROW)
    out |= h >> _UROW
    return out


def _count_neighbours(
    x: NDArray[np.uint64],
) -> tuple[NDArray[np.uint64], NDArray[np.uint64], dict[tuple[int, int], NDArray[np.uint64]]]:
    """Cells with at least one / at least two neighbours in ``x``, and the 8 shifted copies.

    ``copies[w]`` marks the cells whose neighbour in direction ``w`` is in ``x``.
    """
    one = np.zeros_like(x)
    two = np.zeros_like(x)
    copies = {}
    for dr, dc in DIRECTIONS:
        s = _shift(x, (-dr, -dc))
        copies[(dr, dc)] = s
        two |= one & s
        one |= s
    return one, two, copies


def _has_chain_chunk(masks: NDArray[np.uint64]) -> NDArray[np.bool_]:
    m, o, r, d, e = masks
    s2 = _box(m) & o
    s3 = _box(s2) & r
    # E cells by how many R neighbours they have (R6 candidates).
    r_one, r_two, _ = _count_neighbours(r)
    e2 = e & r_two
    e1 = e & r_one & ~r_two
    # D cells by how many reachable R3 neighbours they have.
    s_one, s_two, c = _count_neighbours(s3)
    d_any = d & s_one
    d2 = d & s_two
    d1 = d_any & ~s_two
    # A D with its single R3 in direction w lends a valid chain to the E in direction u iff
    # max(|u - w|) == 2: w lies in the row (or column) of directions opposite to u's. Group
    # the D's by which side their R3 lies on (up, down, left, right).
    up = d1 & (c[(-1, -1)] | c[(-1, 0)] | c[(-1, 1)])
    down = d1 & (c[(1, -1)] | c[(1, 0)] | c[(1, 1)])
    left = d1 & (c[(-1, -1)] | c[(0, -1)] | c[(1, -1)])
    right = d1 & (c[(-1, 1)] | c[(0, 1)] | c[(1, 1)])
    far = _shift(up, (1, 0)) | _shift(down, (-1, 0))
    far |= _shift(left, (0, 1))
    far |= _shift(right, (0, -1))
    far |= _shift(up | left, (1, 1))
    far |= _shift(up | right, (1, -1))
    far |= _shift(down | left, (-1, 1))
    far |= _shift(down | right, (-1, -1))
    good = e2 & _box(d_any)
    good |= e1 & (_box(d2) | far)
    result: NDArray[np.bool_] = good != 0
    return result


def has_chain_many(masks: NDArray[np.uint64], chunk: int = CHUNK) -> NDArray[np.bool_]:
    """For each board (a column of the ``(5, N)`` letter masks): is a chain on it?"""
    masks = np.asarray(masks, dtype=np.uint64)
    if masks.ndim != 2 or masks.shape[0] != 5:
        raise ValueError(f"masks must have shape (5, N), not {masks.shape}")
    n = masks.shape[1]
    out = np.empty(n, dtype=bool)
    for start in range(0, n, chunk):
        out[start : start + chunk] = _has_chain_chunk(masks[:, start : start + chunk])
    return out


def board_masks(board: Board) -> NDArray[np.uint64]:
    """The face-up letters of ``board`` as five masks, shape ``(5,)``."""
    out = [0] * 5
    for i, tile in enumerate(board.cells):
        if tile is not None and tile is not Tile.VICTIM:
            out[CODE[tile]] |= BIT[i]
    return np.array(out, dtype=np.uint64)


def has_chain(board: Board) -> bool:
    return bool(has_chain_many(board_masks(board)[:, None])[0])


def chains(board: Board) -> list[Chain]:
    """Every chain on the face-up tiles, each as its six cells from the M to the last R."""
    return find_chains(board)


def _unseen(board: Board) -> list[int]:
    """The tiles not yet seen as codes, per kind (M Ö R D E victim)."""
    board.check_counts()
    remaining = board.remaining()
    return [remaining[t] for t in KINDS]


def possible(board: Board) -> bool:
    """Whether some completion of the face-down cells, drawn from the unseen tiles, shows a chain.

    Exact: a depth-first search for a six-cell path whose face-up cells spell the word and
    whose face-down cells need no more of a letter than is unseen (R counts twice).
    """
    left = _unseen(board)
    cells = board.cells
    path: list[int] = []

    def fits(i: int, k: int) -> bool:
        tile = cells[i]
        if tile is None:
            return left[CODE[WORD_TILES[k]]] > 0
        return tile is WORD_TILES[k]

    def extend(last: int) -> bool:
        k = len(path)
        if k == len(WORD_TILES):
            return True
        code = CODE[WORD_TILES[k]]
        for j in NEIGHBOUR_INDICES[last]:
            if j in path or not fits(j, k):
                continue
            hidden = cells[j] is None
            path.append(j)
            if hidden:
                left[code] -= 1
            found = extend(j)
            if hidden:
                left[code] += 1
            path.pop()
            if found:
                return True
        return False

    for start in range(CELLS):
        if fits(start, 0):
            hidden = cells[start] is None
            path.append(start)
            if hidden:
                left[M] -= 1
            found = extend(start)
            if hidden:
                left[M] += 1
            path.pop()
            if found:
                return True
    return False


def completions(board: Board) -> int:
    """How many distinct ways the unseen tiles can fill the face-down cells (multinomial)."""
    counts = _unseen(board)
    total = math.factorial(sum(counts))
    for n in counts:
        total //= math.factorial(n)
    return total


def _arrangements(counts: Sequence[int]) -> NDArray[np.int8]:
    """Every distinct ordering of the multiset (``counts[k]`` copies of code ``k``), one a row."""
    rows = np.zeros((1, 0), dtype=np.int8)
    left = np.array([counts], dtype=np.int16)
    for _ in range(sum(counts)):
        new_rows, new_left = [], []
        for code in range(len(counts)):
            take = left[:, code] > 0
            if not take.any():
                continue
            grown = np.empty((int(take.sum()), rows.shape[1] + 1), dtype=np.int8)
            grown[:, :-1] = rows[take]
            grown[:, -1] = code
            rest = left[take].copy()
            rest[:, code] -= 1
            new_rows.append(grown)
            new_left.append(rest)
        rows = np.concatenate(new_rows)
        left = np.concatenate(new_left)
    return rows


def _fill(board: Board, fills: NDArray[np.int8]) -> NDArray[np.uint64]:
    """Masks of ``board`` with its face-down cells (in index order) filled row by row."""
    known = board_masks(board)
    hidden = [i for i, t in enumerate(board.cells) if t is None]
    n = fills.shape[0]
    masks = np.empty((5, n), dtype=np.uint64)
    # Sums of distinct powers of two below 2**41 are exact in float64: a matrix product
    # builds each board's mask in one BLAS call.
    bits = np.array([float(BIT[i]) for i in hidden], dtype=np.float64)
    for code in range(5):
        hit = (fills == code).astype(np.float64)
        masks[code] = (hit @ bits).astype(np.uint64) | known[code]
    return masks


@dataclass(frozen=True)
class Estimate:
    """A probability with its standard error; ``exact`` when no sampling was needed."""

    p: float
    se: float
    samples: int
    exact: bool


def p_end(
    board: Board,
    rng: np.random.Generator,
    target_se: float = TARGET_SE,
    max_samples: int = 1_000_000,
    exact_limit: int = EXACT_LIMIT,
    batch: int = 4096,
) -> Estimate:
    """The chance that a chain stands on the table once every tile is turned.

    Exact when a chain already stands (1), when none can appear (0), or when the distinct
    completions number at most ``exact_limit`` (all enumerated; each is equally likely under a
    fair shuffle). Otherwise Monte Carlo with completions drawn from ``rng`` until the standard
    error is at most ``target_se`` (or ``max_samples``). The error is
    ``sqrt(q(1-q)/n)`` with ``q = (hits + 1) / (n + 2)``, so a run of all hits or all misses
    never claims certainty.
    """
    if find_chains(board, limit=1):
        return Estimate(1.0, 0.0, 0, True)
    if not possible(board):
        return Estimate(0.0, 0.0, 0, True)
    counts = _unseen(board)
    if completions(board) <= exact_limit:
        fills = _arrangements(counts)
        hits = int(has_chain_many(_fill(board, fills)).sum())
        return Estimate(hits / fills.shape[0], 0.0, fills.shape[0], True)
    n = hits = 0
    se = math.inf
    while n < max_samples:
        size = min(batch, max_samples - n)
        hits += int(has_chain_many(sample_masks(board, rng, size)).sum())
        n += size
        q = (hits + 1) / (n + 2)
        se = math.sqrt(q * (1 - q) / n)
        if se <= target_se:
            break
        # jump close to the sample size the current estimate says is needed
        need = math.ceil(q * (1 - q) / target_se**2) - n
        batch = max(1024, min(need, 65536))
    return Estimate(hits / n, se, n, False)


def sample_masks(board: Board, rng: np.random.Generator, n: int) -> NDArray[np.uint64]:
    """``n`` random completions of ``board`` as ``(5, n)`` letter masks.

    Shuffling the face-down cells' bits and handing out the first ``unseen[M]`` to M, the next
    to Ö and so on is a fair deal of the unseen tiles (the victim takes its cell last); a
    slice's sum is its mask, as the bits are distinct.
    """
    counts = _unseen(board)
    known = board_masks(board)
    hidden = BITS[[i for i, t in enumerate(board.cells) if t is None]]
    shuffled = rng.permuted(np.broadcast_to(hidden, (n, hidden.size)), axis=1)
    masks = np.empty((5, n), dtype=np.uint64)
    start = 0
    for code in range(5):
        stop = start + counts[code]
        masks[code] = shuffled[:, start:stop].sum(axis=1, dtype=np.uint64) | known[code]
        start = stop
    return masks


def random_full_masks(rng: np.random.Generator, n: int) -> NDArray[np.uint64]:
    """``n`` shuffled full tables as ``(5, n)`` letter masks (for benchmarks and tests)."""
    return sample_masks(Board(), rng, n)


@dataclass(frozen=True)
class Analysis:
    """Everything ``companion moerder analyse`` reports about one board."""

    board: Board
    chains: tuple[Chain, ...]
    possible: bool
    estimate: Estimate

    @property
    def remaining(self) -> dict[str, int]:
        return {t.value: n for t, n in self.board.remaining().items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "board": str(self.board),
            "chains": [[[r, c] for r, c in chain] for chain in self.chains],
            "chain_count": len(self.chains),
            "possible": self.possible,
            "p_end": self.estimate.p,
            "p_end_se": self.estimate.se,
            "p_end_exact": self.estimate.exact,
            "p_end_samples": self.estimate.samples,
            "remaining": self.remaining,
        }


def analyse(board: Board, rng: np.random.Generator, target_se: float = TARGET_SE) -> Analysis:
    """Chains, possibility and ``p_end`` for one board; raises :class:`BoardError` if impossible."""
    board.check_counts()
    found = tuple(find_chains(board))
    return Analysis(
        board=board,
        chains=found,
        possible=bool(found) or possible(board),
        estimate=p_end(board, rng, target_se=target_se),
    )
