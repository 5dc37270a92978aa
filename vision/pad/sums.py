"""The sums of a score pad read without markers, checked as a referee checks them: each sum
row against what its parts add up to.

Which rows are sums is read from the printed labels (Tesseract), so a pad must be read with
its text. A Kniffel card and its kin (the Wort-Kniffel card, the companion's own) share one
shape: boxes of the upper part, its sum, a bonus, perhaps the upper part's total, the lower
part's boxes, its sum, perhaps the upper total again, the grand total. A row is

- a **bonus** when its label says so; its rule is read from the label's numbers ("bei 63
  oder mehr plus 35", "ab 50: 35": threshold, then amount). A label without both ("Bonus")
  is a Kniffel card's: 35 from 63. A bonus left blank was added in the player's head, as
  the rule gives it;
- a **sum** when its label holds "Summe", "gesamt" or "total" (OCR slips of one letter
  forgiven). Above the bonus a sum adds the upper boxes; below it, in the upper part, it
  is the upper total (sum and bonus); in the lower part a label with "oben"/"ober" is that
  upper total again, one with "unten"/"unter" (or the first there) adds the lower boxes,
  and the last is the grand total;
- a **box** otherwise (also where the label could not be read), below the header.

Each check uses the sums written above it where they were read surely: an error is told
once, where it was made, not again in every sum below it (a player carries their own
subtotal on). A struck box counts 0, a blank one nothing. ``sure`` only when the sum and
every part it adds were read at :data:`SURE`, and the sum would not add up with one of them
read as one of its doubts (another number its pen may as well say) either: a referee does
not accuse on a blur, and looks again at a hooked 1 before calling a total wrong.

Before the check, :func:`settle` reads a column whose sums leave only one way of adding up
its doubtful numbers that way, as the printed pad's reader does; a sum that adds up only so
is still told, not surely (:func:`check`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from companion.games.kniffel.pad import only_way, pen_first
from companion.games.kniffel.padcheck import BY_SUMS, SURE
from vision.pad.reader import Cell, PadReading, Table
from vision.pad.rows import fold, has

KNIFFEL_BONUS = (63, 35)  # threshold and amount where the label does not say
SUM_WORDS = ("summe", "gesamt", "total", "endsumme", "gesamtsumme", "zwischensumme")


@dataclass(frozen=True)
class SumCheck:
    """One written sum against its parts; ``row``, ``col`` in the table's cells."""

    table: int
    row: int
    col: int
    label: str
    written: int | None
    computed: int
    sure: bool

    @property
    def ok(self) -> bool | None:
        """None when nothing is written there: a sum not yet added up is no error."""
        return None if self.written is None else self.written == self.computed

    def view(self) -> dict[str, object]:
        return {"table": self.table, "row": self.row, "col": self.col, "label": self.label,
                "written": self.written, "computed": self.computed, "ok": self.ok,
                "sure": self.sure}


@dataclass
class _Part:
    """A value so far in one player column, whether every read behind it was sure, and
    how one of them read as one of its doubts would move it (``shifts``)."""

    value: int = 0
    sure: bool = True
    shifts: frozenset[int] = frozenset()

    def add(self, other: _Part) -> _Part:
        return _Part(self.value + other.value, self.sure and other.sure,
                     self.shifts | other.shifts)


def _read(value: int, cell: Cell, sure: bool) -> _Part:
    """A number read in ``cell``, moved by each of its doubts."""
    return _Part(value, sure, frozenset(d - value for d in cell.doubts))


@dataclass
class _Column:
    upper: _Part = field(default_factory=_Part)  # the boxes so far, each part
    lower: _Part = field(default_factory=_Part)
    raw: _Part | None = None  # the upper boxes' sum, as written (or computed)
    bonus: _Part | None = None
    upper_total: _Part | None = None
    lower_sum: _Part | None = None

    def top(self) -> _Part:
        """The upper part's total: as written, else its sum and bonus."""
        return self.upper_total or (self.raw or self.upper).add(self.bonus or _Part())


