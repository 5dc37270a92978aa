"""Benchmark the grid reader: accuracy on unseen-style renders, real trays, speed and memory.

    .venv/bin/python bench/vision_grid_bench.py [--boards N] [--seed S] [--quick]
        [--styles bench|train|family|family2] [--first K] [--letters NPZ] [--modes M]
        [--only-renders] [--errors [DIR]] [--photos DIR [--split report|tune|all]]

``--styles train`` measures on the train styles instead (the ones to diagnose and tune on);
``--styles family`` on the held-out family (letterings, tile materials, backs, victims,
tables, lights and lenses that neither the reader's tuning nor its training ever used);
``--styles family2`` on a second such family, never looked at (read it in totals only);
``--errors`` prints every wrong or unsure cell (style, wanted, got, confidence) and, with a
directory, saves its crop there (the games: every cell not right at the end of a turn, no
crop). Use ``--errors`` on the train styles only: the bench styles are the held-out measure,
to be looked at in totals.

* Accuracy on renders in the **bench** styles of ``vision.synth`` (fonts of the letter
  reader's *test* split, back patterns, colours and victim pictures never used for tuning),
  with and without a reference frame: per cell (the notation character, and the rotation for
  letters) and per board (every cell right). Targets: >= 99.9 % cells, >= 99 % boards. Each
  board's read is timed whole, as ``read-grid`` makes it (locating included, and on a board
  whose grid is not found, every look until it gave up): median, 90th, worst, and how many
  took over 250 ms.
* Real photos (``--photos DIR``: a set of real photos of letter cubes in trays, with
  annotated boxes in ``DIR/annotations.csv``): does read-grid's locator find the 6x6 trays,
  and does it stay quiet on the 4x4 and 5x5 ones (the annotations give each photo's cube
  count)? The locator's rules were chosen on the TUNE photos (``vision.dice_photos``), so
  REPORT (the default ``--split``) is the fair measure. Without ``--photos`` that part is
  skipped and says so.
* Speed on one core for a 1640x1232 frame: locate + read all 36, re-read one changed cell,
  and a still frame with no change; memory: RSS growth from importing and loading the reader.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core, as on the table's Pi budget

import argparse  # noqa: E402
import csv  # noqa: E402
import math  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter, defaultdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:
    import numpy as np

    from vision.grid import Grid
    from vision.letters import LetterReader
    from vision.synth import Style
    from vision.tiles import CellReading

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def describe_styles(split: str, styles: list[Style]) -> None:
    """Say what the measured styles hold, so a figure can be read against its styles."""
    held = "held out of all tuning and training"
    note = {"bench": "never used for tuning", "train": "the tuning split", "family": held,
            "family2": held + ": a second family, never looked at"}[split]
    letters = sorted({s.font.stem if s.font is not None else s.lettering.value for s in styles})
    print(f"{split} styles ({len(styles)}, {note}): " + ", ".join(letters))
    print("  back patterns: " + ", ".join(sorted({s.pattern.value for s in styles}))
          + "; victims: " + ", ".join(sorted({s.victim.value for s in styles})))
    if split in ("family", "family2"):
        print("  materials: " + ", ".join(sorted({s.material.value for s in styles}))
              + "; tables: " + ", ".join(sorted({s.table.value for s in styles}))
              + "; lights: " + ", ".join(sorted({repr(s.light) for s in styles}))
              + "; lenses: " + ", ".join(sorted({repr(s.lens) for s in styles})))


def arguments() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--boards", type=int, default=60, help="rendered boards per mode")
    ap.add_argument("--seed", type=int, default=20261123)
    ap.add_argument("--quick", action="store_true", help="a few boards, for a smoke run")
    ap.add_argument("--styles", choices=("bench", "train", "family", "family2"),
                    default="bench", help="the split of synth styles to render (tune on train)")
    ap.add_argument("--first", type=int, default=0, metavar="K",
                    help="render only the split's styles from the K-th on (the newest alone)")
    ap.add_argument("--letters", type=Path, default=None, metavar="NPZ",
                    help="a letter model to try instead of the shipped one")
    ap.add_argument("--modes", default="reference,none",
                    help="comma list of: reference, none (reader modes to measure)")
    ap.add_argument("--shadow", action="store_true",
                    help="a hand's soft shadow over each board (the reference taken without)")
    ap.add_argument("--only-renders", action="store_true",
                    help="skip the real photos and the speed runs")
    ap.add_argument("--games", type=int, default=3, metavar="N",
                    help="games read as the table reads them (each on the next style)")
    ap.add_argument("--turns", type=int, default=12, metavar="T", help="turns a game")
    ap.add_argument("--still", type=int, default=3, metavar="S",
                    help="still frames a turn in the games (the table reads 4 a second)")
    ap.add_argument("--only-games", action="store_true",
                    help="only the games as the table reads them")
    ap.add_argument("--errors", nargs="?", const="", default=None, metavar="DIR",
                    help="print each wrong/unsure cell; with DIR, save its crop there")
    ap.add_argument("--photos", type=Path, default=None, metavar="DIR",
                    help="real photos of letter cubes in trays, with annotations.csv "
                         "(filename, xmin, ymin, xmax, ymax per cube)")
    ap.add_argument("--split", choices=("report", "tune", "all"), default="report",
                    help="which photos to score (vision.dice_photos' split of their names): "
                         "the locator's rules were chosen on TUNE")
    args = ap.parse_args()
    if not {m.strip() for m in args.modes.split(",")} <= {"reference", "none"}:
        ap.error("--modes takes reference and/or none")
    return args


def main() -> int:
    args = arguments()
    base = rss_mb()
    import cv2
    import numpy as np

    cv2.setNumThreads(1)
    from vision import synth
    from vision.letters import LetterReader

    letters = LetterReader.load(args.letters)
    loaded = rss_mb()
    print(f"memory: {loaded - base:.0f} MB RSS for numpy+OpenCV+vision and the letter model "
          f"({base:.0f} -> {loaded:.0f} MB)")

    styles = synth.styles(args.styles)[args.first:]
    if not styles:
        raise SystemExit(f"vision_grid_bench: error: --first {args.first} leaves no style")
    describe_styles(args.styles, styles)

    if args.only_games:
        speed(args, letters, styles)
        return 0
    err_dir = Path(args.errors) if args.errors else None
    if err_dir is not None:
        err_dir.mkdir(parents=True, exist_ok=True)
    for m in args.modes.split(","):
        mode = "reference" if m.strip() == "reference" else "no reference"
        # the same boards in every mode, whichever modes are asked for
        one_mode(args, letters, styles, mode, np.random.default_rng(args.seed), err_dir)
    if args.only_renders:
        return 0
    real_trays(args)
    speed(args, letters, styles)
    print(f"memory after the runs: {rss_mb() - base:.0f} MB RSS above the bare interpreter")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} (on a busy machine the "
          "figures are pessimistic)")
    return 0


def one_mode(args: argparse.Namespace, letters: LetterReader, styles: list[Style], mode: str,
             rng: np.random.Generator, err_dir: Path | None) -> None:
    """Cells and boards right on rendered boards in one reader mode (with or without a
    reference frame); ``--errors`` lists each cell not right."""
    from companion.games.moerder.board import CELLS, Board
    from companion.progress import progress
    from vision import synth
    from vision.grid import GridNotFound
    from vision.observation import read_grid
    from vision.tiles import TileReader

    n_boards = 6 if args.quick else args.boards
    t: Counter[str] = Counter()  # cells, right, unsure, wrong, boards_ok, not_found, rot_*
    errors: Counter[str] = Counter()
    by_style: Counter[str] = Counter()
    took: list[tuple[float, int]] = []  # read-grid's whole time a board, and the board
    try:  # the libraries' first use, paid once by a process, not by the first board's time
        read_grid(synth.render_table(Board(), styles[0], args.seed - 1)[0], TileReader(letters))
    except GridNotFound:
        pass
    for k in progress(range(n_boards), n_boards, f"renders ({mode})"):
        style = styles[k % len(styles)]
        seed = args.seed + k
        layout = synth.make_layout(style, seed)
        board = synth.random_board(rng)
        img, truth = synth.render_table(board, style, seed, layout=layout)
        if args.shadow:
            img = synth.hand_shadow(img, truth.corners, seed)
        tiles = TileReader(letters)
        ref = None
        if mode == "reference":
            ref, _ = synth.render_table(Board(), style, seed, layout=layout, frame=1)
        t0 = time.perf_counter()
        try:
            obs, g = read_grid(img, tiles, reference=ref)
        except GridNotFound:
            obs = None
        took.append(((time.perf_counter() - t0) * 1000, k))
        if obs is None:
            t["not_found"] += 1
            t["cells"] += CELLS
            by_style[style.name] += CELLS
            if args.errors is not None:
                print(f"  [{mode}] board {k} seed {seed} {style.name}: no grid found")
            continue
        ok = True
        crops = None
        # a cell the grid crops more than half a pitch off its tile reads another place than
        # the board's: whatever it reads there (face down, mostly, where most tiles are) is
        # no reading of its tile, so it is wrong (or unsure)
        offs = truth.cells_off(g)
        off = [d > 0.5 for d in offs]
        if any(off):
            t["off"] += 1
            ok = False
            if args.errors is not None:
                print(f"  [{mode}] board {k} seed {seed} {style.name}: {sum(off)} cells off "
                      f"their tiles (up to {max(offs):.2f} pitches)")
        for i, (cell, tile) in enumerate(zip(obs.cells, board.cells, strict=True)):
            t["cells"] += 1
            want = "." if tile is None else tile.value
            got = cell.char
            if off[i]:
                by_style[style.name] += 1
                t["unsure" if got == "?" else "wrong"] += 1
                errors["cell off its tile"] += 1
                continue
            bad = got != want or (tile is not None and tile.is_letter
                                  and cell.rotation != truth.rotations[i])
            if bad and args.errors is not None:
                crops = show_error(mode, k, seed, style, i, cell, want, truth.rotations[i],
                                   img, g, crops, err_dir)
            if bad or got == "?":
                by_style[style.name] += 1
            if got == "?":
                t["unsure"] += 1
                ok = False
                errors[f"{want}->?"] += 1
                continue
            good = got == want
            if good and tile is not None and tile.is_letter:
                t["rot_total"] += 1
                if cell.rotation == truth.rotations[i]:
                    t["rot_right"] += 1
                else:
                    good = False
                    errors[f"{want} rotation"] += 1
            if good:
                t["right"] += 1
            else:
                t["wrong"] += 1
                ok = False
                if got != want:
                    errors[f"{want}->{got}"] += 1
        t["boards_ok"] += ok
        # the board as the game sees it: letters face any way in the rules
        t["boards_letters"] += obs.grid == str(board) and not any(off)
    summary(mode + (", a hand's shadow" if args.shadow else ""), n_boards, t, errors, by_style)
    read_times(took)


def read_times(took: list[tuple[float, int]]) -> None:
    """read-grid's whole time a board (ms, board): median, 90th, worst, over the budget."""
    if not took:
        return
    ms = sorted(took)
    print(f"  read-grid's time a board, one core (the whole read; a board without a grid "
          f"until it gave up): median {statistics.median(m for m, _ in ms):.0f} ms, 90th "
          f"{ms[int(0.9 * (len(ms) - 1))][0]:.0f} ms, worst {ms[-1][0]:.0f} ms (board "
          f"{ms[-1][1]}); over 250 ms: {sum(m > 250 for m, _ in ms)} of {len(ms)}")


