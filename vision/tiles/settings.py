"""The tuned thresholds of the cell reader, in one place.

They were measured on train-style renders and a few real photos; keeping them in one frozen
object passed to every stage lets a bench or a test try other values without touching module
state, and shows in one place what the reader's verdicts hang on.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TileSettings:
    """Thresholds of the cell reader; the defaults are the tuned ones."""

    pattern: int = 12  # side of the pattern thumbnail
    back_sure: float = 3.0  # back distance (units of the back's spread) below which: the back
    back_not: float = 4.5  # above which a cell is surely not the back
    glare_level: int = 250  # gray level counted as glare
    letter_over_back: float = 0.9  # a letter this sure wins over a cell near the back
    victim_max_letter: float = 0.3  # a picture: the letter reader's best letter stays below
    # ... or below this, when the frame's sure examples of that letter are unlike the cell
    victim_half_letter: float = 0.6
    sure_letter: float = 0.85  # letters this sure teach the others in the same frame
    like_letter: float = 0.82  # likeness (correlation) to a sure letter that makes that letter
    victim_ink: float = 0.03  # a glared cell may still be the victim if this much is drawn
    unseen_letter: float = 0.85  # a group of alike cells read as the one letter not seen
    unlike_letter: float = 0.78  # below this likeness to every sure letter: maybe the victim
    glyph: int = 20  # side of the likeness thumbnail
    shift: int = 5  # px (of 40) two crops of the same face may be off each other
    # shift-tolerant correlation of cells counted as one exact look: more than seven such make
    # a back of a group the letter reader reads (different letters of one frame reach 0.81 at
    # most on train renders, so eight at this level are no mix of letters)
    same_face: float = 0.85
    # shift-tolerant correlation of two crops of one patterned face (same back seen >= 0.42
    # between backs off their places, <= 0.31 between a face-up tile and the back)
    shift_same: float = 0.4
    # the median of it over the cells a back was inferred from, from which an open cell the
    # letter reader sees less than ``blurred_below`` of a letter in is the back too (train
    # renders: such a back 0.42-0.85 but for five, an unread face or picture 0.37 at most)
    group_pattern: float = 0.5
    # median shift-tolerant correlation among inked cells below which they are no back (a
    # back's print repeats); train backs never carry that much ink, dotted letters the
    # reader cannot read reach 0.42-0.53 among themselves on train renders
    ink_repeats: float = 0.6
    # the same among crops of a face-down frame with a coarse pattern, below which they are
    # no grid of its backs (train and bench renders: the right grid >= 0.43, a lattice of a
    # glazed table's larger squares over the tiles 0.12)
    back_repeats: float = 0.3
    flat_texture: float = 2.0  # texture below which a face is plain (letters score 10+)
    teach_sure: float = 0.9  # letters this sure teach the frame's doubtful cells
    teach_per_letter: int = 2  # examples taught of each letter (four feature passes each)
    glare_max_letter: float = 0.15  # a glared back shows the letter reader next to nothing
    glared_back: float = 0.65  # confidence of a back recognised by its texture alone
    fine: float = 0.5  # a face whose blurred thumbnail keeps less contrast: a fine pattern
    # the reference frame, cell by cell (measured on train-style renders, same grid for both
    # frames: face-down cells correlate >= 0.66 with their reference (5th percentile 0.93),
    # face-up cells <= 0.31; over a plain back a face-up cell has >= 6x the reference's fine
    # contrast, a face-down one <= 1.4x; colour moves by <= 2.2 (Lab) on the same back)
    ref_shift: int = 4  # px (of a 64 px crop) a cell may sit off its place in the reference
    ref_same: float = 0.6  # correlation with the reference above which a cell is unchanged
    ref_changed: float = 0.45  # below which it surely changed
    ref_flat: float = 6.0  # fine contrast (gray levels) under which a reference cell is plain
    ref_colour_same: float = 8.0  # Lab distance (lightness counted half) of an unchanged cell
    ref_colour_changed: float = 15.0  # beyond which the cell surely changed
    ref_burnt: float = 0.3  # share burnt white above which "unchanged" means little
    # colour moved this far from the reference: no face-down tile nudged off its place (that
    # keeps the back's colour over most of the cell's middle), however near the back's model
    ref_recoloured: float = 30.0
    # a cell whose colour is its reference's times a factor from this to 1 may lie in a shade
    # (a hand's shadow): its colour is compared with that factor taken out
    ref_shade: float = 0.35
    # cells read less surely than this after four turns are read blurred too, at these
    # widths in turn (Gaussian sigma, share of the crop's side: dots of a dot-matrix letter
    # run together), and take the first reading this sure (clean dot-matrix and hollow tiles
    # of the train fonts: one width 71 % / 77 % sure and right, the surest of these three
    # 80 % / 91 %; the first sure one in this order reads the grid bench's train dotted
    # boards alike but for one cell of 2160, with a seventh fewer network passes)
    blurred_below: float = 0.6
    blurred: tuple[float, ...] = (0.05, 0.035, 0.065)
    blurred_sure: float = 0.85
    # ... but not a cell read in four turns as a letter outside the set this surely (a cube of
    # another game): 0.91 of the 6x6 TUNE trays' cells outside MÖRDE, 0.03 of the doubtful
    # set letters of the train sets drawn hollow or in dots
    foreign_sure: float = 0.95
    # how many cells of a group of alike faces, not plain, are looked at harder before the
    # group is taken for the back (most of them must not read as letters: surely, or as
    # more than one letter): dots on a grained face read as nothing at first sight
    group_sample: int = 3


DEFAULT_SETTINGS = TileSettings()

__all__ = ["DEFAULT_SETTINGS", "TileSettings"]
