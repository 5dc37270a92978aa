#!/usr/bin/env python3
"""Markerless score pads read back: tables found right, numbers right / unsure / wrong, struck
boxes recognised, ms per photo on one core, per style family.

Sheets are rendered by ``vision.pad.synth`` with held-out handwritten digits (MNIST digits the
digit network never trained on, ``tests/data/pad_digits_heldout.npz``): the styles used while
building the reader ("tune") and one style never looked at while tuning ("heldout"), at the
Pi camera's 1640x1232 and at a phone's 3000x4000 (read at 1640x1232-ish inside: the table is
flattened at most 1400 px long). ms is the whole ``read_pad`` on one core (OpenCV and
Tesseract single-threaded).
``--pen ballpoint`` writes every digit as a ballpoint's thin line instead of MNIST's strokes;
``--hand continental`` gives every 1 its up-stroke and every 7 its bar. ``--sums`` reads the
printed labels too (Tesseract; its time is in ms then) and checks every sum row
(``vision.pad.sums``): the renders' players add up each sum, a tenth of them wrongly.
``--values kniffel`` fills each box as the Kniffel rules give it (a Zweier a multiple of 2
up to 10, a Full House 25; 3 % of boxes a slip, a number the row cannot hold), where the
default (``wide``) writes any number up to 50 (a score sheet of any game); read with the
labels (``--sums``), a doubtful number is then weighed by what its row may hold, unless
``--no-rules``. ``--turned`` gives the k-th photo k quarter turns before it is read (a pad
photographed from beside or across the table; the renders are the same). ``--photo`` takes
every photo worse than the renders do: ``shadow`` a hard-edged shadow (a phone or a hand
under a lamp) over a part of the page at 0.45-0.7 of the light, ``tilt`` the camera three
times as far off square, ``curl`` a page twice as far from flat, ``noise`` a dim room's
sensor noise (sigma 7 a channel, before any smoothing), ``far`` the sheet taken from further
off, filling 0.45-0.6 of the frame instead of 0.75-0.92. ``--paper squared`` puts every sheet
on squared paper (5 mm squares printed faintly, as German school pads are; people rule their
own score sheets on it).

    .venv/bin/python bench/pad_bench.py [--sheets 12] [--seed 7] [--pen felt|ballpoint]
        [--hand mnist|continental] [--sums] [--values wide|kniffel] [--no-rules] [--turned]
        [--photo plain|shadow|tilt|curl|noise|far] [--paper plain|squared]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import on_one_core  # noqa: E402
from vision.kniffel_pad.digits import DigitReader  # noqa: E402
from vision.kniffel_pad.hands import HANDS, continental  # noqa: E402
from vision.kniffel_pad.synth import PENS, in_noise, in_shadow  # noqa: E402
from vision.pad import PadError, PadReading, read_pad, synth  # noqa: E402
from vision.pad.rows import may_hold  # noqa: E402
from vision.pad.score import Score  # noqa: E402
from vision.pad.sums import check, settle  # noqa: E402

HELDOUT = ROOT / "tests" / "data" / "pad_digits_heldout.npz"
SIZES = {"camera 1640x1232": (1640, 1232), "phone 3000x4000": (3000, 4000)}
PHOTOS = ("plain", "shadow", "tilt", "curl", "noise", "far")
FAR = (0.45, 0.6)  # --photo far: the sheet fills half the frame or a little more


def shaded(photo: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A straight-edged shadow from one side of the photo over part of the page (also the
    printed pad's bench's ``--shadow``)."""
    top, bottom = rng.uniform(0.25, 0.75, 2)
    light = float(rng.uniform(0.45, 0.7))
    if rng.random() < 0.5:  # from the right: the photo mirrored, shaded, mirrored back
        return np.ascontiguousarray(in_shadow(photo[:, ::-1], top, bottom, light, 3)[:, ::-1])
    return in_shadow(photo, top, bottom, light, 3)


def _taken(how: str, style: synth.Style, bank: tuple[np.ndarray, np.ndarray],
           rng: np.random.Generator, **kw: object) -> synth.Rendered:
    """A sheet rendered and photographed ``how`` (one of ``PHOTOS``)."""
    r = synth.render(style, bank, rng, tilt=0.12 if how == "tilt" else 0.04,
                     curl=0.016 if how == "curl" else 0.008,
                     fill=FAR if how == "far" else synth.FILL, **kw)  # type: ignore[arg-type]
    if how == "shadow":
        return replace(r, photo=shaded(r.photo, rng))
    if how == "noise":
        return replace(r, photo=in_noise(r.photo, rng, 7))
    return r


def run(family: str, size: tuple[int, int], sheets: int, seed: int, reader: DigitReader,
        bank: tuple[np.ndarray, np.ndarray], pen: str = "felt", sums: Counter[str] | None = None,
        played: bool = False, rules: bool = True, turned: bool = False, how: str = "plain",
        squared: bool = False) -> tuple[Score, list[float]]:
    """``sums``: when given, the labels are read and every sum checked, counted into it (and
    the players' slips on a played card, ``slips``)."""
    styles = synth.styles(family)
    rng = np.random.default_rng(seed)
    score, ms = Score(), []
    for i in range(sheets):
        r = _taken(how, styles[i % len(styles)], bank, rng, size=size, pen=pen,
                   adding_up=sums is not None, played=played, squared=squared)
        photo = np.ascontiguousarray(np.rot90(r.photo, i % 4)) if turned else r.photo
        try:
            got = read_pad(photo, reader, text=sums is not None, rules=rules)
            if sums is not None:  # read-pad --sums: the sums settle what they can
                t0 = time.perf_counter()
                got = settle(got)
                got = replace(got, ms=got.ms + (time.perf_counter() - t0) * 1000.0)
        except PadError:
            score.add(r.tables, None)
            count_sums(r, None, sums)
            continue
        ms.append(got.ms)
        score.add(r.tables, got)
        count_sums(r, got, sums)
    return score, ms


