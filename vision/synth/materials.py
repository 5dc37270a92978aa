"""Train-side tile materials: a woven cloth-bound card, a satin lacquer and a card with a
printed double frame.

The reader's rules were tuned on plain card only, so a tile whose face has a texture or a
sheen of its own is what they must learn to bear. These are the materials to tune that on;
the held-out family's wood grain, glossy plastic and single printed border stay unseen, so
these differ from them on purpose: a fine weave in both directions (no grain running one
way), a sheen in a band across the middle (not from a corner), and two thin frames in a
colour of their own (not one line in the ink's).
"""

from __future__ import annotations


import cv2
import numpy as np

from vision.synth.styles import Material, Style, name_seed

TRAIN_MATERIALS = frozenset({Material.LINEN, Material.SATIN, Material.FRAMED})


def train_material(img: np.ndarray, kind: str, style: Style) -> np.ndarray:
    """A face (``kind``: a letter, "X" or "back") made of one of the train materials."""
    s = img.shape[0]
    y = np.linspace(0, 1, s, dtype=np.float32)[:, None]
    x = np.linspace(0, 1, s, dtype=np.float32)[None, :]
    rng = np.random.default_rng(name_seed("material", style.name, kind, s))
    if style.material is Material.LINEN:
        cycles = rng.uniform(28, 40)
        weave = np.sin(2 * np.pi * cycles * x) * np.sin(2 * np.pi * cycles * y)
        slub = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (s, s),
                          interpolation=cv2.INTER_LINEAR)
        field = 1.0 + 0.07 * weave + 0.025 * slub + 0.02 * rng.normal(0, 1, (s, s))
        return np.asarray(np.clip(img * field[:, :, None], 0, 255).astype(np.uint8))
    if style.material is Material.SATIN:
        centre, width = rng.uniform(0.35, 0.65), rng.uniform(0.12, 0.2)
        band = np.exp(-(((x - y) * 0.7 + 0.5 - centre) / width) ** 2) * rng.uniform(35, 50)
        return np.asarray(np.clip(img + band[:, :, None], 0, 255).astype(np.uint8))
    if style.material is Material.FRAMED:
        out = img.copy()
        frame = tuple(int(c) for c in np.clip(np.asarray(style.face) * 0.6 + 60, 0, 255))
        if kind == "back":
            frame = tuple(int(c) for c in np.clip(np.asarray(style.back) * 0.6 + 80, 0, 255))
        for margin in (0.05, 0.1):
            m = max(2, int(s * margin))
            cv2.rectangle(out, (m, m), (s - 1 - m, s - 1 - m), frame, max(1, s // 60),
                          cv2.LINE_AA)
        return out
    return img


__all__ = ["TRAIN_MATERIALS", "train_material"]
