#!/usr/bin/env python3
"""Fine-tune the font-trained letter model on real letter cubes: the shipped letter reader.

The font model (``vision/models/letters_fonts.npz``, made by ``scripts/train_letters.py``
from fonts alone) reads rendered tiles well but real cubes only 84 % of the time: blur, cut
faces and cube fonts no installed font resembles. This script starts from its weights and
trains on three things at once, so the cubes are learned without the tiles being forgotten:

- real cube crops of the *fitting* part of the TUNE photos (``vision.dice_photos``; never
  REPORT), each cut many times with the box moved and resized, often turned by any angle
  first; the label is the letter in any of its four turns (the photos do not say which way a
  cube lies). Qu, digraph and wild cubes, and boxes between cubes, are "not a letter";
- rendered crops of the fitting train fonts, both renderers of ``train_letters.py`` (faces
  boxed as in a photo, tiles as the grid reader rectifies them), with their known turns;
- every batch turned by a random quarter turn (exact labels for free).

The softmax temperature is fitted on the calibration fonts' renders and the calibration
quarter of TUNE together (letter-level NLL), so one confidence means the same on tiles and
cubes; the unsure threshold stays the reader's default. A crop whose first look is less than
``--second-look`` sure is read again in its four quarter turns (stored in the model file).
Seeded: the same seed, photos, fonts and torch version give the same model. Needs PyTorch
and onnx only to train. The shipped model: the defaults below (8 epochs, seed 0), about 40
minutes on a busy 2-core machine. ``--styled`` mixes in renders drawn hollow or as dots (none
by default; docs/vision-letters.md says why no such run is shipped yet), and ``--init`` may be
an earlier reader, to tune it further in a few minutes instead of starting again.

    .venv/bin/python scripts/train_letters_cubes.py --photos DIR [--epochs 8] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dice_photos, glyphs  # noqa: E402
from vision.dice_photos import Photo  # noqa: E402
from vision.letters import (  # noqa: E402
    FONT_MODEL_PATH, HIDDEN, LETTERS, MODEL_PATH, N_CLASSES, NORM, REJECT, UNSURE_BELOW, LetterReader, Net,
    softmax,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_letters import _render_font, equivalents, export, prepare_u8, standardise  # noqa: E402
import train_turns  # noqa: E402
from train_turns import cut  # noqa: E402

Box = tuple[float, float, float, float]


def any_turn(letter: str | None) -> np.ndarray:
    """Allowed classes of a real cube: its letter in any turn (or "not a letter")."""
    row = np.zeros(N_CLASSES, np.float32)
    if letter is None or letter not in LETTERS:
        row[REJECT] = 1.0
    else:
        i = LETTERS.index(letter)
        row[4 * i: 4 * i + 4] = 1.0
    return row


def _between(rng: np.random.Generator, img: np.ndarray, boxes: list[Box]) -> np.ndarray | None:
    """A cube-sized box centred off every cube (a gap, the tray's rim, across two cubes)."""
    x0, y0, x1, y1 = boxes[int(rng.integers(len(boxes)))]
    w, h = x1 - x0, y1 - y0
    dx, dy = rng.uniform(0.45, 1.6) * rng.choice([-1, 1]), rng.uniform(-1.6, 1.6)
    if rng.random() < 0.5:
        dx, dy = dy, dx
    cx, cy = (x0 + x1) / 2 + dx * w, (y0 + y1) / 2 + dy * h
    for a, b, c, d in boxes:
        if abs(cx - (a + c) / 2) < 0.3 * (c - a) and abs(cy - (b + d) / 2) < 0.3 * (d - b):
            return None
    box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    if box[0] < 0 or box[1] < 0 or box[2] > img.shape[1] or box[3] > img.shape[0]:
        return None
    return cut(rng, img, box, turn=False, slop=0.1)


def photo_crops(rng: np.random.Generator, photos: list[Photo], per_cube: int) -> tuple[np.ndarray, np.ndarray]:
    crops: list[np.ndarray] = []
    rows: list[np.ndarray] = []
    for photo in photos:
        img = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        boxes = [c.box for c in photo.cubes]
        for crop, letter in train_turns.cube_cuts(rng, img, photo.cubes, per_cube):
            crops.append(crop)
            rows.append(any_turn(letter))
        for _ in range(len(boxes) * per_cube // 6):
            between = _between(rng, img, boxes)
            if between is not None and min(between.shape[:2]) >= 4:
                crops.append(between)
                rows.append(any_turn(None))
    return prepare_u8(crops), np.stack(rows)


def rendered(fonts: list[Path], seed: int, per_letter: int, workers: int,
             styled: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Tiles and faces of these fonts as ``train_letters.py`` renders them, as allowed rows."""
    n_reject = max(4, per_letter * len(LETTERS) // 6)
    jobs = [(seed * 100003 + i, str(f), per_letter, n_reject, styled) for i, f in enumerate(fonts)]
    with Pool(workers) as pool:
        parts = pool.map(_render_font, jobs)
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    return x, equivalents()[y]


def _font_model(init: Path):  # type: ignore[no-untyped-def]
    model = train_turns.make_model(N_CLASSES, HIDDEN, NORM)
    from_onnx(model, init)
    return model


def from_onnx(model, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Every weight of the font model, in order (same classes, same layers)."""
    import onnx
    import onnx.numpy_helper
    import torch

    with np.load(path, allow_pickle=False) as z:
        graph = onnx.load_from_string(z["onnx"].tobytes()).graph
    init = {i.name: onnx.numpy_helper.to_array(i) for i in graph.initializer}
    gemms = [n for n in graph.node if n.op_type == "Gemm"]
    convs = [n for n in graph.node if n.op_type == "Conv"]
    layers = [m for m in model.modules() if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear))]
    with torch.no_grad():
        for node, layer in zip(convs + gemms, layers, strict=True):
            layer.weight.copy_(torch.from_numpy(init[node.input[1]].copy()))
            layer.bias.copy_(torch.from_numpy(init[node.input[2]].copy()))


def letter_level(p: np.ndarray) -> np.ndarray:
    return np.concatenate([p[:, :REJECT].reshape(len(p), len(LETTERS), 4).sum(axis=2), p[:, REJECT:]], axis=1)


def calibrate(net: Net, x: np.ndarray, rows: np.ndarray, cubes: np.ndarray) -> None:
    """Temperature by letter-level NLL over the calibration renders and cubes (both weigh
    half), then what the reader would do on the calibration cubes, as a check."""
    z = net.run(standardise(x))[1]
    y = letter_level(rows).argmax(axis=1)
    weight = np.where(cubes, 0.5 / max(1, int(cubes.sum())), 0.5 / max(1, int((~cubes).sum())))
    best_t, best = 1.0, np.inf
    for t in np.arange(0.5, 3.01, 0.05):
        pl = letter_level(softmax(z / t))
        nll = float(-(weight * np.log(pl[np.arange(len(y)), y] + 1e-9)).sum())
        if nll < best:
            best_t, best = float(t), nll
    net.temperature = best_t
    pl = letter_level(softmax(z / best_t))
    for name, sel in (("calibration cubes", cubes), ("calibration fonts", ~cubes)):
        pred, conf = pl[sel].argmax(axis=1), pl[sel].max(axis=1)
        ok = pred == y[sel]
        sure = conf >= UNSURE_BELOW
        print(f"{name}: n={int(sel.sum())} best guess {ok.mean():.3f}, right {(ok & sure).mean():.3f}, "
              f"unsure {1 - sure.mean():.3f}", file=sys.stderr)
    print(f"temperature {best_t:.2f}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, required=True, metavar="DIR")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--per-cube", type=int, default=16, help="cuts of each real cube")
    ap.add_argument("--per-letter", type=int, default=8, help="renders per (fit font, letter)")
    ap.add_argument("--lr", type=float, default=1.5e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--second-look", type=float, default=0.9,
                    help="crops read less surely than this are read again in four turns "
                         "(chosen on the TUNE calibration photos)")
    ap.add_argument("--styled", type=float, default=0.0,
                    help="share of renders drawn hollow, as dots, stencilled or dashed, e.g. 0.2 "
                         "(0: none, as the shipped reader was made)")
    ap.add_argument("--keep", type=float, default=0.0,
                    help="hold the --init model's answers on the cubes and the plain renders "
                         "with this weight while styled renders are learned (0: no hold)")
    ap.add_argument("--init", type=Path, default=FONT_MODEL_PATH,
                    help="the model to start from: the font model, or a reader made by this script "
                         "(any model file of the same layers)")
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(args.workers)
    tune = dice_photos.load(args.photos, "tune")
    fit = [p for p in tune if not dice_photos.is_calibration(p.path.name)]
    calib = [p for p in tune if dice_photos.is_calibration(p.path.name)]
    fonts = glyphs.font_paths("train")
    calib_fonts = fonts[3::8]  # the calibration fonts of train_letters.py
    fit_fonts = [f for f in fonts if f not in calib_fonts]
    rng = np.random.default_rng(args.seed)
    xp, rp = photo_crops(rng, fit, args.per_cube)
    if args.keep > 0 and args.styled > 0:
        # the styled renders apart, so that only the others are held to the --init model
        n_styled = int(round(args.per_letter * args.styled))
        xr, rr = rendered(fit_fonts, args.seed, args.per_letter - n_styled, args.workers)
        xs, rs = rendered(fit_fonts, args.seed + 13, n_styled, args.workers, 1.0)
        kept = np.concatenate([np.ones(len(xp) + len(xr), bool), np.zeros(len(xs), bool)])
        xr, rr = np.concatenate([xr, xs]), np.concatenate([rr, rs])
    else:
        xr, rr = rendered(fit_fonts, args.seed, args.per_letter, args.workers, args.styled)
        kept = None
    print(f"TUNE: {len(fit)} photos fit, {len(calib)} calibrate; {len(xp)} photo crops, "
          f"{len(xr)} renders", file=sys.stderr)
    model = train_turns.fit(lambda: _font_model(args.init), np.concatenate([xp, xr]),
                            np.concatenate([rp, rr]), len(LETTERS), args.epochs, args.seed,
                            args.lr, args.keep, kept)
    net = Net(export(model), 1.0)
    xc, rc = photo_crops(np.random.default_rng(args.seed + 1), calib, 2)
    # plain renders, as before --styled: a dotted face blurred to 16 px is often beyond reading
    # and would make every answer less sure, tiles and cubes alike
    xf, rf = rendered(calib_fonts, args.seed + 1, 4, args.workers)
    cubes = np.concatenate([np.ones(len(xc), bool), np.zeros(len(xf), bool)])
    calibrate(net, np.concatenate([xc, xf]), np.concatenate([rc, rf]), cubes)
    LetterReader(net, second_look=args.second_look).save(args.out)
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
