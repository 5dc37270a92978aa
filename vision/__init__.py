"""Frames in, observations out: find the table's grid, read its tiles, letters and dice.

Vision never decides the game; it reports what it sees with a confidence.
"""

from companion.errors import CompanionError


class VisionError(CompanionError, ValueError):
    """Root of the errors vision raises (no grid found, unreadable image…)."""


def on_one_core() -> None:
    """Run OpenCV's work on the calling thread. A frame's read is sized for one core (on a
    Pi the others serve the camera, the dashboard and the log), and on images this small
    OpenCV's own thread pool made reads slower, not quicker: pinned to one core, a photo read
    whole took 84-146 ms with the pool and 80-88 ms without (the benches always ran so)."""
    import cv2

    cv2.setNumThreads(1)


__all__ = ["VisionError", "on_one_core"]
