"""The table scene: the table plane, a tilted camera, hand-laid tiles with their shadows, a
hand reaching in, and the camera's faults (uneven light, glare, blur, noise, JPEG)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.games.moerder.board import CELLS, SIZE, Board, Tile
from vision.synth.faces import rounded_mask, tile_face
from vision.synth.family2_scene import FAMILY2_TABLES
from vision.synth.family_scene import FAMILY_TABLES, gloss, lens, room_light
from vision.synth.patterned import PATTERNED_TABLES
from vision.synth.styles import (RESOLUTIONS, Colour, Layout, Lens, Light, Material, Style,
                                  Table)
from vision.synth.truth import Truth


def _table(size: tuple[int, int], style: Style, rng: np.random.Generator) -> np.ndarray:
    return table_cloth(size, style.table, style.table_colour, rng)


def table_cloth(size: tuple[int, int], kind: Table, colour: Colour,
                rng: np.random.Generator) -> np.ndarray:
    """A table top (wood, plain or cloth) of ``size``: shared by every renderer that puts
    something on a table, so tiles and dice lie on the same kinds of surface."""
    w, h = size
    base = np.array(colour, np.float32)
    paint = FAMILY_TABLES.get(kind) or PATTERNED_TABLES.get(kind) or FAMILY2_TABLES.get(kind)
    if paint is not None:
        painted: np.ndarray = np.clip(paint(w, h, base, rng), 0, 255).astype(np.uint8)
        return painted
    sw, sh = max(8, w // 8), max(8, h // 8)
    if kind is Table.WOOD:
        y = np.linspace(0, 1, sh, dtype=np.float32)[:, None]
        x = np.linspace(0, 1, sw, dtype=np.float32)[None, :]
        wobble = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (sw, sh))
        freq = rng.uniform(25, 45)
        grain = np.sin((y + 0.04 * wobble + 0.02 * x) * freq * math.pi)
        field = 0.85 + 0.15 * grain + 0.04 * rng.normal(0, 1, (sh, sw)).astype(np.float32)
        if rng.random() < 0.5:
            field = field.T.copy()
            field = cv2.resize(field, (sw, sh))
    elif kind is Table.CLOTH:
        field = 1 + 0.06 * rng.normal(0, 1, (sh, sw)).astype(np.float32)
    else:
        field = np.ones((sh, sw), np.float32)
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_CUBIC)
    img = field[:, :, None] * base[None, None, :]
    if kind is Table.CLOTH:
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    out: np.ndarray = np.clip(img, 0, 255).astype(np.uint8)
    return out


def _camera(size: tuple[int, int], canvas: tuple[int, int], rng: np.random.Generator,
            grid_corners: np.ndarray, tilt: float) -> np.ndarray:
    """A homography canvas -> image: a camera tilted by ``tilt`` degrees, turned a little,
    with the grid framed inside the image."""
    w, h = size
    cw, ch = canvas
    f = float(max(w, h))
    k = np.array([[f, 0, cw / 2], [0, f, ch / 2], [0, 0, 1]])
    direction = rng.uniform(0, 2 * math.pi)
    ax, ay = math.radians(tilt) * math.cos(direction), math.radians(tilt) * math.sin(direction)
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    yaw = math.radians(rng.uniform(-8, 8))
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0],
                   [0, 0, 1]])
    h0 = k @ rz @ rx @ ry @ np.linalg.inv(k)
    pts = cv2.perspectiveTransform(grid_corners.reshape(-1, 1, 2).astype(np.float64), h0)
    pts = pts.reshape(-1, 2)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    frac = rng.uniform(0.55, 0.85)
    scale = min(frac * h / (hi[1] - lo[1]), 0.92 * w / (hi[0] - lo[0]))
    span = (hi - lo) * scale
    room = np.array([w, h]) - span
    off = room * np.array([rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75)]) - lo * scale
    s = np.array([[scale, 0, off[0]], [0, scale, off[1]], [0, 0, 1]])
    out: np.ndarray = s @ h0
    return out


def make_layout(style: Style, seed: int, size: tuple[int, int] | None = None, *,
                tilt: float | None = None, jitter: float = 0.07, spin: float = 6.0,
                glare: bool | None = None, blur: float | None = None,
                jpeg: int | None = None) -> Layout:
    """Draw a scene from ``seed``: camera, tile positions and turns, light and camera faults.

    ``jitter`` (fraction of a tile) and ``spin`` (degrees) bound how sloppily tiles lie;
    the other keywords pin what the seed would otherwise choose.
    """
    rng = np.random.default_rng(seed)
    if size is None:
        size = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
    w, h = size
    tile = int(rng.integers(90, 130))
    # gaps vary between rows and between columns, and from tile to tile
    gap_base = rng.uniform(0.03, 0.16) * tile
    col_gaps = gap_base * rng.uniform(0.6, 1.4, SIZE - 1)
    row_gaps = gap_base * rng.uniform(0.6, 1.4, SIZE - 1)
    xs = np.concatenate([[0.0], np.cumsum(tile + col_gaps)])
    ys = np.concatenate([[0.0], np.cumsum(tile + row_gaps)])
    span = max(xs[-1], ys[-1]) + tile
    cw = ch = int(span * 2.2)
    origin = (cw - (xs[-1] + tile)) / 2, (ch - (ys[-1] + tile)) / 2
    centres = np.array([[origin[0] + xs[c] + tile / 2, origin[1] + ys[r] + tile / 2]
                        for r in range(SIZE) for c in range(SIZE)])
    centres += rng.uniform(-jitter, jitter, (CELLS, 2)) * tile
    angles = rng.uniform(-spin, spin, CELLS)
    turns = tuple(int(t) * 90 for t in rng.integers(0, 4, CELLS))
    gx0, gy0 = origin
    gx1, gy1 = origin[0] + xs[-1] + tile, origin[1] + ys[-1] + tile
    grid = np.array([[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]])
    tilt_deg = float(rng.uniform(0, 20)) if tilt is None else tilt
    hom = _camera(size, (cw, ch), rng, grid, tilt_deg)
    light = rng.uniform(0.65, 1.15, (3, 4)).astype(np.float32)
    glare_on = bool(rng.random() < 0.3) if glare is None else glare
    g = None
    if glare_on:
        gc = cv2.perspectiveTransform(centres[int(rng.integers(CELLS))].reshape(1, 1, 2), hom)
        g = (float(gc[0, 0, 0]), float(gc[0, 0, 1]), float(rng.uniform(0.03, 0.08) * w),
             float(rng.uniform(0.5, 0.9)))
    return Layout(
        size=(w, h),
        canvas=(cw, ch),
        homography=hom,
        tile=tile,
        centres=centres,
        angles=angles,
        turns=turns,
        light=light,
        glare=g,
        blur=float(rng.uniform(0, 1.4)) if blur is None else blur,
        noise=float(rng.uniform(1, 5)),
        jpeg=int(rng.integers(55, 96)) if jpeg is None else jpeg,
        seed=seed,
    )


def _tile_corners(layout: Layout, i: int) -> np.ndarray:
    """Corners TL, TR, BR, BL of tile ``i`` in canvas px."""
    half = layout.tile / 2
    a = math.radians(layout.angles[i])
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    out: np.ndarray = local @ rot.T + layout.centres[i]
    return out


def _paste(canvas: np.ndarray, face: np.ndarray, mask: np.ndarray, corners: np.ndarray) -> None:
    """Warp a square face onto its four canvas corners, blending by ``mask``."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    side = face.shape[0]
    src = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners - [x0, y0]).astype(np.float32))
    roi = canvas[y0:y1, x0:x1]
    size = (roi.shape[1], roi.shape[0])
    warped = cv2.warpPerspective(face, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    alpha = alpha[:, :, None]
    roi[:] = (warped * alpha + roi * (1 - alpha)).astype(np.uint8)


def _shade(canvas: np.ndarray, corners: np.ndarray, depth: float) -> None:
    """A soft shadow under a tile (the light comes from the upper left)."""
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 12
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 12
    roi = canvas[y0:y1, x0:x1]
    mask = np.zeros(roi.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, (corners - [x0, y0] + depth).astype(np.int32), 1.0, cv2.LINE_AA)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), depth * 0.8 + 0.5), np.float32)
    roi[:] = (roi * (1 - 0.45 * soft[:, :, None])).astype(np.uint8)


