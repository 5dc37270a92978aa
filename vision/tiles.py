"""Read each cell of a located grid: face down, a letter (which, how turned) or the victim.

The back is the same on all 36 tiles, so it is learned rather than assumed: from a reference
frame where every tile lies face down (the game's first frame), from a taught profile, or,
without either, from the cells themselves: the largest group of alike cells when it is larger
than any letter's count in the set (8+), else the largest group (3+) of cells without letter
evidence. The victim is a picture: a face-up tile that is neither
a letter nor the back. A cell that fits none of these well is reported ``UNSURE`` with its best
guess's confidence, never silently guessed.

Cells are compared by a small appearance descriptor that survives uneven light and glare:
chroma (light changes mostly lightness), the normalised pattern at low resolution in all four
turns (hand-laid tiles turn), and texture energy; glare pixels (near white) are left out.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from companion.games.moerder.board import PER_LETTER
from vision import VisionError
from vision.letters import LetterReader, LetterReading

_log = logging.getLogger(__name__)

ALPHABET = "MÖRDE"
PATTERN = 12  # side of the pattern thumbnail
BACK_SURE = 3.0  # back distance (in units of the reference spread) below which a cell is the back
BACK_NOT = 4.5  # above which it is surely not the back
GLARE_LEVEL = 250  # gray level counted as glare
LETTER_OVER_BACK = 0.9
VICTIM_MAX_LETTER = 0.3  # a picture: the letter reader's best letter stays below this
SURE_LETTER = 0.85  # letters this sure teach the others in the same frame
LIKE_LETTER = 0.82  # likeness (correlation) to a sure letter that makes a cell that letter
VICTIM_INK = 0.03  # a glared cell may still be the victim if this much of it is drawn
UNLIKE_LETTER = 0.78  # below this likeness to every sure letter a face-up cell may be the victim
GLYPH = 20  # side of the likeness thumbnail
SHIFT = 5  # px (of 40) two crops of the same face may be off each other
SAME_FACE = 0.85  # shift-tolerant correlation of cells counted as one exact look: more than
# seven such make a back of a group the letter reader reads (different letters of one frame
# reach 0.81 at most on train renders, so eight at this level are no mix of letters)
SHIFT_SAME = 0.4  # shift-tolerant correlation of two crops of one patterned face (same back
# seen >= 0.42 between backs off their places, <= 0.31 between a face-up tile and the back)
FLAT_TEXTURE = 2.0  # texture below which a face is plain (letters and pictures score 10+)
TEACH_SURE = 0.9  # letters this sure teach the frame's doubtful cells (through ``taught``)
TEACH_PER_LETTER = 2  # examples taught of each letter (four feature passes each)
MAX_SECOND = 3  # cells per read that may ask the second opinion (Tesseract is slow)
AGREE_MIN = 0.1  # the model's own score for its best letter to count as agreeing with Tesseract
SECOND_SURE = 0.85  # a second opinion this sure, against the model's guess, makes a cell unsure
GLARE_MAX_LETTER = 0.15  # a glared back shows the letter reader next to nothing
GLARED_BACK = 0.65  # confidence of a back recognised by its texture alone
FINE = 0.5  # a face whose blurred thumbnail keeps less contrast than this has a fine pattern
# the reference frame, cell by cell (measured on train-style renders, same grid for both frames:
# face-down cells correlate >= 0.66 with their reference (5th percentile 0.93), face-up
# cells <= 0.31; over a plain back a face-up cell has >= 6x the reference's fine contrast,
# a face-down one <= 1.4x; colour moves by <= 2.2 (Lab) on the same back)
REF_SHIFT = 4  # px (of a 64 px crop) a cell may sit off its place in the reference
REF_SAME = 0.6  # correlation with the reference above which a patterned cell is unchanged
REF_CHANGED = 0.45  # below which it surely changed
REF_FLAT = 6.0  # fine contrast (gray levels) under which a reference cell is a plain face
REF_COLOUR_SAME = 8.0  # Lab distance (lightness counted half) of an unchanged cell
REF_COLOUR_CHANGED = 15.0  # beyond which the cell surely changed
REF_BURNT = 0.3  # share of a reference cell burnt white above which "unchanged" means little


class TileError(VisionError):
    """A back or victim model that cannot be built or loaded."""


class CellState(enum.Enum):
    HIDDEN = "hidden"
    LETTER = "letter"
    VICTIM = "victim"
    UNSURE = "unsure"


@dataclass(frozen=True)
class CellReading:
    """One cell: ``letter`` and ``rotation`` (degrees clockwise) only for letters."""

    state: CellState
    letter: str | None = None
    rotation: int = 0
    confidence: float = 0.0

    @property
    def char(self) -> str:
        """The cell in the board notation, '?' when unsure."""
        if self.state is CellState.HIDDEN:
            return "."
        if self.state is CellState.VICTIM:
            return "X"
        if self.state is CellState.LETTER and self.letter:
            return self.letter
        return "?"

    def to_json(self) -> dict[str, object]:
        return {"state": self.state.value, "letter": self.letter, "rotation": self.rotation,
                "confidence": round(self.confidence, 3)}


# --------------------------------------------------------------------------------------------
# Appearance descriptor


@dataclass(frozen=True)
class Look:
    """What a tile face looks like, in a form that light and turning change little."""

    chroma: np.ndarray  # (2,) median a, b (Lab) of the non-glare pixels
    light: float  # median L
    texture: float  # mean gradient magnitude / contrast
    spread: float  # gray standard deviation
    pattern: np.ndarray  # (4, P*P) zero-mean unit-norm thumbnails in the four turns
    glare: float  # fraction of glare pixels
    coarse: float  # how much of the contrast survives blurring: low for fine patterns
    detail: np.ndarray  # (4, P*P) like ``pattern`` without its smooth part (glare, shade)
    ink: float = 0.0  # share of pixels far darker than the face: drawn lines, letters
    lines: float = 0.0  # share of pixels far darker than their own surroundings (glare is smooth)
    fine: np.ndarray | None = None  # (40, 40) gray minus its blur, for shift-tolerant matching


def look(crop: np.ndarray) -> Look:
    """The descriptor of one tile crop (BGR), using its inner 76% to stay off the gaps."""
    h, w = crop.shape[:2]
    m = int(round(0.12 * min(h, w)))
    inner = crop[m : h - m, m : w - m]
    small = cv2.resize(inner, (32, 32), interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    ok = gray.reshape(-1) < GLARE_LEVEL
    glare = 1.0 - float(ok.mean())
    use = lab[ok] if ok.sum() >= 30 else lab
    chroma = np.median(use[:, 1:], axis=0)
    light = float(np.median(use[:, 0]))
    high = gray - cv2.GaussianBlur(gray, (0, 0), 3.0)  # smooth light and glare left out
    gx = cv2.Sobel(high, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(high, cv2.CV_32F, 0, 1)
    texture = float(np.mean(np.hypot(gx, gy))) / 8.0
    spread = float(gray[gray < GLARE_LEVEL].std()) if ok.sum() >= 30 else float(gray.std())
    thumb = cv2.resize(cv2.GaussianBlur(gray, (0, 0), 1.2), (PATTERN, PATTERN),
                       interpolation=cv2.INTER_AREA)
    coarse = float(thumb.std()) / max(float(gray.std()), 1.0)
    band = thumb - cv2.GaussianBlur(thumb, (0, 0), 2.0)
    ink = float(np.mean(gray < np.median(gray) - 60))
    lines = float(np.mean(gray < cv2.GaussianBlur(gray, (0, 0), 4.0) - 40))
    g40 = cv2.cvtColor(cv2.resize(inner, (40, 40), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2GRAY).astype(np.float32)
    fine = g40 - cv2.GaussianBlur(g40, (0, 0), 2.5)
    return Look(chroma, light, texture, spread, _four(thumb), glare, coarse, _four(band), ink,
                lines, fine)


_SETTLED = Look(np.zeros(2), 0.0, 0.0, 0.0, np.zeros((4, PATTERN * PATTERN), np.float32), 0.0,
                1.0, np.zeros((4, PATTERN * PATTERN), np.float32))  # stands in, never compared


def _shift_sim(a: Look, b: Look) -> float:
    """Best correlation of two faces' fine structure over small shifts and the four turns:
    tolerates crops a few pixels off (a tile off its lattice place), which the thumbnail
    comparison does not."""
    if a.fine is None or b.fine is None:
        return 0.0
    m = SHIFT
    best = -1.0
    for k in range(4):
        t = np.ascontiguousarray(np.rot90(b.fine, k)[m:-m, m:-m])
        best = max(best, float(cv2.matchTemplate(a.fine, t, cv2.TM_CCOEFF_NORMED).max()))
    return best


def _four(thumb: np.ndarray) -> np.ndarray:
    """Zero-mean unit vectors of a thumbnail in its four clockwise turns."""
    t = np.stack([np.rot90(thumb, -k).reshape(-1) for k in range(4)]).astype(np.float32)
    t -= t.mean(axis=1, keepdims=True)  # the same for every turn
    n = np.sqrt(np.einsum("ij,ij->i", t, t))[:, None]
    out: np.ndarray = np.where(n > 1e-3, t / np.maximum(n, 1e-3), t)
    return out


def _pattern_sim(a: Look, b: Look) -> float:
    """Best normalised correlation over the four turns (1 = same pattern)."""
    return float(np.max(a.pattern @ b.pattern[0]))


# --------------------------------------------------------------------------------------------
# A learned face: the back (or the victim, when taught)


@dataclass(frozen=True)
class FaceModel:
    """A face every tile of a kind shares, learned from examples of it."""

    chroma: np.ndarray  # (2,)
    light: float
    texture: float
    spread: float
    pattern: np.ndarray  # (4, P*P)
    flat: bool  # a plain face: its pattern is noise and says nothing
    scale: np.ndarray  # (4,) typical deviation of chroma, light, texture, pattern among examples
    detail: np.ndarray | None = None  # (4, P*P) the pattern without its smooth part
    fine: bool = False  # a pattern finer than the thumbnails: only its texture is compared

    @classmethod
    def learn(cls, crops: Sequence[np.ndarray]) -> FaceModel:
        if len(crops) == 0:
            raise TileError("a face is learned from at least one crop")
        return _model_from_looks([look(c) for c in crops])

    def _raw(self, lk: Look) -> np.ndarray:
        sim = float(np.max(lk.pattern @ self.pattern[0]))
        return np.array([
            float(np.linalg.norm(lk.chroma - self.chroma)),
            abs(lk.light - self.light),
            abs(lk.texture - self.texture),
            0.0 if self.flat else max(0.0, 1.0 - sim),
        ])

    def distance(self, lk: Look) -> float:
        """How unlike this face a look is: about 1 for its own examples, large for others.

        Lightness counts little (light is uneven); glare pixels were already left out.
        """
        d = self._raw(lk) / self.scale
        weights = np.array([1.0, 0.35, 1.0, 1.0])
        return float(np.max(d * weights))

    def structure_distance(self, lk: Look) -> float:
        """Like :meth:`distance` but blind to colour and smooth light (glare, shade): only the
        texture and the fine pattern count. A back under glare stays near the back here."""
        tex = abs(lk.texture - self.texture) / self.scale[2]
        if self.flat or self.fine or self.detail is None:
            return float(tex)
        sim = float(np.max(lk.detail @ self.detail[0]))
        return float(max(tex, max(0.0, 1.0 - sim) / max(self.scale[3], 0.15)))

    def to_arrays(self, prefix: str) -> dict[str, np.ndarray]:
        return {
            f"{prefix}_chroma": self.chroma.astype(np.float32),
            f"{prefix}_scalars": np.array([self.light, self.texture, self.spread, float(self.flat),
                                           float(self.fine)], np.float32),
            f"{prefix}_pattern": self.pattern.astype(np.float32),
            f"{prefix}_scale": self.scale.astype(np.float32),
            f"{prefix}_detail": (self.detail if self.detail is not None
                                 else self.pattern).astype(np.float32),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], prefix: str) -> FaceModel:
        try:
            s = arrays[f"{prefix}_scalars"]
            return cls(np.asarray(arrays[f"{prefix}_chroma"], np.float64), float(s[0]),
                       float(s[1]), float(s[2]), np.asarray(arrays[f"{prefix}_pattern"]),
                       bool(s[3] > 0.5), np.asarray(arrays[f"{prefix}_scale"], np.float64),
                       np.asarray(arrays[f"{prefix}_detail"]), bool(s[4] > 0.5))
        except KeyError as exc:
            raise TileError(f"profile has no {prefix} model ({exc})") from exc


def infer_back(looks: Sequence[Look], candidates: Sequence[int], least: int = 3,
               sim_min: float = 0.6,
               accept: Callable[[list[int]], bool] | None = None) -> FaceModel | None:
    """The back from the cells alone: the largest group of alike cells among ``candidates``
    (at least ``least`` of them) that ``accept`` agrees is not a group of letters."""
    found = _back_group(looks, candidates, least, sim_min, accept)
    return found[0] if found is not None else None


def _back_group(looks: Sequence[Look], candidates: Sequence[int], least: int = 3,
                sim_min: float = 0.6, accept: Callable[[list[int]], bool] | None = None,
                ) -> tuple[FaceModel, list[int], bool] | None:
    """:func:`infer_back` with the cells it learned from, and whether the letter reader sees
    a letter in them (a back pattern like a letter: known to be the back only because more
    cells look exactly alike than the set holds of any one letter)."""
    if len(candidates) < least:
        return None
    idx = list(candidates)
    n = len(idx)
    alike = np.zeros((n, n), bool)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = looks[idx[i]], looks[idx[j]]
            close = _alike(a, b, sim_min)
            alike[i, j] = alike[j, i] = close
    counts = alike.sum(axis=1)
    tried: set[int] = set()
    for best in np.argsort(-counts, kind="stable"):
        if counts[best] + 1 < least:
            break
        group = [idx[int(best)]] + [idx[j] for j in range(n) if alike[best, j]]
        key = min(group)
        if key in tried:
            continue
        tried.add(key)
        if accept is None or accept(group):
            _log.debug("back inferred from %d alike cells", len(group))
            return _model_from_looks([looks[i] for i in group]), group, False
        if len(group) > PER_LETTER:
            seed = idx[int(best)]
            core = [j for j in group
                    if j == seed or _shift_sim(looks[seed], looks[j]) >= SAME_FACE]
            if len(core) > PER_LETTER:
                # the set holds seven of a letter: eight or more cells of one exact look are
                # the back, whatever the letter reader sees in its pattern
                _log.debug("letter-like back inferred from %d identical cells", len(core))
                return _model_from_looks([looks[i] for i in core]), core, True
        if len(tried) >= 3:
            break
    return None


def _alike(a: Look, b: Look, sim_min: float) -> bool:
    """Could two cells show the same face? Uneven light scales lightness, contrast and texture
    together, so those are compared as ratios, and contrast and texture relative to the light;
    two faces without structure (plain) need only agree in colour."""
    if np.linalg.norm(a.chroma - b.chroma) >= 8 or _ratio(a.light, b.light) >= 1.6:
        return False
    if max(a.texture, b.texture) < FLAT_TEXTURE:
        return True
    la, lb = max(a.light, 20.0), max(b.light, 20.0)
    return (_ratio(a.texture / la, b.texture / lb) < 1.35
            and _ratio(a.spread / la, b.spread / lb) < 1.35
            and (max(a.spread, b.spread) < 6 or _pattern_sim(a, b) > sim_min
                 or max(a.coarse, b.coarse) < FINE or _shift_sim(a, b) >= SHIFT_SAME))


def _ratio(a: float, b: float) -> float:
    return max(a, b) / max(min(a, b), 1e-3)


def _aligned(looks: Sequence[Look], field: str) -> np.ndarray:
    """The mean of the examples' ``field`` (pattern or detail), each turned to match the first."""
    ref = getattr(looks[0], field)
    acc = np.zeros_like(ref)
    for lk in looks:
        k = int(np.argmax(lk.pattern @ looks[0].pattern[0]))
        acc += np.roll(getattr(lk, field), -k, axis=0)
    out: np.ndarray = (acc / np.maximum(np.linalg.norm(acc, axis=1, keepdims=True), 1e-6))
    return out.astype(np.float32)


