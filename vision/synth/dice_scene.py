"""The geometry and paint of dice on a table: where the camera is, where dice may land, and
each die drawn as a cube in a pinhole view straight down.

A die's top face lies one die-height nearer the camera, so it looks a little larger than its
footprint and leans away from the point below the camera, which shows the side faces turned
towards that point. Nearer dice are painted last, so they cover their neighbours' sides.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from companion.games.kniffel.dice import Face
from vision.synth.dice_faces import DiceStyle, face_image, light_vector, rounded_alpha
from vision.synth.scene import _hand, spoil, table_cloth
from vision.synth.styles import Table

DEFAULT_SIZE = (1640, 1232)
Point = tuple[float, float]


@dataclass(frozen=True)
class Pose:
    """Where a die lies: centre on the table (px at table level) and clockwise turn."""

    x: float
    y: float
    angle: float


@dataclass(frozen=True, eq=False)
class DiceLayout:
    """What stays put while dice are thrown again and again: camera, table, tray, light.

    Compared by identity: it holds an array, and two layouts are the same table only if
    they are the same object."""

    size: tuple[int, int]
    side: float  # die edge at table level, px
    height: float  # camera above the table, same px (the focal length, seen from the table)
    principal: Point  # the point of the table straight below the camera, image px
    area: tuple[float, float, float, float]  # where die centres may lie: x0, y0, x1, y1
    tray: tuple[int, int, int, int] | None  # tray inside, x0, y0, x1, y1
    light: np.ndarray = field(repr=False)  # low-res gain field: uneven light
    glare: tuple[float, float, float, float] | None = None
    focus: float = 0.0  # Gaussian blur sigma of a soft lens
    noise: float = 2.0
    jpeg: int = 90
    seed: int = 0

    def lift(self, pts: np.ndarray, z: float) -> np.ndarray:
        """Table points raised by ``z`` as the camera sees them: pushed away from the point
        under the camera by the perspective factor H / (H - z)."""
        c = np.asarray(self.principal)
        out: np.ndarray = c + (np.asarray(pts, float) - c) * (self.height / (self.height - z))
        return out

    @property
    def top(self) -> float:
        """Top face side in image px (what the reader sees: 60-110 at 1640 wide)."""
        return self.side * self.height / (self.height - self.side)


def dice_layout(seed: int, size: tuple[int, int] = DEFAULT_SIZE, *,
                tray: bool = False) -> DiceLayout:
    """Camera, dice size, the part of the table the dice land on, and the camera's faults."""
    rng = np.random.default_rng([seed, 202])
    w, h = size
    scale = w / 1640
    height = float(rng.uniform(1500, 2800)) * scale
    top = float(rng.uniform(62, 108)) * scale
    side = top * height / (height + top)  # so that side * H / (H - side) == top
    principal = (w / 2 + float(rng.uniform(-0.12, 0.12)) * w,
                 h / 2 + float(rng.uniform(-0.12, 0.12)) * h)
    k = height / (height - side)
    margin = 0.75 * side * k + (k - 1) * max(w, h) * 0.75 + 4
    inner: tuple[int, int, int, int] | None = None
    if tray:
        tw = min(w * rng.uniform(0.5, 0.72), w - 2 * margin)
        th = min(h * rng.uniform(0.55, 0.78), h - 2 * margin)  # wide frames are low
        tx = margin + rng.uniform(0, 1) * max(0.0, w - 2 * margin - tw)
        ty = margin + rng.uniform(0, 1) * max(0.0, h - 2 * margin - th)
        inner = (int(tx), int(ty), int(tx + tw), int(ty + th))
        pad = 0.75 * side
        area = (tx + pad, ty + pad, tx + tw - pad, ty + th - pad)
    else:
        aw = (w - 2 * margin) * rng.uniform(0.45, 0.95)
        ah = (h - 2 * margin) * rng.uniform(0.45, 0.95)
        ax = margin + rng.uniform(0, 1) * (w - 2 * margin - aw)
        ay = margin + rng.uniform(0, 1) * (h - 2 * margin - ah)
        area = (ax, ay, ax + aw, ay + ah)
    glare = None
    if rng.random() < 0.25:
        glare = (float(rng.uniform(0.2, 0.8) * w), float(rng.uniform(0.2, 0.8) * h),
                 float(rng.uniform(0.04, 0.09) * w), float(rng.uniform(0.2, 0.5)))
    return DiceLayout(
        size=(w, h), side=side, height=height, principal=principal, area=area, tray=inner,
        light=rng.uniform(0.7, 1.15, (3, 4)).astype(np.float32), glare=glare,
        focus=float(rng.uniform(0, 1.0)), noise=float(rng.uniform(1, 4)),
        jpeg=int(rng.integers(70, 96)), seed=seed,
    )


