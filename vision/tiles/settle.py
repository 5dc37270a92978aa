"""The last stages of a read: cells the first verdicts left open are settled by likeness to
the frame's sure letters and the set's own counts (seven of each letter,
one victim), never silently guessed."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from companion.games.moerder.board import PER_LETTER
from vision.letters import LETTERS, REJECT, ROTATIONS, LetterReader, LetterReading, class_index
from vision.tiles.appearance import glyph_vec, ratio
from vision.tiles.cells import CellReading, CellState
from vision.tiles.faces import FaceModel
from vision.tiles.frame import FrameRead
from vision.tiles.settings import DEFAULT_SETTINGS, TileSettings


def _likeness(f: FrameRead, i: int, sure: list[int],
              vec: dict[int, np.ndarray]) -> list[tuple[str, tuple[float, int]]]:
    """Each sure letter's best likeness to cell ``i`` (and the turn that gives it), best
    first."""
    best: dict[str, tuple[float, int]] = {}
    for j in sure:
        o = f.out[j]
        assert o is not None and o.letter is not None
        sims = vec[i] @ vec[j][0]
        k = int(np.argmax(sims))
        if float(sims[k]) > best.get(o.letter, (-1.0, 0))[0]:
            best[o.letter] = (float(sims[k]), (o.rotation - 90 * k) % 360)
    return sorted(best.items(), key=lambda kv: -kv[1][0])


def _paper(crop: np.ndarray) -> np.ndarray:
    """Lab of the paper a face is printed on: the brightest quarter of its middle (a letter
    or a picture is the darker part; a skull may cover nearly half the face)."""
    h, w = crop.shape[:2]
    mid = crop[h // 5 : h - h // 5, w // 5 : w - w // 5]
    lab = cv2.cvtColor(mid, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    bright = lab[lab[:, 0] >= np.percentile(lab[:, 0], 75)]
    out: np.ndarray = np.median(bright, axis=0)
    return out


def _letters_paper(f: FrameRead, sure: list[int]) -> np.ndarray | None:
    """The paper the frame's sure letters are printed on (up to eight of them), or None with
    fewer than two: then there is nothing to compare a cell's paper with."""
    if len(sure) < 2:
        return None
    out: np.ndarray = np.median([_paper(f.crops[j]) for j in sure[:: max(1, len(sure) // 8)]],
                                axis=0)
    return out


def _face_up(f: FrameRead, i: int, up: bool, paper: np.ndarray | None) -> bool:
    """Is cell ``i``, which no letter is like, face up? Changed since the reference; or else
    a drawn picture (without one, a plain face far from the back's model is a back nudged off
    its place, table showing, or in odd light), far from a known back or, when the back is
    not known for sure, on the paper the frame's sure letters are printed on. The last is
    how a person tells the victim from a back on a board nearly all face up, where no group
    of alike backs is left to learn the back from."""
    s = f.settings
    if up:
        return True
    if f.looks[i].ink <= s.victim_ink:
        return False
    if f.back is not None and f.dist[i] > s.back_not:
        return True
    if paper is None or f.dist[i] < s.back_sure:
        return False
    return _on_the_paper(f, i, paper)


def _on_the_paper(f: FrameRead, i: int, paper: np.ndarray) -> bool:
    """Is cell ``i`` the colour of ``paper``, the paper the frame's sure letters are on?"""
    mine = _paper(f.crops[i])
    return bool(np.linalg.norm(mine[1:] - paper[1:]) < 6
                and ratio(float(mine[0]), float(paper[0])) < 1.25)


def _nothing_drawn(f: FrameRead, i: int, r: LetterReading | None,
                   paper: np.ndarray | None) -> bool:
    """Is cell ``i`` a back because nothing is drawn on it? Every face of the set carries a
    letter or the victim's picture, in ink; a cell without glare that shows no ink and no
    line, in which the letter reader sees nothing, and that is not the letters' blank paper,
    can only be a back (one the back's model missed: two backs alike to each other are too
    few to learn from, or light makes the model's summary stricter than the backs)."""
    s, lk = f.settings, f.looks[i]
    if f.same[i] is False or lk.glare >= 0.25:
        return False
    if lk.ink > s.victim_ink or lk.lines > s.victim_ink:
        return False
    if r is not None and r.confidence >= s.glare_max_letter:
        return False
    return paper is None or not _on_the_paper(f, i, paper)


def _belied(r: LetterReading, likeness: dict[str, tuple[float, int]], s: TileSettings,
            ) -> bool:
    """Does the frame belie the letter the reader half sees in a cell: the frame holds sure
    examples of it (one set, one print), and the cell is like none of them? A picture can
    move the letter network a little toward a letter from one crop to the next (a victim
    read as an Ö at 0.01, and at 0.43 from a grid a twelfth of a pixel off). Such a cell is
    taken for the victim only when no cell shows a picture the reader sees no letter in (an
    upside-down italic M, unlike the frame's upright ones, can be belied too)."""
    best = r.candidates[0][0] if r.candidates else None
    return (r.confidence < s.victim_half_letter and best in likeness
            and likeness[best][0] < s.unlike_letter)


def by_likeness(f: FrameRead, up: Sequence[bool]) -> list[int]:
    """Settle the cells left open by comparing them with the sure letters of the same frame
    (same font, same print): a close match in some turn is that letter, when the letter
    reader sees something of it there too (its best guess, at least next to nothing: on a
    face whose print is mostly grain, the thumbnails compared are mostly grain, and a D no
    look read was like the frame's Rs); a face-up cell like no letter and unlike the back is
    the victim (the set holds one). Returns the victim candidates."""
    s = f.settings
    open_ = [i for i, o in enumerate(f.out) if o is None]
    if not open_:
        return []
    sure = [i for i, o in enumerate(f.out)
            if o is not None and o.state is CellState.LETTER and o.confidence >= s.sure_letter]
    vec = {i: glyph_vec(f.crops[i], s) for i in open_ + sure}
    paper = _letters_paper(f, sure)
    unlike_letters: list[int] = []
    half_seen: list[int] = []  # ... but for a letter the reader half sees, which the frame belies
    for i in open_:
        ranked = _likeness(f, i, sure, vec)
        top = ranked[0][1][0] if ranked else 0.0
        second = ranked[1][1][0] if len(ranked) > 1 else 0.0
        r = f.readings.get(i)
        agrees = bool(ranked) and r is not None and bool(r.candidates) and (
            r.candidates[0][0] == ranked[0][0]) and r.candidates[0][1] >= s.glare_max_letter
        picture = (_face_up(f, i, up[i], paper)
                   and (f.looks[i].glare < 0.25 or f.looks[i].ink > s.victim_ink)
                   and (not sure or top < s.unlike_letter or up[i] or i in f.reread))
        if (agrees and top >= s.like_letter and top - second >= 0.05
                and f.dist[i] >= s.back_sure):
            letter, (sim, rot) = ranked[0]
            f.out[i] = CellReading(CellState.LETTER, letter, rot, float(min(0.95, sim)))
        elif picture and (r is None or r.confidence < s.victim_max_letter):
            unlike_letters.append(i)
        elif picture and r is not None and _belied(r, dict(ranked), s):
            half_seen.append(i)
        else:
            _no_victim(f, i, r, paper)
    if not unlike_letters:
        return half_seen
    for i in half_seen:  # a picture the reader sees no letter in is the likelier victim
        _no_victim(f, i, f.readings.get(i), paper)
    return unlike_letters


def _no_victim(f: FrameRead, i: int, r: LetterReading | None, paper: np.ndarray | None,
               ) -> None:
    """An open cell that is not taken for the victim: a back if nothing is drawn on it, else
    unsure, with the reader's letter as its guess."""
    if _nothing_drawn(f, i, r, paper):
        f.out[i] = CellReading(CellState.HIDDEN, confidence=0.7)
    else:
        guess = r.letter if r is not None else None
        f.out[i] = CellReading(CellState.UNSURE, guess, r.rotation if (r and guess) else 0,
                               float(min(r.confidence if r else 0.0, 0.59)))


def victims(f: FrameRead, idx: list[int], victim: FaceModel | None) -> None:
    """The set holds one victim: with one candidate it is the victim; with several, the one
    closest to a taught victim face; the rest stay unsure."""
    if not idx:
        return
    if victim is not None:
        d = {i: victim.distance(f.looks[i]) for i in idx}
        best = min(idx, key=lambda i: d[i])
        pick = best if d[best] < f.settings.back_not else None
    else:
        pick = idx[0] if len(idx) == 1 else None
    for i in idx:
        reject = 1.0 - float(getattr(f.readings.get(i), "confidence", 0.0))
        if i == pick:
            f.out[i] = CellReading(CellState.VICTIM, confidence=float(np.clip(reject, 0.6, 1)))
        else:
            f.out[i] = CellReading(CellState.UNSURE, confidence=0.3)


def by_elimination(f: FrameRead, candidates: list[int], letters: LetterReader) -> list[int]:
    """A letter the reader cannot read in this print (a dotted M of a font it never saw) is
    still known the way a player knows it: the set holds one picture, so two or more face-up
    cells alike each other are no victim but a letter; when exactly one letter of the set
    shows nowhere else on the board, they are that letter. Only when nothing speaks against
    it: every other candidate unlike them, none of them like a letter the frame shows, and
    the reader's own weak guesses, summed over them, likeliest for that letter. Their
    common turn is the one the reader finds likeliest over all of them. Returns the
    candidates left for the victim."""
    s = f.settings
    seen = {o.letter for o in f.out if o is not None and o.state is CellState.LETTER}
    seen |= f.elsewhere  # the cells not read now, teachers among them
    unseen = [a for a in f.alphabet if a not in seen]
    if len(candidates) < 2 or len(unseen) != 1:
        return candidates
    vec = {i: glyph_vec(f.crops[i], s) for i in candidates}
    sims = np.array([[vec[i] @ vec[j][0] for j in candidates] for i in candidates])
    best = sims.max(axis=2)  # i in its best turn against j upright
    np.fill_diagonal(best, 0.0)
    alike = best >= s.like_letter
    anchor = int(np.argmax(alike.sum(axis=1)))
    members = [m for m in range(len(candidates)) if m == anchor or alike[m, anchor]]
    rest = [m for m in range(len(candidates)) if m not in members]
    if (len(members) < 2 or len(members) > PER_LETTER
            or (rest and best[np.ix_(rest, members)].max() >= s.unlike_letter)):
        return candidates  # no group, more than the set holds, or a cell between: unsure
    group = [candidates[m] for m in members]
    sure = [i for i, o in enumerate(f.out) if o is not None and o.state is CellState.LETTER
            and o.confidence >= s.sure_letter]
    vec |= {i: glyph_vec(f.crops[i], s) for i in sure}
    if any(ranked[0][1][0] >= s.unlike_letter
           for i in group if (ranked := _likeness(f, i, sure, vec))):
        return candidates  # like a letter the frame shows: not the unseen one
    p = letters.class_probs([f.crops[i] for i in group])
    votes = p[:, :REJECT].reshape(len(group), len(LETTERS), 4).sum(axis=(0, 2))
    letter = unseen[0]
    if max(f.alphabet, key=lambda a: votes[LETTERS.index(a)]) != letter:
        return candidates
    quarters = [int(np.argmax(sims[m, anchor])) for m in members]
    score = [sum(float(p[n, class_index(letter, turn - 90 * q)])
                 for n, q in enumerate(quarters)) for turn in ROTATIONS]
    turn = ROTATIONS[int(np.argmax(score))]
    for i, q in zip(group, quarters, strict=True):
        f.out[i] = CellReading(CellState.LETTER, letter, (turn - 90 * q) % 360, s.unseen_letter)
    return [candidates[m] for m in rest]


def within_the_set(cells: list[CellReading], s: TileSettings,
                   changed: Sequence[int] | None = None) -> list[CellReading]:
    """The set holds seven of each letter and one victim: when more are read, the readings of
    that kind are not to be trusted (a back pattern the model takes for a letter), so all but
    the very sure ones become unsure (only among ``changed`` cells when given: the others
    were settled before)."""
    out = list(cells)
    may = set(range(len(cells))) if changed is None else set(changed)
    for state, limit in ((CellState.LETTER, PER_LETTER), (CellState.VICTIM, 1)):
        kinds: dict[str | None, list[int]] = {}
        for i, c in enumerate(cells):
            if c.state is state:
                kinds.setdefault(c.letter, []).append(i)
        for idx in kinds.values():
            if len(idx) <= limit:
                continue
            for i in idx:
                c = cells[i]
                if i in may and (c.confidence < s.letter_over_back or state is CellState.VICTIM):
                    out[i] = CellReading(CellState.UNSURE, c.letter, c.rotation,
                                         min(c.confidence, 0.5))
    return out


def settle_set(cells: Sequence[CellReading], changed: Sequence[int],
               settings: TileSettings = DEFAULT_SETTINGS) -> list[CellReading]:
    """A whole board after re-reading only ``changed`` cells: if it now holds more of a kind
    than the set does (a second victim, an eighth E), the new readings of that kind become
    unsure; the cells settled before stay."""
    return within_the_set(list(cells), settings, changed)


__all__ = ["by_elimination", "by_likeness", "settle_set", "victims", "within_the_set"]
