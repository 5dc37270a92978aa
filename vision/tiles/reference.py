"""The reference frame, cell by cell.

Tiles are rarely moved during a game and the camera stays put, so a face-down tile looks
almost exactly like its own reference, glare, shade and all, while a face-up one does not;
this is sharper than any model of the back in general.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.tiles.appearance import blur_each
from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings

_SIDE = 64  # px a cell is compared at


@dataclass(frozen=True)
class CellRef:
    """One cell of the reference frame (face down): its fine structure and colour."""

    fine: np.ndarray  # (64, 64) gray minus its blur: the pattern without smooth light
    contrast: float  # std of ``fine`` in the middle of the cell
    lab: np.ndarray  # (3,) median Lab of the middle
    bgr: np.ndarray  # (3,) median BGR of the middle
    burnt: float = 0.0  # share of the middle burnt white by glare


def _measure(crops: Sequence[np.ndarray],
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(fine (n, 64, 64) float32: gray minus its blur, the pattern without smooth light;
    gray (n, 64, 64) bytes; median Lab and median BGR of the middle (n, 3)) of crops,
    measured as one stack (a frame compares all its cells at once)."""
    side = _SIDE
    stack = np.stack([cv2.resize(c, (side, side), interpolation=cv2.INTER_AREA) for c in crops])
    n = len(stack)
    gray = cv2.cvtColor(stack.reshape(n * side, side, 3), cv2.COLOR_BGR2GRAY).reshape(n, side, side)
    g = gray.astype(np.float32)
    fine = g - blur_each(g, 4.0)
    mid = np.ascontiguousarray(stack[:, 10:54, 10:54]).reshape(n * 44, 44, 3)
    lab = cv2.cvtColor(mid, cv2.COLOR_BGR2LAB).reshape(n, -1, 3)  # bytes: a quicker median
    # every other pixel of the middle: as good a median for a shade's factor, a quarter the time
    bgr = np.median(stack[:, 10:54:2, 10:54:2].reshape(n, -1, 3), axis=1).astype(np.float32)
    return fine, gray, np.median(lab, axis=1).astype(np.float32), bgr


def cell_refs(crops: Sequence[np.ndarray],
              settings: TileSettings = DEFAULT_SETTINGS) -> list[CellRef]:
    """Each crop of a face-down cell as its reference."""
    if not crops:
        return []
    fine, gray, lab, bgr = _measure(crops)
    m = settings.ref_shift * 2
    return [CellRef(fine[i], float(fine[i, m:-m, m:-m].std()), lab[i], bgr[i],
                    float(np.mean(gray[i, m:-m, m:-m] >= settings.glare_level)))
            for i in range(len(fine))]


def cell_ref(crop: np.ndarray, settings: TileSettings = DEFAULT_SETTINGS) -> CellRef:
    return cell_refs([crop], settings)[0]


def compare(refs: Sequence[CellRef], crops: Sequence[np.ndarray],
            settings: TileSettings = DEFAULT_SETTINGS) -> list[tuple[bool | None, float]]:
    """For each cell, its crop against its own reference: (:func:`against_reference`'s
    verdict, how far the middle's colour moved: Lab, lightness counted half, as light is
    uneven and glare comes and goes). A cell whose colour moved only as a shade moves it
    (every channel darker by one factor) and whose print is as in the reference is
    unchanged: a hand's shadow over a face-down tile."""
    if not crops:
        return []
    fine, _, lab, bgr = _measure(crops)
    out: list[tuple[bool | None, float]] = []
    for ref, f, mid, now in zip(refs, fine, lab, bgr, strict=True):
        colour = _distance(ref.lab - mid)
        verdict = _verdict(ref, f, colour, settings)
        if verdict is False and colour > settings.ref_colour_changed:
            shaded = _shaded(ref, now, settings)
            if shaded is not None and _verdict(ref, f, shaded, settings) is True:
                verdict, colour = True, shaded
        out.append((verdict, colour))
    return out


def _distance(d: np.ndarray) -> float:
    """A Lab difference, lightness counted half (light is uneven, glare comes and goes)."""
    return float(np.hypot(np.hypot(d[1], d[2]), d[0] / 2))


def _shaded(ref: CellRef, now: np.ndarray, s: TileSettings) -> float | None:
    """How far the middle's colour moved once a shade over it is taken out (the cell's
    colour divided by how much darker it got, as a hand's shadow darkens every channel
    alike); None when it got lighter, or darker than a shadow makes it."""
    k = float(now.sum()) / max(float(ref.bgr.sum()), 1.0)
    if not s.ref_shade <= k < 1.0:
        return None
    px = np.stack([ref.bgr, np.clip(now / k, 0, 255)]).astype(np.uint8).reshape(1, 2, 3)
    a, b = cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(2, 3).astype(np.float32)
    return _distance(a - b)


def against_reference(ref: CellRef, crop: np.ndarray,
                      settings: TileSettings = DEFAULT_SETTINGS) -> bool | None:
    """True: the cell looks as in the reference (still face down); False: surely changed;
    None: cannot tell (the caller falls back to the model of the back)."""
    return compare([ref], [crop], settings)[0][0]


def _verdict(ref: CellRef, f: np.ndarray, colour: float, s: TileSettings) -> bool | None:
    if colour > s.ref_colour_changed:  # most face-up tiles: no need to compare the structure
        return False
    m = s.ref_shift * 2
    mid = f[m:-m, m:-m]
    contrast = float(mid.std())
    ncc = None
    if ref.contrast < s.ref_flat:  # a plain back: a face-up tile brings letter or picture lines
        same = contrast <= 2.0 * ref.contrast + 2.0
        changed = contrast > 3.0 * ref.contrast + 3.0
    else:
        ncc = _ncc(ref, mid)
        same, changed = ncc >= s.ref_same, ncc < s.ref_changed
    if changed:
        return False
    if same and colour < s.ref_colour_same and (
            ref.burnt < s.ref_burnt or _still_burnt_back(ref, mid, contrast, ncc, s)):
        return True
    return None


def _ncc(ref: CellRef, mid: np.ndarray) -> float:
    """How well a cell's print matches its reference's, in the best shift."""
    return float(cv2.matchTemplate(ref.fine, mid, cv2.TM_CCOEFF_NORMED).max())


def _still_burnt_back(ref: CellRef, mid: np.ndarray, contrast: float, ncc: float | None,
                      s: TileSettings) -> bool:
    """Is a cell whose reference is burnt white by glare still that back? A burnt face hides
    a faint letter nearly as well as the back: only a cell as flat as its reference is
    unchanged (train renders with glare: face-down <= 0.96x the reference's fine contrast,
    faint letters >= 1.19x), and its print must still be the reference's: a striped back
    half burnt white is as flat as a plain one, and a faint letter under the same glare
    flatter still (``ncc``: the match already measured, if any)."""
    if contrast > 1.1 * ref.contrast + 0.3:
        return False
    return (ncc if ncc is not None else _ncc(ref, mid)) >= s.ref_changed


__all__ = ["CellRef", "against_reference", "cell_ref", "cell_refs", "compare"]
