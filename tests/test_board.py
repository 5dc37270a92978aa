from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.moerder.board import SIZE, Board, BoardError, Tile, neighbours


def test_parse_and_format_round_trip() -> None:
    text = "MÖRDER/....../....../....../....../.....X"
    board = Board.parse(text)
    assert str(board) == text
    assert board[(0, 1)] is Tile.OE
    assert board[(5, 5)] is Tile.VICTIM
    assert board[(3, 3)] is None


def test_plain_o_and_lower_case_read_as_letters() -> None:
    assert str(Board.parse("mordex/....../....../....../....../......")) == (
        "MÖRDEX/....../....../....../....../......"
    )


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("MÖRDER/....../....../....../......", "6 rows"),
        ("MÖRDER/...../....../....../....../......", "row 2 has 5"),
        ("MÖRDER/......./....../....../....../......", "row 2 has 7"),
        ("MÖRDER/......./....../....../....../......", "row 2"),
        ("MÖRDER/..Z.../....../....../....../......", "row 2, column 3"),
        ("MMMMMM/MM..../....../....../....../......", "8 M tiles"),
        ("XX..../....../....../....../....../......", "2 victims"),
    ],
)
def test_bad_notation_names_the_place(text: str, fragment: str) -> None:
    with pytest.raises(BoardError, match=fragment):
        Board.parse(text)


def test_remaining_counts_the_unseen_tiles() -> None:
    board = Board.parse("MMÖ.../....../....../....../....../.....X")
    remaining = board.remaining()
    assert remaining[Tile.M] == 5
    assert remaining[Tile.OE] == 6
    assert remaining[Tile.VICTIM] == 0
    assert sum(remaining.values()) == 36 - 4


def test_neighbours_of_corner_edge_and_middle() -> None:
    assert len(neighbours((0, 0))) == 3
    assert len(neighbours((0, 3))) == 5
    assert len(neighbours((3, 3))) == 8


boards = st.lists(
    st.sampled_from([None, *Tile]), min_size=SIZE * SIZE, max_size=SIZE * SIZE
).map(lambda cells: Board(tuple(cells)))


@given(boards)
def test_any_board_that_the_set_can_make_round_trips(board: Board) -> None:
    try:
        board.check_counts()
    except BoardError:
        with pytest.raises(BoardError):
            Board.parse(str(board))
        return
    assert Board.parse(str(board)) == board


@given(st.text(max_size=60))
def test_garbage_raises_only_board_error(text: str) -> None:
    try:
        Board.parse(text)
    except BoardError:
        pass
