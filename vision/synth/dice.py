"""Render photos of Wort-Kniffel letter dice lying on a table, with the truth of every die.

The dice reader needs throws whose answer is known: seven cubes at any position and rotation,
seen from a camera about 60 cm above the table. Each die is a real cube in a pinhole view
straight down: its top face lies one die-height nearer the camera, so it looks a little larger
than its footprint and leans away from the image centre, which shows the side faces turned
towards the centre. Shadows fall away from the style's light; a hand, motion blur (dice still
rolling) and a tray are options; the camera's faults come from :func:`scene.spoil`.

Everything is drawn from seeds, so a render is reproducible bit for bit. Styles of the
``"bench"`` split use fonts the letter reader never trained on.

Example::

    scene = render_throw(Roll.parse("T2 O3 R2 E1 I1 C4 H3").faces, seed=7)
    for frame in throw_sequence(DEFAULT_DICE, seed=7, turns=2):
        ...  # frame.image, frame.truth (None while dice move), frame.note

Run ``python -m vision.synth.dice --out DIR --n 5`` to write sample PNGs.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.games.kniffel.dice import DEFAULT_DICE, N_DICE, DiceSet, Face, Roll
from companion.games.kniffel.rules import ROLLS_PER_TURN
from vision.synth.dice_faces import DiceStyle, dice_style, die_fonts
from vision.synth.dice_scene import (
    DEFAULT_SIZE,
    DiceLayout,
    PlacedDie,
    Point,
    Pose,
    dice_layout,
    place_dice,
    render_dice,
    square,
)
from vision.synth.styles import Split


@dataclass(frozen=True)
class DieTruth:
    """One die as the image shows it: its top face, where it is and how it is turned."""

    letter: str  # "A".."Z", or "*" for the diamond
    value: int  # 0 for the diamond
    center: Point  # centre of the top face, image px
    corners: tuple[Point, Point, Point, Point]  # top face TL, TR, BR, BL as the letter reads
    rotation: float  # how far the letter is turned clockwise, degrees in [0, 360)
    die: int = 0  # which die: index into the faces asked, or into the dice set

    @property
    def face(self) -> Face:
        return Face(self.letter, self.value)


@dataclass(frozen=True)
class DiceScene:
    """A rendered photo (BGR uint8, H x W x 3) and the dice it shows."""

    image: np.ndarray
    truth: tuple[DieTruth, ...]
    style: str = ""
    hand: bool = False
    blur: float = 0.0


def _truth(die: PlacedDie, index: int, layout: DiceLayout) -> DieTruth:
    corners = layout.lift(square(die.pose, layout.side / 2), layout.side)
    centre = layout.lift(np.array([die.pose.x, die.pose.y]), layout.side)
    pts = tuple((float(x), float(y)) for x, y in corners)
    return DieTruth(die.face.letter, die.face.value, (float(centre[0]), float(centre[1])),
                    (pts[0], pts[1], pts[2], pts[3]), die.pose.angle % 360, index)



def _random_sides(rng: np.random.Generator, pool: Sequence[Face]) -> tuple[Face, Face, Face, Face]:
    picks = [pool[int(i)] for i in rng.integers(0, len(pool), 4)]
    return (picks[0], picks[1], picks[2], picks[3])


def _streak(rng: np.random.Generator, length: float) -> tuple[float, float]:
    a = rng.uniform(0, 2 * math.pi)
    return (length * math.cos(a), length * math.sin(a))


def render_throw(faces: Sequence[Face], seed: int, *, size: tuple[int, int] = DEFAULT_SIZE,
                 style: DiceStyle | None = None, hand: bool = False, blur: float = 0.0,
                 tray: bool = False, split: Split = "train") -> DiceScene:
    """One to seven dice showing ``faces``, lying where ``seed`` throws them.

    ``blur`` smears every die along its own direction by that many die sides (dice still
    rolling); ``style`` defaults to one drawn from ``seed`` with a font of ``split``.
    """
    if not 1 <= len(faces) <= N_DICE:
        raise ValueError(f"a throw has 1 to {N_DICE} dice, got {len(faces)}")
    style = style if style is not None else dice_style(seed, split)
    layout = dice_layout(seed, size, tray=tray)
    rng = np.random.default_rng([seed, 1])
    poses = place_dice(len(faces), layout, rng)
    pool = [f for die in DEFAULT_DICE.dice for f in die]
    dice = [PlacedDie(f, _random_sides(rng, pool), p, _streak(rng, blur * layout.top))
            for f, p in zip(faces, poses, strict=True)]
    image = render_dice(dice, layout, style, np.random.default_rng([seed, 2]), hand=hand)
    truth = tuple(_truth(d, i, layout) for i, d in enumerate(dice))
    return DiceScene(image, truth, style.name, hand, blur)


def random_roll(dice_set: DiceSet, rng: np.random.Generator) -> Roll:
    """A roll the set can throw: one of each die's six faces, die ``i`` at position ``i``."""
    return Roll(tuple(die[int(rng.integers(len(die)))] for die in dice_set.dice))


