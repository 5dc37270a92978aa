"""Benchmark the card games' pure cores: Serial Killer events and Murdero hand scoring.

Run: ``.venv/bin/python bench/cards_engines.py``. Prints events per second for Serial Killer
(apply only, over seeded random legal games), the time to fold a whole game log (what the
runtime does after a power cut), and hands scored per second for Murdero. Figures depend on
the machine and its load; nothing here asserts a time.
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc

from companion.games.base import fold
from companion.games.murdero import score_hand
from companion.games.murdero.simulate import random_hand
from companion.games.serialkiller import GAME
from companion.games.serialkiller.simulate import play_random


def serial_killer(games: int = 200) -> None:
    played = [
        play_random(["Ann", "Bob", "Cid", "Dee"][: 2 + s % 3], random.Random(s)) for s in range(games)
    ]
    events = sum(len(p.events) for p in played)
    start = time.perf_counter()
    for p in played:
        state = p.states[0]
        for event in p.events:
            state = GAME.apply(state, event).state
    took = time.perf_counter() - start
    print(f"serialkiller: {games} games, {events} events, mean {events / games:.0f} events/game")
    print(f"serialkiller: apply {events / took:,.0f} events/s ({took / events * 1e6:.1f} µs/event)")
    folds = []
    for p in played[:50]:
        t0 = time.perf_counter()
        fold(GAME, p.setup, p.events)
        folds.append(time.perf_counter() - t0)
    print(
        f"serialkiller: fold a whole game: median {statistics.median(folds) * 1e3:.2f} ms, max {max(folds) * 1e3:.2f} ms"
    )
    tracemalloc.start()
    fold(GAME, played[0].setup, played[0].events)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"serialkiller: fold peak memory {peak / 1024:.0f} KiB for {len(played[0].events)} events (all states kept)"
    )


def murdero(hands: int = 3000) -> None:
    rng = random.Random(1)
    entries = [random_hand(rng, ["Ann", "Bob", "Cid", "Dee"]) for _ in range(hands)]
    start = time.perf_counter()
    for entry in entries:
        score_hand(entry)
    took = time.perf_counter() - start
    print(
        f"murdero: validate + score {hands / took:,.0f} hands/s ({took / hands * 1e6:.0f} µs/hand, 4 players)"
    )


if __name__ == "__main__":
    serial_killer()
    murdero()
