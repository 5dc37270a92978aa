"""Search solver figures on the book's 8x11 house: time, positions, best found, bound proved.

    .venv/bin/python bench/search_bench.py                 # openings and endgames, 10 s each
    .venv/bin/python bench/search_bench.py --seconds 30 --seeds 5
    .venv/bin/python bench/search_bench.py --readings      # the dot-rule readings compared

Openings: from the start rooms the cards give, best play within the time limit; "gap" is
bound minus best (0 means proved optimal). Endgames: the same games after the first part of
the best line found, where the search can finish. Readings: how often a table can win at all
under each reading of the dot sentence (see ``companion.games.search``). Figures depend on the
machine and its load; nothing here is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.games.search.events import Move  # noqa: E402
from companion.games.search.house import House  # noqa: E402
from companion.games.search.rules import (  # noqa: E402
    DotRule,
    Options,
    SearchState,
    apply,
    draw_starts,
    new_state,
)
from companion.games.search.solver import Solution, solve  # noqa: E402


def position(seed: int, players: int, rule: DotRule) -> SearchState:
    house = House.generate(seed)
    rooms = [r for *_, r in draw_starts(house, players, random.Random(seed)) if r is not None]
    return new_state(house, [f"P{i + 1}" for i in range(players)], Options(rule), rooms)


def timed(state: SearchState, seconds: float, **kw: int) -> tuple[Solution, float]:
    began = time.monotonic()
    deadline = began + seconds
    solution = solve(state, should_stop=lambda: time.monotonic() >= deadline, check_every=500, **kw)
    return solution, time.monotonic() - began


def row(label: str, s: Solution, took: float) -> str:
    rate = s.nodes / took if took > 0 else 0.0
    return (
        f"{label:<28} best {s.best:>5}  bound {s.bound:>5}  gap {s.bound - s.best:>4}  "
        f"{'exact ' if s.exact else 'open  '} {s.nodes:>8} positions  {took:6.2f} s  "
        f"{rate:8.0f} pos/s"
    )


def openings(seeds: int, seconds: float) -> None:
    print(f"== openings: 8x11, start rooms by cards, {seconds:g} s each ==")
    for rule in DotRule:
        for players in (2, 3, 4):
            gaps, exact = [], 0
            for seed in range(seeds):
                s, took = timed(position(seed, players, rule), seconds)
                gaps.append(s.bound - s.best)
                exact += s.exact
                print(row(f"{rule.value} {players}p seed {seed}", s, took), flush=True)
            print(
                f"  -> {rule.value} {players} players: proved {exact}/{seeds}, "
                f"median gap {statistics.median(gaps)}"
            )


def endgames(seeds: int, seconds: float, share: float) -> None:
    print(f"== endgames: after {share:.0%} of the best line found, {seconds:g} s each ==")
    for players in (2, 3, 4):
        for seed in range(seeds):
            start = position(seed, players, DotRule.MATCH)
            line = solve(start, node_limit=20_000).line
            state = start
            for room in line[: int(len(line) * share)]:
                state = apply(state, Move(state.turn, state.house.name(room))).state
            left = len(line) - int(len(line) * share)
            s, took = timed(state, seconds)
            print(row(f"match {players}p seed {seed} ({left} moves left)", s, took), flush=True)


def readings(seeds: int, nodes: int) -> None:
    print(f"== readings: can the table win at all? {seeds} houses, starts by cards ==")
    for rule in DotRule:
        for players in (2, 3, 4):
            won = proved = 0
            for seed in range(seeds):
                s = solve(position(seed, players, rule), node_limit=nodes)
                won += s.best > 0
                proved += s.exact
            print(
                f"{rule.value:<10} {players} players: a winning game found in {won}/{seeds} "
                f"(search proved optimal in {proved}/{seeds}; {nodes} positions each)",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--share", type=float, default=0.7, help="endgames: part of the line played")
    parser.add_argument("--readings", action="store_true", help="only compare the dot-rule readings")
    parser.add_argument("--reading-seeds", type=int, default=40)
    parser.add_argument("--reading-nodes", type=int, default=20_000)
    args = parser.parse_args()
    if args.readings:
        readings(args.reading_seeds, args.reading_nodes)
        return
    openings(args.seeds, args.seconds)
    endgames(args.seeds, args.seconds, args.share)


if __name__ == "__main__":
    main()
