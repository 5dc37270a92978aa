"""A second reader of a written number: the whole box at once.

The digit reader (:mod:`vision.kniffel_pad.digits`) cuts a number into marks and reads each
alone, so how it cuts decides much: two digits written into one another come out as one, a 1
leaning on a 0 is lost, a stroke that breaks off becomes a digit of its own. Half of its
errors on rendered pads were such cuts. This network never cuts. It sees the box's ink, fitted
into a 32x80 strip, and says how many digits there are (one to three) and which stands in each
place, as a street-number reader does. It is trained by ``scripts/train_pad_numbers.py`` on
boxes cut by the pad reader from rendered pads written with MNIST's training digits.

The two readers are joined per box (:func:`join`): where they agree the number stands, where
they do not the likelier wins and the box is marked unsure, so a wrong number is more often a
question than a confident claim. Strikes, blanks and minus signs are the digit reader's alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.kniffel_pad.cuts import MIN_AREA
from vision.kniffel_pad.digits import NUMBERS_PATH, UNREAD, BoxReading, pen_mask, plain
from vision.kniffel_pad.layout import PadSheetError
from vision.marks import components
from vision.model_file import OnnxNet, read_model, write_model

HEIGHT, WIDTH = 32, 80
PLACES = 3  # digits a number may have
INK_H, INK_W = 24, 74  # the ink's size in the strip at most
SMALL = 0.3  # a mark lower than this share of the tallest is a speck, not part of the number
# A number whose every digit the digit reader read this surely is not read again: on the
# selection pads that is 63 % of the numbers, and reading them too corrected 3 more boxes in
# 2091 for 2.7 times the network's time (some 1.6 ms a box on one core).
SETTLED = 0.99
BRIDGE = 5  # px: pen bits closer than this belong to one mark (a faint 6 is not a speck)
# A number the box cannot hold (by the game's rules and dice) is taken to be this much less
# likely to be written there than one it can, before the pen is read: about one entry in 200
# a slip of the player's, spread over some ten numbers the box cannot hold against some 20 it
# can. Chosen between 0.01, 0.001 and 0.0001 on the selection pads (MNIST's test digits):
# 0.01 lost one of the 71 slips read right without it, the smaller ones three and six.
OUTSIDE = 0.01
# A number the network gives this much belief or more is one the box may as well hold (a
# ``doubt``): the table does not hold a box against the record when the record is one.
DOUBT = 0.01


def number_input(ink_box: np.ndarray, scale: float = 1.0, shift: tuple[int, int] = (0, 0)
                 ) -> np.ndarray | None:
    """The strip the network reads: the box's pen marks (as the digit reader sees them;
    dust and specks far lower than the digits left out, the bits a faint digit falls into
    kept) cut to their extent, fitted into INK_H x INK_W, centred, scaled to their darkest
    ink. None for a box without marks. ``scale`` and ``shift`` (dx, dy) vary it for
    training."""
    mask = pen_mask(ink_box)
    # a faint digit falls apart into bits under the mask; bits this close are one mark
    near_bits = cv2.dilate(mask.astype(np.uint8), np.ones((BRIDGE, BRIDGE), np.uint8))
    n, labels, stats, _ = components(near_bits)
    area = np.bincount(labels[mask], minlength=n)
    marks = [i for i in range(1, n) if area[i] >= MIN_AREA]
    if not marks:
        return None
    tallest = max(int(stats[i, 3]) for i in marks)
    keep = np.zeros(n, bool)
    keep[[i for i in marks if stats[i, 3] >= SMALL * tallest]] = True
    on = keep[labels] & mask
    ys, xs = np.nonzero(on)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    near = cv2.dilate(on.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0  # a stroke's fringe
    crop = (ink_box * near)[y0:y1, x0:x1].astype(np.float32)
    h, w = crop.shape
    s = min(INK_H / h, INK_W / w) * scale
    nh, nw = min(HEIGHT, max(1, round(h * s))), min(WIDTH, max(1, round(w * s)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((HEIGHT, WIDTH), np.float32)
    oy = min(max((HEIGHT - nh) // 2 + shift[1], 0), HEIGHT - nh)
    ox = min(max((WIDTH - nw) // 2 + shift[0], 0), WIDTH - nw)
    out[oy:oy + nh, ox:ox + nw] = small
    peak = float(out.max())
    return out / peak if peak > 0 else out


class Guess:
    """The network's belief about one box: how many digits, and each place's digit."""

    def __init__(self, logits: np.ndarray, temperature: float) -> None:
        z = logits.reshape(-1).astype(np.float64) / temperature
        parts = [z[:PLACES]] + [z[PLACES + 10 * j:PLACES + 10 * (j + 1)] for j in range(PLACES)]
        self.length, *self.places = (_softmax(p) for p in parts)
        self._table: np.ndarray | None = None

    def prob(self, value: int) -> float:
        """How likely the box holds ``value`` (0 for what it cannot hold)."""
        text = str(value)
        if value < 0 or len(text) > PLACES:
            return 0.0
        p = float(self.length[len(text) - 1])
        for place, digit in zip(self.places, text):
            p *= float(place[int(digit)])
        return p

    def table(self) -> np.ndarray:
        """How likely the box holds each number 0-999 (none of two or three digits begins
        with 0); made once, as a box's best number and its doubts both read it."""
        if self._table is None:
            one = self.length[0] * self.places[0]
            two = self.length[1] * np.outer(self.places[0][1:], self.places[1]).ravel()
            three = self.length[2] * np.einsum("i,j,k->ijk", self.places[0][1:],
                                               self.places[1], self.places[2]).ravel()
            self._table = np.concatenate([one, two, three])
            self._table.flags.writeable = False
        return self._table

    def doubts(self, value: int, *also: int) -> tuple[int, ...]:
        """The numbers other than ``value`` believed at ``DOUBT`` or more, likeliest first,
        and ``also`` (another reader's number)."""
        table = self.table()
        likely = np.flatnonzero(table >= DOUBT)
        ranked = [int(v) for v in likely[np.argsort(-table[likely], kind="stable")]]
        return tuple(dict.fromkeys(v for v in (*ranked, *also) if v != value))

    def best(self, expect: frozenset[int] | None = None) -> tuple[int, float]:
        """The likeliest number and its probability; with ``expect`` (what the box may hold),
        each other number weighed down by ``OUTSIDE`` first."""
        table = self.table()
        value = int(np.argmax(table if expect is None else table * weights(expect)))
        return value, float(table[value])


