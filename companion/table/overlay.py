"""What the camera view draws over a frame: the grid the reader found, or the dice it saw.

A phone shows the picture about 360 px wide, so the lines are drawn after the frame has been
scaled down for sending (a 3 px line on a full-size frame would vanish), and the inner lines
of the 6x6 grid are drawn too: an outline alone does not show a cell read in the wrong place.
"""

from __future__ import annotations

from typing import Any

GRID = 6
WIDTH = 800  # the widest picture sent to the phones
GREEN = (0, 220, 0)
AMBER = (0, 190, 255)  # BGR: a die the reader is unsure of


def scaled(image: Any) -> tuple[Any, float]:
    """The frame at most ``WIDTH`` wide, and the factor it was scaled by."""
    import cv2

    scale = WIDTH / max(image.shape[1], 1)
    if scale >= 1:
        return image.copy(), 1.0
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), scale


def grid_lines(corners: Any) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The 7 + 7 lines of a 6x6 grid whose outer corners are TL, TR, BR, BL (perspective
    kept: each line joins points at the same fraction along opposite edges)."""
    tl, tr, br, bl = (tuple(map(float, p)) for p in corners)

    def along(a: tuple[float, ...], b: tuple[float, ...], f: float) -> tuple[float, float]:
        return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f

    lines = []
    for i in range(GRID + 1):
        f = i / GRID
        lines.append((along(tl, bl, f), along(tr, br, f)))  # a row boundary
        lines.append((along(tl, tr, f), along(bl, br, f)))  # a column boundary
    return lines


def draw(image: Any, reading: Any) -> Any:
    """A copy of ``image``, scaled for the phones, with ``reading`` drawn on it."""
    import cv2

    out, scale = scaled(image)
    corners = getattr(reading, "corners", None)
    if corners is not None and len(corners) == 4:
        for a, b in grid_lines(corners):
            cv2.line(out, _px(a, scale), _px(b, scale), GREEN, 2, cv2.LINE_AA)
    for die in getattr(reading, "dice", ()) or ():
        half = die.size * scale / 2
        x, y = die.center[0] * scale, die.center[1] * scale
        colour = AMBER if die.letter == "?" else GREEN
        cv2.rectangle(out, (round(x - half), round(y - half)), (round(x + half), round(y + half)),
                      colour, 2, cv2.LINE_AA)
    return out


def _px(point: tuple[float, float], scale: float) -> tuple[int, int]:
    return round(point[0] * scale), round(point[1] * scale)
