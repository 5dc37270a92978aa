"""Annotated photos of letter cubes: loading ``annotations.csv`` and the TUNE / REPORT split.

The split is by a stable hash of the file name (not the order of the rows, not random), so
every tool — training, threshold fitting, the bench, the tests — puts a photo on the same
side, and a photo added later lands on a side without moving any other. Everything that is
fitted (network weights, thresholds) sees TUNE only; figures are quoted on REPORT.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Sequence
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


@dataclass(frozen=True)
class Score:
    """How one picture's found dice compare with its annotated cubes."""

    letters: int  # single-letter cubes annotated
    found: int  # of them matched by a found die
    right: int  # of them matched and read right
    unsure: int  # of them matched and read '?'
    false: int  # found dice matching no annotated cube (of any kind)
    wrong: tuple[tuple[str, str], ...]  # (annotated, read) for sure but wrong readings

    def __add__(self, other: Score) -> Score:
        return Score(self.letters + other.letters, self.found + other.found,
                     self.right + other.right, self.unsure + other.unsure,
                     self.false + other.false, self.wrong + other.wrong)


Found = tuple[str, tuple[float, float], tuple[float, float, float, float]]  # letter, centre, box


def score(cubes: Sequence[Cube], found: Sequence[Found], unsure: str = "?") -> Score:
    """One-to-one matching: a die matches a cube when their boxes overlap by IoU >= 0.5 or the
    die's centre lies inside the cube's box; nearest centres are paired first."""
    pairs = []
    for i, cube in enumerate(cubes):
        for j, (_, (x, y), box) in enumerate(found):
            inside = cube.box[0] <= x <= cube.box[2] and cube.box[1] <= y <= cube.box[3]
            if inside or _iou(cube.box, box) >= 0.5:
                cx, cy = cube.center
                pairs.append(((x - cx) ** 2 + (y - cy) ** 2, i, j))
    cube_of: dict[int, int] = {}
    used: set[int] = set()
    for _, i, j in sorted(pairs):
        if i not in cube_of and j not in used:
            cube_of[i] = j
            used.add(j)
    letters = found_n = right = unsure_n = 0
    wrong: list[tuple[str, str]] = []
    for i, cube in enumerate(cubes):
        if cube.letter is None:
            continue
        letters += 1
        if i in cube_of:
            found_n += 1
            read = found[cube_of[i]][0]
            right += read == cube.letter
            unsure_n += read == unsure
            if read not in (cube.letter, unsure):
                wrong.append((cube.letter, read))
    return Score(letters, found_n, right, unsure_n, len(found) - len(used), tuple(wrong))


def _iou(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def split_of(name: str) -> Split:
    """TUNE or REPORT, from the first byte of the name's SHA-1 (about half each)."""
    return "tune" if hashlib.sha1(name.encode("utf-8")).digest()[0] % 2 == 0 else "report"


def is_calibration(name: str) -> bool:
    """A quarter of TUNE kept out of fitting weights, to fit the confidence and thresholds."""
    digest = hashlib.sha1(name.encode("utf-8")).digest()
    return split_of(name) == "tune" and digest[1] % 4 == 0


def fold_of(name: str, n: int) -> int:
    """Which of ``n`` folds of TUNE a photo is in (third byte of the SHA-1): a finder trained
    without one fold shows on it the false dice an unseen photo would get."""
    return hashlib.sha1(name.encode("utf-8")).digest()[2] % n


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


__all__ = ["Cube", "Found", "Photo", "Score", "Split", "score", "fold_of", "is_calibration", "load", "split_of"]
