"""Letters redrawn hollow, as dots, stencilled or dashed look like what they claim to be."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import glyphs  # noqa: E402
from vision.glyphs.strokes import KINDS, Style, restyle_picture  # noqa: E402


@pytest.fixture(scope="module")
def bold() -> Path:
    """A heavy train font: its strokes are thick enough to have a middle."""
    for font in glyphs.font_paths("train"):
        if font.name in ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "NimbusSans-Bold.otf", "FreeSansBold.ttf"):
            return font
    pytest.skip("needs a bold sans train font (scripts/apt-packages.txt)")


def _pieces(mask: np.ndarray) -> list[int]:
    """Areas of the separate pieces of ink."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((mask > 0.5).astype(np.uint8))
    return [int(stats[i, cv2.CC_STAT_AREA]) for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3]


def test_hollow_letter_is_inked_on_its_edge_and_empty_in_a_stroke_middle(bold: Path) -> None:
    solid = glyphs.glyph_mask("I", bold, 160, scale=0.8)
    hollow = glyphs.glyph_mask("I", bold, 160, scale=0.8, style=Style("hollow", width=0.03))
    inside = (solid > 0.5).astype(np.uint8)
    depth = cv2.distanceTransform(inside, cv2.DIST_L2, 3)
    middle = depth >= depth.max() - 1  # the stem's middle line, farthest from its edges
    assert depth.max() > 6  # the stem is thick enough to have a middle at all
    assert float(hollow[middle].max()) < 0.05
    edge = (depth > 0) & (depth <= 2)
    assert float(hollow[edge].mean()) > 0.6
    # and it is the same letter: its rim lies along the solid letter's outline
    assert float(hollow[depth > 4].mean()) < 0.05


@pytest.mark.parametrize("where", [-1, 0, 1])
def test_every_rim_place_keeps_the_counter_empty(bold: Path, where: int) -> None:
    solid = glyphs.glyph_mask("O", bold, 160, scale=0.8)
    hollow = glyphs.glyph_mask("O", bold, 160, scale=0.8, style=Style("hollow", width=0.04, where=where))
    assert float(hollow[78:82, 78:82].max()) < 0.05  # the O's hole
    assert 0.15 < float(hollow.sum() / solid.sum()) < 1.2


def test_dot_matrix_letter_is_separate_round_blobs_of_one_size(bold: Path) -> None:
    dots = glyphs.glyph_mask("E", bold, 160, scale=0.7, style=Style("dots", rows=7, dot=0.7))
    areas = _pieces(dots)
    assert 12 <= len(areas) <= 40  # an E on 7 rows: a stem and three bars of dots
    assert max(areas) < 2.0 * float(np.median(areas))  # no dots run together into strokes
    cap = 0.7 * 160
    assert float(np.median(areas)) < (cap / 7) ** 2  # each smaller than its cell


def test_dotted_stem_is_a_column_of_about_rows_dots(bold: Path) -> None:
    for rows in (5, 7, 9):
        dots = glyphs.glyph_mask("I", bold, 160, scale=0.8, style=Style("dots", rows=rows, dot=0.6))
        assert rows - 1 <= len(_pieces(dots)) <= rows + 1
        ys, xs = np.nonzero(dots > 0.5)
        assert xs.max() - xs.min() < 0.3 * (ys.max() - ys.min())  # one column, not a block


def test_umlaut_keeps_its_dots(bold: Path) -> None:
    plain = glyphs.glyph_mask("O", bold, 160, scale=0.7, style=Style("dots", rows=7, dot=0.7))
    umlaut = glyphs.glyph_mask("Ö", bold, 160, scale=0.7, style=Style("dots", rows=7, dot=0.7))
    assert len(_pieces(umlaut)) >= len(_pieces(plain)) + 2


def test_stencil_and_dashes_break_a_closed_letter(bold: Path) -> None:
    assert len(_pieces(glyphs.glyph_mask("O", bold, 160, scale=0.8))) == 1
    stencil = glyphs.glyph_mask("O", bold, 160, scale=0.8, style=Style("stencil", width=0.06, cuts=((0.5, True),)))
    assert len(_pieces(stencil)) == 2
    dashed = glyphs.glyph_mask("O", bold, 160, scale=0.8, style=Style("dashed", width=0.04, dash=0.08, period=0.16))
    assert len(_pieces(dashed)) >= 10


def test_random_styles_are_seeded_and_cover_every_kind() -> None:
    a = [glyphs.random_style(np.random.default_rng(7)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    rng = np.random.default_rng(0)
    assert {glyphs.random_style(rng).kind for _ in range(200)} == set(KINDS)
    for kind in KINDS:
        assert glyphs.random_style(rng, (kind,)).kind == kind


@pytest.mark.parametrize("kind", KINDS)
def test_styled_crops_are_seeded_and_draw_a_letter(bold: Path, kind: str) -> None:
    style = glyphs.random_style(np.random.default_rng(3), (kind,))
    mask = glyphs.glyph_mask("R", bold, 64, rotation=90, tilt=4.0, style=style)
    assert mask.shape == (64, 64) and 0.01 < float(mask.mean()) < 0.5
    one, _ = glyphs.face_crop(np.random.default_rng(1), "R", bold, style=style)
    two, _ = glyphs.face_crop(np.random.default_rng(1), "R", bold, style=style)
    assert np.array_equal(one, two)
    cam = glyphs.camera_crop(np.random.default_rng(1), "R", bold, style=style)
    assert cam.ndim == 3 and cam.dtype == np.uint8


def test_pictures_take_the_style_too() -> None:
    """A set with hollow letters has hollow pictures: they are drawn so for "not a letter"."""
    disc = np.zeros((64, 64), np.float32)
    cv2.circle(disc, (32, 32), 20, 1.0, -1)
    assert restyle_picture(disc, None) is disc
    rim = restyle_picture(disc, Style("hollow", width=0.08))
    assert float(rim[32, 32]) < 0.05 and float(rim.max()) > 0.9
    ring = cv2.circle(np.zeros((64, 64), np.float32), (32, 32), 20, 1.0, 4)
    dots = restyle_picture(ring, Style("dots", rows=6, dot=0.6))
    assert len(_pieces(dots)) >= 10 and float(dots[32, 32]) < 0.05
    assert np.array_equal(restyle_picture(np.zeros((8, 8), np.float32), Style("dots")), np.zeros((8, 8)))
