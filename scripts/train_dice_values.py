#!/usr/bin/env python3
"""Train the value digit reader of letter dice (vision/models/dice_values.npz).

The network sees exactly what reading will: corners cut by ``vision.dice_value`` from faces
the shipped finder and face reader found, in
- rendered throws (``vision.synth.dice.render_throw``) in the *train* fonts only, of random
  letters with random values 0-9; the corner where the truth's turn puts the digit is that
  digit, the other three are "no digit" (a face whose outline is more than 12° off its true
  turn gives no digit corner: its digit is cut in half);
- rendered throws whose faces print no digit (the letter alone, or centred as on a Boggle
  cube; also what a digit painted over looks like): four "no digit" corners;
- real letter cubes of the *fitting* part of the TUNE photos (``vision.dice_photos``), which
  print no digit: four "no digit" corners. REPORT is never read here.
The bench fonts (Carlito, Caladea, URW Gothic, DejaVu Serif) are never rendered here: the
bench measures on them. The softmax temperature and the confidence below which a digit is
unreadable are fitted on other seeds of train-font renders and the TUNE calibration photos:
the lowest threshold whose sure digits are right ``--precision`` of the time and that reads
no digit on a real cube.

Needs torch and onnx only to train (``pip install torch==2.13.0 onnx``).

    .venv/bin/python scripts/train_dice_values.py --photos DIR [--throws 900] [--epochs 12] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.games.kniffel.dice import DEFAULT_DICE, Face  # noqa: E402
from vision import dice_photos  # noqa: E402
from vision.dice import UNSURE, DiceModels, _found  # noqa: E402
from vision.dice_value import (  # noqa: E402
    CLASSES, NO_DIGIT, PATCH, DigitReader, corner_patches, face_angle, upright_face)
from vision.synth import dice_faces  # noqa: E402
from vision.synth.dice import random_roll, render_throw  # noqa: E402
from vision.synth.dice_faces import dice_style  # noqa: E402
from vision.letters import softmax  # noqa: E402

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PLAIN = "-plain"  # a style whose faces print no digit
Bank = tuple[np.ndarray, np.ndarray]


def _plain_ink(original):  # type: ignore[no-untyped-def]
    """Faces of a ``PLAIN`` style: the letter alone, where the dice put it or centred."""
    def ink(face: Face, side: int, style: dice_faces.DiceStyle) -> np.ndarray:
        if not style.name.endswith(PLAIN):
            return original(face, side, style)  # type: ignore[no-any-return]
        centred = int(style.name.split("-")[2]) % 2 == 0  # dice-train-SEED-font-plain
        return dice_faces.glyph_mask(face.letter, style.font, side, scale=style.letter_scale,
                                     offset=(0.0, 0.0) if centred else (-0.05, -0.02))
    ink.plain = True  # type: ignore[attr-defined]
    return ink


def _style(seed: int, plain: bool) -> dice_faces.DiceStyle:
    s = dice_style(seed, "train")
    return s if not plain else dice_faces.DiceStyle(**{**s.__dict__, "name": s.name + PLAIN})


def _faces(rng: np.random.Generator) -> tuple[Face, ...]:
    """Seven faces: a throw of the Wort-Kniffel set, or random letters worth 0-9 (every
    digit must be seen, though the default set prints only 1-5)."""
    if rng.random() < 0.3:
        return random_roll(DEFAULT_DICE, rng).faces
    return tuple(Face(LETTERS[int(rng.integers(26))], int(rng.integers(10))) for _ in range(7))


def _throw(job: tuple[int, bool]) -> Bank:
    """Corners and labels of one rendered throw, cut by the reading code."""
    seed, plain = job
    cv2.setNumThreads(1)
    if not getattr(dice_faces._letter_ink, "plain", False):
        dice_faces._letter_ink = _plain_ink(dice_faces._letter_ink)  # type: ignore[assignment]
    rng = np.random.default_rng([seed, 77])
    kind = int(rng.integers(6))
    scene = render_throw(_faces(rng), seed, style=_style(seed, plain), hand=kind == 1,
                         tray=kind == 2, blur=0.15 if kind == 3 else 0.0)
    gray = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY)
    xs, ys = [], []
    for die, _ in _found(scene.image, DiceModels.load(), None, None):
        truth = min(scene.truth, key=lambda t: math.dist(t.center, die.center))
        side = math.dist(truth.corners[0], truth.corners[1])
        if math.dist(truth.center, die.center) > 0.3 * side:
            continue  # a false die or one cut across two
        xs.append(corner_patches(upright_face(gray, die.center, die.corners, die.rotation)))
        label = np.full(4, NO_DIGIT, np.int64)
        if not plain and truth.letter != "*":
            turn = (truth.rotation - face_angle(die.corners, die.rotation, gray)) % 360.0
            k = int(round(turn / 90.0)) % 4
            if abs(turn - 90.0 * round(turn / 90.0)) > 12.0:
                label[k] = -1  # half a digit: neither digit nor "no digit"
            else:
                label[k] = truth.value
        ys.append(label)
    if not xs:
        return np.zeros((0, 1, PATCH, PATCH), np.float32), np.zeros(0, np.int64)
    return np.concatenate(xs), np.concatenate(ys)


def _photo(path: str) -> Bank:
    """Corners of every face found and read sure in a real photo of letter cubes: no digits."""
    cv2.setNumThreads(1)
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    xs = [corner_patches(upright_face(gray, d.center, d.corners, d.rotation))
          for d, _ in _found(img, DiceModels.load(), None, None) if d.letter != UNSURE]
    if not xs:
        return np.zeros((0, 1, PATCH, PATCH), np.float32), np.zeros(0, np.int64)
    x = np.concatenate(xs)
    return x, np.full(len(x), NO_DIGIT, np.int64)


def gather(jobs: list[tuple[int, bool]], photos: list[str], workers: int) -> Bank:
    with Pool(workers) as pool:
        parts = pool.map(_throw, jobs, chunksize=4) + pool.map(_photo, photos)
    x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    keep = y >= 0
    return x[keep], y[keep]


def make_model():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def conv(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1), nn.ReLU()]

    return nn.Sequential(*conv(1, 12), nn.MaxPool2d(2), *conv(12, 24), nn.MaxPool2d(2),
                         *conv(24, 32), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(32 * 16, 48),
                         nn.ReLU(), nn.Dropout(0.2), nn.Linear(48, CLASSES))


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int):  # type: ignore[no-untyped-def]
    """Adam, one-cycle; each batch shifted by up to 2 px, its contrast and light jittered."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model()
    batch = 128
    steps = epochs * math.ceil(len(x) / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.2)
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(len(x)))
        loss_sum, right = 0.0, 0
        for s in range(0, len(x), batch):
            idx = order[s: s + batch]
            dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
            xb = torch.roll(xt[idx], shifts=(dy, dx), dims=(2, 3))
            gain = torch.from_numpy(rng.uniform(0.7, 1.3, (len(idx), 1, 1, 1)).astype(np.float32))
            xb = xb * gain + torch.from_numpy(rng.normal(0, 0.08, xb.shape).astype(np.float32))
            z = model(xb)
            loss = torch.nn.functional.cross_entropy(z, yt[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
            right += int((z.argmax(dim=1) == yt[idx]).sum())
        print(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / len(x):.4f} acc {right / len(x):.4f} "
              f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    model.eval()
    return model


def export(model) -> bytes:  # type: ignore[no-untyped-def]
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "values.onnx"
        torch.onnx.export(model, (torch.zeros(1, 1, PATCH, PATCH),), str(path), input_names=["corner"],
                          output_names=["logits"], dynamic_axes={"corner": {0: "n"}}, dynamo=False)
        return path.read_bytes()


def calibrate(reader: DigitReader, renders: Bank, real: Bank, precision: float) -> None:
    """Temperature by NLL over single corners; then the lowest threshold at which the dice
    (four corners each, as ``DigitReader.decide`` reads them) give sure digits right
    ``precision`` of the time and no real cube a digit."""
    x = np.concatenate([renders[0], real[0]])
    reader.temperature = 1.0
    (logits,) = reader.net.forward(x)
    y = np.concatenate([renders[1], real[1]])
    best_t, best_nll = 1.0, np.inf
    for t in np.arange(0.5, 3.01, 0.05):
        nll = float(-np.log(softmax(logits / t)[np.arange(len(y)), y] + 1e-9).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    reader.temperature = best_t
    p = softmax(logits / best_t)
    n_r = len(renders[1]) // 4
    dice = p[:4 * n_r].reshape(n_r, 4, CLASSES)
    want = renders[1].reshape(n_r, 4).min(axis=1)  # the digit, or NO_DIGIT
    real_dice = p[4 * n_r:].reshape(-1, 4, CLASSES)
    reader.sure_above = 0.99
    for thr in np.arange(0.5, 0.991, 0.01):
        reader.sure_above = float(round(thr, 2))
        got = np.array([_digit(reader, d) for d in dice])
        invented = sum(_digit(reader, d) != NO_DIGIT for d in real_dice)
        sure = got != NO_DIGIT
        if sure.any() and float((got[sure] == want[sure]).mean()) >= precision and invented == 0:
            break
    got = np.array([_digit(reader, d) for d in dice])
    has = want != NO_DIGIT
    print(f"calibration: T {best_t:.2f}, sure above {reader.sure_above:.2f}: of {int(has.sum())} "
          f"digits right {float((got[has] == want[has]).mean()):.3f}, wrong "
          f"{float(((got != want) & (got != NO_DIGIT) & has).mean() if has.any() else 0):.4f}; "
          f"{len(real_dice)} real cubes, digit on none", file=sys.stderr)


def _digit(reader: DigitReader, p: np.ndarray) -> int:
    """The corner rule without the letter's turn (a die of any letter)."""
    r = reader.decide("O", p)
    return NO_DIGIT if r.digit is None else r.digit


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, required=True, metavar="DIR")
    ap.add_argument("--throws", type=int, default=900, help="rendered throws with digits")
    ap.add_argument("--plain", type=int, default=120, help="rendered throws without digits")
    ap.add_argument("--calib", type=int, default=150, help="rendered throws to calibrate on")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--precision", type=float, default=0.995, help="wanted rightness of sure digits")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "vision/models/dice_values.npz")
    ap.add_argument("--cache", type=Path, help="keep the cut corners here and reuse them")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(args.workers)
    if args.cache is not None and args.cache.is_file():
        with np.load(args.cache) as z:
            x, y, renders, real = z["x"], z["y"], (z["rx"], z["ry"]), (z["qx"], z["qy"])
    else:
        x, y, renders, real = corners(args)
        if args.cache is not None:
            np.savez(args.cache, x=x, y=y, rx=renders[0], ry=renders[1], qx=real[0], qy=real[1])
    print(f"{len(x)} corners, {int((y != NO_DIGIT).sum())} with a digit", file=sys.stderr)
    model = train(x, y, args.epochs, args.seed)
    reader = DigitReader(export(model))
    calibrate(reader, renders, real, args.precision)
    reader.save(args.out)
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


def corners(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, Bank, Bank]:
    """(training corners, labels, calibration renders, calibration photos)."""
    tune = dice_photos.load(args.photos, "tune")
    fit = [str(p.path) for p in tune if not dice_photos.is_calibration(p.path.name)]
    calib = [str(p.path) for p in tune if dice_photos.is_calibration(p.path.name)]
    base = args.seed * 100_000
    jobs = [(base + i, False) for i in range(args.throws)]
    jobs += [(base + 50_000 + i, True) for i in range(args.plain)]
    x, y = gather(jobs, fit, args.workers)
    cal_jobs = [(base + 90_000 + i, False) for i in range(args.calib)]
    return x, y, gather_whole(cal_jobs, args.workers), gather([], calib, args.workers)


def gather_whole(jobs: list[tuple[int, bool]], workers: int) -> Bank:
    """As ``gather``, but only dice whose four corners are all labelled (calibration)."""
    with Pool(workers) as pool:
        parts = pool.map(_throw, jobs, chunksize=4)
    x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    whole = (y.reshape(-1, 4) >= 0).all(axis=1).repeat(4)
    return x[whole], y[whole]


if __name__ == "__main__":
    raise SystemExit(main())
