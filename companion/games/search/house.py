"""The haunted house of Search: rooms with dots, corridors in pairs, triangles on the edges.

Rooms are numbered row by row from 0 inside the code; people name them like a spreadsheet,
row letter then column number (``A1`` top left, ``H11`` bottom right of the 8x11 house).

Text format (what ``House.parse`` reads and ``str(house)`` writes), for a house typed in from
the book::

    search 8x11
    # column triangles: a number 1-6 over six columns, '.' over the others
         .   3   .   1   .   6   .   2   5   .   4
    # each row: its triangle (or '.'), then one token per room:
    # the dots (1-3) and a corridor tag; the two rooms with the same tag share a corridor
    2    3a  1b  2c  ...

- The first line is ``search ROWSxCOLS``; ``#`` starts a comment; blank lines are ignored.
- Tags are letters (``a``..``z``, ``A``..``Z``, then ``aa``, ``ab``...); each appears exactly
  twice. Writing chooses tags in reading order, so a house has one canonical text.
"""

from __future__ import annotations

import functools
import itertools
import logging
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass

from companion.games.search.errors import SearchError

_log = logging.getLogger(__name__)

ROWS = 8
COLS = 11
MARKS = 6  # triangles numbered 1..6 on six rows and six columns
CARD_VALUES = tuple(range(1, MARKS + 1))
CARDS_PER_VALUE = 4  # the deck: 24 cards, four of each value
MIN_DOTS, MAX_DOTS = 1, 3

Room = int  # index, row by row


class HouseError(SearchError):
    """A house that cannot be: bad text, a room joined to itself, dots out of 1-3..."""


def deck() -> tuple[int, ...]:
    """The 24 cards, in a fixed order; shuffle with the generator you were handed."""
    return tuple(v for v in CARD_VALUES for _ in range(CARDS_PER_VALUE))


@functools.lru_cache(maxsize=64)
def adjacency(rows: int, cols: int) -> tuple[tuple[Room, ...], ...]:
    """Rooms sharing a wall (up, left, right, down) for each room of a ``rows`` x ``cols`` house.

    Adjacent means through a wall, not across a corner: rooms in a house join by doors.
    """
    out = []
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        near = []
        for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols:
                near.append(rr * cols + cc)
        out.append(tuple(near))
    return tuple(out)


def tags() -> Iterator[str]:
    """Corridor tags in the order the text format hands them out: a-z, A-Z, then aa, ab, ...
    and longer, without end (a 26x99 house has 1287 corridors)."""
    yield from string.ascii_lowercase
    yield from string.ascii_uppercase
    for n in itertools.count(2):
        for letters in itertools.product(string.ascii_lowercase, repeat=n):
            yield "".join(letters)


