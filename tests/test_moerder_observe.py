"""Finde den Mörder's camera hook, pure: a still reading in, checked events and a question out.
No threads, no table: each case is one call (or two, with the memo handed back)."""

from __future__ import annotations

from typing import Any

from companion.games.base import Answered, Observed
from companion.games.moerder import GAME
from companion.games.moerder.board import Tile
from companion.games.moerder.observe import Memo, observe
from companion.games.moerder.events import Correct, Next, TurnTile
from companion.games.moerder.rules import MoerderState
from companion.games.readings import GridReading

BLANK = "." * 36


def reading(**cells: str) -> GridReading:
    """``reading(c0_0="M")``: a still reading with those cells, the rest face down."""
    chars = list(BLANK)
    for name, ch in cells.items():
        r, c = (int(x) for x in name[1:].split("_"))
        chars[r * 6 + c] = ch
    return GridReading("".join(chars), candidates={0: ("M",)})


def start() -> MoerderState:
    state: MoerderState = GAME.new({"players": ["Ana", "Ben"]})
    return state


def play(state: MoerderState, *events: Any) -> MoerderState:
    for event in events:
        state = GAME.apply(state, event).state
    return state


def test_a_tile_turned_face_up_is_that_tile_turned() -> None:
    seen = observe(start(), reading(c2_3="R"), None)
    assert seen.events == (TurnTile((2, 3), Tile.R),) and seen.prompt is None
    assert isinstance(seen.memo, Memo)


def test_the_victim_is_turned_first_so_its_neighbour_is_allowed() -> None:
    seen = observe(start(), reading(c1_1="M", c1_2="X"), None)
    assert [e.tile for e in seen.events] == [Tile.VICTIM, Tile.M]


def test_an_unsure_cell_is_asked_about_and_nothing_is_applied() -> None:
    seen = observe(start(), reading(c0_0="?", c3_3="E"), None)
    assert seen.events == ()
    assert seen.prompt is not None and seen.prompt.code == "unsure_cells"
    assert seen.prompt.to_json()["cells"] == [[0, 0]]
    assert seen.prompt.to_json()["candidates"] == {"0,0": ["M"]}


def test_a_face_up_tile_read_differently_is_asked_about() -> None:
    state = play(start(), TurnTile((0, 0), Tile.M))
    seen = observe(state, reading(c0_0="E"), None)
    assert seen.events == () and seen.prompt is not None
    assert seen.prompt.code == "reading_differs" and not seen.prompt.refused


def test_a_reading_the_rules_refuse_is_a_refusal_after_the_tiles_that_were_fine() -> None:
    state = start()
    for i in range(7):  # seven Ms over seven turns
        state = play(state, TurnTile(divmod(i, 6), Tile.M), Next())
    seen = observe(state, reading(**{f"c{i // 6}_{i % 6}": "M" for i in range(8)}, c5_5="E"), None)
    assert seen.prompt is not None and seen.prompt.refused
    assert seen.prompt.code == "impossible_reading" and seen.prompt.to_json()["cells"] == [[1, 1]]


def test_what_people_ruled_is_not_asked_again_while_the_camera_still_sees_it() -> None:
    state = play(start(), TurnTile((0, 0), Tile.M))
    first = observe(state, reading(c0_0="E"), None)  # the camera says E; people say M
    assert first.prompt is not None
    # a person answers: it is the M the game has (no event: the board stays as it is)
    second = observe(state, reading(c0_0="E"), Answered(first.memo))
    assert second == Observed((), None, second.memo, second.shown)
    third = observe(state, reading(c0_0="M"), second.memo)  # seen right: forgotten
    assert isinstance(third.memo, Memo) and third.memo.overruled == {}


def test_an_undone_turn_is_not_turned_again_by_the_same_sight() -> None:
    state = start()
    seen = observe(state, reading(c4_4="D"), None)
    assert len(seen.events) == 1
    # the event was applied, then undone by a person: the camera still sees D there
    again = observe(state, reading(c4_4="D"), seen.memo)
    assert again.events == () and again.prompt is None


def test_nothing_is_refereed_after_the_end_or_from_another_kind_of_reading() -> None:
    assert observe(start(), object(), "memo") == Observed(memo="memo")
    over = start()
    for col, tile in enumerate("MÖRDER"):
        over = play(over, TurnTile((0, col), Tile(tile)), *([Next()] if col < 5 else []))
    from companion.games.moerder.events import Claim

    over = play(over, Claim(1))
    assert observe(over, reading(c5_5="E"), None).events == ()


def test_letters_are_drawn_as_they_lie() -> None:
    r = GridReading("M" + "." * 35, rotations=(90,) + (180,) * 35)
    assert observe(start(), r, None).shown["rotations"][0][:2] == [90, 0]


def test_a_correction_by_a_person_overrules_what_the_camera_saw() -> None:
    state = play(start(), TurnTile((0, 0), Tile.M))
    first = observe(state, reading(c0_0="E"), None)  # the camera says E, the game M: asked
    assert first.prompt is not None
    state = play(state, Correct((0, 0), Tile.D))  # a person says it is a D after all
    second = observe(state, reading(c0_0="E"), first.memo)
    assert second.events == () and second.prompt is None
