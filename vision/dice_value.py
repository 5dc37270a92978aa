"""The value digit a Wort-Kniffel die prints small at the lower right of its letter (T₂), and
the rule that turns digit, letter and dice set into the die's value.

Where to look follows from what the face reader already knows: the face's outline gives its
angle up to a quarter turn, the reader's quarter turn (``FaceReading.rotation``) picks which
of the four, so the face can be cut upright at a fixed size and its lower right quarter holds
the digit. All four corners are looked at, each turned so that corner is the lower right:
a digit is printed in one corner only, so a second corner that also "shows a digit" means the
cut went wrong (an outline across two dice, a face at 45°) and nothing is read. H I N S Z look
the same half-turned and O X any way, so for them the digit's corner also tells the turn.

A small network (32x32 gray → the ten digits or "no digit"), trained by
``scripts/train_dice_values.py`` on corners cut by this very code from rendered throws and
from real letter cubes (which print no digit), run by cv2.dnn; its temperature and the
confidence below which a digit is unreadable are stored in the model. Only faces whose letter
was read sure are looked at: the digit of a face nobody can name is worth nothing.

The value rule (``decide``), as a referee at the table reads a die:
- letter unsure → no value; the diamond → 0 (it prints no digit);
- a digit read sure → that value: what is printed on this die is what it is worth, even when
  the table's dice set says otherwise (a set typed in wrong, a reconstructed default set);
  such a die is reported with ``value_from`` "digit-not-set" so the table can ask;
- no digit, or one not read sure → the set's value for the letter, else none. Never a guess.

Rotation twins (``TWINS``): in plain print an N turned a quarter is a Z and an M turned half is
a W, and the set has both of each pair with different values, so no network can tell them from
the glyph alone. The digit can: it sits at the lower right of the true letter, so its corner
tells the letter's turn and with it which twin lies there (``DigitReader.twin``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.games.kniffel.dice import JOKER, JOKER_VALUE
from vision import VisionError
from vision.letters import softmax
from vision.model_file import OnnxNet, read_model, write_model

DIGITS = "0123456789"
NO_DIGIT = len(DIGITS)  # the eleventh class
CLASSES = len(DIGITS) + 1
FACE = 64  # side of the upright face, px
PATCH = 32  # side of one corner (the lower right quarter of the upright face)
VALUES_PATH = Path(__file__).with_name("models") / "dice_values.npz"
SURE_ABOVE = 0.9  # replaced by the threshold stored in the model
# letters whose turn the face reader cannot tell: the digit may be in any of these corners
_ANY_CORNER = {"O": (0, 1, 2, 3), "X": (0, 1, 2, 3), "H": (0, 2), "I": (0, 2), "N": (0, 2),
               "S": (0, 2), "Z": (0, 2)}

# Letters that are one glyph under a turn (partner, quarter turns from one to the other). Found
# by comparing the ink of every letter turned with every other in the fonts the renders use:
# N/Z (quarter) is the same glyph in most sans-serif fonts, M/W (half) in a few; A/V (half)
# differ by A's bar, which the reader sees (it does not confuse them in the bench fonts).
TWINS = {"N": ("Z", 1), "Z": ("N", 1), "M": ("W", 2), "W": ("M", 2)}

FROM_DIGIT, FROM_SET, DIGIT_NOT_SET, FROM_RULE = "digit", "set", "digit-not-set", "rule"

Point = tuple[float, float]


class DiceValueError(VisionError):
    """A digit model the reader cannot use."""


@dataclass(frozen=True)
class DigitReading:
    """``digit`` None: no digit seen, or none read sure; ``confidence`` of the best answer."""

    digit: int | None
    confidence: float


def face_angle(corners: Sequence[Point], rotation: int, gray: np.ndarray | None = None) -> float:
    """The letter's clockwise turn in degrees: the outline's top edge gives it up to a
    quarter turn, the reader's ``rotation`` (a quarter turn) picks the nearest of the four.
    An outline that is only the found box (level, as no clear square was seen) says nothing
    of the angle; then the face's own edges and strokes in ``gray`` give it."""
    (x0, y0), (x1, y1) = corners[0], corners[1]
    edge = math.degrees(math.atan2(y1 - y0, x1 - x0)) % 90.0
    if y0 == y1 and gray is not None:
        edge = _stroke_angle(gray, corners)
    options = [edge + 90.0 * k for k in range(4)]
    return min(options, key=lambda a: abs((a - rotation + 180.0) % 360.0 - 180.0)) % 360.0


