#!/usr/bin/env python3
"""The printed Wort-Kniffel pad read back: boxes right, strikes found, ms per photo.

Pads are rendered by ``vision.kniffel_pad.synth`` with held-out handwritten digits (MNIST
digits the model never trained on, ``tests/data/pad_digits_heldout.npz``), in every layout
from 1 player x 1 game to 4 players x 3 games, then photographed: perspective tilt, uneven
light, blur, noise and JPEG. ms is the whole ``read_pad`` (markers, warp, every box, sums)
on one core (cv2.setNumThreads(1)), the median over the pads. One column of each pad has its
total written wrong: how many of those are flagged, and how many sums written right are
flagged wrong because a box or the sum was misread (a false alarm), each also counted only
where every box was read surely (the table tells no finding on an unsure read).
``--digits-only`` reads without the whole-number network, to see what it adds. ``--pen
ballpoint`` writes every digit as a ballpoint's thin line (the pens the game comes with)
instead of MNIST's own felt-pen strokes. ``--hand continental`` gives every 1 its
up-stroke and every 7 its bar, as most people write them at a German table
(``vision.kniffel_pad.hands``). ``--values game`` (the default) writes in each box what a
throw of the default dice can make there (a Full-House is 25, a Chance at most 29), as
players do; ``--values wide`` any number up to a box's old range (the figures before 29 Nov
were taken so). ``--no-rules`` reads every number alike, without weighing a doubtful reading
by what the box may hold. ``--shadow`` throws a hard-edged shadow (0.45-0.7 of the light)
over part of every photo, as a hand or a phone under a lamp does. ``--wrong-in any`` puts
the column's slip in the upper, the lower or the total sum alike (a wrong subtotal carried
on into the bonus and the total, as players go on from what they wrote) instead of the total
only, and counts the wrong sums flagged where the slip was made.

At the table the record is what was entered: a number read surely (``SURE``) otherwise than
written would be told to the table as a player's mistake, unless the reading's doubts hold
the entry, or (a box) its column's written sums add up with the entry and not as read.
The bench counts those false findings, and what the doubts cost: of every other number
each right, sure reading's box may hold (an entry the player wrote otherwise), how many
the doubts hold, so that such a slip would go untold.

    .venv/bin/python bench/kniffel_pad_bench.py [--pads 24] [--seed 11] [--tilt 0.05]
        [--pen felt|ballpoint] [--hand mnist|continental] [--values game|wide] [--no-rules]
        [--shadow] [--wrong-in total|any]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.kniffel.dice import DEFAULT_DICE  # noqa: E402
from companion.games.kniffel.pad import BOXES, Pad, settled_by_sums  # noqa: E402
from companion.games.kniffel.padcheck import SURE  # noqa: E402
from vision.kniffel_pad import synth  # noqa: E402
from vision.kniffel_pad.digits import NUMBERS_PATH, DigitReader  # noqa: E402
from vision.kniffel_pad.hands import HANDS, continental  # noqa: E402
from vision.kniffel_pad.layout import ROWS, Layout  # noqa: E402
from vision.kniffel_pad.reader import may_hold, read_pad  # noqa: E402

from pad_bench import shaded  # noqa: E402 (the bench beside this one)

SUM_ROW = {row.key: i for i, row in enumerate(ROWS) if row.is_sum}
BOX_KEYS = {b.value for b in BOXES}
HOLD = may_hold(DEFAULT_DICE)
HELDOUT = ROOT / "tests" / "data" / "pad_digits_heldout.npz"


def _pad(args: argparse.Namespace, layout: Layout, bank: tuple[np.ndarray, np.ndarray],
         rng: np.random.Generator
         ) -> tuple[int, int | None, dict[tuple[int, int], int | None], np.ndarray]:
    """A pad filled and photographed as the options say: the column whose total is written
    wrong, the column with the player's slip (or None), the truth, the photo."""
    wrong = int(rng.integers(0, layout.columns))
    slip = int(rng.integers(0, layout.columns)) if args.values == "game" else None
    img, truth, _ = synth.fill(layout, bank, rng, wrong=wrong,
                               fill_rate=float(rng.uniform(0.6, 1.0)), pen=args.pen,
                               drawn=args.values, slip=slip, wrong_in=args.wrong_in)
    photo = synth.photograph(img, rng, tilt=args.tilt)
    return wrong, slip, truth, shaded(photo, rng) if args.shadow else photo


