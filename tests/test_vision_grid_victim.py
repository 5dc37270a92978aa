"""The one-victim rule when the letter network half sees a letter in the victim's picture:
the frame's own sure letters, one set and one print, can belie it."""

from __future__ import annotations

from tiles_support import Scripted, faces
from vision import synth
from vision.letters import LetterReading
from vision.tiles import CellState, FaceModel, TileReader


def test_a_picture_half_read_as_a_letter_the_frame_belies_is_the_victim() -> None:
    """The letter network can half see an Ö in the victim's picture (0.43 from one crop of
    it, 0.01 from a crop a twelfth of a pixel off): the frame's own sure Ös, which the cell
    is unlike, belie it. A picture the reader sees no letter in still comes first."""
    style = synth.styles("train")[0]
    back = FaceModel.learn(faces(style, ["back"] * 6))
    crops = faces(style, ["back", "X", "Ö", "Ö", "back"])
    sure_o = LetterReading("Ö", 0, 0.97, (("Ö", 0.97),))
    half_o = LetterReading(None, 90, 0.43, (("Ö", 0.43),))
    script = {1: half_o, 2: sure_o, 3: sure_o}
    got = TileReader(Scripted(script, crops), back=back).read(crops)  # type: ignore[arg-type]
    assert [c.char for c in got] == [".", "X", "Ö", "Ö", "."]
    # an Ö half read and like the frame's Ös is no picture
    crops2 = faces(style, ["back", "Ö", "Ö", "Ö", "back"])
    got2 = TileReader(Scripted(script, crops2), back=back).read(crops2)  # type: ignore[arg-type]
    assert got2[1].state is not CellState.VICTIM
    # beside a picture the reader sees nothing in, the half-read one is not the victim
    crops3 = faces(style, ["back", "X", "Ö", "Ö", "X"])
    crops3[4] = crops3[4][::-1].copy()
    got3 = TileReader(Scripted(script, crops3), back=back).read(crops3)  # type: ignore[arg-type]
    assert [c.char for c in got3] == [".", "?", "Ö", "Ö", "X"]
