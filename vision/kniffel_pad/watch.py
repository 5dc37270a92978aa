"""The companion's score pad beside the dice, watched at the camera's pace and read at its own.

Finding the corner markers is cheap (tens of ms); reading every box is not (about 250 ms a
pad, more on a Pi). So the watch looks for the pad only in a still frame after the table
stirred (a hand, a throw), compares the page flattened small with the one last read, and reads
the pad again only when the page changed (a number written, the pad swapped): a still table
costs nothing, a throw costs a marker search. Reading runs on its own thread, so the dice are
never held up by it; the reading reaches the game with a later frame.

When the record changes (``follow``: the game's id and number of states) the pad as last
read is handed over again as a new look, so the game compares it with the new record without
reading it again. The pad is read knowing the game's own dice set (the record's ``dice``):
what a box may hold is what those dice can make, and a pad read for a game of another set is
read again.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from companion.games.kniffel.dice import DEFAULT_DICE, DiceSet
from companion.games.readings import PadBoxSeen, PadColumnSeen, PadSeen, Record
from vision.kniffel_pad.digits import DigitReader
from vision.kniffel_pad.layout import PAGE_H, PAGE_W
from vision import VisionError
from vision.kniffel_pad.reader import PX_PER_MM, PadNotFound, PadReading, locate, read_pad

_log = logging.getLogger(__name__)

THUMB_PX_PER_MM = 2.0  # the page flattened this small still shows a digit (5 mm: 10 px)
INK_CHANGE = 40  # grey levels a pixel of the small page must change by to count
CHANGED_PIXELS = 12  # pixels that must change: a written "1" changes about 14


def pad_seen(reading: PadReading) -> PadSeen:
    """The vision reading as the games' reading: boxes and written sums, with confidence."""
    columns = tuple(
        PadColumnSeen(c.player, c.game, {k: PadBoxSeen(b.value, b.struck, float(b.confidence),
                                                    b.doubts)
                                         for k, b in c.boxes.items()})
        for c in reading.columns)
    return PadSeen(reading.layout.players, reading.layout.games, columns)


class PadWatch:
    """The pad in view, if any, as a :class:`PadSeen`; see the module's docstring.

    ``background``: read on a thread of its own (the table); False reads in the caller
    (a bench). :meth:`settle` waits for a read under way (tests).
    """

    def __init__(self, digits: DigitReader, background: bool = True) -> None:
        self._digits, self._background = digits, background
        self._cond = threading.Condition()
        self._seen: PadSeen | None = None
        self._page: np.ndarray | None = None  # the page, small, as last handed to a read
        self._outline: np.ndarray | None = None  # the page's corners in the frame
        self._pending: tuple[np.ndarray, DiceSet] | None = None
        self._running = False
        self._generation = 0  # bumped when the pad leaves view: a late read is dropped
        self._stirred = True
        self._look = 0
        self._record: Callable[[], Record] = lambda: Record(None, 0)
        self._record_seen: Record | None = None
        self._dice = DEFAULT_DICE  # the set the pad is read for

    @classmethod
    def create(cls, settings: Mapping[str, Any]) -> PadWatch:
        model = str(settings.get("pad_model", "")) or None
        return cls(DigitReader.load(model))

    def follow(self, record: Callable[[], Record]) -> None:
        """``record()``: the game as it stands (read on the camera's thread)."""
        self._record = record

    def stir(self) -> None:
        """The table moved: look for the pad in the next still frame."""
        self._stirred = True

    def covers(self, point: tuple[float, float]) -> bool:
        """The point lies on the pad (its printed boxes are no dice)."""
        outline = self._outline
        return outline is not None and cv2.pointPolygonTest(
            outline.astype(np.float32), (float(point[0]), float(point[1])), False) >= 0

    def __call__(self, image: np.ndarray) -> PadSeen | None:
        """The pad as last read, seen in this still frame (a new look after the record
        changed); looks again first when the table stirred or the game's dice changed."""
        record = self._record()
        dice = record.dice or DEFAULT_DICE
        if dice != self._dice:  # what was read was weighed by another set's boxes
            with self._cond:
                self._seen, self._page, self._dice, self._stirred = None, None, dice, True
                self._generation += 1  # a read under way for the other set is dropped
        if self._stirred:
            self._stirred = False
            self._look_at(image)
        with self._cond:
            seen = self._seen
        if seen is None:
            return None
        if record != self._record_seen:
            self._record_seen = record
            self._look += 1
        return replace(seen, look=self._look)

    def settle(self, timeout: float = 30.0) -> bool:
        """Wait until no read is under way; False when it took longer than ``timeout``."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._running, timeout)

    def _look_at(self, image: np.ndarray) -> None:
        gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        try:
            located = locate(gray)
        except PadNotFound:
            with self._cond:
                self._seen, self._page, self._outline = None, None, None
                self._generation += 1
            return
        corners = np.array([[[0, 0]], [[PAGE_W, 0]], [[PAGE_W, PAGE_H]], [[0, PAGE_H]]],
                           np.float64) * PX_PER_MM
        self._outline = cv2.perspectiveTransform(
            corners, np.linalg.inv(located.homography)).reshape(4, 2)
        shrink = np.diag([THUMB_PX_PER_MM / PX_PER_MM] * 2 + [1.0])
        size = (round(PAGE_W * THUMB_PX_PER_MM), round(PAGE_H * THUMB_PX_PER_MM))
        page = cv2.warpPerspective(gray, shrink @ located.homography, size, borderValue=255)
        if self._page is not None and int(np.count_nonzero(
                cv2.absdiff(page, self._page) > INK_CHANGE)) < CHANGED_PIXELS:
            return  # the same page, perhaps moved: what was read still holds
        self._page = page
        if not self._background:
            self._read(gray, self._dice, self._generation)
            return
        with self._cond:
            self._pending = (gray, self._dice)
            if self._running:
                return  # the running read takes it next
            self._running = True
        threading.Thread(target=self._work, name="pad-read", daemon=True).start()

    def _work(self) -> None:
        while True:
            with self._cond:
                pending, self._pending = self._pending, None
                if pending is None:
                    self._running = False
                    self._cond.notify_all()
                    return
                generation = self._generation
            try:
                self._read(*pending, generation)
            except Exception:  # a failed read must not stop the watch for the rest of the game
                _log.exception("reading the score pad failed")

    def _read(self, gray: np.ndarray, dice: DiceSet, generation: int) -> None:
        try:
            seen = pad_seen(read_pad(gray, self._digits, dice))
        except VisionError as exc:
            _log.debug("score pad: %s", exc)
            return
        with self._cond:
            if generation == self._generation:
                self._seen = seen


__all__ = ["PadWatch", "pad_seen"]
