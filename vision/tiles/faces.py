"""Faces every tile of a kind shares (the back, the victim), learned from examples of them.

The back is the same on all 36 tiles, so it is learned rather than assumed: from a reference
frame, from a taught profile, or from the cells themselves (:func:`back_group`).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from companion.games.moerder.board import PER_LETTER
from vision.tiles.appearance import (Look, alike, alike_matrix, looks, pair_sims, ratio,
                                     shift_sims)
from vision.tiles.cells import TileError
from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings

_log = logging.getLogger(__name__)


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
    def learn(cls, crops: Sequence[np.ndarray],
              settings: TileSettings = DEFAULT_SETTINGS) -> FaceModel:
        if len(crops) == 0:
            raise TileError("a face is learned from at least one crop")
        return model_from_looks(looks(crops, settings), settings)

    def raw_distances(self, lk: Look) -> np.ndarray:
        """Unscaled differences in chroma, light, texture and pattern: their spread among the
        examples becomes the model's scale."""
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
        d = self.raw_distances(lk) / self.scale
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


def _aligned(looks: Sequence[Look], field: str) -> np.ndarray:
    """The mean of the examples' ``field`` (pattern or detail), each turned to match the first:
    hand-laid tiles lie in any of four turns."""
    ref = getattr(looks[0], field)
    acc = np.zeros_like(ref)
    for lk in looks:
        k = int(np.argmax(lk.pattern @ looks[0].pattern[0]))
        acc += np.roll(getattr(lk, field), -k, axis=0)
    out: np.ndarray = (acc / np.maximum(np.linalg.norm(acc, axis=1, keepdims=True), 1e-6))
    return out.astype(np.float32)


def model_from_looks(looks: Sequence[Look], s: TileSettings) -> FaceModel:
    """The face summarised from looks of it, its scale from how much they differ (a floor
    keeps a few near-identical examples from making every other crop look far)."""
    chroma = np.median([lk.chroma for lk in looks], axis=0)
    spread = float(np.median([lk.spread for lk in looks]))
    model = FaceModel(chroma, float(np.median([lk.light for lk in looks])),
                      float(np.median([lk.texture for lk in looks])), spread,
                      _aligned(looks, "pattern"), spread < 6.0, np.ones(4),
                      _aligned(looks, "detail"))
    if len(looks) >= 4:
        raw = np.array([model.raw_distances(lk) for lk in looks])
        scale = np.maximum(np.percentile(raw, 90, axis=0), [3.0, 12.0, 0.6, 0.08])
    else:
        scale = np.array([4.0, 18.0, 0.8, 0.12])
    fine = float(np.median([lk.coarse for lk in looks])) < s.fine
    return FaceModel(model.chroma, model.light, model.texture, model.spread, model.pattern,
                     model.flat, scale, model.detail, fine)


def back_group(looks: Sequence[Look], candidates: Sequence[int], s: TileSettings,
               least: int = 3, sim_min: float = 0.6,
               accept: Callable[[list[int]], bool] | None = None,
               read: Mapping[int, str] | None = None,
               ) -> tuple[FaceModel, list[int], bool] | None:
    """The back from the cells alone: the largest group of alike cells among ``candidates``
    (at least ``least`` of them) that ``accept`` agrees is not a group of letters, with the
    cells it was learned from, and whether the letter reader sees a letter in them (a back
    pattern like a letter: known to be the back only because more cells look exactly alike
    than the set holds of any one letter). ``read``: the letter the reader sees in a cell,
    for the cells it sees one in; one exact look reads as one letter every time."""
    if len(candidates) < least:
        return None
    idx = list(candidates)
    n = len(idx)
    close = alike_matrix([looks[i] for i in idx], sim_min, s)
    counts = close.sum(axis=1)
    tried: set[int] = set()
    for best in np.argsort(-counts, kind="stable"):
        if counts[best] + 1 < least:
            break
        group = [idx[int(best)]] + [idx[j] for j in range(n) if close[best, j]]
        key = min(group)
        if key in tried:
            continue
        tried.add(key)
        if accept is None or accept(group):
            _log.debug("back inferred from %d alike cells", len(group))
            return model_from_looks([looks[i] for i in group], s), group, False
        if len(group) > PER_LETTER:
            seed = idx[int(best)]
            sims = shift_sims(looks[seed], [looks[j] for j in group], s)
            core = [j for j, sim in zip(group, sims, strict=True)
                    if j == seed or sim >= s.same_face]
            if _one_letter(core, read) > PER_LETTER:
                # the set holds seven of a letter: eight or more cells of one exact look are
                # the back, whatever the letter reader sees in its pattern
                _log.debug("letter-like back inferred from %d identical cells", len(core))
                return model_from_looks([looks[i] for i in core], s), core, True
        if len(tried) >= 3:
            break
    return None