def _model_from_looks(looks: Sequence[Look]) -> FaceModel:
    chroma = np.median([lk.chroma for lk in looks], axis=0)
    spread = float(np.median([lk.spread for lk in looks]))
    model = FaceModel(chroma, float(np.median([lk.light for lk in looks])),
                      float(np.median([lk.texture for lk in looks])), spread,
                      _aligned(looks, "pattern"), spread < 6.0, np.ones(4),
                      _aligned(looks, "detail"))
    if len(looks) >= 4:
        raw = np.array([model._raw(lk) for lk in looks])
        scale = np.maximum(np.percentile(raw, 90, axis=0), [3.0, 12.0, 0.6, 0.08])
    else:
        scale = np.array([4.0, 18.0, 0.8, 0.12])
    fine = float(np.median([lk.coarse for lk in looks])) < FINE
    return FaceModel(model.chroma, model.light, model.texture, model.spread, model.pattern,
                     model.flat, scale, model.detail, fine)


# --------------------------------------------------------------------------------------------
# The reference frame, cell by cell


@dataclass(frozen=True)
class CellRef:
    """One cell of the reference frame (face down): its fine structure and colour.

    Tiles are rarely moved during a game and the camera stays put, so a face-down tile looks
    almost exactly like its own reference, glare, shade and all, while a face-up one does not;
    this is sharper than any model of the back in general.
    """

    fine: np.ndarray  # (64, 64) gray minus its blur: the pattern without smooth light
    contrast: float  # std of ``fine`` in the middle of the cell
    lab: np.ndarray  # (3,) median Lab of the middle
    burnt: float = 0.0  # share of the middle burnt white by glare


