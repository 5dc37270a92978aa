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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from vision import VisionError
from vision.letters import (
    NORM,
    ROTATIONS,
    Net,
    prepare,
    proto_vote,
    prototype_arrays,
    prototypes_of,
    softmax,
    turns,
)
from vision.model_file import read_model, write_model

SYMBOLS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ*"
N_SYMBOL_CLASSES = len(SYMBOLS) * len(ROTATIONS) + 1
NOT_A_FACE = N_SYMBOL_CLASSES - 1
READER_PATH = Path(__file__).with_name("models") / "dice.npz"
UNSURE_BELOW = 0.7  # replaced by the threshold stored in the model
# a found box that is "not a face" at least this surely is dropped (a gap, the tray's rim);
# replaced by the value stored in the model (fitted on TUNE)
DROP_NOT_A_FACE = 0.8
SECOND_LOOK_BELOW = 0.97  # a first look less sure than this is checked in the other turns


class DiceReaderError(VisionError):
    """A model the dice reader cannot use."""


@dataclass(frozen=True)
class FaceReading:
    """``symbol`` None: unsure. ``face`` is how much the crop looks like a die face at all;
    ``shares`` each symbol's share (as ``SYMBOLS``), for letters the glyph alone cannot tell."""

    symbol: str | None
    best: str
    rotation: int
    confidence: float
    face: float
    shares: tuple[float, ...] = ()


