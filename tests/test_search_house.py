"""The house: generation from a seed, the text format, cards and names."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.search.house import (
    COLS,
    ROWS,
    House,
    HouseError,
    adjacency,
    deck,
)


def test_same_seed_same_house_and_different_seeds_differ() -> None:
    assert House.generate(11) == House.generate(11)
    assert House.generate(11) == House.generate(random.Random(11))
    assert House.generate(11) != House.generate(12)


@pytest.mark.parametrize("seed", range(8))
def test_generated_house_is_the_books_shape(seed: int) -> None:
    # "The playing field is an 8x11 grid of squares representing an haunted house."
    house = House.generate(seed)
    assert (house.rows, house.cols) == (ROWS, COLS) == (8, 11)
    # "Each square has from 1 to 3 dots in it."
    assert set(house.dots) <= {1, 2, 3}
    # "Each room is connected to one other room by a corridor."
    for room in house.rooms:
        other = house.partner[room]
        assert other != room and house.partner[other] == room
    # "Six of the rows and six of the columns are marked by triangles with the numbers 1-."
    assert sorted(m for m in house.row_marks if m is not None) == [1, 2, 3, 4, 5, 6]
    assert sorted(m for m in house.col_marks if m is not None) == [1, 2, 3, 4, 5, 6]
    assert house.is_standard


def test_generated_corridors_never_join_neighbours() -> None:
    house = House.generate(5)
    for room in house.rooms:
        assert house.partner[room] not in house.adjacent(room)


def test_generated_dots_use_all_three_counts() -> None:
    counts = Counter(House.generate(3).dots)
    assert set(counts) == {1, 2, 3}


def test_the_deck_is_24_cards_four_of_each() -> None:
    # "drawing two cards from a deck of 24 cards #d 1-6 (4 of each value)"
    cards = deck()
    assert len(cards) == 24
    assert Counter(cards) == {v: 4 for v in range(1, 7)}


def test_cards_name_the_room_where_row_and_column_triangles_cross() -> None:
    house = House.generate(9)
    for row_card in range(1, 7):
        for col_card in range(1, 7):
            r, c = house.cell(house.room_for_cards(row_card, col_card))
            assert house.row_marks[r] == row_card
            assert house.col_marks[c] == col_card
    with pytest.raises(HouseError, match="1 to 6"):
        house.room_for_cards(7, 1)


def test_room_names_read_like_a_spreadsheet() -> None:
    house = House.generate(1)
    assert house.name(0) == "A1"
    assert house.name(house.rows * house.cols - 1) == "H11"
    assert house.room("c7") == 2 * 11 + 6
    for bad in ("", "7C", "Z1", "A12", "A0"):
        with pytest.raises(HouseError):
            house.room(bad)


def test_adjacency_is_through_walls_only() -> None:
    near = adjacency(3, 4)
    assert sorted(near[0]) == [1, 4]
    assert sorted(near[5]) == [1, 4, 6, 9]
    assert all(len(n) in (2, 3, 4) for n in near)


SMALL = """\
search 3x4
# a house typed in by hand
    1   2   3   .
1   1a  2b  3c  1d
2   2e  3a  3f  2b   # comments may follow a row
3   3d  1c  2f  3e
"""


def test_parse_reads_dots_corridors_and_triangles() -> None:
    house = House.parse(SMALL)
    assert house.size == "3x4"
    assert house.dots[house.room("B3")] == 3
    assert house.partner[house.room("A1")] == house.room("B2")
    assert house.partner[house.room("A2")] == house.room("B4")
    assert house.col_marks == (1, 2, 3, None)
    assert house.row_marks == (1, 2, 3)
    assert House.parse(str(house)) == house


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("search eight\n", "ROWSxCOLS"),
        ("search 3x4\n 1 2 3 .\n", "3 room lines"),
        (SMALL.replace("1   2   3   .", "1   2   3"), "4 column triangles"),
        (SMALL.replace("1a  2b  3c  1d", "1a  2b  3c"), "line 4"),
        (SMALL.replace("3d  1c", "4d  1c"), "1 to 3"),
        (SMALL.replace("3d  1c", "0d  1c"), "1 to 3"),
        (SMALL.replace("3d  1c", "3a  1c"), "'a' is on 3 room"),
        (SMALL.replace("3d  1c", "3z  1c"), "'d' is on 1 room"),
        (SMALL.replace("1   2   3   .", "1   2   7   ."), "triangle '7'"),
        (SMALL.replace("1   2   3   .", "1   2   2   ."), "appears twice"),
        (SMALL.replace("3d  1c", "d3  1c"), "dots and a tag"),
    ],
)
def test_bad_house_text_names_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(HouseError, match=fragment):
        House.parse(text)


def test_odd_houses_and_self_corridors_are_refused() -> None:
    with pytest.raises(HouseError, match="odd"):
        House(1, 3, (1, 1, 1), (1, 0, 2), (None,), (None, None, None))
    with pytest.raises(HouseError, match="itself"):
        House(1, 2, (1, 1), (0, 1), (None,), (None, None))


@st.composite
def houses(draw: st.DrawFn) -> House:
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 12).filter(lambda c: (rows * c) % 2 == 0))
    n = rows * cols
    dots = tuple(draw(st.lists(st.integers(1, 3), min_size=n, max_size=n)))
    order = draw(st.permutations(range(n)))
    partner = [0] * n
    for a, b in zip(order[::2], order[1::2]):
        partner[a], partner[b] = b, a

    def marks(length: int) -> tuple[int | None, ...]:
        numbers = draw(st.permutations(range(1, 7)))
        k = draw(st.integers(0, min(6, length)))
        places = draw(st.permutations(range(length)))[:k]
        out: list[int | None] = [None] * length
        for place, number in zip(places, numbers):
            out[place] = number
        return tuple(out)

    return House(rows, cols, dots, tuple(partner), marks(rows), marks(cols))


@settings(max_examples=150, deadline=None)
@given(houses())
def test_text_round_trips(house: House) -> None:
    text = str(house)
    assert House.parse(text) == house
    assert str(House.parse(text)) == text


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(1, 2), (2, 2), (2, 3), (3, 4), (4, 4), (8, 11)]))
def test_generated_houses_round_trip_and_hold_together(seed: int, size: tuple[int, int]) -> None:
    house = House.generate(seed, *size)
    assert House.parse(str(house)) == house


def test_tags_are_renamed_canonically() -> None:
    renamed = SMALL.replace("1a", "1x").replace("3a", "3x")
    assert str(House.parse(renamed)) == str(House.parse(SMALL))


def test_the_largest_house_the_format_allows_has_a_tag_for_every_corridor() -> None:
    """26x98 rooms are 1274 corridors: the tags run on past zz (728 of them) to aaa, and the
    text reads back as the same house."""
    house = House.generate(1, 26, 98)
    text = str(house)
    assert House.parse(text) == house
    assert any(token[1:] == "aaa" for token in text.split())  # dots, then the tag
