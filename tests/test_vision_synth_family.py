"""The held-out family: unlike train and bench on every axis, drawn deterministically, its
letters legible as the game's letters and its lens truthful about where tiles land."""

from __future__ import annotations

import numpy as np
import pytest

from companion.games.moerder.board import Board
from vision import synth
from vision.synth.family_scene import lens
from vision.synth.letterings import LetteringError, draw_letter


@pytest.fixture(scope="module")
def family() -> list[synth.Style]:
    return synth.styles("family")


def test_family_shares_no_font_back_victim_or_colour_with_train_and_bench(
        family: list[synth.Style]) -> None:
    seen = synth.styles("train") + synth.styles("bench")
    assert family and len({s.name for s in family}) == len(family)
    assert all(s.font is None and s.lettering is not synth.Lettering.FONT for s in family)
    # train and bench draw letters from fonts; train also draws some hollow or as dots, by
    # the letter trainer's strokes, never by the family's own letterings
    font_drawn = {synth.Lettering.FONT, synth.Lettering.FONT_HOLLOW, synth.Lettering.FONT_DOTS}
    assert all(s.lettering in font_drawn and s.font is not None for s in seen)
    assert all(s.lettering is synth.Lettering.FONT for s in synth.styles("bench"))
    assert not {s.lettering for s in family} & font_drawn
    assert not {s.pattern for s in family} & {s.pattern for s in seen}
    assert not {s.victim for s in family} & {s.victim for s in seen}
    assert not {s.table for s in family} & {s.table for s in seen}
    assert not {s.back for s in family} & {s.back for s in seen}
    assert not {s.face for s in family} & {s.face for s in seen}
    # train has tile materials of its own to tune on, none of them one of the family's
    assert not {s.material for s in family} & {s.material for s in seen} - {synth.Material.CARD}
    assert all(s.material is synth.Material.CARD for s in synth.styles("bench"))
    # train has rooms and lenses of its own to tune on, none of them one of the family's
    assert not {s.light for s in family} & {s.light for s in seen} - {synth.Light()}
    assert not {s.lens for s in family} & {s.lens for s in seen} - {synth.Lens()}
    # every axis the family holds varies within it
    for axis in ("lettering", "material", "pattern", "victim", "table", "light", "lens"):
        assert len({getattr(s, axis) for s in family}) >= 3, axis


def test_family_renders_the_same_for_the_same_seed(family: list[synth.Style]) -> None:
    board = Board.parse("MÖRDE./....../..X.../....../....../......")
    for style in (family[1], family[4]):  # glossy tiles, a lens with barrel and defocus
        a, ta = synth.render_table(board, style, seed=5, size=(1280, 960))
        b, tb = synth.render_table(board, style, seed=5, size=(1280, 960))
        c, _ = synth.render_table(board, style, seed=6, size=(1280, 960))
        assert np.array_equal(a, b) and np.array_equal(ta.tiles, tb.tiles)
        assert not np.array_equal(a, c)
        h, w = a.shape[:2]
        assert np.all((ta.corners >= 0) & (ta.corners < [w, h]))


@pytest.mark.parametrize("lettering",
                         [x for x in synth.Lettering if not x.value.startswith("font")])
def test_every_lettering_draws_the_game_letters_and_the_umlaut(
        lettering: synth.Lettering) -> None:
    ink, face = (10, 10, 10), (240, 240, 240)
    drawn = {c: draw_letter(c, 96, lettering, 0.62, ink, face) for c in "MÖRDEO"}
    dark = {c: (img.min(axis=2) < 128) for c, img in drawn.items()}
    assert all(m.sum() > 40 for m in dark.values())
    assert len({m.tobytes() for m in dark.values()}) == 6  # six different shapes
    rows = np.flatnonzero(dark["Ö"].any(axis=1))
    top_o = np.flatnonzero(dark["O"].any(axis=1))[0]
    assert rows[0] < top_o - 3  # the dots stand above the O's top
    with pytest.raises(LetteringError):
        draw_letter("K", 96, lettering, 0.62, ink, face)


def test_barrel_lens_moves_the_truth_with_the_picture() -> None:
    img = np.zeros((480, 640, 3), np.uint8)
    points = np.array([[600.0, 440.0], [50.0, 60.0], [320.0, 240.0]])
    for x, y in points.astype(int):
        img[y - 1 : y + 2, x - 1 : x + 2] = 255
    out, moved = lens(img, points, synth.Lens(barrel=0.1))
    for (x, y), (mx, my) in zip(points, moved, strict=True):
        ys, xs = np.nonzero(out[:, :, 0] > 60)
        near = (np.abs(xs - mx) < 6) & (np.abs(ys - my) < 6)
        assert near.any(), (x, y, mx, my)
    assert np.hypot(*(moved[0] - [320, 240])) < np.hypot(*(points[0] - [320, 240])) - 5
    assert np.allclose(moved[2], points[2])