class DiceReader:
    """The face network (ONNX inside ``dice.npz``) run by cv2.dnn, with its calibration."""

    def __init__(self, net: Net, min_confidence: float = UNSURE_BELOW,
                 drop_not_a_face: float = DROP_NOT_A_FACE, prototypes: np.ndarray | None = None,
                 proto_labels: np.ndarray | None = None) -> None:
        self.net = net
        self.min_confidence = min_confidence
        self.drop_not_a_face = drop_not_a_face
        # faces of the table's own set, taught from a photo (``taught``)
        self.prototypes = prototypes
        self.proto_labels = proto_labels

    @classmethod
    def load(cls, path: str | Path | None = None) -> DiceReader:
        p = Path(path) if path is not None else READER_PATH
        meta, onnx, arrays = read_model(p, "dice reader", DiceReaderError)
        if meta.get("symbols") != SYMBOLS or int(meta.get("norm", -1)) != NORM:
            raise DiceReaderError(f"dice reader {p} was made for other symbols or input size")
        protos, labels = prototypes_of(arrays)
        return cls(Net(onnx, float(meta["temperature"]), DiceReaderError),
                   float(meta["min_confidence"]),
                   float(meta.get("drop_not_a_face", DROP_NOT_A_FACE)), protos, labels)

    def save(self, path: str | Path) -> None:
        meta = {"symbols": SYMBOLS, "norm": NORM, "temperature": self.net.temperature,
                "min_confidence": self.min_confidence, "drop_not_a_face": self.drop_not_a_face}
        write_model(path, self.net.onnx, meta, prototype_arrays(self.prototypes, self.proto_labels))

    def taught(self, examples: Sequence[tuple[np.ndarray, str]]) -> DiceReader:
        """A reader that also knows these faces of the table's own set (crop, symbol).

        Every die of a set shares one print, so a face seen once in a photo of the real set
        is known again however it lies: each crop is kept in its four turns as prototypes in
        the network's hidden layer, and a crop close to one is decided mostly by it (the same
        vote as the tiles' taught letters). The turn of a taught face is the one the network
        finds likeliest for the symbol given.
        """
        if not examples:
            raise DiceReaderError("teaching needs at least one face with its letter")
        views: list[np.ndarray] = []
        labels: list[int] = []
        first = self.probs([crop for crop, _ in examples])
        for (crop, symbol), p in zip(examples, first):
            if symbol not in SYMBOLS:
                raise DiceReaderError(f"not a die face the reader knows: {symbol!r}")
            k = SYMBOLS.index(symbol)
            turn = int(np.argmax(p[k * len(ROTATIONS):(k + 1) * len(ROTATIONS)]))
            for extra, turned in turns(crop):
                views.append(turned)
                labels.append(k * len(ROTATIONS) + (turn + extra // 90) % len(ROTATIONS))
        hidden, _ = self.net.run(prepare(views))
        lab = np.asarray(labels, np.int64)
        if self.prototypes is not None and self.proto_labels is not None:
            hidden = np.concatenate([self.prototypes, hidden])
            lab = np.concatenate([self.proto_labels, lab])
        return DiceReader(self.net, self.min_confidence, self.drop_not_a_face,
                          hidden.astype(np.float32), lab)

    def probs(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Calibrated probabilities over (symbol, turn) classes and "not a face", one row a crop."""
        if len(crops) == 0:
            return np.zeros((0, N_SYMBOL_CLASSES), np.float32)
        hidden, logits = self.net.run(prepare(crops))
        out: np.ndarray = softmax(logits / self.net.temperature)
        if self.prototypes is not None and self.proto_labels is not None and len(self.prototypes):
            vote, weight = proto_vote(hidden, self.prototypes, self.proto_labels, N_SYMBOL_CLASSES)
            out = (1.0 - weight[:, None]) * out + weight[:, None] * vote
        return out

    def symbol_probs(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Per crop: each symbol's probability (turns summed), then "not a face".

        A crop the first look is not sure of is looked at again in its three other quarter
        turns and the four answers are combined by geometric mean: a letter that stays the
        same answer when turned gains, one that only one view saw loses. On the calibration
        photos this turned 1.6 % more cubes from unsure to right at the same rate of wrong
        answers, at the cost of three more reads for the few crops that need them.
        """
        p = _by_symbol(self.probs(crops))
        again = [i for i in range(len(crops)) if float(p[i, :-1].max()) < SECOND_LOOK_BELOW]
        if again:
            logs = np.log(p[again] + 1e-7)
            for k in (1, 2, 3):
                turned = [np.ascontiguousarray(np.rot90(crops[i], -k)) for i in again]
                logs += np.log(_by_symbol(self.probs(turned)) + 1e-7)
            g = np.exp(logs / 4.0)
            p[again] = g / g.sum(axis=1, keepdims=True)
        return p

    def read_many(self, crops: Sequence[np.ndarray]) -> list[FaceReading]:
        if len(crops) == 0:
            return []
        first = self.probs(crops)  # the turn comes from the first look
        return [self.decide(p, f) for p, f in zip(self.symbol_probs(crops), first)]

    def decide(self, p: np.ndarray, first: np.ndarray) -> FaceReading:
        """The symbol with the most probability, if sure enough.

        The confidence is that symbol's share of all classes, "not a face" included: a crop
        half on a gap is unsure, not a letter.
        """
        best = int(np.argmax(p[:-1]))
        conf = float(np.clip(p[best], 0.0, 1.0))
        turns = first[:NOT_A_FACE].reshape(len(SYMBOLS), len(ROTATIONS))[best]
        rotation = ROTATIONS[int(np.argmax(turns))]
        symbol = SYMBOLS[best] if conf >= self.min_confidence else None
        return FaceReading(symbol, SYMBOLS[best], rotation, round(conf, 4), round(float(1.0 - p[-1]), 4),
                           tuple(round(float(x), 4) for x in p[:-1]))


def _by_symbol(p: np.ndarray) -> np.ndarray:
    """(n, symbols + 1): the four turns of each symbol summed, "not a face" last."""
    sym = p[:, :NOT_A_FACE].reshape(len(p), len(SYMBOLS), len(ROTATIONS)).sum(axis=2)
    out: np.ndarray = np.concatenate([sym, p[:, NOT_A_FACE:]], axis=1)
    return out


__all__ = ["DiceReader", "DiceReaderError", "FaceReading", "NOT_A_FACE", "N_SYMBOL_CLASSES",
           "READER_PATH", "SYMBOLS"]
