"""Where a frame's grid lies, checked against the reference frame of the same view, and the
frame cut into its cells.

A lattice can be found that is not the tiles' (a patterned cloth, a glazed table's squares):
the reference frame (all tiles face down, the camera where it was) tells which grid is the
tiles', because the tiles turned since lie in it and it cuts the reference into alike backs.
Both the single-photo read and the table's reader of a game use these checks.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from companion.games.moerder.board import CELLS, SIZE
from vision.grid import Grid, GridNotFound, Steps, crop_tile, finish, looking
from vision.grid.model import WORK_SIDE
from vision.grid.turned import squares_of_change, windows_round
from vision.stable import Turned
from vision.tiles import FaceModel, TileReader, TileSettings
from vision.tiles.appearance import Look, looks
from vision.tiles.faces import cut_elsewhere, model_from_looks

CROP = 64  # px of a tile crop for reading
CROP_MARGIN = 0.04
# share of the change since the reference frame a grid must hold (140 train and bench
# renders: the right grid holds 0.67-1.0 of it; a lattice in the cloth beside the tiles none)
TURNED_INSIDE = 0.5
# the frame is searched this far (a share of their extent) round the turned tiles: a grid's
# border rows may all lie face down still
TURNED_MARGIN = 0.25
# the share of the ring of places round a window (those in view) that may look like its back
# before the window is taken for a piece of a lattice that runs on (a table's own squares)
RING_ALIKE = 0.35
_RING = [(r, c) for r in range(-1, SIZE + 1) for c in range(-1, SIZE + 1)
         if r in (-1, SIZE) or c in (-1, SIZE)]


def crops_of(image: np.ndarray, grid: Grid, cells: list[int] | range | None = None,
             ) -> list[np.ndarray]:
    idx = range(CELLS) if cells is None else cells
    return [crop_tile(image, grid, i // SIZE, i % SIZE, CROP, CROP_MARGIN) for i in idx]


def checked_grid(image: np.ndarray, reference: np.ndarray, tiles: TileReader) -> Grid:
    """The frame's grid, checked against the reference frame of the same game (the camera
    stays put), and the reference learned with it (:func:`checking`, done at once). Raises
    :class:`GridNotFound` when neither shows a grid."""
    found = finish(checking(image, reference, tiles))
    if found is None:
        raise GridNotFound("no 6x6 grid of tiles found, in the frame or the reference")
    return found


def checking(image: np.ndarray, reference: np.ndarray, tiles: TileReader,
             ) -> Steps[Grid | None]:
    """:func:`checked_grid` one fit a step (up to three locates: the table makes one fit a
    frame). The tiles turned since the reference lie in the grid, and the grid cuts the
    reference into alike backs. When the frame shows no grid, or one away from the turned
    tiles (a lattice in a patterned cloth beside them, whose squares are alike too), the
    grid found round the turned tiles is taken if it passes both and its window ends in the
    reference (:func:`bounded`), else the reference's own grid if it passes both, else the
    one round the turned tiles after all, else the lattice of the turned tiles themselves
    (:func:`placed_by_turned`). When no grid holds the turned tiles there is none (a
    cloth's lattice is no grid of tiles, however well it fits). ``tiles`` learns only in
    the last step."""
    g = yield from looking(image)
    turned = Turned.between(image, reference)
    if g is not None and holds(turned, g):
        used, backs = yield from _reference_grid(reference, tiles, fallback=g)
        return used if backs and used is not g and holds(turned, used) else g
    # where else the grid may be: the frame's grid found only round the tiles turned since (a
    # table with squares of its own, brighter under a lamp than the tiles, can hold a better
    # lattice than they; the tiles' own lies where they turned), taken at once when the
    # reference shows its window ends (a lattice of the table's squares runs on); else the
    # reference's own grid; else the one round the turned tiles after all
    kept: tuple[Grid, _Backs] | None = None  # the grid round the turned tiles, the reference cut
    box = turned.box(TURNED_MARGIN) if turned is not None else None
    if box is not None:
        x0, y0, x1, y1 = box
        found = yield from looking(image[y0:y1, x0:x1])
        if found is not None and holds(turned, near := found.moved(x0, y0)):
            cut = _backs(reference, near, tiles.settings)
            kept = (near, cut) if cut.alike else None
    if kept is not None and bounded(reference, kept[0], kept[1].seen, kept[1].back,
                                    tiles.settings):
        tiles.learn_reference(kept[1].crops, kept[1].back)
        return kept[0]
    other = yield from looking(reference)
    if other is not None and holds(turned, other) and learn_alike(reference, tiles, other):
        return other
    if kept is not None:
        tiles.learn_reference(kept[1].crops, kept[1].back)
        return kept[0]
    placed = yield from placed_by_turned(image, reference, tiles.settings)
    if placed is not None and holds(turned, placed[0]):
        tiles.learn_reference(placed[1].crops, placed[1].back)
        return placed[0]
    return None  # a grid the tiles turned since do not lie in is not theirs: better none


def proving(frame: np.ndarray, reference: np.ndarray, tiles: TileReader,
            ) -> Steps[Grid | None]:
    """The grid one fit a step, each on the frame sent (``frame`` first), if it cuts the
    reference into alike backs (then ``tiles`` learns them, in the last step)."""
    g = yield from looking(frame, follow=True)
    return g if g is not None and learn_alike(reference, tiles, g) else None


def holds(turned: Turned | None, grid: Grid) -> bool:
    """Does ``grid`` hold the tiles turned since the reference (or nothing turned)?"""
    share = turned.inside(grid.corners) if turned is not None else None
    return share is None or share >= TURNED_INSIDE


def learn_back(reference: np.ndarray, tiles: TileReader, fallback: Grid | None = None) -> Grid:
    """Teach ``tiles`` the back, and each cell's own look, from a frame where all 36 tiles lie
    face down; returns the grid the reference was cropped with.

    The reference is cropped with ``fallback`` (the grid of a frame of the same table) when
    that grid cuts it into 36 alike backs: the camera has not moved, the same cell then covers
    the same pixels in both frames (what the cell-by-cell comparison needs), and the back
    learned from those crops is the one the reader needs anyway, so the reference is not
    located at all. Otherwise it is located by itself; ``fallback`` is still used when both
    grids lie in the same place, or when face-down tiles alone (the hardest grid to find: no
    face-up tile stands out) give no grid.
    """
    return finish(_reference_grid(reference, tiles, fallback))[0]


def learn_alike(reference: np.ndarray, tiles: TileReader, grid: Grid) -> bool:
    """Teach ``tiles`` the reference cut with ``grid`` if it cuts it into alike backs."""
    cut = _backs(reference, grid, tiles.settings)
    if cut.alike:
        tiles.learn_reference(cut.crops, cut.back)
    return cut.alike


def _reference_grid(reference: np.ndarray, tiles: TileReader, fallback: Grid | None,
                    ) -> Steps[tuple[Grid, bool]]:
    """:func:`learn_back` one fit a step, and whether its grid cuts the reference into alike
    backs. Each grid's crops and their looks are measured once, whether learned or not."""
    tried = None
    if fallback is not None:
        tried = _backs(reference, fallback, tiles.settings)
        if tried.alike:
            tiles.learn_reference(tried.crops, tried.back)
            return fallback, True
    g = yield from looking(reference)
    if g is None and fallback is None:
        raise GridNotFound("no 6x6 grid of tiles found in the reference frame")
    if fallback is not None and (g is None or same_view(g, fallback)):
        g = fallback
    assert g is not None
    cut = (tried if g is fallback and tried is not None
           else _backs(reference, g, tiles.settings))
    tiles.learn_reference(cut.crops, cut.back)
    return g, cut.alike


class _Backs(NamedTuple):
    crops: list[np.ndarray]
    back: FaceModel
    alike: bool
    seen: list[Look]  # the crops' looks, measured once


def _backs(reference: np.ndarray, grid: Grid, settings: TileSettings) -> _Backs:
    """The reference cut with ``grid``, the back learned from those crops, and whether they
    all show that one face (a face-down grid, cropped where it lies): not when some cells
    show something else (the grid does not fit this frame), nor when they are alike only as
    pieces of patterned tiles, each cut in another place."""
    crops = crops_of(reference, grid)
    seen = looks(crops, settings)
    model = model_from_looks(seen, settings)
    alike = sum(model.distance(lk) < settings.back_sure for lk in seen) >= len(crops) - 1
    return _Backs(crops, model, alike and not cut_elsewhere(seen, settings), seen)


def placed_by_turned(image: np.ndarray, reference: np.ndarray, settings: TileSettings,
                      ) -> Steps[tuple[Grid, _Backs] | None]:
    """The grid on the lattice of the tiles turned since the reference, one window a step:
    of the windows holding them, the one cutting the reference into alike backs whose ring
    looks least like them, when no other does as well. Dark backs on dark felt cut alike
    wherever a window lies (the felt is as dark), so alikeness alone cannot place it; but a
    window a row off has a row of backs in its ring."""
    turned = Turned.between(image, reference, side=WORK_SIDE)
    if turned is None:
        return None
    best: list[tuple[float, Grid, _Backs]] = []
    for g in windows_round(squares_of_change(turned.mask, turned.scale)):
        yield
        cut = _backs(reference, g, settings)
        share = _ring_alike(reference, g, cut.seen, cut.back, settings) if cut.alike else None
        if share is not None and share <= RING_ALIKE:
            best.append((share, g, cut))
    best.sort(key=lambda b: b[0])
    if not best or (len(best) > 1 and best[1][0] == best[0][0]):
        return None  # two windows fit as well: the reference cannot tell
    return best[0][1], best[0][2]


def bounded(reference: np.ndarray, grid: Grid, cells: list[Look], back: FaceModel,
            settings: TileSettings) -> bool:
    """Does the window end in the reference: do few places of the ring round it (those in
    view) look as much like its back as its own ``cells`` (the looks of the reference cut
    with ``grid``) do? A lattice of a table's own squares (glazed tiles) runs on past any
    6x6 window of it, its ring as alike as its cells; the game's tiles lie on a table that
    is not their back.
    Under a dim lamp dark backs and a dark table both lie within the back's sure distance,
    so the ring is held to the cells' own spread. True when too little of the ring is in
    view to tell."""
    return _ring_alike(reference, grid, cells, back, settings) <= RING_ALIKE


def _ring_alike(reference: np.ndarray, grid: Grid, cells: list[Look], back: FaceModel,
                settings: TileSettings) -> float:
    """The share of the ring's places in view that look as much like the back as the
    window's ``cells`` do (0 when too little of the ring is in view to tell)."""
    h, w = reference.shape[:2]
    places = [(r, c) for r, c in _RING if _in_view(grid.cell_quad(r, c), w, h)]
    if len(places) < SIZE:
        return 0.0
    ring = [crop_tile(reference, grid, r, c, CROP, CROP_MARGIN) for r, c in places]
    spread = float(np.quantile([back.distance(lk) for lk in cells], 0.9))
    return sum(back.distance(lk) <= spread for lk in looks(ring, settings)) / len(places)


def _in_view(quad: np.ndarray, w: int, h: int) -> bool:
    return bool(np.all((quad >= 0) & (quad < (w, h))))


def same_view(a: Grid, b: Grid, tolerance: float = 0.15) -> bool:
    """Do two located grids cover the same place (within ``tolerance`` of a cell pitch)?"""
    pitch = float(np.linalg.norm(a.corners[1] - a.corners[0])) / SIZE
    return float(np.abs(a.corners - b.corners).max()) < tolerance * pitch


__all__ = ["CROP", "TURNED_INSIDE", "TURNED_MARGIN", "bounded", "checked_grid", "checking",
           "crops_of", "holds", "learn_alike", "learn_back", "placed_by_turned", "proving",
           "same_view"]
