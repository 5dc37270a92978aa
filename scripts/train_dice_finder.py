#!/usr/bin/env python3
"""Train the dice finder (vision/models/dice_finder.npz): a small fully convolutional network
that marks each cube's centre and its box size, run by cv2.dnn.

Only the TUNE half of the annotated photos is used (``vision.dice_photos``: split by a hash of
the file name); the REPORT half is never read here. Every patch is a TUNE photo scaled (0.45-1.7x),
turned by any angle, colour-jittered, blurred and cut to 192x192; in a third of the patches a
few cube crops are also pasted loose, turned, on a plain or noisy cloth, so the finder does not
learn that a cube is only ever in a tray. Seeded.

Needs PyTorch and onnx only to train: ``pip install torch==2.13.0 onnx``.

    .venv/bin/python scripts/train_dice_finder.py --photos DIR [--steps 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dice_photos  # noqa: E402
from vision.dice_find import FINDER_PATH, STRIDE, Finder, normalise  # noqa: E402

PATCH = 192
Box = tuple[float, float, float, float]


def _jitter_colour(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    out = img.astype(np.float32)
    if rng.random() < 0.3:
        out = out[:, :, rng.permutation(3)]  # another tray or cloth colour
    out = out * rng.uniform(0.6, 1.3) + rng.uniform(-40, 40)
    out = out + rng.uniform(-15, 15, 3)
    if rng.random() < 0.5:
        k = int(rng.choice([3, 5, 7, 9]))
        out = cv2.GaussianBlur(out, (k, k), 0)
    out = out + rng.normal(0, rng.uniform(0, 8), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def _warp(img: np.ndarray, boxes: list[Box], m: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, list[Box]]:
    out = cv2.warpAffine(img, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    moved: list[Box] = []
    for x0, y0, x1, y1 in boxes:
        pts = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], float) @ m.T
        (a, b), (c, d) = pts.min(axis=0), pts.max(axis=0)
        # the box of a turned square cube is the turned box's bound, less the rounding
        shrink = 1.0 - 0.08 * abs(math.sin(2 * math.atan2(m[1, 0], m[0, 0])))
        cx, cy, w, h = (a + c) / 2, (b + d) / 2, (c - a) * shrink, (d - b) * shrink
        moved.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
    return out, moved


def _cloth(rng: np.random.Generator) -> np.ndarray:
    base = rng.uniform(20, 235, 3)
    img = np.ones((PATCH, PATCH, 3), np.float32) * base
    noise = cv2.GaussianBlur(rng.normal(0, 1, (PATCH, PATCH)).astype(np.float32), (0, 0), rng.uniform(0.5, 4))
    img += noise[..., None] * rng.uniform(0, 60)
    return np.clip(img, 0, 255).astype(np.uint8)


def _paste_loose(rng: np.random.Generator, photos: list[tuple[np.ndarray, list[Box]]]) -> tuple[np.ndarray, list[Box]]:
    """A few cubes cut from photos, turned and lying loose on a cloth."""
    img = _cloth(rng)
    boxes: list[Box] = []
    for _ in range(int(rng.integers(1, 9))):
        src, sboxes = photos[int(rng.integers(len(photos)))]
        x0, y0, x1, y1 = (int(round(v)) for v in sboxes[int(rng.integers(len(sboxes)))])
        cube = src[max(0, y0):y1, max(0, x0):x1]
        if cube.size == 0 or min(cube.shape[:2]) < 6:
            continue
        side = float(rng.uniform(14, 70))
        cube = cv2.resize(cube, (int(side), int(side * cube.shape[0] / cube.shape[1]) or 1))
        h, w = cube.shape[:2]
        ang = float(rng.uniform(0, 360))
        cx, cy = rng.uniform(side, PATCH - side, 2)
        if any(abs(cx - (b[0] + b[2]) / 2) < side and abs(cy - (b[1] + b[3]) / 2) < side for b in boxes):
            continue
        m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1.0)
        m[:, 2] += (cx - w / 2, cy - h / 2)
        layer = cv2.warpAffine(cube, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR)
        mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, (PATCH, PATCH))
        shadow = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32)[..., None] / 255
        img = (img * (1 - 0.4 * shadow)).astype(np.uint8)
        img[mask > 128] = layer[mask > 128]
        _, moved = _warp(np.zeros((h, w, 3), np.uint8), [(0, 0, w, h)], m, (PATCH, PATCH))
        boxes.extend(moved)
    return img, boxes


def sample(rng: np.random.Generator, photos: list[tuple[np.ndarray, list[Box]]]) -> tuple[np.ndarray, list[Box]]:
    if rng.random() < 0.3:
        img, boxes = _paste_loose(rng, photos)
        return _jitter_colour(rng, img), boxes
    src, sboxes = photos[int(rng.integers(len(photos)))]
    scale = math.exp(rng.uniform(math.log(0.45), math.log(1.7)))
    ang = float(rng.uniform(0, 360)) if rng.random() < 0.6 else float(rng.integers(0, 4) * 90)
    h, w = src.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, scale)
    # put a random point of the photo at the patch centre
    px, py = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
    q = m @ np.array([px, py, 1.0])
    m[:, 2] += (PATCH / 2 - q[0], PATCH / 2 - q[1])
    img, boxes = _warp(src, sboxes, m, (PATCH, PATCH))
    if rng.random() < 0.5:
        img, boxes = img[:, ::-1].copy(), [(PATCH - b[2], b[1], PATCH - b[0], b[3]) for b in boxes]
    return _jitter_colour(rng, img), boxes


def targets(boxes: list[Box]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Gaussian centre heat, log box size (in output cells) and where the size counts."""
    n = PATCH // STRIDE
    heat = np.zeros((n, n), np.float32)
    size = np.zeros((2, n, n), np.float32)
    mask = np.zeros((n, n), np.float32)
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    for x0, y0, x1, y1 in boxes:
        cx, cy = (x0 + x1) / 2 / STRIDE - 0.5, (y0 + y1) / 2 / STRIDE - 0.5
        w, h = (x1 - x0) / STRIDE, (y1 - y0) / STRIDE
        if not (0 <= cx < n and 0 <= cy < n) or w < 1.5:
            continue
        sigma = max(0.6, 0.12 * math.sqrt(w * h))
        g = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2))
        heat = np.maximum(heat, g)
        near = g > 0.5
        size[0][near], size[1][near] = math.log(w), math.log(h)
        mask[near] = 1.0
        heat[min(n - 1, int(round(cy))), min(n - 1, int(round(cx)))] = 1.0
    return heat, size, mask


