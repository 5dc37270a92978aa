"""The camera's side of the table: a thread that reads frames, hands them to the reader and
posts the readings; reconnecting with doubling backoff when the camera is lost; the newest
frame as JPEG for the phones' camera view; and the gate that waits for a steady view.

Readings reach the game only through the table's inbox, so a frame of a camera that has been
detached (``stop`` set) is dropped there and never reaches a game it did not watch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from companion import memory
from companion.games.readings import (
    HIDDEN,
    UNSURE,
    DiceReading,
    DieSeen,
    GridReading,
    PadSeen,
    Reading,
    Record,
)
from companion.table.publish import Publisher

_log = logging.getLogger(__name__)


class Reader(Protocol):
    """Frames to readings; raises ``vision.VisionError`` when nothing can be read."""

    def __call__(self, image: Any) -> Any: ...


@dataclass(frozen=True)
class CameraStatus:
    """The camera is ``ok``, ``lost`` (retrying in ``retry_in`` s) or ``none``."""

    status: str
    message: str | None = None
    retry_in: float | None = None


@dataclass(frozen=True)
class Seen:
    """A reading of the camera whose stop event is ``camera``."""

    reading: Any
    camera: threading.Event


class Steady:
    """Believe a reading when it is still and the same ``frames`` times in a row; once."""

    def __init__(self, frames: int) -> None:
        self.frames = max(1, frames)
        self._key: str | None = None
        self._count = 0

    def reset(self) -> None:
        self._key, self._count = None, 0

    def see(self, reading: Reading) -> bool:
        if not reading.still:
            self.reset()
            return False
        if reading.key == self._key:
            self._count += 1
        else:
            self._key, self._count = reading.key, 1
        return self._count == self.frames


class Frames:
    """The newest camera frame as JPEG, drawn with what the reader found, for MJPEG viewers.

    Frames are encoded only while someone watches: the CPU is the table's.
    """

    def __init__(self, publisher: Publisher, patience_s: float) -> None:
        self._publisher = publisher
        self._patience = max(patience_s, 1.0)
        self._cond = threading.Condition()
        self._jpeg: bytes | None = None
        self._seq = 0
        self.watchers = 0
        self.closed = False

    def put(self, image: Any, reading: Any) -> None:
        if not self.watchers:
            return
        import cv2

        from companion.table.overlay import draw

        ok, buf = cv2.imencode(".jpg", draw(image, reading), [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._cond:
                self._jpeg = buf.tobytes()
                self._seq += 1
                self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()

    def forget(self) -> None:
        """The camera is lost: its last picture is stale and is never shown as the table now."""
        with self._cond:
            self._jpeg = None

    def stream(self) -> Iterator[bytes]:
        """JPEG frames until no new one comes for the patience (camera lost or detached):
        a viewer holding on would only keep a phone's stream slot."""
        self._publisher.take_slot()
        self.watchers += 1
        return self._iterate()

    def _iterate(self) -> Iterator[bytes]:
        seen = -1
        last = time.monotonic()
        try:
            while not self.closed:
                with self._cond:
                    if self._seq == seen or self._jpeg is None:
                        self._cond.wait(timeout=min(1.0, self._patience))
                    jpeg = self._jpeg if self._seq != seen else None
                    seen = self._seq
                if jpeg is None:
                    if time.monotonic() - last > self._patience:
                        return
                    continue
                last = time.monotonic()
                yield jpeg
        finally:
            self.watchers -= 1
            self._publisher.give_slot()