# --------------------------------------------------------------------------------------------
# Sequences: what the demo plays


@dataclass(frozen=True)
class ThrowFrame:
    """One frame of a played sequence; ``truth`` is None while dice still move (nothing is
    to be read then). ``kept`` names the dice (by index in the set) left lying since the
    previous throw of the turn."""

    image: np.ndarray
    truth: tuple[DieTruth, ...] | None
    note: str
    turn: int
    throw: int
    kept: tuple[int, ...] = ()

    @property
    def roll(self) -> Roll | None:
        """The seven faces at rest, die ``i`` at position ``i`` (None while moving)."""
        if self.truth is None or len(self.truth) != N_DICE:
            return None
        return Roll(tuple(t.face for t in self.truth))


def _die_sides(rng: np.random.Generator, die: Sequence[Face],
               top: Face) -> tuple[Face, Face, Face, Face]:
    """Four of the die's other faces on its sides (which one is underneath does not show)."""
    others = [f for f in die if f != top] or list(die)
    picks = [others[int(i) % len(others)] for i in rng.permutation(len(others))[:4]]
    while len(picks) < 4:
        picks.append(picks[-1])
    return (picks[0], picks[1], picks[2], picks[3])


def _rest(dice_set: DiceSet, layout: DiceLayout, rng: np.random.Generator,
          before: Sequence[PlacedDie] | None, kept: Sequence[int]) -> list[PlacedDie]:
    """Where the dice come to rest: kept dice lie as before, the others land anew."""
    fixed = [before[d].pose for d in kept] if before is not None else []
    poses = iter(place_dice(N_DICE - len(fixed), layout, rng, fixed))
    out: list[PlacedDie] = []
    for d, die in enumerate(dice_set.dice):
        if before is not None and d in kept:
            out.append(before[d])
            continue
        face = die[int(rng.integers(len(die)))]
        out.append(PlacedDie(face, _die_sides(rng, die, face), next(poses)))
    return out


def _rolling(dice_set: DiceSet, layout: DiceLayout, rng: np.random.Generator,
             rest: Sequence[PlacedDie], kept: Sequence[int], speed: float) -> list[PlacedDie]:
    """The dice in flight: thrown ones tumble elsewhere, smeared by ``speed`` die sides."""
    fixed = [rest[d].pose for d in kept]
    poses = iter(place_dice(N_DICE - len(fixed), layout, rng, fixed))
    out: list[PlacedDie] = []
    for d, die in enumerate(dice_set.dice):
        if d in kept:
            out.append(rest[d])
            continue
        face = die[int(rng.integers(len(die)))]
        streak = _streak(rng, speed * float(rng.uniform(0.6, 1.2)) * layout.top)
        out.append(PlacedDie(face, _die_sides(rng, die, face), next(poses), streak))
    return out