def _hand(img: np.ndarray, rng: np.random.Generator, target: np.ndarray) -> None:
    """Draw a hand and forearm reaching from the nearest image edge towards ``target``."""
    h, w = img.shape[:2]
    tx, ty = target
    edges = [(tx, -0.2 * h), (tx, 1.2 * h), (-0.2 * w, ty), (1.2 * w, ty)]
    dists = [ty, h - ty, tx, w - tx]
    sx, sy = edges[int(np.argmin(dists))]
    sx += rng.uniform(-0.2, 0.2) * w
    d = np.array([tx - sx, ty - sy], float)
    d /= np.linalg.norm(d) + 1e-9
    n = np.array([-d[1], d[0]])
    width = rng.uniform(0.07, 0.1) * max(w, h)
    skin = np.array([rng.uniform(90, 160), rng.uniform(120, 180), rng.uniform(170, 235)])
    mask = np.zeros((h, w), np.uint8)
    arm = np.array([[sx, sy] + n * width / 2, [sx, sy] - n * width / 2,
                    [tx, ty] - n * width * 0.45, [tx, ty] + n * width * 0.45], np.int32)
    cv2.fillConvexPoly(mask, arm, 255, cv2.LINE_AA)
    cv2.ellipse(mask, (int(tx), int(ty)), (int(width * 0.7), int(width * 0.55)),
                math.degrees(math.atan2(d[1], d[0])), 0, 360, 255, -1, cv2.LINE_AA)
    for k in range(4):
        off = (k - 1.5) * width * 0.3
        base = np.array([tx, ty]) + n * off + d * width * 0.4
        tip = base + d * width * rng.uniform(0.7, 1.1)
        cv2.line(mask, tuple(base.astype(int)), tuple(tip.astype(int)), 255,
                 int(width * 0.2), cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32) / 255
    small = cv2.resize(mask, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    small = np.roll(small, (int(width * 0.3 / 8), int(width * 0.3 / 8)), (0, 1))
    small = cv2.GaussianBlur(small, (0, 0), max(1.0, width * 0.2 / 8))
    shadow = cv2.resize(small, (w, h)).astype(np.float32) / 255
    out = img.astype(np.float32) * (1 - 0.5 * shadow[:, :, None])
    shading = 0.8 + 0.25 * cv2.GaussianBlur(rng.normal(0, 1, (h // 16 + 1, w // 16 + 1)),
                                            (0, 0), 2).astype(np.float32)
    shade = np.asarray(cv2.resize(shading, (w, h)), np.float32)[:, :, None]
    skin_img = skin[None, None, :] * shade
    out = out * (1 - soft[:, :, None]) + skin_img * soft[:, :, None]
    img[:] = np.clip(out, 0, 255).astype(np.uint8)


def _spoil(img: np.ndarray, layout: Layout, rng: np.random.Generator) -> np.ndarray:
    return spoil(img, rng, light=layout.light, glare=layout.glare, blur=layout.blur,
                 noise=layout.noise, jpeg=layout.jpeg)


def spoil(img: np.ndarray, rng: np.random.Generator, *, light: np.ndarray,
          glare: tuple[float, float, float, float] | None, blur: float, noise: float,
          jpeg: int) -> np.ndarray:
    """Uneven light (``light``: a low-res gain field), glare (x, y, radius, strength), blur,
    noise and JPEG: what a cheap camera does to a table, whatever lies on it."""
    h, w = img.shape[:2]
    gain = cv2.resize(light, (w, h), interpolation=cv2.INTER_CUBIC)
    out = img.astype(np.float32) * gain[:, :, None]
    if glare is not None:
        gx, gy, gr, gs = glare
        yy, xx = np.ogrid[:h, :w]
        blob = np.exp(-((xx - gx) ** 2 + ((yy - gy) * 1.4) ** 2) / (2 * gr**2)).astype(np.float32)
        out += (255 * gs) * blob[:, :, None]
    if blur > 0.2:
        out = np.asarray(cv2.GaussianBlur(out, (0, 0), blur), np.float32)
    out += rng.normal(0, noise, (h, w, 1)).astype(np.float32)
    img8 = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    assert ok
    return np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR))


def render_table(board: Board, style: Style, seed: int, *, layout: Layout | None = None,
                 hand: bool = False, frame: int = 0,
                 size: tuple[int, int] | None = None) -> tuple[np.ndarray, Truth]:
    """A BGR photo of ``board`` laid out as ``layout`` (drawn from ``seed`` if not given).

    ``frame`` varies only the sensor noise (and the hand), so frames of one game differ the
    way consecutive camera frames do.
    """
    if layout is None:
        layout = make_layout(style, seed, size)
    rng = np.random.default_rng([layout.seed, frame, 1 if hand else 0])
    table_rng = np.random.default_rng([layout.seed, 7])
    canvas = _table(layout.canvas, style, table_rng)
    side = layout.tile
    mask = rounded_mask(side, style.radius)
    corners_all = np.array([_tile_corners(layout, i) for i in range(CELLS)])
    depth = max(2.0, side * 0.04)
    for i in range(CELLS):
        _shade(canvas, corners_all[i], depth)
    for i, tile in enumerate(board.cells):
        kind = "back" if tile is None else tile.value
        face = tile_face(kind, side, style, layout.turns[i] if tile is not None else 0)
        _paste(canvas, face, mask, corners_all[i])
    room_rng = np.random.default_rng([layout.seed, 11])  # the lamp stays put during a game
    if style.material is Material.GLOSSY:
        gloss(canvas, corners_all, side, room_rng)
    img = cv2.warpPerspective(canvas, layout.homography, layout.size, flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REFLECT)
    tiles = cv2.perspectiveTransform(corners_all.reshape(-1, 1, 2), layout.homography)
    tiles = tiles.reshape(CELLS, 4, 2)
    if hand:
        grid_c = tiles.reshape(-1, 2).mean(axis=0)
        target = grid_c + rng.uniform(-0.25, 0.25, 2) * (tiles[35, 2] - tiles[0, 0])
        _hand(img, rng, target)
    if style.light != Light():
        img = room_light(img, style.light, room_rng)
    if style.lens != Lens():
        img, seen = lens(img, tiles.reshape(-1, 2), style.lens)
        tiles = seen.reshape(CELLS, 4, 2)
    img = _spoil(img, layout, rng)
    rotations = tuple(
        layout.turns[i] if (t is not None and t is not Tile.VICTIM) else 0
        for i, t in enumerate(board.cells)
    )
    corners = np.array([tiles[0, 0], tiles[SIZE - 1, 1], tiles[CELLS - 1, 2],
                        tiles[CELLS - SIZE, 3]])
    return img, Truth(board, rotations, corners, tiles, style.name, hand)


def random_board(rng: np.random.Generator, face_up: int | None = None) -> Board:
    """A board as a real game could show it: ``face_up`` tiles turned (random if None)."""
    pool = [t for t, n in ((Tile.M, 7), (Tile.OE, 7), (Tile.R, 7), (Tile.D, 7), (Tile.E, 7),
                           (Tile.VICTIM, 1)) for _ in range(n)]
    rng.shuffle(pool)
    n = int(rng.integers(0, CELLS + 1)) if face_up is None else face_up
    shown = set(rng.permutation(CELLS)[:n].tolist())
    return Board(tuple(pool[i] if i in shown else None for i in range(CELLS)))

