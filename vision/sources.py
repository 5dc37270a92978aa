"""Where frames come from: the Pi camera, anything OpenCV can open, or a recorded session.

Every source is a :class:`FrameSource`: a context manager whose :meth:`~FrameSource.read`
returns the next :class:`Frame` or raises

- :class:`CameraUnavailable` when it cannot be opened (no camera, busy, not installed, bad path),
- :class:`CameraLost` when an opened live camera stops delivering (cable, driver, USB reset);
  the runtime keeps the table running and reopens with backoff,
- :class:`EndOfFrames` when a finite source (file, replay) is done.

OpenCV's ``isOpened()`` says yes to devices that never deliver a frame, so a source is only
called open after a real ``read()`` returned an image. ``picamera2`` exists only on Raspberry
Pi OS and is imported only when that source is opened.

A recorded session is a folder of images (sorted by name) with an optional ``session.json``
``{"frames": [{"file": "000001.jpg", "t": 0.0}, …]}`` giving each frame's time in seconds;
:class:`ReplaySource` plays it with that timing (or at ``fps`` without it), and
:class:`SessionWriter` records one.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np

from vision import VisionError

_log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
SESSION_FILE = "session.json"


class SourceError(VisionError):
    """Root of the camera-source errors."""


class CameraUnavailable(SourceError):
    """The source cannot be opened: missing, busy, not installed or not a readable path."""


class CameraLost(SourceError):
    """An opened live source stopped delivering frames."""


class EndOfFrames(SourceError):
    """A finite source (video file, replay) has no more frames."""


@dataclass(frozen=True)
class Frame:
    """One camera image (BGR, uint8) with its time in seconds since the source started."""

    image: np.ndarray
    t: float
    index: int


class FrameSource(ABC):
    """A camera or a stand-in. Open on ``__enter__`` (or :meth:`open`), close idempotently."""

    name: str = "source"

    def __init__(self) -> None:
        self._open = False
        self._index = 0

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def live(self) -> bool:
        """True for a camera (losing it is an error), False for a finite recording."""
        return True

    def open(self) -> None:
        if not self._open:
            self._open_device()
            self._open = True
            self._index = 0
            _log.info("camera source %s opened", self.name)

    def close(self) -> None:
        if self._open:
            self._open = False
            try:
                self._close_device()
            finally:
                _log.info("camera source %s closed", self.name)

    def read(self) -> Frame:
        """The next frame; see the module docstring for what it raises."""
        if not self._open:
            raise SourceError(f"{self.name}: read from a closed source")
        image, t = self._read_device()
        frame = Frame(image, t, self._index)
        self._index += 1
        return frame

    def __iter__(self) -> Iterator[Frame]:
        """Frames until a finite source ends (a lost camera still raises)."""
        while True:
            try:
                yield self.read()
            except EndOfFrames:
                return

    def __enter__(self) -> FrameSource:
        self.open()
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @abstractmethod
    def _open_device(self) -> None: ...

    @abstractmethod
    def _read_device(self) -> tuple[np.ndarray, float]: ...

    @abstractmethod
    def _close_device(self) -> None: ...


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (libcamera), BGR frames of ``size``."""

    def __init__(self, size: tuple[int, int] = (1640, 1232), fps: float = 4.0) -> None:
        super().__init__()
        self.size = size
        self.fps = fps
        self.name = "picamera2"
        self._cam: Any = None
        self._t0 = 0.0

    def _open_device(self) -> None:
        try:
            from picamera2 import Picamera2  # only on Raspberry Pi OS
        except ImportError:
            raise CameraUnavailable(
                "picamera2 is not installed (on Raspberry Pi OS: apt install python3-picamera2)"
            ) from None
        try:
            cam = Picamera2()
        except IndexError:
            raise CameraUnavailable("picamera2: no camera is connected") from None
        except RuntimeError as exc:
            raise CameraUnavailable(f"picamera2: camera busy or failing ({exc})") from None
        try:
            # "RGB888" is stored B, G, R in memory: what OpenCV calls BGR.
            config = cam.create_video_configuration(
                main={"size": self.size, "format": "RGB888"},
                controls={"FrameRate": max(self.fps, 1.0)},
            )
            cam.configure(config)
            cam.start()
            cam.capture_array("main")
        except Exception as exc:  # libcamera raises plain RuntimeErrors and worse
            cam.close()
            raise CameraUnavailable(f"picamera2: cannot start the camera ({exc})") from None
        self._cam = cam
        self._t0 = time.monotonic()

    def _read_device(self) -> tuple[np.ndarray, float]:
        try:
            image = self._cam.capture_array("main")
        except Exception as exc:
            raise CameraLost(f"picamera2: {exc}") from None
        return np.ascontiguousarray(image[:, :, :3]), time.monotonic() - self._t0

    def _close_device(self) -> None:
        cam, self._cam = self._cam, None
        if cam is not None:
            try:
                cam.stop()
            finally:
                cam.close()