def _stroke_angle(gray: np.ndarray, corners: Sequence[Point]) -> float:
    """The face's angle modulo a quarter turn from its gradients: a face's rim and most of a
    capital's strokes run along its sides, so the gradient directions taken four times
    over (which folds the four sides into one) point one way; weighted to the box's middle
    so a neighbour's edges count little."""
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    x0, y0 = max(0, int(min(xs))), max(0, int(min(ys)))
    patch = gray[y0:int(max(ys)) + 1, x0:int(max(xs)) + 1]
    if min(patch.shape) < 8:
        return 0.0
    f = 48.0 / max(patch.shape)
    if f < 1.0:
        patch = cv2.resize(patch, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    p = patch.astype(np.float32)
    gx = cv2.Sobel(p, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(p, cv2.CV_32F, 0, 1, ksize=3)
    h, w = p.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    window = np.exp(-(((xx - w / 2) / (0.4 * w)) ** 2 + ((yy - h / 2) / (0.4 * h)) ** 2))
    c, s = gx * gx - gy * gy, 2.0 * gx * gy  # the gradient with its angle doubled
    z = complex(float(np.sum(window * (c * c - s * s))), float(np.sum(window * 2.0 * c * s)))
    return math.degrees(math.atan2(z.imag, z.real)) / 4.0 % 90.0


def upright_face(gray: np.ndarray, center: Point, corners: Sequence[Point],
                 rotation: int) -> np.ndarray:
    """The face cut from the picture, turned upright and scaled to ``FACE`` px (uint8)."""
    pts = np.asarray(corners, np.float64)
    side = float(np.mean(np.linalg.norm(pts - np.roll(pts, -1, axis=0), axis=1)))
    a = math.radians(face_angle(corners, rotation, gray))
    s = side / FACE
    c, d = math.cos(a) * s, math.sin(a) * s
    # output (u, v) -> picture: centre + R(a) @ ((u, v) - FACE/2) * s, R clockwise in image axes
    half = FACE / 2 - 0.5
    m = np.array([[c, -d, center[0] - c * half + d * half],
                  [d, c, center[1] - d * half - c * half]], np.float64)
    out: np.ndarray = cv2.warpAffine(gray, m, (FACE, FACE), flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def corner_patches(face: np.ndarray) -> np.ndarray:
    """(4, 1, PATCH, PATCH) float32: corner k is the lower right once the face is turned k
    quarter turns anticlockwise (k = 0: the corner the reader's turn expects). Scaled by the
    whole face's brightness, so an empty corner stays flat rather than its grain magnified."""
    f = face.astype(np.float32)
    mean, std = float(f.mean()), float(f.std()) + 8.0
    out = np.empty((4, 1, PATCH, PATCH), np.float32)
    for k in range(4):
        turned = np.rot90(f, k)  # anticlockwise: the corner a quarter turn further comes down
        out[k, 0] = (turned[FACE - PATCH:, FACE - PATCH:] - mean) / std
    return out


class DigitReader:
    """The corner network (ONNX inside ``dice_values.npz``) run by cv2.dnn, with its calibration."""

    def __init__(self, onnx: bytes, temperature: float = 1.0, sure_above: float = SURE_ABOVE) -> None:
        self.net = OnnxNet(onnx, "dice value network", DiceValueError)
        self.temperature = temperature
        self.sure_above = sure_above

    @classmethod
    def load(cls, path: str | Path | None = None) -> DigitReader:
        p = Path(path) if path is not None else VALUES_PATH
        meta, onnx, _ = read_model(p, "dice value reader", DiceValueError)
        if meta.get("classes") != CLASSES or int(meta.get("patch", -1)) != PATCH \
                or int(meta.get("face", -1)) != FACE:
            raise DiceValueError(f"dice value reader {p} was made for another input or classes")
        return cls(onnx, float(meta["temperature"]), float(meta["sure_above"]))

    def save(self, path: str | Path) -> None:
        meta = {"classes": CLASSES, "patch": PATCH, "face": FACE,
                "temperature": self.temperature, "sure_above": self.sure_above}
        write_model(path, self.net.onnx, meta)

    def probs(self, patches: np.ndarray) -> np.ndarray:
        """Calibrated probabilities (n, CLASSES) of prepared corners."""
        if len(patches) == 0:
            return np.zeros((0, CLASSES), np.float32)
        (logits,) = self.net.forward(patches)
        out: np.ndarray = softmax(logits / self.temperature)
        return out

    def read(self, gray: np.ndarray, faces: Sequence[tuple[str, Point, Sequence[Point], int]]
             ) -> list[DigitReading]:
        """The digit of each face (letter, centre, corners, rotation), all in one batch."""
        p = self.corners(gray, faces)
        return [self.decide(letter, pk) for (letter, _, _, _), pk in zip(faces, p, strict=True)]

    def corners(self, gray: np.ndarray, faces: Sequence[tuple[str, Point, Sequence[Point], int]]
                ) -> np.ndarray:
        """(n, 4, CLASSES): each face's four corners' probabilities (``corner_patches``)."""
        if not faces:
            return np.zeros((0, 4, CLASSES), np.float32)
        patches = np.concatenate([corner_patches(upright_face(gray, c, q, r)) for _, c, q, r in faces])
        out: np.ndarray = self.probs(patches).reshape(len(faces), 4, CLASSES)
        return out

    def decide(self, letter: str, p: np.ndarray) -> DigitReading:
        """The digit of one face from its four corners' probabilities (4, CLASSES): read only
        when exactly one corner shows a digit surely and that corner fits the letter's turn."""
        one = self._one_corner(p)
        if one is None or one[0] not in _ANY_CORNER.get(letter, (0,)):
            return DigitReading(None, round(float(p[0, NO_DIGIT]), 4))
        return one[1]

    def twin(self, letter: str, p: np.ndarray) -> tuple[str, int, DigitReading] | None:
        """Which of ``letter`` and its twin lies there, by the digit's corner (``p`` as for
        ``decide``, the face cut upright for ``letter``): ``(letter, extra clockwise quarter
        turns, digit)``, or None when no one corner shows a digit where either would print it."""
        one = self._one_corner(p)
        if one is None:
            return None
        k, digit = one
        partner, quarters = TWINS[letter]
        if k in _ANY_CORNER.get(letter, (0,)):
            return letter, k, digit
        if k in {(c + quarters) % 4 for c in _ANY_CORNER.get(partner, (0,))}:
            return partner, k, digit
        return None

    def _one_corner(self, p: np.ndarray) -> tuple[int, DigitReading] | None:
        """The corner that alone shows a digit surely and its reading: a digit is printed once,
        so a second sure corner means the cut went wrong."""
        digit_p = p[:, :NO_DIGIT]
        best = digit_p.max(axis=1)
        sure = [k for k in range(4) if float(best[k]) >= self.sure_above]
        if len(sure) != 1:
            return None
        k = sure[0]
        return k, DigitReading(int(np.argmax(digit_p[k])), round(float(best[k]), 4))


@functools.cache
def shipped() -> DigitReader:
    """The shipped digit network, loaded once per process."""
    return DigitReader.load()


def decide(letter: str, digit: DigitReading | None,
           set_values: dict[str, int] | None) -> tuple[int | None, str | None]:
    """``(value, where it came from)``: see the module's value rule."""
    if letter == JOKER:
        return JOKER_VALUE, FROM_RULE
    if len(letter) != 1 or not letter.isalpha():
        return None, None
    from_set = set_values.get(letter) if set_values is not None else None
    if digit is not None and digit.digit is not None:
        if from_set is not None and from_set != digit.digit:
            return digit.digit, DIGIT_NOT_SET
        return digit.digit, FROM_DIGIT
    if from_set is not None:
        return from_set, FROM_SET
    return None, None


__all__ = ["CLASSES", "DIGIT_NOT_SET", "DiceValueError", "DigitReader", "DigitReading", "FACE",
           "FROM_DIGIT", "FROM_RULE", "FROM_SET", "NO_DIGIT", "PATCH", "TWINS", "VALUES_PATH", "corner_patches",
           "decide", "face_angle", "shipped", "upright_face"]
