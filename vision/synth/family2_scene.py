"""The second held-out family's table tops: terrazzo (stone chips of a few colours set in a
ground), a cloth with broad stripes one way, and an oilcloth printed with small flowers.
Unlike every other split's tables: chips and flowers are marks about a tile's size or less
scattered or repeated all over the view, and the stripes are straight edges of their own
across the whole view, none of which the locator was tuned on."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import Table


def _terrazzo(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Chips of three stone colours, sharp-edged, a few pixels to a fifth of a tile across,
    in a ground of the table colour with fine grit."""
    img: np.ndarray = np.empty((h, w, 3), np.float32)
    img[:] = base
    stones = (base * 0.45, np.minimum(base * 1.35 + 30, 255), np.array((60, 70, 150.0)))
    for k, stone in enumerate(stones):
        cell = float(rng.uniform(5, 12)) * (1 + 0.5 * k)  # each stone chips to its own size
        small = rng.normal(0, 1, (int(h / cell) + 2, int(w / cell) + 2)).astype(np.float32)
        field = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
        chip = cv2.GaussianBlur((field > (1.3 + 0.2 * k)).astype(np.float32), (0, 0), 0.6)
        img = img * (1 - chip[:, :, None]) + stone * chip[:, :, None]
    grit = rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    return np.asarray(img * (1 + 0.04 * grit))


def _striped(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Broad stripes one way, a tile or two wide, in the table colour and a pale one, with a
    cloth's fine weave. They run along or across the cloth: where the view reaches past the
    cloth it is mirrored, and slanted stripes would meet their mirror image in a zigzag."""
    period = w / rng.uniform(7, 11)
    along = np.arange(max(w, h), dtype=np.float32) / period % 1.0 < rng.uniform(0.4, 0.6)
    stripes = np.broadcast_to(along[:w][None, :], (h, w))
    if rng.random() < 0.5:
        stripes = np.broadcast_to(along[:h][:, None], (h, w))
    band = cv2.GaussianBlur(stripes.astype(np.float32), (0, 0), 1.0)
    pale = np.array((205, 225, 230), np.float32)
    img = base * band[:, :, None] + pale * (1 - band[:, :, None])
    weave = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.7)
    return np.asarray(img * (1 + 0.07 * weave)[:, :, None])


def _oilcloth(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Small five-petalled flowers, a third of a tile across, printed in staggered rows on
    the table colour, with a soft sheen across the cloth."""
    step = int(w / rng.uniform(22, 30))
    petal = tuple(float(c) for c in np.clip(base * 0.5 + 120, 0, 255))
    centre = (40.0, 170.0, 230.0)
    leaf = (60.0, 120.0, 50.0)
    cell = np.empty((step, step, 3), np.float32)
    cell[:] = base
    r = step * 0.13
    for cx, cy in ((step / 2, step / 2), (0, 0), (step, 0), (0, step), (step, step)):
        cv2.ellipse(cell, (int(cx + r * 1.6), int(cy + r * 1.4)), (int(r), int(r * 0.45)), 40,
                    0, 360, leaf, -1, cv2.LINE_AA)
        for k in range(5):
            ang = math.radians(72 * k - 90)
            cv2.circle(cell, (int(cx + r * math.cos(ang)), int(cy + r * math.sin(ang))),
                       int(r * 0.75), petal, -1, cv2.LINE_AA)
        cv2.circle(cell, (int(cx), int(cy)), int(r * 0.55), centre, -1, cv2.LINE_AA)
    reps = (h // step + 2, w // step + 2, 1)
    ox, oy = (int(v) for v in rng.integers(0, step, 2))
    img = np.tile(cell, reps)[oy:oy + h, ox:ox + w]
    sheen = cv2.resize(rng.normal(0, 1, (3, 3)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    return np.asarray(img * (1 + 0.06 * sheen)[:, :, None])


# the second family's table tops: (width, height, colour, rng) -> image
FAMILY2_TABLES = {Table.TERRAZZO: _terrazzo, Table.STRIPED: _striped,
                  Table.OILCLOTH: _oilcloth}