@dataclass
class _Card:
    """One card's player columns as its rows are walked down (over both halves)."""

    players: int
    columns: dict[int, _Column] = field(default_factory=dict)
    lower: bool = False  # past the upper part's sums
    summed: bool = False  # a sum or bonus row since the last box row
    boxes: bool = False  # a box row seen

    def column(self, j: int) -> _Column:
        return self.columns.setdefault(j, _Column())


# a card: how many player columns, and its tables (their index, the table, label columns)
CardTables = tuple[int, list[tuple[int, Table, int]]]


def _cards(reading: PadReading) -> list[CardTables]:
    """The reading's cards: tables with as many player columns one after another are one
    card (its halves); a table without a column of labels is none."""
    cards: list[CardTables] = []
    for k, table in enumerate(reading.tables):
        labels = _label_columns(table)
        if labels is None:
            continue
        if not cards or cards[-1][0] != table.cols - labels:
            cards.append((table.cols - labels, []))
        cards[-1][1].append((k, table, labels))
    return cards


def check(reading: PadReading) -> list[SumCheck]:
    """Every sum row of every table, each player column: written against computed. A sum
    that adds up only as :func:`settle` read its column is told as the pen reads it, not
    surely: the sums cannot say whether a blurred number or the player's adding slipped,
    and a slip hidden so is a wrong sum nobody is told of (a total written 96 for 95, its
    6 blurred, was read as 95; a total one short, read to add up by a sure 8 taken for a
    7)."""
    out = _checks(reading)
    pen = _as_the_pen_says(reading)
    if pen is reading:
        return out
    said = {(c.table, c.row, c.col): c for c in _checks(pen)}
    return [replace(p, sure=False)
            if c.ok and (p := said.get((c.table, c.row, c.col))) is not None and p.ok is False
            else c for c in out]


def _checks(reading: PadReading) -> list[SumCheck]:
    out: list[SumCheck] = []
    for players, tables in _cards(reading):
        card = _Card(players)
        for k, table, labels in tables:
            out += _walk(k, table, labels, card)
    return out


def _as_the_pen_says(reading: PadReading) -> PadReading:
    """``reading`` with every cell the sums settled back as it was read (itself if none)."""
    if not any(c.before is not None for t in reading.tables for row in t.cells for c in row):
        return reading
    return replace(reading, tables=tuple(
        replace(t, cells=tuple(tuple(c.before or c for c in row) for row in t.cells))
        for t in reading.tables))


def settle(reading: PadReading) -> PadReading:
    """The reading with the numbers each player's written sums settle: where a column's sums
    do not add up as read, but reading one of its numbers (else two) as one of its doubts
    makes every written sum of the column add up, and only one such choice does, the column
    is read so (as the printed pad is: ``companion.games.kniffel.pad.settled_by_sums``);
    where none does, each sum of boxes settles its own (:func:`_by_own_sums`). A
    box with doubts may move; a sum only when read below :data:`SURE` (one read surely is
    what the player wrote: the check is there to tell it). A settled number is shown at
    :data:`BY_SUMS`, the pen's number first among its doubts."""
    cells = [[list(row) for row in t.cells] for t in reading.tables]
    for players, tables in _cards(reading):
        first = {k: labels for k, _, labels in tables}  # each table's first player column
        for j in range(players):
            column = [(k, _one_player(table, labels, j), labels) for k, table, labels in tables]
            for (k, r), cell in _settled(column).items():
                cells[k][r][first[k] + j] = cell
    return replace(reading, tables=tuple(
        replace(t, cells=tuple(tuple(row) for row in rows))
        for t, rows in zip(reading.tables, cells)))


def _one_player(table: Table, labels: int, j: int) -> Table:
    """``table`` with its label columns and player column ``j`` alone."""
    return replace(table, cells=tuple(row[:labels] + (row[labels + j],) for row in table.cells))


