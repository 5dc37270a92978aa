"""One contract for every camera source this machine has (gpiozero's habit with pin backends).

Finite sources play a known recording: 8 frames whose brightness steps up, so order and
content can be checked through lossy codecs. Live sources (the Pi camera, a USB camera) are
checked where they exist and skipped elsewhere.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.sources import (
    CameraUnavailable,
    EndOfFrames,
    FrameSource,
    Picamera2Source,
    ReplaySource,
    SessionWriter,
    SourceError,
    VideoCaptureSource,
    open_source,
)

N = 8
SIZE = (160, 120)  # width, height
LEVELS = [20 + 28 * i for i in range(N)]


def _image(i: int) -> np.ndarray:
    img = np.full((SIZE[1], SIZE[0], 3), LEVELS[i], np.uint8)
    cv2.putText(img, str(i), (60, 80), cv2.FONT_HERSHEY_SIMPLEX, 1.5, (255, 255, 255), 3)
    return img


def _level(img: np.ndarray) -> float:
    return float(np.median(img))


class FakeClock:
    """Time that passes only when the replay sleeps, so no test waits or reads a real clock."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.now += s


def _replay_timed(tmp: Path) -> FrameSource:
    with SessionWriter(tmp / "session") as w:
        for i in range(N):
            w.add(_image(i), 0.5 * i)
    clock = FakeClock()
    return ReplaySource(tmp / "session", clock=clock, sleep=clock.sleep)


def _replay_folder(tmp: Path) -> FrameSource:
    folder = tmp / "pngs"
    folder.mkdir()
    for i in range(N):
        cv2.imwrite(str(folder / f"f{i:03d}.png"), _image(i))
    (folder / "notes.txt").write_text("not a frame")
    return ReplaySource(folder, fps=10, speed=0)


def _video_file(tmp: Path) -> FrameSource:
    path = tmp / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, SIZE)
    assert writer.isOpened(), "this OpenCV build cannot write MJPG"
    for i in range(N):
        writer.write(_image(i))
    writer.release()
    return VideoCaptureSource(path)


FINITE: dict[str, Callable[[Path], FrameSource]] = {
    "replay-session": _replay_timed,
    "replay-folder": _replay_folder,
    "opencv-file": _video_file,
}


def _live_params() -> list[object]:
    pi = pytest.param(
        "picamera2",
        marks=pytest.mark.skipif(
            importlib.util.find_spec("picamera2") is None, reason="picamera2: only on the Pi"
        ),
    )
    usb = pytest.param(
        "opencv-usb",
        marks=pytest.mark.skipif(not os.path.exists("/dev/video0"), reason="no USB camera"),
    )
    return [pi, usb]


def _live(kind: str) -> FrameSource:
    return Picamera2Source((640, 480)) if kind == "picamera2" else VideoCaptureSource(0)


@pytest.fixture(params=sorted(FINITE))
def finite(request: pytest.FixtureRequest, tmp_path: Path) -> FrameSource:
    return FINITE[request.param](tmp_path)


def test_finite_source_plays_every_frame_in_order_then_ends(finite: FrameSource) -> None:
    with finite as src:
        frames = list(src)
        assert not src.live
        with pytest.raises(EndOfFrames):
            src.read()
    assert [f.index for f in frames] == list(range(N))
    assert all(f.image.dtype == np.uint8 and f.image.shape == (SIZE[1], SIZE[0], 3) for f in frames)
    levels = [_level(f.image) for f in frames]
    assert levels == pytest.approx(LEVELS, abs=6)
    times = [f.t for f in frames]
    assert times == sorted(times) and times[0] == pytest.approx(0.0, abs=1e-6)


def test_close_is_idempotent_and_reading_a_closed_source_fails(finite: FrameSource) -> None:
    with pytest.raises(SourceError):
        finite.read()
    finite.open()
    finite.read()
    finite.close()
    finite.close()
    assert not finite.is_open
    with pytest.raises(SourceError):
        finite.read()


def test_reopening_starts_again_from_the_first_frame(finite: FrameSource) -> None:
    with finite as src:
        src.read()
        src.read()
    with finite as src:
        first = src.read()
    assert first.index == 0 and _level(first.image) == pytest.approx(LEVELS[0], abs=6)


def test_context_manager_closes_on_error(finite: FrameSource) -> None:
    with pytest.raises(RuntimeError):
        with finite:
            raise RuntimeError("boom")
    assert not finite.is_open


