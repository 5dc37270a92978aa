"""The printed sheet: the house (rooms, dots, corridors, triangles) and a score track per player.

The SVG is built as text (no drawing library: the sheet is lines, circles and words), in
millimetres on an A4 page; :func:`pdf` turns it into PDF through cairosvg (Debian's
libcairo2). Corridors are drawn as thin curves and also tagged with the same letter in the
corner of both rooms, so a pencil mark over a curve never hides which rooms it joins; the tags
are those of the text format (``str(house)``).
"""

from __future__ import annotations

import logging
import string
from collections.abc import Sequence
from xml.sax.saxutils import escape

from companion.games.search.errors import SearchError
from companion.games.search.house import House
from companion.games.search.house import tags as corridor_tags

_log = logging.getLogger(__name__)

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait, mm
MARGIN = 12.0
TRACK_PER_ROW = 40
# A track has a box for every dot in the house: others' visited rooms stay open, so in the
# best games (solver bench) a player circles most of the house.
FONT = "DejaVu Sans, Liberation Sans, sans-serif"
INK = "#1b1b1b"
CORRIDOR = "#8a5a2b"


def _tags(house: House) -> dict[int, str]:
    """The corridor tags of the text format, in reading order."""
    tags: dict[int, str] = {}
    fresh = corridor_tags()
    for r in house.rooms:
        if r not in tags:
            tags[r] = tags[house.partner[r]] = next(fresh)
    return tags


def _n(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def grid_box(house: House) -> tuple[float, float, float]:
    """Where the house sits on the page: left, top and the side of a room, in mm."""
    width = PAGE_W - 2 * MARGIN - 20  # room for the row triangles and letters
    cell = min(width / house.cols, 120.0 / house.rows, 22.0)
    return MARGIN + 13, MARGIN + 31, cell


def svg(house: House, players: Sequence[str] = ("", "", "", ""), title: str = "") -> str:
    """The whole sheet as an SVG document (A4, millimetres)."""
    if not 1 <= len(players) <= 4:
        raise SearchError(f"a sheet has 1-4 score tracks, not {len(players)}")
    x0, y0, cell = grid_box(house)
    out = [
        *_head(title),
        *_rooms(house, x0, y0, cell),
        *_corridors(house, x0, y0, cell),
        *_dots_and_names(house, x0, y0, cell),
        *_marks(house, x0, y0, cell),
        *_tracks(house, players, y0 + house.rows * cell + 8),
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def _head(title: str) -> list[str]:
    """The page, its heading and the rules in four lines."""
    return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(PAGE_W)}mm" '
        f'height="{_n(PAGE_H)}mm" viewBox="0 0 {_n(PAGE_W)} {_n(PAGE_H)}" '
        f'font-family="{FONT}" fill="{INK}">',
        f'<rect x="0" y="0" width="{_n(PAGE_W)}" height="{_n(PAGE_H)}" fill="white"/>',
        f'<text x="{_n(MARGIN)}" y="{_n(MARGIN + 5)}" font-size="6" font-weight="bold">'
        f"Search: the haunted house</text>",
        *(
            f'<text x="{_n(MARGIN)}" y="{_n(MARGIN + 10 + 3.6 * i)}" font-size="2.8">'
            f"{escape(line)}</text>"
            for i, line in enumerate(
                (
                    (f"{title} · " if title else "")
                    + "Start: draw two cards, the row triangle then the column triangle.",
                    "Move: through your room's corridor if you have not been there; else through "
                    "a door to a room",
                    "with as many dots as a player's room; never into, or by corridor next to, "
                    "an occupied room.",
                    "Score: farthest track − 5 × (farthest − shortest); above 0 the team wins.",
                )
            )
        ),
    ]


def _rooms(house: House, x0: float, y0: float, cell: float) -> list[str]:
    """The rooms as squares, the house framed."""
    out: list[str] = []
    out.append(f'<g stroke="{INK}" stroke-width="0.35" fill="none">')
    for r in house.rooms:
        row, col = house.cell(r)
        out.append(
            f'<rect x="{_n(x0 + col * cell)}" y="{_n(y0 + row * cell)}" '
            f'width="{_n(cell)}" height="{_n(cell)}"/>'
        )
    out.append(
        f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(cell * house.cols)}" '
        f'height="{_n(cell * house.rows)}" stroke-width="0.9"/>'
    )
    out.append("</g>")
    return out


def _corridors(house: House, x0: float, y0: float, cell: float) -> list[str]:
    """Corridors: a thin curve between the two rooms, bowed so it clears the dots."""
    out: list[str] = []
    out.append(
        f'<g stroke="{CORRIDOR}" stroke-width="0.3" fill="none" stroke-opacity="0.75" '
        'stroke-dasharray="1.2 0.8">'
    )
    for r in house.rooms:
        s = house.partner[r]
        if s < r:
            continue
        (ra, ca), (rb, cb) = house.cell(r), house.cell(s)
        ax, ay = x0 + (ca + 0.5) * cell, y0 + (ra + 0.78) * cell
        bx, by = x0 + (cb + 0.5) * cell, y0 + (rb + 0.78) * cell
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = bx - ax, by - ay
        qx, qy = mx - dy * 0.18, my + dx * 0.18
        out.append(
            f'<path d="M{_n(ax)} {_n(ay)} Q{_n(qx)} {_n(qy)} {_n(bx)} {_n(by)}"/>'
        )
    out.append("</g>")
    out.append(f'<g fill="{CORRIDOR}">')
    for r in house.rooms:
        row, col = house.cell(r)
        cx, cy = x0 + (col + 0.5) * cell, y0 + (row + 0.78) * cell
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="0.55"/>')
    out.append("</g>")
    return out


