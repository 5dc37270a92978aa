"""Read one handwritten box of the pad: a number, a struck box, or nothing.

A box is cut from the rectified page as an *ink map* (how much darker than the paper around
it each pixel is), so pen colour, pencil and uneven light look alike. Its marks are split
into digits by connected components (pieces above one another join, as the bar of a 5 does;
a blob wider than a digit is cut at its thinnest column), and each piece goes, MNIST-style
(fitted into 20x20, centred by mass in 28x28), to a small CNN run by cv2.dnn, trained by
``scripts/train_pad_digits.py`` on pieces cut by this very code from rendered pads. Its
classes are the ten digits, a dash (a minus, or a stroke along the box), a slash (a stroke
across the box) and junk (a leftover of the printed lines, a speck, a neighbour's edge).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.kniffel_pad.layout import PadSheetError

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "/", "junk")
DASH, SLASH, JUNK = 10, 11, 12
SIDE = 28
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "pad_digits.npz"
INK_ON = 0.28  # ink map level a pixel counts as pen
MIN_AREA = 14  # px at PX_PER_MM: smaller marks are dust
INSET_MM = 1.1  # keep clear of the printed lines
WIDE = 1.15  # a piece wider than this times its height is two digits touching
STRIKE_SPAN = 0.6  # a stroke over this share of the box's width strikes it
MAX_DIGITS = 3


@dataclass(frozen=True)
class Piece:
    """One mark in a box: the network's input and where it was (x, y, w, h in box pixels)."""

    image: np.ndarray
    bbox: tuple[int, int, int, int]


@dataclass(frozen=True)
class BoxReading:
    """What a box holds: ``value`` None and ``struck`` False is a blank box."""

    value: int | None
    struck: bool
    confidence: float
    text: str = ""

    def view(self) -> dict[str, object]:
        return {"value": self.value, "struck": self.struck,
                "confidence": round(self.confidence, 3)}


def ink_map(gray: np.ndarray) -> np.ndarray:
    """0..1: how much darker than the local paper each pixel is.

    The paper's brightness is the local maximum (a closing wider than any stroke), so a
    shadow across the page or a tinted sum row does not read as ink.
    """
    g = gray.astype(np.float32)
    paper = cv2.dilate(g, np.ones((15, 15), np.uint8))
    paper = cv2.GaussianBlur(paper, (0, 0), 6)
    ink: np.ndarray = np.clip((paper - g) / np.maximum(paper, 20.0), 0.0, 1.0)
    return ink


def _to_input(ink: np.ndarray) -> np.ndarray:
    """MNIST's own normalisation: the mark fitted into 20x20, its mass at the centre of 28x28."""
    h, w = ink.shape
    scale = 20.0 / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(ink, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.float32)
    total = float(small.sum())
    if total > 0:
        ys, xs = np.mgrid[0:nh, 0:nw]
        cy, cx = float((ys * small).sum()) / total, float((xs * small).sum()) / total
    else:
        cy, cx = nh / 2, nw / 2
    oy = int(np.clip(round(SIDE / 2 - cy), 0, SIDE - nh))
    ox = int(np.clip(round(SIDE / 2 - cx), 0, SIDE - nw))
    out[oy:oy + nh, ox:ox + nw] = small
    peak = float(out.max())
    return out / peak if peak > 0 else out


