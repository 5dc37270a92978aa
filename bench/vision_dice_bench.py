#!/usr/bin/env python3
"""The dice reader on whole photos of letter cubes: found, read right, false dice, time.

``--photos DIR`` is a folder of photos with ``annotations.csv`` (filename, width, height,
class, xmin, ymin, xmax, ymax per cube). Each photo is read WHOLE by ``vision.dice.read_dice``
(no crops handed in). Photos are split by a hash of the file name (``vision.dice_photos``):
TUNE is what the networks and thresholds were fitted on, REPORT was never used for fitting;
the figures to quote are REPORT's.

Scored per single-letter cube (a-z): *found* when a found die matches it (IoU >= 0.5 or the
die's centre inside its box, one die per cube), *read right* when that die's letter is the
cube's; '?' counts as not right. *False dice* are found dice matching no annotated cube of
any kind (Qu, digraph and wild cubes are cubes too), given per 20 photos. Times are one core
(cv2.setNumThreads(1)): per photo as it is (416x416), and per 1640x1232 frame: the photo
scaled to 1232 px high in the middle of a frame of that size (the frame is also scored).

*Digits* on the photos: dice given a value read from a printed digit. Letter cubes print
none, so every one is invented.

``--renders N``: N throws of the seven Wort-Kniffel dice rendered in the bench fonts (never
trained on: Carlito, Caladea, URW Gothic, DejaVu Serif), 1640x1232, read without a dice set;
of the dice found and read sure and right (the diamond aside, it prints no digit), the value
digit read right, unsure (no value) or wrong.

    .venv/bin/python bench/vision_dice_bench.py --photos DIR [--split report|tune|both]
    .venv/bin/python bench/vision_dice_bench.py --renders 60
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import dice_photos  # noqa: E402
from vision.dice import DiceFound, DiceModels, read_dice  # noqa: E402
from vision.dice_find import Finder  # noqa: E402
from vision.dice_photos import Found, Photo, Score  # noqa: E402
from vision.dice_read import DiceReader  # noqa: E402

FRAME = (1640, 1232)
INVENTED = [0, 0]  # dice given a printed digit: in the photos as they are, in the frames
# CPU ms of each read (time.process_time): on a machine shared with trainings the wall times
# say more about the neighbours than about the reader
CPU: dict[str, list[float]] = {"photo": [], "frame": []}


def as_found(result: DiceFound, scale: float = 1.0, dx: float = 0.0) -> list[Found]:
    """The dice in the photo's own pixels (undoing the frame's scale and offset)."""
    out: list[Found] = []
    for d in result.dice:
        xs = [(p[0] - dx) / scale for p in d.corners]
        ys = [p[1] / scale for p in d.corners]
        centre = ((d.center[0] - dx) / scale, d.center[1] / scale)
        out.append((d.letter, centre, (min(xs), min(ys), max(xs), max(ys))))
    return out


def framed(img: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The photo scaled to the frame's height, centred in a 1640x1232 frame."""
    w, h = FRAME
    scale = h / img.shape[0]
    big = cv2.resize(img, (round(img.shape[1] * scale), h), interpolation=cv2.INTER_CUBIC)
    left = (w - big.shape[1]) // 2
    frame = cv2.copyMakeBorder(big, 0, 0, left, w - big.shape[1] - left, cv2.BORDER_REPLICATE)
    return frame, scale, float(left)


def digits_read(result: DiceFound) -> int:
    return sum(d.value_from in ("digit", "digit-not-set") for d in result.dice)


