#!/usr/bin/env python3
"""Letter readers measured: the shipped model vs Tesseract (psm 10, deu), and both together.

(a) Renders in the TEST font families (never used in training), every letter A–Z ÄÖÜ at each
    of the 4 rotations: clean tile faces (tilt up to ±5°) and camera-damaged crops; and clean
    tiles of the same fonts with the letters drawn hollow or as dots (``vision.glyphs.strokes``,
    as some sets print them; training draws a share of its train-font renders that way).
(b) Real photos (``--photos DIR``): a set of real photos of letter cubes in trays, with
    annotated boxes (``DIR/annotations.csv``: filename, class, xmin, ymin, xmax, ymax). The
    shipped model was fine-tuned on the TUNE half of them (``vision.dice_photos``), so its
    figure is REPORT's (``--split report``, the default); ``--split all`` scores every photo,
    as for a set none of which was trained on. Without ``--photos`` this part is skipped.
    Only single-letter cubes are scored (class a–z, and 'q' as Q). 'qu', the digraphs
    ('an', 'in', 'th', 'he', 'er') and 'wild' cubes are not single letters and are left out
    (counted and reported).

Accuracy counts a crop right only when the reader names the right letter; an unsure answer
(letter None) counts as wrong in "accuracy" and is reported separately, with the accuracy
on the crops the reader was sure of, and "best guess right": the top candidate even when
unsure (a forced choice, comparable with classifiers that always answer). ms/letter is wall
time per crop on this machine (single process; pessimistic when the machine is busy).

    .venv/bin/python bench/vision_letters_bench.py [--photos DIR] [--tess-every 20]
        [--no-tesseract]
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import dice_photos, glyphs, letters_tesseract  # noqa: E402
from vision.letters import LETTERS, MODEL_PATH, LetterReader, LetterReading  # noqa: E402

Item = tuple[np.ndarray, str, int]  # crop, letter, rotation (-1 unknown)
Reader = Callable[[np.ndarray], LetterReading]


def rendered(split: str, damaged: bool, seed: int) -> list[Item]:
    rng = np.random.default_rng(seed)
    items: list[Item] = []
    for font in glyphs.font_paths(split):  # type: ignore[arg-type]
        for letter in LETTERS:
            for rot in (0, 90, 180, 270):
                if damaged:
                    crop = glyphs.camera_crop(rng, letter, font, rotation=rot, max_tilt=12.0, harsh=True)
                else:
                    light = int(rng.integers(170, 256))
                    dark = int(rng.integers(0, 90))
                    fg, bg = ((dark,) * 3, (light,) * 3) if rng.random() < 0.7 else ((light,) * 3, (dark,) * 3)
                    crop = glyphs.render_glyph(
                        letter, font, int(rng.integers(40, 97)), fg, bg, rotation=rot,  # type: ignore[arg-type]
                        weight_jitter=float(rng.uniform(-0.3, 0.5)), scale=float(rng.uniform(0.5, 0.7)),
                        tilt=float(rng.uniform(-5, 5)),
                    )
                items.append((crop, letter, rot))
    return items


def styled(split: str, kind: str, seed: int) -> list[Item]:
    """Clean tiles of the split's fonts with the letters drawn another way (``kind``: hollow,
    dots, ...; ``vision.glyphs.strokes``), as some sets print them and no font draws them."""
    rng = np.random.default_rng(seed)
    items: list[Item] = []
    for font in glyphs.font_paths(split):  # type: ignore[arg-type]
        for letter in LETTERS:
            for rot in (0, 90, 180, 270):
                style = glyphs.random_style(rng, (kind,))
                light, dark = int(rng.integers(170, 256)), int(rng.integers(0, 90))
                fg, bg = ((dark,) * 3, (light,) * 3) if rng.random() < 0.7 else ((light,) * 3, (dark,) * 3)
                mask = glyphs.glyph_mask(letter, font, int(rng.integers(40, 97)), rotation=rot,
                                         scale=float(rng.uniform(0.5, 0.7)), tilt=float(rng.uniform(-5, 5)),
                                         style=style)
                m = mask[..., None]
                crop = np.clip(np.float32(bg) * (1 - m) + np.float32(fg) * m, 0, 255).astype(np.uint8)
                items.append((crop, letter, rot))
    return items


def photos(data_dir: Path, split: str = "all") -> tuple[list[Item], Counter[str]]:
    items: list[Item] = []
    skipped: Counter[str] = Counter()
    images: dict[str, np.ndarray] = {}
    with open(data_dir / "annotations.csv", newline="") as fh:
        for row in csv.DictReader(fh):
            cls = row["class"].strip()
            name = row["filename"]
            if split != "all" and dice_photos.split_of(name) != split:
                continue
            if len(cls) != 1 or not cls.isalpha():
                skipped[cls.lower()] += 1
                continue
            if name not in images:
                img = cv2.imread(str(data_dir / name), cv2.IMREAD_COLOR)
                if img is None:
                    skipped["unreadable"] += 1
                    continue
                images[name] = img
            img = images[name]
            x0, y0, x1, y1 = (int(float(row[k])) for k in ("xmin", "ymin", "xmax", "ymax"))
            crop = img[max(0, y0) : y1, max(0, x0) : x1]
            if crop.size == 0:
                skipped["empty box"] += 1
                continue
            items.append((crop, cls.upper(), -1))
    return items, skipped


def measure(name: str, read: Reader, items: Sequence[Item], threads: int = 1) -> dict[str, float]:
    """Score one reader; ms is the mean time of one read call (threads only overlap waits)."""
    right = unsure = rot_right = rot_known = sure_right = 0

    def timed(crop: np.ndarray) -> tuple[LetterReading, float]:
        t = time.perf_counter()
        r = read(crop)
        return r, time.perf_counter() - t

    if threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            results = list(pool.map(timed, [c for c, _, _ in items]))
    else:
        results = [timed(c) for c, _, _ in items]
    readings = [r for r, _ in results]
    ms = sum(t for _, t in results) * 1000.0 / max(1, len(items))
    confusions: Counter[tuple[str, str]] = Counter()
    forced = sum((r.candidates[0][0] if r.candidates else r.letter) == letter
                 for (_, letter, _), r in zip(items, readings))
    for (_, letter, rot), r in zip(items, readings):
        if r.letter is None:
            unsure += 1
            continue
        if r.letter == letter:
            right += 1
            sure_right += 1
            if rot >= 0 and letter not in "HINOSXZ":  # letters that look alike turned
                rot_known += 1
                rot_right += int(r.rotation == rot)
        else:
            confusions[(letter, r.letter)] += 1
    n = len(items)
    sure = n - unsure
    out = {
        "n": n, "acc": right / n, "unsure": unsure / n,
        "acc_sure": sure_right / sure if sure else float("nan"),
        "rot": rot_right / rot_known if rot_known else float("nan"), "ms": ms,
    }
    rot_txt = f"  rotation right {out['rot']:.1%}" if rot_known else ""
    out["forced"] = forced / n
    print(f"  {name:<34} acc {out['acc']:6.1%}  unsure {out['unsure']:5.1%}  "
          f"acc when sure {out['acc_sure']:6.1%}  best guess right {out['forced']:6.1%}{rot_txt}  "
          f"{ms:6.2f} ms/letter  (n={n})")
    if confusions:
        worst = ", ".join(f"{a}->{b} {k}" for (a, b), k in confusions.most_common(8))
        print(f"  {'':<34} most confused: {worst}")
    return out


def with_second_opinion(reader: LetterReader) -> Reader:
    """Model first; when unsure, Tesseract at the model's rotation may confirm a candidate."""
    def read(crop: np.ndarray) -> LetterReading:
        r = reader.read(crop)
        if r.letter is not None:
            return r
        t = letters_tesseract.read(crop, turns=False) if r.rotation == 0 else _tess_at(crop, r.rotation)
        top = [c for c, _ in r.candidates[:3]]
        if t.letter is not None and t.letter in top:
            return LetterReading(t.letter, r.rotation, r.confidence, r.candidates)
        return r
    return read


