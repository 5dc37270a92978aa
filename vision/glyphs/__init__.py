"""Single letters drawn from installed fonts: tile faces for synth, training crops for letters.

The fonts are split once, by family, into ``train`` and ``test``: the letter model only ever
sees ``train`` families, so a benchmark on ``test`` families measures styles it never saw.
Clones (Liberation/Nimbus/Free Sans are all Helvetica-like) stay on the same side where
possible; the test families (:data:`TEST_FAMILIES`) are chosen because no train family
resembles them closely.

Colours are BGR tuples, as everywhere in OpenCV. Rotation is clockwise, in degrees.
"""

from __future__ import annotations

from vision.glyphs.boxed import face_crop
from vision.glyphs.camera import camera_crop
from vision.glyphs.draw import glyph_mask, render_glyph
from vision.glyphs.strokes import Style, random_style
from vision.glyphs.fonts import (
                                 BGR,
                                 FONT_DIRS,
                                 LETTERS,
                                 NON_LETTERS,
                                 SKIP_FAMILIES,
                                 TEST_FAMILIES,
                                 GlyphError,
                                 Split,
                                 font_family,
                                 font_label,
                                 font_paths,
                                 split_families,
)

__all__ = ["BGR", "FONT_DIRS", "LETTERS", "NON_LETTERS", "SKIP_FAMILIES", "TEST_FAMILIES",
           "GlyphError", "Split", "Style", "camera_crop", "face_crop", "font_family", "font_label",
           "font_paths", "glyph_mask", "random_style", "render_glyph", "split_families"]
