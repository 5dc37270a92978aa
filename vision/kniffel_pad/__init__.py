"""The companion's own printed Wort-Kniffel pad: print it, photograph it, read it back.

``layout`` is the geometry printer and reader share, ``sheet`` prints, ``digits`` reads one
handwritten box, ``reader`` finds the markers and checks every sum.
"""

from vision.kniffel_pad.layout import Layout, PadSheetError

__all__ = ["Layout", "PadSheetError"]