def show_error(mode: str, k: int, seed: int, style: Style, i: int, cell: CellReading,
               want: str, rotation: int, img: np.ndarray, g: Grid,
               crops: list[np.ndarray] | None, err_dir: Path | None) -> list[np.ndarray] | None:
    """One cell not right, on stderr; its crop saved under ``err_dir``. Returns the frame's
    crops (cut once, at the first error)."""
    import cv2

    from vision.observation import crops_of

    print(f"  [{mode}] board {k} seed {seed} {style.name} ({style.pattern.value}/"
          f"{style.victim.value}) cell {i}: want {want}@{rotation} "
          f"got {cell.char}@{cell.rotation} {cell.state.value} "
          f"conf {cell.confidence:.2f}", file=sys.stderr)
    if err_dir is None:
        return crops
    crops = crops if crops is not None else crops_of(img, g)
    tag = "ref" if mode == "reference" else "noref"
    cv2.imwrite(str(err_dir / f"{tag}-b{k}-c{i}-{want}-{cell.char}.png"), crops[i])
    return crops


def summary(mode: str, n_boards: int, t: Counter[str], errors: Counter[str],
            by_style: Counter[str]) -> None:
    cells = t["cells"]
    print(f"renders, {mode}: {n_boards} boards, {cells} cells: "
          f"{100 * t['right'] / cells:.2f} % cells right, {100 * t['unsure'] / cells:.2f} % unsure, "
          f"{100 * t['wrong'] / cells:.2f} % wrong; boards all right {t['boards_ok']}/{n_boards} "
          f"({100 * t['boards_ok'] / n_boards:.1f} %); grid not found {t['not_found']}, with cells "
          f"off their tiles {t['off']}; "
          f"letter rotation right {t['rot_right']}/{t['rot_total']}")
    located = n_boards - t["not_found"]
    if located:
        print(f"  of the {located} boards whose grid was found: "
              f"{100 * t['right'] / (36 * located):.2f} % cells right, "
              f"{100 * t['boards_ok'] / located:.1f} % boards all right")
    print(f"  boards the game sees right (each letter and face down as placed, turns aside, "
          f"no cell unsure): {t['boards_letters']}/{n_boards}")
    print("  most common errors: " + ", ".join(f"{e} {n}" for e, n in errors.most_common(8)))
    print("  cells not right by style: "
          + (", ".join(f"{s} {n}" for s, n in by_style.most_common(6)) or "none"))


