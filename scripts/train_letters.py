#!/usr/bin/env python3
"""Train the shipped letter model (vision/models/letters.npz) from rendered fonts.

Reproducible: every random draw comes from one seeded numpy Generator per work item, so the
same seed and the same installed fonts give the same model. Only the *train* font families
are used (vision.glyphs.font_paths("train")); a few of them are held out of fitting to fit
the softmax temperature (calibration). No photo is ever used.

    .venv/bin/python scripts/train_letters.py [--per-class 10] [--epochs 25] [--seed 0] [--out PATH] [--cache DIR]

The defaults made the shipped model: about 25 minutes on the shared, heavily loaded 2-core
machine (rendering 77k crops ~11 min with 2 workers, fitting ~13 min).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import glyphs  # noqa: E402
from vision.letters import (  # noqa: E402
    LETTERS, MODEL_PATH, N_CLASSES, REJECT, ROTATIONS, LetterReader, Mlp, class_index,
    crop_features, softmax,
)


def _render_font(job: tuple[int, str, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels for every (letter, rotation) of one font, plus some rejects."""
    seed, font, per_class, n_reject = job
    rng = np.random.default_rng(seed)
    path = Path(font)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    for letter in LETTERS:
        for rot in ROTATIONS:
            for _ in range(per_class):
                harsh = bool(rng.random() < 0.7)
                tilt = 30.0 if rng.random() < 0.25 else 15.0
                crop = glyphs.camera_crop(rng, letter, path, rotation=rot, max_tilt=tilt, harsh=harsh)
                xs.append(crop_features(crop))
                ys.append(class_index(letter, rot))
    for _ in range(n_reject):
        crop = glyphs.camera_crop(rng, None, path, harsh=bool(rng.random() < 0.7))
        xs.append(crop_features(crop))
        ys.append(REJECT)
    return np.stack(xs), np.asarray(ys, np.int64)


