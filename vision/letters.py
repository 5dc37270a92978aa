"""Read one letter (A–Z, Ä, Ö, Ü) from a crop of a tile or cube face, in any of 4 rotations.

The reader is a small convolutional network (ONNX, run by OpenCV's dnn module) over the crop
squeezed to 32x32 gray, trained by ``scripts/train_letters.py`` on letters rendered from the
*train* fonts (see ``vision.glyphs``): tile and cube faces at any angle, boxed as in a photo,
with neighbours, blur, glare and JPEG. Renders alone left real cubes at 84 % (blur, cut
faces, cube fonts no installed font resembles), so the shipped network is that one
fine-tuned by ``scripts/train_letters_cubes.py`` on the same renders together with real cube
crops of the TUNE photos (``vision.dice_photos``; never REPORT). Each class is a
(letter, rotation) pair, plus one class for "not a letter", so one pass gives the letter, how
it is turned and how sure the model is. Scores are softmax probabilities with a temperature
fitted on held-out renders and cubes, so ``confidence`` can be thresholded: below
``min_confidence`` the reading says ``letter=None`` (unsure) instead of guessing.

Rotation of letters that look the same turned (O, X, H, I, N, S, Z) is whichever the model
prefers; it means nothing for them. N turned 90° *is* a Z, and M turned 180° is nearly a W:
without an underline or a restricted alphabet those pairs are only told apart by proportions.

``taught`` adapts a reader to a real tile set: labelled crops become prototypes in the
network's last hidden layer (with all four turns of each), and a nearest-prototype vote is
blended with the network.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import VisionError
from vision.model_file import OnnxNet, read_model, write_model

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÜ"
ROTATIONS = (0, 90, 180, 270)
N_CLASSES = len(LETTERS) * len(ROTATIONS) + 1  # + "not a letter"
REJECT = N_CLASSES - 1
# the shipped reader: the font model fine-tuned on tiles and real cubes of the TUNE photos
# (scripts/train_letters_cubes.py)
MODEL_PATH = Path(__file__).with_name("models") / "letters.npz"
# trained from fonts alone (scripts/train_letters.py): where the shipped reader and the dice
# reader start from
FONT_MODEL_PATH = Path(__file__).with_name("models") / "letters_fonts.npz"
UNSURE_BELOW = 0.6
# taught prototypes: cosine similarity in the hidden layer below FAR is ignored, above NEAR
# the vote counts with weight TRUST (measured on unseen-font renders with the shipped CNN:
# jitter of one taught tile >= 0.96, other letters of that font <= 0.76)
PROTO_FAR, PROTO_NEAR, PROTO_TRUST = 0.8, 0.9, 0.85
# ... and from SAME up to 1 (the taught crop itself, a still camera's next frame) the trust
# rises to full: capped at TRUST, a taught face the network misreads (a bench font's I read
# as L at 0.76 by the dice reader) could never be read surer than 0.85 + 0.15 x the network's
# share of it, however exactly it is the face taught. Other views of a taught die came to
# 0.92-0.965, so they keep TRUST.
PROTO_SAME = 0.98
NORM = 32  # side of the network's input
HIDDEN = 128  # width of the network's last hidden layer (where taught prototypes live)

FloatArray = np.ndarray


class LetterError(VisionError):
    """A crop or model the letter reader cannot use."""


@dataclass(frozen=True)
class LetterReading:
    """What one crop shows: ``letter`` None means unsure or not a letter."""

    letter: str | None
    rotation: int
    confidence: float
    candidates: tuple[tuple[str, float], ...] = ()
    # a first look less sure than the model's second-look level, not yet read again in four
    # turns (only when the caller asked to decide that later: ``read_many(second_look=False)``)
    look_again: bool = False
    # the strongest letter outside the alphabet asked for, as a share like ``confidence``
    # (a clear 'A' on a MÖRDE board: plainly a letter, only not one of the set)
    outside: float = 0.0


def class_index(letter: str, rotation: int) -> int:
    """The model's class for ``letter`` turned ``rotation`` degrees clockwise."""
    return LETTERS.index(letter) * 4 + ROTATIONS.index(rotation % 360)


# --- the network ---------------------------------------------------------------------------

def _gray(crop: np.ndarray) -> np.ndarray:
    if not isinstance(crop, np.ndarray) or crop.ndim not in (2, 3) or crop.size == 0:
        raise LetterError("a crop must be a non-empty gray or BGR image array")
    if crop.ndim == 3:
        if crop.shape[2] == 4:
            crop = cv2.cvtColor(crop, cv2.COLOR_BGRA2BGR)
        elif crop.shape[2] == 1:
            crop = crop[..., 0]
    if crop.ndim == 3:
        crop = cv2.cvtColor(crop.astype(np.uint8), cv2.COLOR_BGR2GRAY)
    if min(crop.shape[:2]) < 4:
        raise LetterError(f"crop too small: {crop.shape[1]}x{crop.shape[0]}")
    return crop.astype(np.float32)


