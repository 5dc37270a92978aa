"""What the camera hands a game: frozen readings, one kind per thing the camera reads.

A reading is what vision saw, with its doubts; a game's ``observe`` decides what it means.
The table only needs ``still`` (no hand over the table) and ``key`` (two readings with the
same key saw the same thing), so it can wait for a steady view of any kind of reading.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from companion.games.kniffel.dice import DiceSet

UNSURE = "?"
HIDDEN = "."


class Reading(Protocol):
    """The little the table reads of any reading."""

    @property
    def still(self) -> bool: ...

    @property
    def key(self) -> str: ...

    @property
    def frame_at(self) -> float | None: ...


@dataclass(frozen=True)
class GridReading:
    """A square grid of tiles as read from one frame, row by row from the top left.

    ``cells`` holds one character per cell in the games' tile notation (a letter, ``X`` for a
    picture tile, ``.`` face down) or ``?`` where the reader is not sure; ``candidates`` lists,
    for unsure cells, what they might be (for the question put to the table). ``corners`` are
    the grid's outer corners in the image (TL, TR, BR, BL) and ``rotations`` how far each
    letter is turned clockwise, both for drawing. ``frame_at`` is ``time.perf_counter()`` when
    the frame was read (the latency bench).
    """

    cells: str
    still: bool = True
    candidates: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    corners: tuple[tuple[float, float], ...] | None = None
    rotations: tuple[int, ...] | None = None
    frame_at: float | None = None
    size: int = 6

    def __post_init__(self) -> None:
        if len(self.cells) != self.size * self.size:
            raise ValueError(f"a {self.size}x{self.size} reading has {self.size ** 2} cells, "
                             f"not {len(self.cells)}")

    @property
    def key(self) -> str:
        return self.cells


@dataclass(frozen=True)
class DieSeen:
    """One die as read from above: its top ``letter`` (A-Z, ``*`` the diamond, ``?`` unsure),
    the ``value`` printed on it if read, where it lies (``center``, pixels) and its edge
    ``size`` in pixels (how far it must move to count as moved), ``candidates`` when unsure."""

    letter: str
    value: int | None
    center: tuple[float, float]
    size: float
    candidates: tuple[str, ...] = ()


@dataclass(frozen=True)
class PadBoxSeen:
    """One box or sum row of a score pad as read: ``value`` the number written (0 for a
    struck box, with ``struck``), None when blank; ``confidence`` how sure the reader is
    (0-1), so the game decides what is too unsure to hold against anyone; ``doubts`` other
    numbers the pen marks may as well be read as (a 7 that may be a hooked 1), likeliest
    first."""

    value: int | None
    struck: bool = False
    confidence: float = 1.0
    doubts: tuple[int, ...] = ()


@dataclass(frozen=True)
class PadColumnSeen:
    """One column of a score pad: ``player`` (left to right within a game, from 0) of
    ``game`` (from 0), and its ``rows`` by key: the boxes (``two`` … ``chance``) and the
    written sums (``upper``, ``bonus``, ``lower``, ``total``)."""

    player: int
    game: int
    rows: Mapping[str, PadBoxSeen]


@dataclass(frozen=True)
class PadSeen:
    """A score pad lying still in view, read whole: how many ``players`` and ``games`` it
    is printed for and every column. ``look`` counts the times it was handed to the game:
    the same pad is shown again (a new look, the same rows) after the record changed, so
    the game compares it with the new record without the pad being read again."""

    players: int
    games: int
    columns: tuple[PadColumnSeen, ...]
    look: int = 0

    @property
    def content(self) -> str:
        """What is written, boxes blank, struck or numbers, unsure ones marked."""
        parts = []
        for c in self.columns:
            for k in sorted(c.rows):
                r = c.rows[k]
                mark = "-" if r.struck else "" if r.value is None else str(r.value)
                parts.append(f"{mark}{'?' if r.confidence < 0.5 else ''}")
        return ",".join(parts)

    @property
    def key(self) -> str:
        return f"{self.look}:{self.content}"


@dataclass(frozen=True)
class Record:
    """What a camera reader is told of the game it reads for, the other way across the same
    boundary: the ``game``'s id and how many ``states`` its record holds (changes with every
    event and undo, so a reader that looks again then knows when), and the ``dice`` set it is
    played with, if any: a score pad's boxes hold what the table's own dice can make, which
    need not be what the default set can."""

    game: int | None
    states: int
    dice: DiceSet | None = None


@dataclass(frozen=True)
class DiceReading:
    """Loose dice as read from one frame, left to right. ``still``: the frame did not move
    (dice at rest, no hand). ``key`` is the letters alone: dice pushed together to lay a word
    keep their letters, so the table believes a throw once, however the dice are moved.
    ``pad``: a score pad lying in view beside the dice, if the camera reads one; a new look
    at it changes the key, so the game hears of it once the view is steady."""

    dice: tuple[DieSeen, ...]
    still: bool = True
    frame_at: float | None = None
    pad: PadSeen | None = None

    @property
    def key(self) -> str:
        letters = "".join(sorted(d.letter for d in self.dice))
        return letters if self.pad is None else f"{letters}|{self.pad.key}"