class Watch:
    """One attached camera: its thread, its stop event, its frame rate and silence."""

    def __init__(
        self, source: Any, reader: Reader, settings: Mapping[str, Any],
        post: Callable[[Any], None], frames: Frames, clock: Callable[[], float],
    ) -> None:
        self.source, self.reader = source, reader
        self.stop = threading.Event()
        self._settings = settings
        self._post = post
        self._frames = frames
        self._clock = clock
        self.fps: float | None = None
        self.last_frame_at: float | None = None
        self.reading_now = False  # inside the reader: a slow read is not a silent camera
        self.lost = False
        self._prev: float | None = None
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)

    def silent(self, now: float) -> float | None:
        """Seconds without a frame, when that is longer than the setting allows."""
        limit = float(self._settings["read_timeout_s"])
        last = self.last_frame_at
        if limit <= 0 or last is None or self.reading_now or now - last <= limit:
            return None
        return limit

    def _run(self) -> None:
        low = float(self._settings["reconnect_min_s"])
        high = float(self._settings["reconnect_max_s"])
        backoff = low
        while not self.stop.is_set():
            try:
                self.source.open()
                self._post(CameraStatus("ok"))
                backoff = low
                self._frames_loop()
                return
            except Exception as exc:
                from vision.sources import CameraLost, CameraUnavailable, EndOfFrames

                self.source.close()
                if isinstance(exc, EndOfFrames):
                    self._post(CameraStatus("none", "the recording has ended"))
                    return
                if isinstance(exc, (CameraLost, CameraUnavailable)):
                    _log.warning("camera: %s (again in %.1f s)", exc, backoff)
                    self._post(CameraStatus("lost", str(exc), backoff))
                else:
                    _log.exception("camera thread failed; reopening")
                    self._post(CameraStatus("lost", "camera failure", backoff))
                if self.stop.wait(backoff):
                    return
                backoff = min(backoff * 2, high)

    def _frames_loop(self) -> None:
        from vision import VisionError

        period = 1.0 / max(float(self._settings["fps"]), 0.1)
        last = 0.0
        while not self.stop.is_set():
            frame = self.source.read()
            read_at = time.perf_counter()
            now = self._clock()
            if self.lost:  # frames again after a silence
                self._post(CameraStatus("ok"))
            if self._prev is not None and now > self._prev:
                rate = 1.0 / (now - self._prev)
                self.fps = rate if self.fps is None else 0.8 * self.fps + 0.2 * rate
            self._prev = now
            self.last_frame_at = now
            self.reading_now = True
            try:
                reading = self.reader(frame.image)
            except VisionError as exc:
                _log.debug("frame %d: %s", frame.index, exc)
                reading = None
            finally:
                self.reading_now = False
                self.last_frame_at = self._clock()
            if reading is not None:
                self._post(Seen(replace(reading, frame_at=read_at), self.stop))
            self._frames.put(frame.image, reading)
            if self.source.live and now - last < period:
                self.stop.wait(period - (now - last))
            last = now