def _fine(crop: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA),
                     cv2.COLOR_BGR2GRAY).astype(np.float32)
    out: np.ndarray = g - cv2.GaussianBlur(g, (0, 0), 4.0)
    return out


def _mid_lab(crop: np.ndarray) -> np.ndarray:
    c = cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA)[10:54, 10:54]
    lab = cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    out: np.ndarray = np.median(lab, axis=0)
    return out


def cell_ref(crop: np.ndarray) -> CellRef:
    f = _fine(crop)
    m = REF_SHIFT * 2
    mid = cv2.cvtColor(cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA)[m:-m, m:-m],
                       cv2.COLOR_BGR2GRAY)
    return CellRef(f, float(f[m:-m, m:-m].std()), _mid_lab(crop),
                   float(np.mean(mid >= GLARE_LEVEL)))


def against_reference(ref: CellRef, crop: np.ndarray) -> bool | None:
    """True: the cell looks as in the reference (still face down); False: surely changed;
    None: cannot tell (the caller falls back to the model of the back)."""
    d = ref.lab - _mid_lab(crop)
    colour = float(np.hypot(np.hypot(d[1], d[2]), d[0] / 2))
    if colour > REF_COLOUR_CHANGED:  # most face-up tiles: no need to compare the structure
        return False
    f = _fine(crop)
    m = REF_SHIFT * 2
    mid = f[m:-m, m:-m]
    contrast = float(mid.std())
    if ref.contrast < REF_FLAT:  # a plain back: a face-up tile brings letter or picture lines
        same = contrast <= 2.0 * ref.contrast + 2.0
        changed = contrast > 3.0 * ref.contrast + 3.0
    else:
        ncc = float(cv2.matchTemplate(ref.fine, mid, cv2.TM_CCOEFF_NORMED).max())
        same, changed = ncc >= REF_SAME, ncc < REF_CHANGED
    if changed:
        return False
    if same and colour < REF_COLOUR_SAME and (
            ref.burnt < REF_BURNT or contrast <= 1.1 * ref.contrast + 0.3):
        # a face burnt white in the reference hides a faint letter nearly as well as the
        # back: there only a cell as flat as its reference is unchanged (train renders with
        # glare: face-down <= 0.96x the reference's fine contrast, faint letters >= 1.19x)
        return True
    return None