def _one_letter(core: list[int], read: Mapping[int, str] | None) -> int:
    """How many cells of ``core`` could be one face by what the letter reader sees in them:
    those it reads as their commonest letter, and those it reads nothing in. Under a lamp's
    spot, seven Ds and an Ö, washed out, look alike enough to pass for one exact look; the
    reader, which tells them apart, says they are not."""
    if read is None:
        return len(core)
    seen = Counter(read[j] for j in core if j in read)
    return len(core) - sum(seen.values()) + max(seen.values(), default=0)


def alike_to_most(lk: Look, looks: Sequence[Look], group: list[int], s: TileSettings) -> bool:
    """Is a cell alike (as the back's group was formed) to more than half of ``group``?"""
    return 2 * int(alike([lk], [looks[j] for j in group], 0.6, s).sum()) > len(group)


def face_coloured(group: list[int], looks: Sequence[Look], faces: Sequence[Look]) -> bool:
    """Is a group of cells printed on the letters' face (the colour and lightness of the
    frame's sure letters)? Then seven or fewer of them are more likely letters the reader
    does not know than the back (which would have to share the faces' colour)."""
    if len(faces) < 2:
        return False
    chroma = np.median([looks[i].chroma for i in group], axis=0)
    light = float(np.median([looks[i].light for i in group]))
    face_chroma = np.median([f.chroma for f in faces], axis=0)
    face_light = float(np.median([f.light for f in faces]))
    return bool(np.linalg.norm(chroma - face_chroma) < 6 and ratio(light, face_light) < 1.25)


def drawn_unalike(group: list[int], looks: Sequence[Look], s: TileSettings) -> bool:
    """Do the cells of a group carry ink (drawn dark on their face) that differs from cell to
    cell? A back's print, a word or a logo, is the same on every back; letters the reader
    cannot read (drawn as dots, say) are alike in colour and texture but each is drawn
    differently. Compared over up to eight of the group, every pair, in its best shift and
    turn."""
    if float(np.median([looks[i].ink for i in group])) <= s.victim_ink:
        return False
    return repeats(group, looks, s) < s.ink_repeats


def cut_elsewhere(looks: Sequence[Look], s: TileSettings) -> bool:
    """Are crops of a face-down frame, all alike in colour and texture, pieces of the tiles
    cut each in another place (a lattice of a patterned cloth's larger squares over them)
    rather than one back 36 times? Only a back with a coarse pattern can tell: a plain or
    finely grained back correlates little with itself either."""
    every = list(range(len(looks)))
    if (float(np.median([lk.texture for lk in looks])) < s.flat_texture
            or float(np.median([lk.coarse for lk in looks])) < s.fine):
        return False
    return repeats(every, looks, s) < s.back_repeats


def repeats(group: Sequence[int], looks: Sequence[Look], s: TileSettings) -> float:
    """How well the cells of a group repeat one face: the median shift-tolerant correlation
    of every pair among up to eight of them (1 with fewer than two)."""
    some = list(group)[:: max(1, len(group) // 8)][:8]
    sims = pair_sims([looks[i] for i in some], s)
    return float(np.median(sims)) if sims else 1.0


def glared(lk: Look, back: FaceModel) -> bool:
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
    return bool(off < 2 * back.scale[0])


def back_conf(d: float, s: TileSettings) -> float:
    """Confidence that a cell at back distance ``d`` is the back."""
    return float(np.clip(1.0 - (d / s.back_not) ** 2, 0.0, 1.0)) if np.isfinite(d) else 0.0


__all__ = ["FaceModel", "alike_to_most", "back_conf", "back_group", "cut_elsewhere",
           "drawn_unalike", "face_coloured", "glared", "model_from_looks", "repeats"]
