"""The printed Wort-Kniffel Gewinnkarte: SVG text, then PDF or PNG through cairosvg.

The page is lines, words and four ArUco markers, so it is written as SVG text (as the search
sheet is) rather than drawn with a library. The markers are OpenCV's own bit patterns
(DICT_4X4_50), drawn cell by cell as squares, so the reader finds exactly what was printed.
Sum rows are tinted only lightly: ink on them must stay as dark against the paper as in
any other box.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np

from vision.kniffel_pad.layout import (
    HEAD_H, LABEL_W, MARKER, PAGE_H, PAGE_W, ROWS, TABLE_LEFT, TABLE_TOP, Layout, PadSheetError,
    marker_origin,
)

DICTIONARY = cv2.aruco.DICT_4X4_50
FONT = "DejaVu Sans, Liberation Sans, sans-serif"
INK = "#1b1b1b"
SUM_TINT = "#f1f1f1"
MAX_NAME = 14


def _n(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def marker_bits(marker_id: int) -> np.ndarray:
    """The marker with its one-cell black border, as a 6x6 array of 0 (black) / 1 (white)."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6, borderBits=1)
    return (np.asarray(img) > 127).astype(np.uint8)


def _marker_svg(marker_id: int, corner: int) -> list[str]:
    x0, y0 = marker_origin(corner)
    bits = marker_bits(marker_id)
    cell = MARKER / bits.shape[0]
    out = []
    for r in range(bits.shape[0]):
        for c in range(bits.shape[1]):
            if bits[r, c] == 0:  # a hair wider, so cairo leaves no seams between cells
                out.append(f'<rect x="{_n(x0 + c * cell)}" y="{_n(y0 + r * cell)}" '
                           f'width="{_n(cell + 0.02)}" height="{_n(cell + 0.02)}" fill="#000"/>')
    return out


def _text(x: float, y: float, text: str, size: float, anchor: str = "start",
          weight: str = "normal") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-family="{FONT}" font-size="{_n(size)}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{INK}">{escape(text)}</text>')


def svg(layout: Layout, players: Sequence[str] = ()) -> str:
    """The whole pad as an SVG document (A4, millimetres)."""
    names = [p.strip()[:MAX_NAME] for p in players] or [f"Spieler {i + 1}"
                                                       for i in range(layout.players)]
    if len(names) != layout.players:
        raise PadSheetError(f"{len(names)} names for {layout.players} players")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(PAGE_W)}mm" height="{_n(PAGE_H)}mm" '
        f'viewBox="0 0 {_n(PAGE_W)} {_n(PAGE_H)}">',
        f'<rect width="{_n(PAGE_W)}" height="{_n(PAGE_H)}" fill="#fff"/>',
        _text(PAGE_W / 2, 18, "Wort-Kniffel · Gewinnkarte", 6.0, "middle", "bold"),
    ]
    for corner, marker_id in enumerate(layout.marker_ids()):
        parts += _marker_svg(marker_id, corner)
    parts += _table(layout, names)
    parts.append("</svg>")
    return "\n".join(parts)


def _table(layout: Layout, names: Sequence[str]) -> list[str]:
    out: list[str] = []
    left, w = TABLE_LEFT, layout.table_w
    top = TABLE_TOP + 2 * HEAD_H
    for row_index, row in enumerate(ROWS):
        x, y, _, h = layout.box(0, row_index)
        if row.is_sum:
            out.append(f'<rect x="{_n(left)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
                       f'fill="{SUM_TINT}"/>')
        weight = "bold" if row.is_sum else "normal"
        out.append(_text(left + 1.5, y + h / 2 + 1.4, row.label, 3.8, weight=weight))
    for column in range(layout.columns):
        game, player = layout.column_of(column)
        x, _, cw, _ = layout.box(column, 0)
        if player == 0:
            out.append(_text(x + cw * layout.players / 2, TABLE_TOP + HEAD_H - 1.6,
                             f"Spiel {game + 1}", 3.6, "middle", "bold"))
        out.append(_text(x + cw / 2, TABLE_TOP + 2 * HEAD_H - 1.6, names[player],
                         min(3.2, 1.9 * cw / max(4, len(names[player]))), "middle"))
    bottom = top + len(ROWS) * layout.box(0, 0)[3]
    line = f'stroke="{INK}" fill="none"'
    for row_index in range(len(ROWS) + 1):
        y = top + row_index * layout.box(0, 0)[3]
        heavy = row_index in (0, 5, 7, 13, len(ROWS))
        out.append(f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + w)}" y2="{_n(y)}" '
                   f'{line} stroke-width="{0.5 if heavy else 0.25}"/>')
    for column in range(layout.columns + 1):
        x = TABLE_LEFT + LABEL_W + column * layout.col_w
        heavy = column % layout.players == 0
        y0 = TABLE_TOP if heavy else TABLE_TOP + HEAD_H
        out.append(f'<line x1="{_n(x)}" y1="{_n(y0)}" x2="{_n(x)}" y2="{_n(bottom)}" '
                   f'{line} stroke-width="{0.5 if heavy else 0.25}"/>')
    out.append(f'<line x1="{_n(left)}" y1="{_n(top)}" x2="{_n(left)}" y2="{_n(bottom)}" '
               f'{line} stroke-width="0.5"/>')
    out.append(f'<line x1="{_n(TABLE_LEFT + LABEL_W)}" y1="{_n(TABLE_TOP)}" '
               f'x2="{_n(left + w)}" y2="{_n(TABLE_TOP)}" {line} stroke-width="0.5"/>')
    return out


def render(document: str, suffix: str, px_per_mm: float = 6.0) -> bytes:
    """The SVG as PDF or PNG bytes (``suffix`` ".pdf" or ".png"), drawn by cairo."""
    import cairosvg  # heavy, and only printing needs it

    data: bytes
    if suffix == ".pdf":
        data = cairosvg.svg2pdf(bytestring=document.encode("utf-8"))
    elif suffix == ".png":
        data = cairosvg.svg2png(bytestring=document.encode("utf-8"),
                                output_width=round(PAGE_W * px_per_mm),
                                output_height=round(PAGE_H * px_per_mm))
    else:
        raise PadSheetError(f"a pad is written as .pdf or .png, not {suffix or 'no suffix'}")
    return data


def page_image(layout: Layout, px_per_mm: float, players: Sequence[str] = ()) -> np.ndarray:
    """The empty pad as a gray image at ``px_per_mm`` (for renders and tests)."""
    png = render(svg(layout, players), ".png", px_per_mm)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    if img is None:  # pragma: no cover - cairo always writes a PNG
        raise PadSheetError("cairo wrote no readable PNG")
    return np.asarray(img)


def write(path: Path, layout: Layout, players: Sequence[str] = ()) -> None:
    path.write_bytes(render(svg(layout, players), path.suffix.lower()))


__all__ = ["DICTIONARY", "marker_bits", "page_image", "render", "svg", "write"]