def _settled(column: list[tuple[int, Table, int]]) -> dict[tuple[int, int], Cell]:
    """The cells of one player's column (``column``: its tables, each that player's alone)
    that the column's written sums settle, by (table, row)."""
    texts = {k: [_label(table, r, labels) for r in range(len(table.cells))]
             for k, table, labels in column}

    def checks(change: dict[tuple[int, int], Cell]) -> list[SumCheck]:
        card, out = _Card(1), []
        for k, table, labels in column:
            rows = table.cells
            if any(t == k for t, _ in change):
                rows = tuple(row[:labels] + (change.get((k, r), row[labels]),)
                             for r, row in enumerate(rows))
            out += _walk(k, replace(table, cells=rows), labels, card, texts[k])
        return out

    first = checks({})
    if all(c.ok is not False for c in first):
        return {}
    sums = {(c.table, c.row) for c in first}
    choices = []
    for k, table, labels in column:
        for r, row in enumerate(table.cells):
            cell = row[labels]
            if cell.text is not None or ((k, r) in sums and _sure(cell)):
                continue
            pen = 0 if cell.struck else cell.value
            choices += [((k, r), _as(cell, d, pen)) for d in cell.doubts if d != pen]
    whole = only_way(choices, lambda change: all(s.ok is not False for s in checks(change)))
    return whole or _by_own_sums(first, choices, sums, checks)


def _by_own_sums(first: list[SumCheck], choices: list[tuple[tuple[int, int], Cell]],
                 sums: set[tuple[int, int]],
                 checks: Callable[[dict[tuple[int, int], Cell]], list[SumCheck]],
                 ) -> dict[tuple[int, int], Cell]:
    """Where no way makes every sum add up (a sum the player added up wrong), each sum of
    boxes that does not add up settles its own boxes alone, as on the printed pad
    (``settled_by_sums``): the choices that move it, its own cell among them, and at least
    one box. A sum made of other sums (a total over written subtotals) settles nothing so:
    it is what the check is there to tell. Two sums settling one cell otherwise settle it
    not at all."""
    out: dict[tuple[int, int], Cell] = {}
    clash: set[tuple[int, int]] = set()
    alone = [checks({k: cell}) for k, cell in choices]  # each choice's sums, walked once
    for i, c in enumerate(first):
        if c.ok is not False:
            continue
        at = (c.table, c.row)
        own = [(k, cell) for (k, cell), after in zip(choices, alone) if k == at or (
            k not in sums and after[i].computed != c.computed)]
        if all(k == at for k, _ in own):
            continue

        def adds_up(change: dict[tuple[int, int], Cell], i: int = i) -> bool:
            return checks(change)[i].ok is not False

        for k, cell in only_way(own, adds_up).items():
            if k in out and out[k] != cell:
                clash.add(k)
            out[k] = cell
    return {k: cell for k, cell in out.items() if k not in clash}


def _as(cell: Cell, value: int, pen: int | None) -> Cell:
    """``cell`` read as ``value`` by its column's sums, the pen's number first among its
    doubts."""
    return replace(cell, value=value, struck=False, confidence=BY_SUMS,
                   doubts=pen_first(pen, cell.doubts, value), before=cell)


def _walk(k: int, table: Table, labels: int, card: _Card,
          texts: list[str] | None = None) -> list[SumCheck]:
    """Table ``k`` row by row, top down: boxes add up, sum rows are checked (the card goes on
    into the next table, its lower half). ``texts``: the rows' labels, when known."""
    out: list[SumCheck] = []
    texts = texts or [_label(table, r, labels) for r in range(len(table.cells))]
    rows = [(r, text, _role(text), row[labels:])
            for r, (row, text) in enumerate(zip(table.cells, texts))]
    sums = [r for r, _, role, _ in rows if role == "sum"]
    for r, text, role, cells in rows:
        if role == "box":
            if not card.boxes and all(c.text is not None or c.value is None for c in cells):
                continue  # a header ("Spiel 1") or an empty row above the boxes
            card.lower, card.boxes, card.summed = card.lower or card.summed, True, False
            for j, cell in enumerate(cells):
                col = card.column(j)
                part = _read(0 if cell.struck else (cell.value or 0), cell, _sure(cell))
                if card.lower:
                    col.lower = col.lower.add(part)
                else:
                    col.upper = col.upper.add(part)
        elif card.boxes:
            card.summed = True
            out += [_one((k, r, j + labels), text, role, cell, card.column(j), card.lower,
                         r == sums[-1] if sums else False) for j, cell in enumerate(cells)]
    return out


