"""A photo from a file, and a phone photo brought to the camera's size before it is read.

A phone takes 12 MP; the Pi camera's frames are 1640x1232, and every reader's kernels, line
widths and page resolution are set for that. Reading a phone photo at its own size only costs
time (finding the pad's markers in 11 MP took 105 ms of one core against 28 ms at the
camera's size) and sees nothing more the readers use.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision import VisionError

READ_SIDE = 1640  # px: a photo's long side at most, the Pi camera's


def shrink(image: np.ndarray, side: int = READ_SIDE) -> tuple[np.ndarray, float]:
    """The photo with its long side at most ``side``, and the factor it was scaled by.
    Whole halvings average (OpenCV's fast path for a whole ratio); the last step, by less
    than two, interpolates. One arbitrary-ratio averaging step from 3000x4000 cost 45 ms on
    one core, this about 12."""
    w0 = image.shape[1]
    while max(image.shape[:2]) >= 2 * side:  # a sliver of a photo stays a pixel wide
        image = cv2.resize(image, (max(1, image.shape[1] // 2), max(1, image.shape[0] // 2)),
                           interpolation=cv2.INTER_AREA)
    longest = max(image.shape[:2])
    if longest > side:
        k = side / longest
        image = cv2.resize(image, (max(1, round(image.shape[1] * k)),
                                   max(1, round(image.shape[0] * k))),
                           interpolation=cv2.INTER_LINEAR)
    return image, image.shape[1] / w0 if image.shape[1] != w0 else 1.0


REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
           8: cv2.IMREAD_REDUCED_COLOR_8}


def load_image(path: str | Path, reduce: int = 1) -> np.ndarray:
    """A BGR image from a file, turned as its EXIF says; VisionError (one line) when it is
    not a readable image. ``reduce``: 2, 4 or 8 decodes a JPEG at that fraction of its
    sides (``companion.inputs.reduction``: for a reader that shrinks it anyway)."""
    p = Path(path)
    if not p.is_file():
        raise VisionError(f"{p}: no such file")
    data = np.fromfile(str(p), np.uint8)
    img = cv2.imdecode(data, REDUCED[reduce]) if data.size else None
    if img is None:
        raise VisionError(f"{p}: not a readable image")
    return img


__all__ = ["READ_SIDE", "load_image", "shrink"]
