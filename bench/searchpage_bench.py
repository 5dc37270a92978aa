"""Search page figures: the solver answers the page asks for, at their node budgets.

    .venv/bin/python bench/searchpage_bench.py [--houses 4] [--players 2 3 4]

Prints, per 8x11 house and player count, the time and nodes of a hint (``HINT_NODES``) from
the start position and of the end-of-game review (``REVIEW_NODES``) after a random game, plus
the state-from-view rebuild the web does per request. Times are wall-clock on this machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from companion.games.search.advice import (
    HINT_NODES,
    REVIEW_NODES,
    hint_json,
    review_json,
    state_from_view,
)
from companion.games.search.house import House
from companion.games.search.events import Move
from companion.games.search.view import view
from companion.games.search.rules import (
    Options,
    Phase,
    apply,
    draw_starts,
    legal,
    new_state,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--houses", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    args = parser.parse_args()
    print(f"hint budget {HINT_NODES} nodes, review budget {REVIEW_NODES} nodes")
    for n in args.players:
        hints, reviews, rebuilds = [], [], []
        for seed in range(args.houses):
            house = House.generate(seed)
            rng = random.Random(seed)
            rooms = [r for *_, r in draw_starts(house, n, rng) if r is not None]
            s = new_state(house, [f"P{i}" for i in range(n)], Options(), rooms)
            t = time.perf_counter()
            for _ in range(20):
                state_from_view(view(s))
            rebuilds.append((time.perf_counter() - t) / 20)
            t = time.perf_counter()
            h = hint_json(s)
            hints.append(time.perf_counter() - t)
            end = s
            while end.phase is Phase.PLAY:
                moves, _ = legal(end)
                end = apply(end, Move(end.turn, house.name(rng.choice(moves)))).state
            t = time.perf_counter()
            r = review_json(end)
            reviews.append(time.perf_counter() - t)
            print(f"  {n}p house {seed}: hint {hints[-1]:.2f} s ({h['nodes']} nodes, best {h['best']}"
                  f" <= {h['bound']}); review {reviews[-1]:.2f} s (reached {r['reached']}, best"
                  f" {r['best']} <= {r['bound']})")
        print(f"{n} players: hint median {statistics.median(hints):.2f} s, review median "
              f"{statistics.median(reviews):.2f} s, view->state {1000 * statistics.median(rebuilds):.1f} ms")


if __name__ == "__main__":
    main()
