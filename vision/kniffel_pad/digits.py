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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.kniffel_pad.cross import is_cross
from vision.kniffel_pad.cuts import MIN_AREA, bbox, cut_at, cuts
from vision.kniffel_pad.layout import PadSheetError
from vision.kniffel_pad.sign import apart, bar_ahead, bar_end_off
from vision.marks import components
from vision.model_file import OnnxNet, read_model, write_model

if TYPE_CHECKING:
    from vision.kniffel_pad.numbers import NumberReader

CLASSES = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-", "/", "junk")
DASH, SLASH, JUNK = 10, 11, 12
SIDE = 28
MODEL_PATH = Path(__file__).resolve().parent.parent / "models" / "pad_digits.npz"
NUMBERS_PATH = MODEL_PATH.with_name("pad_numbers.npz")
INK_ON = 0.28  # ink map level a pixel of a firm pen stroke is sure to reach
INK_FLOOR = 0.12  # below this, paper grain and JPEG noise
# pen pixels reach this share of the darkest ink within NEAR of the box's height (chosen on
# the selection pads: 0.03, 0.06 and 0.1 of the height, shares 0.33, 0.4 and 0.5)
SHARE, NEAR = 0.4, 0.06
SURE = 0.95  # a mark read as one digit this surely is not cut or joined
SPECK = 0.8  # a mark smaller than a digit this surely junk is not joined or cut either
DIGIT_SIZED, DROP_COST = 0.25, float(np.log(0.005))
UNREAD = 0.3  # the confidence of a box where a digit-sized mark was left unread
CROSS_SURE = 0.9  # a box struck with an X: the shape's rule, not a network's belief
MAX_GROUPS, MAX_JOIN, MAX_DIGITS = 8, 3, 3
STRAY_W, STRAY_H = 0.35, 0.75  # a stray stroke: width for its height, height for the tallest
STACK_SLIP = 0.1  # a stroke broken in two: its pieces one above the other, this far apart
APART_COST = float(np.log(0.05))
INSET_MM = 1.1  # keep clear of the printed lines
STRIKE_SPAN = 0.7  # any mark over this share of the box's width strikes it
STROKE_SPAN = 0.4  # a dash or slash over this share does
AGREE = 0.9  # the number network this sure of the marks' own reading: no cuts are tried
# a mark is cut in two, or three, only when at least this wide for its height: on the
# selection pads no cut in three won below 0.77, and those offered below 0.9 cost pieces
CUT_WIDTH = {2: 0.3, 3: 0.9}


@dataclass(frozen=True)
class Piece:
    """One mark in a box: the network's input and where it was (x, y, w, h in box pixels)."""

    image: np.ndarray
    bbox: tuple[int, int, int, int]


@dataclass(frozen=True)
class BoxReading:
    """What a box holds: ``value`` None and ``struck`` False is a blank box. ``doubts``:
    other numbers the pen marks may as well hold (:func:`numbers.join`), where the
    whole-number network read the box; a referee who knows what was entered reads a box
    that may hold it so."""

    value: int | None
    struck: bool
    confidence: float
    text: str = ""
    doubts: tuple[int, ...] = ()

    def view(self) -> dict[str, object]:
        return {"value": self.value, "struck": self.struck,
                "confidence": round(self.confidence, 3)}


