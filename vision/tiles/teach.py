"""Reading doubtful cells again with a reader taught the sure letters of the same frame: all
tiles of a set share one print, so an E the model barely knows looks like the E it knew well
two cells away."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vision.letters import LetterReader
from vision.tiles.cells import CellReading, CellState
from vision.tiles.frame import FrameRead

Teach = Callable[[Sequence[tuple[np.ndarray, str]]], LetterReader]
_Example = tuple[int, np.ndarray, str, int, float]  # (cell, crop, letter, rotation, confidence)


@dataclass
class TaughtCache:
    """The last reader taught a frame's letters, kept between frames by its owner: the same
    tiles teaching again (the next frame of a game) reuse what they taught."""

    reader: LetterReader | None = None
    key: tuple[tuple[int, str, int], ...] = ()

    def get(self, teach: Teach, examples: list[_Example]) -> LetterReader:
        key = tuple(sorted((t[0], t[2], t[3]) for t in examples))
        if self.key != key or self.reader is None:
            self.reader = teach([(t[1], f"{t[2]}@{t[3]}") for t in examples])
            self.key = key
        return self.reader


def _teach_of(letters: object) -> Teach | None:
    """The letter reader's way to learn examples, if it has one (a scripted reader does not)."""
    teach: Teach | None = getattr(letters, "taught", None)
    return teach


def self_taught(f: FrameRead, letters: object, cache: TaughtCache) -> None:
    """Read the doubtful face-up cells again with a reader taught the sure letters of this
    very frame. Only cells surely face up teach (a back pattern taken for a letter must not),
    and a reading is only replaced by a surer one."""
    s, readings = f.settings, f.readings
    teach = _teach_of(letters)
    if teach is None:
        return
    doubtful = [i for i in f.faces if readings[i].letter is None]
    # only letters the doubtful cells might be (their reader's two best guesses) are taught:
    # each example costs four feature passes
    wanted = {c for i in doubtful for c, _ in readings[i].candidates[:2]}
    sure: list[_Example] = [
        (f.where[i], f.crops[i], r.letter, r.rotation, r.confidence)
        for i in f.faces if (r := readings[i]).letter is not None
        and r.confidence >= s.teach_sure]
    sure += [(cell, crop, label[0], int(label[2:] or 0), 1.0)
             for cell, crop, label in f.teachers]
    chosen: dict[str, list[_Example]] = {}
    for t in sorted(sure, key=lambda t: -t[4]):  # the surest examples of each letter
        if t[2] in wanted and len(chosen.setdefault(t[2], [])) < s.teach_per_letter:
            chosen[t[2]].append(t)
    examples = [t for ts in chosen.values() for t in ts]
    if not examples or not doubtful:
        return
    taught = cache.get(teach, examples)
    again = taught.read_many([f.crops[i] for i in doubtful], f.alphabet)
    f.reread.update(doubtful)  # read with the frame's own letters in mind
    for i, r in zip(doubtful, again, strict=True):
        if r.confidence > readings[i].confidence:
            readings[i] = r


def taught_again(f: FrameRead, letters: object, candidates: list[int]) -> list[int]:
    """A second round of :func:`self_taught` when the likeness settled
    letters the first round could not learn from (a font the model barely knows): the cells
    still open, victim candidates included, are read again with those letters taught.
    Returns the victim candidates that are still no letter."""
    s, out, readings = f.settings, f.out, f.readings
    teachers = [i for i, o in enumerate(out) if o is not None and o.state is CellState.LETTER
                and o.letter is not None and o.confidence >= s.sure_letter
                and readings.get(i) is not None
                and (readings[i].letter != o.letter or readings[i].confidence < s.teach_sure)]
    doubtful = [i for i in f.faces if (o := out[i]) is not None
                and o.state is CellState.UNSURE] + candidates
    teach = _teach_of(letters)
    if not teachers or not doubtful or teach is None:
        return candidates
    wanted = {c for i in doubtful if i in readings for c, _ in readings[i].candidates[:2]}
    examples: list[tuple[np.ndarray, str]] = []
    for i in teachers:
        o = out[i]
        assert o is not None
        if o.letter in wanted and len(examples) < 2 * s.teach_per_letter:
            examples.append((f.crops[i], f"{o.letter}@{o.rotation}"))
    if not examples:
        return candidates
    again = teach(examples).read_many([f.crops[i] for i in doubtful], f.alphabet)
    for i, r in zip(doubtful, again, strict=True):
        if r.letter is not None and r.confidence >= max(readings[i].confidence, 0.6):
            out[i] = CellReading(CellState.LETTER, r.letter, r.rotation, r.confidence)
    return [i for i in candidates if out[i] is None]


__all__ = ["TaughtCache", "self_taught", "taught_again"]
