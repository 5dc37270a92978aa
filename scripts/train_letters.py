#!/usr/bin/env python3
"""Train the font letter model (vision/models/letters_fonts.npz): a small CNN, run by cv2.dnn.

The shipped reader is this model fine-tuned on real cubes by ``train_letters_cubes.py``.

Reproducible: every random draw comes from a numpy Generator or torch seed derived from
``--seed``, so the same seed, fonts and torch version give the same model. Only the *train*
font families are rendered (vision.glyphs.font_paths("train")); every 8th of them is held out
of fitting to calibrate the softmax temperature. No photo is ever used.

Crops come from two renderers: ``glyphs.face_crop`` (a tile or cube face at any angle, boxed
as in a photo, with neighbours, a cube's sides, squeezed aspect) and ``glyphs.camera_crop``
(a tile face at a quarter turn, as the grid reader rectifies it). Letters that look the same
turned (H I N S Z at 180°, O X at any quarter) are scored on the set of turns they cannot be
told from, so the network is never asked for a rotation that does not exist. ``--styled 0.2``
draws a fifth of the renders hollow, as dot-matrix, stencilled or dashed
(``vision.glyphs.strokes``), as some sets print them; the default 0 renders the same crops as
before the option existed, so the shipped models stay reproducible (runs with styled renders
read the grid bench's blood victim as a doubtful Ö: docs/vision-letters.md).

Needs PyTorch and onnx only to train (not to read): ``pip install torch==2.13.0 onnx``.

    .venv/bin/python scripts/train_letters.py [--per-letter 48] [--epochs 6] [--seed 0] [--cache DIR]
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import glyphs  # noqa: E402
from vision.letters import (  # noqa: E402
    FONT_MODEL_PATH, HIDDEN, LETTERS, N_CLASSES, NORM, REJECT, ROTATIONS, LetterReader, Net, class_index,
    prepare, softmax,
)

SAME_TURNED = {"H": 2, "I": 2, "N": 2, "S": 2, "Z": 2, "O": 4, "X": 4}  # look alike every 360/k


def equivalents() -> np.ndarray:
    """(classes, classes) 0/1: which classes a label may be answered with."""
    eq = np.eye(N_CLASSES, dtype=np.float32)
    for letter, k in SAME_TURNED.items():
        for r in ROTATIONS:
            for step in range(1, k):
                eq[class_index(letter, r), class_index(letter, (r + step * 360 // k) % 360)] = 1.0
    return eq


def _style(rng: np.random.Generator, styled: float) -> glyphs.Style | None:
    """Hollow, dotted, stencilled or dashed letters for a share of the renders: sets print
    letters those ways and no font draws them. No draw at all when the share is 0, so runs
    made before this option render the very same crops. A styled face is rendered only as the
    grid reader sees a tile, never through the harsh camera: dots blurred past their spacing
    are a blob, and a blob with an umlaut's dots taught the model that a splash of blood (a
    victim picture) might be an Ö."""
    if styled > 0 and rng.random() < styled:
        return glyphs.random_style(rng)
    return None


def _render_font(job: tuple[int, str, int, int, float]) -> tuple[np.ndarray, np.ndarray]:
    """Prepared crops (uint8, NORM x NORM gray, before standardising) and classes for one font."""
    seed, font, per_letter, n_reject, styled = job
    rng = np.random.default_rng(seed)
    path = Path(font)
    crops: list[np.ndarray] = []
    ys: list[int] = []
    for letter in LETTERS:
        for _ in range(per_letter):
            style = _style(rng, styled)
            if style is None and rng.random() < 0.7:
                crop, rot = glyphs.face_crop(rng, letter, path)
            else:
                rot = int(rng.integers(0, 4)) * 90
                crop = glyphs.camera_crop(rng, letter, path, rotation=rot, max_tilt=8.0,
                                          harsh=bool(style is None and rng.random() < 0.7), style=style)
            crops.append(crop)
            ys.append(class_index(letter, rot))
    for _ in range(n_reject):
        style = _style(rng, styled)
        if style is None and rng.random() < 0.7:
            crop, _ = glyphs.face_crop(rng, None, path)
        else:
            crop = glyphs.camera_crop(rng, None, path, harsh=bool(style is None and rng.random() < 0.7),
                                      style=style)
        crops.append(crop)
        ys.append(REJECT)
    return prepare_u8(crops), np.asarray(ys, np.int64)


def prepare_u8(crops: list[np.ndarray]) -> np.ndarray:
    """What ``prepare`` feeds the network, stored compactly (standardised again when read)."""
    x = prepare(crops)[:, 0]
    lo = x.min(axis=(1, 2), keepdims=True)
    hi = x.max(axis=(1, 2), keepdims=True)
    return np.round((x - lo) / np.maximum(hi - lo, 1e-6) * 255).astype(np.uint8)


def build(fonts: list[Path], per_letter: int, seed: int, workers: int, label: str,
          cache: Path | None, styled: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    what: tuple[object, ...] = ([str(f) for f in fonts], per_letter, seed, NORM, "v3")
    key = hashlib.sha1(repr(what + ((styled,) if styled else ())).encode()).hexdigest()[:12]
    path = cache / f"{label}-{key}.npz" if cache else None
    if path is not None and path.exists():
        with np.load(path) as z:
            return z["x"], z["y"]
    n_reject = max(4, per_letter * len(LETTERS) // 6)  # pictures, symbols, blank faces, backs
    jobs = [(seed * 100003 + i, str(f), per_letter, n_reject, styled) for i, f in enumerate(fonts)]
    xs, ys = [], []
    t0 = time.time()
    with Pool(workers) as pool:
        for i, (x, y) in enumerate(pool.imap(_render_font, jobs)):
            xs.append(x)
            ys.append(y)
            print(f"\r{label}: font {i + 1}/{len(jobs)}  {time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    x, y = np.concatenate(xs), np.concatenate(ys)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x, y=y)
    return x, y


def standardise(x_u8: np.ndarray) -> np.ndarray:
    x = x_u8.astype(np.float32)
    m = x.mean(axis=(1, 2), keepdims=True)
    s = x.std(axis=(1, 2), keepdims=True)
    return ((x - m) / np.maximum(s, 1e-3))[:, None]


def make_model(width: int = 24):  # type: ignore[no-untyped-def]
    import torch.nn as nn
    a, b, c = width, 2 * width, 4 * width

    def conv(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]

    class LetterNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *conv(1, a), nn.MaxPool2d(2),
                *conv(a, b), *conv(b, b), nn.MaxPool2d(2),
                *conv(b, c), *conv(c, c), nn.MaxPool2d(2),
                nn.Flatten(), nn.Linear(c * (NORM // 8) ** 2, HIDDEN), nn.ReLU(),
            )
            self.drop = nn.Dropout(0.3)
            self.head = nn.Linear(HIDDEN, N_CLASSES)

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.features(x)
            return h, self.head(self.drop(h))

    return LetterNet()


def turned_classes(quarters: int) -> np.ndarray:
    """Class of each class after the image turns ``quarters`` x 90° counterclockwise."""
    out = np.arange(N_CLASSES)
    for letter in LETTERS:
        for r in ROTATIONS:
            out[class_index(letter, r)] = class_index(letter, (r - 90 * quarters) % 360)
    return out


def train(x: np.ndarray, y: np.ndarray, epochs: int, seed: int, width: int,  # type: ignore[no-untyped-def]
          lr: float = 3e-3, init: Path | None = None):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model(width)
    if init is not None:  # go on from an earlier run's weights (its .pt beside the .npz)
        model.load_state_dict(torch.load(init))
    eq = torch.from_numpy(equivalents())
    turned = [torch.from_numpy(turned_classes(k)) for k in range(4)]
    batch = 128
    steps = epochs * math.ceil(len(x) / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    xt = torch.from_numpy(standardise(x))
    yt = torch.from_numpy(y)
    t0 = time.time()
    step = 0
    for epoch in range(epochs):
        model.train()
        order = torch.from_numpy(rng.permutation(len(x)))
        loss_sum, right, seen = 0.0, 0, 0
        for s in range(0, len(x), batch):
            idx = order[s : s + batch]
            xb = xt[idx]
            # shift by up to 2 px: boxes are never exactly centred
            dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
            xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            yb = yt[idx]
            k = int(rng.integers(0, 4))  # a quarter turn of the whole batch: free, exact labels
            if k:
                xb = torch.rot90(xb, k, dims=(2, 3))
                yb = turned[k][yb]
            _, z = model(xb)
            logp = torch.log_softmax(z, dim=1)
            allowed = eq[yb]
            loss = -(torch.logsumexp(logp + torch.log(allowed + 1e-12), dim=1)).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            loss_sum += float(loss) * len(idx)
            right += int((allowed[torch.arange(len(idx)), z.argmax(dim=1)] > 0).sum())
            seen += len(idx)
            if step % 50 == 0:
                print(f"\repoch {epoch + 1}/{epochs}: {seen}/{len(x)} loss {loss_sum / seen:.3f} "
                      f"acc {right / seen:.3f}  {time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
        print(f"\repoch {epoch + 1}/{epochs}: loss {loss_sum / seen:.3f} acc {right / seen:.3f}  "
              f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    model.eval()
    return model


def export(model) -> bytes:  # type: ignore[no-untyped-def]
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "letters.onnx"
        torch.onnx.export(
            model, (torch.zeros(1, 1, NORM, NORM),), str(path), input_names=["crop"],
            output_names=["hidden", "logits"], dynamic_axes={"crop": {0: "n"}}, dynamo=False,
        )
        return path.read_bytes()


def letter_level(p: np.ndarray) -> np.ndarray:
    return np.concatenate([p[:, :REJECT].reshape(len(p), len(LETTERS), 4).sum(axis=2), p[:, REJECT:]], axis=1)


def letter_label(y: np.ndarray) -> np.ndarray:
    return np.where(y == REJECT, len(LETTERS), y // 4)


def fit_temperature(z: np.ndarray, y: np.ndarray) -> float:
    """Temperature minimising letter-level NLL on held-out fonts (calibrated confidence)."""
    yl = letter_label(y)
    best_t, best_nll = 1.0, np.inf
    for t in np.arange(0.5, 3.01, 0.05):
        pl = letter_level(softmax(z / t))
        nll = float(-np.log(pl[np.arange(len(yl)), yl] + 1e-9).mean())
        if nll < best_nll:
            best_t, best_nll = float(t), nll
    return best_t


def report(p: np.ndarray, y: np.ndarray, label: str) -> None:
    pl = letter_level(p)
    yl = letter_label(y)
    pred = pl.argmax(axis=1)
    conf = pl.max(axis=1)
    bins = np.linspace(0, 1, 11)
    ece = 0.0
    for a, b in zip(bins[:-1], bins[1:]):
        sel = (conf > a) & (conf <= b)
        if sel.any():
            ece += sel.mean() * abs(float((pred[sel] == yl[sel]).mean()) - float(conf[sel].mean()))
    print(f"{label}: letter acc {float((pred == yl).mean()):.4f}  ECE {ece:.4f}  n={len(y)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-letter", type=int, default=48, help="renders per (font, letter)")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (one cycle)")
    ap.add_argument("--init", type=Path, help="start from these weights (a run's .pt file)")
    ap.add_argument("--rounds", type=int, default=2, help="render the fit fonts this many times (new draws)")
    ap.add_argument("--width", type=int, default=16, help="channels of the first convolution")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--styled", type=float, default=0.0,
                    help="share of renders drawn hollow, as dots, stencilled or dashed, e.g. 0.2 "
                         "(0: none, as the shipped font model was made)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=FONT_MODEL_PATH)
    ap.add_argument("--cache", type=Path, help="keep rendered crops here (retrain without re-rendering)")
    args = ap.parse_args(argv)

    import torch

    torch.set_num_threads(max(1, args.workers))
    fonts = glyphs.font_paths("train")
    calib = fonts[3::8]  # fixed: every 8th train font only calibrates the temperature
    fit = [f for f in fonts if f not in calib]
    test = glyphs.font_paths("test")
    print(f"fonts: {len(fit)} fit, {len(calib)} calibration, {len(test)} test (never trained on)", file=sys.stderr)
    parts = [build(fit, args.per_letter, args.seed + 1000 * k, args.workers, "fit", args.cache, args.styled)
             for k in range(args.rounds)]
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    xc, yc = build(calib, max(4, args.per_letter // 4), args.seed + 1, args.workers, "calib", args.cache,
                   args.styled)
    xt, yt = build(test, 4, args.seed + 2, args.workers, "test", args.cache)
    model = train(x, y, args.epochs, args.seed, args.width, args.lr, args.init)
    net = Net(export(model), 1.0)
    zc = net.run(standardise(xc))[1]
    net.temperature = fit_temperature(zc, yc)
    print(f"temperature {net.temperature:.2f}", file=sys.stderr)
    report(softmax(zc / net.temperature), yc, "calibration fonts")
    report(softmax(net.run(standardise(xt))[1] / net.temperature), yt, "TEST fonts")
    LetterReader(net).save(args.out)
    torch.save(model.state_dict(), args.out.with_suffix(".pt"))  # to start a longer run from
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