class GridReader:
    """The vision pipeline as a :class:`Reader` of a tile grid (``vision.observation``).

    Vision gates on a still, uncovered table (a frame with a hand in it is reported not
    still), keeps the grid and the tiles' back, and re-reads only the cells that changed. A
    letter below ``min_confidence`` becomes ``?``: the game asks rather than guesses.
    ``reference`` (a frame with every tile face down) teaches the back; ``profile`` (written by
    ``companion vision teach``) a real tile set.
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        from vision.observation import TableReader as VisionTable
        from vision.photo import load_image

        profile = str(settings.get("profile", "")) or None
        self._vision = VisionTable.create(profile=profile, still_frames=2)
        self.min_confidence = float(settings.get("min_confidence", 0.6))
        reference = str(settings.get("reference", ""))
        if reference:
            self._vision.learn_reference(load_image(reference))

    @property
    def status(self) -> str:
        """Why the last frame gave no reading ("moving", "covered", "no-grid") or "read"."""
        return str(self._vision.status)

    def __call__(self, image: Any) -> GridReading:
        obs = self._vision.read(image)
        if obs is None:
            return GridReading(HIDDEN * 36, still=False)  # ignored by the table
        chars: list[str] = []
        candidates: dict[int, tuple[str, ...]] = {}
        for i, cell in enumerate(obs.cells):
            ch = cell.char
            if ch not in (HIDDEN, "X", UNSURE) and cell.confidence < self.min_confidence:
                ch = UNSURE
            if ch == UNSURE and cell.letter:
                candidates[i] = (str(cell.letter),)
            chars.append(ch)
        return GridReading(
            "".join(chars), still=True, candidates=candidates,
            corners=tuple(obs.corners), rotations=tuple(int(c.rotation) for c in obs.cells),
        )

class PadWatcher(Protocol):
    """A score pad lying beside the dice, read at its own pace (``vision.kniffel_pad.watch``):
    ``stir`` after the table moved, called with each still frame for the pad as last read,
    ``covers`` where it lies (its printed boxes are no dice), ``follow`` the record."""

    def stir(self) -> None: ...

    def covers(self, point: tuple[float, float]) -> bool: ...

    def follow(self, record: Callable[[], Record]) -> None: ...

    def __call__(self, image: Any) -> PadSeen | None: ...


class DiceReader:
    """The dice reader (``vision.dice``) as a :class:`Reader` of loose dice.

    A frame is still when it barely differs from the one before (dice at rest, no hand
    moving): only then is it read, so a rolling die is never taken for a throw. A still frame
    no different from the one last read is not read again: the table at rest costs a resize,
    not a read. A letter below ``min_confidence`` becomes ``?``: the game asks rather than
    guesses. Values are the game's business (its dice set), not the camera's. With ``pad``,
    the score pad in view comes along with the dice, and no die is looked for on it.
    """

    # a frame moved when more than MOVED of its (downscaled) pixels changed by more than
    # CHANGE grey levels: a die is about 0.4 % of the frame, so a mean would hide a rolling one
    CHANGE = 24.0
    MOVED = 0.0008

    def __init__(self, settings: Mapping[str, Any], pad: PadWatcher | None = None) -> None:
        from vision.dice import DiceModels

        self.min_confidence = float(settings.get("min_confidence", 0.6))
        # a reader taught the table's own set (``companion vision teach --dice``), if any
        self._models = DiceModels.load(str(settings.get("dice_profile", "")) or None,
                                       shared=False)
        self._prev: Any = None
        self._read: tuple[Any, DiceReading] | None = None  # the frame last read, and its reading
        self._pad = pad

    def follow(self, record: Callable[[], Record]) -> None:
        if self._pad is not None:
            self._pad.follow(record)

    def _moved(self, a: Any, b: Any) -> bool:
        import numpy as np

        return a is None or float(np.mean(np.abs(a - b) > self.CHANGE)) > self.MOVED

    def __call__(self, image: Any) -> DiceReading | None:
        import cv2
        import numpy as np

        small = cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (160, 120),
                           interpolation=cv2.INTER_AREA).astype(np.float32)
        prev, self._prev = self._prev, small
        changed = self._read is None or self._moved(self._read[0], small)
        moving = self._moved(prev, small)
        if self._pad is not None and (changed or moving):
            self._pad.stir()
        if moving:
            return DiceReading((), still=False)
        pad = self._pad(image) if self._pad is not None else None
        if self._read is not None and not changed:
            return replace(self._read[1], pad=pad)
        reading = self._read_dice(image)
        self._read = (small, reading)
        return replace(reading, pad=pad)

    def _read_dice(self, image: Any) -> DiceReading:
        import numpy as np

        from vision.dice import read_dice

        dice = []
        for d in read_dice(image, models=self._models).dice:
            if self._pad is not None and self._pad.covers((float(d.center[0]),
                                                           float(d.center[1]))):
                continue
            sure = d.letter != UNSURE and d.confidence >= self.min_confidence
            edge = float(np.mean([np.hypot(*np.subtract(d.corners[i], d.corners[i - 1]))
                                  for i in range(4)]))
            dice.append(DieSeen(d.letter if sure else UNSURE, d.value if sure else None,
                                (float(d.center[0]), float(d.center[1])), edge,
                                () if sure or d.letter == UNSURE else (d.letter,)))
        return DiceReading(tuple(dice))


class Readers:
    """The table's one camera reads what the game on the table needs: a reader per kind of
    reading (``GameRules.reads``), made when a game needs it and let go when the next game
    reads something else. A game the camera does not read gets no readings; its frames are
    still shown."""

    def __init__(self, makers: Mapping[str, Callable[[], Reader]]) -> None:
        self._makers = dict(makers)
        self._made: dict[str, Reader] = {}
        self._rules: Callable[[], Any] = lambda: None
        self._record: Callable[[], Record] = lambda: Record(None, 0)

    def bind(self, rules: Callable[[], Any]) -> None:
        """Follow ``rules()``, the rules of the game on the table (called per frame)."""
        self._rules = rules

    def follow(self, record: Callable[[], Record]) -> None:
        """Hand ``record()`` (changes with every event) to the readers that look again then."""
        self._record = record

    def __call__(self, image: Any) -> Any:
        kind = getattr(self._rules(), "reads", None)
        if kind not in self._makers:
            return None
        reader = self._made.get(kind)
        if reader is None:
            from vision import on_one_core

            self._made.clear()  # one reader at a time: a Pi has no memory for idle networks
            on_one_core()
            reader = self._made[kind] = self._makers[kind]()
            memory.shed_code()  # the last game's code paths are left behind
            follow = getattr(reader, "follow", None)
            if follow is not None:
                follow(lambda: self._record())  # a camera attached again follows on
        return reader(image)


class Camera:
    """The table's camera, if any: which one is attached, which game it watches, its status.

    One lock makes attaching and the start of a new game one step each: a camera bound to one
    game (the demo's recording of its round) is stopped before the next game exists.
    """

    def __init__(self, settings: Mapping[str, Any], post: Callable[[Any], None], frames: Frames,
                 clock: Callable[[], float], source: Any = None) -> None:
        self._settings, self._post, self._frames, self._clock = settings, post, frames, clock
        self._lock = threading.RLock()
        self.watch: Watch | None = None
        self._bound: int | None = None  # the one game the attached camera watches
        self.status: dict[str, Any] = {"status": "none", "source": getattr(source, "name", None),
                                       "message": None, "retry_in": None}

    def attach(self, source: Any, reader: Reader, game_id: int | None,
               current: Callable[[], Any]) -> bool:
        """Watch with ``reader``; ``current()`` is the game on the table (its ``id`` and
        ``rules``), which a reader of several kinds follows."""
        self.detach(None, None)
        bind = getattr(reader, "bind", None)
        if bind is not None:
            bind(lambda: getattr(current(), "rules", None))
        follow = getattr(reader, "follow", None)
        if follow is not None:
            follow(lambda: game.record() if (game := current()) is not None else Record(None, 0))
        with self._lock:
            if game_id is not None and game_id != getattr(current(), "id", None):
                source.close()
                return False
            self.watch = Watch(source, reader, self._settings, self._post, self._frames,
                               self._clock)
            self._bound = game_id
            self.status["source"] = getattr(source, "name", None)
            self.watch.thread.start()
        return True

    def detach(self, only: threading.Event | None, message: str | None) -> None:
        """Detach the camera (``only``: if it is still the one with that stop event)."""
        with self._lock:
            watch = self.watch
            if watch is None or (only is not None and watch.stop is not only):
                return
            self.watch, self._bound = None, None
            watch.stop.set()  # its readings still queued are dropped from now on
            self._post(CameraStatus("none", message))
        if watch.thread is not threading.current_thread():
            watch.thread.join(timeout=5.0)
        watch.source.close()

    def unbind(self, start_game: Callable[[], None]) -> threading.Event | None:
        """Start a new game (``start_game``) in one step with stopping a camera bound to the
        last one; returns that camera's stop event, for :meth:`detach` off this thread."""
        with self._lock:
            watch = self.watch
            stop = watch.stop if watch is not None and self._bound is not None else None
            if stop is not None:
                stop.set()  # before the new game exists, so no old frame reaches it
            start_game()
        return stop

    def update(self, item: CameraStatus) -> str:
        """Take a status from the camera thread; returns the status it had before."""
        was = str(self.status["status"])
        self.status.update(status=item.status, message=item.message, retry_in=item.retry_in)
        if self.watch is not None:
            self.watch.lost = item.status == "lost"
        return was

    def silent(self) -> float | None:
        watch = self.watch
        if watch is None or self.status["status"] != "ok":
            return None
        return watch.silent(self._clock())

    def view(self) -> dict[str, Any]:
        watch = self.watch
        ok = watch is not None and watch.fps is not None and self.status["status"] == "ok"
        return {**self.status, "fps": round(watch.fps, 1) if ok and watch and watch.fps else None}

    def close(self) -> None:
        watch = self.watch
        if watch is not None:
            watch.stop.set()
            watch.thread.join(timeout=5.0)

__all__ = ["Camera", "CameraStatus", "DiceReader", "Frames", "GridReader", "PadWatcher", "Reader",
           "Readers", "Seen", "Steady", "Watch"]
