"""Harder "not a face" crops for the dice reader (``scripts/train_dice_reader.py``).

Read by finders that never saw the photo, the TUNE photos' false dice were die-sized
patches of what lies around the dice: newspaper print, a rug's or a bedspread's pattern,
the side face of a front-row cube seen at a slant. The finder proposes such a box; only the
reader's "not a face" can drop it, and it had only learned gaps between cubes and the tray
next to them. These crops teach it the rest, all from TUNE photos or drawn:

- ``background``: die-sized boxes anywhere in a photo away from every annotated cube (the
  cloth, rug, paper and tray rim further out);
- ``side_faces``: the box shifted from a front-row cube towards the camera's near edge (the
  bottom of the picture), where its side face shows;
- ``mined_boxes``: the boxes finders trained without the photo find in it and that match no
  cube (hard negatives: what a finder actually mistakes for a die);
- ``texture``: drawn florals, printed columns and rug motifs at a die's size, so patterns
  no TUNE photo shows are not faces either. No large single letter: a printed letter as
  large as a die on plain paper is what a die face looks like in a box.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision import dice_photos  # noqa: E402
from vision.dice_find import Finder  # noqa: E402
from vision.dice_photos import Photo  # noqa: E402

Box = tuple[float, float, float, float]


def _overlaps(box: Box, cubes: list[Box], margin: float = 0.0) -> bool:
    x0, y0, x1, y1 = box
    for a, b, c, d in cubes:
        m = margin * (c - a)
        if x0 < c + m and a - m < x1 and y0 < d + m and b - m < y1:
            return True
    return False


def _median_side(cubes: list[Box]) -> float:
    return float(np.median([math.sqrt((c - a) * (d - b)) for a, b, c, d in cubes]))


def background(rng: np.random.Generator, img: np.ndarray, cubes: list[Box], n: int) -> list[Box]:
    """Up to ``n`` boxes of about the dice's size (0.5-1.8x) touching no annotated cube."""
    side = _median_side(cubes)
    h, w = img.shape[:2]
    out: list[Box] = []
    for _ in range(n * 6):
        s = side * float(np.clip(math.exp(rng.normal(0.1, 0.35)), 0.5, 1.8))
        bw, bh = s * math.exp(rng.normal(0, 0.1)), s * math.exp(rng.normal(0, 0.1))
        if bw >= w or bh >= h:
            continue
        x0, y0 = float(rng.uniform(0, w - bw)), float(rng.uniform(0, h - bh))
        box = (x0, y0, x0 + bw, y0 + bh)
        if not _overlaps(box, cubes, 0.05):
            out.append(box)
            if len(out) >= n:
                break
    return out


def side_faces(rng: np.random.Generator, img: np.ndarray, cubes: list[Box]) -> list[Box]:
    """For each cube with no cube just below it: its box moved 0.6-1.0 of a side down."""
    out: list[Box] = []
    for a, b, c, d in cubes:
        w, h = c - a, d - b
        below = (a + 0.3 * w, d + 0.2 * h, c - 0.3 * w, d + 1.2 * h)
        if _overlaps(below, cubes) or d + 0.6 * h > img.shape[0]:
            continue
        dy = float(rng.uniform(0.6, 1.0)) * h
        dx = float(rng.normal(0, 0.1)) * w
        out.append((a + dx, b + dy, c + dx, min(float(img.shape[0]), d + dy)))
    return out


def mined_boxes(photos: list[Photo], finders: list[Finder], min_score: float = 0.2) -> dict[str, list[Box]]:
    """Per photo, the peaks (at least ``min_score``) of the finder trained without the photo's
    fold (photo of fold i: ``finders[i]``) that lie on no cube, in the photo as it is and in
    a 1640x1232 frame (where print is larger and other peaks rise); photo coordinates."""
    out: dict[str, list[Box]] = {}
    for photo in photos:
        img = cv2.imread(str(photo.path), cv2.IMREAD_COLOR)
        if img is None:
            continue
        finder = finders[dice_photos.fold_of(photo.path.name, len(finders))]
        cubes = [c.box for c in photo.cubes]
        boxes: list[Box] = []
        for scale in (1.0, 1232 / img.shape[0]):
            pic = img if scale == 1.0 else cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            for s in finder.find(pic, min_score):
                x, y, hw, hh = s.x / scale, s.y / scale, s.w / 2 / scale, s.h / 2 / scale
                inner = (x - 0.25 * hw, y - 0.25 * hh, x + 0.25 * hw, y + 0.25 * hh)
                if not _overlaps(inner, cubes):
                    boxes.append((x - hw, y - hh, x + hw, y + hh))
        out[photo.path.name] = boxes
    return out


def _colour(rng: np.random.Generator, lo: int = 0, hi: int = 256) -> tuple[int, int, int]:
    return (int(rng.integers(lo, hi)), int(rng.integers(lo, hi)), int(rng.integers(lo, hi)))


