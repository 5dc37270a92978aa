"""Frames in, observations out: find the table's grid, read its tiles, letters and dice.

Vision never decides the game; it reports what it sees with a confidence.
"""

import os

from companion.errors import CompanionError


class VisionError(CompanionError, ValueError):
    """Root of the errors vision raises (no grid found, unreadable image…)."""


def on_one_core() -> None:
    """Run OpenCV's work on the calling thread. A frame's read is sized for one core (on a
    Pi the others serve the camera, the dashboard and the log), and on images this small
    OpenCV's own thread pool made reads slower, not quicker: pinned to one core, a photo read
    whole took 84-146 ms with the pool and 80-88 ms without (the benches always ran so).
    Tesseract (a pad's printed labels) inherits the same: its OpenMP threads, waiting on one
    another, made one call on a pad's 39 printed cells take 2.3 s of one core, 0.39 s
    without them (a limit the user set stays)."""
    import cv2

    cv2.setNumThreads(1)
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")


__all__ = ["VisionError", "on_one_core"]
