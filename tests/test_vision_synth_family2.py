"""The second held-out family: unlike train, bench and the first family on every axis, drawn
deterministically, its letters legible as the game's letters in the way each lettering
promises. These tests only render: no reader looks at the second family."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from companion.games.moerder.board import Board
from vision import synth
from vision.synth.faces import tile_face
from vision.synth.letterings import draw_letter
from vision.synth.scene import table_cloth

_NEW_LETTERINGS = (synth.Lettering.BLOCK, synth.Lettering.STENCIL, synth.Lettering.INLINE)
_INK, _FACE = (10, 10, 10), (240, 240, 240)


@pytest.fixture(scope="module")
def family2() -> list[synth.Style]:
    return synth.styles("family2")


def test_family2_shares_no_value_of_any_axis_with_the_other_splits(
        family2: list[synth.Style]) -> None:
    seen = synth.styles("train") + synth.styles("bench") + synth.styles("family")
    assert len(family2) == 12 and len({s.name for s in family2}) == 12
    assert all(s.name.startswith(f"family2-{i}-{s.lettering.value}-{s.material.value}-")
               and s.name.endswith(s.pattern.value) for i, s in enumerate(family2))
    assert all(s.font is None for s in family2) and synth.fonts("family2") == []
    axes = ("lettering", "material", "pattern", "victim", "table", "light", "lens", "face",
            "ink", "back", "back_ink", "table_colour", "radius", "letter_scale")
    for axis in axes:
        assert not {getattr(s, axis) for s in family2} & {getattr(s, axis) for s in seen}, axis
    assert synth.Light() not in {s.light for s in family2}
    assert synth.Lens() not in {s.lens for s in family2}
    for axis in ("lettering", "material", "pattern", "victim", "table", "light", "lens"):
        assert len({getattr(s, axis) for s in family2}) >= 3, axis


def test_family2_renders_the_same_for_the_same_seed(family2: list[synth.Style]) -> None:
    board = Board.parse("MÖRDE./....../..X.../....../....../......")
    for style in family2[:3]:  # each of the three tables, letterings and backs
        a, ta = synth.render_table(board, style, seed=5, size=(640, 480))
        b, tb = synth.render_table(board, style, seed=5, size=(640, 480))
        assert np.array_equal(a, b) and np.array_equal(ta.tiles, tb.tiles)
        h, w = a.shape[:2]
        assert np.all((ta.corners >= 0) & (ta.corners < [w, h]))
    c, _ = synth.render_table(board, family2[0], seed=6, size=(640, 480))
    assert not np.array_equal(synth.render_table(board, family2[0], seed=5,
                                                 size=(640, 480))[0], c)


def test_family2_tables_are_textured_and_drawn_from_their_generator() -> None:
    for kind in (synth.Table.TERRAZZO, synth.Table.STRIPED, synth.Table.OILCLOTH):
        a = table_cloth((320, 240), kind, (120, 150, 165), np.random.default_rng(1))
        b = table_cloth((320, 240), kind, (120, 150, 165), np.random.default_rng(1))
        c = table_cloth((320, 240), kind, (120, 150, 165), np.random.default_rng(2))
        assert a.shape == (240, 320, 3) and np.array_equal(a, b), kind
        assert not np.array_equal(a, c) and a.std() > 8, kind


def test_family2_faces_have_their_material_and_differ_from_one_another(
        family2: list[synth.Style]) -> None:
    for style in family2[:5]:  # every tile set
        faces = {k: tile_face(k, 96, style) for k in ("M", "Ö", "R", "D", "E", "X", "back")}
        assert len({f.tobytes() for f in faces.values()}) == 7, style.name
        card = dataclasses.replace(style, material=synth.Material.CARD)
        assert not np.array_equal(faces["M"], tile_face("M", 96, card)), style.name
        # the victim is a picture in colours of its own, not a letter in the ink
        picture = faces["X"].reshape(-1, 3).astype(int)
        own = np.abs(picture - style.face).sum(axis=1) > 60
        own &= np.abs(picture - style.ink).sum(axis=1) > 60
        assert own.mean() > 0.03, style.name


def _dark(lettering: synth.Lettering, letter: str, side: int = 128) -> np.ndarray:
    return draw_letter(letter, side, lettering, 0.62, _INK, _FACE).min(axis=2) < 128


@pytest.mark.parametrize("lettering", _NEW_LETTERINGS)
def test_new_letterings_draw_five_letters_with_the_umlauts_two_dots(
        lettering: synth.Lettering) -> None:
    dark = {c: _dark(lettering, c) for c in "MÖRDEO"}
    assert len({m.tobytes() for m in dark.values()}) == 6
    top_o = np.flatnonzero(dark["O"].any(axis=1))[0]
    above = dark["Ö"][: top_o - 2].astype(np.uint8)
    assert cv2.connectedComponents(above)[0] - 1 == 2  # two dots, nothing else up there


def test_block_letters_have_square_corners_and_flat_ends() -> None:
    block, marker = _dark(synth.Lettering.BLOCK, "E"), _dark(synth.Lettering.MARKER, "E")
    for mask, square in ((block, True), (marker, False)):
        ys, xs = np.nonzero(mask)
        corners = [mask[y, x] for y in (ys.min(), ys.max()) for x in (xs.min(), xs.max())]
        assert all(corners) is square  # a round pen leaves the box's corners empty


def test_stencil_letters_are_cut_by_bridges_and_inline_letters_by_a_line() -> None:
    pieces = {c: cv2.connectedComponents(_dark(synth.Lettering.STENCIL, c).astype(np.uint8))[0]
              - 1 for c in "MORDE"}
    assert pieces == {"M": 3, "O": 2, "R": 2, "D": 2, "E": 4}
    # across the E's stem: ink, the face-coloured line, ink again
    inline = _dark(synth.Lettering.INLINE, "E", side=256)
    row = inline[inline.shape[0] // 2 + 30]
    assert np.count_nonzero(np.diff(row.astype(int)) == 1) == 2
