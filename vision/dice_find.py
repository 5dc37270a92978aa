"""Find cubes in a whole picture: a small fully convolutional network marks each cube's centre.

Why a network and not thresholds and contours: in a tray the faces touch and the tray's ribs,
the cubes' sides and the shadows make edges of every kind; blurred or tiny boards (cubes of
12 px) have no clean outline at all. The network (trained by ``scripts/train_dice_finder.py``
on the TUNE photos, turned, scaled, recoloured, and with cubes pasted loose on cloth) gives,
at every 4th pixel, how much it looks like a cube's centre and the cube's box size there.
Peaks of that map are the cubes. It runs on a copy no larger than ``WORK_SIDE``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import VisionError
from vision.model_file import OnnxNet, read_model, write_model

STRIDE = 4  # the network's output has one cell per 4x4 input pixels
WORK_SIDE = 640  # longest side the network sees (a 1640x1232 frame runs at 640x480)
FINDER_PATH = Path(__file__).with_name("models") / "dice_finder.npz"
MIN_SCORE = 0.3  # replaced by the threshold stored in the model (fitted on TUNE)


class FinderError(VisionError):
    """A picture or model the dice finder cannot use."""


@dataclass(frozen=True)
class Spot:
    """One cube as found: centre and box size in the input's pixels, and the peak's height."""

    x: float
    y: float
    w: float
    h: float
    score: float


def normalise(img_bgr: np.ndarray) -> np.ndarray:
    """(3, h, w) float input; light and contrast are left to the network (it was jittered).

    Filled channel by channel in the layout the network reads, so that a frame's input
    (3.7 MB at 640x480) exists once, with no float copy of the picture beside it."""
    x = np.empty((3, *img_bgr.shape[:2]), np.float32)
    for c in range(3):
        x[c] = img_bgr[:, :, c]
    x -= 128.0
    x /= 64.0
    return x


class Finder:
    """The finder network, run by cv2.dnn (``vision.model_file.OnnxNet``)."""

    def __init__(self, onnx: bytes, min_score: float = MIN_SCORE, work_side: int = WORK_SIDE) -> None:
        self.net = OnnxNet(onnx, "dice finder", FinderError, frame=True)
        self.onnx = self.net.onnx
        self.min_score = min_score
        self.work_side = work_side

    @classmethod
    def load(cls, path: str | Path | None = None) -> Finder:
        p = Path(path) if path is not None else FINDER_PATH
        meta, onnx, _ = read_model(p, "dice finder", FinderError)
        if int(meta.get("stride", -1)) != STRIDE:
            raise FinderError(f"dice finder {p} was made for another output stride")
        return cls(onnx, float(meta["min_score"]), int(meta.get("work_side", WORK_SIDE)))

    def save(self, path: str | Path) -> None:
        meta = {"stride": STRIDE, "min_score": self.min_score, "work_side": self.work_side}
        write_model(path, self.onnx, meta)

    def heat(self, image_bgr: np.ndarray) -> tuple[np.ndarray, float]:
        """The network's output (3, h/4, w/4) on the reduced copy, and the reduction factor."""
        h, w = image_bgr.shape[:2]
        f = min(1.0, self.work_side / max(h, w))
        small = image_bgr if f == 1.0 else cv2.resize(image_bgr, (round(w * f), round(h * f)),
                                                      interpolation=cv2.INTER_AREA)
        sh, sw = small.shape[:2]
        ph, pw = -sh % (2 * STRIDE), -sw % (2 * STRIDE)  # the net halves three times
        if ph or pw:
            small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
        out = self.net.forward(normalise(small)[None])[0][0]
        return out[:, : (sh + STRIDE - 1) // STRIDE, : (sw + STRIDE - 1) // STRIDE], f

    def find(self, image_bgr: np.ndarray, min_score: float | None = None) -> list[Spot]:
        """Every peak above ``min_score`` (default: the fitted one), strongest first."""
        if not isinstance(image_bgr, np.ndarray) or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
            raise FinderError("a picture must be a BGR image array")
        if min(image_bgr.shape[:2]) < 16:
            raise FinderError(f"picture too small: {image_bgr.shape[1]}x{image_bgr.shape[0]}")
        out, f = self.heat(image_bgr)
        thr = self.min_score if min_score is None else min_score
        p = 1.0 / (1.0 + np.exp(-out[0]))
        peak = (p == cv2.dilate(p, np.ones((3, 3), np.uint8))) & (p >= thr)
        spots: list[Spot] = []
        for cy, cx in zip(*np.nonzero(peak)):
            # sub-cell centre: the heat-weighted mean of the 3x3 around the peak
            y0, x0 = max(0, cy - 1), max(0, cx - 1)
            win = p[y0: cy + 2, x0: cx + 2]
            yy, xx = np.mgrid[y0: y0 + win.shape[0], x0: x0 + win.shape[1]]
            mx, my = float((xx * win).sum() / win.sum()), float((yy * win).sum() / win.sum())
            scale = STRIDE / f
            spots.append(Spot((mx + 0.5) * scale, (my + 0.5) * scale,
                              float(np.exp(out[1, cy, cx])) * scale, float(np.exp(out[2, cy, cx])) * scale,
                              float(p[cy, cx])))
        spots.sort(key=lambda s: -s.score)
        return _apart(spots)


def _apart(spots: list[Spot]) -> list[Spot]:
    """Drop a weaker peak whose centre lies inside a stronger cube's inner half."""
    kept: list[Spot] = []
    for s in spots:
        if all(abs(s.x - k.x) > 0.35 * k.w or abs(s.y - k.y) > 0.35 * k.h for k in kept):
            kept.append(s)
    return kept


__all__ = ["FINDER_PATH", "Finder", "FinderError", "STRIDE", "Spot", "WORK_SIDE", "normalise"]