class VideoCaptureSource(FrameSource):
    """Anything OpenCV opens: a USB camera index, a video file or a stream URL.

    A file is finite (:class:`EndOfFrames` at its end, or it starts again with ``loop``);
    an index or a URL is live (:class:`CameraLost` when reads fail).
    """

    def __init__(
        self,
        device: int | str | Path,
        size: tuple[int, int] | None = None,
        loop: bool = False,
    ) -> None:
        super().__init__()
        if isinstance(device, str) and device.strip().isdigit():
            device = int(device)
        self.device: int | str = device if isinstance(device, int) else str(device)
        self.size = size
        self.loop = loop
        self.name = f"opencv:{self.device}"
        self._file = isinstance(self.device, str) and "://" not in self.device
        self._cap: Any = None
        self._first: np.ndarray | None = None
        self._t0 = 0.0

    @property
    def live(self) -> bool:
        return not self._file

    def _open_device(self) -> None:
        import cv2

        if self._file and not Path(str(self.device)).is_file():
            raise CameraUnavailable(f"{self.device}: no such video file")
        cap = cv2.VideoCapture(self.device)
        if self.size is not None and not self._file:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        ok, image = cap.read() if cap.isOpened() else (False, None)
        if not ok or image is None:
            cap.release()
            what = "cannot be decoded" if self._file else "gives no frames (missing or busy?)"
            raise CameraUnavailable(f"{self.name}: {what}")
        self._cap = cap
        self._first = image
        self._t0 = time.monotonic()

    def _read_device(self) -> tuple[np.ndarray, float]:
        import cv2

        if self._first is not None:
            image, self._first = self._first, None
            return image, 0.0
        ok, image = self._cap.read()
        if not ok or image is None:
            if not self._file:
                raise CameraLost(f"{self.name}: the camera stopped delivering frames")
            if not self.loop:
                raise EndOfFrames(self.name)
            self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._cap.read()
            if not ok or image is None:
                raise EndOfFrames(self.name)
        if self._file:
            return image, float(self._cap.get(cv2.CAP_PROP_POS_MSEC)) / 1000.0
        return image, time.monotonic() - self._t0

    def _close_device(self) -> None:
        cap, self._cap = self._cap, None
        self._first = None
        if cap is not None:
            cap.release()


class ReplaySource(FrameSource):
    """A folder of images (a recorded session) played back with its timing.

    ``start`` is the first frame delivered (the recording's time counts from it);
    ``speed`` scales the recorded timing (2.0 = twice as fast; 0 = as fast as read); without a
    ``session.json`` frames are ``1 / fps`` apart. ``loop`` starts again at the end, the times
    continuing to grow. ``clock`` and ``sleep`` are injectable so tests need not wait.

    :meth:`hold` pauses the recording before a given frame, like a video player: the last
    frame shown is delivered again every ``1 / fps`` seconds until the hold is lifted, and the
    rest plays on with its recorded spacing (the demo holds the next turn until the table has
    dealt with this one, as players would wait).
    """

    def __init__(
        self,
        folder: str | Path,
        fps: float = 4.0,
        speed: float = 1.0,
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] | None = None,
        start: int = 0,
    ) -> None:
        super().__init__()
        self.start_at = start  # the first frame to deliver (a game carried on mid-way)
        self._wake = threading.Event()  # close() cuts a long wait short
        self.folder = Path(folder)
        self.fps = fps
        self.speed = speed
        self.loop = loop
        self.name = f"replay:{self.folder}"
        self._clock = clock
        self._sleep: Callable[[float], Any] = sleep if sleep is not None else self._wake.wait
        self._frames: list[tuple[Path, float]] = []
        self._pos = 0
        self._offset = 0.0
        self._start = 0.0
        self._limit: int | None = None
        self._last: tuple[np.ndarray, float] | None = None

    @property
    def live(self) -> bool:
        return False

    def hold(self, before: int | None) -> None:
        """Deliver no frame from index ``before`` on (``None``: play on)."""
        self._limit = before

    @property
    def position(self) -> int:
        """Index of the next recorded frame to deliver."""
        return self._pos

    def _open_device(self) -> None:
        self._wake.clear()
        self._frames = load_session(self.folder, self.fps)
        self._last = None
        self._pos = min(max(self.start_at, 0), max(len(self._frames) - 1, 0))
        self._offset = -self._frames[self._pos][1] if self._frames else 0.0
        self._start = self._clock()

    def _read_device(self) -> tuple[np.ndarray, float]:
        import cv2

        limit = self._limit
        if limit is not None and self._pos >= limit and self._last is not None:
            period = 1.0 / max(self.fps, 0.1)
            self._sleep(period / max(self.speed, 1e-6) if self.speed > 0 else 0)
            if self._wake.is_set():
                raise EndOfFrames(f"{self.name}: closed")
            image, t_last = self._last
            self._offset += period  # the rest of the recording moves later by the pause
            self._last = (image, t_last + period)
            return image.copy(), t_last + period
        if self._pos >= len(self._frames):
            if not self.loop:
                raise EndOfFrames(self.name)
            last = self._frames[-1][1]
            gap = last / max(len(self._frames) - 1, 1) if len(self._frames) > 1 else 1 / self.fps
            self._offset += last + gap
            self._pos = 0
        path, t = self._frames[self._pos]
        self._pos += 1
        t += self._offset
        if self.speed > 0:
            wait = self._start + t / self.speed - self._clock()
            if wait > 0:
                self._sleep(wait)
            if self._wake.is_set():
                raise EndOfFrames(f"{self.name}: closed")
        read: np.ndarray | None = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if read is None:
            raise CameraLost(f"{path}: not a readable image")
        self._last = (read, t)
        return read, t

    def _close_device(self) -> None:
        self._frames = []
        self._last = None

    def close(self) -> None:
        self._wake.set()
        super().close()