# --------------------------------------------------------------------------------------------
# The cell reader


SecondOpinion = Callable[[np.ndarray, str], LetterReading]


def _tesseract() -> SecondOpinion | None:
    """Tesseract's single-letter reading, when pytesseract and the program are installed."""
    try:
        import shutil

        from vision import letters_tesseract
    except ImportError:
        return None
    if shutil.which("tesseract") is None:
        return None

    def read(crop: np.ndarray, alphabet: str) -> LetterReading:
        try:
            return letters_tesseract.read(crop, alphabet)
        except VisionError:
            _log.debug("tesseract failed", exc_info=True)
            return LetterReading(None, 0, 0.0)

    return read


class TileReader:
    """Reads cells from their crops; ``back`` and ``victim`` are learned faces if known."""

    def __init__(self, letters: LetterReader, back: FaceModel | None = None,
                 victim: FaceModel | None = None, alphabet: str = ALPHABET,
                 second_opinion: SecondOpinion | None | bool = True,
                 max_second: int = MAX_SECOND) -> None:
        self.letters = letters
        self.back = back
        self.victim = victim
        self.alphabet = alphabet
        if second_opinion is True:
            second_opinion = _tesseract()
        self.second: SecondOpinion | None = second_opinion or None
        self.max_second = max_second
        self._asked = 0
        self._reread: set[int] = set()
        self._taught: LetterReader | None = None  # the last reader taught a frame's letters
        self._taught_key: tuple[tuple[int, str, int], ...] = ()
        self._teachers: list[tuple[int, np.ndarray, str]] = []
        self.refs: tuple[CellRef, ...] | None = None  # per cell, from a reference frame

    def learn_back(self, crops: Sequence[np.ndarray]) -> FaceModel:
        """Learn the back from crops of face-down tiles (any number of them)."""
        self.back = FaceModel.learn(crops)
        self._taught = None  # a new game or set: what its letters taught is learned anew
        return self.back

    def learn_reference(self, crops: Sequence[np.ndarray]) -> FaceModel:
        """Learn the back, and every cell's own look, from a frame where all tiles lie face
        down (``crops`` in cell order, cropped with the grid later frames are read with)."""
        self.refs = tuple(cell_ref(c) for c in crops)
        return self.learn_back(crops)

    def read(self, crops: Sequence[np.ndarray], cells: Sequence[int] | None = None,
             teachers: Sequence[tuple[int, np.ndarray, str]] = ()) -> list[CellReading]:
        """Readings for ``crops`` of the cells ``cells`` (default: 0, 1, ...); without a
        learned back, it is inferred from these crops (so pass all 36 of a frame then).
        ``teachers`` are sure letters of other cells of the same frame, as (cell, crop,
        label like "E@90"): when only a few cells are re-read they teach like the frame's
        own sure letters would."""
        self._teachers = list(teachers)
        self._asked = 0
        self._reread = set()
        where = list(range(len(crops))) if cells is None else list(cells)
        if len(where) != len(crops):
            raise TileError(f"{len(crops)} crops for {len(where)} cells")
        refs = self.refs
        same: list[bool | None] = [
            against_reference(refs[w], c) if refs is not None and 0 <= w < len(refs) else None
            for w, c in zip(where, crops, strict=True)]
        # a cell its reference settles as face down is never compared by look (saves time)
        looks = [look(c) if s is not True or self.back is None else _SETTLED
                 for c, s in zip(crops, same, strict=True)]
        back = self.back
        inferred = False
        group: list[int] = []
        letterlike = False
        dist = [back.distance(lk) if back is not None else np.inf for lk in looks]
        # the letter reader only sees cells that are not plainly the back
        need = [i for i, d in enumerate(dist) if not (d < BACK_SURE or same[i] is True)]
        readings: dict[int, LetterReading] = {}
        if need:
            got = self.letters.read_many([crops[i] for i in need], self.alphabet)
            readings = dict(zip(need, got, strict=True))
        if back is None:
            # the largest group of alike cells that is not a group of letters (the set holds
            # 7 of a letter: more alike cells than that can only be the back)
            sure_faces = [looks[i] for i, r in readings.items() if r.confidence >= TEACH_SURE]

            def accept(g: list[int]) -> bool:
                return (self._not_letters(crops, g, readings)
                        and not (len(g) <= PER_LETTER and _face_coloured(g, looks, sure_faces)))

            everyone = list(range(len(looks)))
            found = _back_group(looks, everyone, PER_LETTER + 1, 0.85, accept)
            if found is None:
                # then only among cells without letter evidence; two alike are enough (the set
                # holds one victim, and unread letters are printed on the faces' colour)
                pool = [i for i in everyone
                        if i not in readings or readings[i].confidence < VICTIM_MAX_LETTER]
                found = _back_group(looks, pool, 2, accept=accept)
            if found is not None:
                back, group, letterlike = found
                inferred = True
                dist = [back.distance(lk) for lk in looks]
                # refit on every letter-free cell near the first guess: a tight core group
                # alone would make its own kind look far
                for _ in range(2):  # twice: the refit may take in more of the backs
                    # (only cells alike to most of the group: the model must not drift)
                    near = [i for i, d in enumerate(dist) if d < BACK_NOT and (
                        letterlike or i not in readings
                        or readings[i].confidence < VICTIM_MAX_LETTER)
                        and (i in group or _alike_to_most(looks[i], looks, group))]
                    if len(near) < 3:
                        break
                    back = _model_from_looks([looks[i] for i in near])
                    dist = [back.distance(lk) for lk in looks]
        faces = [i for i in readings
                 if same[i] is False or (same[i] is None and dist[i] >= BACK_NOT)]
        self._self_taught(crops, readings, faces, where)
        out: list[CellReading | None] = [None] * len(crops)
        for i, lk in enumerate(looks):
            r = readings.get(i)
            letter = r.letter if r is not None else None
            conf = r.confidence if r is not None else 0.0
            rot = r.rotation if r is not None else 0
            d = dist[i]
            if same[i] is True:
                out[i] = CellReading(CellState.HIDDEN, confidence=0.97)
            elif letterlike and (d < BACK_SURE or i in group) and same[i] is not False:
                # the back's own pattern, read as a letter by the model
                out[i] = CellReading(CellState.HIDDEN, confidence=max(_back_conf(d), 0.7))
            elif same[i] is False and d < BACK_SURE and not (letter and conf >= VICTIM_MAX_LETTER):
                # changed since the reference but still the back: a face-down tile moved
                out[i] = CellReading(CellState.HIDDEN, confidence=_back_conf(d) * 0.9)
            elif same[i] is False and not letter:
                pass  # face up for sure: a letter the model could not read, or the victim
            elif d < BACK_SURE and not (letter and conf >= LETTER_OVER_BACK):
                out[i] = CellReading(CellState.HIDDEN, confidence=_back_conf(d))
            elif letter and inferred and d < BACK_NOT and conf < LETTER_OVER_BACK:
                # near a back we only guessed at: the pattern may be fooling the letter model
                out[i] = CellReading(CellState.UNSURE, letter, rot, min(conf, 0.5))
            elif letter and (d >= BACK_SURE or back is None):
                out[i] = CellReading(CellState.LETTER, letter, rot, conf)
            elif (back is not None and letter is None and conf < GLARE_MAX_LETTER
                  and lk.glare < 0.25 and lk.lines < VICTIM_INK and _glared(lk, back)
                  and back.structure_distance(lk) < BACK_SURE):
                # the back's texture and pattern under some glare or shade: face down, less
                # sure (a face mostly burnt white by glare is unreadable and stays unsure;
                # glare adds light, so a face with dark drawn lines is not a glared back)
                out[i] = CellReading(CellState.HIDDEN, confidence=GLARED_BACK)
        if inferred:
            self._like_the_group(looks, out, readings, same, group)
        up = [same[i] is False for i in range(len(crops))]
        candidates = self._by_likeness(crops, out, dist, looks, readings, back is not None, up)
        candidates = self._taught_again(crops, out, readings, faces, candidates)
        self._victims(candidates, looks, readings, out)
        final = [o if o is not None else CellReading(CellState.UNSURE) for o in out]
        return _within_the_set(final)

    def _by_likeness(self, crops: Sequence[np.ndarray], out: list[CellReading | None],
                     dist: Sequence[float], looks: Sequence[Look],
                     readings: dict[int, LetterReading], back_known: bool,
                     up: Sequence[bool]) -> list[int]:
        """Settle the cells left open by comparing them with the sure letters of the same
        frame (same font, same print): a close match in some turn is that letter; a face-up
        cell like no letter and unlike the back is the victim (the set holds one)."""
        open_ = [i for i, o in enumerate(out) if o is None]
        if not open_:
            return []
        sure = [i for i, o in enumerate(out)
                if o is not None and o.state is CellState.LETTER and o.confidence >= SURE_LETTER]
        vec = {i: _glyph_vec(crops[i]) for i in open_ + sure}
        unlike_letters: list[int] = []
        for i in open_:
            best: dict[str, tuple[float, int]] = {}
            for j in sure:
                o = out[j]
                assert o is not None and o.letter is not None
                sims = vec[i] @ vec[j][0]
                k = int(np.argmax(sims))
                if float(sims[k]) > best.get(o.letter, (-1.0, 0))[0]:
                    best[o.letter] = (float(sims[k]), (o.rotation - 90 * k) % 360)
            ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
            top = ranked[0][1][0] if ranked else 0.0
            second = ranked[1][1][0] if len(ranked) > 1 else 0.0
            r = readings.get(i)
            agrees = bool(ranked) and r is not None and bool(r.candidates) and (
                r.candidates[0][0] == ranked[0][0])
            if agrees and top >= LIKE_LETTER and top - second >= 0.05 and dist[i] >= BACK_SURE:
                letter, (sim, rot) = ranked[0]
                out[i] = CellReading(CellState.LETTER, letter, rot, float(min(0.95, sim)))
            elif (opinion := self._second(crops[i], r)) is not None:
                out[i] = opinion
            elif ((up[i] or (back_known and dist[i] > BACK_NOT))
                  and (looks[i].glare < 0.25 or looks[i].ink > VICTIM_INK)
                  and (not sure or top < UNLIKE_LETTER or up[i] or i in self._reread)
                  and (r is None or r.confidence < VICTIM_MAX_LETTER)):
                unlike_letters.append(i)
            else:
                guess = r.letter if r is not None else None
                out[i] = CellReading(CellState.UNSURE, guess, r.rotation if (r and guess) else 0,
                                     float(min(r.confidence if r else 0.0, 0.59)))
        return unlike_letters

    @staticmethod
    def _like_the_group(looks: Sequence[Look], out: list[CellReading | None],
                        readings: dict[int, LetterReading], same: Sequence[bool | None],
                        group: list[int]) -> None:
        """Without a reference, a cell left open that the letter reader sees nothing in and
        that is alike to most of the cells the back was inferred from (by the same test that
        grouped them) is the back too: the back model's summary can be stricter than the
        group it came from (uneven light, crops off their place)."""
        if len(group) < 3:
            return
        for i, o in enumerate(out):
            if o is not None or same[i] is False or i in group:
                continue
            r = readings.get(i)
            if r is not None and r.confidence >= GLARE_MAX_LETTER:
                continue
            if _alike_to_most(looks[i], looks, group):
                out[i] = CellReading(CellState.HIDDEN, confidence=0.8)

    def _self_taught(self, crops: Sequence[np.ndarray], readings: dict[int, LetterReading],
                     faces: list[int], where: Sequence[int]) -> None:
        """Read the doubtful face-up cells again with a reader taught the sure letters of this
        very frame: all tiles of a set share one print, so an E the model barely knows looks
        like the E it knew well two cells away. Only cells surely face up teach (a back
        pattern taken for a letter must not), and a reading is only replaced by a surer one."""
        teach = getattr(self.letters, "taught", None)
        if teach is None:
            return
        doubtful = [i for i in faces if readings[i].letter is None]
        # only letters the doubtful cells might be (their reader's two best guesses) are
        # taught: each example costs four feature passes
        wanted = {c for i in doubtful for c, _ in readings[i].candidates[:2]}
        # (cell, crop, letter, rotation, confidence) of every sure letter that may teach
        sure = [(where[i], crops[i], r.letter, r.rotation, r.confidence)
                for i in faces if (r := readings[i]).letter is not None
                and r.confidence >= TEACH_SURE]
        sure += [(cell, crop, label[0], int(label[2:] or 0), 1.0)
                 for cell, crop, label in self._teachers]
        chosen: dict[str, list[tuple[int, np.ndarray, str, int, float]]] = {}
        for t in sorted(sure, key=lambda t: -t[4]):  # the surest examples of each letter
            if t[2] in wanted and len(chosen.setdefault(t[2], [])) < TEACH_PER_LETTER:
                chosen[t[2]].append(t)
        examples = [t for ts in chosen.values() for t in ts]
        if not examples or not doubtful:
            return
        # the same tiles teaching again (the next frame of a game): reuse what they taught
        key = tuple(sorted((t[0], t[2], t[3]) for t in examples))
        if self._taught_key != key or self._taught is None:
            self._taught = teach([(t[1], f"{t[2]}@{t[3]}") for t in examples])
            self._taught_key = key
        taught = self._taught
        again = taught.read_many([crops[i] for i in doubtful], self.alphabet)
        self._reread.update(doubtful)  # read with the frame's own letters in mind
        for i, r in zip(doubtful, again, strict=True):
            if r.confidence > readings[i].confidence:
                readings[i] = r

    def _taught_again(self, crops: Sequence[np.ndarray], out: list[CellReading | None],
                      readings: dict[int, LetterReading], faces: list[int],
                      candidates: list[int]) -> list[int]:
        """A second round of :meth:`_self_taught` when the second opinion or the likeness
        settled letters the first round could not learn from (a font the model barely
        knows): the cells still open, victim candidates included, are read again with those
        letters taught. Returns the victim candidates that are still no letter."""
        teachers = [i for i, o in enumerate(out) if o is not None and o.state is CellState.LETTER
                    and o.letter is not None and o.confidence >= SURE_LETTER
                    and readings.get(i) is not None
                    and (readings[i].letter != o.letter or readings[i].confidence < TEACH_SURE)]
        doubtful = [i for i in faces if (o := out[i]) is not None
                    and o.state is CellState.UNSURE] + candidates
        teach = getattr(self.letters, "taught", None)
        if not teachers or not doubtful or teach is None:
            return candidates
        wanted = {c for i in doubtful if i in readings for c, _ in readings[i].candidates[:2]}
        examples: list[tuple[np.ndarray, str]] = []
        for i in teachers:
            o = out[i]
            assert o is not None
            if o.letter in wanted and len(examples) < 2 * TEACH_PER_LETTER:
                examples.append((crops[i], f"{o.letter}@{o.rotation}"))
        if not examples:
            return candidates
        again = teach(examples).read_many([crops[i] for i in doubtful], self.alphabet)
        for i, r in zip(doubtful, again, strict=True):
            if r.letter is not None and r.confidence >= max(readings[i].confidence, 0.6):
                out[i] = CellReading(CellState.LETTER, r.letter, r.rotation, r.confidence)
        return [i for i in candidates if out[i] is None]

    def _not_letters(self, crops: Sequence[np.ndarray], group: list[int],
                     readings: dict[int, LetterReading]) -> bool:
        """Is a group of alike cells the back rather than one letter (seven unread Es are
        alike too)? The letter reader must see next to nothing in most of its cells."""
        scores = [readings[i].confidence if i in readings else 0.0 for i in group]
        return float(np.median(scores)) < GLARE_MAX_LETTER

    def _second(self, crop: np.ndarray, r: LetterReading | None) -> CellReading | None:
        """Ask the second opinion about a cell the model could not settle: a letter both agree
        on is that letter; a letter only the second opinion sees leaves the cell unsure (so
        an unread letter is not taken for the victim); nothing seen says nothing."""
        if self.second is None or self.max_second <= self._asked:
            return None
        self._asked += 1
        t = self.second(crop, self.alphabet)
        if t.letter is None or t.confidence < 0.6:
            return None
        top = r.candidates[0][0] if (r is not None and r.candidates) else None
        if t.letter == top and r is not None and (r.confidence >= AGREE_MIN
                                                  or t.confidence >= SECOND_SURE):
            return CellReading(CellState.LETTER, t.letter, t.rotation,
                               float(min(0.9, max(r.confidence, t.confidence) * 0.95)))
        if t.confidence < SECOND_SURE:
            # Tesseract finds some letter in many pictures (a skull's jaw as an E); alone and
            # not sure, that says nothing
            return None
        return CellReading(CellState.UNSURE, t.letter, t.rotation, float(min(t.confidence, 0.5)))

    def _victims(self, idx: list[int], looks: Sequence[Look], readings: dict[int, LetterReading],
                 out: list[CellReading | None]) -> None:
        """The set holds one victim: with one candidate it is the victim; with several, the
        one closest to a taught victim face; the rest stay unsure."""
        if not idx:
            return
        if self.victim is not None:
            d = {i: self.victim.distance(looks[i]) for i in idx}
            best = min(idx, key=lambda i: d[i])
            pick = best if d[best] < BACK_NOT else None
        else:
            pick = idx[0] if len(idx) == 1 else None
        for i in idx:
            reject = 1.0 - float(getattr(readings.get(i), "confidence", 0.0))
            if i == pick:
                out[i] = CellReading(CellState.VICTIM, confidence=float(np.clip(reject, 0.6, 1)))
            else:
                out[i] = CellReading(CellState.UNSURE, confidence=0.3)