def _dots_and_names(house: House, x0: float, y0: float, cell: float) -> list[str]:
    """Each room's dots, its corridor tag and its name."""
    out: list[str] = []
    tags = _tags(house)
    radius = cell * 0.075
    for r in house.rooms:
        row, col = house.cell(r)
        cx, cy = x0 + (col + 0.5) * cell, y0 + (row + 0.45) * cell
        d = house.dots[r]
        step = radius * 3.2
        for k in range(d):
            dx = (k - (d - 1) / 2) * step
            out.append(f'<circle cx="{_n(cx + dx)}" cy="{_n(cy)}" r="{_n(radius)}"/>')
        out.append(
            f'<text x="{_n(x0 + col * cell + 0.9)}" y="{_n(y0 + row * cell + 3.2)}" '
            f'font-size="2.9" font-weight="bold" fill="{CORRIDOR}">{tags[r]}</text>'
        )
        out.append(
            f'<text x="{_n(x0 + (col + 1) * cell - 0.8)}" y="{_n(y0 + row * cell + 2.6)}" '
            f'font-size="2" fill="#777" text-anchor="end">{house.name(r)}</text>'
        )
    return out


def _marks(house: House, x0: float, y0: float, cell: float) -> list[str]:
    """The triangles over the columns and left of the rows, with the row and column labels."""
    out: list[str] = []
    for col, mark in enumerate(house.col_marks):
        cx = x0 + (col + 0.5) * cell
        out.append(
            f'<text x="{_n(cx)}" y="{_n(y0 + house.rows * cell + 4)}" font-size="3" '
            f'text-anchor="middle" fill="#777">{col + 1}</text>'
        )
        if mark is not None:
            out.append(_triangle(cx, y0 - 4.2, down=True))
            out.append(
                f'<text x="{_n(cx)}" y="{_n(y0 - 4.6)}" font-size="3.2" font-weight="bold" '
                f'text-anchor="middle" fill="white">{mark}</text>'
            )
    for row, mark in enumerate(house.row_marks):
        cy = y0 + (row + 0.5) * cell
        out.append(
            f'<text x="{_n(x0 + house.cols * cell + 3)}" y="{_n(cy + 1.1)}" font-size="3" '
            f'text-anchor="middle" fill="#777">{string.ascii_uppercase[row]}</text>'
        )
        if mark is not None:
            out.append(_triangle(x0 - 4.2, cy, down=False))
            out.append(
                f'<text x="{_n(x0 - 7.1)}" y="{_n(cy + 1.1)}" font-size="3.2" '
                f'font-weight="bold" text-anchor="middle" fill="white">{mark}</text>'
            )
    return out


def _tracks(house: House, players: Sequence[str], y: float) -> list[str]:
    """A score track per player, ten boxes to a heavy line."""
    out: list[str] = []
    boxes = house.total_dots
    lines = -(-boxes // TRACK_PER_ROW)
    room_left = PAGE_H - MARGIN - y - len(players) * 9
    box = min((PAGE_W - 2 * MARGIN - 12) / TRACK_PER_ROW, room_left / (len(players) * lines))
    for i, name in enumerate(players):
        label = name or f"Player {i + 1}"
        out.append(
            f'<text x="{_n(MARGIN)}" y="{_n(y + 3)}" font-size="3.4" font-weight="bold">'
            f"{escape(label)}</text>"
        )
        out.append(
            f'<line x1="{_n(MARGIN + 30)}" y1="{_n(y + 3.4)}" x2="{_n(MARGIN + 80)}" '
            f'y2="{_n(y + 3.4)}" stroke="#999" stroke-width="0.25"/>'
        )
        y += 5
        out.append(f'<g stroke="{INK}" stroke-width="0.25" fill="none">')
        for b in range(boxes):
            bx = MARGIN + 12 + (b % TRACK_PER_ROW) * box
            by = y + (b // TRACK_PER_ROW) * box
            heavy = ' stroke-width="0.5"' if (b + 1) % 10 == 0 else ""
            out.append(
                f'<rect x="{_n(bx)}" y="{_n(by)}" width="{_n(box)}" height="{_n(box)}"{heavy}/>'
            )
        out.append("</g>")
        out.append('<g font-size="1.5" fill="#888" text-anchor="end">')
        for b in range(boxes):
            bx = MARGIN + 12 + (b % TRACK_PER_ROW) * box
            by = y + (b // TRACK_PER_ROW) * box
            out.append(f'<text x="{_n(bx + box - 0.3)}" y="{_n(by + 1.7)}">{b + 1}</text>')
        out.append("</g>")
        y += lines * box + 4
    if y > PAGE_H:
        _log.warning("the sheet's tracks run %.0f mm past the page", y - PAGE_H)
    return out


def _triangle(cx: float, cy: float, down: bool) -> str:
    s = 3.4
    if down:  # over a column, pointing at it
        pts = [(cx - s, cy - s * 1.2), (cx + s, cy - s * 1.2), (cx, cy + s * 0.6)]
    else:  # left of a row, pointing at it
        pts = [(cx - s * 1.2 - 0.7, cy - s), (cx - s * 1.2 - 0.7, cy + s), (cx + s * 0.6 - 0.7, cy)]
    return (
        '<polygon points="'
        + " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
        + f'" fill="{INK}"/>'
    )