def run(photos: list[Photo], models: DiceModels, frames: bool) -> tuple[Score, Score | None, list[float], list[float]]:
    total = Score(0, 0, 0, 0, 0, ())
    total_frames: Score | None = Score(0, 0, 0, 0, 0, ()) if frames else None
    ms: list[float] = []
    ms_frame: list[float] = []
    for photo in photos:
        img = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if img is None:
            print(f"  {photo.path.name}: unreadable, skipped")
            continue
        t0, c0 = time.perf_counter(), time.process_time()
        result = read_dice(img, models=models)
        ms.append((time.perf_counter() - t0) * 1000)
        CPU["photo"].append((time.process_time() - c0) * 1000)
        INVENTED[0] += digits_read(result)
        total = total + dice_photos.score(photo.cubes, as_found(result))
        if total_frames is not None:
            frame, scale, dx = framed(img)
            t0, c0 = time.perf_counter(), time.process_time()
            result = read_dice(frame, models=models)
            ms_frame.append((time.perf_counter() - t0) * 1000)
            CPU["frame"].append((time.process_time() - c0) * 1000)
            INVENTED[1] += digits_read(result)
            total_frames = total_frames + dice_photos.score(photo.cubes, as_found(result, scale, dx))
    return total, total_frames, ms, ms_frame


def line(title: str, s: Score, n_photos: int) -> str:
    n = max(1, s.letters)
    return (f"  {title:<18} cubes {s.letters:5d}  found {s.found / n:6.1%}  found and read right "
            f"{s.right / n:6.1%}  unsure {s.unsure / n:5.1%}  wrong {len(s.wrong) / n:5.1%}  "
            f"false dice {s.false * 20 / max(1, n_photos):5.2f} per 20 photos")


def letters_model(photos: list[Photo]) -> str:
    """The shipped letter model (never shown these cubes) on the same boxes, for comparison."""
    from vision.letters import LetterReader

    crops, letters = _boxes(photos)
    readings = LetterReader.load().read_many(crops)
    n = max(1, len(letters))
    right = sum(r.letter == t for r, t in zip(readings, letters))
    forced = sum(bool(r.candidates) and r.candidates[0][0] == t for r, t in zip(readings, letters))
    return (f"  {'annotated boxes':<18} cubes {len(letters):5d}  read right {right / n:6.1%}  "
            f"best guess right {forced / n:6.1%}  (the letter model, before fine-tuning)")


def _boxes(photos: list[Photo]) -> tuple[list[np.ndarray], list[str]]:
    crops, letters = [], []
    for photo in photos:
        img = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        for cube in photo.cubes:
            if cube.letter is not None and img is not None:
                x0, y0, x1, y1 = (int(round(v)) for v in cube.box)
                crops.append(img[max(0, y0):y1, max(0, x0):x1])
                letters.append(cube.letter)
    return crops, letters


def boxes_only(photos: list[Photo], reader: DiceReader) -> str:
    """The reader alone on the annotated boxes (no finder): where reading, not finding, fails."""
    crops, letters = _boxes(photos)
    readings = reader.read_many(crops)
    n = max(1, len(letters))
    right = sum(r.symbol == t for r, t in zip(readings, letters))
    unsure = sum(r.symbol is None for r in readings)
    forced = sum(r.best == t for r, t in zip(readings, letters))
    return (f"  {'annotated boxes':<18} cubes {len(letters):5d}  read right {right / n:6.1%}  unsure "
            f"{unsure / n:5.1%}  right when sure {right / max(1, n - unsure):6.1%}  best guess right "
            f"{forced / n:6.1%}  (reader alone)")


def report(name: str, photos: list[Photo], models: DiceModels, frames: bool) -> None:
    INVENTED[:] = [0, 0]
    CPU["photo"].clear()
    CPU["frame"].clear()
    s, sf, ms, msf = run(photos, models, frames)
    print(f"\n{name}: {len(photos)} photos")
    print(boxes_only(photos, models.reader))
    print(letters_model(photos))
    print(line("photos (416x416)", s, len(photos)))
    if sf is not None:
        print(line("1640x1232 frames", sf, len(photos)))
    print(f"  ms per photo: median {statistics.median(ms):.1f}, mean {statistics.mean(ms):.1f}, "
          f"max {max(ms):.1f}")
    if msf:
        print(f"  ms per 1640x1232 frame: median {statistics.median(msf):.1f}, "
              f"mean {statistics.mean(msf):.1f}, max {max(msf):.1f}")
    for kind, cpu in CPU.items():
        if cpu:
            print(f"  CPU ms per {kind}: median {statistics.median(cpu):.1f}, max {max(cpu):.1f}")
    print(f"  value digits read (letter cubes print none): {INVENTED[0]} in the photos, "
          f"{INVENTED[1]} in the frames")
    if s.wrong:
        worst = ", ".join(f"{a}->{b} {k}" for (a, b), k in Counter(s.wrong).most_common(10))
        print(f"  most confused (annotated->read): {worst}")


