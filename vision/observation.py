"""From frames to observations: the glue the runtime and the CLI call.

:func:`read_grid` reads one frame (locate, crop, read every cell). :class:`TableReader` is
what the runtime keeps for a game: it gates on a still table, keeps the grid and the back it
learned, and re-reads only the cells that changed since the last stable frame (and those
still open: unsure, or the victim)::

    reader = TableReader.create(profile=None)
    reader.learn_reference(first_frame)        # optional: all 36 tiles face down
    for frame in camera:
        obs = reader.read(frame)                # None while hands move or cover the grid
        if obs is not None and obs.changed:
            ...                                 # obs.grid, obs.cells[i].confidence

A :class:`Profile` (written by ``companion vision teach``) carries a taught letter reader and
the real back and victim faces, so a real tile set is read as well as a rendered one.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.games.moerder.board import CELLS, SIZE, Board, BoardError
from vision import VisionError
from vision.framing import (
    checked_grid,
    checking,
    crops_of,
    holds,
    learn_back,
    placed_by_turned,
    proving,
    same_view,
)
from vision.grid import Grid, GridNotFound, Steps, begun, locate, looking, rectify
from vision.letters import LetterReader
from vision.model_file import load_npz
from vision.stable import Change, Stillness, Turned, compare
from vision.tiles import (
    CellReading,
    CellRef,
    CellState,
    FaceModel,
    TileError,
    TileReader,
    settle_set,
)

RECT_PX = 24  # px per cell of the rectified grid used to spot changes
RECT_BORDER = 12  # px of table kept around it (an arm reaching in shows there)
SETTLE_FRAMES = 15  # still frames after which a covering change is accepted as real
PROFILE_VERSION = 1


class ProfileError(VisionError):
    """A profile file that cannot be read or written."""


@dataclass(frozen=True)
class Observation:
    """What the camera saw on the grid: notation with '?' for unsure cells, per-cell readings
    (row-major), the grid's outer corners (TL, TR, BR, BL, image px) and the time it took."""

    grid: str
    cells: tuple[CellReading, ...]
    corners: tuple[tuple[float, float], ...]
    ms: float
    changed: tuple[int, ...] = field(default=())  # cells (re)read for this observation

    @property
    def unsure(self) -> tuple[int, ...]:
        return tuple(i for i, c in enumerate(self.cells) if c.state is CellState.UNSURE)

    def board(self) -> Board | None:
        """The board, when every cell is sure and the set allows it; else None."""
        if self.unsure:
            return None
        try:
            return Board.parse(self.grid)
        except BoardError:
            return None

    def to_json(self) -> dict[str, object]:
        return {
            "grid": self.grid,
            "cells": [[self.cells[r * SIZE + c].to_json() for c in range(SIZE)]
                      for r in range(SIZE)],
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "ms": round(self.ms, 1),
        }


def notation(cells: tuple[CellReading, ...] | list[CellReading]) -> str:
    return "/".join("".join(c.char for c in cells[r * SIZE : (r + 1) * SIZE])
                    for r in range(SIZE))


# --------------------------------------------------------------------------------------------
# Profile


