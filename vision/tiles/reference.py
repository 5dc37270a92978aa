"""The reference frame, cell by cell.

Tiles are rarely moved during a game and the camera stays put, so a face-down tile looks
almost exactly like its own reference, glare, shade and all, while a face-up one does not;
this is sharper than any model of the back in general.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings


@dataclass(frozen=True)
class CellRef:
    """One cell of the reference frame (face down): its fine structure and colour."""

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
    lab = cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3)  # bytes: a quicker median
    out: np.ndarray = np.median(lab, axis=0).astype(np.float32)
    return out


def cell_ref(crop: np.ndarray, settings: TileSettings = DEFAULT_SETTINGS) -> CellRef:
    f = _fine(crop)
    m = settings.ref_shift * 2
    mid = cv2.cvtColor(cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA)[m:-m, m:-m],
                       cv2.COLOR_BGR2GRAY)
    return CellRef(f, float(f[m:-m, m:-m].std()), _mid_lab(crop),
                   float(np.mean(mid >= settings.glare_level)))


def colour_change(ref: CellRef, crop: np.ndarray) -> float:
    """How far the middle of a cell's colour moved from its reference (Lab, lightness counted
    half: light is uneven, and glare comes and goes)."""
    d = ref.lab - _mid_lab(crop)
    return float(np.hypot(np.hypot(d[1], d[2]), d[0] / 2))


def against_reference(ref: CellRef, crop: np.ndarray,
                      settings: TileSettings = DEFAULT_SETTINGS,
                      colour: float | None = None) -> bool | None:
    """True: the cell looks as in the reference (still face down); False: surely changed;
    None: cannot tell (the caller falls back to the model of the back). ``colour`` is the
    cell's :func:`colour_change`, when the caller measured it already."""
    s = settings
    colour = colour_change(ref, crop) if colour is None else colour
    if colour > s.ref_colour_changed:  # most face-up tiles: no need to compare the structure
        return False
    f = _fine(crop)
    m = s.ref_shift * 2
    mid = f[m:-m, m:-m]
    contrast = float(mid.std())
    if ref.contrast < s.ref_flat:  # a plain back: a face-up tile brings letter or picture lines
        same = contrast <= 2.0 * ref.contrast + 2.0
        changed = contrast > 3.0 * ref.contrast + 3.0
    else:
        ncc = float(cv2.matchTemplate(ref.fine, mid, cv2.TM_CCOEFF_NORMED).max())
        same, changed = ncc >= s.ref_same, ncc < s.ref_changed
    if changed:
        return False
    if same and colour < s.ref_colour_same and (
            ref.burnt < s.ref_burnt or contrast <= 1.1 * ref.contrast + 0.3):
        # a face burnt white in the reference hides a faint letter nearly as well as the
        # back: there only a cell as flat as its reference is unchanged (train renders with
        # glare: face-down <= 0.96x the reference's fine contrast, faint letters >= 1.19x)
        return True
    return None


__all__ = ["CellRef", "against_reference", "cell_ref", "colour_change"]