def _floral(rng: np.random.Generator, img: np.ndarray) -> None:
    """Flowers of petals round a heart, leaves, at any size from a sprig to a big bloom."""
    side = img.shape[0]
    for _ in range(int(rng.integers(1, 7))):
        cx, cy = rng.uniform(-0.2, 1.2, 2) * side
        r = float(rng.uniform(0.1, 0.6)) * side
        petal, heart = _colour(rng), _colour(rng)
        k = int(rng.integers(4, 9))
        turn = float(rng.uniform(0, 360))
        for j in range(k):
            a = math.radians(turn + 360 * j / k)
            c = (int(cx + 0.55 * r * math.cos(a)), int(cy + 0.55 * r * math.sin(a)))
            cv2.ellipse(img, c, (max(1, int(0.45 * r)), max(1, int(0.22 * r))),
                        math.degrees(a), 0, 360, petal, -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx), int(cy)), max(1, int(0.2 * r)), heart, -1, cv2.LINE_AA)
        if rng.random() < 0.6:
            a = float(rng.uniform(0, 360))
            c = (int(cx + 1.1 * r * math.cos(math.radians(a))), int(cy + 1.1 * r * math.sin(math.radians(a))))
            cv2.ellipse(img, c, (max(1, int(0.4 * r)), max(1, int(0.15 * r))), a, 0, 360,
                        (int(rng.integers(20, 90)), int(rng.integers(80, 180)), int(rng.integers(20, 90))), -1, cv2.LINE_AA)


def _print(rng: np.random.Generator, img: np.ndarray) -> None:
    """Columns of small printed text, sometimes a headline or a picture block."""
    side = img.shape[0]
    ink = (int(rng.integers(0, 80)),) * 3
    size = float(rng.uniform(0.12, 0.35))
    fonts = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_TRIPLEX)
    font = int(rng.choice(fonts))
    y = float(rng.uniform(-0.1, 0.2)) * side
    x0 = float(rng.uniform(-0.5, 0.1)) * side
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz      "
    while y < side * 1.1:
        line = "".join(rng.choice(list(letters), int(rng.integers(6, 30))))
        scale = size * side / 22.0
        cv2.putText(img, line, (int(x0), int(y)), font, scale, ink, max(1, int(scale * 1.5)), cv2.LINE_AA)
        y += size * side * float(rng.uniform(1.3, 1.8))
    if rng.random() < 0.3:
        a, b = rng.uniform(0, 1, 2) * side
        cv2.rectangle(img, (int(a), int(b)), (int(a + side * 0.6), int(b + side * 0.4)), _colour(rng), -1)


def _rug(rng: np.random.Generator, img: np.ndarray) -> None:
    """Repeating motifs: stripes, diamonds, checks or scattered marks."""
    side = img.shape[0]
    step = max(3, int(rng.uniform(0.15, 0.6) * side))
    c1, c2 = _colour(rng), _colour(rng)
    kind = int(rng.integers(0, 4))
    for i in range(-2, side // step + 3):
        for j in range(-2, side // step + 3):
            x, y = i * step, j * step
            if kind == 0 and i % 2 == 0:
                cv2.rectangle(img, (x, 0), (x + step // 2, side), c1, -1)
            elif kind == 1:
                pts = np.array([[x, y - step // 2], [x + step // 2, y], [x, y + step // 2], [x - step // 2, y]], np.int32)
                cv2.fillPoly(img, [pts], c1 if (i + j) % 2 else c2, cv2.LINE_AA)
            elif kind == 2 and (i + j) % 2 == 0:
                cv2.rectangle(img, (x, y), (x + step, y + step), c1, -1)
            elif kind == 3 and rng.random() < 0.5:
                cv2.circle(img, (x + int(rng.integers(0, step)), y + int(rng.integers(0, step))),
                           max(1, step // 4), c1, -1, cv2.LINE_AA)


def texture(rng: np.random.Generator, side: int = 48) -> np.ndarray:
    """One drawn die-sized patch of a floral, print or rug pattern, lit dim to bright."""
    img: np.ndarray = np.empty((side, side, 3), np.uint8)
    img[:] = _colour(rng, 30, 256) if rng.random() < 0.7 else _colour(rng, 180, 256)
    kind = int(rng.integers(0, 3))
    (_floral, _print, _rug)[kind](rng, img)
    if rng.random() < 0.5:
        m = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(0, 360)), 1.0)
        img = cv2.warpAffine(img, m, (side, side), borderMode=cv2.BORDER_REFLECT)
    out: np.ndarray = img.astype(np.float32) * float(rng.uniform(0.25, 1.2))
    out = cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.3, 1.8)))
    out += rng.normal(0, float(rng.uniform(0, 10)), out.shape).astype(np.float32)
    clipped: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return clipped