def prepare(crops: Sequence[np.ndarray]) -> FloatArray:
    """The network's input (n, 1, NORM, NORM): each crop squeezed to a square, standardised.

    Squeezing (not padding) is deliberate: a box around a face is the face whatever its
    aspect, and the network is trained on squeezed boxes. Standardising each crop takes out
    light and exposure; which of ink and face is darker is left to the network.
    """
    out = np.empty((len(crops), 1, NORM, NORM), np.float32)
    for i, crop in enumerate(crops):
        g = _gray(crop)
        interp = cv2.INTER_AREA if min(g.shape) > NORM else cv2.INTER_LINEAR
        x = cv2.resize(g, (NORM, NORM), interpolation=interp)
        out[i, 0] = (x - x.mean()) / max(float(x.std()), 1e-3)
    return out


class Net(OnnxNet):
    """The letter CNN (ONNX bytes) run by OpenCV's dnn module; gives the hidden layer and
    logits. Other readers built on this network (the dice faces) pass their own ``error``."""

    def __init__(self, onnx: bytes, temperature: float = 1.0,
                 error: type[Exception] = LetterError) -> None:
        super().__init__(onnx, "letter network", error)
        self.temperature = temperature

    def run(self, x: FloatArray) -> tuple[FloatArray, FloatArray]:
        """(hidden, logits) for prepared input ``x``."""
        if len(x) == 0:
            return np.zeros((0, HIDDEN), np.float32), np.zeros((0, N_CLASSES), np.float32)
        hidden, logits = self.forward(x, ("hidden", "logits"))
        return hidden, logits

    def probs(self, logits: FloatArray) -> FloatArray:
        return softmax(logits / self.temperature)


def softmax(z: FloatArray) -> FloatArray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: FloatArray = e / e.sum(axis=-1, keepdims=True)
    return out


# --- taught prototypes ---------------------------------------------------------------------

def prototype_arrays(prototypes: FloatArray | None,
                     labels: np.ndarray | None) -> dict[str, np.ndarray]:
    """Taught prototypes as a model file stores them (none: nothing)."""
    if prototypes is None or labels is None:
        return {}
    return {"protos": prototypes.astype(np.float16), "proto_labels": labels.astype(np.int16)}


def prototypes_of(arrays: dict[str, np.ndarray]) -> tuple[FloatArray | None, np.ndarray | None]:
    """The taught prototypes a model file holds, if any."""
    if "protos" not in arrays or "proto_labels" not in arrays:
        return None, None
    return arrays["protos"].astype(np.float32), arrays["proto_labels"].astype(np.int64)