@lru_cache(maxsize=64)
def weights(expect: frozenset[int]) -> np.ndarray:
    """``OUTSIDE`` for each number 0-999 the box cannot hold, 1 for those it can."""
    w = np.full(10 ** PLACES, OUTSIDE)
    w[[v for v in expect if 0 <= v < w.size]] = 1.0
    w.flags.writeable = False
    return w


def weight(expect: frozenset[int] | None, value: int | None) -> float:
    """One number's weight (nothing is weighed where the game says nothing)."""
    return 1.0 if expect is None or value is None or value in expect else OUTSIDE


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    out: np.ndarray = e / e.sum()
    return out


class NumberReader:
    """The whole-box network, run by cv2.dnn."""

    def __init__(self, onnx: bytes, temperature: float = 1.0) -> None:
        self.net = OnnxNet(onnx, "number network", PadSheetError)
        self.onnx = self.net.onnx
        self.temperature = temperature

    @classmethod
    def load(cls, path: str | Path | None = None) -> NumberReader:
        p = Path(path) if path is not None else NUMBERS_PATH
        meta, onnx, _ = read_model(p, "number model", PadSheetError)
        if (int(meta.get("height", -1)), int(meta.get("width", -1)),
                int(meta.get("places", -1))) != (HEIGHT, WIDTH, PLACES):
            raise PadSheetError(f"number model {p} was made for another input or length")
        return cls(onnx, float(meta["temperature"]))

    def save(self, path: str | Path) -> None:
        meta = {"height": HEIGHT, "width": WIDTH, "places": PLACES,
                "temperature": self.temperature}
        write_model(path, self.onnx, meta)

    def logits(self, strips: Sequence[np.ndarray]) -> np.ndarray:
        if len(strips) == 0:
            return np.zeros((0, PLACES * 11), np.float32)
        x = np.asarray(strips, np.float32).reshape(-1, 1, HEIGHT, WIDTH)
        return self.net.forward(x)[0]

    def guesses(self, strips: Sequence[np.ndarray]) -> list[Guess]:
        return [Guess(z, self.temperature) for z in self.logits(strips)]

    def guess_boxes(self, ink_boxes: Mapping[int, np.ndarray]) -> dict[int, Guess]:
        """The network's belief for each box that has marks, by the caller's key."""
        strips = {k: s for k, box in ink_boxes.items() if (s := number_input(box)) is not None}
        return dict(zip(strips, self.guesses(list(strips.values()))))

    def check(self, ink_boxes: Sequence[np.ndarray], readings: Sequence[BoxReading],
              known: Mapping[int, Guess] | None = None, guess_unread: bool = False,
              expect: Sequence[frozenset[int] | None] | None = None) -> list[BoxReading]:
        """The digit reader's readings, each number it was not sure of read once more whole
        and joined; ``known`` are boxes the network has read already. With
        ``guess_unread`` (a pad whose sums are checked: a sum that cannot be read is not
        checked at all), a box where the digit reader left a mark unread is read too, and
        the network's number becomes its guess (:func:`join`); elsewhere such a box stays
        unread (on the markerless reader's held-out sheets, printed remnants in blank cells
        would become guesses). ``expect``: what each box may hold, where the game says; a
        number outside it is read again even when the digit reader was sure of it, and so
        is a number read with a leading zero (:func:`padded`)."""
        known = known or {}
        todo = {k: ink_boxes[k] for k, r in enumerate(readings)
                if (plain(r) or (guess_unread and unread(r))) and k not in known
                and (r.confidence < SETTLED or weight(_at(expect, k), r.value) < 1.0
                     or padded(r))}
        guesses = {**known, **self.guess_boxes(todo)}
        return [join(r, guesses.get(k), _at(expect, k)) for k, r in enumerate(readings)]


