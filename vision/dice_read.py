"""Read the top face of one found die: a letter A–Z, ``*`` for the diamond, or unsure.

The network has the shape of the letter reader's (``vision.letters``: 32x32 gray, three conv
stages, 128 hidden) and starts from its weights, but its classes are the dice symbols: A–Z
and the diamond, each in four quarter turns, plus "not a face" (a gap between cubes, a Qu or
digraph cube, the tray). It was fine-tuned by ``scripts/train_dice_reader.py`` on real cube
crops of the TUNE photos (the fitting part; see ``vision.dice_photos``) and on rendered
faces. Its softmax temperature and the confidence below which the answer is ``?`` were
fitted on the calibration quarter of TUNE, never on REPORT.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision import VisionError
from vision.letters import NORM, ROTATIONS, Net, prepare, softmax

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ*"
N_SYMBOL_CLASSES = len(SYMBOLS) * len(ROTATIONS) + 1
NOT_A_FACE = N_SYMBOL_CLASSES - 1
READER_PATH = Path(__file__).with_name("models") / "dice.npz"
UNSURE_BELOW = 0.7  # replaced by the threshold stored in the model


class DiceReaderError(VisionError):
    """A model the dice reader cannot use."""


@dataclass(frozen=True)
class FaceReading:
    """``symbol`` None: unsure. ``face`` is how much the crop looks like a die face at all."""

    symbol: str | None
    best: str
    rotation: int
    confidence: float
    face: float


class DiceReader:
    """The face network (ONNX inside ``dice.npz``) run by cv2.dnn, with its calibration."""

    def __init__(self, net: Net, min_confidence: float = UNSURE_BELOW) -> None:
        self.net = net
        self.min_confidence = min_confidence

    @classmethod
    def load(cls, path: str | Path | None = None) -> DiceReader:
        p = Path(path) if path is not None else READER_PATH
        try:
            with np.load(p, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                onnx = z["onnx"].tobytes()
        except (OSError, KeyError, ValueError, EOFError) as exc:
            raise DiceReaderError(f"cannot load dice reader {p}: {exc}") from exc
        if meta.get("symbols") != SYMBOLS or int(meta.get("norm", -1)) != NORM:
            raise DiceReaderError(f"dice reader {p} was made for other symbols or input size")
        return cls(Net(onnx, float(meta["temperature"])), float(meta["min_confidence"]))

    def save(self, path: str | Path) -> None:
        meta = {"symbols": SYMBOLS, "norm": NORM, "temperature": self.net.temperature,
                "min_confidence": self.min_confidence}
        with open(path, "wb") as fh:
            np.savez_compressed(fh, onnx=np.frombuffer(self.net.onnx, np.uint8),
                                meta=np.array(json.dumps(meta)))

    def probs(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Calibrated probabilities over (symbol, turn) classes and "not a face", one row a crop."""
        if len(crops) == 0:
            return np.zeros((0, N_SYMBOL_CLASSES), np.float32)
        _, logits = self.net.run(prepare(crops))
        out: np.ndarray = softmax(logits / self.net.temperature)
        return out

    def read_many(self, crops: Sequence[np.ndarray]) -> list[FaceReading]:
        return [self.decide(p) for p in self.probs(crops)]

    def decide(self, p: np.ndarray) -> FaceReading:
        """The symbol with the most probability over its four turns, if sure enough.

        The confidence is that symbol's share of all classes, "not a face" included: a crop
        half on a gap is unsure, not a letter.
        """
        by_symbol = p[:NOT_A_FACE].reshape(len(SYMBOLS), len(ROTATIONS))
        totals = by_symbol.sum(axis=1)
        best = int(np.argmax(totals))
        conf = float(np.clip(totals[best], 0.0, 1.0))
        rotation = ROTATIONS[int(np.argmax(by_symbol[best]))]
        symbol = SYMBOLS[best] if conf >= self.min_confidence else None
        face = float(1.0 - p[NOT_A_FACE])
        return FaceReading(symbol, SYMBOLS[best], rotation, round(conf, 4), round(face, 4))


__all__ = ["DiceReader", "DiceReaderError", "FaceReading", "NOT_A_FACE", "N_SYMBOL_CLASSES",
           "READER_PATH", "SYMBOLS"]
