"""What the two fine-tuning scripts of the letter network share: its layers, and training on
crops whose label is a letter "in any of its four quarter turns".

The dice reader (``train_dice_reader.py``) and the grid's letter model for real cubes
(``train_letters_cubes.py``) both start from the font-only letter network and both learn from
photographed cubes whose annotations do not say which way a cube is turned; one training loop
serves both, so a fix to it reaches both models.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2
import numpy as np

from train_letters import standardise


Box = tuple[float, float, float, float]


def cut(rng: np.random.Generator, img: np.ndarray, box: Box, turn: bool, slop: float = 0.12) -> np.ndarray:
    """A box around a cube as the dice finder or a grid cell might give it: moved, resized,
    maybe turned first (the turned cube's box grows as a photo's box does)."""
    x0, y0, x1, y1 = box
    cx, cy, w, h = (x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0
    if turn:
        ang = float(rng.uniform(0, 360))
        m = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
        img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REFLECT)
        grow = abs(math.cos(math.radians(ang))) + abs(math.sin(math.radians(ang)))
        w, h = w * (1 + (grow - 1) * 0.9), h * (1 + (grow - 1) * 0.9)
    cx += rng.normal(0, slop / 2) * w
    cy += rng.normal(0, slop / 2) * h
    w *= math.exp(rng.normal(0, slop))
    h *= math.exp(rng.normal(0, slop))
    a, b = int(round(max(0, cx - w / 2))), int(round(max(0, cy - h / 2)))
    c, d = int(round(min(img.shape[1], cx + w / 2))), int(round(min(img.shape[0], cy + h / 2)))
    crop = img[b:d, a:c]
    if rng.random() < 0.25 and crop.size:
        crop = cv2.GaussianBlur(crop, (0, 0), float(rng.uniform(0.5, 1.8)))
    return crop


def cube_cuts(rng: np.random.Generator, img: np.ndarray, cubes: list[Any],
              per_cube: int) -> Iterator[tuple[np.ndarray, str | None]]:
    """Each annotated cube cut ``per_cube`` times (3 for a cube with no single letter), a third
    of the cuts turned first; with the cube's letter (None: not one letter, e.g. Qu)."""
    for cube in cubes:
        for _ in range(per_cube if cube.letter else 3):
            crop = cut(rng, img, cube.box, turn=bool(rng.random() < 0.35))
            if min(crop.shape[:2]) >= 4:
                yield crop, cube.letter


def make_model(n_classes: int, hidden: int = 128, norm: int = 32):  # type: ignore[no-untyped-def]
    """The letter network's layers as the ONNX file holds them (batch norm folded in)."""
    import torch.nn as nn

    def conv(i: int, o: int) -> list[nn.Module]:
        return [nn.Conv2d(i, o, 3, padding=1), nn.ReLU()]

    class LetterNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(
                *conv(1, 16), nn.MaxPool2d(2), *conv(16, 32), *conv(32, 32), nn.MaxPool2d(2),
                *conv(32, 64), *conv(64, 64), nn.MaxPool2d(2), nn.Flatten(),
                nn.Linear(64 * (norm // 8) ** 2, hidden), nn.ReLU())
            self.drop = nn.Dropout(0.3)
            self.head = nn.Linear(hidden, n_classes)

        def forward(self, x):  # type: ignore[no-untyped-def]
            h = self.features(x)
            return h, self.head(self.drop(h))

    return LetterNet()


def turned_rows(rows: np.ndarray, quarters: int, n_symbols: int) -> np.ndarray:
    """Allowed classes after the crop turns ``quarters`` x 90° clockwise (torch.rot90 k=-q):
    the first ``4 * n_symbols`` classes are each symbol in its four turns."""
    out = rows.copy()
    turned = 4 * n_symbols
    sym = rows[:, :turned].reshape(len(rows), n_symbols, 4)
    out[:, :turned] = np.roll(sym, quarters, axis=2).reshape(len(rows), turned)
    return out


def fit(build: Callable[[], Any], x: np.ndarray, rows: np.ndarray, n_symbols: int,
        epochs: int, seed: int, lr: float, keep: float = 0.0,
        kept: np.ndarray | None = None):  # type: ignore[no-untyped-def]
    """Train the model ``build()`` makes (after seeding, so its fresh weights are the seed's)
    on crops ``x`` whose allowed classes are ``rows``; every batch is shifted by up to 2 px
    and turned by a random quarter, its allowed classes turned with it.

    With ``keep`` > 0 the model is also held to what ``build()``'s model said at the start on
    the crops ``kept`` marks (KL divergence, weighted by ``keep``): a reader tuned further on
    new kinds of crops keeps its answers on the old kinds, pictures among them, instead of
    moving them wherever the new crops pull (learning without forgetting)."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    model = build()
    teacher = None
    if keep > 0:
        teacher = build()
        teacher.eval()
        for p in teacher.parameters():
            p.requires_grad_(False)
    kept_t = torch.from_numpy(np.ones(len(x), bool) if kept is None else kept)
    batch = 128
    steps = epochs * math.ceil(len(x) / batch)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    xt = torch.from_numpy(standardise(x))
    t0 = time.time()
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(x))
        loss_sum, right, seen = 0.0, 0, 0
        for s in range(0, len(x), batch):
            idx = order[s: s + batch]
            xb = xt[torch.from_numpy(idx)]
            dx, dy = (int(v) for v in rng.integers(-2, 3, 2))
            xb = torch.roll(xb, shifts=(dy, dx), dims=(2, 3))
            k = int(rng.integers(0, 4))
            xb = torch.rot90(xb, -k, dims=(2, 3))  # k quarter turns clockwise
            allowed = torch.from_numpy(turned_rows(rows[idx], k, n_symbols))
            _, z = model(xb)
            logp = torch.log_softmax(z, dim=1)
            loss = -(torch.logsumexp(logp + torch.log(allowed + 1e-12), dim=1)).mean()
            sel = kept_t[torch.from_numpy(idx)]
            if teacher is not None and bool(sel.any()):
                with torch.no_grad():
                    old = torch.log_softmax(teacher(xb[sel])[1], dim=1)
                kl = (old.exp() * (old - logp[sel])).sum(dim=1).mean()
                loss = loss + keep * kl * float(sel.float().mean())
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss.detach()) * len(idx)
            right += int((allowed[torch.arange(len(idx)), z.argmax(dim=1)] > 0).sum())
            seen += len(idx)
        print(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / seen:.3f} acc {right / seen:.3f} "
              f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
    model.eval()
    return model
