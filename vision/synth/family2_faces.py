"""The second held-out family's tile faces: backs with stars, zigzag rows or nested squares,
a key, a candlestick or a revolver on the victim tile, and tiles of cork, marble or
parchment. None of these is drawn for any other split, so nothing was tuned on them, nor on
the first family, which has since been looked at."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import BackPattern, Colour, Material, Style, Victim, name_seed

FAMILY2_BACKS = frozenset({BackPattern.STARS, BackPattern.CHEVRON, BackPattern.CONCENTRIC})
FAMILY2_VICTIMS = frozenset({Victim.KEY, Victim.CANDLESTICK, Victim.REVOLVER})
FAMILY2_MATERIALS = frozenset({Material.CORK, Material.MARBLE, Material.PARCHMENT})

_BRASS: Colour = (40, 150, 200)
_BRASS_DARK: Colour = (20, 90, 130)


def _star(cx: float, cy: float, r: float) -> np.ndarray:
    """A five-pointed star's ten corners, a point upwards, the inner ones at 0.4 ``r``."""
    angles = np.radians(np.arange(10) * 36 - 90)
    radii = np.where(np.arange(10) % 2 == 0, r, 0.4 * r)
    return np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], axis=1)


def family2_back(side: int, style: Style) -> np.ndarray:
    """The back every tile of the style shows: stars in rows, zigzag rows or nested squares."""
    s = side
    img = np.empty((s, s, 3), np.uint8)
    img[:] = style.back
    ink = style.back_ink
    if style.pattern is BackPattern.STARS:
        step = max(8, s // 5)
        for r, y in enumerate(range(step // 2, s + step, step)):
            for x in range(step // 2 - (r % 2) * step // 2, s + step, step):
                pts = np.round(_star(x, y, step * 0.36) * 16).astype(np.int32)
                cv2.fillPoly(img, [pts], ink, cv2.LINE_AA, shift=4)
    elif style.pattern is BackPattern.CHEVRON:
        step, rise = max(6, s // 6), max(3, s // 12)
        xs = np.arange(-step, s + 2 * step, step)
        for y0 in range(-step, s + step, max(5, s // 7)):
            ys = y0 + np.where((xs // step) % 2 == 0, 0, rise)
            pts = np.stack([xs, ys], axis=1).astype(np.int32)
            cv2.polylines(img, [pts], False, ink, max(2, s // 22), cv2.LINE_AA)
    else:  # CONCENTRIC
        for m in range(max(2, s // 14), s // 2, max(4, s // 9)):
            cv2.rectangle(img, (m, m), (s - 1 - m, s - 1 - m), ink, max(2, s // 28),
                          cv2.LINE_AA)
        c = s // 2
        cv2.rectangle(img, (c - s // 40, c - s // 40), (c + s // 40, c + s // 40), ink, -1)
    return img


def family2_victim(side: int, style: Style) -> np.ndarray:
    """The victim tile: an old key, a lit candle in its holder, or a revolver."""
    s = side
    img = np.empty((s, s, 3), np.uint8)
    img[:] = style.face

    def p(x: float, y: float) -> tuple[int, int]:
        return int(x * s), int(y * s)

    t = max(2, s // 25)
    if style.victim is Victim.KEY:  # lying from the lower left to the upper right
        _key(img, s, t)
    elif style.victim is Victim.CANDLESTICK:
        cv2.ellipse(img, p(0.5, 0.86), (int(s * 0.24), int(s * 0.06)), 0, 0, 360, _BRASS, -1,
                    cv2.LINE_AA)
        cv2.rectangle(img, p(0.46, 0.58), p(0.54, 0.84), _BRASS, -1)
        cv2.ellipse(img, p(0.5, 0.58), (int(s * 0.14), int(s * 0.04)), 0, 0, 360, _BRASS_DARK,
                    -1, cv2.LINE_AA)
        cv2.rectangle(img, p(0.43, 0.3), p(0.57, 0.57), (225, 240, 245), -1)
        cv2.rectangle(img, p(0.43, 0.3), p(0.57, 0.57), (150, 170, 180), max(1, s // 60))
        cv2.line(img, p(0.5, 0.3), p(0.5, 0.25), (30, 30, 30), max(1, s // 50), cv2.LINE_AA)
        cv2.ellipse(img, p(0.5, 0.18), (int(s * 0.05), int(s * 0.09)), 0, 0, 360,
                    (30, 140, 240), -1, cv2.LINE_AA)
        cv2.ellipse(img, p(0.5, 0.2), (int(s * 0.025), int(s * 0.05)), 0, 0, 360,
                    (140, 230, 255), -1, cv2.LINE_AA)
    else:  # REVOLVER, its muzzle to the left
        dark = (45, 45, 50)
        cv2.rectangle(img, p(0.12, 0.34), p(0.62, 0.43), dark, -1)  # the barrel
        cv2.rectangle(img, p(0.12, 0.3), p(0.16, 0.34), dark, -1)  # the front sight
        cv2.rectangle(img, p(0.5, 0.3), p(0.74, 0.52), dark, -1)  # cylinder and frame
        for x in (0.55, 0.62, 0.69):
            cv2.line(img, p(x, 0.33), p(x, 0.49), (90, 90, 95), max(1, s // 60), cv2.LINE_AA)
        cv2.line(img, p(0.72, 0.3), p(0.8, 0.25), dark, t, cv2.LINE_AA)  # the hammer
        grip = np.array([p(0.64, 0.5), p(0.76, 0.46), p(0.86, 0.8), p(0.72, 0.84)], np.int32)
        cv2.fillConvexPoly(img, grip, (30, 60, 110), cv2.LINE_AA)
        cv2.ellipse(img, p(0.58, 0.55), (int(s * 0.07), int(s * 0.08)), 0, 0, 180, dark,
                    max(1, s // 40), cv2.LINE_AA)  # the trigger guard
        cv2.line(img, p(0.58, 0.52), p(0.56, 0.6), dark, max(1, s // 40), cv2.LINE_AA)
        cv2.circle(img, p(0.22, 0.6), max(2, s // 24), (30, 30, 170), -1, cv2.LINE_AA)
    return img


def _key(img: np.ndarray, s: int, t: int) -> None:
    """An old key: a ring bow with its hole, a shaft, and a bit with two teeth."""
    a = math.radians(-35)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    bow = np.array([0.3, 0.66]) * s

    def q(u: float, v: float) -> tuple[int, int]:  # u along the key from the bow, v across
        x, y = bow + (u * along + v * across) * s
        return int(x), int(y)

    cv2.circle(img, q(0, 0), int(s * 0.15), _BRASS, -1, cv2.LINE_AA)
    cv2.circle(img, q(0, 0), int(s * 0.15), _BRASS_DARK, max(1, t // 2), cv2.LINE_AA)
    cv2.circle(img, q(0, 0), int(s * 0.065), tuple(int(c) for c in img[1, 1]), -1, cv2.LINE_AA)
    shaft = np.array([q(0.12, -0.035), q(0.6, -0.035), q(0.6, 0.035), q(0.12, 0.035)])
    cv2.fillConvexPoly(img, shaft.astype(np.int32), _BRASS, cv2.LINE_AA)
    for u0, u1 in ((0.44, 0.5), (0.54, 0.6)):
        tooth = np.array([q(u0, 0.03), q(u1, 0.03), q(u1, 0.17), q(u0, 0.17)])
        cv2.fillConvexPoly(img, tooth.astype(np.int32), _BRASS, cv2.LINE_AA)
    cv2.polylines(img, [shaft.astype(np.int32)], True, _BRASS_DARK, max(1, t // 2),
                  cv2.LINE_AA)


def family2_material(img: np.ndarray, kind: str, style: Style) -> np.ndarray:
    """A face (``kind``: a letter, "X" or "back") made of the style's material: cork's fine
    speckles, marble's soft veins, or parchment's blotches darkening towards the edges. Each
    darkens what lies on it, so the print stays over it, as printed on the material."""
    s = img.shape[0]
    rng = np.random.default_rng(name_seed("family2", style.name, kind, s))
    y = np.linspace(-1, 1, s, dtype=np.float32)[:, None]
    x = np.linspace(-1, 1, s, dtype=np.float32)[None, :]
    if style.material is Material.CORK:
        grains = cv2.GaussianBlur(rng.random((s, s)).astype(np.float32), (0, 0), 0.6)
        dark = np.clip((grains - 0.55) * 8, 0, 1)  # a speck wherever the noise runs high
        light = np.clip((0.42 - grains) * 6, 0, 1)
        brown = np.array((0.5, 0.32, 0.15), np.float32)  # loses blue first: brown specks
        gain = 1 - dark[:, :, None] * brown + 0.08 * light[:, :, None]
        return np.asarray(np.clip(img * gain, 0, 255).astype(np.uint8))
    if style.material is Material.MARBLE:  # two to four veins meandering across the face
        swirl = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (s, s),
                           interpolation=cv2.INTER_CUBIC)
        kink = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (s, s),
                          interpolation=cv2.INTER_CUBIC)
        a = rng.uniform(0, math.pi)
        phase = ((x * math.cos(a) + y * math.sin(a)) * rng.uniform(0.9, 1.5)
                 + 0.35 * swirl + 0.06 * kink + rng.uniform(0, 1))
        vein = np.exp(-(np.sin(phase * math.pi) ** 2) / 0.004)
        vein = cv2.GaussianBlur(vein.astype(np.float32), (0, 0), max(0.8, s / 90))
        cloud = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (s, s),
                           interpolation=cv2.INTER_CUBIC)
        gain = 1 - 0.3 * vein + 0.03 * cloud
        return np.asarray(np.clip(img * gain[:, :, None], 0, 255).astype(np.uint8))
    if style.material is Material.PARCHMENT:
        blotch = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (s, s),
                            interpolation=cv2.INTER_CUBIC)
        edge = np.clip(np.maximum(np.abs(x), np.abs(y)) - 0.6, 0, 1) / 0.4
        yellow = np.array((0.86, 0.96, 1.0), np.float32)  # paper yellows: blue fades first
        gain = (1 - 0.05 * blotch - 0.22 * edge ** 2)[:, :, None] * yellow
        return np.asarray(np.clip(img * gain, 0, 255).astype(np.uint8))
    return img


__all__ = ["FAMILY2_BACKS", "FAMILY2_MATERIALS", "FAMILY2_VICTIMS", "family2_back",
           "family2_material", "family2_victim"]
