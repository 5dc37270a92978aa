"""Where every box of the printed Wort-Kniffel pad lies, in millimetres on an A4 page.

The printer and the reader share this one geometry: the reader warps a photo onto the page
through the four corner markers and cuts each box at the place the printer drew it, so a
change here moves both at once. The markers' ids also carry the layout (players x games),
which is how a photo of any printed pad tells the reader how many columns to expect.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.kniffel.pad import BOXES, Box
from vision import VisionError

PAGE_W, PAGE_H = 210.0, 297.0  # A4 portrait
MARGIN = 8.0
MARKER = 16.0  # side of a corner marker, quiet zone is the white margin around it
TABLE_LEFT, LABEL_W = 10.0, 46.0
TABLE_TOP = 30.0
HEAD_H = 6.0  # one header row: the game, then the player's name
ROW_H = 14.5
MAX_COL_W = 24.0
MAX_PLAYERS, MAX_GAMES = 4, 3
# Marker ids: 4 * layout + corner (top-left, top-right, bottom-right, bottom-left), so
# layouts 0..11 use ids 0..47 of DICT_4X4_50.
CORNERS = ("top_left", "top_right", "bottom_right", "bottom_left")


class PadSheetError(VisionError):
    """A layout the sheet cannot hold, or a photo in which the pad is not found or read."""


@dataclass(frozen=True)
class Row:
    """One printed row: a box of the game or one of the sums, with its German label."""

    key: str
    label: str
    is_sum: bool


ROWS: tuple[Row, ...] = (
    Row(Box.TWO.value, "Zweier-Wörter", False),
    Row(Box.THREE.value, "Dreier-Wörter", False),
    Row(Box.FOUR.value, "Vierer-Wort", False),
    Row(Box.FIVE.value, "Fünfer-Wort", False),
    Row(Box.SIX.value, "Sechser-Wort", False),
    Row("upper", "Summe oben", True),
    Row("bonus", "Bonus (ab 50: 35)", True),
    Row(Box.PAIR_OF_WORDS.value, "Wort-Zweier", False),
    Row(Box.THREE_WORDS.value, "Wort-Dreier", False),
    Row(Box.FULL_HOUSE.value, "Full-House", False),
    Row(Box.STREET.value, "Straße", False),
    Row(Box.KNIFFEL.value, "Wort-Kniffel", False),
    Row(Box.CHANCE.value, "Chance", False),
    Row("lower", "Summe unten", True),
    Row("total", "Gesamt", True),
)
SUMS = ("upper", "bonus", "lower", "total")
assert {r.key for r in ROWS if not r.is_sum} == {b.value for b in BOXES}


@dataclass(frozen=True)
class Layout:
    """How many players and games (columns = players x games, game by game)."""

    players: int
    games: int

    def __post_init__(self) -> None:
        if not 1 <= self.players <= MAX_PLAYERS:
            raise PadSheetError(f"a pad has 1-{MAX_PLAYERS} players, not {self.players}")
        if not 1 <= self.games <= MAX_GAMES:
            raise PadSheetError(f"a pad has 1-{MAX_GAMES} games, not {self.games}")

    @property
    def code(self) -> int:
        return (self.players - 1) * MAX_GAMES + (self.games - 1)

    @classmethod
    def from_code(cls, code: int) -> Layout:
        if not 0 <= code < MAX_PLAYERS * MAX_GAMES:
            raise PadSheetError(f"marker layout {code} is not one this companion prints")
        return cls(code // MAX_GAMES + 1, code % MAX_GAMES + 1)

    @property
    def columns(self) -> int:
        return self.players * self.games

    def column_of(self, column: int) -> tuple[int, int]:
        """(game, player) of a column."""
        return divmod(column, self.players)

    @property
    def col_w(self) -> float:
        room = PAGE_W - MARGIN - 2.0 - (TABLE_LEFT + LABEL_W)
        return min(MAX_COL_W, room / self.columns)

    @property
    def table_w(self) -> float:
        return LABEL_W + self.col_w * self.columns

    def marker_ids(self) -> tuple[int, int, int, int]:
        base = 4 * self.code
        return (base, base + 1, base + 2, base + 3)

    def box(self, column: int, row: int) -> tuple[float, float, float, float]:
        """(x, y, width, height) of one box in mm."""
        x = TABLE_LEFT + LABEL_W + column * self.col_w
        y = TABLE_TOP + 2 * HEAD_H + row * ROW_H
        return x, y, self.col_w, ROW_H


def marker_origin(corner: int) -> tuple[float, float]:
    """Top-left of a corner's marker in mm."""
    right = PAGE_W - MARGIN - MARKER
    bottom = PAGE_H - MARGIN - MARKER
    return ((MARGIN, MARGIN), (right, MARGIN), (right, bottom), (MARGIN, bottom))[corner]


def marker_corners(corner: int) -> list[tuple[float, float]]:
    """The marker's four corners in mm, in the order cv2.aruco reports them (clockwise
    from the marker's own top-left)."""
    x, y = marker_origin(corner)
    return [(x, y), (x + MARKER, y), (x + MARKER, y + MARKER), (x, y + MARKER)]


__all__ = ["CORNERS", "Layout", "PadSheetError", "ROWS", "Row", "SUMS", "marker_corners",
           "marker_origin"]