def _one(at: tuple[int, int, int], text: str, role: str, cell: Cell, col: _Column,
         lower: bool, last: bool) -> SumCheck:
    """One sum or bonus cell checked, and the column moved on past it."""
    written = None if cell.text is not None or (cell.value is None and not cell.struck) else (
        0 if cell.struck else cell.value)
    if role == "bonus":
        at_least, amount = _bonus_rule(text)
        raw = col.raw or col.upper
        part = _Part(amount if raw.value >= at_least else 0, raw.sure)
        col.bonus = _as_written(written, cell, part)
        return _made(at, text, written, part, cell)
    if not lower and col.bonus is None:
        part = col.upper
        col.raw = _as_written(written, cell, part)
    elif not lower:
        part = col.top()
        col.upper_total = _as_written(written, cell, part)
    elif _says(text, ("oben", "ober", "oberer")) and not last:
        part = col.top()
        col.upper_total = _as_written(written, cell, part)
    elif _says(text, ("unten", "unter", "unterer")) or (col.lower_sum is None and not last):
        part = col.lower
        col.lower_sum = _as_written(written, cell, part)
    else:
        part = col.top().add(col.lower_sum or col.lower)
    return _made(at, text, written, part, cell)


def _made(at: tuple[int, int, int], text: str, written: int | None, part: _Part,
          cell: Cell) -> SumCheck:
    explained = written is not None and written != part.value and (
        written - part.value in part.shifts or part.value in cell.doubts)
    return SumCheck(*at, text, written, part.value,
                    part.sure and _sure(cell) and not explained)


def _as_written(written: int | None, cell: Cell, computed: _Part) -> _Part:
    """What the sums below build on: the number written, when it was read surely; else what
    it should be, not sure when something is written (the player carries on from their own
    number, which was not made out)."""
    if written is None:
        return computed
    return _read(written, cell, True) if _sure(cell) else _Part(computed.value, False)


def _sure(cell: Cell) -> bool:
    return cell.confidence >= SURE


def _label_columns(table: Table) -> int | None:
    """How many columns on the left hold the printed labels (most of their cells print);
    None when no column does or no player column is left."""
    n = 0
    for c in range(table.cols):
        cells = [row[c] for row in table.cells if row[c].merged is None]
        if not cells or sum(x.text is not None for x in cells) < 0.5 * len(cells):
            break
        n += 1
    return n if 0 < n < table.cols else None


def _label(table: Table, r: int, labels: int) -> str:
    """Row ``r``'s label. A label cell over several rows (the line between "Summe" and
    "Bonus" not printed, or not seen) that holds a line of text a row gives each row its
    own line, as a referee reads it; one holding other than a line a row labels none of
    them."""
    out = []
    for c in range(labels):
        cell = table.cells[r][c]
        r0, c0 = cell.merged or (r, c)
        cell = table.cells[r0][c0]
        if not cell.text or c0 != c:
            continue  # a cell over several columns is read once, at its first
        lines = cell.text.split("\n")
        if cell.span[0] == 1:
            out.append(" ".join(lines))
        elif len(lines) == cell.span[0]:
            out.append(lines[r - r0])
    return " ".join(out)


@lru_cache(maxsize=1024)
def _says(text: str, keys: tuple[str, ...]) -> bool:
    """Whether the label says one of ``keys`` (an OCR slip forgiven); kept, as a column's
    sums are walked again for every way of settling them."""
    return has(fold(text), keys)


@lru_cache(maxsize=1024)
def _role(text: str) -> str:
    """A row by its label: "bonus", "sum" or "box" (also when the label could not be read:
    a row of boxes whose label Tesseract missed still adds up)."""
    words = fold(text)
    if has(words, ("bonus",)):
        return "bonus"
    return "sum" if has(words, SUM_WORDS) else "box"


def _bonus_rule(text: str) -> tuple[int, int]:
    """(threshold, amount) from the bonus label's numbers, else a Kniffel card's."""
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    return (numbers[0], numbers[-1]) if len(numbers) >= 2 else KNIFFEL_BONUS


__all__ = ["BY_SUMS", "SURE", "SumCheck", "check", "settle"]