def _tess_at(crop: np.ndarray, rotation: int) -> LetterReading:
    back = {90: cv2.ROTATE_90_COUNTERCLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_CLOCKWISE}[rotation]
    return letters_tesseract.read(cv2.rotate(crop, back), turns=False)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, default=None, metavar="DIR",
                    help="real photos of letter cubes in trays, with annotations.csv")
    ap.add_argument("--split", choices=("report", "tune", "all"), default="report",
                    help="which photos (by vision.dice_photos' split of their names) are scored")
    ap.add_argument("--model", type=Path, default=MODEL_PATH)
    ap.add_argument("--tess-every", type=int, default=20,
                    help="Tesseract on every k-th photo crop (2k-th render) only: one call takes ~0.2-1 s")
    ap.add_argument("--no-tesseract", action="store_true")
    args = ap.parse_args(argv)

    reader = LetterReader.load(args.model)
    size = args.model.stat().st_size
    print(f"model {args.model.name}: {size / 1e6:.2f} MB; unsure below {reader.min_confidence:.2f}")
    print(f"test font families (never trained on): {', '.join(glyphs.split_families('test'))}")
    sets: list[tuple[str, list[Item]]] = [
        ("renders, TEST fonts, clean tiles", rendered("test", False, 11)),
        ("renders, TEST fonts, camera-damaged", rendered("test", True, 12)),
        ("renders, TEST fonts, hollow letters (clean tiles)", styled("test", "hollow", 13)),
        ("renders, TEST fonts, dot-matrix letters (clean tiles)", styled("test", "dots", 14)),
    ]
    if args.photos is None:
        print("real photos: skipped (no --photos DIR given)")
    elif not (args.photos / "annotations.csv").is_file():
        print(f"real photos: skipped ({args.photos / 'annotations.csv'} not found)")
    else:
        items, skipped = photos(args.photos, args.split)
        sets.append((f"real photos, {args.split.upper()} (single letters)", items))
        print(f"photos: {len(items)} single-letter crops scored; left out: "
              + ", ".join(f"{k} {v}" for k, v in sorted(skipped.items())))
    for title, items in sets:
        print(f"\n{title}:")
        measure("model (all 29 letters), one crop a call", reader.read, items)
        t0 = time.perf_counter()
        reader.read_many([c for c, _, _ in items])
        print(f"  {'':<34} read_many over all {len(items)}: "
              f"{(time.perf_counter() - t0) * 1000 / len(items):.2f} ms/letter")
        turned = LetterReader.load(args.model)
        turned.turn_views = True
        measure("model reading all 4 turns of a crop", turned.read, items)
        if title.startswith("renders"):
            ours = [it for it in items if it[1] in "MÖRDE"]
            measure("model, alphabet MÖRDE (M Ö R D E only)", lambda c: reader.read(c, "MÖRDE"), ours)
            oo = [it for it in items if it[1] in "OÖ"]
            measure("model on O and Ö only", reader.read, oo)
        if not args.no_tesseract:
            every = args.tess_every if not title.startswith("renders") else args.tess_every * 2
            every = max(1, every) | 1  # odd: renders come in runs of 4 turns, sample them all
            sub = items[::every]
            tag = f"(every {every}th crop, n={len(sub)})"
            measure(f"tesseract best of 4 turns {tag}", letters_tesseract.read, sub, threads=2)
            measure(f"tesseract upright only {tag}", lambda c: letters_tesseract.read(c, turns=False), sub, threads=2)
            if title.startswith("renders"):
                oo = [it for it in items if it[1] in "OÖ"][:: max(1, every // 4) | 1]
                measure(f"tesseract on O and Ö only (n={len(oo)})", letters_tesseract.read, oo, threads=2)
            measure(f"model + tesseract when unsure {tag}", with_second_opinion(reader), sub, threads=2)
            measure(f"model alone, same crops {tag}", reader.read, sub)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