def _within_the_set(cells: list[CellReading],
                    changed: Sequence[int] | None = None) -> list[CellReading]:
    """The set holds seven of each letter and one victim: when more are read, the readings of
    that kind are not to be trusted (a back pattern the model takes for a letter), so all but
    the very sure ones become unsure (only among ``changed`` cells when given: the others
    were settled before)."""
    out = list(cells)
    may = set(range(len(cells))) if changed is None else set(changed)
    for state, limit in ((CellState.LETTER, PER_LETTER), (CellState.VICTIM, 1)):
        kinds: dict[str | None, list[int]] = {}
        for i, c in enumerate(cells):
            if c.state is state:
                kinds.setdefault(c.letter, []).append(i)
        for idx in kinds.values():
            if len(idx) > limit:
                for i in idx:
                    c = cells[i]
                    if i in may and (c.confidence < LETTER_OVER_BACK
                                     or state is CellState.VICTIM):
                        out[i] = CellReading(CellState.UNSURE, c.letter, c.rotation,
                                             min(c.confidence, 0.5))
    return out


def settle_set(cells: Sequence[CellReading], changed: Sequence[int]) -> list[CellReading]:
    """A whole board after re-reading only ``changed`` cells: if it now holds more of a kind
    than the set does (a second victim, an eighth E), the new readings of that kind become
    unsure; the cells settled before stay."""
    return _within_the_set(list(cells), changed)


