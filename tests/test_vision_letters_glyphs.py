"""Fonts and glyph rendering: the train/test split and the geometry of rendered letters."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from vision import glyphs  # noqa: E402


def test_split_is_disjoint_by_family_and_covers_all_fonts() -> None:
    train, test = glyphs.font_paths("train"), glyphs.font_paths("test")
    if not train or not test:
        pytest.skip("needs the project's fonts (scripts/apt-packages.txt)")
    assert not set(train) & set(test)
    assert sorted(train + test) == sorted(glyphs.font_paths("all"))
    train_families = {glyphs.font_family(p) for p in train}
    test_families = {glyphs.font_family(p) for p in test}
    assert not train_families & test_families
    assert test_families <= glyphs.TEST_FAMILIES


def test_unknown_split_is_an_error() -> None:
    with pytest.raises(glyphs.GlyphError):
        glyphs.font_paths("dev")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def font() -> object:
    fonts = glyphs.font_paths("test")
    if not fonts:
        pytest.skip("no test fonts installed")
    return fonts[0]


def test_render_glyph_is_a_bgr_face_in_the_given_colours(font: object) -> None:
    img = glyphs.render_glyph("M", font, 64, (10, 20, 30), (200, 210, 220))  # type: ignore[arg-type]
    assert img.shape == (64, 64, 3) and img.dtype == np.uint8
    # corners are background, and some pixels are the letter colour
    assert tuple(int(v) for v in img[0, 0]) == (200, 210, 220)
    assert (np.abs(img.astype(int) - (10, 20, 30)).sum(axis=2) < 6).sum() > 50


@pytest.mark.parametrize("rotation,code", [(90, "ROTATE_90_CLOCKWISE"), (180, "ROTATE_180"), (270, "ROTATE_90_COUNTERCLOCKWISE")])
def test_rotation_turns_the_letter_clockwise(font: object, rotation: int, code: str) -> None:
    up = glyphs.glyph_mask("R", font, 64)  # type: ignore[arg-type]
    turned = glyphs.glyph_mask("R", font, 64, rotation=rotation)  # type: ignore[arg-type]
    expected = cv2.rotate(up, getattr(cv2, code))
    # same picture up to resampling at the edges
    assert float(np.abs(turned - expected).mean()) < 0.02
    assert float(np.abs(turned - up).mean()) > 0.05


def _parts(mask: np.ndarray) -> list[tuple[float, float]]:
    """Centroids (x, y) of the separate pieces of ink."""
    n, _, stats, cents = cv2.connectedComponentsWithStats((mask > 0.5).astype(np.uint8))
    return [tuple(cents[i]) for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 3]


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_umlaut_dots_sit_on_the_letter_top_whichever_way_it_is_turned(font: object, rotation: int) -> None:
    assert len(_parts(glyphs.glyph_mask("O", font, 64, rotation=rotation))) == 1  # type: ignore[arg-type]
    parts = _parts(glyphs.glyph_mask("Ö", font, 64, rotation=rotation))  # type: ignore[arg-type]
    assert len(parts) == 3
    # the body is the piece nearest the centre; the dots lie on the side the letter's top faces
    body = min(parts, key=lambda c: (c[0] - 31.5) ** 2 + (c[1] - 31.5) ** 2)
    dots = [c for c in parts if c is not body]
    up = {0: (0, -1), 90: (1, 0), 180: (0, 1), 270: (-1, 0)}[rotation]
    for x, y in dots:
        assert (x - body[0]) * up[0] + (y - body[1]) * up[1] > 8


def test_bad_rotation_and_empty_letter_are_errors(font: object) -> None:
    with pytest.raises(glyphs.GlyphError):
        glyphs.render_glyph("A", font, 32, (0, 0, 0), (255, 255, 255), rotation=45)  # type: ignore[arg-type]
    with pytest.raises(glyphs.GlyphError):
        glyphs.glyph_mask("", font, 32)  # type: ignore[arg-type]


def test_camera_crop_is_seeded(font: object) -> None:
    a = glyphs.camera_crop(np.random.default_rng(5), "E", font, rotation=90)  # type: ignore[arg-type]
    b = glyphs.camera_crop(np.random.default_rng(5), "E", font, rotation=90)  # type: ignore[arg-type]
    c = glyphs.camera_crop(np.random.default_rng(6), "E", font, rotation=90)  # type: ignore[arg-type]
    assert np.array_equal(a, b)
    assert a.ndim == 3 and a.shape[2] == 3
    assert a.shape != c.shape or not np.array_equal(a, c)
