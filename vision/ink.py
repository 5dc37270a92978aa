"""Ink as both score-pad readers see it: how much darker each pixel is than the paper
around it. The paper is a closing wider than any stroke: it fills a stroke, but keeps a
ramp or a step as it is, so the edge of a shadow (dark on one side only) is not ink, where
a local maximum, smoothed, would make it a line or a band across the boxes."""

from __future__ import annotations

import cv2
import numpy as np

CLOSE_PX = 15  # a closing wider than any stroke or printed line: the paper level


def paper_of(gray: np.ndarray) -> np.ndarray:
    """The paper's brightness at every pixel: ``gray`` with its strokes and lines closed
    over."""
    closed: np.ndarray = cv2.morphologyEx(gray, cv2.MORPH_CLOSE,
                                          np.ones((CLOSE_PX, CLOSE_PX), np.uint8))
    return closed


def ink_against(gray: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """0..1: how much darker than ``paper`` (:func:`paper_of`) each pixel is."""
    g = gray.astype(np.float32)
    level = np.maximum(cv2.GaussianBlur(paper.astype(np.float32), (0, 0), 1.5), g)
    ink: np.ndarray = np.clip((level - g) / np.maximum(level, 20.0), 0.0, 1.0)
    return ink


def ink_map(gray: np.ndarray) -> np.ndarray:
    """0..1: how much darker than the local paper each pixel is (as the markerless reader
    sees it, and the printed pad's reader too): a tinted sum row is no ink, nor is the edge
    of a hard shadow (a hand or a phone under a lamp), where the local maximum, smoothed,
    spread the lit side some 12 px into the shade, a band of ink across the boxes."""
    return ink_against(gray, paper_of(gray))


def darkest(ink_box: np.ndarray) -> float:
    """The box's darkest ink, bar specks: its 99.5th percentile (as ``np.percentile``'s
    linear one), by one partition; numpy's percentile costs several times more on a box
    this small, and every cell of a markerless sheet asks for it (is it print?)."""
    flat = ink_box.ravel()
    n = flat.size
    if n == 0:
        return 0.0
    at = 0.995 * (n - 1)
    lo, hi = int(at), min(int(at) + 1, n - 1)
    inked = flat[flat > 0.05]  # a box is mostly paper: the top ranks lie among its ink
    skipped = n - inked.size
    if skipped <= lo:
        flat, lo, hi, at = inked, lo - skipped, hi - skipped, at - skipped
    part = np.partition(flat, (lo, hi))
    return float(part[lo] + (at - lo) * (part[hi] - part[lo]))


__all__ = ["CLOSE_PX", "darkest", "ink_against", "ink_map", "paper_of"]