# --------------------------------------------------------------------------------------------
# Placement

_LOCAL = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])  # TL, TR, BR, BL
_NORMALS = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])  # edge i -> i+1


def _rot(angle: float) -> np.ndarray:
    """Clockwise on screen (y points down)."""
    a = math.radians(angle)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def square(pose: Pose, half: float) -> np.ndarray:
    """Corners TL, TR, BR, BL (as the top letter reads) of a die's footprint."""
    out: np.ndarray = (_LOCAL * half) @ _rot(pose.angle).T + [pose.x, pose.y]
    return out


def _apart(a: np.ndarray, b: np.ndarray, gap: float = 0.5) -> bool:
    """Two convex quads are apart when some edge normal separates their projections."""
    for quad in (a, b):
        for i in range(4):
            e = quad[(i + 1) % 4] - quad[i]
            n = np.array([-e[1], e[0]]) / (np.hypot(*e) + 1e-12)
            pa, pb = a @ n, b @ n
            if pa.max() + gap <= pb.min() or pb.max() + gap <= pa.min():
                return True
    return False


def _candidate(rng: np.random.Generator, layout: DiceLayout, placed: list[Pose]) -> Pose:
    """A spot in the landing area, or (a third of the time) one touching a die already there,
    as thrown dice often end up side by side."""
    x0, y0, x1, y1 = layout.area
    if placed and rng.random() < 0.35:
        anchor = placed[int(rng.integers(len(placed)))]
        turn = 0.0 if rng.random() < 0.5 else float(rng.uniform(-4, 4))
        axis = _rot(anchor.angle) @ _NORMALS[int(rng.integers(4))]
        slide = np.array([-axis[1], axis[0]]) * rng.uniform(-0.6, 0.6) * layout.side
        dist = layout.side * (1 + abs(math.sin(math.radians(turn)))) + rng.uniform(0.6, 2.5)
        c = np.array([anchor.x, anchor.y]) + axis * dist + slide
        return Pose(float(c[0]), float(c[1]), (anchor.angle + turn) % 360)
    return Pose(float(rng.uniform(x0, x1)), float(rng.uniform(y0, y1)),
                float(rng.uniform(0, 360)))


def place_dice(count: int, layout: DiceLayout, rng: np.random.Generator,
               fixed: Sequence[Pose] = ()) -> list[Pose]:
    """``count`` new poses inside the landing area that touch but never overlap each other
    or the ``fixed`` dice (those kept from the last throw)."""
    half = layout.side / 2
    placed = list(fixed)
    quads = [square(p, half) for p in placed]
    new: list[Pose] = []
    x0, y0, x1, y1 = layout.area
    for _ in range(count):
        for _attempt in range(2000):
            pose = _candidate(rng, layout, placed)
            if not (x0 <= pose.x <= x1 and y0 <= pose.y <= y1):
                continue
            quad = square(pose, half)
            if all(_apart(quad, q) for q in quads):
                break
        else:
            raise RuntimeError(f"no room for {count} dice in the landing area")
        placed.append(pose)
        quads.append(quad)
        new.append(pose)
    return new


# --------------------------------------------------------------------------------------------
# Drawing


@dataclass(frozen=True)
class PlacedDie:
    """A die as it is to be drawn: the face on top, the faces on its sides (N, E, S, W of
    the top face as the letter reads), where it lies, and its smear if it still moves."""

    face: Face
    sides: tuple[Face, Face, Face, Face]
    pose: Pose
    streak: tuple[float, float] = (0.0, 0.0)  # motion during the exposure, image px


def _outline(pose: Pose, half: float, radius: float) -> np.ndarray:
    """The rounded square's outline at table level (for the die's silhouette)."""
    r = radius * 2 * half
    pts = []
    for (sx, sy), start in zip(_LOCAL, (180, 270, 0, 90), strict=True):
        cx, cy = sx * (half - r), sy * (half - r)
        for t in np.linspace(start, start + 90, 5):
            pts.append((cx + r * math.cos(math.radians(t)), cy + r * math.sin(math.radians(t))))
    out: np.ndarray = np.array(pts) @ _rot(pose.angle).T + [pose.x, pose.y]
    return out