@dataclass(frozen=True)
class House:
    """One sheet's house. ``partner[i]`` is the room joined to room ``i`` by its corridor.

    ``row_marks[r]`` / ``col_marks[c]`` hold the triangle's number or ``None``. The book's house
    is 8x11 with all six numbers on rows and on columns; smaller houses (for tests and
    puzzles) may carry fewer triangles, and then cards naming a missing number draw nothing.
    """

    rows: int
    cols: int
    dots: tuple[int, ...]
    partner: tuple[Room, ...]
    row_marks: tuple[int | None, ...]
    col_marks: tuple[int | None, ...]

    def __post_init__(self) -> None:
        n = self.rows * self.cols
        if self.rows < 1 or self.cols < 1 or self.rows > 26:
            raise HouseError(f"a house has 1-26 rows and at least one column, not {self.size}")
        if n % 2:
            raise HouseError(f"a {self.size} house has an odd number of rooms; corridors pair them")
        if len(self.dots) != n or len(self.partner) != n:
            raise HouseError(f"a {self.size} house needs {n} rooms")
        for i, d in enumerate(self.dots):
            if not MIN_DOTS <= d <= MAX_DOTS:
                raise HouseError(f"room {self.name(i)} has {d} dots; a room has 1 to 3")
        for i, j in enumerate(self.partner):
            if not 0 <= j < n:
                raise HouseError(f"room {self.name(i)}: corridor to a room off the house")
            if j == i:
                raise HouseError(f"room {self.name(i)} has a corridor to itself")
            if self.partner[j] != i:
                raise HouseError(f"room {self.name(i)}'s corridor is not returned by {self.name(j)}")
        for what, marks, length in (
            ("row", self.row_marks, self.rows),
            ("column", self.col_marks, self.cols),
        ):
            if len(marks) != length:
                raise HouseError(f"{length} {what} triangles expected, got {len(marks)}")
            seen = [m for m in marks if m is not None]
            for m in seen:
                if not 1 <= m <= MARKS:
                    raise HouseError(f"{what} triangle {m}: triangles are numbered 1-{MARKS}")
            if len(set(seen)) != len(seen):
                raise HouseError(f"a {what} triangle number appears twice: {sorted(seen)}")

    # --- names -------------------------------------------------------------------------------

    @property
    def size(self) -> str:
        return f"{self.rows}x{self.cols}"

    @property
    def rooms(self) -> range:
        return range(self.rows * self.cols)

    @property
    def is_standard(self) -> bool:
        """The book's house: 8x11 with triangles 1-6 on six rows and on six columns."""
        full = set(CARD_VALUES)
        return (
            (self.rows, self.cols) == (ROWS, COLS)
            and {m for m in self.row_marks if m is not None} == full
            and {m for m in self.col_marks if m is not None} == full
        )

    def name(self, room: Room) -> str:
        r, c = divmod(room, self.cols)
        return f"{string.ascii_uppercase[r]}{c + 1}"

    def room(self, name: str) -> Room:
        """The room named ``C7`` (any case); raises :class:`HouseError` for anything else."""
        text = name.strip().upper()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            raise HouseError(f"{name!r} is not a room name (a row letter and a column number: C7)")
        r = ord(text[0]) - ord("A")
        c = int(text[1:]) - 1
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise HouseError(f"room {text} is not in this {self.size} house")
        return r * self.cols + c

    def at(self, row: int, col: int) -> Room:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise HouseError(f"row {row}, column {col} is not in this {self.size} house")
        return row * self.cols + col

    def cell(self, room: Room) -> tuple[int, int]:
        return divmod(room, self.cols)

    def adjacent(self, room: Room) -> tuple[Room, ...]:
        return adjacency(self.rows, self.cols)[room]

    @property
    def total_dots(self) -> int:
        return sum(self.dots)

    def room_for_cards(self, row_card: int, col_card: int) -> Room:
        """The room where the row and the column with these triangles cross."""
        for card in (row_card, col_card):
            if card not in CARD_VALUES:
                raise HouseError(f"a card shows 1 to 6, not {card}")
        if row_card not in self.row_marks:
            raise HouseError(f"no row of this house has the triangle {row_card}")
        if col_card not in self.col_marks:
            raise HouseError(f"no column of this house has the triangle {col_card}")
        return self.at(self.row_marks.index(row_card), self.col_marks.index(col_card))

    def rooms_for_cards(self, first: int, second: int) -> tuple[Room, ...]:
        """The rooms two start cards name: first the one with ``first`` as the row's triangle.

        "One of the rooms where the row and columns … correspond to the cards drawn": either
        card may name the row, so two different cards name two rooms and the player chooses;
        a pair names one. Raises :class:`HouseError` when the cards in the order given name
        no room (a small house may lack a triangle, and then offers only that crossing).
        """
        rooms = [self.room_for_cards(first, second)]
        if second != first:
            try:
                rooms.append(self.room_for_cards(second, first))
            except HouseError:
                pass
        return tuple(rooms)

    # --- text --------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> House:
        """Read the text format (module docstring); errors name the line."""
        if not isinstance(text, str):
            raise HouseError("a house must be given as text")
        lines = []
        for number, raw in enumerate(text.splitlines(), start=1):
            body = raw.split("#", 1)[0].split()
            if body:
                lines.append((number, body))
        if not lines:
            raise HouseError("empty house text; it starts with a line 'search 8x11'")
        number, head = lines[0]
        if len(head) != 2 or head[0].lower() != "search" or "x" not in head[1].lower():
            raise HouseError(f"line {number}: expected 'search ROWSxCOLS', got {' '.join(head)!r}")
        try:
            rows, cols = (int(v) for v in head[1].lower().split("x"))
        except ValueError:
            raise HouseError(f"line {number}: bad size {head[1]!r}; write e.g. 8x11") from None
        if not (1 <= rows <= 26 and 1 <= cols <= 99):
            raise HouseError(f"line {number}: a house has 1-26 rows and 1-99 columns")
        if len(lines) != rows + 2:
            raise HouseError(
                f"a {rows}x{cols} house has a triangle line and {rows} room lines, "
                f"got {len(lines) - 1} lines after the header"
            )
        number, tokens = lines[1]
        if len(tokens) != cols:
            raise HouseError(f"line {number}: {cols} column triangles expected, got {len(tokens)}")
        col_marks = tuple(_mark(t, number) for t in tokens)
        row_marks: list[int | None] = []
        dots: list[int] = []
        tags: dict[str, list[int]] = {}
        for r, (number, tokens) in enumerate(lines[2:]):
            if len(tokens) != cols + 1:
                raise HouseError(
                    f"line {number}: a row is its triangle and {cols} rooms, got {len(tokens)} items"
                )
            row_marks.append(_mark(tokens[0], number))
            for c, token in enumerate(tokens[1:]):
                where = f"line {number}, room {string.ascii_uppercase[r]}{c + 1}"
                if len(token) < 2 or not token[0].isdigit() or not token[1:].isalpha():
                    raise HouseError(f"{where}: {token!r} is not dots and a tag like 2a")
                if not token[1:].isascii():
                    raise HouseError(f"{where}: tag {token[1:]!r} must use letters a-z, A-Z")
                d = int(token[0])
                if not MIN_DOTS <= d <= MAX_DOTS:
                    raise HouseError(f"{where}: {d} dots; a room has 1 to 3")
                dots.append(d)
                tags.setdefault(token[1:], []).append(r * cols + c)
        partner = [-1] * (rows * cols)
        for tag, rooms in tags.items():
            if len(rooms) != 2:
                names = ", ".join(f"{string.ascii_uppercase[i // cols]}{i % cols + 1}" for i in rooms)
                raise HouseError(
                    f"corridor tag {tag!r} is on {len(rooms)} room(s) ({names}); "
                    "a corridor joins exactly two"
                )
            a, b = rooms
            partner[a], partner[b] = b, a
        return cls(rows, cols, tuple(dots), tuple(partner), tuple(row_marks), tuple(col_marks))

    def __str__(self) -> str:
        tag_of: dict[Room, str] = {}
        fresh = tags()
        for i in self.rooms:
            if i not in tag_of:
                tag = next(fresh)
                tag_of[i] = tag_of[self.partner[i]] = tag
        width = 4 if len(self.rooms) <= 2 * 52 else 5
        lines = [
            f"search {self.size}",
            "# column triangles, then each row: its triangle and rooms as <dots><corridor tag>",
            " " * width + "".join(_cell(_mark_text(m), width) for m in self.col_marks).rstrip(),
        ]
        for r in range(self.rows):
            cells = "".join(
                _cell(f"{self.dots[i]}{tag_of[i]}", width)
                for i in range(r * self.cols, (r + 1) * self.cols)
            )
            lines.append((_cell(_mark_text(self.row_marks[r]), width) + cells).rstrip())
        return "\n".join(lines) + "\n"

    # --- generation --------------------------------------------------------------------------

    @classmethod
    def generate(
        cls, rng: random.Random | int, rows: int = ROWS, cols: int = COLS, marks: int = MARKS
    ) -> House:
        """A fresh house drawn only from ``rng`` (or a seed): same seed, same house.

        Dots are 1-3 with equal chance. Corridors join rooms two or three steps apart (never
        neighbours, which would make a corridor pointless, and never far, so the sheet stays
        legible); on tiny houses where that cannot pair every room, the reach widens.
        """
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        if (rows * cols) % 2:
            raise HouseError(f"a {rows}x{cols} house has an odd number of rooms")
        dots = tuple(rng.randint(MIN_DOTS, MAX_DOTS) for _ in range(rows * cols))
        partner = _corridors(rng, rows, cols)
        row_marks = _marks(rng, rows, min(marks, rows, cols))
        col_marks = _marks(rng, cols, min(marks, rows, cols))
        return cls(rows, cols, dots, partner, row_marks, col_marks)