def turns(crop: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The crop turned by each extra clockwise quarter (how much to add to its rotation)."""
    return [
        (0, crop),
        (90, cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)),
        (180, cv2.rotate(crop, cv2.ROTATE_180)),
        (270, cv2.rotate(crop, cv2.ROTATE_90_COUNTERCLOCKWISE)),
    ]


class LetterReader:
    """The letter reader; ``load()`` gives the shipped model."""

    def __init__(
        self,
        net: Net,
        prototypes: FloatArray | None = None,
        proto_labels: np.ndarray | None = None,
        min_confidence: float = UNSURE_BELOW,
        turn_views: bool = False,
        second_look: float = 1.0,
    ) -> None:
        self.net = net
        # read all four quarter turns of a crop and average (4x the work, steadier answers)
        self.turn_views = turn_views
        # only crops whose first look is less sure than this are read in four turns (the
        # model file says; for the cube-tuned model it turned 1.9 % of the TUNE calibration
        # photos' cubes from unsure or wrong to right and left renders as they were)
        self.second_look = second_look
        self.prototypes = prototypes
        self.proto_labels = proto_labels
        self.min_confidence = min_confidence

    # persistence ------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path | None = None) -> LetterReader:
        """A reader from a model file (None: the shipped model)."""
        p = Path(path) if path is not None else MODEL_PATH
        meta, onnx, arrays = read_model(p, "letter model", LetterError)
        if meta.get("letters") != LETTERS or int(meta.get("norm", -1)) != NORM:
            raise LetterError(f"letter model {p} was made for other letters or input size")
        net = Net(onnx, float(meta["temperature"]), LetterError)
        protos, labels = prototypes_of(arrays)
        return cls(net, protos, labels, float(meta.get("min_confidence", UNSURE_BELOW)),
                   second_look=float(meta.get("second_look", 1.0)))

    def save(self, path: str | Path) -> None:
        """Write the network (ONNX inside) and any taught prototypes as one .npz file."""
        meta = {
            "letters": LETTERS, "norm": NORM, "temperature": self.net.temperature,
            "min_confidence": self.min_confidence, "second_look": self.second_look,
        }
        write_model(path, self.net.onnx, meta, prototype_arrays(self.prototypes, self.proto_labels))

    # reading ---------------------------------------------------------------------------
    def class_probs(self, crops: Sequence[np.ndarray]) -> FloatArray:
        """Probabilities over the (letter, rotation) classes and reject, one row per crop."""
        return self._first_look(crops, True)[0]

    def _first_look(self, crops: Sequence[np.ndarray],
                    second_look: bool) -> tuple[FloatArray, list[int]]:
        """The probabilities, and the crops a first look was not sure of: read again in four
        turns here (``second_look``), or left for the caller to decide."""
        if len(crops) == 0:
            return np.zeros((0, N_CLASSES), np.float32), []
        if self.turn_views:
            return self._four_turns(crops), []
        p = self._probs(crops)
        again: list[int] = []
        if self.second_look < 1.0:
            # a crop surely no letter (a tile's back) is not looked at again either
            letter_p = p[:, :REJECT].reshape(len(p), len(LETTERS), 4).sum(axis=2).max(axis=1)
            sure = np.maximum(letter_p, p[:, REJECT])
            again = [i for i in range(len(crops)) if float(sure[i]) < self.second_look]
            if again and second_look:
                p[again] = self._four_turns([crops[i] for i in again])
                again = []
        return p, again

    def _four_turns(self, crops: Sequence[np.ndarray]) -> FloatArray:
        """Each crop read in all four quarter turns, each turn undone, then combined."""
        views = [t for c in crops for _, t in turns(c)]
        pv = self._probs(views).reshape(len(crops), 4, N_CLASSES)
        # geometric mean: four views that agree stay as sure as one; one that disagrees
        # pulls the answer towards unsure
        logp = np.zeros((len(crops), N_CLASSES), np.float32)
        for k in range(4):
            logp += np.log(_unturn(pv[:, k], k) + 1e-7)
        return softmax(logp / 4.0)

    def _probs(self, crops: Sequence[np.ndarray]) -> FloatArray:
        hidden, logits = self.net.run(prepare(crops))
        p = self.net.probs(logits)
        if self.prototypes is not None and self.proto_labels is not None and len(self.prototypes):
            vote, weight = proto_vote(hidden, self.prototypes, self.proto_labels, N_CLASSES)
            p = (1.0 - weight[:, None]) * p + weight[:, None] * vote
        return p

    def read(self, crop: np.ndarray, alphabet: str | None = None) -> LetterReading:
        """Read one crop; ``alphabet`` (e.g. "MÖRDE") restricts the answer."""
        return self.read_many([crop], alphabet)[0]

    def read_many(
        self, crops: Sequence[np.ndarray], alphabet: str | None = None,
        second_look: bool = True,
    ) -> list[LetterReading]:
        """Read crops; a crop the first look is unsure of is read again in four turns, or,
        without ``second_look``, marked ``look_again`` for :meth:`read_again` (a caller that
        learns more first, such as which cells are the back, may then spare it)."""
        allowed = _allowed(alphabet)
        probs, again = self._first_look(crops, second_look)
        out = [self._decide(p, allowed) for p in probs]
        for i in again:
            out[i] = dataclasses.replace(out[i], look_again=True)
        return out

    def read_again(self, crops: Sequence[np.ndarray],
                   alphabet: str | None = None) -> list[LetterReading]:
        """The second look: each crop read in its four quarter turns."""
        allowed = _allowed(alphabet)
        if len(crops) == 0:
            return []
        return [self._decide(p, allowed) for p in self._four_turns(crops)]

    def _decide(self, p: FloatArray, allowed: np.ndarray | None) -> LetterReading:
        by_letter = p[:REJECT].reshape(len(LETTERS), 4)
        letter_p = by_letter.sum(axis=1)
        outside_share = 0.0
        if allowed is None:
            score = letter_p
        else:
            # Letters outside the alphabet still count against the answer (a clear 'A' on a
            # MÖRDE board is unsure, not an 'M'), but only the strongest one.
            outside = float(letter_p[~allowed].max()) if (~allowed).any() else 0.0
            denom = float(letter_p[allowed].sum()) + float(p[REJECT]) + outside
            score = np.where(allowed, letter_p / max(denom, 1e-9), 0.0)
            outside_share = outside / max(denom, 1e-9)
        order = np.argsort(-score)
        best = int(order[0])
        conf = float(np.clip(score[best], 0.0, 1.0))
        rotation = ROTATIONS[int(np.argmax(by_letter[best]))]
        cands = tuple((LETTERS[i], round(float(score[i]), 4)) for i in order[:3] if score[i] > 0)
        letter = LETTERS[best] if conf >= self.min_confidence else None
        return LetterReading(letter, rotation, round(conf, 4), cands,
                             outside=round(outside_share, 4))

    # teaching --------------------------------------------------------------------------
    def taught(self, examples: Sequence[tuple[np.ndarray, str]]) -> LetterReader:
        """A reader that also knows these labelled crops (letters upright or turned as given).

        Each crop is stored in all four turns so a tile taught once is known in any
        direction. The label may carry the crop's rotation as "Ö@90" (default upright).
        """
        if not examples:
            raise LetterError("teaching needs at least one labelled crop")
        views: list[np.ndarray] = []
        labels: list[int] = []
        for crop, label in examples:
            letter, rot = _parse_label(label)
            for extra, turned in turns(crop):
                views.append(turned)
                labels.append(class_index(letter, (rot + extra) % 360))
        h = self.net.run(prepare(views))[0]
        if self.prototypes is not None and self.proto_labels is not None:
            h = np.concatenate([self.prototypes, h])
            lab = np.concatenate([self.proto_labels, np.asarray(labels)])
        else:
            lab = np.asarray(labels)
        return LetterReader(self.net, h.astype(np.float32), lab.astype(np.int64), self.min_confidence,
                            second_look=self.second_look)


def proto_vote(h: FloatArray, prototypes: FloatArray, labels: np.ndarray,
               n_classes: int) -> tuple[FloatArray, FloatArray]:
    """Soft nearest-prototype vote in the hidden space, and how much to trust it.

    A crop as close to a taught example as the example's own turns and jitter are
    (cosine >= ~0.95) is decided mostly by the vote; a crop far from all of them (another
    letter, a blank face) is left to the network. Shared by every reader built on this network
    (the tiles' letters, the dice faces).
    """
    hn = h / (np.linalg.norm(h, axis=1, keepdims=True) + 1e-6)
    pn = prototypes / (np.linalg.norm(prototypes, axis=1, keepdims=True) + 1e-6)
    sim = hn @ pn.T  # (n, m)
    vote = np.zeros((len(h), n_classes), np.float32)
    k = min(5, sim.shape[1])
    idx = np.argpartition(-sim, k - 1, axis=1)[:, :k]
    for i in range(len(h)):
        s = sim[i, idx[i]]
        w = np.exp((s - s.max()) / 0.02)
        np.add.at(vote[i], labels[idx[i]], w)
    vote /= vote.sum(axis=1, keepdims=True)
    near = sim.max(axis=1)
    weight = PROTO_TRUST * np.clip((near - PROTO_FAR) / (PROTO_NEAR - PROTO_FAR), 0.0, 1.0) \
        + (1.0 - PROTO_TRUST) * np.clip((near - PROTO_SAME) / (1.0 - PROTO_SAME), 0.0, 1.0)
    return vote, weight.astype(np.float32)


def _unturn(p: FloatArray, quarters: int) -> FloatArray:
    """Class probabilities of a view turned ``quarters`` x 90° clockwise, as of the original."""
    out = p.copy()
    letters = p[:, :REJECT].reshape(len(p), len(LETTERS), 4)
    out[:, :REJECT] = np.roll(letters, -quarters, axis=2).reshape(len(p), REJECT)
    return out


def _parse_label(label: str) -> tuple[str, int]:
    text, _, rot = label.partition("@")
    letter = text.strip().upper()
    if letter not in LETTERS or len(letter) != 1:
        raise LetterError(f"not a letter the reader knows: {label!r}")
    try:
        r = int(rot) if rot else 0
    except ValueError as exc:
        raise LetterError(f"bad rotation in label {label!r}") from exc
    if r % 90:
        raise LetterError(f"rotation must be 0, 90, 180 or 270 in {label!r}")
    return letter, r % 360


def _allowed(alphabet: str | None) -> np.ndarray | None:
    if alphabet is None:
        return None
    # each character on its own: upper-casing the whole text would turn letters the model
    # does not know into ones it does ("ß" into "SS"), and the reader would answer for those
    letters = {c.upper() if len(c.upper()) == 1 else c
               for c in alphabet if not c.isspace() and c not in ",;"}
    unknown = sorted(letters - set(LETTERS))
    if unknown:
        raise LetterError(
            f"the letter model knows only {LETTERS}, not {' '.join(unknown)} "
            f"(--alphabet {alphabet!r})"
        )
    if not letters:
        raise LetterError(f"alphabet must be letters from {LETTERS}; got {alphabet!r}")
    return np.array([c in letters for c in LETTERS])


__all__ = ["LetterReading", "LetterReader", "LetterError", "LETTERS", "ROTATIONS", "prepare"]
