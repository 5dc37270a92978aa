#!/usr/bin/env python3
"""Fit the two thresholds of the dice reader on the TUNE photos, and store them in the models.

- the finder's peak height above which a peak is a cube (``dice_finder.npz``, min_score);
- how surely the reader must call a found box "not a face" to drop it (``dice.npz``).

Every TUNE photo is read whole once with everything kept; then each pair of thresholds is
scored as the bench scores (``vision.dice_photos.score``), after the dice of another size
than the picture's are dropped as ``read_dice`` drops them (``vision.dice.one_size``).
Chosen: the most single-letter cubes found and read right while false dice stay at or below
``--false-per-20`` per 20 photos. REPORT photos are never read here.

    .venv/bin/python scripts/fit_dice_thresholds.py --photos DIR [--write]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dice_photos  # noqa: E402
from vision.dice import _crop, one_size  # noqa: E402
from vision.dice_find import FINDER_PATH, Finder, Spot  # noqa: E402
from vision.dice_photos import Found, Score  # noqa: E402
from vision.dice_read import READER_PATH, DiceReader  # noqa: E402

Kept = tuple[Spot, float, bool, Found]  # the peak, not-a-face probability, read surely, the die


def read_all(photos: list[dice_photos.Photo], finder: Finder, reader: DiceReader) -> list[list[Kept]]:
    out = []
    for photo in photos:
        img = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        spots = finder.find(img, 0.05)
        readings = reader.read_many([_crop(img, s) for s in spots])
        kept: list[Kept] = []
        for s, r in zip(spots, readings, strict=True):
            box = (s.x - s.w / 2, s.y - s.h / 2, s.x + s.w / 2, s.y + s.h / 2)
            kept.append((s, 1.0 - r.face, r.symbol is not None, (r.symbol or "?", (s.x, s.y), box)))
        out.append(kept)
    return out


def _kept(kept: list[Kept], score_thr: float, drop: float) -> list[Found]:
    faces = [k for k in kept if k[0].score >= score_thr and k[1] < drop]
    alike = one_size([k[0] for k in faces], [k[2] for k in faces])
    return [k[3] for k, ok in zip(faces, alike, strict=True) if ok]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, required=True, metavar="DIR")
    ap.add_argument("--finder", type=Path, default=FINDER_PATH)
    ap.add_argument("--reader", type=Path, default=READER_PATH)
    ap.add_argument("--false-per-20", type=float, default=0.5)
    ap.add_argument("--write", action="store_true", help="store the chosen thresholds in the models")
    args = ap.parse_args(argv)
    finder, reader = Finder.load(args.finder), DiceReader.load(args.reader)
    photos = dice_photos.load(args.photos, "tune")
    seen = read_all(photos, finder, reader)
    best: tuple[int, float, float, Score] | None = None
    for score_thr in np.arange(0.1, 0.81, 0.05):
        for drop in (0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.01):
            total = Score(0, 0, 0, 0, 0, ())
            for photo, kept in zip(photos, seen, strict=True):
                dice = _kept(kept, score_thr, drop)
                total = total + dice_photos.score(photo.cubes, dice)
            false20 = total.false * 20 / len(photos)
            if false20 <= args.false_per_20 and (best is None or total.right > best[0]):
                best = (total.right, float(score_thr), drop, total)
            print(f"peak {score_thr:.2f} drop {drop:.2f}: found {total.found / total.letters:.3f} "
                  f"right {total.right / total.letters:.3f} false/20 {false20:.2f}")
    if best is None:
        print("no thresholds keep false dice that low", file=sys.stderr)
        return 1
    _, score_thr, drop, total = best
    print(f"chosen: peak {score_thr:.2f}, drop not-a-face at {drop:.2f} "
          f"(TUNE: found {total.found / total.letters:.3f}, right {total.right / total.letters:.3f}, "
          f"false {total.false * 20 / len(photos):.2f} per 20 photos)")
    if args.write:
        finder.min_score = round(score_thr, 2)
        finder.save(args.finder)
        reader.drop_not_a_face = drop
        reader.save(args.reader)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
