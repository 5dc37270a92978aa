"""The sums of a pad read without markers: which rows are sums is read from their labels, and
each is checked against what its parts add up to, as a referee checks a Kniffel card."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from pad_support import held_out_digits
from vision.pad import synth
from vision.pad.reader import Cell, PadReading, Table
from vision.pad.sums import BY_SUMS, check, settle

# a label, and each player's cell: int, None, "x", ("?", int) unsure, ("d", int, doubts) read
# surely with doubts, ("u", int, doubts) unsurely with doubts
Row = tuple[str, list[Any]]

UPPER_BOXES = ["Einer", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser"]
LOWER_BOXES = ["Dreierpasch", "Viererpasch", "Full House", "Kleine Straße", "Große Straße",
               "Kniffel", "Chance"]


def _cell(v: Any) -> Cell:
    if v is None:
        return Cell(None, False, None, 0.99)
    if v == "x":
        return Cell(0, True, None, 0.99)
    if isinstance(v, tuple) and v[0] in "du":  # read surely or not, with doubts
        return Cell(v[1], False, None, 0.99 if v[0] == "d" else 0.6, doubts=v[2])
    if isinstance(v, tuple):
        return Cell(v[1], False, None, 0.4)
    return Cell(int(v), False, None, 0.99)


def _table(rows: list[Row]) -> Table:
    players = len(rows[0][1])
    head = (Cell(None, False, "", 0.9),) + tuple(
        Cell(None, False, f"Spiel {k + 1}", 0.9) for k in range(players))
    cells = [head] + [(Cell(None, False, label, 0.9),) + tuple(_cell(v) for v in values)
                      for label, values in rows]
    return Table(np.zeros((4, 2)), tuple(cells), cast(Any, None))


def _card(upper: list[Any], lower: list[Any], sums: dict[str, Any]) -> PadReading:
    """A one-player Kniffel card in one table; ``sums`` what is written in its sum rows."""
    rows: list[Row] = [(n, [v]) for n, v in zip(UPPER_BOXES, upper)]
    rows += [(n, [sums.get(n)]) for n in ("Summe", "Bonus", "Summe oben")]
    rows += [(n, [v]) for n, v in zip(LOWER_BOXES, lower)]
    rows += [(n, [sums.get(n + " 2" if n == "Summe oben" else n)])
             for n in ("Summe unten", "Summe oben", "Endsumme")]
    return PadReading((_table(rows),), 0.0)


UP = [3, 8, 12, 16, 20, 24]  # 83: the bonus
DOWN = [20, 0, 25, 30, 40, 0, 22]  # 137


def _flags(reading: PadReading) -> list[tuple[str, int | None, int, bool]]:
    return [(c.label, c.written, c.computed, c.sure) for c in check(reading) if c.ok is False]


def test_a_card_added_up_right_has_every_sum_checked_and_none_flagged() -> None:
    written = {"Summe": 83, "Bonus": 35, "Summe oben": 118, "Summe unten": 137,
               "Summe oben 2": 118, "Endsumme": 255}
    checks = check(_card(UP, DOWN, written))
    assert [c.label for c in checks] == ["Summe", "Bonus", "Summe oben", "Summe unten",
                                         "Summe oben", "Endsumme"]
    assert all(c.ok and c.sure for c in checks)


def test_a_sum_added_up_wrong_is_told_once_where_it_was_made() -> None:
    # the player wrote 93 for 83 and carried their own number on: the upper total and the
    # grand total follow from it, so only the first sum is wrong
    written = {"Summe": 93, "Bonus": 35, "Summe oben": 128, "Summe unten": 137,
               "Summe oben 2": 128, "Endsumme": 265}
    assert _flags(_card(UP, DOWN, written)) == [("Summe", 93, 83, True)]
    written["Endsumme"] = 255  # the grand total from the boxes, not from what was written
    assert _flags(_card(UP, DOWN, written)) == [("Summe", 93, 83, True),
                                                ("Endsumme", 255, 265, True)]


def test_the_bonus_follows_its_label_or_a_kniffel_cards_rule() -> None:
    low = [3, 8, 9, 12, 15, 12]  # 59: no bonus on a Kniffel card
    written = {"Summe": 59, "Bonus": 35, "Summe oben": 94}
    assert _flags(_card(low, DOWN, written)) == [("Bonus", 35, 0, True)]
    # blank: added up in the player's head, by the rule
    assert _flags(_card(low, DOWN, {"Summe": 59, "Summe oben": 94})) == [
        ("Summe oben", 94, 59, True)]
    rows: list[Row] = [(n, [v]) for n, v in zip(["Zweier-Wörter", "Dreier-Wörter", "Vierer-Wort",
                                      "Fünfer-Wort", "Sechser-Wort"], [6, 10, 12, 14, 13])]
    rows += [("Summe oben", [55]), ("Bonus (ab 50: 35)", [35]), ("Wort-Zweier", [20]),
             ("Chance", [12]), ("Summe unten", [32]), ("Gesamt", [122])]
    checks = check(PadReading((_table(rows),), 0.0))
    assert [(c.label, c.ok) for c in checks] == [
        ("Summe oben", True), ("Bonus (ab 50: 35)", True), ("Summe unten", True),
        ("Gesamt", True)]


def test_a_box_row_whose_label_was_not_read_still_adds_up() -> None:
    reading = _card(UP, DOWN, {"Summe": 83})
    first = reading.tables[0].cells[1]
    unread = (Cell(None, False, "", 0.9),) + first[1:]
    table = reading.tables[0]
    cells = (table.cells[0], unread) + table.cells[2:]
    assert _flags(PadReading((Table(table.corners, cells, table.lattice),), 0.0)) == []


def test_a_sum_built_on_a_blur_accuses_nobody() -> None:
    # a box read unsure: its sum is checked, not surely
    up = UP[:5] + [("?", 24)]
    assert _flags(_card(up, DOWN, {"Summe": 84})) == [("Summe", 84, 83, False)]
    # a subtotal written but not made out: the sum built on it is not sure either
    written = {"Summe": ("?", 93), "Summe oben": 128}
    assert _flags(_card(UP, DOWN, written)) == [("Summe", 93, 83, False),
                                                ("Summe oben", 128, 118, False)]


def test_a_sum_that_one_doubt_would_make_add_up_accuses_nobody() -> None:
    """The Chance's 22 read surely, but its pen may as well say 28 (a doubt): a lower sum
    written 143 adds up with the 28, so it is flagged, not surely; with a doubt that does
    not make it add up it is sure. A doubt of the written sum counts the same way."""
    down = DOWN[:6] + [("d", 22, (28,))]
    assert _flags(_card(UP, down, {"Summe unten": 143})) == [("Summe unten", 143, 137, False)]
    other = DOWN[:6] + [("d", 22, (27,))]
    assert _flags(_card(UP, other, {"Summe unten": 143})) == [("Summe unten", 143, 137, True)]
    assert _flags(_card(UP, DOWN, {"Summe unten": ("d", 173, (137,))})) == [
        ("Summe unten", 173, 137, False)]


RIGHT = {"Summe": 83, "Bonus": 35, "Summe oben": 118, "Summe unten": 137, "Summe oben 2": 118,
         "Endsumme": 255}  # UP and DOWN added up right


def _at(reading: PadReading, label: str, player: int = 0) -> Cell:
    return next(row[1 + player] for row in reading.tables[0].cells if row[0].text == label)


def test_the_sums_settle_a_number_its_pen_leaves_in_doubt() -> None:
    """The Full House read 15 surely, its pen as well saying 25; every sum written adds up
    with 25: the card is read so, the 15 kept as a doubt. The lower sum, which adds up only
    so, is still told, not surely, as the pen reads it: a player who wrote 137 for 127 left
    the same card."""
    down = DOWN[:2] + [("d", 15, (25,))] + DOWN[3:]
    card = _card(UP, down, RIGHT)
    assert _flags(card)
    house = _at(settle(card), "Full House")
    assert (house.value, house.confidence, house.doubts) == (25, BY_SUMS, (15,))
    assert _flags(settle(card)) == [("Summe unten", 137, 127, False)]
    assert _at(settle(_card(UP, down, {})), "Full House").value == 15  # no sum written


def test_a_sum_of_boxes_settles_them_when_the_total_was_added_up_wrong() -> None:
    """The Full House read 15, its pen as well saying 25, and the Endsumme written ten too
    many: no reading makes every sum add up, but "Summe unten" adds up only with 25, so the
    Full House is read 25, and the Endsumme is told surely, as it was written ("Summe
    unten" not surely, as the pen reads the Full House)."""
    down = DOWN[:2] + [("d", 15, (25,))] + DOWN[3:]
    card = _card(UP, down, dict(RIGHT, Endsumme=265))
    settled = settle(card)
    assert _at(settled, "Full House").value == 25
    assert _flags(settled) == [("Summe unten", 137, 127, False), ("Endsumme", 265, 255, True)]


def test_a_sum_read_surely_stays_as_written() -> None:
    """A lower sum written 147 (ten too many) and read surely keeps its 147 though its pen
    may say 137: it is what the check is for. Read unsurely, the sums settle it, and it is
    told not surely."""
    sure = _card(UP, DOWN, dict(RIGHT, **{"Summe unten": ("d", 147, (137,))}))
    assert _at(settle(sure), "Summe unten").value == 147
    assert ("Summe unten", 147, 137, False) in _flags(settle(sure))
    blurred = _card(UP, DOWN, dict(RIGHT, **{"Summe unten": ("u", 147, (137,))}))
    assert _at(settle(blurred), "Summe unten").value == 137
    assert _flags(settle(blurred)) == [("Summe unten", 147, 137, False)]


def test_a_slip_the_sums_would_settle_away_is_still_told() -> None:
    """The Endsumme written 256 for 255 and read unsurely, its pen as well saying 255: the
    sums read it 255, as they would a blurred 255, but the check tells it as the pen reads
    it, not surely. So with a sure 8 the sums would read as a 7, making an upper sum
    written one short add up: the 8 is read 7, the sum still told."""
    settled = settle(_card(UP, DOWN, dict(RIGHT, Endsumme=("u", 256, (255,)))))
    assert _at(settled, "Endsumme").value == 255
    assert _flags(settled) == [("Endsumme", 256, 255, False)]
    up = UP[:1] + [("d", 8, (7,))] + UP[2:]
    short = settle(_card(up, DOWN, {"Summe": 82}))
    assert _at(short, "Zweier").value == 7
    assert _flags(short) == [("Summe", 82, 83, False)]
    assert _flags(settle(_card(up, DOWN, {"Summe": 83}))) == []  # as read: nothing settled


def test_two_ways_of_adding_up_settle_nothing_and_other_players_are_left_alone() -> None:
    """Player 2's Full House may be 25 where 15 is read, or their Dreierpasch 30 where 20
    is: either makes the lower sum add up, so neither is settled. With the Dreierpasch read
    without a doubt, the Full House is (its lower sum told, not surely, as the pen reads
    it). Player 1's column adds up and is left as read, doubts and all."""
    rows: list[Row] = [(n, [v, v]) for n, v in zip(UPPER_BOXES, UP)]
    rows += [(n, [RIGHT[n], RIGHT[n]]) for n in ("Summe", "Bonus", "Summe oben")]
    one = DOWN[:6] + [("d", 22, (12,))]
    two = [("d", 20, (30,)), 0, ("d", 15, (25,)), 30, 40, 0, 22]
    rows += [(n, [v, w]) for n, v, w in zip(LOWER_BOXES, one, two)]
    rows += [(n, [RIGHT[k], RIGHT[k]]) for n, k in (("Summe unten", "Summe unten"),
                                                    ("Summe oben", "Summe oben 2"),
                                                    ("Endsumme", "Endsumme"))]
    card = PadReading((_table(rows),), 0.0)
    assert settle(card) == card
    rows[9] = ("Dreierpasch", [20, 20])
    settled = settle(PadReading((_table(rows),), 0.0))
    assert _at(settled, "Full House", 1).value == 25
    assert _at(settled, "Chance", 0) == _cell(("d", 22, (12,)))
    assert [(c.col, c.label, c.sure) for c in check(settled) if c.ok is False] == [
        (2, "Summe unten", False)]


def test_the_halves_of_a_card_are_one_card() -> None:
    top: list[Row] = [(n, [v]) for n, v in zip(UPPER_BOXES, UP)]
    top += [("Summe", [83]), ("Bonus", [35]), ("Summe oben", [118])]
    bottom: list[Row] = [(n, [v]) for n, v in zip(LOWER_BOXES, DOWN)]
    bottom += [("Summe unten", [137]), ("Summe oben", [118]), ("Endsumme", [250])]
    checks = check(PadReading((_table(top), _table(bottom)), 0.0))
    assert [(c.table, c.label, c.ok) for c in checks] == [
        (0, "Summe", True), (0, "Bonus", True), (0, "Summe oben", True),
        (1, "Summe unten", True), (1, "Summe oben", True), (1, "Endsumme", False)]
    assert checks[-1].computed == 255


def test_read_pad_sums_tells_a_sum_a_player_added_up_wrongly(tmp_path: Path) -> None:
    # a sold Gewinnkarte (each row's name and how it is scored) filled by hand, one sum
    # added up wrongly: the command reads the labels with Tesseract and flags it
    style = next(s for s in synth.STYLES if s.described)
    rendered = synth.render(style, held_out_digits(), np.random.default_rng(5), adding_up=True)
    wrong = [(r, c) for r, row in enumerate(rendered.tables[0].cells)
             for c, cell in enumerate(row) if cell.should is not None and cell.value is not None
             and cell.value != cell.should]
    assert wrong
    photo = tmp_path / "card.jpg"
    cv2.imwrite(str(photo), rendered.photo)
    out = subprocess.run([sys.executable, "-m", "companion.cli", "vision", "read-pad",
                          str(photo), "--sums", "--json"], capture_output=True, text=True,
                         timeout=120, check=True)
    sums = json.loads(out.stdout)["sums"]
    flagged = {(s["row"], s["col"]) for s in sums if s["ok"] is False}
    assert set(wrong) <= flagged
    assert {s["label"] for s in sums} >= {"Summe gesamt", "Endsumme gesamt"}


def _merged_labels(card: PadReading, row: int, text: str) -> PadReading:
    """The card with the label cells of ``row`` and the row below traced as one cell (the
    line between them not seen), holding ``text``."""
    table = card.tables[0]
    cells = [list(r) for r in table.cells]
    cells[row][0] = Cell(None, False, text, 0.9, (2, 1))
    cells[row + 1][0] = Cell(None, False, None, 1.0, merged=(row, 0))
    return PadReading((Table(table.corners, tuple(map(tuple, cells)), table.lattice),), 0.0)


def test_a_label_cell_over_two_rows_gives_each_row_its_own_line() -> None:
    # "Summe" above "Bonus" traced as one label cell: read line by line, each row is
    # checked as its own (before, the bonus row was taken for a box and added up)
    written = {"Summe": 83, "Bonus": 35, "Summe oben": 128, "Summe unten": 137,
               "Summe oben 2": 128, "Endsumme": 265}
    card = _merged_labels(_card(UP, DOWN, written), 7, "Summe\nBonus")
    checks = check(card)
    assert [c.label for c in checks][:3] == ["Summe", "Bonus", "Summe oben"]
    assert _flags(card) == [("Summe oben", 128, 118, True)]
    # one line only (a label printed across the two rows): which row it names is not
    # known, so neither row is labelled, and no sum above the bonus is checked
    one_line = check(_merged_labels(_card(UP, DOWN, written), 7, "Summe"))
    assert "Summe" not in [c.label for c in one_line] and "Bonus" not in [
        c.label for c in one_line]
