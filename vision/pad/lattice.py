"""A found table, flattened and cut into cells: its lines traced, its cells' corners, merges.

The table's quad is warped flat by one homography (a little beyond it, so the frame is
inside). What a homography cannot flatten (a curled or bent card, a line ruled by hand) is
left to the lines themselves: each is first found where much of a stretch of the table is
line (:mod:`vision.pad.peaks`), then traced strip by strip as a polyline, so every cell's
corners are where *its* lines cross, not where a straight grid would put them. A line
missing between two crossings (a title row spanning the width) merges the cells on either
side.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.pad.find import INK, line_masks, paper_ink, tables_in, top_to_bottom
from vision.pad.squared import print_lines
from vision.pad.peaks import places

MAX_SIDE = 1400  # px: the flat table's long side at most (a phone photo is not read at 12 MP)
MARGIN = 0.03  # of the long side, kept around the found quad
WHOLE = 0.8  # of a flat quad's area: a table found again there that large is the same table
STRIP_PX = 45  # a line is traced in strips about this wide
EDGE_SHARE = 0.2  # a line between two crossings is printed when this share of it is ink
LINE_COVER = 0.85  # a grid line covers this share of the span between two others
SAMPLES = 30  # points looked at along each span: a row of words has gaps between letters
MEAN_COVER = 0.8  # ...or covers this share of all spans together
SIDE_PX = 5  # paper this far either side of a line
SAME_PX = 4  # two traced lines closer than this are one
JUMP_PX = 4  # a strip this far off its line's smooth course took a stroke beside the line
PEN_INK = 0.28  # ink map level of a pen stroke's own pixel (not a line's blurred edge)
PEN_CHROMA = 20.0  # (Cr, Cb) strength of a pen's colour at least: blue ballpoints 50-70
PEN_STRONGER = 3.0  # ...and this many times the lines' mean around, or of another hue:
PEN_HUE_COS = 0.5  # cosine of the angle between its hue and the lines' at most (60 degrees)
PEN_WINDOW = 81  # px of the flat table: the stretch of lines whose mean is the print's colour
PEN_MIN_PX = 200  # dark line pixels needed to know the print's colour


@dataclass(frozen=True)
class Lattice:
    """The flat table and its lines.

    ``corners[r, c]`` is where horizontal line r crosses vertical line c (flat px);
    ``h_edge[r, c]`` says line r is printed between columns c and c+1, ``v_edge[r, c]``
    says line c is printed between rows r and r+1. ``to_photo`` maps flat px to the photo.
    """

    ink: np.ndarray
    lines: np.ndarray  # uint8 mask of the grid lines' pixels
    corners: np.ndarray
    h_edge: np.ndarray
    v_edge: np.ndarray
    to_photo: np.ndarray

    @property
    def rows(self) -> int:
        return int(self.corners.shape[0]) - 1

    @property
    def cols(self) -> int:
        return int(self.corners.shape[1]) - 1

    def turned(self, shape: tuple[int, ...], quarters: int) -> Lattice:
        """The same lattice in the photo (of ``shape``) turned ``quarters`` times as
        ``np.rot90`` turns it: rows and columns traded or in the other order, so each cell
        is cut turned with the photo. The lines are the ones traced already; tracing the
        turned photo again cost a whole table's tracing."""
        lat = self
        for _ in range(quarters % 4):
            h, w = shape[:2]
            turn = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, w - 1.0], [0.0, 0.0, 1.0]])
            lat = Lattice(lat.ink, lat.lines, np.rot90(lat.corners).copy(),
                          np.rot90(lat.v_edge).copy(), np.rot90(lat.h_edge).copy(),
                          turn @ lat.to_photo)
            shape = (w, h)
        return lat

    def photo_corners(self) -> np.ndarray:
        """The table's outer corners in the photo: TL, TR, BR, BL."""
        c = self.corners
        flat = np.array([c[0, 0], c[0, -1], c[-1, -1], c[-1, 0]], np.float32)
        return np.asarray(cv2.perspectiveTransform(flat.reshape(-1, 1, 2), self.to_photo)
                          ).reshape(4, 2)


