"""Board notation: every bad character is reported at its row and column (1-based)."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from companion.games.moerder.board import SIZE, Board, BoardError, Tile


def _is_bad(ch: str) -> bool:
    if ch == "." or ch == "/" or ch.isspace():
        return False
    try:
        Tile.from_char(ch)
    except ValueError:
        return True
    return False


@given(
    st.integers(0, SIZE - 1),
    st.integers(0, SIZE - 1),
    st.characters(codec="utf-8").filter(_is_bad),
)
def test_a_bad_character_is_named_by_row_and_column(row: int, col: int, ch: str) -> None:
    rows = ["......"] * SIZE
    rows[row] = rows[row][:col] + ch + rows[row][col + 1 :]
    try:
        Board.parse("/".join(rows))
    except BoardError as exc:
        assert f"row {row + 1}, column {col + 1}" in str(exc)
    else:
        raise AssertionError(f"{ch!r} was accepted")


def test_the_cli_module_loads_without_numpy() -> None:
    """``companion --help`` stays instant: numpy is imported only inside the handlers."""
    code = "import sys, companion.tools.moerder; print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_cells_are_named_as_the_phone_names_them() -> None:
    from pathlib import Path

    from companion.games.moerder.board import cell_name

    assert [cell_name(c) for c in ((0, 0), (1, 2), (5, 5), (5, 0))] == ["A1", "C2", "F6", "A6"]
    js = (Path(__file__).resolve().parent.parent / "web/static/js/common.js").read_text("utf-8")
    assert '"ABCDEF".charAt(cell[1]) + (cell[0] + 1)' in js  # the phone's cellName