def _alike_to_most(lk: Look, looks: Sequence[Look], group: list[int]) -> bool:
    """Is a cell alike (as the back's group was formed) to more than half of ``group``?"""
    return 2 * sum(_alike(lk, looks[j], 0.6) for j in group) > len(group)


def _face_coloured(group: list[int], looks: Sequence[Look], faces: Sequence[Look]) -> bool:
    """Is a group of cells printed on the letters' face (the colour and lightness of the
    frame's sure letters)? Then seven or fewer of them are more likely letters the reader
    does not know than the back (which would have to share the faces' colour)."""
    if len(faces) < 2:
        return False
    chroma = np.median([looks[i].chroma for i in group], axis=0)
    light = float(np.median([looks[i].light for i in group]))
    face_chroma = np.median([f.chroma for f in faces], axis=0)
    face_light = float(np.median([f.light for f in faces]))
    return bool(np.linalg.norm(chroma - face_chroma) < 6 and _ratio(light, face_light) < 1.25)


def _glared(lk: Look, back: FaceModel) -> bool:
    """Does ``lk`` look like the back washed out by glare: brighter, and its colour on the way
    from the back's towards grey (glare adds white light)?"""
    if lk.light < back.light + 12:
        return False
    neutral = np.array([128.0, 128.0])
    axis = neutral - back.chroma
    span = float(axis @ axis)
    if span < 1.0:  # a grey back: glare keeps it grey
        return bool(np.linalg.norm(lk.chroma - back.chroma) < 2 * back.scale[0])
    t = float(np.clip((lk.chroma - back.chroma) @ axis / span, 0.0, 1.0))
    off = float(np.linalg.norm(lk.chroma - (back.chroma + t * axis)))
    return off < 2 * back.scale[0]


def _glyph_vec(crop: np.ndarray) -> np.ndarray:
    """(4, GLYPH*GLYPH) zero-mean unit thumbnails of the crop's inner part in four clockwise
    turns, for comparing a cell with the sure letters of its frame."""
    h, w = crop.shape[:2]
    m = int(round(0.1 * min(h, w)))
    gray = cv2.cvtColor(crop[m : h - m, m : w - m], cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA).astype(np.float32)
    t = np.asarray(cv2.GaussianBlur(small, (0, 0), 0.8), np.float32)
    out = []
    for k in range(4):
        v = np.rot90(t, -k).reshape(-1)
        v = v - v.mean()
        out.append(v / max(float(np.linalg.norm(v)), 1e-3))
    return np.array(out, np.float32)


def _back_conf(d: float) -> float:
    """Confidence that a cell at back distance ``d`` is the back."""
    return float(np.clip(1.0 - (d / BACK_NOT) ** 2, 0.0, 1.0)) if np.isfinite(d) else 0.0


__all__ = ["ALPHABET", "CellReading", "CellRef", "CellState", "FaceModel", "Look", "TileError",
           "TileReader", "against_reference", "cell_ref", "infer_back", "look", "settle_set"]