def _mark(token: str, number: int) -> int | None:
    if token == ".":
        return None
    if token.isdigit() and 1 <= int(token) <= MARKS:
        return int(token)
    raise HouseError(f"line {number}: triangle {token!r} must be 1-{MARKS} or '.'")


def _mark_text(mark: int | None) -> str:
    return "." if mark is None else str(mark)


def _cell(text: str, width: int) -> str:
    return text.ljust(width)


def _marks(rng: random.Random, length: int, count: int) -> tuple[int | None, ...]:
    places = rng.sample(range(length), count)
    numbers = list(range(1, count + 1))
    rng.shuffle(numbers)
    out: list[int | None] = [None] * length
    for place, number in zip(places, numbers):
        out[place] = number
    return tuple(out)


_REACH = ((2, 3), (2, 4), (2, 6), (1, 10_000))


def _corridors(rng: random.Random, rows: int, cols: int) -> tuple[Room, ...]:
    n = rows * cols
    for low, high in _REACH:
        near = [
            [
                j
                for j in range(n)
                if j != i
                and low <= abs(j // cols - i // cols) + abs(j % cols - i % cols) <= high
            ]
            for i in range(n)
        ]
        for _ in range(60):
            pairing = _try_pairing(rng, near)
            if pairing is not None:
                return pairing
        _log.debug("no corridors within %d-%d steps on %dx%d; widening", low, high, rows, cols)
    raise HouseError(f"cannot pair the rooms of a {rows}x{cols} house")  # pragma: no cover


def _try_pairing(rng: random.Random, near: list[list[Room]]) -> tuple[Room, ...] | None:
    """Pair the most constrained room first with its most constrained free candidate."""
    n = len(near)
    free = set(range(n))
    options = {i: set(near[i]) for i in range(n)}
    partner = [-1] * n
    while free:
        least = min(len(options[i]) for i in free)
        if least == 0:
            return None
        tight = sorted(i for i in free if len(options[i]) == least)
        a = rng.choice(tight)
        fewest = min(len(options[j]) for j in options[a])
        b = rng.choice(sorted(j for j in options[a] if len(options[j]) == fewest))
        partner[a], partner[b] = b, a
        for x in (a, b):
            free.discard(x)
            for y in options.pop(x):
                if y in options:
                    options[y].discard(x)
    return tuple(partner)