def count_slips(r: synth.Rendered, got: PadReading | None, into: Counter[str]) -> None:
    """Numbers written where the row's label says they cannot be, and whether each was read
    as written."""
    for k, table in enumerate(r.tables):
        for row, cells in enumerate(table.cells):
            label = " ".join(c.text or "" for c in cells if c.kind == "label")
            can = may_hold(label)
            for col, cell in enumerate(cells):
                if can is None or cell.kind != "number" or cell.value in can:
                    continue
                into["slips"] += 1
                read = (got.tables[k].cells[row][col] if got is not None and k < len(got.tables)
                        and (got.tables[k].rows, got.tables[k].cols) == (table.rows, table.cols)
                        else None)
                into["slips read"] += read is not None and read.value == cell.value


def count_sums(r: synth.Rendered, got: PadReading | None, into: Counter[str] | None) -> None:
    """Each sum written on the render: added up wrongly or not, and what the check said."""
    if into is None:
        return
    count_slips(r, got, into)
    checks = {(c.table, c.row, c.col): c for c in check(got)} if got is not None else {}
    for k, table in enumerate(r.tables):
        for row, cells in enumerate(table.cells):
            for col, cell in enumerate(cells):
                if cell.should is None or cell.value is None:
                    continue
                kind = "right" if cell.value == cell.should else "wrong"
                into[kind] += 1
                found = checks.get((k, row, col))
                if found is None:
                    into[f"{kind} unchecked"] += 1
                elif found.ok is False:
                    into[f"{kind} flagged"] += 1
                    into[f"{kind} flagged surely"] += found.sure


def print_sums(sums: Counter[str]) -> None:
    if sums["slips"]:
        print(f"  numbers the row cannot hold (a player's slip), read as written: "
              f"{sums['slips read']}/{sums['slips']}")
    print(f"  sums written wrong, flagged: {sums['wrong flagged']}/{sums['wrong']} "
          f"({sums['wrong flagged surely']} surely; not checked {sums['wrong unchecked']})")
    print(f"  sums written right, flagged wrong: {sums['right flagged']}/{sums['right']} "
          f"({sums['right flagged surely']} surely; not checked {sums['right unchecked']})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sheets", type=int, default=12, help="sheets per family and size")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--model", type=Path, default=None, help="a digit model to try instead")
    ap.add_argument("--pen", choices=PENS, default="felt",
                    help="how the digits are drawn (default: MNIST's strokes)")
    ap.add_argument("--hand", choices=HANDS, default="mnist",
                    help="MNIST's own forms, or 1s and 7s written the continental way")
    ap.add_argument("--sums", action="store_true",
                    help="read the labels too and check every sum row (Tesseract: slower)")
    ap.add_argument("--values", choices=("wide", "kniffel"), default="wide",
                    help="any number up to 50 in a box, or what the Kniffel rules give")
    ap.add_argument("--no-rules", action="store_true",
                    help="with --sums, read without weighing a number by its row's label")
    ap.add_argument("--turned", action="store_true",
                    help="turn the k-th photo k quarter turns before reading it")
    ap.add_argument("--photo", choices=PHOTOS, default="plain",
                    help="every photo taken worse than the renders do (see above)")
    ap.add_argument("--paper", choices=("plain", "squared"), default="plain",
                    help="every sheet on plain paper, or on squared paper (5 mm squares)")
    args = ap.parse_args(argv)
    on_one_core()  # OpenCV and Tesseract on the calling thread
    with np.load(HELDOUT) as z:
        bank = (z["images"], z["labels"])
    if args.hand == "continental":
        bank = continental(bank, np.random.default_rng(args.seed))
    reader = DigitReader.load(args.model)
    for family in ("tune", "heldout"):
        for name, size in SIZES.items():
            sums: Counter[str] | None = Counter() if args.sums else None
            s, ms = run(family, size, args.sheets, args.seed, reader, bank, args.pen, sums,
                        args.values == "kniffel", not args.no_rules, args.turned, args.photo,
                        args.paper == "squared")
            wrong = s.numbers - s.numbers_right
            print(f"[{family} styles, {name}] {args.sheets} sheets, {args.pen} pen, "
                  f"{args.hand} hand, {args.values} values"
                  + (", read without the rows' rules" if args.no_rules else "")
                  + (", the k-th photo turned k quarters" if args.turned else "")
                  + (f", photos: {args.photo}" if args.photo != "plain" else "")
                  + (", on squared paper" if args.paper == "squared" else ""))
            print(f"  tables right (rows x cols): {s.tables_right}/{s.tables}")
            print(f"  numbers right: {s.numbers_right / max(1, s.numbers):.3f} "
                  f"({s.numbers_right}/{s.numbers}); wrong or missed {wrong}, "
                  f"of them unsure (<0.5) {s.numbers_unsure}")
            print(f"  struck recognised: {s.struck_right}/{s.struck}; "
                  f"blank right: {s.blank_right}/{s.blank}")
            print(f"  printed labels read as print: {s.labels_right}/{s.labels}; "
                  f"handwritten or blank cells read as print: {s.hand_as_print}")
            if sums is not None:
                print_sums(sums)
            if ms:
                print(f"  ms (one core): median {statistics.median(ms):.0f}, max {max(ms):.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
