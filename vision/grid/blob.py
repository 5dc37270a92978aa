"""The last look of locating: tiles laid edge to edge merge into one blob, which makes no
squares of its own; its outline is the grid's when its joints fall where a 6x6 lattice
puts them, or when its tiles repeat at the lattice's pitch."""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from companion.games.moerder.board import SIZE

# a blob of tiles laid edge to edge is a 6x6 grid when the joints stand out where its lattice
# puts them: edges this many times those in the cells' middles, or else the mean brightness
# along a row of tiles departing from its run this many times as much as in the middles
JOINT_EDGES = 1.3
JOINT_BRIGHTNESS = 4.0
# ... or the blob's edges repeat at the lattice's pitch: their autocorrelation along each axis
# peaks within this share of a cell of one cell's shift, by this much above its low before
# it (train renders' face-down frames: 6x6 blobs by 0.5 in the median; the same frames cut
# as a 5x5 or 4x4 block stretched over the lattice have no peak there at all)
PITCH_SLACK = 0.12
PITCH_PEAK = 0.1
# a blob outlined by five or six corners is a grid's when four of them make a quad that
# covers it this well (intersection over union)
FOUR_SIDES = 0.9


def whole_grid(mask: np.ndarray, gray: np.ndarray) -> np.ndarray | None:
    """Tiles laid edge to edge merge into one square blob: take its outline as the grid's
    (lattice -> working px), when it is large, four-cornered and filled. Thin lines leave
    the blob first (a cloth's ruled lines, off the table's colour, run out of it)."""
    k = max(3, int(0.015 * min(mask.shape[:2]))) | 1
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    thin = max(3, int(0.02 * min(mask.shape[:2]))) | 1
    closed = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((thin, thin), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    c = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(c)
    if area < 0.05 * mask.size:
        return None
    hull = cv2.convexHull(c)
    approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True).reshape(-1, 2)
    pts = _four_sides(approx.astype(np.float64), c, closed.shape)
    if pts is None or area / cv2.contourArea(pts.astype(np.float32)) < 0.85:
        return None
    rank = np.argsort(pts.sum(axis=1))
    tl, br = pts[rank[0]], pts[rank[-1]]
    mid = pts[rank[1:3]]
    tr, bl = (mid[0], mid[1]) if mid[0, 0] > mid[1, 0] else (mid[1], mid[0])
    sides = [np.linalg.norm(tr - tl), np.linalg.norm(br - tr), np.linalg.norm(bl - br),
             np.linalg.norm(tl - bl)]
    if max(sides) > 1.6 * min(sides):
        return None
    # the blob's edge is the tiles' outer edge: half a gap beyond the outer lattice lines
    g = 0.04
    src = np.array([[g, g], [SIZE - g, g], [SIZE - g, SIZE - g], [g, SIZE - g]], np.float64)
    h: np.ndarray = cv2.getPerspectiveTransform(src.astype(np.float32),
                                                np.array([tl, tr, br, bl], np.float32))
    if not _has_six_lines(gray, h):
        return None
    return h


def _four_sides(outline: np.ndarray, contour: np.ndarray, shape: tuple[int, ...]
                ) -> np.ndarray | None:
    """The blob's quad from its outline's corners: four as they are; with five or six (a
    tile jutting out of a side makes a corner of its own) the four of them whose quad
    covers the blob (``contour``, in an image of ``shape``) best. None for any other
    outline, or when no quad covers the blob as well as ``FOUR_SIDES``."""
    n = len(outline)
    if n == 4:
        return outline
    if n not in (5, 6):
        return None
    blob = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(blob, [contour], -1, 1, cv2.FILLED)
    best, cover = None, FOUR_SIDES
    for k in itertools.combinations(range(n), 4):
        quad = outline[list(k)]
        drawn = np.zeros_like(blob)
        cv2.fillConvexPoly(drawn, np.round(quad).astype(np.int32), 1)
        iou = int(np.count_nonzero(drawn & blob)) / max(1, int(np.count_nonzero(drawn | blob)))
        if iou > cover:
            best, cover = quad, iou
    return best


