"""Annotated photos of letter cubes: loading ``annotations.csv`` and the TUNE / REPORT split.

The split is by a stable hash of the file name (not the order of the rows, not random), so
every tool — training, threshold fitting, the bench, the tests — puts a photo on the same
side, and a photo added later lands on a side without moving any other. Everything that is
fitted (network weights, thresholds) sees TUNE only; figures are quoted on REPORT.
"""

from __future__ import annotations

import csv
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

Split = Literal["tune", "report"]


@dataclass(frozen=True)
class Cube:
    """One annotated cube: ``label`` as written (a-z, 'qu', digraphs, 'wild'), box in pixels."""

    label: str
    box: tuple[float, float, float, float]  # xmin, ymin, xmax, ymax

    @property
    def letter(self) -> str | None:
        """The upper-case letter of a single-letter cube (the only ones scored), else None."""
        return self.label.upper() if len(self.label) == 1 and self.label.isalpha() else None

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return (x0 + x1) / 2.0, (y0 + y1) / 2.0


@dataclass(frozen=True)
class Photo:
    """One photo's file and its cubes."""

    path: Path
    cubes: tuple[Cube, ...]

    @property
    def split(self) -> Split:
        return split_of(self.path.name)


def split_of(name: str) -> Split:
    """TUNE or REPORT, from the first byte of the name's SHA-1 (about half each)."""
    return "tune" if hashlib.sha1(name.encode("utf-8")).digest()[0] % 2 == 0 else "report"


def is_calibration(name: str) -> bool:
    """A quarter of TUNE kept out of fitting weights, to fit the confidence and thresholds."""
    digest = hashlib.sha1(name.encode("utf-8")).digest()
    return split_of(name) == "tune" and digest[1] % 4 == 0


def load(folder: str | Path, split: Split | None = None) -> list[Photo]:
    """The photos of ``folder/annotations.csv`` (one split, or all), sorted by name."""
    root = Path(folder)
    cubes: dict[str, list[Cube]] = {}
    with open(root / "annotations.csv", newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            box = tuple(float(row[k]) for k in ("xmin", "ymin", "xmax", "ymax"))
            label = row["class"].strip().lower()
            cubes.setdefault(row["filename"], []).append(Cube(label, box))  # type: ignore[arg-type]
    photos = [Photo(root / name, tuple(c)) for name, c in sorted(cubes.items())]
    return [p for p in photos if split is None or p.split == split]


__all__ = ["Cube", "Photo", "Split", "is_calibration", "load", "split_of"]
