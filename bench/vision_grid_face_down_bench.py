"""Benchmark locating the grid in the frame a game starts from: all 36 tiles face down.

A game can be refereed only once its grid is found, and the face-down frame is the hardest
place to find it: no face-up tile stands out, and tiles laid by hand touch and make one
blob. For each style of a split, ``--frames`` such frames are rendered (their own layout
and seed) and ``vision.grid.locate`` is asked for the grid: right (every cell's centre
within ``--within`` of a pitch of its tile's, ``synth.Truth.off``), off, or none. Tune on
``--styles train`` only; the families are the held-out measure, read in totals.

    .venv/bin/python bench/vision_grid_face_down_bench.py --styles train --frames 2
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, as on the table's Pi budget

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser(description="Locating the grid in face-down frames.")
    ap.add_argument("--styles", choices=("bench", "train", "family", "family2"),
                    default="train")
    ap.add_argument("--frames", type=int, default=2, help="face-down frames a style")
    ap.add_argument("--seed", type=int, default=777000)
    ap.add_argument("--within", type=float, default=0.3,
                    help="a cell's centre this far from its tile's (in pitches) is still right")
    args = ap.parse_args()
    from companion.games.moerder.board import Board
    from vision import on_one_core, synth
    from vision.grid import GridNotFound, locate

    on_one_core()
    right, off, none = 0, [], []
    ms: list[float] = []
    for k, style in enumerate(synth.styles(args.styles)):
        for j in range(args.frames):
            seed = args.seed + 100 * k + j
            layout = synth.make_layout(style, seed)
            frame, truth = synth.render_table(Board(), style, seed, layout=layout, frame=1)
            t0 = time.process_time()
            try:
                grid = locate(frame)
            except GridNotFound:
                grid = None
            ms.append((time.process_time() - t0) * 1000)
            if grid is None:
                none.append(f"{style.name} seed {seed}")
                continue
            worst = truth.off(grid)[0]
            if worst <= args.within:
                right += 1
            else:
                off.append(f"{style.name} seed {seed} ({worst:.2f} pitches)")
    print(f"face-down frames, {args.styles} styles: grid right {right}/{len(ms)}, off "
          f"{len(off)}, none {len(none)}; locate's CPU a frame median "
          f"{statistics.median(ms):.0f} ms, worst {max(ms):.0f} ms (one core)")
    for what, names in (("off", off), ("none", none)):
        for name in names:
            print(f"  {what}: {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