def _right_sums(truth: dict[tuple[int, int], int | None], column: int) -> dict[str, int]:
    """What the column's sums come to by its boxes as written (a strike is 0)."""
    rows = {row.key: r for r, row in enumerate(ROWS)}
    values = [truth[(column, rows[b.value])] for b in BOXES]
    return Pad(tuple(None if v is None else max(v, 0) for v in values)).sums


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pads", type=int, default=24)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--tilt", type=float, default=0.05, help="corner jitter, share of the page")
    ap.add_argument("--model", type=Path, default=None, help="a digit model to try instead")
    ap.add_argument("--numbers", type=Path, default=NUMBERS_PATH,
                    help="a whole-number model to try instead")
    ap.add_argument("--digits-only", action="store_true",
                    help="read with the digit network alone (no whole-number reading)")
    ap.add_argument("--pen", choices=synth.PENS, default="felt",
                    help="how the digits are drawn (default: MNIST's strokes)")
    ap.add_argument("--hand", choices=HANDS, default="mnist",
                    help="MNIST's own forms, or 1s and 7s written the continental way")
    ap.add_argument("--values", choices=synth.VALUES, default="game",
                    help="what is written in the boxes (default: what the game gives)")
    ap.add_argument("--no-rules", action="store_true",
                    help="read without weighing a reading by what the box may hold")
    ap.add_argument("--shadow", action="store_true",
                    help="a hard-edged shadow over part of every photo")
    ap.add_argument("--wrong-in", choices=("total", "any"), default="total",
                    help="the sum one column of each pad adds up wrong: the total, or any "
                         "of the upper, lower and total sums")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    with np.load(HELDOUT) as z:
        bank = (z["images"], z["labels"])
    if args.hand == "continental":
        bank = continental(bank, np.random.default_rng(args.seed))
    reader = DigitReader.load(args.model, None if args.digits_only else args.numbers)
    rng = np.random.default_rng(args.seed)
    layouts = [Layout(p, g) for p in range(1, 5) for g in range(1, 4)]
    total = synth.Score()
    ms: list[float] = []
    slips = slips_read = 0
    sums_flagged = sums_wrong = false_alarms = sure_alarms = sure_flagged = sums_right = 0
    findings = untold = others = hidden = 0
    for i in range(args.pads):
        wrong, slip, truth, photo = _pad(args, layouts[i % len(layouts)], bank, rng)
        result = read_pad(photo, reader, None if args.no_rules else DEFAULT_DICE)
        ms.append(result.ms)
        synth.score(result, truth, total)
        for (column, row), value in truth.items() if slip is not None else ():
            if value is not None and value > 0 and value not in HOLD[row]:  # the slip
                slips += 1
                slips_read += result.columns[column].boxes[ROWS[row].key].value == value
        for col in result.columns:
            for r, row in enumerate(ROWS):
                box, written = col.boxes[row.key], truth[(col.column, r)]
                if written is None or box.value is None or box.struck or box.confidence < SURE:
                    continue
                written = max(written, 0)  # a strike is entered as 0
                if box.value != written:
                    findings += 1
                    untold += written in box.doubts or (row.key in BOX_KEYS and settled_by_sums(
                        {k: 0 if b.struck else b.value for k, b in col.boxes.items()},
                        {row.key: (written,)}) == {row.key: written})
                else:
                    entries = [v for v in HOLD[r] if v > 0 and v != written]
                    others += len(entries)
                    hidden += sum(v in box.doubts for v in entries)
        slipped = [k for k, v in _right_sums(truth, wrong).items()
                   if truth[(wrong, SUM_ROW[k])] not in (v, None) and k != "bonus"][0]
        sums_wrong += 1
        flagged = result.columns[wrong].sums[slipped].ok is False
        sums_flagged += flagged
        sure_flagged += flagged and result.columns[wrong].sums[slipped].sure
        for col in result.columns:  # every other sum is written right
            right = _right_sums(truth, col.column)
            for key, check in col.sums.items():
                written = truth[(col.column, SUM_ROW[key])]
                if written is None or max(written, 0) != right[key]:
                    continue  # the slip, and the sums that carry it on
                sums_right += 1
                false_alarms += check.ok is False
                sure_alarms += check.ok is False and check.sure
    n = total.numbers + total.struck
    print(f"pads: {args.pads} photos, {n} written boxes, {total.blank} blank "
          f"(held-out MNIST digits, {args.pen} pen, {args.hand} hand, {args.values} values, "
          + ("a hard shadow over each, " if args.shadow else "") +
          f"{'read without' if args.no_rules else 'weighed by'} what each box may hold)")
    print(f"written boxes right: {total.written:.4f} "
          f"({total.numbers_right + total.struck_right}/{n})")
    print(f"  numbers right:     {total.numbers_right / max(1, total.numbers):.4f} "
          f"({total.numbers_right}/{total.numbers})")
    print(f"  struck recognised: {total.struck_right / max(1, total.struck):.4f} "
          f"({total.struck_right}/{total.struck})")
    print(f"blank boxes right:   {total.blank_right / max(1, total.blank):.4f} "
          f"({total.blank_right}/{total.blank})")
    if slips:
        print(f"numbers the box cannot hold (a player's slip), read as written: "
              f"{slips_read}/{slips}")
    print(f"wrong {'totals' if args.wrong_in == 'total' else 'sums'} flagged: "
          f"{sums_flagged}/{sums_wrong} "
          f"({sure_flagged} with every box read surely, as the table tells them)")
    print(f"right sums flagged wrong (a box or the sum misread): {false_alarms}/{sums_right} "
          f"({sure_alarms} with every box read surely)")
    print(f"at the table, numbers read surely otherwise than written: {findings}, of them "
          f"not told (the entry among the reading's doubts, or the column adding up with "
          f"it): {untold}; another entry a "
          f"right, sure reading's box may hold, among its doubts: {hidden}/{others} "
          f"({100 * hidden / max(1, others):.2f} %)")
    print(f"ms per pad photo (one core): median {statistics.median(ms):.0f}, "
          f"max {max(ms):.0f}; photo size ~{photo.shape[1]}x{photo.shape[0]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