def _groups(mask: np.ndarray) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """Connected marks, those stacked over one another joined, left to right."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    boxes = [(i, *stats[i, :4]) for i in range(1, n) if stats[i, 4] >= MIN_AREA]
    boxes.sort(key=lambda b: b[1])
    groups: list[tuple[list[int], list[int]]] = []  # (labels, [x0, y0, x1, y1])
    for i, x, y, w, h in boxes:
        if groups:
            ids, (gx0, gy0, gx1, gy1) = groups[-1]
            overlap = min(gx1, x + w) - max(gx0, x)
            if overlap >= 0.5 * min(w, gx1 - gx0):
                groups[-1] = (ids + [i], [min(gx0, x), min(gy0, y), max(gx1, x + w),
                                          max(gy1, y + h)])
                continue
        groups.append(([i], [x, y, x + w, y + h]))
    out = []
    for ids, (x0, y0, x1, y1) in groups:
        sel = np.isin(labels[y0:y1, x0:x1], ids)
        out.append((sel, (int(x0), int(y0), int(x1 - x0), int(y1 - y0))))
    return out


def _split(sel: np.ndarray, bbox: tuple[int, int, int, int]
           ) -> list[tuple[np.ndarray, tuple[int, int, int, int]]]:
    """A blob wider than a digit cut at its thinnest columns into as many digits as fit."""
    x, y, w, h = bbox
    parts = min(MAX_DIGITS, max(1, round(w / (0.75 * h)))) if w > WIDE * h else 1
    if parts == 1:
        return [(sel, bbox)]
    profile = sel.sum(axis=0).astype(np.float32)
    cuts = []
    for k in range(1, parts):
        centre = k * w // parts
        lo, hi = max(1, centre - w // (3 * parts)), min(w - 1, centre + w // (3 * parts) + 1)
        cuts.append(lo + int(np.argmin(profile[lo:hi])) if hi > lo else centre)
    out = []
    for a, b in zip([0, *cuts], [*cuts, w]):
        part = sel[:, a:b]
        rows = np.flatnonzero(part.any(axis=1))
        if b - a < 2 or len(rows) == 0:
            continue
        out.append((part[rows[0]:rows[-1] + 1], (x + a, y + int(rows[0]), b - a,
                                                  int(rows[-1] - rows[0] + 1))))
    return out


def pieces(ink_box: np.ndarray) -> list[Piece]:
    """The marks of one box (its ink map, lines already cut away), left to right."""
    mask = ink_box > INK_ON
    out: list[Piece] = []
    for sel, bbox in _groups(mask):
        for part, (x, y, w, h) in _split(sel, bbox):
            crop = ink_box[y:y + h, x:x + w] * part
            out.append(Piece(_to_input(crop), (x, y, w, h)))
    return out


class DigitReader:
    """The box reader; ``load()`` gives the shipped model. cv2.dnn nets are not thread-safe,
    so calls are serialised."""

    def __init__(self, onnx: bytes, temperature: float = 1.0) -> None:
        self.onnx = bytes(onnx)
        self.temperature = temperature
        try:
            self._dnn = cv2.dnn.readNetFromONNX(np.frombuffer(self.onnx, np.uint8))
        except cv2.error as exc:
            raise PadSheetError(f"OpenCV cannot load the digit network: {exc}".splitlines()[0]
                                ) from exc
        self._lock = threading.Lock()

    @classmethod
    def load(cls, path: str | Path | None = None) -> DigitReader:
        p = Path(path) if path is not None else MODEL_PATH
        try:
            with np.load(p, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                onnx = z["onnx"].tobytes()
        except (OSError, KeyError, ValueError, EOFError) as exc:
            raise PadSheetError(f"cannot load digit model {p}: {exc}") from exc
        if tuple(meta.get("classes", ())) != CLASSES or int(meta.get("side", -1)) != SIDE:
            raise PadSheetError(f"digit model {p} was made for other classes or input size")
        return cls(onnx, float(meta["temperature"]))

    def save(self, path: str | Path) -> None:
        meta = {"classes": list(CLASSES), "side": SIDE, "temperature": self.temperature}
        with open(path, "wb") as fh:  # np.savez_compressed would append .npz to a bare name
            np.savez_compressed(fh, onnx=np.frombuffer(self.onnx, np.uint8),
                                meta=np.array(json.dumps(meta)))

    def logits(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        if len(images) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        x = np.ascontiguousarray(np.asarray(images, np.float32).reshape(-1, 1, SIDE, SIDE))
        with self._lock:
            self._dnn.setInput(x)
            z = self._dnn.forward()
        return np.asarray(z, np.float32)

    def probs(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        z = self.logits(images) / self.temperature
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return p

    def read_boxes(self, ink_boxes: Sequence[np.ndarray]) -> list[BoxReading]:
        """Every box in one network pass (a pad has ~100-200 boxes, ~300 marks)."""
        found = [pieces(b) for b in ink_boxes]
        flat = [p.image for ps in found for p in ps]
        probs = self.probs(flat)
        out, k = [], 0
        for box, ps in zip(ink_boxes, found):
            out.append(decide(ps, probs[k:k + len(ps)], box.shape[1]))
            k += len(ps)
        return out


def decide(ps: Sequence[Piece], probs: np.ndarray, box_w: int) -> BoxReading:
    """The box's reading from its pieces' class probabilities.

    A dash or slash, or any one mark running over most of the box's width, strikes the
    box whatever else is written there (a crossed-out number is a struck box). Junk is
    dropped; a number's confidence is its least sure digit's.
    """
    digits: list[tuple[str, float]] = []
    junk_conf = 1.0
    for piece, p in zip(ps, probs):
        c = int(np.argmax(p))
        wide = piece.bbox[2] >= STRIKE_SPAN * box_w
        if c in (DASH, SLASH) or (wide and c in (1, JUNK)):
            conf = float(p[DASH] + p[SLASH] + (p[1] + p[JUNK] if wide else 0.0))
            return BoxReading(0, True, min(1.0, conf), "/")
        if c == JUNK:
            junk_conf = min(junk_conf, float(p[JUNK]))
            continue
        digits.append((CLASSES[c], float(p[c])))
    if not digits:
        return BoxReading(None, False, junk_conf)
    text = "".join(d for d, _ in digits[:MAX_DIGITS + 1])
    return BoxReading(int(text), False, min(c for _, c in digits), text)


__all__ = ["BoxReading", "CLASSES", "DigitReader", "Piece", "decide", "ink_map", "pieces"]