def _blend(dst: np.ndarray, alpha: np.ndarray, src: np.ndarray, a: np.ndarray) -> None:
    """Paint ``src`` over the layer where ``a`` (0..1) covers it; both kept premultiplied."""
    dst[:] = src * a[:, :, None] + dst * (1 - a[:, :, None])
    alpha[:] = np.maximum(alpha, a)


def _side_faces(die: PlacedDie, layout: DiceLayout, style: DiceStyle, origin: np.ndarray,
                shape: tuple[int, int], layer: np.ndarray, alpha: np.ndarray) -> None:
    """The side faces turned towards the camera, each shaded by how it faces the light."""
    half, s = layout.side / 2, layout.side
    inset = style.radius * 0.8
    base = square(die.pose, half)
    light = light_vector(style)
    rot = _rot(die.pose.angle)
    c = np.asarray(layout.principal)
    fw = max(8, int(round(layout.top)))
    for i in range(4):
        a, b = base[i], base[(i + 1) % 4]
        n = rot @ _NORMALS[i]
        if float(n @ (c - (a + b) / 2)) <= 0:
            continue
        a, b = a + (b - a) * inset, b - (b - a) * inset
        quad = np.array([layout.lift(b, s), layout.lift(a, s), a, b]) - origin
        shade = 0.45 + 0.35 * max(0.0, float(n @ light))
        img = face_image(die.sides[i], fw, style).astype(np.float32) * shade
        src = np.array([[0, 0], [fw, 0], [fw, fw], [0, fw]], np.float32)
        m = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        warped = cv2.warpPerspective(img, m, shape, flags=cv2.INTER_LINEAR)
        mask = np.zeros(shape[::-1], np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
        _blend(layer, alpha, warped, mask.astype(np.float32) / 255)


def _draw_die(img: np.ndarray, die: PlacedDie, layout: DiceLayout, style: DiceStyle) -> None:
    """Paint one cube: dark silhouette, lit side faces, the top face; smeared if moving."""
    half, s = layout.side / 2, layout.side
    foot = _outline(die.pose, half, style.radius)
    hull = cv2.convexHull(np.vstack([foot, layout.lift(foot, s)]).astype(np.float32))
    streak = np.asarray(die.streak)
    pad = 3 + int(np.abs(streak).max())
    h, w = img.shape[:2]
    x0, y0 = np.floor(hull.reshape(-1, 2).min(axis=0)).astype(int) - pad
    x1, y1 = np.ceil(hull.reshape(-1, 2).max(axis=0)).astype(int) + pad
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    origin = np.array([x0, y0], float)
    shape = (x1 - x0, y1 - y0)
    layer = np.zeros((shape[1], shape[0], 3), np.float32)
    alpha = np.zeros((shape[1], shape[0]), np.float32)
    body = np.zeros((shape[1], shape[0]), np.uint8)
    pts = np.round((hull.reshape(-1, 2) - origin) * 16).astype(np.int32)
    cv2.fillConvexPoly(body, pts, 255, cv2.LINE_AA, 4)
    dark = np.asarray(style.face, np.float32) * 0.32
    _blend(layer, alpha, np.broadcast_to(dark, layer.shape), body.astype(np.float32) / 255)
    _side_faces(die, layout, style, origin, shape, layer, alpha)
    fw = max(8, int(round(layout.top)))
    face = face_image(die.face, fw, style).astype(np.float32)
    centre = layout.lift(np.array([die.pose.x, die.pose.y]), s) - origin
    lin = _rot(die.pose.angle) * (layout.top / fw)
    m = np.hstack([lin, (centre - lin @ np.array([fw / 2, fw / 2]))[:, None]])
    top = cv2.warpAffine(face, m, shape, flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(rounded_alpha(fw, style.radius), m, shape, flags=cv2.INTER_LINEAR)
    _blend(layer, alpha, top, np.asarray(a, np.float32))
    if np.hypot(*streak) >= 1:
        n = int(np.ceil(np.hypot(*streak))) | 1
        kernel = np.zeros((n, n), np.float32)
        d = streak / np.hypot(*streak) * (n // 2)
        cv2.line(kernel, (int(n // 2 - d[0]), int(n // 2 - d[1])),
                 (int(n // 2 + d[0]), int(n // 2 + d[1])), 1.0, 1, cv2.LINE_AA)
        kernel /= kernel.sum()
        layer = cv2.filter2D(layer, -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = np.clip(layer + roi * (1 - alpha[:, :, None]), 0, 255).astype(np.uint8)


def _shadows(img: np.ndarray, dice: Sequence[PlacedDie], layout: DiceLayout,
             style: DiceStyle) -> None:
    """Soft shadows, long on the side away from the light, drawn at quarter size (they are
    blurry anyway) in one pass over the part of the table the dice lie on."""
    if not dice:
        return
    h, w = img.shape[:2]
    q = 4
    away = -light_vector(style) * layout.side * 0.45
    hulls = []
    for die in dice:
        foot = square(die.pose, layout.side / 2 * 1.02)
        hulls.append(cv2.convexHull(np.vstack([foot, foot + away]).astype(np.float32)))
    pts = np.vstack([hl.reshape(-1, 2) for hl in hulls])
    reach = layout.side * 0.5
    x0, y0 = np.maximum(0, np.floor((pts.min(axis=0) - reach) / q).astype(int) * q)
    x1, y1 = np.minimum([w, h], np.ceil((pts.max(axis=0) + reach) / q).astype(int) * q)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros(((y1 - y0) // q + 1, (x1 - x0) // q + 1), np.float32)
    for hl in hulls:
        cv2.fillConvexPoly(mask, np.round((hl.reshape(-1, 2) - [x0, y0]) / q).astype(np.int32),
                           1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, layout.side * 0.1 / q))
    big = cv2.resize(mask, (mask.shape[1] * q, mask.shape[0] * q),
                     interpolation=cv2.INTER_LINEAR)[: y1 - y0, : x1 - x0]
    roi = img[y0:y1, x0:x1]
    roi[:] = (roi * (1 - np.float32(style.shadow) * big[:, :, None])).astype(np.uint8)


def _table_image(layout: DiceLayout, style: DiceStyle) -> np.ndarray:
    """A fresh copy of the layout's table: the frames of a sequence share one table."""
    return _table_cached(layout.seed, layout.size, layout.tray, layout.side, style).copy()


@lru_cache(maxsize=4)
def _table_cached(seed: int, size: tuple[int, int], tray: tuple[int, int, int, int] | None,
                  side: float, style: DiceStyle) -> np.ndarray:
    """The cloth, and the tray on it if there is one: a wooden rim around a felt lining."""
    rng = np.random.default_rng([seed, 303])
    img = table_cloth(size, style.table, style.table_colour, rng)
    img.setflags(write=False)
    if tray is None:
        return img
    img = img.copy()
    x0, y0, x1, y1 = tray
    rim = max(6, int(side * 0.45))
    h, w = img.shape[:2]
    ox0, oy0, ox1, oy1 = max(0, x0 - rim), max(0, y0 - rim), min(w, x1 + rim), min(h, y1 + rim)
    wood = table_cloth((ox1 - ox0, oy1 - oy0), Table.WOOD, (50, 90, 140), rng)
    img[oy0:oy1, ox0:ox1] = wood
    felt = table_cloth((x1 - x0, y1 - y0), Table.CLOTH, style.felt, rng)
    # the rim's inner wall throws a band of shade onto the felt
    xx = np.arange(x1 - x0, dtype=np.float32)[None, :]
    yy = np.arange(y1 - y0, dtype=np.float32)[:, None]
    edge = np.minimum(np.minimum(xx, x1 - x0 - 1 - xx), np.minimum(yy, y1 - y0 - 1 - yy))
    shade = 0.6 + 0.4 * np.clip(edge / np.float32(rim * 0.8), 0, 1)
    img[y0:y1, x0:x1] = (felt * shade[:, :, None]).astype(np.uint8)
    img.setflags(write=False)
    return img


def render_dice(dice: Sequence[PlacedDie], layout: DiceLayout, style: DiceStyle,
                rng: np.random.Generator, *, hand: bool = False) -> np.ndarray:
    """The photo of ``dice`` on the layout's table; the farthest from the camera's foot are
    painted first, so nearer dice cover the sides of their neighbours as in a real view."""
    img = _table_image(layout, style)
    _shadows(img, dice, layout, style)
    c = np.asarray(layout.principal)
    order = sorted(range(len(dice)),
                   key=lambda i: -float(np.hypot(dice[i].pose.x - c[0], dice[i].pose.y - c[1])))
    for i in order:
        _draw_die(img, dice[i], layout, style)
    if hand and dice:
        centre = np.mean([[d.pose.x, d.pose.y] for d in dice], axis=0)
        _hand(img, rng, centre + rng.uniform(-1.5, 1.5, 2) * layout.side)
    return spoil(img, rng, light=layout.light, glare=layout.glare, blur=layout.focus,
                 noise=layout.noise, jpeg=layout.jpeg)