def load_session(folder: Path, fps: float = 4.0) -> list[tuple[Path, float]]:
    """The frames of a recorded session (path, seconds), in order."""
    if not folder.is_dir():
        raise CameraUnavailable(f"{folder}: no such folder of frames")
    index = folder / SESSION_FILE
    if index.is_file():
        try:
            entries = json.loads(index.read_text(encoding="utf-8"))["frames"]
            frames = [(folder / str(e["file"]), float(e["t"])) for e in entries]
        except (ValueError, KeyError, TypeError) as exc:
            raise CameraUnavailable(f"{index}: not a session index ({exc})") from None
        if any(b[1] < a[1] for a, b in zip(frames, frames[1:])):
            raise CameraUnavailable(f"{index}: frame times go backwards")
    else:
        files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        frames = [(p, i / fps) for i, p in enumerate(files)]
    if not frames:
        raise CameraUnavailable(f"{folder}: holds no frames")
    return frames


class SessionWriter:
    """Record frames into a folder :class:`ReplaySource` plays back (JPEG, with timing)."""

    def __init__(self, folder: str | Path, quality: int = 90) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.quality = quality
        self._entries: list[dict[str, Any]] = []

    def add(self, image: np.ndarray, t: float) -> Path:
        import cv2

        if self._entries and t < self._entries[-1]["t"]:
            raise ValueError("frame times must not go backwards")
        path = self.folder / f"{len(self._entries) + 1:06d}.jpg"
        if not cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, self.quality]):
            raise SourceError(f"{path}: cannot write the frame")
        self._entries.append({"file": path.name, "t": round(t, 4)})
        return path

    def close(self) -> None:
        tmp = self.folder / (SESSION_FILE + ".tmp")
        tmp.write_text(json.dumps({"frames": self._entries}), encoding="utf-8")
        tmp.replace(self.folder / SESSION_FILE)

    def __enter__(self) -> SessionWriter:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_source(camera: Mapping[str, Any]) -> FrameSource | None:
    """The source the ``[camera]`` settings name (not opened yet); ``None`` for ``none``."""
    kind = camera.get("source", "picamera2")
    size = (int(camera.get("width", 1640)), int(camera.get("height", 1232)))
    fps = float(camera.get("fps", 4.0))
    if kind == "picamera2":
        return Picamera2Source(size, fps)
    if kind == "opencv":
        return VideoCaptureSource(str(camera.get("device", "0")), size, bool(camera.get("loop")))
    if kind == "replay":
        return ReplaySource(str(camera.get("device", "")), fps, loop=bool(camera.get("loop")))
    if kind == "none":
        return None
    raise SourceError(f"unknown camera source {kind!r}")


__all__ = [
    "CameraLost",
    "CameraUnavailable",
    "EndOfFrames",
    "Frame",
    "FrameSource",
    "Picamera2Source",
    "ReplaySource",
    "SessionWriter",
    "SourceError",
    "VideoCaptureSource",
    "load_session",
    "open_source",
]