def _has_six_lines(gray: np.ndarray, h: np.ndarray, px: int = 40) -> bool:
    """Do the joints between tiles fall where a 6x6 lattice puts them? Seen from above,
    the blob's edge profile must peak at every interior lattice line (a 4x4 or 5x5 block
    of the same size peaks elsewhere). Backs printed all over (stripes) have edges
    everywhere; averaged along a whole row of tiles their print evens out, and a joint is
    still a dip or a rise of the mean brightness (:func:`_joints_in_brightness`). Tiles
    laid by hand sit off their lattice lines by more than the profile allows, row by row,
    but still follow one another a pitch apart (:func:`_repeats_at_pitch`)."""
    s = np.diag([1 / px, 1 / px, 1.0])
    top = cv2.warpPerspective(gray, h @ s, (SIZE * px, SIZE * px),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP).astype(np.float32)
    for axis in (0, 1):
        grad = np.abs(cv2.Sobel(top, cv2.CV_32F, 1 - axis, axis, ksize=3))
        if not _peaks_at_lines(grad.mean(axis=axis), px, JOINT_EDGES):
            return _joints_in_brightness(top, px) or _repeats_at_pitch(top, px)
    return True


def _repeats_at_pitch(top: np.ndarray, px: int) -> bool:
    """Do the tiles' edges repeat a cell apart along both axes? Each axis's edges (blurred
    over a tile's jitter and a back's fine print, the light's slow changes taken away) are
    correlated with themselves shifted: a 6x6 block peaks at one cell's shift, a 5x5 or
    4x4 block stretched over the lattice at 1.2 or 1.5 cells."""
    lags = np.arange(int(0.4 * px), int((1 + 2 * PITCH_SLACK) * px) + 2)
    near = np.abs(lags / px - 1) <= PITCH_SLACK
    for dx, dy in ((1, 0), (0, 1)):
        blurred = cv2.GaussianBlur(np.abs(cv2.Sobel(top, cv2.CV_32F, dx, dy, ksize=3)),
                                   (0, 0), px / 8)
        edges: np.ndarray = blurred - cv2.GaussianBlur(blurred, (0, 0), px)
        a = edges if dx else edges.T  # shifted along its rows
        corr = np.array([float((a[:, :-lag] * a[:, lag:]).sum()
                               / max(np.sqrt((a[:, :-lag] ** 2).sum() * (a[:, lag:] ** 2).sum()),
                                     1e-9)) for lag in lags])
        k = int(np.flatnonzero(near)[np.argmax(corr[near])])
        if not (corr[k] >= corr[k - 1] and corr[k] >= corr[k + 1]):
            return False  # the pitch's neighbourhood only slopes: no peak at it
        if corr[k] - float(corr[:k + 1].min()) < PITCH_PEAK:
            return False
    return True


def _peaks_at_lines(profile: np.ndarray, px: int, ratio: float) -> bool:
    """Does ``profile`` (one value per px along an axis) peak at each interior lattice line
    by ``ratio`` over its typical value in the middle of the cells?"""
    lines = [profile[k * px - 2 : k * px + 3].max() for k in range(1, SIZE)]
    mids = [profile[int((k + 0.5) * px) - 2 : int((k + 0.5) * px) + 3].mean()
            for k in range(SIZE)]
    return bool(min(lines) >= ratio * float(np.median(mids)))


def _joints_in_brightness(top: np.ndarray, px: int) -> bool:
    """The joints as departures of the mean brightness along each row and column of tiles
    from its run over half a cell."""
    for axis in (0, 1):
        mean = top.mean(axis=axis)
        run = np.convolve(mean, np.ones(px // 2) / (px // 2), mode="same")
        if not _peaks_at_lines(np.abs(mean - run), px, JOINT_BRIGHTNESS):
            return False
    return True