def build(fonts: list[Path], per_class: int, seed: int, workers: int, label: str) -> tuple[np.ndarray, np.ndarray]:
    n_reject = max(4, per_class * 4 * len(LETTERS) // 12)  # pictures, symbols, blank faces
    jobs = [(seed * 100003 + i, str(f), per_class, n_reject) for i, f in enumerate(fonts)]
    xs, ys = [], []
    t0 = time.time()
    with Pool(workers) as pool:
        for i, (x, y) in enumerate(pool.imap(_render_font, jobs)):
            xs.append(x)
            ys.append(y)
            print(f"\r{label}: font {i + 1}/{len(jobs)}  {time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return np.concatenate(xs), np.concatenate(ys)


def cached(
    folder: Path | None, name: str, make: Callable[[], tuple[np.ndarray, np.ndarray]],
    fonts: list[Path], per_class: int, seed: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Rendered features from the cache when the same fonts/counts/seed made them."""
    if folder is None:
        return make()
    key = hashlib.sha1(repr(([str(f) for f in fonts], per_class, seed)).encode()).hexdigest()[:12]
    path = folder / f"{name}-{key}.npz"
    if path.exists():
        with np.load(path) as z:
            print(f"{name}: cached {path}", file=sys.stderr)
            return z["x"], z["y"]
    x, y = make()
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(path, x=x, y=y)
    return x, y


def letter_level(p: np.ndarray) -> np.ndarray:
    """Class probabilities folded to letters (+ reject): rotation does not matter here."""
    return np.concatenate([p[:, :REJECT].reshape(len(p), len(LETTERS), 4).sum(axis=2), p[:, REJECT:]], axis=1)


def letter_label(y: np.ndarray) -> np.ndarray:
    return np.where(y == REJECT, len(LETTERS), y // 4)


def train(x: np.ndarray, y: np.ndarray, hidden: tuple[int, ...], epochs: int, seed: int,
          dropout: float = 0.3, in_dropout: float = 0.1) -> Mlp:
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    xn = ((x - mean) / std).astype(np.float32)
    sizes = (x.shape[1], *hidden, N_CLASSES)
    ws = [rng.normal(0, np.sqrt(2.0 / a), (a, b)).astype(np.float32) for a, b in zip(sizes[:-1], sizes[1:])]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = [p for pair in zip(ws, bs) for p in pair]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, wd, lr0, batch = 0.9, 0.999, 1e-8, 1e-4, 2e-3, 256
    n = len(xn)
    steps = epochs * ((n + batch - 1) // batch)
    step = 0
    smooth = 0.02
    t0 = time.time()
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum, correct = 0.0, 0
        for s in range(0, n, batch):
            idx = order[s : s + batch]
            xb, yb = xn[idx], y[idx]
            # forward
            # dropout (inverted): the model must not lean on any one feature of the renders
            if in_dropout > 0:
                xb = xb * (rng.random(xb.shape, dtype=np.float32) >= in_dropout) / (1 - in_dropout)
            acts = [xb]
            h = xb
            for li in range(len(ws) - 1):
                h = np.maximum(h @ ws[li] + bs[li], 0.0)
                if dropout > 0:
                    h = h * (rng.random(h.shape, dtype=np.float32) >= dropout) / (1 - dropout)
                acts.append(h)
            logits = h @ ws[-1] + bs[-1]
            p = softmax(logits)
            target = np.full_like(p, smooth / N_CLASSES)
            target[np.arange(len(yb)), yb] += 1.0 - smooth
            loss_sum += float(-(target * np.log(p + 1e-9)).sum())
            correct += int((p.argmax(axis=1) == yb).sum())
            # backward
            g = (p - target) / len(yb)
            grads: list[np.ndarray] = [None] * len(params)  # type: ignore[list-item]
            for li in range(len(ws) - 1, -1, -1):
                grads[2 * li] = acts[li].T @ g + wd * ws[li]
                grads[2 * li + 1] = g.sum(axis=0)
                if li > 0:
                    g = (g @ ws[li].T) * (acts[li] > 0) / (1 - dropout)  # ReLU and dropout masks
            step += 1
            lr = lr0 * 0.5 * (1 + np.cos(np.pi * step / steps))
            for k, (prm, gr) in enumerate(zip(params, grads)):
                m1[k] = beta1 * m1[k] + (1 - beta1) * gr
                m2[k] = beta2 * m2[k] + (1 - beta2) * gr * gr
                mh = m1[k] / (1 - beta1**step)
                vh = m2[k] / (1 - beta2**step)
                prm -= (lr * mh / (np.sqrt(vh) + eps)).astype(np.float32)
        print(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / n:.3f}  class acc {correct / n:.3f}  {time.time() - t0:.0f}s",
              file=sys.stderr, flush=True)
    layers = [(ws[i], bs[i]) for i in range(len(ws))]
    return Mlp(mean.astype(np.float32), std.astype(np.float32), layers, 1.0)


def fit_temperature(net: Mlp, x: np.ndarray, y: np.ndarray) -> float:
    """Temperature minimising letter-level NLL on held-out fonts (calibrated confidence)."""
    z = net.logits(x)
    yl = letter_label(y)
    best_t, best_nll = 1.0, np.inf
    for t in np.arange(0.5, 3.01, 0.05):
        pl = letter_level(softmax(z / t))
        nll = float(-np.log(pl[np.arange(len(yl)), yl] + 1e-9).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def report(net: Mlp, x: np.ndarray, y: np.ndarray, label: str) -> None:
    p = net.probs(x)
    pl = letter_level(p)
    yl = letter_label(y)
    pred = pl.argmax(axis=1)
    conf = pl.max(axis=1)
    acc = float((pred == yl).mean())
    is_letter = y != REJECT
    rot_ok = float(((p.argmax(axis=1) == y) | (pred != yl))[is_letter].mean())
    bins = np.linspace(0, 1, 11)
    ece = 0.0
    for a, b in zip(bins[:-1], bins[1:]):
        sel = (conf > a) & (conf <= b)
        if sel.any():
            ece += sel.mean() * abs(float((pred[sel] == yl[sel]).mean()) - float(conf[sel].mean()))
    print(f"{label}: letter acc {acc:.4f}  exact class acc {float((p.argmax(axis=1) == y).mean()):.4f}  "
          f"ECE {ece:.4f}  n={len(y)}  (rotation ok where letter ok: {rot_ok:.3f})", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-class", type=int, default=10, help="renders per (font, letter, rotation)")
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--hidden", default="384,192")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--dropout", type=float, default=0.3)
    ap.add_argument("--in-dropout", type=float, default=0.1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--cache", type=Path, help="keep rendered features here (retrain without re-rendering)")
    args = ap.parse_args(argv)

    fonts = glyphs.font_paths("train")
    calib = fonts[3::8]  # fixed: every 8th train font only calibrates the temperature
    fit = [f for f in fonts if f not in calib]
    test = glyphs.font_paths("test")
    print(f"fonts: {len(fit)} fit, {len(calib)} calibration, {len(test)} test (never trained on)", file=sys.stderr)
    x, y = cached(args.cache, "fit", lambda: build(fit, args.per_class, args.seed, args.workers, "render fit"),
                  fit, args.per_class, args.seed)
    xc, yc = cached(args.cache, "calib", lambda: build(calib, max(2, args.per_class // 2), args.seed + 1,
                                                        args.workers, "render calibration"),
                    calib, args.per_class, args.seed)
    xt, yt = cached(args.cache, "test", lambda: build(test, 2, args.seed + 2, args.workers, "render test"),
                    test, 2, args.seed)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    net = train(x, y, hidden, args.epochs, args.seed, args.dropout, args.in_dropout)
    net.temperature = fit_temperature(net, xc, yc)
    print(f"temperature {net.temperature:.2f}", file=sys.stderr)
    report(net, x[:20000], y[:20000], "fit (first 20k)")
    report(net, xc, yc, "calibration fonts")
    report(net, xt, yt, "TEST fonts")
    LetterReader(net).save(args.out)
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