def make_model():  # type: ignore[no-untyped-def]
    import torch
    import torch.nn as nn

    def conv(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
        return nn.Sequential(nn.Conv2d(i, o, 3, s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU())

    class FinderNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.down = nn.Sequential(conv(3, 16, 2), conv(16, 24, 2), conv(24, 24))
            self.deep = nn.Sequential(conv(24, 48, 2), conv(48, 48), conv(48, 48, d=2), conv(48, 48, d=4))
            self.up = nn.ConvTranspose2d(48, 24, 2, 2)
            self.tail = nn.Sequential(nn.ReLU(), conv(24, 24), nn.Conv2d(24, 3, 1))

        def forward(self, x):  # type: ignore[no-untyped-def]
            s4 = self.down(x)
            return self.tail(self.up(self.deep(s4)) + s4)

    model = FinderNet()
    with torch.no_grad():
        model.tail[-1].bias.copy_(torch.tensor([-2.2, 1.5, 1.5]))
    return model


def train(photos: list[tuple[np.ndarray, list[Box]]], steps: int, seed: int,  # type: ignore[no-untyped-def]
          save_to: Path | None = None):
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = make_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    batch, t0, run = 8, time.time(), 0.0
    for step in range(steps):
        xs, hs, ss, ms = [], [], [], []
        for _ in range(batch):
            img, boxes = sample(rng, photos)
            h, s, m = targets(boxes)
            xs.append(normalise(img))
            hs.append(h)
            ss.append(s)
            ms.append(m)
        x = torch.from_numpy(np.stack(xs))
        heat, size, mask = (torch.from_numpy(np.stack(a)) for a in (hs, ss, ms))
        out = model(x)
        p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
        pos = heat.eq(1.0).float()
        focal = -(pos * (1 - p) ** 2 * torch.log(p) + (1 - pos) * (1 - heat) ** 4 * p**2 * torch.log(1 - p))
        loss_h = focal.sum() / pos.sum().clamp(min=1)
        loss_s = (torch.abs(out[:, 1:] - size) * mask[:, None]).sum() / mask.sum().clamp(min=1)
        loss = loss_h + loss_s
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        run = 0.98 * run + 0.02 * float(loss) if step else float(loss)
        if save_to is not None and step % 200 == 199:  # a usable model while a long run goes on
            model.eval()
            Finder(export(model)).save(save_to.with_suffix(".partial.npz"))
            model.train()
        if step % 25 == 0:
            print(f"\rstep {step}/{steps} loss {run:.3f} ({float(loss_h):.3f} + {float(loss_s):.3f}) "
                  f"{time.time() - t0:.0f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    model.eval()
    return model


def export(model) -> bytes:  # type: ignore[no-untyped-def]
    import torch

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "finder.onnx"
        torch.onnx.export(model, (torch.zeros(1, 3, PATCH, PATCH),), str(path), input_names=["image"],
                          output_names=["out"], dynamic_axes={"image": {2: "h", 3: "w"}}, dynamo=False)
        return path.read_bytes()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--photos", type=Path, required=True, metavar="DIR")
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=FINDER_PATH)
    ap.add_argument("--leave-out", metavar="I/N", help="train without TUNE fold I of N "
                    "(dice_photos.fold_of), so that fold can judge a rule fitted after the finder")
    args = ap.parse_args(argv)
    leave = tuple(int(v) for v in args.leave_out.split("/")) if args.leave_out else None

    import torch

    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    photos = []
    for p in dice_photos.load(args.photos, "tune"):
        if leave is not None and dice_photos.fold_of(p.path.name, leave[1]) == leave[0]:
            continue
        img = cv2.imread(str(p.path), cv2.IMREAD_COLOR)
        if img is not None:
            photos.append((img, [c.box for c in p.cubes]))
    print(f"TUNE photos: {len(photos)}", file=sys.stderr)
    model = train(photos, args.steps, args.seed, args.out)
    Finder(export(model)).save(args.out)
    torch.save(model.state_dict(), args.out.with_suffix(".pt"))
    print(f"saved {args.out} ({args.out.stat().st_size / 1e6:.2f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