def iter_throws(dice_set: DiceSet = DEFAULT_DICE, seed: int = 0, turns: int = 2, *,
                throws: int | None = None, moving: int = 2, still: int = 3,
                size: tuple[int, int] = DEFAULT_SIZE, style: DiceStyle | None = None,
                split: Split = "train", tray: bool = False) -> Iterator[ThrowFrame]:
    """The frames of ``turns`` Wort-Kniffel turns on one table, as the demo plays them.

    Each throw shows ``moving`` frames of dice in flight (a hand in the first), then
    ``still`` identical frames of the dice at rest (one array, shared: a still table looks
    the same twice). A turn has ``throws`` throws (drawn 1-3 per turn if None); before each
    re-throw some dice are kept and lie exactly where they lay.
    """
    style = style if style is not None else dice_style(seed, split)
    layout = dice_layout(seed, size, tray=tray)
    rng = np.random.default_rng([seed, 5])
    for turn in range(turns):
        n_throws = throws if throws is not None else int(rng.integers(1, ROLLS_PER_TURN + 1))
        lying: list[PlacedDie] | None = None
        for throw in range(n_throws):
            kept: tuple[int, ...] = ()
            if lying is not None:
                count = int(rng.integers(1, N_DICE))
                kept = tuple(sorted(int(d) for d in rng.choice(N_DICE, count, replace=False)))
            lying = _rest(dice_set, layout, rng, lying, kept)
            where = f"turn {turn + 1} throw {throw + 1}"
            for k in range(moving):
                frame_rng = np.random.default_rng([seed, turn, throw, k, 7])
                flying = _rolling(dice_set, layout, frame_rng, lying, kept, (moving - k) / moving)
                img = render_dice(flying, layout, style, frame_rng, hand=k == 0)
                yield ThrowFrame(img, None, f"{where}: rolling", turn, throw, kept)
            img = render_dice(lying, layout, style, np.random.default_rng([seed, turn, throw, 8]))
            img.setflags(write=False)
            truth = tuple(_truth(d, i, layout) for i, d in enumerate(lying))
            roll = Roll(tuple(d.face for d in lying))
            note = f"{where}: at rest {roll}" + (f", kept {list(kept)}" if kept else "")
            frame = ThrowFrame(img, truth, note, turn, throw, kept)
            for _ in range(still):
                yield frame


def throw_sequence(dice_set: DiceSet = DEFAULT_DICE, seed: int = 0, turns: int = 2,
                   **options: Any) -> list[ThrowFrame]:
    """:func:`iter_throws` as a list (a whole game's frames are better rendered one by one)."""
    return list(iter_throws(dice_set, seed, turns, **options))


# --------------------------------------------------------------------------------------------
# Samples to look at


def main(argv: Sequence[str] | None = None) -> int:
    """Write sample renders (PNG) so people can see what the reader is trained and measured
    on: every fourth with a hand, a tray, or dice still rolling."""
    parser = argparse.ArgumentParser(prog="python -m vision.synth.dice", description=__doc__)
    parser.add_argument("--out", type=Path, required=True, help="folder for the PNG files")
    parser.add_argument("--n", type=int, default=5, help="how many throws to render")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first throw")
    parser.add_argument("--split", choices=("train", "bench"), default="train")
    parser.add_argument("--sequence", type=int, default=0, metavar="TURNS",
                        help="also write the frames of a throw sequence of TURNS turns")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for i in range(args.n):
        seed = args.seed + i
        roll = random_roll(DEFAULT_DICE, np.random.default_rng([seed, 9]))
        kind = i % 4
        scene = render_throw(roll.faces, seed, hand=kind == 1, tray=kind == 2,
                             blur=0.5 if kind == 3 else 0.0, split=args.split)
        path = args.out / f"throw_{seed:04d}.png"
        cv2.imwrite(str(path), scene.image)
        print(f"{path}  {roll}  {scene.style}")
    if args.sequence:
        frames = throw_sequence(DEFAULT_DICE, args.seed, args.sequence, split=args.split)
        for n, frame in enumerate(frames):
            path = args.out / f"sequence_{args.seed:04d}_{n:03d}.png"
            cv2.imwrite(str(path), frame.image)
            print(f"{path}  {frame.note}")
    return 0


__all__ = [
    "DEFAULT_SIZE",
    "DiceLayout",
    "DiceScene",
    "DiceStyle",
    "DieTruth",
    "Pose",
    "ThrowFrame",
    "dice_layout",
    "dice_style",
    "die_fonts",
    "main",
    "place_dice",
    "random_roll",
    "render_throw",
    "throw_sequence",
]


if __name__ == "__main__":
    raise SystemExit(main())
