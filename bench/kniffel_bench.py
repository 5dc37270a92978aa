"""Wort-Kniffel figures: index build and load, index memory, all 11 boxes per roll, advice.

Run: ``.venv/bin/python bench/kniffel_bench.py [--rolls N] [--advise N]``. Uses the default
German list (wngerman) with a fresh cache in a temporary folder, so the first figure is the
one-off build. Times are wall clock on one core (the solver is single-threaded).
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from companion.games.kniffel.advice import advise
from companion.games.kniffel.dice import DEFAULT_DICE, Roll
from companion.games.kniffel.solver import best_boxes
from companion.wordlist import DEFAULT_LIST, load_lexicon


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rolls", type=int, default=1000, help="random rolls to time (default 1000)")
    ap.add_argument("--advise", type=int, default=10, help="rolls to advise on (default 10)")
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        t0 = time.perf_counter()
        load_lexicon(cache=cache)
        build = time.perf_counter() - t0
        loads = []
        for _ in range(5):
            gc.collect()
            t0 = time.perf_counter()
            lexicon = load_lexicon(cache=cache)
            loads.append(time.perf_counter() - t0)
        size = sum(p.stat().st_size for p in Path(cache).iterdir())
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        held = load_lexicon(cache=cache)
        memory = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        del held
    entries = sum(1 for line in DEFAULT_LIST.open(encoding="utf-8") if line.strip())
    print(f"word list: {DEFAULT_LIST} ({entries} entries), {len(lexicon)} playable words indexed, "
          f"{len(lexicon.exact)} exact keys, {len(lexicon.joker)} diamond keys")
    print(f"index build (first run, cleaning + indexing + cache write): {build:.2f} s")
    print(f"index load from cache: median {statistics.median(loads) * 1000:.0f} ms "
          f"(min {min(loads) * 1000:.0f} ms); cache file {size / 1e6:.1f} MB")
    print(f"index memory (tracemalloc, Python objects): {memory / 1e6:.1f} MB")

    rng = random.Random(args.seed)
    rolls = [Roll(tuple(rng.choice(d) for d in DEFAULT_DICE.dice)) for _ in range(args.rolls)]
    times = []
    for roll in rolls:
        t0 = time.perf_counter()
        best_boxes(roll, lexicon)
        times.append(time.perf_counter() - t0)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"all 11 boxes per roll ({len(rolls)} random rolls of the default set): "
          f"median {statistics.median(ms):.2f} ms, p95 {ms[int(0.95 * len(ms)) - 1]:.2f} ms, "
          f"max {ms[-1]:.2f} ms, mean {statistics.fmean(ms):.2f} ms")
    jokers = [r for r in rolls if r.joker is not None]
    if jokers:
        jt = []
        for roll in jokers:
            t0 = time.perf_counter()
            best_boxes(roll, lexicon)
            jt.append((time.perf_counter() - t0) * 1000)
        print(f"  of which rolls showing the diamond ({len(jokers)}): median "
              f"{statistics.median(jt):.2f} ms, max {max(jt):.2f} ms")

    adv = []
    for n, roll in enumerate(rolls[: args.advise]):
        for left in (1, 2):
            t0 = time.perf_counter()
            a = advise(roll, lexicon, DEFAULT_DICE, left, random.Random(n))
            adv.append(time.perf_counter() - t0)
        print(f"  advise {roll} (2 left): keep {[str(roll.faces[i]) for i in a.best.keep]} "
              f"E={a.best.expected:.2f} ± {a.best.stderr:.2f}, {a.evaluations} rolls weighed")
    if adv:
        print(f"advise (1 and 2 rolls left, {len(adv)} runs): median "
              f"{statistics.median(adv) * 1000:.0f} ms, max {max(adv) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