def _at(expect: Sequence[frozenset[int] | None] | None, k: int) -> frozenset[int] | None:
    return None if expect is None else expect[k]


def padded(reading: BoxReading) -> bool:
    """Was the number read with a leading zero ("09")? Nobody writes a score so: the
    digit reader lost a digit it took for a stroke (a 1 leaning on the 0 of 109), however
    sure it was of the two it kept."""
    return len(reading.text) > 1 and reading.text.startswith("0") and plain(reading)


def unread(reading: BoxReading) -> bool:
    """Is something written in the box that the digit reader could not read (a mark the
    size of a digit dropped as junk)? Such a box is read whole by the network too: a sum
    written with its digits run together is still a sum to check."""
    return reading.value is None and not reading.struck and reading.confidence <= UNREAD


def join(reading: BoxReading, guess: Guess | None,
         expect: frozenset[int] | None = None) -> BoxReading:
    """One reading of a box from both readers.

    A blank, struck or signed box is the digit reader's alone (the number network knows
    only digits); a box it left unread takes the network's number as a guess, as unsure as
    it was. Where both read the same number it stands, as sure as the surer reader
    (no surer: both see the same pen marks, and a faint first digit is lost to both; taken
    as independent, 11 more right sums in 684 were flagged wrong surely on the selection
    pads). Where they differ, each reading is weighed by both: the digit reader's
    confidence in its own number times the network's belief in it, against the network's
    number times the digit reader's doubt. The winner's confidence is at most the loser's
    doubt: a reading the other reader contradicts is sure only if that reader was unsure.

    ``expect`` (what the box may hold by the game's rules) weighs every number outside it
    down by ``OUTSIDE`` before the two are compared, as a referee would read a doubtful
    "23" in the Full-House box as 25. A number outside it that both readers agree on is
    weighed so too: the network's likeliest number inside it may then win, as unsure as
    the network was of it.
    """
    if guess is not None and unread(reading):
        value, p = guess.best(expect)
        # the network alone reads it: its number is the box's guess when likelier than all
        # the others together, and the box stays as unsure as the digit reader left it (a
        # scribble reads as some number too): shown with a '?', never held against anyone,
        # and a sum read so is checked, unsure
        return (BoxReading(value, False, min(p, reading.confidence), str(value),
                           guess.doubts(value)) if p > 0.5 else reading)
    if guess is None or reading.value is None or not plain(reading):
        return reading
    value, p = guess.best(expect)
    if value == reading.value:
        return replace(reading, confidence=max(reading.confidence, p),
                       doubts=guess.doubts(value))
    own = reading.confidence * guess.prob(reading.value) * weight(expect, reading.value)
    other = p * (1.0 - reading.confidence) * weight(expect, value)
    if own >= other:
        return replace(reading, confidence=min(reading.confidence, 1.0 - p),
                       doubts=guess.doubts(reading.value, value))
    return BoxReading(value, False, min(p, 1.0 - reading.confidence), str(value),
                      guess.doubts(value, reading.value))


__all__ = ["Guess", "NumberReader", "join", "number_input", "padded", "unread"]
