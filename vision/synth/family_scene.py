"""The held-out family's scene: table tops (felt, a checked cloth, planks), a glossy tile's
reflection of the lamp, the room's light (a colour cast, a gradient, a hard spot) and the
lens (barrel distortion, vignetting, defocus). The lamp and the lens stay put during a game:
what they draw comes from the layout's seed, not from the frame."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.synth.styles import Lens, Light, Table

def _felt(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    mottle = cv2.resize(rng.normal(0, 1, (12, 12)).astype(np.float32), (w, h),
                        interpolation=cv2.INTER_CUBIC)
    fibres = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
    return np.asarray(base * (1 + 0.05 * mottle + 0.12 * fibres)[:, :, None])


def _checked(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    period = w / rng.uniform(14, 24)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    band_x = (np.sin(xx / period * 2 * math.pi) > 0).astype(np.float32)
    band_y = (np.sin(yy / period * 2 * math.pi) > 0).astype(np.float32)
    cover = cv2.GaussianBlur((band_x + band_y) / 2, (0, 0), 1.2)
    white = np.array((235, 240, 240), np.float32)
    img = white * (1 - cover[:, :, None]) + base * cover[:, :, None]
    img += rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    return np.asarray(img)


def _planks(w: int, h: int, base: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    plank = w / rng.uniform(5, 9)
    x = np.arange(w, dtype=np.float32)
    which = (x // plank).astype(int)
    tone = rng.uniform(0.8, 1.15, which.max() + 1).astype(np.float32)[which]
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    wobble = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (w, h))
    grain = np.sin((x[None, :] / plank + 0.05 * wobble + 0.02 * y) * 9 * math.pi)
    field = tone[None, :] * (0.9 + 0.1 * grain)
    seam = np.abs((x + plank / 2) % plank - plank / 2) < max(1.5, w / 600)
    field[:, seam] *= 0.35
    return np.asarray(base * field[:, :, None])


# the family's table tops (felt, a checked cloth, planks): (width, height, colour, rng) -> image
FAMILY_TABLES = {Table.FELT: _felt, Table.CHECKED: _checked, Table.PLANKS: _planks}


def gloss(canvas: np.ndarray, corners: np.ndarray, tile: int,
          rng: np.random.Generator) -> None:
    """The lamp mirrored in glossy tiles: one bright patch over a few tiles, on the tiles
    only (the table is matt), strong enough to wash out the print under it."""
    mask = np.zeros(canvas.shape[:2], np.uint8)
    for quad in corners:
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255, cv2.LINE_AA)
    lo, hi = corners.reshape(-1, 2).min(axis=0), corners.reshape(-1, 2).max(axis=0)
    cx, cy = lo + rng.uniform(0.15, 0.85, 2) * (hi - lo)
    r = tile * rng.uniform(0.6, 1.3)
    x0, y0 = int(max(0, cx - 3 * r)), int(max(0, cy - 3 * r))
    x1, y1 = int(min(canvas.shape[1], cx + 3 * r)), int(min(canvas.shape[0], cy + 3 * r))
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    blob = np.exp(-(((xx - cx) / 1.6) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    strength = 255 * rng.uniform(0.55, 0.85)
    on = mask[y0:y1, x0:x1].astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1].astype(np.float32) + (strength * blob * on)[:, :, None]
    canvas[y0:y1, x0:x1] = np.clip(roi, 0, 255).astype(np.uint8)


def room_light(img: np.ndarray, light: Light, rng: np.random.Generator) -> np.ndarray:
    """The room's light on the whole view: a colour cast, a gradient from one side, and a
    lamp's hard-edged circle (brighter inside, darker round it)."""
    h, w = img.shape[:2]
    gain = np.ones((h, w), np.float32)
    if light.gradient:
        a = rng.uniform(0, 2 * math.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        t = (xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)
        t = (t - t.min()) / max(1e-6, float(t.max() - t.min()))
        gain *= 1 - light.gradient * t
    if light.spot:
        spot = np.zeros((h, w), np.float32)
        centre = (int(w * rng.uniform(0.3, 0.7)), int(h * rng.uniform(0.3, 0.7)))
        cv2.circle(spot, centre, int(max(w, h) * rng.uniform(0.22, 0.35)), 1.0, -1, cv2.LINE_AA)
        soft = np.asarray(cv2.GaussianBlur(spot, (0, 0), max(1.0, w / 400)), np.float32)
        gain *= (1 - 0.6 * light.spot) + 1.6 * light.spot * soft
    out = img.astype(np.float32) * gain[:, :, None] * np.array(light.cast, np.float32)
    return np.asarray(np.clip(out, 0, 255).astype(np.uint8))


def lens(img: np.ndarray, points: np.ndarray, lens: Lens) -> tuple[np.ndarray, np.ndarray]:
    """The image through ``lens``, and where ``points`` (N, 2), image px, land in it."""
    h, w = img.shape[:2]
    out = img
    if lens.barrel:
        out, points = _barrel(out, points, lens.barrel)
    if lens.vignette:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
        gain = 1 - lens.vignette * r2
        out = np.clip(out.astype(np.float32) * gain[:, :, None], 0, 255).astype(np.uint8)
    if lens.defocus:
        radius = max(1, int(round(lens.defocus * w)))
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
        kernel = disk.astype(np.float32) / float(disk.sum())
        out = cv2.filter2D(out, -1, kernel, borderType=cv2.BORDER_REFLECT)
    return np.asarray(out), points


def _barrel(img: np.ndarray, points: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
    """Barrel distortion: a point at radius r (a share of the half diagonal) is seen at the
    radius r' with r' (1 + k r'^2) = r, so the view's edges bow outwards."""
    h, w = img.shape[:2]
    c = np.array([w / 2, h / 2], np.float32)
    half = float(np.hypot(w / 2, h / 2))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = xx - c[0], yy - c[1]
    f = 1 + k * (dx * dx + dy * dy) / (half * half)
    out = cv2.remap(img, c[0] + dx * f, c[1] + dy * f, cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REFLECT)
    u = points.astype(np.float64) - c
    d = u.copy()
    for _ in range(30):  # r' = r / (1 + k r'^2), a contraction for the small k of a lens
        d = u / (1 + k * (d * d).sum(axis=1, keepdims=True) / (half * half))
    return np.asarray(out), d + c
