"""What is printed and written on a Kniffel Gewinnkarte as the renders draw it: each row's
name and how it is scored, and what a player writes in its sum rows (now and then added up
wrongly), so that a reader's check of the sums can be measured."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from vision.kniffel_pad.synth import played
from vision.pad.rows import may_hold

Kind = Literal["label", "blank", "number", "struck", "merged"]
UPPER = ("Einer", "Zweier", "Dreier", "Vierer", "Fünfer", "Sechser", "Summe", "Bonus",
         "Summe oben")
LOWER = ("Dreierpasch", "Viererpasch", "Full House", "Kleine Straße", "Große Straße",
         "Kniffel", "Chance", "Summe unten", "Summe oben", "Endsumme")
# a Gewinnkarte as sold: each row's name and, in a column of its own, how it is scored
NAMED = {"Einer": "nur Einser zählen", "Zweier": "nur Zweier zählen",
         "Dreier": "nur Dreier zählen", "Vierer": "nur Vierer zählen",
         "Fünfer": "nur Fünfer zählen", "Sechser": "nur Sechser zählen",
         "Summe": "gesamt", "Bonus": "bei 63 oder mehr plus 35", "Summe oben": "gesamt oben",
         "Dreierpasch": "alle Augen zählen", "Viererpasch": "alle Augen zählen",
         "Full House": "25 Punkte", "Kleine Straße": "30 Punkte", "Große Straße": "40 Punkte",
         "Kniffel": "50 Punkte", "Chance": "alle Augen zählen", "Summe unten": "gesamt unten",
         "Endsumme": "gesamt"}
SUM_ROWS = frozenset({"Summe", "Bonus", "Summe oben", "Summe unten", "Endsumme"})
BONUS, BONUS_AT = 35, 63  # a Kniffel card's upper bonus
WRONG_SUMS = 0.1  # the share of sums (not bonuses) a player adds up wrongly
SLIPS = 0.03  # the share of boxes a player fills with what the row cannot hold (played cards)


@dataclass(frozen=True)
class CellTruth:
    kind: Kind
    value: int | None = None
    text: str | None = None
    should: int | None = None  # a sum row's: what its parts add up to (``value`` may differ)


def adds_up(label: str, col: dict[str, int]) -> int:
    """What a player writes in a sum row (a Kniffel card's: :data:`UPPER`, :data:`LOWER`),
    from the column's boxes and the sums written above (``col``, by label); the second
    "Summe oben" copies the first."""
    if label == "Summe":
        return col["upper"]
    if label == "Bonus":
        return BONUS if col["upper"] >= BONUS_AT else 0
    if label == "Summe oben":
        return col.get(label, col.get("Summe", col["upper"]) + col.get("Bonus", 0))
    if label == "Summe unten":
        return col["lower"]
    return col.get("Summe oben", col["upper"]) + col.get("Summe unten", col["lower"])


def sum_cell(label: str, col: dict[str, int], u: float, fill: float,
             rng: np.random.Generator) -> CellTruth:
    """A sum row's cell: added up (now and then wrongly, by a tenth), a dash for no bonus."""
    should = adds_up(label, col)
    value = should
    if label != "Bonus" and rng.random() < WRONG_SUMS:
        value = max(0, should + int(rng.choice([-10, -1, 1, 9, 10])))
    written = u <= fill  # else the player added it up in their head, rightly
    col[label] = value if written else should
    if not written:
        return CellTruth("blank")
    if label == "Bonus" and value == 0 and u < 0.5 * fill:
        return CellTruth("struck", 0, should=0)
    return CellTruth("number", value, should=should)


def _played(label: str, rng: np.random.Generator) -> int | None:
    """What a player writes in the box labelled ``label`` of a Kniffel card as the rules
    give it (a Zweier a multiple of 2 up to 10), now and then (:data:`SLIPS`) a number the
    row cannot hold; None for a row the rules do not fix."""
    can = may_hold(label)
    return None if can is None else played(can, rng, slip=bool(rng.random() < SLIPS))


def box_value(rng: np.random.Generator, is_sum: bool, played: str | None = None) -> int:
    """A number a render writes in a box (a sum row's when not added up: any up to 400);
    ``played``: the row's label on a card filled as the Kniffel rules give it."""
    value = None if played is None else _played(played, rng)
    if value is not None:
        return value
    if is_sum:
        return int(rng.integers(0, 400))
    if rng.random() < 0.03:
        return -int(rng.integers(1, 60))
    return int(rng.integers(0, 51))


__all__ = ["BONUS", "BONUS_AT", "LOWER", "NAMED", "SUM_ROWS", "UPPER", "WRONG_SUMS", "CellTruth",
           "Kind", "adds_up", "box_value", "sum_cell"]
