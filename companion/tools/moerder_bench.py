"""Speed of the Finde den Mörder solver, measured the same way everywhere.

Used by ``companion moerder bench`` and ``bench/moerder_bench.py``. It lives outside
``companion/games`` because it reads a clock; the solver it times stays pure. Two figures:

- ``boards_per_s``: full-table chain checks per second (:func:`has_chain_many` over a batch of
  shuffled full tables, best of a few runs; the tables are dealt before the clock starts).
- ``p_end_ms``: the median time for :func:`p_end` to reach a standard error of 0.005 on
  seeded mid-game tables whose end is open (Monte Carlo, not the exact shortcuts), with the
  maximum as ``p_end_ms_max``, and ``p_end_ms_worst``: dealing and checking the 10,000
  samples that a true p_end of 1/2 needs (the most any table can need).

numpy runs these element-wise operations on one core.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from companion.games.moerder.board import CELLS, SET_COUNTS, Board
from companion.games.moerder.chain import find_chains
from companion.games.moerder.solver import (
    EXACT_LIMIT,
    TARGET_SE,
    completions,
    has_chain_many,
    p_end,
    possible,
    random_full_masks,
    sample_masks,
)

WORST_SAMPLES = 10_000


def open_positions(seed: int, count: int) -> list[Board]:
    """``count`` seeded mid-game tables (8 to 28 tiles face up) where p_end needs sampling."""
    rng = random.Random(seed)
    tiles = [t for t, n in SET_COUNTS.items() for _ in range(n)]
    found: list[Board] = []
    while len(found) < count:
        rng.shuffle(tiles)
        down = set(rng.sample(range(CELLS), CELLS - rng.randint(8, 28)))
        board = Board(tuple(None if i in down else t for i, t in enumerate(tiles)))
        if completions(board) > EXACT_LIMIT and not find_chains(board, 1) and possible(board):
            found.append(board)
    return found


def run(
    seed: int = 0,
    boards: int = 200_000,
    repeats: int = 3,
    positions: int = 20,
    step: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure both figures; ``step`` is told what is being measured (for a progress line)."""
    say = step or (lambda _: None)
    rng = np.random.default_rng(seed)
    say("dealing tables")
    masks = random_full_masks(rng, boards)
    has_chain_many(masks[:, :1000])  # warm up
    times = []
    for i in range(repeats):
        say(f"chain checks {i + 1}/{repeats}")
        start = time.perf_counter()
        hits = has_chain_many(masks)
        times.append(time.perf_counter() - start)
    share = float(hits.mean())
    say("mid-game tables")
    tables = open_positions(seed, positions)
    p_end(tables[0], np.random.default_rng(seed))  # warm up
    ms, samples = [], []
    for i, board in enumerate(tables):
        say(f"p_end {i + 1}/{len(tables)}")
        start = time.perf_counter()
        estimate = p_end(board, np.random.default_rng([seed, i]), target_se=TARGET_SE)
        ms.append((time.perf_counter() - start) * 1000)
        samples.append(estimate.samples)
    # The most samples a standard error of 0.005 can need (p = 1/2) is 10,000: time that many
    # deals and checks of the empty table as the worst case.
    say("p_end worst case")
    worst = []
    empty = Board()
    for i in range(repeats):
        start = time.perf_counter()
        has_chain_many(sample_masks(empty, np.random.default_rng([seed, 2**31, i]), WORST_SAMPLES))
        worst.append((time.perf_counter() - start) * 1000)
    return {
        "boards_per_s": round(boards / min(times)),
        "boards_per_s_median": round(boards / statistics.median(times)),
        "boards": boards,
        "chain_share": round(share, 4),
        "p_end_ms": round(statistics.median(ms), 2),
        "p_end_ms_max": round(max(ms), 2),
        "p_end_ms_worst": round(min(worst), 2),
        "p_end_target_se": TARGET_SE,
        "p_end_samples_median": int(statistics.median(samples)),
        "positions": len(tables),
        "seed": seed,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "machine": platform.machine(),
    }


def format_report(figures: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"full-table chain checks: {figures['boards_per_s']:,} boards/s "
            f"(median run {figures['boards_per_s_median']:,}; {figures['boards']:,} tables, "
            f"{figures['chain_share']:.1%} hold a chain)",
            f"p_end to ±{figures['p_end_target_se']}: {figures['p_end_ms']} ms median, "
            f"{figures['p_end_ms_max']} ms max over {figures['positions']} mid-game tables "
            f"(median {figures['p_end_samples_median']:,} samples); "
            f"{figures['p_end_ms_worst']} ms for the 10,000 samples p = 1/2 needs",
            f"python {figures['python']}, numpy {figures['numpy']}, {figures['machine']}, "
            f"seed {figures['seed']}",
        ]
    )