def _to_input(ink: np.ndarray) -> np.ndarray:
    """MNIST's own normalisation: the mark fitted into 20x20, its mass at the centre of 28x28."""
    h, w = ink.shape
    scale = 20.0 / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(ink, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.zeros((SIDE, SIDE), np.float32)
    m = cv2.moments(small)
    if m["m00"] > 0:
        cy, cx = m["m01"] / m["m00"], m["m10"] / m["m00"]
    else:
        cy, cx = nh / 2, nw / 2
    oy = min(max(round(SIDE / 2 - cy), 0), SIDE - nh)
    ox = min(max(round(SIDE / 2 - cx), 0), SIDE - nw)
    out[oy:oy + nh, ox:ox + nw] = small
    peak = float(out.max())
    return out / peak if peak > 0 else out


def pen_mask(ink_box: np.ndarray) -> np.ndarray:
    """Pen pixels: a share of the darkest ink *near each pixel*, so a faint pencil box is
    read as a firm pen one is, and so is a faint digit beside a dark one (a pen that skips,
    a thin stroke after a bold one): against the box's darkest ink, most of such a digit
    fell below the share and the number lost it, surely. A floor keeps paper grain out."""
    if ink_box.size == 0:  # a degenerate cut: no pen (OpenCV refuses an empty image)
        return np.zeros(ink_box.shape, bool)
    r = max(1, round(NEAR * ink_box.shape[0]))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    near = cv2.dilate(ink_box, disk)
    mask: np.ndarray = ink_box > np.clip(SHARE * near, INK_FLOOR, INK_ON)
    return mask


def _groups(mask: np.ndarray) -> list[np.ndarray]:
    """Connected marks as whole-box masks, left to right (:func:`digit_groups`)."""
    n, labels, stats, _ = components(mask.astype(np.uint8))
    boxes = sorted((stats[i, 0], i) for i in range(1, n) if stats[i, 4] >= MIN_AREA)
    if len(boxes) > MAX_GROUPS:  # dirt: keep the biggest marks
        keep = set(sorted((int(stats[i, 4]), i) for _, i in boxes)[-MAX_GROUPS:])
        boxes = [(x, i) for x, i in boxes if (int(stats[i, 4]), i) in keep]
    groups = digit_groups(stats, [i for _, i in boxes])
    member = np.zeros((len(groups), n), bool)  # a lookup per group: isin sorts, this indexes
    for g, ids in enumerate(groups):
        member[g, ids] = True
    return [m[labels] for m in member]


def digit_groups(stats: np.ndarray, ids: Sequence[int]) -> list[list[int]]:
    """The marks ``ids`` (rows of ``stats`` as OpenCV gives them, left to right) joined into
    what may each be one digit: a mark over or under another (the bar of a 5, a 3 whose
    faint middle broke it in two) joins it when together they are no wider than a digit."""
    groups: list[tuple[list[int], list[int]]] = []
    for i in ids:
        x, y, w, h = (int(v) for v in stats[i, :4])
        if groups:
            members, (gx0, gy0, gx1, gy1) = groups[-1]
            overlap = min(gx1, x + w) - max(gx0, x)
            union = [min(gx0, x), min(gy0, y), max(gx1, x + w), max(gy1, y + h)]
            uh = union[3] - union[1]
            stacked = (y >= gy1 or y + h <= gy0) and overlap >= -STACK_SLIP * uh
            if (overlap >= 0.6 * min(w, gx1 - gx0) or stacked) and union[2] - union[0] <= uh:
                groups[-1] = (members + [i], union)
                continue
        groups.append(([i], [x, y, x + w, y + h]))
    return [members for members, _ in groups]


@dataclass(frozen=True)
class Segmentation:
    """Every way a box's marks may be digits: each option covers the marks ``start:end``
    (left to right) with some of ``pieces``; reading picks the likeliest chain of options."""

    pieces: tuple[Piece, ...]
    options: tuple[tuple[int, int, tuple[int, ...]], ...]
    marks: int
    height: int  # of the box, px
    bar: tuple[int, int] | None = None  # the first mark cut into a minus and its digit
    cross: bool = False  # a mark is an X (:func:`cross.is_cross`): the box is struck
    # the marks as whole-box masks, left to right: a second look at the box starts from them
    masks: tuple[np.ndarray, ...] = field(default=(), repr=False, compare=False)


@dataclass(frozen=True)
class FirstLook:
    """What was learnt of some boxes before they are read (the inkiest cells a photo's way
    up is judged by): each box's marks as they are (``segment(box, whole_only=True)``) by
    the box's bytes, and the network's answer for each of those marks by the mark's bytes.
    Reading the photo the way it was looked at asks neither again."""

    cuts: Mapping[bytes, Segmentation]
    answers: Mapping[bytes, np.ndarray]


def segment(ink_box: np.ndarray, whole_only: bool = False,
            around: frozenset[int] | None = None,
            marks: Sequence[np.ndarray] | None = None) -> Segmentation:
    """The candidate digits of one box (its ink map, printed lines already cut away).

    Marks are joined up to three at a time (a digit broken by a thin stroke) and a joined
    mark wider than a digit is also cut in two or three (digits touching); the network
    scores every candidate and :func:`decide` keeps the likeliest reading, so cutting and
    joining are judged by what the pieces look like, not by a width rule alone.
    ``whole_only`` offers each mark as it is (the quick first look); ``around`` joins and
    cuts only runs of marks that hold one of these (the marks the first look was unsure
    of): two digits read surely one by one are not offered joined. A minus touching the
    digit after it is cut off (:func:`sign.bar_ahead`) and offered as one more way.
    ``marks``: the box's marks as an earlier segmentation of it found them (its ``masks``).
    """
    groups = list(marks) if marks is not None else _groups(pen_mask(ink_box))
    found: list[Piece] = []
    options: list[tuple[int, int, tuple[int, ...]]] = []
    for i in range(len(groups)):
        union = np.zeros_like(groups[i])
        for j in range(i, min(len(groups), i + (1 if whole_only else MAX_JOIN))):
            union = union | groups[j]
            _, _, w, h = bbox(union)
            if j > i and w > 2.4 * h:
                break
            settled = around is not None and around.isdisjoint(range(i, j + 1))
            if settled and j > i:
                continue
            ways: list[list[int]] = [[]]
            for parts in range(2, 1 if whole_only or settled else MAX_DIGITS + 1):
                if w >= CUT_WIDTH[parts] * h:
                    ways += cuts(union, parts)
            for way in ways:
                cut = cut_at(union, way)
                if cut is None:
                    continue
                found += [_piece(ink_box, part) for part in cut]
                options.append((i, j + 1, tuple(range(len(found) - len(cut), len(found)))))
    at = bar_ahead(groups[0]) if groups else None  # a minus touching its digit, cut off
    bar = None
    if at is not None and (halves := cut_at(groups[0], [at])) is not None:
        found += [_piece(ink_box, halves[0]),
                  _piece(ink_box, bar_end_off(groups[0], halves[1], at))]
        bar = (len(found) - 2, len(found) - 1)
        options.append((0, 1, bar))
    return Segmentation(tuple(found), tuple(options), len(groups), ink_box.shape[0], bar,
                        any(is_cross(g) for g in groups), tuple(groups))


def _piece(ink_box: np.ndarray, part: np.ndarray) -> Piece:
    """The network's input for the pen pixels ``part`` of the box, and where they are."""
    x, y, w, h = bbox(part)
    return Piece(_to_input(ink_box[y:y + h, x:x + w] * part[y:y + h, x:x + w]), (x, y, w, h))


def pieces(ink_box: np.ndarray) -> list[Piece]:
    """Every candidate digit of a box (what the network is shown)."""
    return list(segment(ink_box).pieces)


class DigitReader:
    """The box reader; ``load()`` gives the shipped models, run by cv2.dnn
    (``vision.model_file.OnnxNet``): the digit network, and the whole-number network
    (:mod:`vision.kniffel_pad.numbers`) that reads once more every number the digit network
    was not sure of."""

    def __init__(self, onnx: bytes, temperature: float = 1.0,
                 numbers: NumberReader | None = None) -> None:
        self.net = OnnxNet(onnx, "digit network", PadSheetError)
        self.onnx = self.net.onnx
        self.temperature = temperature
        self.numbers = numbers

    @classmethod
    def load(cls, path: str | Path | None = None,
             numbers: str | Path | None = NUMBERS_PATH) -> DigitReader:
        """``numbers`` None: the digit network alone."""
        from vision.kniffel_pad.numbers import NumberReader  # it builds on this module

        p = Path(path) if path is not None else MODEL_PATH
        meta, onnx, _ = read_model(p, "digit model", PadSheetError)
        if tuple(meta.get("classes", ())) != CLASSES or int(meta.get("side", -1)) != SIDE:
            raise PadSheetError(f"digit model {p} was made for other classes or input size")
        second = NumberReader.load(numbers) if numbers is not None else None
        return cls(onnx, float(meta["temperature"]), second)

    def save(self, path: str | Path) -> None:
        meta = {"classes": list(CLASSES), "side": SIDE, "temperature": self.temperature}
        write_model(path, self.onnx, meta)

    def logits(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        if len(images) == 0:
            return np.zeros((0, len(CLASSES)), np.float32)
        return self.net.forward(np.asarray(images, np.float32).reshape(-1, 1, SIDE, SIDE))[0]

    def probs(self, images: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        z = self.logits(images) / self.temperature
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        p: np.ndarray = e / e.sum(axis=1, keepdims=True)
        return p

    def read_boxes(self, ink_boxes: Sequence[np.ndarray], signed: bool = False,
                   sums: bool = False, margin: int = 0,
                   expect: Sequence[frozenset[int] | None] | None = None,
                   seen: FirstLook | None = None) -> list[BoxReading]:
        """Every box: first each mark as it is; where the network is not sure a mark is one
        digit or stroke, the joins and cuts that involve that mark are scored too.
        ``signed``: a dash before the digits is a minus (other score sheets have negative
        points; the printed Wort-Kniffel pad has none).

        With the number network, a box with an unsure mark is first read whole by it: where
        it reads the same number as the marks read as they are, that reading stands (joined
        with the network's), and only the boxes where they differ are cut and joined, which
        is most of the digit network's work on a pad. With ``sums`` (a pad whose sums are
        checked), a box with a mark left unread gets the number network's guess too (see
        :meth:`NumberReader.check`). ``margin``: px of each box beyond its lines either side
        (a cut kept wide); a stroke's share of the box is measured between the lines.
        ``expect``: what each box may hold by the game's rules (:func:`numbers.join`);
        ``seen``: what is known of some boxes already (:class:`FirstLook`); ``read``
        gathers every answer, as they come."""
        quick = [(seen.cuts.get(b.tobytes()) if seen is not None else None)
                 or segment(b, whole_only=True) for b in ink_boxes]
        widths = [b.shape[1] - 2 * margin for b in ink_boxes]
        pieces = [p for sg in quick for p in sg.pieces]
        read = dict(seen.answers) if seen is not None else {}
        new = {k: p.image for p in pieces if (k := p.image.tobytes()) not in read}
        read.update(zip(new, self.probs(list(new.values()))))
        probs = np.array([read[p.image.tobytes()] for p in pieces]).reshape(-1, len(CLASSES))
        out: list[BoxReading | None] = []
        redo: list[tuple[int, frozenset[int]]] = []
        firsts: dict[int, BoxReading] = {}
        ends = np.cumsum([len(sg.pieces) for sg in quick])[:-1]
        for n, (sg, width, p) in enumerate(zip(quick, widths, np.split(probs, ends))):
            whole = _whole(sg)
            sure = {i for i, piece in whole.items() if _settled(sg, p, piece)}
            unsure = frozenset(range(sg.marks)) - sure  # a mark too thin alone has no piece
            first = decide(sg, p, width, signed)
            out.append(None if unsure else first)
            if unsure:
                redo.append((n, unsure))
                firsts[n] = first
        known = {} if self.numbers is None else self.numbers.guess_boxes(
            {n: ink_boxes[n] for n, first in firsts.items() if plain(first)})
        for n, guess in known.items():
            value, p_net = guess.best()
            if value == firsts[n].value and p_net >= AGREE:
                out[n] = firsts[n]
        self._cut_and_join(ink_boxes, [r for r in redo if out[r[0]] is None], out, signed,
                           widths, read, quick)
        readings = [r for r in out if r is not None]
        return (readings if self.numbers is None
                else self.numbers.check(ink_boxes, readings, known, sums, expect))

    def _cut_and_join(self, ink_boxes: Sequence[np.ndarray],
                      redo: list[tuple[int, frozenset[int]]], out: list[BoxReading | None],
                      signed: bool, widths: list[int], read: dict[bytes, np.ndarray],
                      first: Sequence[Segmentation]) -> None:
        """The second look at boxes with unsure marks: every join and cut around them, from
        the marks the ``first`` look found. ``read``: the answer for each crop so far, by its
        bytes (marks as they are, and joins cut where their marks part, which give them
        again: a quarter of a full pad's crops)."""
        full = [segment(ink_boxes[n], around=unsure, marks=first[n].masks)
                for n, unsure in redo]
        keys = [[p.image.tobytes() for p in sg.pieces] for sg in full]
        new = {k: p.image for sg, ks in zip(full, keys) for k, p in zip(ks, sg.pieces)
               if k not in read}
        read.update(zip(new, self.probs(list(new.values()))))
        for (n, _), sg, ks in zip(redo, full, keys):
            p = np.array([read[k] for k in ks])
            out[n] = decide(sg, p.reshape(-1, len(CLASSES)), widths[n], signed)


def plain(reading: BoxReading) -> bool:
    """A number of digits alone: what the number network can read (no strike, no sign)."""
    return reading.value is not None and not reading.struck and reading.text.isdigit()


def _whole(seg: Segmentation) -> dict[int, int]:
    """mark -> piece, for the pieces that are one mark as it is (neither joined nor cut)."""
    return {start: idx[0] for start, stop, idx in seg.options
            if stop == start + 1 and len(idx) == 1}


def _settled(seg: Segmentation, probs: np.ndarray, piece: int) -> bool:
    """Is a mark read alone for good (surely one digit or stroke, or surely a speck)? A dash
    or slash beside other marks is not: it may be the bar or the flat body of a 5 written
    apart, and a 35 so written was read struck, its 5's body a sure dash."""
    if probs[piece, :JUNK].max() >= SURE:
        return seg.marks == 1 or int(probs[piece].argmax()) not in (DASH, SLASH)
    return bool(probs[piece, JUNK] >= SPECK) and not _digit_sized(seg, piece)


def _digit_sized(seg: Segmentation, piece: int) -> bool:
    """As tall as a digit: dropping it as junk means leaving something written unread."""
    return seg.pieces[piece].bbox[3] >= DIGIT_SIZED * seg.height


def _unread(seg: Segmentation, piece: int) -> bool:
    """Dropped as junk, this mark leaves something written unread: it is as tall as a digit
    and no stray stroke, a thin one well short of the box's tallest mark (a line drawn twice
    beside a 1, read as one more 1: 41 as 411, 10 as 110), which is dropped freely."""
    _, _, w, h = seg.pieces[piece].bbox
    tallest = max(seg.pieces[i].bbox[3] for i in _whole(seg).values())
    return _digit_sized(seg, piece) and not (w <= STRAY_W * h and h <= STRAY_H * tallest)


def _best_chain(seg: Segmentation, logp: np.ndarray) -> list[tuple[int, int, float]]:
    """The likeliest reading: (piece, class, probability) left to right, junk included
    (the caller drops it).

    A chain of options covering every mark scores the sum of its pieces' log probabilities.
    Only a whole single mark may be junk (dropped: a speck, a leftover line); a joined or
    cut candidate must be a digit or stroke, so the network's "junk" for two digits in one
    piece, or for half a digit, counts against that way of cutting.
    """
    best: list[tuple[float, list[tuple[int, int, float]]]] = [(0.0, [])]
    best += [(-np.inf, []) for _ in range(seg.marks)]
    apart = _apart(seg)
    for end in range(1, seg.marks + 1):
        for start, stop, idx in seg.options:
            if stop != end or best[start][0] == -np.inf:
                continue
            score, chain = best[start][0], list(best[start][1])
            whole = stop - start == 1 and len(idx) == 1
            for i in idx:  # a piece that takes in two marks standing apart
                x, _, w, _ = seg.pieces[i].bbox
                score += APART_COST * sum(x <= a and b <= x + w for a, b in apart)
            for i in idx:
                c = int(np.argmax(logp[i] if whole else logp[i, :JUNK]))
                score += float(logp[i, c])
                if c == JUNK and _unread(seg, i):
                    score += DROP_COST  # junk the size of a digit wants cutting, not dropping
                chain.append((i, c, float(np.exp(logp[i, c]))))
            if score > best[end][0]:
                best[end] = (score, chain)
    return best[seg.marks][1]


def _apart(seg: Segmentation) -> list[tuple[float, float]]:
    """The centre columns of each two neighbouring digit-sized marks that stand side by side
    (no column in common): two digits, or a digit and a leftover, rarely one digit's pieces."""
    whole = _whole(seg)
    out = []
    for k in range(seg.marks - 1):
        a, b = whole.get(k), whole.get(k + 1)
        if a is None or b is None or not (_digit_sized(seg, a) and _digit_sized(seg, b)):
            continue
        (ax, _, aw, _), (bx, _, bw, _) = seg.pieces[a].bbox, seg.pieces[b].bbox
        if bx >= ax + aw:
            out.append((ax + aw / 2, bx + bw / 2))
    return out


def _minus(seg: Segmentation) -> tuple[int, tuple[int, int, tuple[int, ...]]] | None:
    """The piece of a minus sign and the option that reads it: the first mark, short and
    flat, left of the second and level with its middle (:func:`sign.apart`), or the first
    mark's own left end, a bar touching the digit after it (:func:`sign.bar_ahead`). The
    network cannot tell one from a speck of line (it sees every mark scaled to one size),
    and joined to the digit beside it, it passes for part of that digit; so its place and
    shape decide."""
    whole = _whole(seg)
    if 0 in whole and 1 in whole and apart(seg.pieces[whole[0]].bbox,
                                           seg.pieces[whole[1]].bbox):
        return whole[0], (0, 1, (whole[0],))
    return (seg.bar[0], (0, 1, seg.bar)) if seg.bar is not None else None


def decide(seg: Segmentation, probs: np.ndarray, box_w: int, signed: bool = False
           ) -> BoxReading:
    """The box's reading from its candidates' class probabilities.

    A dash or slash alone, or one over much of the box's width, or any mark read as one
    running over most of it, or an X, strikes the box whatever else is written there.
    Beside digits, a small slash is a slanted 1 and a small dash a stray bar. A number's
    confidence is its least sure digit's. With ``signed``, a dash right before the digits
    makes the number negative. A box the network reads struck is read so whatever the X's
    rule says (a broad bar fills both diagonals of its outline too).
    """
    if seg.marks == 0:
        return BoxReading(None, False, 1.0)
    reading = _decide(seg, probs, box_w, signed)
    return reading if reading.struck or not seg.cross else BoxReading(0, True, CROSS_SURE, "x")


def _decide(seg: Segmentation, probs: np.ndarray, box_w: int, signed: bool) -> BoxReading:
    """The reading the network's likeliest chain gives, the sign by its shape."""
    minus = _minus(seg) if signed else None
    if minus is not None:  # the sign is read as a dash, and as nothing else
        piece, option = minus
        seg = replace(seg, options=tuple(o for o in seg.options if o[0] > 0 or o == option))
        probs = probs.copy()
        probs[piece] = np.eye(len(CLASSES))[DASH]
    elif seg.bar is not None:  # no minus on this pad: the mark is read whole
        seg = replace(seg, options=tuple(o for o in seg.options if o != (0, 1, seg.bar)))
    logp = np.log(np.clip(probs, 1e-9, 1.0))
    every = _best_chain(seg, logp)
    chain = [link for link in every if link[1] != JUNK]
    # a mark the size of a digit dropped as junk: something is written that was not read
    doubt = UNREAD if any(c == JUNK and _unread(seg, i) for i, c, _ in every) else 1.0
    if not chain:
        junk = max((float(probs[i, JUNK]) for i in range(len(seg.pieces))), default=1.0)
        return BoxReading(None, False, min(junk, doubt))
    marks: list[tuple[int, float]] = []  # (class, probability), strokes included
    for i, c, p in chain:
        w = seg.pieces[i].bbox[2]
        if (c in (DASH, SLASH) and w >= STROKE_SPAN * box_w) or (
                c == 1 and w >= STRIKE_SPAN * box_w):
            return BoxReading(0, True, p, "/")
        marks.append((c, p))
    if all(c in (DASH, SLASH) for c, _ in marks):
        return BoxReading(0, True, min(p for _, p in marks), "-")
    digits = [("1" if c == SLASH else CLASSES[c], p) for c, p in marks if c != DASH]
    text = "".join(d for d, _ in digits)
    if signed and marks[0][0] == DASH:
        text = "-" + text
    return BoxReading(int(text), False, min(doubt, *(c for _, c in digits)), text)


__all__ = ["BoxReading", "CLASSES", "DigitReader", "FirstLook", "Piece", "Segmentation",
           "decide", "digit_groups", "pen_mask", "pieces", "plain", "segment"]
