"""The paper pad as the camera saw it, held against the record: what the table tells.

The record (the entries the phones and the camera made) is the game; the pad is what the
players wrote. The table reads the pad as a referee glancing at it would:

- **Which game.** A pad holds one to three games per player. The column compared is the game
  whose sure boxes best follow the record: +2 for a box written as recorded, +1 for one
  written otherwise (the player wrote where the record has an entry: this game, a slip of the
  pen), -2 for each number beyond one per player written in a box still open on the record (a
  finished game's column is full, the game in progress is not); on a tie the earliest game, so
  a fresh pad is compared from its first column.
- **Boxes.** A sure number (or a strike, worth 0) differing from the entry recorded is told
  (``box``), naming the player, the box, what is written and what is recorded. A blank box is
  never told: writing comes after the entry.
- **Sums.** A written sum or bonus that is neither what the written boxes add up to (by the
  game's own pad, bonus from 50) nor the record's is told (``sum``, the record's as expected);
  one that matches either is not: a box written wrong is told once, as a box. Nor is one
  that adds up with one box, or the sum itself, read as one of its doubts, nor a bonus or
  total that follows from the sums written above it: a subtotal added wrongly and carried
  on is told once, where it was made.
- **Unsure** reads (below :data:`SURE`) are never held against anyone, and a sum is checked
  only when every box it adds up is sure: a referee does not accuse on a blur. Nor is a
  number whose pen marks may as well be read as what was entered (a hooked 1 read as 7
  where 1 was entered: the reader's ``doubts``): a referee who knows the entry reads it so.
  Nor is one whose column's written sums add up with the entry in its place and not with
  the number read (they were added from what the player wrote).
- **Written, not recorded.** A number the player on turn wrote in an open box after a throw is
  offered (``offer``): the phone may take it as the entry (``pad_entry``, or ``zero`` for a
  strike); nothing is entered without that confirmation. Where the throw cannot make the
  number read but can make one of its doubts, the likeliest such doubt is offered. Any other
  number written in an open box (another player's, before a throw, one the throw cannot
  make) is told (``unrecorded``).
- Each finding is told once: the same finding in the next look at the pad is not told again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.base import AnyEffect, Cue, Effect, Refused, Signal
from companion.games.kniffel.events import PadEntry, Zero
from companion.games.kniffel.pad import (
    BOXES, UPPER, Box, Pad, bonus_for, settled_by_sums, sums_may_be,
)
from companion.games.kniffel.rules import KniffelState, apply
from companion.games.readings import PadBoxSeen, PadColumnSeen, PadSeen

SURE = 0.9  # a read this sure is held against the record; below, the pad is not judged
# how sure a number the column's sums settled is (pad.settled_by_sums), rather than the pen:
# shown as read, never held against a player
BY_SUMS = 0.8
SUMS = ("upper", "bonus", "lower", "total")
SUM_PARTS: dict[str, tuple[Box, ...]] = {
    "upper": UPPER, "bonus": UPPER, "lower": tuple(b for b in BOXES if b not in UPPER),
    "total": BOXES,
}


@dataclass(frozen=True)
class Finding:
    """One thing the pad says that the record does not (see the module's list of kinds)."""

    kind: str
    seat: int
    row: str
    written: int
    expected: int | None
    struck: bool = False

    def event(self) -> dict[str, Any] | None:
        """What the phone sends to take an offer as the entry."""
        if self.kind != "offer":
            return None
        if self.written == 0:
            return {"type": "zero", "box": self.row}
        return {"type": "pad_entry", "seat": self.seat, "box": self.row, "score": self.written}

    def view(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "player": players[self.seat],
                "row": self.row, "written": self.written, "expected": self.expected,
                "struck": self.struck, "event": self.event()}


@dataclass(frozen=True)
class PadCheck:
    """The game column compared (None: no column of a player at this table) and findings."""

    game: int | None
    findings: tuple[Finding, ...]

    def view(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {"game": self.game, "findings": [f.view(players) for f in self.findings]}


def _sure(row: PadBoxSeen | None) -> int | None:
    """The number a sure, written row holds (0 struck); None when blank or unsure."""
    if row is None or row.confidence < SURE or (row.value is None and not row.struck):
        return None
    return 0 if row.struck else row.value


def _may_be(row: PadBoxSeen | None, number: int | None) -> bool:
    """May the row be read as ``number`` (its own reading, or one of its doubts)?"""
    return row is not None and number is not None and (
        _sure(row) == number or number in row.doubts)


def _columns(state: KniffelState, pad: PadSeen, game: int) -> list[PadColumnSeen]:
    return [c for c in pad.columns if c.game == game and c.player < len(state.players)]


def choose_game(state: KniffelState, pad: PadSeen) -> int | None:
    """The game column that best agrees with the record (see the module's docstring)."""
    best: tuple[tuple[int, int], int] | None = None
    for game in range(pad.games):
        columns = _columns(state, pad, game)
        if not columns:
            continue
        score = 0
        for column in columns:
            record = state.pads[column.player]
            extra = 0
            for box in BOXES:
                row = column.rows.get(box.value)
                if _sure(row) is None:
                    continue
                if record[box] is None:
                    extra += 1
                else:
                    score += 2 if _may_be(row, record[box]) else 1
            score -= 2 * max(0, extra - 1)
        if best is None or (score, -game) > best[0]:
            best = ((score, -game), game)
    return None if best is None else best[1]


def _takes(state: KniffelState, seat: int, box: Box, written: int) -> bool:
    """The player on turn may take this number as the entry now (the rules say so)."""
    if seat != state.current or state.finished:
        return False
    event = Zero(box) if written == 0 else PadEntry(seat, box, written)
    try:
        apply(state, event)
    except Refused:
        return False
    return True


def _boxes(state: KniffelState, column: PadColumnSeen) -> list[Finding]:
    seat, record, out = column.player, state.pads[column.player], []
    for box in BOXES:
        row = column.rows.get(box.value)
        written, entry = _sure(row), record[box]
        if written is None or row is None:
            continue
        if entry is None:
            # the reading, or else the likeliest doubt, that the rules take now is offered
            takes = [v for v in (written, *row.doubts) if _takes(state, seat, box, v)]
            if takes:
                out.append(Finding("offer", seat, box.value, takes[0], None, row.struck))
            else:
                out.append(Finding("unrecorded", seat, box.value, written, None, row.struck))
        elif not _may_be(row, entry) and not _adds_up_with(column, box, entry):
            out.append(Finding("box", seat, box.value, written, entry, row.struck))
    return out


def _adds_up_with(column: PadColumnSeen, box: Box, number: int) -> bool:
    """Do the column's written sums add up with ``box`` read as ``number``, and not as it
    was read (or, where the column adds up neither way, the sum of the box's own half:
    ``settled_by_sums``)? A referee whose column adds up to the entry reads the box as the
    entry, however clear the pen looked (a 2 written as a stroke with a foot, read 1
    surely); a player who wrote another number added that one up."""
    read = {k: 0 if r.struck else r.value for k, r in column.rows.items()}
    return settled_by_sums(read, {box.value: (number,)}) == {box.value: number}


def _sums(state: KniffelState, column: PadColumnSeen) -> list[Finding]:
    seat, record, out = column.player, state.pads[column.player], []
    rows = {b: column.rows.get(b.value) for b in BOXES}
    as_written = [_sure(rows[b]) for b in BOXES]
    doubts = [r.doubts if r is not None and _sure(r) is not None else () for r in rows.values()]
    adds = sums_may_be(as_written, doubts)
    carried = _carried(column, Pad(tuple(as_written)))
    recorded = record.sums
    for key in SUMS:
        row = column.rows.get(key)
        written = _sure(row)
        parts = (rows[b] for b in SUM_PARTS[key])
        unsure = any(r is not None and r.confidence < SURE for r in parts)
        if written is None or unsure or any(
                _may_be(row, v) for v in (*adds[key], recorded[key], carried.get(key))):
            continue
        out.append(Finding("sum", seat, key, written, recorded[key],
                           row is not None and row.struck))
    return out


def _carried(column: PadColumnSeen, boxes: Pad) -> dict[str, int]:
    """What the bonus and the total come to from the sums written above them (read
    surely), where something is written there: a player who added the upper part wrongly
    and carried their own number on made one mistake, told once, where it was made."""
    upper, bonus, lower = (_sure(column.rows.get(k)) for k in ("upper", "bonus", "lower"))
    if upper is None and bonus is None and lower is None:
        return {}
    up = boxes.upper if upper is None else upper
    earned = bonus_for(up)
    out = {"total": up + (earned if bonus is None else bonus)
           + (boxes.lower if lower is None else lower)}
    return out if upper is None else {**out, "bonus": earned}


def check_pad(state: KniffelState, pad: PadSeen) -> PadCheck:
    """Every finding of the pad against the record, player by player (pure)."""
    game = choose_game(state, pad)
    if game is None:
        return PadCheck(None, ())
    findings: list[Finding] = []
    for column in sorted(_columns(state, pad, game), key=lambda c: c.player):
        findings += _boxes(state, column) + _sums(state, column)
    return PadCheck(game, tuple(findings))


def tell(state: KniffelState, pad: PadSeen, told: frozenset[Finding]
         ) -> tuple[PadCheck, tuple[AnyEffect, ...]]:
    """The check and what to tell of it now: the findings not told in the last look, as a
    ``pad_check`` effect for the phones, and the reminder tune when one is a disagreement
    (an offer alone is a question the phone shows, not a fault)."""
    check = check_pad(state, pad)
    new = [f for f in check.findings if f not in told]
    if not new:
        return check, ()
    effects: list[AnyEffect] = [
        Effect("pad_check", {"game": check.game, "findings": [f.view(state.players) for f in new]})]
    if any(f.kind != "offer" for f in new):
        effects.append(Signal(Cue.REMINDER))
    return check, tuple(effects)


__all__ = ["Finding", "PadCheck", "SURE", "check_pad", "choose_game", "tell"]
