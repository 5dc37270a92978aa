"""Train-side table tops with a pattern of their own: a ceramic-tiled top with grout lines,
a plaid cloth, a dark stained wood, a soft fleece and narrow laths.

A table with straight lines or squares of its own is what the locator must not take for the
game's tiles. These are the tables to tune that on; the held-out family's gingham, felt and
planks stay unseen, so these differ from them on purpose: square ceramic tiles of one colour
larger than a game tile, a plaid of broad and narrow stripes in two colours (no white), and
wood dark enough that a dark back stands out from it little. The fleece (tufts and blotches,
no lines) and the laths (narrow, of their own tones, with thin joints) are tables whose
texture and colour make tiles stand out little, to tune on in place of the family's felt and
planks.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import Table

def _ceramic(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Square glazed tiles (each a little lighter or darker) set in light grout."""
    side = w / rng.uniform(6, 11)  # the canvas is ~14 game tiles wide: 1.3-2.3 game tiles
    grout = max(2.0, side * rng.uniform(0.03, 0.06))
    x = np.arange(w, dtype=np.float32)
    y = np.arange(h, dtype=np.float32)
    ix, iy = (x // side).astype(int), (y // side).astype(int)
    tone = rng.uniform(0.9, 1.1, (iy.max() + 1, ix.max() + 1)).astype(np.float32)
    field = tone[iy[:, None], ix[None, :]]
    img = base * field[:, :, None]
    gx = np.abs((x + side / 2) % side - side / 2) < grout / 2
    gy = np.abs((y + side / 2) % side - side / 2) < grout / 2
    joint = cv2.GaussianBlur((gx[None, :] | gy[:, None]).astype(np.float32), (0, 0), 0.8)
    grout_colour = np.array((200, 205, 205), np.float32)
    img = img * (1 - joint[:, :, None]) + grout_colour * joint[:, :, None]
    return np.asarray(img + rng.normal(0, 3, (h, w, 1)).astype(np.float32))


def _plaid(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A plaid: a broad and a narrow stripe per repeat, both ways, in the table colour over a
    second, darker colour; where stripes cross they darken each other."""
    period = w / rng.uniform(5, 9)
    broad, narrow = rng.uniform(0.3, 0.45), rng.uniform(0.06, 0.12)
    t = np.arange(max(w, h), dtype=np.float32) / period % 1.0
    band = ((t < broad) | ((t > 0.65) & (t < 0.65 + narrow))).astype(np.float32)
    bx, by = band[:w], band[:h]
    cover = cv2.GaussianBlur((bx[None, :] + by[:, None]) / 2, (0, 0), 1.0)
    ground = base * 0.45 + np.array((20, 30, 10), np.float32)
    img = ground * (1 - cover[:, :, None]) + base * cover[:, :, None]
    weave = rng.normal(0, 1, (h, w)).astype(np.float32)
    return img * (1 + 0.06 * cv2.GaussianBlur(weave, (0, 0), 0.7))[:, :, None]


def _stained(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Dark stained wood: strong, wavy grain with a few knots, light pooling unevenly."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wobble = cv2.resize(rng.normal(0, 1, (10, 10)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    grain = np.sin((yy / h + 0.03 * wobble) * rng.uniform(40, 70) * math.pi)
    field = 0.8 + 0.25 * grain
    for _ in range(int(rng.integers(2, 5))):
        kx, ky, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.01, 0.03) * w
        field *= 1 - 0.5 * np.exp(-((xx - kx) ** 2 + ((yy - ky) * 2) ** 2) / (2 * r * r))
    sheen = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    field *= 1 + 0.15 * sheen
    if rng.random() < 0.5:  # the grain runs across or along the view
        field = cv2.resize(field.T.copy(), (w, h))
    return np.asarray(base * field[:, :, None])


def _fleece(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A soft fleece: tufts a few pixels wide over broad, faint blotches, each channel a little
    on its own (the pile catches the light unevenly), no line or edge anywhere."""
    blotch = cv2.resize(rng.normal(0, 1, (7, 9)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    tuft = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                            rng.uniform(1.5, 3.0))
    field = 1 + 0.07 * blotch + 0.35 * tuft
    hue = cv2.GaussianBlur(rng.normal(0, 1, (h, w, 3)).astype(np.float32), (0, 0), 2.0)
    return np.asarray(base * field[:, :, None] * (1 + 0.12 * hue))


def _laths(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Narrow laths side by side, each of its own tone and length-wise streaks, with thin
    joints between them a little darker (and, where two ends meet, across the lath)."""
    width = w / rng.uniform(16, 24)  # about 0.6-0.9 of a game tile
    y = np.arange(h, dtype=np.float32)
    x = np.arange(w, dtype=np.float32)
    row = (y // width).astype(int)
    tone = rng.uniform(0.88, 1.12, row.max() + 1).astype(np.float32)
    streak = cv2.resize(rng.normal(0, 1, (h // 2, 6)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    field = tone[row][:, None] * (1 + 0.05 * streak)
    joint = (np.abs((y + width / 2) % width - width / 2) < 1.2)[:, None] & np.ones((1, w), bool)
    ends = rng.uniform(0, w, row.max() + 1)
    joint |= np.abs(x[None, :] - ends[row][:, None]) < 1.2
    seam = cv2.GaussianBlur(joint.astype(np.float32), (0, 0), 0.9)
    field = field * (1 - 0.3 * seam)
    if rng.random() < 0.5:  # laths run across or along the view
        field = cv2.resize(field.T.copy(), (w, h))
    return np.asarray(base * field[:, :, None])


# the train tables with a pattern of their own: (width, height, colour, rng) -> image
PATTERNED_TABLES = {Table.CERAMIC: _ceramic, Table.PLAID: _plaid, Table.STAINED: _stained,
                    Table.FLEECE: _fleece, Table.LATHS: _laths}