def flatten(gray: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(flat gray, homography flat -> photo): the quad warped to a rectangle at about the
    photo's own resolution, capped at ``MAX_SIDE``."""
    q = quad.astype(np.float64)
    w = float(max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[3])))
    h = float(max(np.linalg.norm(q[3] - q[0]), np.linalg.norm(q[2] - q[1])))
    k = min(1.0, MAX_SIDE / max(w, h))
    w, h = w * k, h * k
    m = MARGIN * max(w, h)
    dst = np.array([[m, m], [m + w, m], [m + w, m + h], [m, m + h]], np.float32)
    to_flat = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    size = (round(w + 2 * m), round(h + 2 * m))
    flat = cv2.warpPerspective(gray, to_flat, size, flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(flat), np.linalg.inv(to_flat)


def _run_centre(window: np.ndarray, expected: float) -> float:
    """Where the line crosses a strip: the centre of the run of line pixels nearest where
    the line was found, among the runs at least half as strong as the strongest pixel. A
    digit's bar or a printed word that survives the opening beside the line is a run of its
    own, not a weight pulling the line's centre off it (nor, being a little stronger in one
    strip, the line itself)."""
    on = np.zeros(len(window) + 2, np.int8)
    on[1:-1] = window >= 0.5 * window.max()
    edges = np.flatnonzero(on[1:] != on[:-1])
    starts, stops = edges[::2], edges[1::2]
    k = int(np.argmin(np.abs((starts + stops - 1) / 2 - expected)))  # the first of a tie
    a, b = int(starts[k]), int(stops[k])
    w = window[a:b]
    return float(a + (w * np.arange(len(w))).sum() / w.sum())


def _trace(mask: np.ndarray, found: list[int], reach: list[int] | None = None,
           mend: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Each line (rows of ``mask``; columns are along it) as positions at strip centres:
    (centres, positions[line, strip]). A strip where the line is not printed takes its
    neighbours' course. In each strip a line is looked for 0.4 of the way to the next one
    found (or as far as ``reach`` says for each) from where the strip before found it
    (:func:`_follow`); ``mend`` takes strips far off the line's smooth course again,
    nearest where the course says the line is."""
    n = max(3, round(mask.shape[1] / STRIP_PX))
    edges = np.linspace(0, mask.shape[1], n + 1).round().astype(int)
    centres = (edges[:-1] + edges[1:]) / 2.0
    gaps = np.diff(found) if len(found) > 1 else np.array([mask.shape[0]])
    pos = np.full((len(found), n), np.nan)
    sums = np.add.reduceat(mask, edges[:-1], axis=1, dtype=np.float64)  # every strip at once
    profs = list((sums / np.diff(edges)).T)  # each strip's mean across, row by row
    spans = []
    for i, p in enumerate(found):
        near = min(gaps[max(0, i - 1)], gaps[min(len(gaps) - 1, i)])
        r = max(2, int(0.4 * near)) if reach is None else reach[i]
        spans.append((min(r, p), min(r, mask.shape[0] - 1 - p)))  # px before and after p
    for i, (p, (before, after)) in enumerate(zip(found, spans)):
        pos[i] = _follow(profs, p, before, after)
    for i, (before, after) in enumerate(spans if mend else []):
        for k, expected in _off_course(centres, pos[i]):
            again = _near(profs[k], expected, before, after)
            pos[i, k] = np.nan if again is None else again
    for i, p in enumerate(found):
        ok = ~np.isnan(pos[i])
        pos[i] = np.interp(centres, centres[ok], pos[i, ok]) if ok.any() else p
    return centres, pos


def _follow(profs: list[np.ndarray], p: int, before: int, after: int) -> np.ndarray:
    """One line's position in every strip (NaN where it is not printed), followed from the
    strip where it is strongest at ``p`` outwards, each strip looked at around where the
    last one found it (``before`` and ``after`` px, :func:`_near`): a curled card's line
    drifts across the table by more than the 0.4 of a row it is looked for in, and looked
    for around ``p`` everywhere, the far strips found nothing or took the next line."""
    n = len(profs)
    out = np.full(n, np.nan)
    start = int(np.argmax([prof[p] for prof in profs]))
    for ks in (range(start, n), range(start - 1, -1, -1)):
        at = float(p) if np.isnan(out[start]) else float(out[start])
        for k in ks:
            found = _near(profs[k], at, before, after)
            if found is not None:
                out[k] = at = found
    return out


def _near(prof: np.ndarray, at: float, before: int, after: int) -> float | None:
    """Where a line crosses a strip (the run nearest ``at``), looked for from ``before`` px
    above ``at`` to ``after`` px below it; None where nothing there is a line."""
    a = max(0, int(round(at)) - before)
    window = prof[a:max(a, int(round(at)) + after + 1)]
    if not window.size or window.max() < 0.3:
        return None
    return a + _run_centre(window, at - a)


def _off_course(centres: np.ndarray, pos: np.ndarray) -> list[tuple[int, float]]:
    """Strips where a trace left its line for a stroke beside it, with where the line should
    be: a line bends smoothly (a curled card is near a parabola, a hand-ruled wobble is a
    px or two), so the strips furthest off a parabola are dropped one at a time while one
    is more than ``JUMP_PX`` off. A stroke is beside the line for a strip or two; when more
    than a quarter of the strips are off, the parabola is wrong (a sharper bend) and the
    trace stands."""
    ok = np.flatnonzero(~np.isnan(pos))
    dropped: list[int] = []
    while len(ok) > 4:
        fit = np.polyfit(centres[ok], pos[ok], 2)
        off = np.abs(np.polyval(fit, centres[ok]) - pos[ok])
        worst = int(np.argmax(off))
        if off[worst] <= JUMP_PX:
            break
        dropped.append(int(ok[worst]))
        ok = np.delete(ok, worst)
    if not dropped or len(dropped) > max(1, len(pos) // 4):
        return []
    fit = np.polyfit(centres[ok], pos[ok], 2)
    return [(k, float(np.polyval(fit, centres[k]))) for k in dropped]


def _second_look(mask: np.ndarray, binary: np.ndarray, found: list[int], pos: np.ndarray,
                 keep: np.ndarray, cuts: list[float]) -> np.ndarray:
    """The grid lines, with those the first trace lost traced again. A row of words between
    two lines is a peak too, so a line was looked for only 0.4 of the way to it, and a line
    ruled by hand wanders further than that: it was traced off its course and not taken as
    printed. Each such peak is traced once more as far as 0.4 of the way to the lines that
    were taken, and kept if it is printed and not a line already kept; if it is still not
    printed, once more with the strips that left its course taken again (``mend``).
    Only a line that would be lost is mended: a kept line's trace is never moved."""
    kept = [f for f, k in zip(found, keep) if k]
    if keep.all() or len(kept) < 2:
        taken: np.ndarray = pos[keep]
        return taken
    lost = [f for f, k in zip(found, keep) if not k]
    reach = [max(2, int(0.4 * min(abs(f - q) for q in kept))) for f in lost]
    centres, again = _trace(mask, lost, reach)
    printed = _printed(mask, binary, centres, again, cuts)
    if not printed.all():  # a stroke beside the line took the trace in a strip or two
        _, mended = _trace(mask, lost, reach, mend=True)
        redo = ~printed & _printed(mask, binary, centres, mended, cuts)
        again[redo], printed = mended[redo], printed | redo
    lines = np.concatenate([pos[keep], again[printed]])
    lines = lines[np.argsort(np.median(lines, axis=1))]
    out: np.ndarray = lines[_distinct(lines)]
    return out


def _distinct(pos: np.ndarray) -> np.ndarray:
    """Lines that are not another line traced twice: a tilted or curled line spreads its
    profile's peak, which can show two maxima a few px apart; traced, both follow the
    same ink."""
    keep = np.ones(len(pos), bool)
    for i in range(1, len(pos)):
        j = int(np.flatnonzero(keep[:i])[-1])
        if float(np.median(np.abs(pos[i] - pos[j]))) < SAME_PX:
            keep[i] = False
    return keep


def _half_width(binary: np.ndarray, along: np.ndarray, p: np.ndarray) -> int:
    """Half a line's thickness (px, the median over its course): a felt-pen line ruled by
    hand or a phone's close-up is several times thicker than a printed hairline, and its
    sides must be looked at beyond its own ink."""
    reach = 24
    rows = np.clip(np.round(p).astype(int)[:, None] + np.arange(-reach, reach + 1)[None, :],
                   0, binary.shape[0] - 1)
    on = binary[rows, along[:, None]] > 0
    up = np.argmin(on[:, reach::-1], axis=1)  # ink run from the centre up
    down = np.argmin(on[:, reach:], axis=1)
    full = on[:, reach]
    width = np.where(full, up + down - 1, 0)
    return int(np.median(width[full])) // 2 if full.any() else 0


def _printed(mask: np.ndarray, binary: np.ndarray, centres: np.ndarray, pos: np.ndarray,
             cuts: list[float]) -> np.ndarray:
    """Which traced lines are grid lines: printed across at least half of the spans between
    the crossing lines ``cuts`` (and across two of them at least). A row of printed text or
    a handwritten stroke is a run inside one cell; a grid line runs on through its walls.
    A line is thin, with paper on either side; a row of small printed words filling narrow
    cells is not, so ink on both sides of it along most of its course drops it."""
    thick = cv2.dilate(mask, np.ones((3, 1), np.uint8))  # a px off the trace, not beside
    a, b = np.array(cuts[:-1])[:, None], np.array(cuts[1:])[:, None]
    t = a + (b - a) * np.linspace(0.15, 0.85, SAMPLES)[None, :]  # points inside each span
    ti = np.clip(np.round(t).astype(int), 0, mask.shape[1] - 1)
    w = np.concatenate([a + (b - a) * [0.03, 0.06], b - (b - a) * [0.03, 0.06]], axis=1)
    wi = np.clip(np.round(w).astype(int), 0, mask.shape[1] - 1)  # just inside the walls
    spans = len(cuts) - 1
    keep = np.zeros(len(pos), bool)
    for i in range(len(pos)):
        p = np.interp(t, centres, pos[i])
        pi = np.clip(np.round(p).astype(int), 0, mask.shape[0] - 1)
        cover = (thick[pi, ti] > 0).mean(axis=1)
        printed = int((cover >= LINE_COVER).sum())
        pw = np.clip(np.round(np.interp(w, centres, pos[i])).astype(int), 0, mask.shape[0] - 1)
        walls = float((thick[pw, wi] > 0).mean())
        along = np.arange(0, mask.shape[1], 3)
        p = np.interp(along, centres, pos[i])
        d = SIDE_PX + _half_width(binary, along, p)
        sides = [binary[np.clip(np.round(p + e).astype(int), 0, mask.shape[0] - 1), along]
                 for e in (-d, d)]
        crowded = float((sides[0] & sides[1]).mean()) > 0.25
        # most spans all but whole; or nearly whole on the whole and running on to the
        # walls, where digits written across it broke one span of a narrow table (a
        # struck box's stroke and a label beside it stop short of the walls)
        along_most = printed >= max(min(2, spans), 0.5 * spans)
        nearly = printed and float(cover.mean()) >= MEAN_COVER and walls >= LINE_COVER
        keep[i] = (along_most or nearly) and not crowded
    return keep


def _cross(hc: np.ndarray, hy: np.ndarray, vc: np.ndarray, vx: np.ndarray) -> np.ndarray:
    """Where each horizontal polyline (y at x = hc) crosses each vertical one (x at y = vc)."""
    x = np.tile(np.median(vx, axis=1), (len(hy), 1))  # [row line, column line]
    y = np.zeros_like(x)
    for _ in range(3):  # each crossing: along the row line, then along the column line
        for r in range(len(hy)):
            y[r] = np.interp(x[r], hc, hy[r])
        for c in range(len(vx)):
            x[:, c] = np.interp(y[:, c], vc, vx[c])
    return np.stack([x, y], axis=-1)


def _edges(h: np.ndarray, v: np.ndarray, corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which stretches of line between neighbouring crossings are printed."""
    hd = cv2.dilate(h, np.ones((3, 3), np.uint8))
    vd = cv2.dilate(v, np.ones((3, 3), np.uint8))
    t = np.linspace(0.2, 0.8, 12)[:, None]

    def share(mask: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """For every stretch a -> b at once (..., 2 arrays): its share of line pixels."""
        p = np.round(a[..., None, :] + (b - a)[..., None, :] * t).astype(int)
        x = np.clip(p[..., 0], 0, mask.shape[1] - 1)
        y = np.clip(p[..., 1], 0, mask.shape[0] - 1)
        out: np.ndarray = (mask[y, x] > 0).mean(axis=-1)
        return out

    h_edge = share(hd, corners[:, :-1], corners[:, 1:]) >= EDGE_SHARE
    v_edge = share(vd, corners[:-1, :], corners[1:, :]) >= EDGE_SHARE
    return h_edge, v_edge


def _line_pixels(h: np.ndarray, v: np.ndarray, hc: np.ndarray, hy: np.ndarray,
                 vc: np.ndarray, vx: np.ndarray, thick: int) -> np.ndarray:
    """The grid lines' own pixels: line-mask pixels near a traced line, so a long struck
    stroke inside a cell is never taken for a line and erased; near enough for a line
    ``thick`` px thick (a felt pen's line on a phone photo) to go whole, not leave its
    edges behind as an outline in every cell."""
    band = np.zeros(h.shape, np.uint8)
    width = max(5, round(max(h.shape) / 160), thick)
    for ys in hy:
        pts = np.stack([hc, ys], axis=1)
        pts = np.vstack([[0, ys[0]], pts, [h.shape[1] - 1, ys[-1]]])
        cv2.polylines(band, [np.round(pts).astype(np.int32)], False, 1, width)
    near_h = band.copy()
    band[:] = 0
    for xs in vx:
        pts = np.stack([xs, vc], axis=1)
        pts = np.vstack([[xs[0], 0], pts, [xs[-1], v.shape[0] - 1]])
        cv2.polylines(band, [np.round(pts).astype(np.int32)], False, 1, width)
    lines: np.ndarray = (near_h & np.asarray(cv2.dilate(h, np.ones((3, 3), np.uint8)))) | (
        band & np.asarray(cv2.dilate(v, np.ones((3, 3), np.uint8))))
    return lines


def lattices(gray: np.ndarray, quad: np.ndarray, colour: np.ndarray | None = None
             ) -> list[Lattice]:
    """The lattice of the table found in ``quad``, none when its lines do not make a cell;
    on squared paper, the lattice of each table inside it. The paper's print, faint at the
    finder's scale but one grid with the tables, can join a sheet's two tables into one, or
    a table to the page around it; with the print taken out, the tables are looked for
    again in the flat quad and each is traced on its own. ``colour`` as for :func:`build`."""
    flat, to_photo = flatten(gray, quad)
    ink = paper_ink(flat)
    if _unprinted(ink):
        inner = tables_in(ink)
        found = cv2.perspectiveTransform(quad.reshape(-1, 1, 2).astype(np.float64),
                                         np.linalg.inv(to_photo)).astype(np.float32)
        if inner and not (len(inner) == 1 and cv2.contourArea(
                inner[0].astype(np.float32)) >= WHOLE * cv2.contourArea(found)):
            pts = [cv2.perspectiveTransform(q.reshape(-1, 1, 2), to_photo).reshape(4, 2)
                   for q in inner]
            lats = [lat for q in pts if (lat := build(gray, q, colour)) is not None]
            return top_to_bottom(lats, Lattice.photo_corners)
    lat = _lattice(ink, to_photo, colour)
    return [] if lat is None else [lat]


def build(gray: np.ndarray, quad: np.ndarray, colour: np.ndarray | None = None
          ) -> Lattice | None:
    """The table's lattice, or None when its lines do not make at least one cell.
    ``colour``: the photo in colour (BGR), to tell a pen's ink on a line from the print."""
    flat, to_photo = flatten(gray, quad)
    ink = paper_ink(flat)
    _unprinted(ink)
    return _lattice(ink, to_photo, colour)


def _unprinted(ink: np.ndarray) -> bool:
    """Whether a flat table's ink map is on squared paper; its print is then taken out of
    it (in place), so the lines, the cells and the marks in them are all as on plain paper."""
    paper = print_lines(ink)
    if paper is not None:
        ink[paper] = 0.0
    return paper is not None


def _lattice(ink: np.ndarray, to_photo: np.ndarray, colour: np.ndarray | None
             ) -> Lattice | None:
    """The lattice of a flat table's ink map."""
    binary = (ink > INK).astype(np.uint8)
    fh, fw = binary.shape
    h, v = line_masks(binary, max(15, round(fw / 20)), 3, max(15, round(fh / 20)))
    m = round(MARGIN * max(fw, fh))
    min_gap = max(8, round(0.02 * max(fw, fh)))  # rows of a 40-row sheet are 2.5 %
    rows = places(h[:, m:fw - m], min_gap)
    cols = places(v[m:fh - m, :].T, min_gap)
    if len(rows) < 2 or len(cols) < 2:
        return None
    hc, hy = _trace(h, rows)
    vc, vx = _trace(v.T, cols)
    one_h, one_v = _distinct(hy), _distinct(vx)
    rows = [r for r, k in zip(rows, one_h) if k]
    cols = [c for c, k in zip(cols, one_v) if k]
    hy, vx = hy[one_h], vx[one_v]
    cuts = [float(np.median(y)) for y in hy]
    keep = _printed(v.T, binary.T, vc, vx, cuts)
    vx = _second_look(v.T, binary.T, cols, vx, keep, cuts)
    if len(vx) < 2:
        return None
    cuts = [float(np.median(x)) for x in vx]
    keep = _printed(h, binary, hc, hy, cuts)
    hy = _second_look(h, binary, rows, hy, keep, cuts)
    if len(hy) < 2:
        return None
    corners = _cross(hc, hy, vc, vx)
    h_edge, v_edge = _edges(h, v, corners)
    while True:  # an outer line nothing crosses to reach (a page's edge) is not the table's
        if len(hy) > 2 and not v_edge[0].any():
            hy, corners, h_edge, v_edge = hy[1:], corners[1:], h_edge[1:], v_edge[1:]
        elif len(hy) > 2 and not v_edge[-1].any():
            hy, corners, h_edge, v_edge = hy[:-1], corners[:-1], h_edge[:-1], v_edge[:-1]
        elif len(vx) > 2 and not h_edge[:, 0].any():
            vx, corners, h_edge, v_edge = vx[1:], corners[:, 1:], h_edge[:, 1:], v_edge[:, 1:]
        elif len(vx) > 2 and not h_edge[:, -1].any():
            vx, corners = vx[:-1], corners[:, :-1]
            h_edge, v_edge = h_edge[:, :-1], v_edge[:, :-1]
        else:
            break
    along = np.arange(0, fw, 9)
    thick = 2 * int(np.median([_half_width(binary, along, np.interp(along, hc, y)) for y in hy]))
    lines = _line_pixels(h, v, hc, hy, vc, vx, thick + 1)
    if colour is not None and colour.ndim == 3 and colour.shape[2] >= 3:
        lines[_pen_on(lines, ink, colour[..., :3], to_photo, ink.shape)] = 0
    return Lattice(ink, lines, corners, h_edge, v_edge, to_photo)


def _pen_on(lines: np.ndarray, ink: np.ndarray, colour: np.ndarray, to_photo: np.ndarray,
            shape: tuple[int, ...]) -> np.ndarray:
    """The line pixels a pen's ink covers, told by colour: a line is printed in one colour
    along its length, and ink of a clearly other one (a blue or red pen on a black or grey
    line, a blue pen on a red line) is the writing's. The base of a 2 written low lies along
    the cell's bottom line; taken out with the line, the 2 reads as a 7. The print's colour
    is the mean of the dark line pixels around (``PEN_WINDOW``: a table may print its outer
    lines black and its inner ones in colour); only dark pixels count (the ink's own, not a
    line's blurred edge on tinted paper); a pen of the line's own hue is not told from it.
    The colours are taken from the photo at the line pixels alone, the mean on a coarse
    grid: a tenth of the time of flattening the photo in colour."""
    out = np.zeros(shape[:2], bool)
    at = np.flatnonzero((lines > 0).ravel() & (ink.ravel() > PEN_INK))
    if at.size < PEN_MIN_PX:
        return out
    ys, xs = np.divmod(at, shape[1])
    flat = np.stack([xs, ys], axis=1).astype(np.float32).reshape(-1, 1, 2)
    photo = np.round(cv2.perspectiveTransform(flat, to_photo).reshape(-1, 2)).astype(np.intp)
    np.clip(photo, 0, [colour.shape[1] - 1, colour.shape[0] - 1], out=photo)
    # (Cr, Cb), grey at 0: a colour's hue and strength, on a scale near Lab's a and b (not
    # Lab itself: OpenCV sets up its Lab tables on first use, some 150 ms of a one-off read)
    seen = colour[photo[:, 1], photo[:, 0]].astype(np.float32).reshape(-1, 1, 3)
    ab = cv2.cvtColor(seen, cv2.COLOR_BGR2YCrCb)[:, 0, 1:] - 0.5  # a float's grey is 0.5
    cell = PEN_WINDOW // 5
    gh, gw = shape[0] // cell + 1, shape[1] // cell + 1
    where = (ys // cell) * gw + xs // cell
    sums = [cv2.boxFilter(np.bincount(where, w, gh * gw).reshape(gh, gw).astype(np.float32),
                          -1, (5, 5), normalize=False, borderType=cv2.BORDER_CONSTANT
                          ).ravel()[where] for w in (ab[:, 0], ab[:, 1], None)]
    local = np.stack(sums[:2], axis=1) / np.maximum(sums[2], 1.0)[:, None]
    chroma, print_chroma = np.hypot(*ab.T), np.hypot(*local.T)
    cos = (ab * local).sum(axis=1) / np.maximum(chroma * print_chroma, 1e-6)
    # the mean takes in the pen's own pixels: on a grey line a pen is still several times
    # as coloured as the mean around it, where a coloured line's own pixels are not
    pen = (chroma > PEN_CHROMA) & ((chroma > PEN_STRONGER * print_chroma) | (cos < PEN_HUE_COS))
    out.ravel()[at[pen]] = True
    return out


__all__ = ["Lattice", "build", "flatten", "lattices"]
