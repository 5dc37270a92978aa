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


__all__ = ["CLOSE_PX", "ink_against", "paper_of"]