def real_trays(args: argparse.Namespace) -> None:
    """Is the 6x6 found on the real 6x6 trays, and never on the 4x4 and 5x5 ones?"""
    import cv2
    import numpy as np

    from companion.progress import progress
    from vision.dice_photos import split_of
    from vision.grid import GridNotFound, locate

    photos: Path | None = args.photos
    ann = photos / "annotations.csv" if photos is not None else None
    if photos is None:
        print("real photos: skipped (no --photos DIR given)")
    elif ann is None or not ann.is_file():
        print(f"real photos: skipped ({ann} not found)")
    else:
        per: dict[str, list[tuple[float, float, float, float]]] = defaultdict(list)
        with open(ann, newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                if args.split != "all" and split_of(row["filename"]) != args.split:
                    continue
                per[row["filename"]].append(tuple(float(row[k]) for k in
                                                  ("xmin", "ymin", "xmax", "ymax")))  # type: ignore[arg-type]
        found: dict[int, list[bool]] = defaultdict(list)
        overlap: list[float] = []
        for name, boxes in progress(sorted(per.items()), len(per), "real photos"):
            img = cv2.imread(str(photos / name))
            if img is None:
                continue
            n = len(boxes)
            side = {16: 4, 25: 5, 36: 6}.get(n, 0)
            try:
                g = locate(img)
                hit = True
            except GridNotFound:
                hit = False
            found[side].append(hit)
            if hit and side == 6:
                b = np.array(boxes)
                x0, y0 = b[:, 0].min(), b[:, 1].min()
                x1, y1 = b[:, 2].max(), b[:, 3].max()
                gx0, gy0 = g.corners.min(axis=0)
                gx1, gy1 = g.corners.max(axis=0)
                ix = max(0.0, min(x1, gx1) - max(x0, gx0))
                iy = max(0.0, min(y1, gy1) - max(y0, gy0))
                inter = ix * iy
                union = (x1 - x0) * (y1 - y0) + (gx1 - gx0) * (gy1 - gy0) - inter
                overlap.append(inter / union)
        for side in (6, 5, 4):
            hits = found.get(side, [])
            if hits:
                what = "found" if side == 6 else "a 6x6 grid wrongly reported"
                print(f"real {side}x{side} trays ({args.split.upper()}): {what} in "
                      f"{sum(hits)}/{len(hits)}")
        if overlap:
            good = sum(o > 0.7 for o in overlap)
            print(f"  6x6 found: box IoU with the cubes' extent median {statistics.median(overlap):.2f}, "
                  f"{good}/{len(overlap)} above 0.7 (the right grid, not just any 6x6)")

def speed(args: argparse.Namespace, letters: object, styles: list) -> None:  # type: ignore[type-arg]
    """Time per 1640x1232 frame on one core, as the table reads a game: every frame through
    the runtime's ``TableReader`` (stillness gate, compare with the last stable frame, read
    what changed), a hand over the grid between turns; and one photo read whole, as
    ``read-grid`` does. Wall time and this thread's CPU time (OpenCV held to one thread), so
    a busy machine shows in the one and not the other."""
    import numpy as np

    from companion.games.moerder.board import Board
    from companion.progress import progress
    from vision import synth
    from vision.observation import TableReader, read_grid
    from vision.tiles import TileReader

    size = (1640, 1232)
    games, turns = (1, 6) if args.quick else (args.games, args.turns)
    wall: list[float] = []
    cpu: list[float] = []
    read_wall: list[float] = []
    first: list[float] = []
    which: list[str] = []  # each frame of ``cpu``, named
    right = judged = unsure = wrong = 0  # boards, and cells of the boards read
    missed: list[str] = []
    for g in progress(range(games), games, "games"):
        style = styles[g % len(styles)]
        seed = args.seed + 999 + g
        before = right
        boards = synth.game_boards(seed, turns)
        layout = synth.make_layout(style, seed, size)
        ref, _ = synth.render_table(Board(), style, seed, layout=layout, frame=10_000)
        reader = TableReader(TileReader(letters), still_frames=2)  # type: ignore[arg-type]
        reader.learn_reference(ref)
        frames = list(synth.render_game(boards, style, seed, size=size,
                                        still_frames=args.still))
        last = None
        for k, fr in enumerate(frames):
            t0, c0 = time.perf_counter(), time.thread_time()
            obs = reader.read(fr.image)
            w, c = (time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000
            wall.append(w)
            cpu.append(c)
            which.append(f"{style.name} seed {seed} frame {k}")
            if obs is not None and obs.changed:
                (first if len(obs.changed) == 36 else read_wall).append(w)
            if obs is not None:
                last = obs
            end_of_turn = k + 1 == len(frames) or frames[k + 1].turn != fr.turn
            if end_of_turn:
                judged += 1
                right += last is not None and last.grid == str(boards[fr.turn])
                if last is None and args.errors is not None:
                    print(f"  [game] {style.name} seed {seed} turn {fr.turn}: no grid read yet")
                if last is not None:
                    pairs = list(zip(last.grid, str(boards[fr.turn]), strict=True))
                    unsure += sum(read == "?" for read, _ in pairs)
                    wrong += sum(read not in ("?", want) for read, want in pairs)
                    for at, (read, want) in enumerate(pairs if args.errors is not None else []):
                        if read != want:  # the board's text has a "/" after each row of six
                            print(f"  [game] {style.name} seed {seed} turn {fr.turn} cell "
                                  f"{at - at // 7}: want {want} got {read}")
        if right - before < turns + 1:
            missed.append(f"{style.name} seed {seed} ({right - before}/{turns + 1})")
    q = sorted(wall)
    print(f"speed, a game as the table reads it ({games} games, {len(wall)} frames of "
          f"1640x1232, a hand between turns, one core): per frame median {statistics.median(wall):.0f} ms, "
          f"95th {q[int(0.95 * (len(q) - 1))]:.0f} ms, worst {max(wall):.0f} ms (CPU median "
          f"{statistics.median(cpu):.0f}, worst {max(cpu):.0f} ms)")
    if read_wall:
        print(f"  frames that re-read changed cells: median {statistics.median(read_wall):.0f} ms, "
              f"worst {max(read_wall):.0f} ms; first read of each game (all 36 cells): "
              + (", ".join(f"{t:.0f}" for t in first) if len(first) <= 6 else
                 f"median {statistics.median(first):.0f}, worst {max(first):.0f}") + " ms")
    slowest = sorted(zip(cpu, which), reverse=True)[:5]
    print("  slowest frames (CPU ms): " + ", ".join(f"{c:.0f} ({w})" for c, w in slowest))
    print(f"  boards right at the end of each turn: {right}/{judged}"
          + ("; games not all right: " + ", ".join(missed) if missed else ""))
    print(f"  cells of those boards (where a grid was read): {unsure} unsure, {wrong} wrong")
    if not args.only_games:
        photo_speed(args, letters, styles)


def photo_speed(args: argparse.Namespace, letters: object, styles: list) -> None:  # type: ignore[type-arg]
    """One photo read whole, as ``read-grid`` does (locate, crop, read all 36; with a
    reference, the reference learned too): one board on every style of the split, each read
    twice and the quicker kept (the first read of a process pays nothing more: the reader
    pays the libraries' first use when it is made), so the median and the worst are over
    styles, not over the machine's hiccups."""
    import numpy as np

    from companion.games.moerder.board import Board
    from vision import synth
    from vision.grid import GridNotFound
    from vision.observation import read_grid
    from vision.tiles import TileReader

    size = (1640, 1232)
    times: dict[str, list[tuple[float, str]]] = {"without a reference": [], "with --reference": []}
    for k, style in enumerate(styles[:4] if args.quick else styles):
        seed = args.seed + 999 + k
        layout = synth.make_layout(style, seed, size)
        board = synth.random_board(np.random.default_rng(seed), face_up=20)
        frame, _ = synth.render_table(board, style, seed, layout=layout)
        ref, _ = synth.render_table(Board(), style, seed, layout=layout, frame=1)
        for mode, reference in (("without a reference", None), ("with --reference", ref)):
            best = math.inf
            for _ in range(2):
                try:
                    obs, _ = read_grid(frame, TileReader(letters), reference=reference)  # type: ignore[arg-type]
                    best = min(best, obs.ms)
                except GridNotFound:
                    break
            if best < math.inf:
                times[mode].append((best, style.name))
    for mode, got in times.items():
        if not got:
            continue
        ms = sorted(t for t, _ in got)
        worst = max(got)
        print(f"speed, one photo read whole ({mode}; read-grid's ms, {len(got)} styles, the "
              f"quicker of two reads): median {statistics.median(ms):.0f} ms, 90th "
              f"{ms[int(0.9 * (len(ms) - 1))]:.0f} ms, worst {worst[0]:.0f} ms ({worst[1]})")


if __name__ == "__main__":
    sys.exit(main())