@pytest.mark.parametrize("kind", _live_params())
def test_live_source_delivers_growing_frames(kind: str) -> None:
    with _live(kind) as src:
        frames = [src.read() for _ in range(3)]
        assert src.live
    assert [f.index for f in frames] == [0, 1, 2]
    assert all(f.image.ndim == 3 and f.image.shape[2] == 3 for f in frames)
    assert [f.t for f in frames] == sorted(f.t for f in frames)


# --- what is particular to each source --------------------------------------------------------


def test_replay_keeps_the_recorded_timing(tmp_path: Path) -> None:
    with SessionWriter(tmp_path / "s") as w:
        for i, t in enumerate([0.0, 0.25, 1.25, 1.5]):
            w.add(_image(i), t)
    clock = FakeClock()
    with ReplaySource(tmp_path / "s", speed=2.0, clock=clock, sleep=clock.sleep) as src:
        times = [f.t for f in src]
    assert times == [0.0, 0.25, 1.25, 1.5]
    assert clock.slept == pytest.approx([0.125, 0.5, 0.125])  # recorded gaps at double speed


def test_replay_loop_continues_time_forward(tmp_path: Path) -> None:
    src = _replay_folder(tmp_path)
    assert isinstance(src, ReplaySource)
    src.loop = True
    with src:
        frames = [src.read() for _ in range(2 * N + 1)]
    assert _level(frames[N].image) == pytest.approx(LEVELS[0], abs=6)
    times = [f.t for f in frames]
    assert all(b > a for a, b in zip(times, times[1:]))


def test_video_file_loop_starts_again(tmp_path: Path) -> None:
    src = _video_file(tmp_path)
    assert isinstance(src, VideoCaptureSource)
    src.loop = True
    with src:
        levels = [_level(src.read().image) for _ in range(N + 2)]
    assert levels[N] == pytest.approx(LEVELS[0], abs=6)


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda p: ReplaySource(p / "absent"), "no such folder"),
        (lambda p: ReplaySource(p), "holds no frames"),
        (lambda p: VideoCaptureSource(p / "absent.avi"), "no such video file"),
        (lambda p: VideoCaptureSource(p / "junk.avi"), "cannot be decoded"),
        (lambda p: VideoCaptureSource(97), "gives no frames"),
    ],
)
def test_unavailable_sources_say_why_at_open(
    tmp_path: Path, make: Callable[[Path], FrameSource], needle: str
) -> None:
    (tmp_path / "junk.avi").write_bytes(b"\x00junk" * 200)
    src = make(tmp_path)
    with pytest.raises(CameraUnavailable, match=needle):
        src.open()
    assert not src.is_open


def test_a_broken_session_index_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.jpg"), _image(0))
    (folder / "session.json").write_text(json.dumps({"frames": [{"file": "a.jpg"}]}))
    with pytest.raises(CameraUnavailable, match="session index"):
        ReplaySource(folder).open()


@pytest.mark.skipif(importlib.util.find_spec("picamera2") is not None, reason="picamera2 present")
def test_picamera2_off_the_pi_is_a_clear_error() -> None:
    with pytest.raises(CameraUnavailable, match="python3-picamera2"):
        Picamera2Source().open()


def test_sources_from_settings(tmp_path: Path) -> None:
    assert open_source({"source": "none"}) is None
    src = open_source({"source": "replay", "device": str(tmp_path), "fps": 2.0, "loop": True})
    assert isinstance(src, ReplaySource) and src.loop and src.fps == 2.0
    cam = open_source({"source": "opencv", "device": "2", "width": 640, "height": 480})
    assert isinstance(cam, VideoCaptureSource) and cam.device == 2 and cam.live
    assert isinstance(open_source({"source": "picamera2"}), Picamera2Source)


def test_replay_hold_repeats_the_last_frame_until_released(tmp_path: Path) -> None:
    src = _replay_timed(tmp_path)
    assert isinstance(src, ReplaySource)
    src.hold(3)
    with src:
        played = [src.read() for _ in range(3)]
        held = [src.read() for _ in range(4)]
        assert src.position == 3
        src.hold(None)
        rest = list(src)
    assert [_level(f.image) for f in held] == pytest.approx([LEVELS[2]] * 4, abs=6)
    times = [f.t for f in played + held + rest]
    assert times == sorted(times) and len(set(times)) == len(times)
    assert [_level(f.image) for f in rest] == pytest.approx(LEVELS[3:], abs=6)
    # the recording keeps its own spacing after the pause
    gaps = [b.t - a.t for a, b in zip(rest, rest[1:])]
    assert gaps == pytest.approx([0.5] * (len(rest) - 1))
