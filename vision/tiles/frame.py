"""One frame's read, stage by stage: compare with the reference, measure, learn the back if
it is not known, then a first verdict per cell.

Everything a read finds lives in a :class:`FrameRead` made for that read alone, so nothing
of one frame leaks into the next except what the caller keeps on purpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.games.moerder.board import PER_LETTER
from vision.letters import LetterReader, LetterReading
from vision.tiles.appearance import Look, looks, settled, shift_sims
from vision.tiles.cells import CellReading, CellState
from vision.tiles.faces import (
    FaceModel,
    alike_to_most,
    back_conf,
    back_group,
    drawn_unalike,
    face_coloured,
    glared,
    model_from_looks,
)
from vision.tiles.reference import CellRef, compare
from vision.tiles.settings import TileSettings

Teacher = tuple[int, np.ndarray, str]  # (cell, crop, label like "E@90")


@dataclass
class FrameRead:
    """What one read knows about its cells so far (indices are positions in ``crops``)."""

    crops: Sequence[np.ndarray]
    where: list[int]  # the board cell of each crop
    settings: TileSettings
    alphabet: str
    same: list[bool | None]  # verdict of the reference: unchanged, changed, cannot tell
    looks: list[Look]
    back: FaceModel | None
    dist: list[float]  # distance to the back (inf without one)
    teachers: list[Teacher] = field(default_factory=list)
    elsewhere: set[str] = field(default_factory=set)  # letters read on cells not read now
    readings: dict[int, LetterReading] = field(default_factory=dict)
    out: list[CellReading | None] = field(default_factory=list)
    inferred: bool = False  # the back was inferred from this frame alone
    group: list[int] = field(default_factory=list)  # the cells it was inferred from
    letterlike: bool = False  # ... and the letter reader sees a letter in them
    faces: list[int] = field(default_factory=list)  # cells surely face up, read by the model
    reread: set[int] = field(default_factory=set)  # read again with the frame's letters taught
    recoloured: set[int] = field(default_factory=set)  # changed colour since the reference


def start(crops: Sequence[np.ndarray], where: list[int],
          refs: Sequence[CellRef | None] | None,
          back: FaceModel | None, s: TileSettings, alphabet: str) -> FrameRead:
    """Compare each cell with its reference and measure the ones that need it."""
    mine = [refs[w] if refs is not None and 0 <= w < len(refs) else None for w in where]
    known = [i for i, r in enumerate(mine) if r is not None]
    verdicts = dict(zip(known, compare([r for r in mine if r is not None],
                                       [crops[i] for i in known], s), strict=True))
    same: list[bool | None] = [verdicts[i][0] if i in verdicts else None
                               for i in range(len(crops))]
    colours = [verdicts[i][1] if i in verdicts else 0.0 for i in range(len(crops))]
    recoloured = {i for i, (v, colour) in enumerate(zip(same, colours, strict=True))
                  if v is False and colour > s.ref_recoloured}
    # a cell its reference settles as face down is never compared by look (saves time)
    measure = [i for i, v in enumerate(same) if v is not True or back is None]
    measured = dict(zip(measure, looks([crops[i] for i in measure], s), strict=True))
    seen = [measured[i] if i in measured else settled(s) for i in range(len(crops))]
    dist = [back.distance(lk) if back is not None else np.inf for lk in seen]
    return FrameRead(crops, where, s, alphabet, same, seen, back, dist,
                     out=[None] * len(crops), recoloured=recoloured)


def needs_letters(f: FrameRead) -> list[int]:
    """The cells the letter reader sees: those not plainly the back, and every cell that
    changed since its reference however near the back's model it looks (a lamp's spot over
    the reference makes that model broad enough to take in a light face)."""
    return [i for i, d in enumerate(f.dist)
            if f.same[i] is not True and (f.same[i] is False or d >= f.settings.back_sure)]


def not_letters(group: list[int], readings: dict[int, LetterReading], s: TileSettings) -> bool:
    """Is a group of alike cells the back rather than one letter (seven unread Es are alike
    too)? The letter reader must see next to nothing in most of its cells."""
    scores = [readings[i].confidence if i in readings else 0.0 for i in group]
    return float(np.median(scores)) < s.glare_max_letter


def infer_the_back(f: FrameRead, letters: LetterReader) -> None:
    """Without a known back, the largest group of alike cells that is not a group of letters
    (the set holds 7 of a letter: more alike cells than that can only be the back)."""
    s, looks, readings = f.settings, f.looks, f.readings
    sure_faces = [looks[i] for i, r in readings.items() if r.confidence >= s.teach_sure]

    def unlettered(g: list[int]) -> bool:
        return (not (len(g) <= PER_LETTER and face_coloured(g, looks, sure_faces))
                and not unalike_letters(f, letters, g))

    def accept(g: list[int]) -> bool:
        return not_letters(g, readings, s) and unlettered(g)

    everyone = list(range(len(looks)))
    read = {i: r.letter for i, r in readings.items()
            if r.letter is not None and r.confidence >= s.glare_max_letter}
    found = back_group(looks, everyone, s, PER_LETTER + 1, 0.85, accept, read)
    if found is None:
        # then only among cells without letter evidence; two alike are enough (the set holds
        # one victim, and unread letters are printed on the faces' colour). What little the
        # first look sees in them does not count against them (a back's monogram shows it
        # 0.1-0.3 of a letter); the group's harder look does (:func:`unalike_letters`)
        pool = [i for i in everyone
                if i not in readings or readings[i].confidence < s.victim_max_letter]
        found = back_group(looks, pool, s, 2, accept=unlettered)
    if found is None:
        return
    back, f.group, f.letterlike = found
    f.inferred = True
    dist = [back.distance(lk) for lk in looks]
    # refit on every letter-free cell near the first guess: a tight core group alone would
    # make its own kind look far
    for _ in range(2):  # twice: the refit may take in more of the backs
        # (only cells alike to most of the group: the model must not drift)
        near = [i for i, d in enumerate(dist) if d < s.back_not and (
            f.letterlike or i not in readings or readings[i].confidence < s.victim_max_letter)
            and (i in f.group or alike_to_most(looks[i], looks, f.group, s))]
        if len(near) < 3:
            break
        back = model_from_looks([looks[i] for i in near], s)
        dist = [back.distance(lk) for lk in looks]
    f.back, f.dist = back, dist


def unalike_letters(f: FrameRead, letters: LetterReader, group: list[int]) -> bool:
    """Is a group of alike cells, which the first look read as nothing, letters rather than
    the back? A back repeats one face on every tile; a group carrying ink that does not is
    letters each drawn in its own way (:func:`drawn_unalike`). Dots on a grained face carry
    little ink by the share of dark pixels, and the grain makes them all look alike, so a
    group whose faces are not plain is asked of the letter reader too: a few of its cells,
    each looked at as a doubtful cell is (four turns, as it is and blurred; its surest
    view), until most of them read as letters or most do not. Most read as letters make
    the group letters when they read surely, or when they are not all one letter: the back
    is one face and reads as one letter if any. A plain face hides no letter. The sure
    readings found are kept for their cells when the group is letters (a back read surely
    once, blurred, stays a back of its group)."""
    s, looks = f.settings, f.looks
    if drawn_unalike(group, looks, s):
        return True
    if float(np.median([looks[i].texture for i in group])) < s.flat_texture:
        return False
    some = group[:: max(1, len(group) // s.group_sample)][:s.group_sample]
    need = len(some) // 2 + 1
    seen: list[str] = []  # the letter each cell of the sample reads as, where it reads one
    sure: dict[int, LetterReading] = {}
    doubtful = 0
    for i in some:
        crop = f.crops[i]
        views = [crop] + [blurred(crop, width) for width in s.blurred]
        # one batch of the network; the surest of the views
        r = max(letters.read_again(views, f.alphabet), key=lambda v: v.confidence)
        if r.letter is not None and r.confidence >= s.blurred_below:
            seen.append(r.letter)
            if r.confidence >= s.blurred_sure:
                sure[i] = r
        else:
            doubtful += 1
        if len(seen) >= need or doubtful >= need:
            break
    # most of them letters: surely, or not all the same one (one back reads as one letter)
    letters_seen = len(seen) >= need and (len(sure) >= need or len(set(seen)) > 1)
    if letters_seen:
        f.readings.update(sure)
    return letters_seen


def look_again(f: FrameRead, letters: LetterReader) -> None:
    """The cells the letter reader was unsure of at first sight, read again in four turns,
    and the cells surely face up (turned since the reference, or far from the back) that it
    read as no letter: one view of a turned letter can say "no letter" surely where four
    turns read it plainly, and a face-up tile is a letter or the one victim. Not the cells
    the back inferred from this frame already explains (its own group, or plainly near it
    and unchanged): there a second look could only turn a back into a letter, and it cost
    four passes a cell on every frame read without a reference."""
    s = f.settings

    def explained(i: int) -> bool:
        return f.inferred and ((f.dist[i] < s.back_sure and f.same[i] is not False)
                               or (f.letterlike and i in f.group))

    doubt = [i for i, r in f.readings.items()
             if (r.look_again or (r.letter is None and surely_up(f, i))) and not explained(i)]
    if doubt:
        again = letters.read_again([f.crops[i] for i in doubt], f.alphabet)
        f.readings.update(zip(doubt, again, strict=True))
    blurred_look(f, letters, [i for i in doubt if f.readings[i].confidence < s.blurred_below
                              and f.readings[i].outside < s.foreign_sure])


def blurred_look(f: FrameRead, letters: LetterReader, doubt: list[int]) -> None:
    """The cells still doubtful after four turns, read again blurred at a few widths in
    turn, the first sure reading kept (a cell settled at one width is not read at the
    next: each width is four network passes a cell). Sets print letters as dots or hollow
    strokes no font draws; blurred about as wide as the dots lie apart, they are solid
    strokes again, which the network knows (clean dot-matrix tiles of the train fonts,
    MÖRDE only: 25 % read surely as they are, 80 % after this, 0.07 % wrong). A plain
    letter is sure at first sight and never comes here; the victims of the train and bench
    renders, which do, stay no letter. Nor does a letter read surely in four turns as one
    outside the set (a cube of another game: a tray of them spent 300 blurred passes a
    photo, and blurring makes no 'A' an 'M')."""
    s = f.settings
    for width in s.blurred:
        if not doubt:
            return
        crops = [blurred(f.crops[i], width) for i in doubt]
        still: list[int] = []
        for i, r in zip(doubt, letters.read_again(crops, f.alphabet), strict=True):
            if r.letter is not None and r.confidence >= s.blurred_sure:
                f.readings[i] = r
            else:
                still.append(i)
        doubt = still


def blurred(crop: np.ndarray, width: float) -> np.ndarray:
    """A crop blurred ``width`` of its side (a Gaussian's sigma): a dot-matrix letter's
    dots run together into strokes."""
    out: np.ndarray = cv2.GaussianBlur(crop, (0, 0), width * max(crop.shape[:2]))
    return out


def surely_up(f: FrameRead, i: int) -> bool:
    """Is the cell surely face up: changed since the reference, or far from the back?"""
    return f.same[i] is False or (f.same[i] is None and f.dist[i] >= f.settings.back_not)


def find_faces(f: FrameRead) -> None:
    """The cells surely face up, of those read by the letter model."""
    f.faces = [i for i in f.readings if surely_up(f, i)]


def verdict(f: FrameRead, i: int) -> CellReading | None:
    """A cell's first verdict from the reference, the back and its letter reading; None
    leaves it to the later stages (likeness, the one-victim rule)."""
    s, lk, d, same = f.settings, f.looks[i], f.dist[i], f.same[i]
    r = f.readings.get(i)
    letter = r.letter if r is not None else None
    conf = r.confidence if r is not None else 0.0
    rot = r.rotation if r is not None else 0
    back = f.back
    if same is True:
        return CellReading(CellState.HIDDEN, confidence=0.97)
    if f.letterlike and (d < s.back_sure or i in f.group) and same is not False:
        # the back's own pattern, read as a letter by the model
        return CellReading(CellState.HIDDEN, confidence=max(back_conf(d, s), 0.7))
    moved_back = same is False and i not in f.recoloured  # a back keeps its colour
    if moved_back and d < s.back_sure and not (letter and conf >= s.victim_max_letter):
        # changed since the reference but still the back: a face-down tile moved
        return CellReading(CellState.HIDDEN, confidence=back_conf(d, s) * 0.9)
    if same is False and not letter:
        return None  # face up for sure: a letter the model could not read, or the victim
    if (same is not False or moved_back) and d < s.back_sure and not (
            letter and conf >= s.letter_over_back):
        return CellReading(CellState.HIDDEN, confidence=back_conf(d, s))
    if letter and f.inferred and d < s.back_not and conf < s.letter_over_back:
        # near a back we only guessed at: the pattern may be fooling the letter model
        return CellReading(CellState.UNSURE, letter, rot, min(conf, 0.5))
    if letter and (d >= s.back_sure or back is None or same is False):
        return CellReading(CellState.LETTER, letter, rot, conf)
    if (back is not None and letter is None and conf < s.glare_max_letter
            and lk.glare < 0.25 and lk.lines < s.victim_ink and glared(lk, back)
            and back.structure_distance(lk) < s.back_sure):
        # the back's texture and pattern under some glare or shade: face down, less sure (a
        # face mostly burnt white by glare is unreadable and stays unsure; glare adds light,
        # so a face with dark drawn lines is not a glared back)
        return CellReading(CellState.HIDDEN, confidence=s.glared_back)
    return None


def like_the_group(f: FrameRead) -> None:
    """Without a reference, a cell left open that the letter reader sees nothing in and that
    is alike to most of the cells the back was inferred from (by the same test that grouped
    them) is the back too: the back model's summary can be stricter than the group it came
    from (uneven light, crops off their place). So is one whose fine pattern is the group's
    (:func:`shift_sims`, its median over the group): a lamp's spot over half the backs
    changes their colour and light, which the grouping test compares, not their print; and
    the reader may half read a printed word's letters in it (below ``blurred_below``)."""
    s = f.settings
    if len(f.group) < 3:
        return
    group = [f.looks[j] for j in f.group]
    for i, o in enumerate(f.out):
        if o is not None or f.same[i] is False or i in f.group:
            continue
        r = f.readings.get(i)
        seen = r.confidence if r is not None else 0.0
        if seen >= s.blurred_below:
            continue
        if ((seen < s.glare_max_letter and alike_to_most(f.looks[i], f.looks, f.group, s))
                or float(np.median(shift_sims(f.looks[i], group, s))) >= s.group_pattern):
            f.out[i] = CellReading(CellState.HIDDEN, confidence=0.8)


__all__ = ["FrameRead", "Teacher", "find_faces", "infer_the_back",
           "like_the_group", "look_again", "needs_letters", "not_letters", "start", "verdict"]
