"""Render realistic photos of a Finde-den-Mörder table, with the ground truth of every tile.

Tests, the bench and ``companion demo`` need tables we know the answer for. A render draws a
top-down "table plane" (wood or cloth, 36 hand-laid tiles with their shadows), then looks at it
through a tilted camera (a homography), and spoils it the way a real camera does: uneven
light, glare, blur, sensor noise and JPEG. Everything is drawn from a seed, so a render is
reproducible bit for bit.

Styles come in four splits that never overlap: ``"train"`` (fonts, colours, back patterns and
victim pictures that may be used to tune or train anything), ``"bench"`` (never used for
tuning; the bench measures on them only) and ``"family"``, held out of all tuning and
training and unlike both on every axis: letters drawn from strokes of our own instead of a
font, tile materials (wood, glossy plastic, a printed border), backs with words or a
monogram, other victim pictures, felt, checked and plank tables, the room's light and the
lens. ``"family2"`` is a second held-out family for when the first had been looked at,
unlike all three on every axis again (:mod:`vision.synth.family2`). Fonts come from
:mod:`vision.glyphs` when it is there (its own train/test split), else from a built-in list
with the same rule.

Letter dice (Wort-Kniffel) have their own renderer on the same tables and camera faults:
:mod:`vision.synth.dice` (``render_throw``, ``throw_sequence``).

Example::

    layout = make_layout(style, seed=7)
    for image, truth in render_game(boards, style, seed=7):  # same tiles, turned one by one
        ...
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.games.moerder.board import CELLS, Board, Tile
from vision.synth.faces import tile_face
from vision.synth.scene import make_layout, random_board, render_table
from vision.synth.styles import (
    BackPattern,
    Layout,
    Lens,
    Lettering,
    Light,
    Material,
    Style,
    Table,
    Victim,
    fonts,
    styles,
)
from vision.synth.truth import Truth


@dataclass(frozen=True)
class GameFrame:
    """One frame of a rendered game: the image, its truth, and the turn it belongs to."""

    image: np.ndarray
    truth: Truth
    turn: int
    still: bool = field(default=True)  # False while a hand is over the grid


def game_boards(seed: int, turns: int = CELLS) -> list[Board]:
    """Boards of a game in which one more tile is turned each turn (seeded order)."""
    final = random_board(np.random.default_rng([seed, 3]), face_up=CELLS)
    order = np.random.default_rng([seed, 4]).permutation(CELLS)[:turns]
    boards = [Board()]
    cells: list[Tile | None] = [None] * CELLS
    for i in order:
        cells[int(i)] = final.cells[int(i)]
        boards.append(Board(tuple(cells)))
    return boards


def render_game(boards: Sequence[Board], style: Style, seed: int, *,
                size: tuple[int, int] | None = None, hands: bool = True,
                still_frames: int = 1) -> Iterator[GameFrame]:
    """Frames of a whole game on one layout: before each new board (after the first) a frame
    with a hand reaching over the grid if ``hands``, then ``still_frames`` still frames."""
    layout = make_layout(style, seed, size)
    frame = 0
    for turn, board in enumerate(boards):
        if hands and turn > 0:
            img, truth = render_table(boards[turn - 1], style, seed, layout=layout, hand=True,
                                      frame=frame)
            frame += 1
            yield GameFrame(img, truth, turn, still=False)
        for _ in range(still_frames):
            img, truth = render_table(board, style, seed, layout=layout, frame=frame)
            frame += 1
            yield GameFrame(img, truth, turn)


def hand_shadow(image: np.ndarray, corners: np.ndarray, seed: int) -> np.ndarray:
    """``image`` with a hand's soft shadow over the grid (``corners``): a dark ellipse a
    quarter to two fifths of the grid wide near its middle, the light down to 45-70 %
    under it. The renders' light casts none; a reference taken without it shows whether a
    shaded back stays a back."""
    rng = np.random.default_rng([seed, 7])
    side = corners[1] - corners[0]
    centre = corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * side
    ax = int(np.linalg.norm(side) * rng.uniform(0.2, 0.4))
    mask = np.zeros(image.shape[:2], np.float32)
    cv2.ellipse(mask, (int(centre[0]), int(centre[1])), (ax, int(ax * 0.6)),
                float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    shade = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(ax * 0.15, 1.0)), np.float32)
    dark = float(rng.uniform(0.45, 0.7))
    out: np.ndarray = np.clip(image * (1 - (1 - dark) * shade[..., None]), 0, 255)
    return out.astype(np.uint8)


__all__ = [
    "BackPattern",
    "GameFrame",
    "Layout",
    "Lens",
    "Lettering",
    "Light",
    "Material",
    "Style",
    "Table",
    "Truth",
    "Victim",
    "fonts",
    "game_boards",
    "hand_shadow",
    "make_layout",
    "random_board",
    "render_game",
    "render_table",
    "styles",
    "tile_face",
]