def renders(n: int, models: DiceModels) -> None:
    """Value digits on rendered Wort-Kniffel throws in the bench fonts, read with no set."""
    from companion.games.kniffel.dice import DEFAULT_DICE
    from vision.synth.dice import random_roll, render_throw

    tally: Counter[str] = Counter()
    ms: list[float] = []
    for seed in range(n):
        roll = random_roll(DEFAULT_DICE, np.random.default_rng([seed, 9]))
        scene = render_throw(roll.faces, 700_000 + seed, split="bench", hand=seed % 4 == 1,
                             tray=seed % 4 == 2)
        t0 = time.perf_counter()
        result = read_dice(scene.image, models=models)
        ms.append((time.perf_counter() - t0) * 1000)
        for t in scene.truth:
            d = min(result.dice, key=lambda d: np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]),
                    default=None)
            if d is None or np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) > 20:
                tally["not found"] += 1
            elif d.letter != t.letter:
                tally["letter unsure" if d.letter == "?" else "letter wrong"] += 1
            elif t.letter != "*":
                tally["digit right" if d.value == t.value else "digit unsure" if d.value is None
                      else "digit wrong"] += 1
    dice = sum(tally[k] for k in ("digit right", "digit unsure", "digit wrong"))
    print(f"\nRENDERS: {n} throws of the seven Wort-Kniffel dice, bench fonts, 1640x1232, no set")
    print("  " + ", ".join(f"{k} {v}" for k, v in sorted(tally.items())))
    print(f"  of {dice} letters read right (diamond aside): digit right {tally['digit right'] / max(1, dice):.1%}, "
          f"unsure {tally['digit unsure'] / max(1, dice):.1%}, wrong {tally['digit wrong'] / max(1, dice):.1%}")
    print(f"  ms per frame: median {statistics.median(ms):.1f}, max {max(ms):.1f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, metavar="DIR",
                    help="photos of letter cubes with annotations.csv")
    ap.add_argument("--renders", type=int, default=0, metavar="N",
                    help="also read N rendered Wort-Kniffel throws in the bench fonts (value digits)")
    ap.add_argument("--split", choices=("report", "tune", "both"), default="both")
    ap.add_argument("--finder", type=Path, help="another finder model (default: shipped)")
    ap.add_argument("--reader", type=Path, help="another reader model (default: shipped)")
    ap.add_argument("--no-frames", action="store_true", help="skip the 1640x1232 frames")
    args = ap.parse_args(argv)
    if args.photos is not None and not (args.photos / "annotations.csv").is_file():
        print(f"no annotations.csv in {args.photos}", file=sys.stderr)
        return 2
    cv2.setNumThreads(1)
    models = DiceModels(Finder.load(args.finder), DiceReader.load(args.reader))
    print(f"finder: peaks above {models.finder.min_score:.2f}, work side {models.finder.work_side}; "
          f"reader: unsure below {models.reader.min_confidence:.2f}, not-a-face drop at "
          f"{models.reader.drop_not_a_face:.2f}; one core")
    read_dice(np.full((416, 416, 3), 128, np.uint8), models=models)  # warm up
    if args.renders:
        renders(args.renders, models)
    if args.photos is None:
        return 0
    for split in (("tune", "report") if args.split == "both" else (args.split,)):
        photos = dice_photos.load(args.photos, split)
        title = "REPORT (never fitted on)" if split == "report" else "TUNE (fitted on)"
        report(title, photos, models, not args.no_frames)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
