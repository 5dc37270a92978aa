"""Digits as people at a German table write them, made from MNIST's.

MNIST was written in the United States: its 1 is mostly a bare stem and its 7 has no bar.
Most people who learnt to write in Germany (and much of Europe) give the 1 a long up-stroke
into the top of its stem and cross the 7's stem with a bar. To a network that has seen only
MNIST, such a 1 is a 7 (the networks of 27 Nov read most of them so); the bar makes a 7
look like a 4. No handwriting set with these forms has a licence that allows use in a
product, so they are drawn onto MNIST's own digits, in MNIST's 28x28 frame and stroke
width, before any pen or page is applied.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.glyphs.strokes import skeleton

Bank = tuple[np.ndarray, np.ndarray]
HANDS = ("mnist", "continental")  # the benches' --hand

FLAG = (0.3, 0.5)  # the 1's up-stroke, of the digit's height
FLAG_DEG = (25.0, 55.0)  # its slope below the horizontal
BAR = (0.15, 0.28)  # half the 7's bar, of the digit's height
SCALE = 4  # drawn at 4x and shrunk, as MNIST's own anti-aliased strokes


def _stroke_px(img: np.ndarray) -> float:
    """The digit's stroke width: its ink over the length of its centre line."""
    ink = img > 96
    line = int((skeleton(ink.astype(np.uint8) * 255) > 0).sum())
    return float(img.sum()) / 255.0 / max(line, 1)


def _draw(img: np.ndarray, p0: tuple[float, float], p1: tuple[float, float],
          width: float) -> np.ndarray:
    big = np.zeros((img.shape[0] * SCALE, img.shape[1] * SCALE), np.float32)
    a = (round(p0[0] * SCALE), round(p0[1] * SCALE))
    b = (round(p1[0] * SCALE), round(p1[1] * SCALE))
    cv2.line(big, a, b, 255.0, max(1, round(width * SCALE)), cv2.LINE_AA)
    small = cv2.resize(big, img.shape[::-1], interpolation=cv2.INTER_AREA)
    out: np.ndarray = np.maximum(img, small.astype(np.uint8))
    return out


def flag_one(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A 1 with the up-stroke: from the stem's top, down and to the left. A 1 leaning
    back (its top left of its foot) is left bare: flagged, it would be a caret."""
    ys, xs = np.nonzero(img > 96)
    if len(ys) < 4:
        return img
    top, bottom = int(ys.min()), int(ys.max())
    x = float(np.median(xs[ys <= top + 1]))
    if x < float(np.median(xs[ys >= bottom - 1])) - 0.2 * (bottom - top + 1):
        return img
    length = (bottom - top + 1) * rng.uniform(*FLAG)
    angle = np.radians(rng.uniform(*FLAG_DEG))
    end = (max(1.0, x - length * np.cos(angle)), top + 0.5 + length * np.sin(angle))
    return _draw(img, (x, top + 0.5), end, _stroke_px(img))


def _longest_run(row: np.ndarray) -> int:
    """The longest stretch of ink in a row (a bar; a stem and a bent end apart are two)."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
    return int((edges[1::2] - edges[::2]).max()) if len(edges) else 0


def bar_seven(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A 7 with its stem crossed a little above or below the middle. A 7 whose writer
    already barred it keeps its own bar."""
    ys, xs = np.nonzero(img > 96)
    if len(ys) < 4:
        return img
    top, bottom = int(ys.min()), int(ys.max())
    height = bottom - top + 1
    band = img[round(top + 0.35 * height):round(top + 0.8 * height)] > 96
    if max((_longest_run(r) for r in band), default=0) > 0.3 * height:
        return img
    y = round(top + height * rng.uniform(0.45, 0.62))
    row = np.flatnonzero(img[y] > 96)
    if len(row) == 0:
        return img
    x = float(row.mean())
    half = height * rng.uniform(*BAR)
    tilt = rng.uniform(-0.08, 0.04) * height
    return _draw(img, (max(0.5, x - half), y - tilt), (min(27.0, x + half), y + tilt),
                 _stroke_px(img))


def continental(bank: Bank, rng: np.random.Generator, share: float = 1.0) -> Bank:
    """The bank with ``share`` of its 1s flagged and of its 7s barred (the others as they
    were); labels unchanged, the bank handed in untouched."""
    images, labels = bank
    out = images.copy()
    for label, draw in ((1, flag_one), (7, bar_seven)):
        for i in np.flatnonzero(labels == label):
            if rng.random() < share:
                out[i] = draw(images[i], rng)
    return out, labels


__all__ = ["Bank", "HANDS", "bar_seven", "continental", "flag_one"]