@dataclass(frozen=True)
class Profile:
    """What teaching learned about a real tile set."""

    letters: LetterReader | None = None
    back: FaceModel | None = None
    victim: FaceModel | None = None

    def save(self, path: str | Path) -> None:
        arrays: dict[str, np.ndarray] = {"version": np.array(PROFILE_VERSION)}
        if self.back is not None:
            arrays.update(self.back.to_arrays("back"))
        if self.victim is not None:
            arrays.update(self.victim.to_arrays("victim"))
        if self.letters is not None:
            with tempfile.TemporaryDirectory() as tmp:
                f = Path(tmp) / "letters.npz"
                self.letters.save(f)
                arrays["letters"] = np.frombuffer(f.read_bytes(), np.uint8)
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        with open(p, "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | Path) -> Profile:
        arrays = load_npz(path, "vision profile", ProfileError)
        version = arrays.get("version", np.array(-1))
        if (version.size != 1 or version.dtype.kind not in "iu"
                or version.item() != PROFILE_VERSION):
            raise ProfileError(f"{path}: not a vision profile of version {PROFILE_VERSION}")
        letters = None
        if "letters" in arrays:
            with tempfile.TemporaryDirectory() as tmp:
                f = Path(tmp) / "letters.npz"
                f.write_bytes(arrays["letters"].tobytes())
                letters = LetterReader.load(f)
        try:
            back = FaceModel.from_arrays(arrays, "back") if "back_chroma" in arrays else None
            victim = (FaceModel.from_arrays(arrays, "victim") if "victim_chroma" in arrays
                      else None)
        except TileError as exc:
            raise ProfileError(f"{path}: {exc}") from exc
        return cls(letters, back, victim)

    def tile_reader(self) -> TileReader:
        return TileReader(self.letters or LetterReader.load(), back=self.back, victim=self.victim)


# --------------------------------------------------------------------------------------------
# One frame


def read_grid(image: np.ndarray, tiles: TileReader, *, grid: Grid | None = None,
              reference: np.ndarray | None = None) -> tuple[Observation, Grid]:
    """Locate and read one frame. ``reference`` (all tiles face down, same set) teaches
    ``tiles`` the back first, and checks the grid (:func:`checked_grid`). Raises
    :class:`GridNotFound` when there is no grid."""
    t0 = time.perf_counter()
    if grid is not None:
        g = grid
        if reference is not None:
            learn_back(reference, tiles, fallback=g)
    elif reference is None:
        g = locate(image)
    else:
        g = checked_grid(image, reference, tiles)
    crops = crops_of(image, g)
    cells = tuple(tiles.read(crops))
    ms = (time.perf_counter() - t0) * 1000
    obs = Observation(notation(cells), cells, _corners(g), ms, tuple(range(CELLS)))
    return obs, g


def _open(c: CellReading) -> bool:
    """Is a cell's reading open to a later frame: unsure, or the victim (the one face-up
    cell the reader saw no letter in, which a letter it cannot read may be too)?"""
    return c.state in (CellState.UNSURE, CellState.VICTIM)


def _corners(g: Grid) -> tuple[tuple[float, float], ...]:
    return tuple((float(x), float(y)) for x, y in g.corners)


# --------------------------------------------------------------------------------------------
# A game's worth of frames


class TableReader:
    """Reads a game frame by frame: still frames only, changed (and still open) cells only.

    ``status`` says why the last frame gave no observation: "moving", "covered", "no-grid",
    or "read" when it did.
    """

    def __init__(self, tiles: TileReader, still_frames: int = 2) -> None:
        self.tiles = tiles
        self.stillness = Stillness(still_frames)
        self.grid: Grid | None = None
        self.last: Observation | None = None
        self._rect: np.ndarray | None = None
        self._covered = 0
        self._pending: np.ndarray | None = None
        self._ref_grid: Grid | None = None  # the grid the cells' references were cropped with
        self._ref_rect: np.ndarray | None = None  # the reference frame's grid, rectified
        # the reference frame, until a frame with tiles turned since shows whether its grid
        # is the tiles' (:meth:`_prove_grid`)
        self._unproven: np.ndarray | None = None
        self._looked = 0  # how much had turned at the last look for the grid
        # looks for the grid that go on one fit a frame: for a first read (:meth:`_find`),
        # or to prove the grid (:meth:`_prove_grid`, with what had turned when it began and
        # whether it is the last look)
        self._finding: Steps[Grid | None] | None = None
        self._proving: tuple[Steps[Grid | None], Turned, bool] | None = None
        # a look stepped on this frame: one step a frame, also where one look ends and the
        # next begins on the same frame (two fits took it to 255 ms)
        self._stepped = False
        self._at_hand: np.ndarray | None = None  # the frame a look's step is made on
        self.settle_frames = SETTLE_FRAMES
        self.status = "none"

    @classmethod
    def create(cls, profile: str | Path | Profile | None = None,
               still_frames: int = 2) -> TableReader:
        if profile is None:
            return cls(TileReader(LetterReader.load()), still_frames)
        prof = profile if isinstance(profile, Profile) else Profile.load(profile)
        return cls(prof.tile_reader(), still_frames)

    def learn_reference(self, frame: np.ndarray) -> None:
        """Learn the back (and the grid) from a frame with all tiles face down. If its grid
        cannot be found, the frame is kept and learned from once a later frame shows it."""
        self._unproven, self._looked = frame, 0
        self._finding = self._proving = None
        try:
            self.grid = learn_back(frame, self.tiles, fallback=self.grid)
            self._ref_grid = self.grid
            self._ref_rect = rectify(frame, self.grid, RECT_PX, RECT_BORDER)
            self._pending = None
        except GridNotFound:
            self._pending = frame
        self._rect = None
        self.last = None

    def read(self, frame: np.ndarray) -> Observation | None:
        """An observation of a still, uncovered table; None otherwise (see ``status``)."""
        t0 = time.perf_counter()
        self._stepped = False
        if not self.stillness.update(frame):
            self.status = "moving"
            self._covered = 0
            return None
        if (self.grid is None or self.last is None) and not self._as_in_reference(frame):
            # the first read (of a game, or after the grid was lost): the table is located
            # in this frame, not trusted from the reference frame, whose camera may have
            # been moved since
            found = self._find(frame)
            if found is None:
                self.status = "no-grid"  # still looking, or nothing found
                return None
            if self.grid is None or not same_view(found, self.grid):
                self.grid = found  # else the one the references were cropped with stays
            self._drop_stale_refs()
        else:
            self._finding = None
        assert self.grid is not None
        if self._pending is not None:
            self.tiles.learn_reference(crops_of(self._pending, self.grid))
            self._ref_grid = self.grid
            self._pending = None
        turned = self._turned_since_reference(frame)
        if self._proved_elsewhere(frame, turned, False):
            self._rect = None  # found elsewhere: this frame is read whole
        rect = rectify(frame, self.grid, RECT_PX, RECT_BORDER)
        change: Change | None = None
        if self._rect is not None and self.last is not None:
            change = compare(rect, self._rect, RECT_PX, self.grid.tile, RECT_BORDER)
            if change.moved:  # the camera was bumped: the grid is looked for again
                self.grid, self._rect = None, None
                self.status = "no-grid"
                return None
            if change.covered:
                self._covered += 1
                if self._covered < self.settle_frames:
                    self.status = "covered"
                    return None
                change = Change(change.cells, False, False)  # it stayed: read what is there
            self._covered = 0
            if not change.cells:
                if not self._proved_elsewhere(frame, turned, True):
                    self.status = "read"
                    return Observation(self.last.grid, self.last.cells, self.last.corners,
                                       (time.perf_counter() - t0) * 1000, ())
                rect, change = rectify(frame, self.grid, RECT_PX, RECT_BORDER), None
        if change is None:
            obs = self._read_all(frame, t0)
        else:
            obs = self._read_some(frame, list(change.cells), t0)
        self._rect = rect
        self.last = obs
        self.status = "read"
        return obs

    def _find(self, frame: np.ndarray) -> Grid | None:
        """The grid of a first read, or None meanwhile: the look goes on one fit a frame
        (all its fits on one frame took it over the frame's time). When it ends with none, the
        reference's grid is taken if there is one (None otherwise, and the next frame looks
        again)."""
        finding = self._finding = self._finding or begun(self._first_look(frame))
        self._stepped, self._at_hand = True, frame
        try:
            finding.send(frame)
            return None
        except StopIteration as done:
            self._finding = None
            found: Grid | None = done.value
        return found if found is not None else self.grid

    def _first_look(self, frame: np.ndarray) -> Steps[Grid | None]:
        """The look for the grid, one fit a frame; when it finds none while the reference
        frame showed none either (``_pending``), the grid on the lattice of the tiles turned
        since, placed by the reference (:func:`placed_by_turned`, on the frame at hand, in the
        same step as the last fit when too few tiles turned to place it; the reference is
        learned with the grid once it is taken). None: the next frame looks again."""
        found = yield from looking(frame, follow=True)
        if found is not None or self._pending is None:
            return found
        now = frame if self._at_hand is None else self._at_hand
        placed = yield from placed_by_turned(now, self._pending, self.tiles.settings)
        return None if placed is None else placed[0]

    def _as_in_reference(self, frame: np.ndarray) -> bool:
        """Does the first frame of a game show the grid where the reference frame did (most
        cells as they were there: the camera did not move)? Then it is read with the
        reference's grid, without locating it again: a grid of face-down tiles is the
        slowest to find (and the hardest)."""
        if self.grid is None or self._ref_rect is None:
            return False
        rect = rectify(frame, self.grid, RECT_PX, RECT_BORDER)
        change = compare(rect, self._ref_rect, RECT_PX, self.grid.tile, RECT_BORDER)
        # a shifted view of alike backs differs little cell by cell, but the table round the
        # grid (tile edges now in it) shows it
        return not (change.moved or change.covered)

    def _turned_since_reference(self, frame: np.ndarray) -> Turned | None:
        """Where this frame differs from the reference frame, while the grid is not proven
        (measured once a frame, for both looks of :meth:`read`); None once it is, or when
        the frame is not of the reference's view (then it never will be)."""
        if self._unproven is None:
            return None
        turned = Turned.between(frame, self._unproven)
        if turned is None:
            self._unproven = None
        return turned

    def _proved_elsewhere(self, frame: np.ndarray, turned: Turned | None, quiet: bool) -> bool:
        """Is the grid, not yet proven the tiles', found elsewhere in this frame? Then the
        frame is read whole (:meth:`_prove_grid`)."""
        return (turned is not None and self._unproven is not None
                and self._prove_grid(frame, turned, quiet))

    def _prove_grid(self, frame: np.ndarray, turned: Turned, quiet: bool) -> bool:
        """Is the grid the tiles', and where exactly? Found in face-down tiles, it may be a
        lattice of a patterned cloth that cuts the reference and every later frame into
        alike squares (then no tile would ever be seen to turn), or lie a fraction of a
        cell off (a blob of backs shows its joints faintly). A frame with tiles turned since
        the reference is located, and its grid taken if it holds the turned tiles and lies
        elsewhere (returns True on the frame the look ends: read it whole). The look goes
        on one fit a frame (three locates on one took a frame to 590 ms). When the grid
        held so far holds the turned tiles, it begins on a ``quiet`` frame (nothing to
        read), once a game, fits on the frame at hand, and the grid must cut the reference
        into alike backs. When it does not, it is the look a photo read with its reference
        makes (:func:`checking`, on the frame it began on, whose turned tiles it checks),
        made again once half as many more tiles have turned if no grid held them (a few
        turned tiles show too little of the table round them)."""
        ref = self._unproven
        assert ref is not None and self.grid is not None
        if self._proving is not None:
            return not quiet and self._go_on_proving(ref, frame)  # one fit a frame
        seen = int(turned.mask.sum())
        if turned.inside(self.grid.corners) is None or seen < 1.5 * self._looked:
            return False  # nothing (more) turned yet
        near = holds(turned, self.grid)
        if near and not quiet:
            return False  # a quiet frame will look
        self._looked = seen
        steps = proving(frame, ref, self.tiles) if near else checking(frame, ref, self.tiles)
        self._proving = begun(steps), turned, near
        return self._go_on_proving(ref, frame)

    def _go_on_proving(self, ref: np.ndarray, frame: np.ndarray) -> bool:
        """The look for the grid goes on, one fit; when it ends, its grid is taken as
        :meth:`_take` says (True: read this frame whole)."""
        assert self._proving is not None
        if self._stepped:
            return False  # a look stepped on this frame already: this one goes on next frame
        self._stepped = True
        steps, turned, last = self._proving
        before = self.tiles.refs, self.tiles.back  # the look learns only in its last step
        try:
            steps.send(frame)
            return False
        except StopIteration as done:
            found: Grid | None = done.value
        self._proving = None
        return self._take(found, turned, ref, before, last)

    def _take(self, found: Grid | None, turned: Turned, ref: np.ndarray,
              before: tuple[tuple[CellRef | None, ...] | None, FaceModel | None],
              last: bool) -> bool:
        """Take the grid a look found (its backs learned from the reference, ``before``
        what was learned until then) if it holds the turned tiles and lies elsewhere. The
        ``last`` look (made while the grid held so far holds the turned tiles) proves the
        grid either way."""
        assert self.grid is not None
        if found is not None and not holds(turned, found):
            found = None
        if found is not None or last:
            self._unproven = None
        if found is None or same_view(found, self.grid):
            self.tiles.refs, self.tiles.back = before  # as learned before the look
            return False
        self.grid = self._ref_grid = found
        self._ref_rect = rectify(ref, found, RECT_PX, RECT_BORDER)
        return True

    def _drop_stale_refs(self) -> None:
        """After the grid was located anew: if it moved (the camera was bumped), each cell's
        reference was cropped where the cell lay before and would compare wrong pixels; the
        cells learn theirs again from the frames to come (the back's model stays), and the
        reference frame, of another view now, proves no grid."""
        if (self._ref_grid is not None and self.grid is not None
                and not same_view(self._ref_grid, self.grid)):
            self.tiles.refs = None
            self._ref_grid = None
            self._unproven, self._proving = None, None

    def _remember_backs(self, where: range | list[int], crops: list[np.ndarray],
                        cells: list[CellReading]) -> None:
        if self.tiles.remember_backs(where, crops, cells) and self._ref_grid is None:
            self._ref_grid = self.grid

    def _read_all(self, frame: np.ndarray, t0: float) -> Observation:
        assert self.grid is not None
        crops = crops_of(frame, self.grid)
        cells = self.tiles.read(crops)
        self._remember_backs(range(CELLS), crops, cells)
        if self.tiles.back is None:
            hidden = [crops[i] for i, c in enumerate(cells) if c.state is CellState.HIDDEN]
            if len(hidden) >= 12:  # enough face-down tiles to learn the back for the game
                self.tiles.learn_back(hidden)
        t = tuple(cells)
        return Observation(notation(t), t, _corners(self.grid),
                           (time.perf_counter() - t0) * 1000, tuple(range(CELLS)))

    def _read_some(self, frame: np.ndarray, idx: list[int], t0: float) -> Observation:
        assert self.grid is not None and self.last is not None
        if self.tiles.back is None:  # the back is inferred from the whole frame
            full = self._read_all(frame, t0)
            return Observation(full.grid, full.cells, full.corners, full.ms, tuple(idx))
        last = self.last.cells
        # the cells still open are read again with the changed ones: a letter the reader
        # cannot read, turned alone, was unsure or taken for the one picture; beside the
        # letters turned since (alike to it, or taught by them) it can be read
        idx = sorted(set(idx) | {i for i, c in enumerate(last) if _open(c)})
        crops = crops_of(frame, self.grid, idx)
        # the frame's sure letters elsewhere teach the re-read cells (two a letter), and the
        # set's limits hold over the whole board, not only the cells read again
        best: dict[str, list[int]] = {}
        for i in sorted(range(CELLS), key=lambda i: -last[i].confidence):
            c = last[i]
            if (i not in idx and c.state is CellState.LETTER and c.letter is not None
                    and c.confidence >= self.tiles.settings.teach_sure
                    and len(best.setdefault(c.letter, [])) < self.tiles.settings.teach_per_letter):
                best[c.letter].append(i)
        where = sorted(i for v in best.values() for i in v)
        teachers = [(i, crop, f"{last[i].letter}@{last[i].rotation}")
                    for i, crop in zip(where, crops_of(frame, self.grid, where), strict=True)]
        elsewhere = {c.letter for i, c in enumerate(last) if i not in idx
                     and c.state is CellState.LETTER and c.letter is not None}
        got = self.tiles.read(crops, idx, teachers=teachers, elsewhere=elsewhere)
        self._remember_backs(idx, crops, got)
        cells = list(self.last.cells)
        for i, c in zip(idx, got, strict=True):
            cells[i] = c
        t = tuple(settle_set(cells, idx, self.tiles.settings))
        return Observation(notation(t), t, self.last.corners,
                           (time.perf_counter() - t0) * 1000, tuple(idx))


__all__ = ["Observation", "Profile", "ProfileError", "TableReader", "crops_of", "learn_back",
           "notation", "read_grid", "same_view"]
