"""What the card games' pages cost per table change: apply + view time and the view's JSON size.

Every event the table takes is followed by ``GAME.view`` and one snapshot to each phone over
server-sent events, so the view's size is what a phone downloads per card drawn or hand entered.
Runs a long Murdero game (hands until someone reaches 100) and many Serial Killer games played
with random cards and random legal choices (seeded), and prints per-event medians and maxima.

    .venv/bin/python bench/cardpages_views.py [--seed 1] [--games 20]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from companion.games.base import Timeline
from companion.games.murdero import GAME as MURDERO
from companion.games.serialkiller import GAME as SK
from companion.games.serialkiller import legal
from companion.games.serialkiller.view import unseen

PLAYERS = ["Ana", "Ben", "Cem", "Dee"]


def _measure(timeline: Timeline[Any], body: dict[str, Any], rules: Any) -> tuple[Timeline[Any], float, int]:
    start = time.perf_counter()
    timeline, _ = timeline.push(rules.decode(body))
    view = rules.view(timeline.state)
    size = len(json.dumps(view, ensure_ascii=False).encode())
    return timeline, time.perf_counter() - start, size


def murdero(rng: random.Random) -> tuple[list[float], list[int]]:
    times, sizes = [], []
    tl = Timeline.start(MURDERO, {"players": PLAYERS})
    while not MURDERO.view(tl.state)["over"]:
        winner = rng.choice(PLAYERS)
        players = []
        for name in PLAYERS:
            if name == winner:
                cases = [{"colour": "red", "cards": [1, 2, 3, 4, 5]}]
            else:
                cases = [{"colour": "blue", "cards": [1, 2][: rng.randint(0, 2)]}]
                cases = [c for c in cases if c["cards"]]
            players.append({"name": name, "cases": cases, "held": [f"G{rng.randint(1, 2)}"]})
        tl, dt, size = _measure(tl, {"type": "hand_entered", "hand": {"players": players, "ended_by": "case"}},
                                MURDERO)
        times.append(dt)
        sizes.append(size)
        if MURDERO.view(tl.state)["over"]:
            break
        tl, dt, size = _measure(tl, {"type": "next_turn"}, MURDERO)
        times.append(dt)
        sizes.append(size)
    return times, sizes


def serialkiller(rng: random.Random, games: int) -> tuple[list[float], list[int], int]:
    times, sizes, events = [], [], 0
    for _ in range(games):
        tl = Timeline.start(SK, {"players": PLAYERS[:3], "first": rng.randrange(3)})
        for _ in range(2000):
            moves = legal(tl.state)
            if not moves:
                break
            move = rng.choice(moves)
            view = SK.view(tl.state)
            if move == "draw":
                body: dict[str, Any] = {"type": "draw", "card": rng.choice(unseen(tl.state))}
            elif move == "inform":
                targets = [p["name"] for p in view["players"] if not p["arrested"] and not p["current"]]
                body = {"type": "inform", "target": rng.choice(targets)}
            elif move == "bury" and view["phase"] == "ending":
                body = {"type": "bury", "grave": rng.choice([g["number"] for g in view["graves"] if g["open"]])}
            else:
                body = {"type": move}
            tl, dt, size = _measure(tl, body, SK)
            times.append(dt)
            sizes.append(size)
            events += 1
    return times, sizes, events


def _line(name: str, times: list[float], sizes: list[int], n: int) -> str:
    return (f"{name:<13} {n:6d} events  apply+view median {statistics.median(times) * 1e3:6.3f} ms"
            f"  max {max(times) * 1e3:6.2f} ms   view JSON median {statistics.median(sizes) / 1024:5.1f} KiB"
            f"  max {max(sizes) / 1024:5.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=20, help="Serial Killer games to play")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mt, ms = murdero(rng)
    print(_line("murdero", mt, ms, len(mt)))
    st, ss, n = serialkiller(rng, args.games)
    print(_line("serialkiller", st, ss, n))


if __name__ == "__main__":
    main()
