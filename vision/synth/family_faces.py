"""The held-out family's tile faces: backs with printed words, a monogram or other patterns,
other victim pictures, and tile materials (wood grain, glossy plastic, a printed border).
None of these is drawn for the train or bench styles, so nothing was tuned on them."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import BackPattern, Material, Style, Victim, name_seed

FAMILY_BACKS = frozenset({BackPattern.WORD, BackPattern.MONOGRAM, BackPattern.WAVES,
                          BackPattern.HONEYCOMB})
FAMILY_VICTIMS = frozenset({Victim.TOMBSTONE, Victim.MAGNIFIER, Victim.POISON,
                            Victim.FOOTPRINTS})
_RED = (30, 30, 170)


def family_back(side: int, style: Style) -> np.ndarray:
    """The back every tile of the style shows: a word in rows, a monogram, waves or cells."""
    s = side
    img = np.empty((s, s, 3), np.uint8)
    img[:] = style.back
    ink = style.back_ink
    line = max(1, s // 35)
    if style.pattern is BackPattern.WORD:
        font = cv2.FONT_HERSHEY_DUPLEX
        size = cv2.getFontScaleFromHeight(font, max(6, s // 9), line)
        (w, h), _ = cv2.getTextSize(style.back_text, font, size, line)
        step_y = int(h * 2.2)
        for r, y in enumerate(range(h + 2, s + h, step_y)):
            shift = (r % 2) * (w // 2 + h)
            for x in range(-shift, s, w + 2 * h):
                cv2.putText(img, style.back_text, (x, y), font, size, ink, line, cv2.LINE_AA)
    elif style.pattern is BackPattern.MONOGRAM:
        cv2.circle(img, (s // 2, s // 2), int(s * 0.38), ink, max(2, s // 25), cv2.LINE_AA)
        font = cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC
        size = cv2.getFontScaleFromHeight(font, int(s * 0.26), max(2, s // 30))
        (w, h), _ = cv2.getTextSize(style.back_text, font, size, max(2, s // 30))
        cv2.putText(img, style.back_text, ((s - w) // 2, (s + h) // 2), font, size, ink,
                    max(2, s // 30), cv2.LINE_AA)
    elif style.pattern is BackPattern.WAVES:
        xs = np.arange(0, s + 1, max(1, s // 40))
        for y0 in range(0, s + s // 6, max(5, s // 7)):
            ys = y0 + np.sin(xs / s * 4 * math.pi) * s / 22
            pts = np.stack([xs, ys], axis=1).astype(np.int32)
            cv2.polylines(img, [pts], False, ink, max(2, s // 28), cv2.LINE_AA)
    else:  # HONEYCOMB
        r = max(5, s // 7)
        dx, dy = r * math.sqrt(3), r * 1.5
        for row in range(-1, int(s / dy) + 2):
            for col in range(-1, int(s / dx) + 2):
                cx, cy = col * dx + (row % 2) * dx / 2, row * dy
                pts = np.array([(cx + r * math.cos(math.radians(60 * k + 30)),
                                 cy + r * math.sin(math.radians(60 * k + 30)))
                                for k in range(6)], np.int32)
                cv2.polylines(img, [pts], True, ink, line, cv2.LINE_AA)
    return img


def family_victim(side: int, style: Style) -> np.ndarray:
    """The victim tile: a tombstone, a magnifying glass, a poison bottle or footprints."""
    s = side
    img = np.empty((s, s, 3), np.uint8)
    img[:] = style.face
    dark = style.ink

    def p(x: float, y: float) -> tuple[int, int]:
        return int(x * s), int(y * s)

    t = max(2, s // 25)
    if style.victim is Victim.TOMBSTONE:
        stone = (150, 150, 145)
        cv2.rectangle(img, p(0.3, 0.35), p(0.7, 0.82), stone, -1)
        cv2.ellipse(img, p(0.5, 0.36), (int(s * 0.2), int(s * 0.18)), 0, 180, 360, stone, -1,
                    cv2.LINE_AA)
        cv2.line(img, p(0.5, 0.3), p(0.5, 0.62), dark, t, cv2.LINE_AA)
        cv2.line(img, p(0.4, 0.4), p(0.6, 0.4), dark, t, cv2.LINE_AA)
        cv2.line(img, p(0.15, 0.84), p(0.85, 0.84), (40, 110, 40), t * 2, cv2.LINE_AA)
    elif style.victim is Victim.MAGNIFIER:
        cv2.circle(img, p(0.42, 0.42), int(s * 0.23), (235, 215, 190), -1, cv2.LINE_AA)
        cv2.circle(img, p(0.42, 0.42), int(s * 0.23), dark, t * 2, cv2.LINE_AA)
        cv2.line(img, p(0.59, 0.59), p(0.84, 0.84), dark, t * 3, cv2.LINE_AA)
        cv2.circle(img, p(0.36, 0.36), max(2, s // 22), _RED, -1, cv2.LINE_AA)
    elif style.victim is Victim.POISON:
        glass = (60, 120, 40)
        cv2.rectangle(img, p(0.3, 0.38), p(0.7, 0.86), glass, -1)
        cv2.rectangle(img, p(0.43, 0.18), p(0.57, 0.4), glass, -1)
        cv2.rectangle(img, p(0.42, 0.1), p(0.58, 0.19), (60, 100, 150), -1)
        cv2.rectangle(img, p(0.34, 0.5), p(0.66, 0.76), (235, 240, 240), -1)
        cv2.line(img, p(0.4, 0.55), p(0.6, 0.71), _RED, t, cv2.LINE_AA)
        cv2.line(img, p(0.6, 0.55), p(0.4, 0.71), _RED, t, cv2.LINE_AA)
    else:  # FOOTPRINTS
        for k, (x, y) in enumerate(((0.3, 0.8), (0.5, 0.62), (0.42, 0.4), (0.64, 0.22))):
            angle = -35 + (k % 2) * 10
            cv2.ellipse(img, p(x, y), (int(s * 0.06), int(s * 0.1)), angle, 0, 360, dark, -1,
                        cv2.LINE_AA)
            cv2.circle(img, p(x + 0.05, y + 0.1), int(s * 0.035), dark, -1, cv2.LINE_AA)
        cv2.circle(img, p(0.75, 0.7), max(2, s // 20), _RED, -1, cv2.LINE_AA)
    return img


def material(img: np.ndarray, kind: str, style: Style) -> np.ndarray:
    """A face (``kind``: a letter, "X" or "back") made of the style's material: grain under
    the print, a lacquer's sheen, or a printed border inside the edge."""
    s = img.shape[0]
    if style.material is Material.WOOD:
        rng = np.random.default_rng(name_seed(style.name, kind, s))
        y = np.linspace(0, 1, s, dtype=np.float32)[:, None]
        x = np.linspace(0, 1, s, dtype=np.float32)[None, :]
        wobble = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (s, s),
                            interpolation=cv2.INTER_CUBIC)
        grain = np.sin((y + 0.05 * wobble + 0.1 * x) * rng.uniform(14, 24) * math.pi)
        field = 0.9 + 0.1 * grain + 0.03 * rng.normal(0, 1, (s, s)).astype(np.float32)
        return np.asarray(np.clip(img * field[:, :, None], 0, 255).astype(np.uint8))
    if style.material is Material.GLOSSY:
        y = np.linspace(0, 1, s, dtype=np.float32)[:, None]
        x = np.linspace(0, 1, s, dtype=np.float32)[None, :]
        sheen = np.clip(1 - (x + y) * 1.2, 0, 1) ** 2 * 60
        return np.asarray(np.clip(img + sheen[:, :, None], 0, 255).astype(np.uint8))
    if style.material is Material.BORDERED:
        out = img.copy()
        m = max(3, int(s * 0.08))
        ink = style.back_ink if kind == "back" else style.ink
        cv2.rectangle(out, (m, m), (s - 1 - m, s - 1 - m), ink, max(1, s // 40), cv2.LINE_AA)
        return out
    return img
