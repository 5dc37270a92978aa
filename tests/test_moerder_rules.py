"""Finde den Mörder rules: every sentence of the rule text, and every reading we chose.

Each test quotes the sentence of the rule text it checks (``# RULE:``) or
the reading from the rules module docstring (``# READING:``). Sentences that are not for a
referee: "age 10 and up", "Duration: about 20 minutes", "You must keep the orientation ..."
(the tiles stay as they are; see the test on letters facing any way), "(YES. It has to be in
German.)" (the quit is an event from a button or the phone; the table hears the words),
"(Too) Elementary? ... www.erlkoenig.net" (a variant not played here) and "Have fun!".
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games import find_game
from companion.games.base import (
    AnyEffect,
    Cue,
    Effect,
    EventError,
    Refused,
    Signal,
    Timeline,
    TurnMoved,
    Undo,
    Winners,
    fold,
)
from companion.games.moerder import GAME, Board, Tile
from companion.games.moerder.board import CELLS, SET_COUNTS, SIZE, index_cell
from companion.games.moerder.chain import chain_fault, find_chains
from companion.games.moerder.events import CODEC, Claim, Correct, Next, Pass, Quit, TurnTile
from companion.games.moerder.rules import MoerderState, Phase, WinReason, apply, new
from companion.games.moerder.view import view

# A full table with no chain: no M touches an Ö.
NO_CHAIN = Board.parse("MMMMMM/MRRRRR/RRDDDD/DDDEEE/EEEEÖÖ/ÖÖÖÖÖX")
# A full table whose top row spells the word.
TOP_CHAIN = Board.parse("MÖRDER/MMMMMM/ÖÖÖÖÖÖ/RRRRRD/DDDDDE/EEEEEX")
TOP_ROW = tuple((0, c) for c in range(SIZE))


def start(players: int = 2, first: int = 0) -> MoerderState:
    return new({"players": ["Ana", "Ben", "Cem", "Dora"][:players], "first": first})


def run(state: MoerderState, *events: Any) -> tuple[MoerderState, list[AnyEffect]]:
    effects: list[AnyEffect] = []
    for event in events:
        outcome = apply(state, event)
        state = outcome.state
        effects.extend(outcome.effects)
    return state, effects


def turn(state: MoerderState, truth: Board, cell: tuple[int, int]) -> MoerderState:
    """The player on turn turns ``cell`` (and the victim's neighbours if it is the victim), Next."""
    tile = truth[cell]
    assert tile is not None
    state, _ = run(state, TurnTile(cell, tile))
    while state.pending:
        p = state.pending[0]
        state, _ = run(state, TurnTile(p, truth[p]))  # type: ignore[arg-type]
    state, _ = run(state, Next())
    return state


def play_until_full(
    state: MoerderState, truth: Board, order: Iterable[tuple[int, int]] | None = None
) -> MoerderState:
    """Turns in ``order`` (default: reading order) until the last tile; the last turn says Next."""
    for cell in order if order is not None else (index_cell(i) for i in range(CELLS)):
        if state.board[cell] is None:
            state = turn(state, truth, cell)
    return state


def refused(state: MoerderState, event: Any) -> Refused:
    with pytest.raises(Refused) as info:
        apply(state, event)
    return info.value


def kinds(effects: Sequence[AnyEffect]) -> list[str]:
    """What the phones are told; the panel's signals are checked on their own."""
    return [e.kind for e in effects if not isinstance(e, Signal)]


# --- set-up --------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_two_to_four_players(n: int) -> None:
    # RULE: "A pattern recognition game for 2 to 4 players"
    state = start(n)
    assert len(state.players) == n


@pytest.mark.parametrize(
    ("setup", "fragment"),
    [
        ({"players": ["Ana"]}, "2 to 4 players"),
        ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4 players"),
        ({"players": "Ana,Ben"}, "list of names"),
        ({"players": ["Ana", 3]}, "list of names"),
        ({"players": ["Ana", " "]}, "empty"),
        ({"players": ["Ana", "Ana"]}, "same name"),
        ({"players": ["Ana", "Ben"], "first": 2}, "'first'"),
        ({"players": ["Ana", "Ben"], "first": True}, "'first'"),
        ({"players": ["Ana", "Ben"], "frist": 0}, "unknown field"),
        ([], "JSON object"),
    ],
)
def test_bad_set_up_is_an_event_error(setup: Any, fragment: str) -> None:
    with pytest.raises(EventError, match=fragment):
        new(setup)


def test_table_starts_with_36_hidden_tiles_of_the_set() -> None:
    # RULE: "Shuffle the tiles and put them hidden on the table forming a square of 6 x 6 tiles."
    # RULE: "36 Tiles · 7x M · 7x Ö · 7x R · 7x D · 7x E · 1x 'The victim'"
    state = start()
    assert list(state.board.hidden()) == [index_cell(i) for i in range(36)]
    assert view(state)["remaining"] == {"M": 7, "Ö": 7, "R": 7, "D": 7, "E": 7, "X": 1}


@pytest.mark.parametrize("first", [0, 1, 2])
def test_the_table_chooses_the_first_player(first: int) -> None:
    # RULE: "Whoever reads this decides who will take the first turn."
    state = start(3, first)
    assert state.turn == first
    assert state.turn_number == 1


def test_game_is_registered_by_name() -> None:
    assert find_game("moerder") is GAME
    assert GAME.title == "Finde den Mörder"


# --- turns ---------------------------------------------------------------------------------------


def test_turns_pass_to_the_left_in_clockwise_order() -> None:
    # RULE: "After each turn the respective player to the left takes his turn."
    # RULE: "Continue to take turns in clockwise order until the winner is determined."
    state = start(3, first=1)
    seen = []
    for i in range(7):
        seen.append(state.turn)
        state = turn(state, NO_CHAIN, index_cell(i))
    assert seen == [1, 2, 0, 1, 2, 0, 1]
    assert state.turn_number == 8


def test_you_must_turn_over_a_tile_before_next() -> None:
    # RULE: "1. You must turn over a tile."
    state = start()
    assert refused(state, Next()).code == "tile_not_turned"
    state, effects = run(state, TurnTile((2, 3), Tile.D), Next())
    assert kinds(effects) == ["tile", "turn"]
    assert effects[0].data == {"cell": [2, 3], "tile": "D", "player": 0}
    assert effects[1].data == {"player": 1, "turn_number": 2}


def test_only_one_tile_per_turn() -> None:
    # RULE: "Normally you turn over only one tile."
    state, _ = run(start(), TurnTile((0, 0), Tile.M))
    assert refused(state, TurnTile((0, 1), Tile.OE)).code == "one_tile_per_turn"


def test_a_face_up_tile_cannot_be_turned_again() -> None:
    state, _ = run(start(), TurnTile((0, 0), Tile.M), Next())
    err = refused(state, TurnTile((0, 0), Tile.E))
    assert err.code == "already_turned"
    assert err.details == {"cell": [0, 0]}


def test_after_a_letter_the_player_may_look_for_the_word() -> None:
    # RULE: "If you uncover a letter ... you continue with the next step."
    # RULE: "2. Try to find the word MÖRDER to win the game."
    state = start()
    for c in range(5):
        state = turn(state, TOP_CHAIN, (0, c))
    state, _ = run(state, TurnTile((0, 5), Tile.R))
    state, effects = run(state, Claim(state.turn))
    assert state.phase is Phase.OVER
    assert kinds(effects) == ["claim_valid", "winner"]
    assert Signal(Cue.VALID, state.winner, blink=True) in effects  # the claimer's LED flickers


def test_next_hands_the_turn_on_when_the_word_is_not_found() -> None:
    # RULE: "3. If you cannot find the word, say 'Next' – then the player to your left will begin
    # his turn."
    # RULE: "If you are unable to build the word MÖRDER say loud 'Next!' so that the next player
    # can start his turn."
    state, _ = run(start(4, first=3), TurnTile((1, 1), Tile.E), Next())
    assert state.turn == 0
    assert not view(state)["tile_turned_this_turn"]


# --- the victim ----------------------------------------------------------------------------------


def test_victim_neighbours_in_eight_directions_must_be_turned_before_next() -> None:
    # RULE: "If you uncover the body ... you immediately also turn over all (horizontally,
    # vertically and diagonally) adjacent tiles."
    state, effects = run(start(), TurnTile((2, 2), Tile.VICTIM))
    expected = [(r, c) for r in (1, 2, 3) for c in (1, 2, 3) if (r, c) != (2, 2)]
    assert sorted(state.pending) == expected
    assert Effect("victim", {"cell": [2, 2], "pending": [list(c) for c in expected]}) in effects
    assert effects[-1] == Signal(Cue.REMINDER)  # the table is reminded: the neighbours now
    err = refused(state, Next())
    assert err.code == "victim_neighbours_pending"
    assert err.details["pending"] == [list(c) for c in expected]
    assert refused(state, TurnTile((5, 5), Tile.M)).code == "victim_neighbours_pending"
    letters = [Tile.M, Tile.OE, Tile.R, Tile.D, Tile.E, Tile.M, Tile.OE, Tile.R]
    for cell, tile in zip(expected, letters):
        assert refused(state, Next()).code == "victim_neighbours_pending"
        state, _ = run(state, TurnTile(cell, tile))
    assert state.pending == ()
    assert state.own_tile == (2, 2)
    state, _ = run(state, Next())
    assert state.turn == 1


def test_victim_in_a_corner_has_three_neighbours_and_face_up_ones_are_not_pending() -> None:
    # RULE: "as in the case in the lower right corner of the picture"
    state, _ = run(start(), TurnTile((4, 4), Tile.E), Next(), TurnTile((5, 5), Tile.VICTIM))
    assert sorted(state.pending) == [(4, 5), (5, 4)]


def test_claim_only_after_all_victim_neighbours_are_turned() -> None:
    # RULE: "After turning over a tile (or several tiles in the case of the body) try to find
    # the word MÖRDER."
    truth = Board.parse("MÖRDER/.X..../....../....../....../......")
    state = start()
    for c in (0, 1, 3, 4, 5):
        state = turn(state, truth, (0, c))
    # the player on turn turns the victim; its neighbour (0, 2) completes the word
    state, _ = run(state, TurnTile((1, 1), Tile.VICTIM))
    assert (0, 2) in state.pending
    assert refused(state, Claim(state.turn)).code == "victim_neighbours_pending"
    for cell in state.pending:
        tile = Tile.R if cell == (0, 2) else Tile.D
        state, _ = run(state, TurnTile(cell, tile))
    state, _ = run(state, Claim(state.turn, TOP_ROW))
    assert state.winner == 1 and state.chain == TOP_ROW


# --- claims --------------------------------------------------------------------------------------


def test_a_claimed_chain_in_the_right_order_wins() -> None:
    # RULE: "You win if you are the first player to find the german word MÖRDER"
    # RULE: "You win, if you detect six tiles showing the letters of the word MÖRDER if these
    # tiles form a (diagonally, horizontally and/or vertically connected) chain in the correct
    # order."
    # RULE: "In this situation you would win the game."
    # A diagonal, then vertical, then horizontal chain.
    truth = Board.parse("M...../.Ö..../.R..../.D..../.ER.../......")
    cells = ((0, 0), (1, 1), (2, 1), (3, 1), (4, 1), (4, 2))
    state = start(3)
    for cell in cells[:-1]:
        state = turn(state, truth, cell)
    state, _ = run(state, TurnTile(cells[-1], Tile.R))
    player = state.turn
    state, effects = run(state, Claim(player, cells))
    assert state.winner == player and state.win_reason is WinReason.FOUND
    assert state.chain == cells
    assert effects[0] == Effect(
        "claim_valid", {"player": player, "chain": [list(c) for c in cells]}
    )
    assert effects[2] == Winners((player,), {"reason": "found", "unclaimed_chain": None})
    assert view(state)["chain"] == [list(c) for c in cells]


def test_letters_may_face_any_way_and_the_chain_may_run_backwards() -> None:
    # RULE: "You must keep the orientation of the tile as is after turning it over. It is
    # possible that the letters face in different directions."
    # The rules see letters, not their orientation: a chain read right to left, upwards counts.
    truth = Board.parse("....../....../....../....../RE..../.DRÖM.")
    cells = ((5, 4), (5, 3), (5, 2), (5, 1), (4, 1), (4, 0))
    state = start()
    for cell in cells[:-1]:
        state = turn(state, truth, cell)
    state, _ = run(state, TurnTile(cells[-1], Tile.R), Claim(state.turn, cells))
    assert state.chain == cells


def test_a_chain_may_cross_itself_but_needs_six_different_tiles() -> None:
    # RULE: "A chain is valid even if it is crossing itself as long as there are six different
    # tiles in it."
    # M(0,0)->Ö(1,1) and R(0,1)->D(1,0) are the two diagonals of one square: they cross.
    board = Board.parse("MR..../DÖ..../ER..../....../....../......")
    cross = ((0, 0), (1, 1), (0, 1), (1, 0), (2, 0), (2, 1))
    state = _position(board)
    state, _ = run(state, Claim(state.turn, cross))
    assert state.winner is not None and state.chain == cross
    # Six cells but one R used twice (the only R touches the E): not a chain.
    reuse = Board.parse("MÖ..../.R..../.DE.../....../....../......")
    twice = ((0, 0), (0, 1), (1, 1), (2, 1), (2, 2), (1, 1))
    state = _position(reuse)
    err = refused(state, Claim(state.turn, twice))
    assert err.code == "claim_invalid"
    assert "six different tiles" in err.reason
    assert refused(state, Claim(state.turn)).code == "claim_invalid"


def _position(board: Board) -> MoerderState:
    """Reach ``board`` by playing its face-up tiles (reading order); the last turn stays open."""
    state = start()
    shown = [index_cell(i) for i, t in enumerate(board.cells) if t is not None]
    for cell in shown[:-1]:
        state = turn(state, board, cell)
    state, _ = run(state, TurnTile(shown[-1], board[shown[-1]]))  # type: ignore[arg-type]
    return state


@pytest.mark.parametrize(
    ("cells", "fragment"),
    [
        (((0, 1), (0, 0), (0, 2), (0, 3), (0, 4), (0, 5)), "shows Ö, the word needs M"),
        (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4)), "6 tiles, not 5"),
        (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 6)), "off the board"),
        (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (2, 2)), "face down"),
        (((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 5)), "face down"),
    ],
)
def test_a_wrong_claim_is_refused_and_changes_nothing(
    cells: tuple[tuple[int, int], ...], fragment: str
) -> None:
    board = Board.parse("MÖRDER/....../....../....../....../......")
    state = _position(board)
    err = refused(state, Claim(state.turn, cells))
    assert err.code == "claim_invalid"
    assert fragment in err.reason
    assert err.details["player"] == state.turn
    # no penalty: the same player may still claim right, or say Next
    won, _ = run(state, Claim(state.turn, TOP_ROW))
    assert won.winner == state.turn


def test_non_adjacent_tiles_are_not_a_chain() -> None:
    board = Board.parse("MÖR.../....../...DER/....../....../......")
    state = _position(board)
    err = refused(state, Claim(state.turn, ((0, 0), (0, 1), (0, 2), (2, 3), (2, 4), (2, 5))))
    assert err.code == "claim_invalid" and "do not touch" in err.reason


def test_no_claim_without_a_chain_on_the_table() -> None:
    # RULE: "In this situation it is not yet possible to build such a chain."
    board = Board.parse("MÖRDE./....../....../....../....../......")
    state = _position(board)
    err = refused(state, Claim(state.turn))
    assert err.code == "claim_invalid"
    assert err.details == {"player": state.turn, "cells": None}


def test_a_claim_without_cells_reports_a_chain_on_the_table() -> None:
    state = _position(Board.parse("MÖRDER/....../....../....../....../......"))
    state, _ = run(state, Claim(state.turn))
    assert state.chain == TOP_ROW


def test_only_the_player_on_turn_claims_and_only_after_turning() -> None:
    # READING: claims are step 2 of the claimant's own turn.
    state = _position(Board.parse("MÖRDER/....../....../....../....../......"))
    other = 1 - state.turn
    assert refused(state, Claim(other)).code == "not_your_turn"
    assert refused(state, Claim(7)).code == "no_such_player"
    # A chain left on the table: the next player must turn a tile first.
    state, _ = run(state, Next())
    assert refused(state, Claim(state.turn)).code == "tile_not_turned"
    state, _ = run(state, TurnTile((5, 5), Tile.E), Claim(state.turn))
    assert state.winner == other


def test_the_first_to_find_the_word_ends_the_game() -> None:
    # RULE: "The game ends with the victory of the player who is the first one to find the word
    # MÖRDER."
    state = _position(Board.parse("MÖRDER/....../....../....../....../......"))
    state, _ = run(state, Claim(state.turn))
    for event in (
        Next(),
        TurnTile((3, 3), Tile.M),
        Claim(0),
        Quit(0),
        Pass(0),
        Correct((0, 0), Tile.D),
    ):
        assert refused(state, event).code == "game_over"


# --- quitting ------------------------------------------------------------------------------------


def test_quitting_forfeits_the_turn_and_all_later_turns() -> None:
    # RULE: "In your opinion it is not possible to build the word MÖRDER on the table?"
    # RULE: "If you suspect the game to end without any player being able to find the word, you
    # have the option to quit the game."
    # RULE: "Then forfeit your turn and say 'Ich steige aus. Es gibt keinen Mörder!'."
    # RULE: "You take no further turns."
    state = start(3)
    state, effects = run(state, Quit(0))
    assert kinds(effects) == ["quit", "turn"]
    assert state.quitter == 0 and state.turn == 1 and state.own_tile is None
    order = []
    for i in range(6):
        order.append(state.turn)
        state = turn(state, NO_CHAIN, index_cell(i))
    assert order == [1, 2, 1, 2, 1, 2]
    assert view(state)["players"][0] == {"name": "Ana", "quit": True}
    assert refused(state, Claim(0)).code == "player_quit"


def test_quitting_after_turning_the_tile_replaces_next() -> None:
    # READING: quitting is allowed instead of Next, after the tile is turned.
    state, _ = run(start(), TurnTile((0, 0), Tile.M), Quit(0))
    assert state.quitter == 0 and state.turn == 1 and state.turn_number == 2


def test_quitting_waits_for_the_victims_neighbours_and_only_on_your_turn() -> None:
    state, _ = run(start(), TurnTile((0, 0), Tile.VICTIM))
    assert refused(state, Quit(0)).code == "victim_neighbours_pending"
    assert refused(state, Quit(1)).code == "not_your_turn"


def test_nobody_may_quit_after_the_first() -> None:
    # RULE: "The other players continue to play – nobody is allowed to quit the game after the
    # first player decided to quit."
    state, _ = run(start(3), Quit(0))
    err = refused(state, Quit(1))
    assert err.code == "quit_taken" and err.details == {"quitter": 0}
    assert "Ana" in err.reason


def test_two_players_the_other_plays_alone_to_the_end() -> None:
    # READING: with two players and one quitter, the other takes every turn.
    state, _ = run(start(2, first=1), Quit(1))
    for i in range(CELLS - 1):
        assert state.turn == 0
        state = turn(state, NO_CHAIN, index_cell(i))
    state, effects = run(state, TurnTile((5, 5), Tile.VICTIM), Next())
    assert state.phase is Phase.OVER
    assert state.winner == 1 and state.win_reason is WinReason.QUITTER
    assert effects[-1] == Winners((1,), {"reason": "quitter", "unclaimed_chain": None})


# --- the end -------------------------------------------------------------------------------------


def test_quitter_wins_when_nobody_finds_the_word() -> None:
    # RULE: "or if you are the first player to see that it is not possible to find this word."
    # RULE: "If the other players are indeed unable to find the word until the end of the game
    # you will be the only winner."
    # RULE: "Nobody was able to build the word after turning over the last tile? In this case
    # the player wins, who quit the game."
    state, _ = run(start(3), TurnTile((0, 0), Tile.M), Next(), Quit(1))
    state = play_until_full(state, NO_CHAIN)
    assert state.phase is Phase.FINAL_LOOK
    while state.phase is Phase.FINAL_LOOK:
        state, effects = run(state, Pass(state.turn))
    assert state.winner == 1 and state.win_reason is WinReason.QUITTER
    assert state.unclaimed_chain is None
    assert view(state)["win_reason"] == "quitter"


def test_no_winner_when_nobody_quit_and_nobody_found_it() -> None:
    # RULE: "If nobody quit the game, there is no winner."
    state = play_until_full(start(2), NO_CHAIN)
    state, effects = run(state, Next())
    assert state.phase is Phase.OVER
    assert state.winner is None and state.win_reason is WinReason.NO_WINNER
    assert effects[-1] == Winners((), {"reason": "no_winner", "unclaimed_chain": None})


def test_the_quitter_loses_when_someone_finds_the_word() -> None:
    # RULE: "If the other players indeed are unable to build the word MÖRDER, you are the only
    # winner of the game." (so: able to -> not the winner)
    state, _ = run(start(2), Quit(0))
    for c in range(5):
        state = turn(state, TOP_CHAIN, (0, c))
    state, _ = run(state, TurnTile((0, 5), Tile.R), Claim(1))
    assert state.winner == 1 and state.win_reason is WinReason.FOUND


def test_final_look_for_every_remaining_player_in_turn_order() -> None:
    # READING: the player who turns the last tile has step 2 of that turn; then each other
    # player who has not quit looks once, from the left; a claim there still wins.
    state, _ = run(start(4, first=0), Quit(0))
    order = [index_cell(i) for i in range(CELLS)]
    last = order.pop(TOP_CHAIN.cells.index(Tile.VICTIM))
    state = play_until_full(state, TOP_CHAIN, order)  # the chain on top is left unclaimed
    assert list(state.board.hidden()) == [last]
    taker = state.turn
    state, effects = run(state, TurnTile(last, Tile.VICTIM))
    assert kinds(effects) == ["tile", "victim", "last_tile"]
    state, effects = run(state, Next())
    expected = [p % 4 for p in range(taker + 1, taker + 4) if p % 4 != 0]
    assert len(expected) == 2
    assert state.phase is Phase.FINAL_LOOK and list(state.looks_left) == expected
    assert effects[-2:] == [Effect("final_look", {"player": expected[0]}), Signal(Cue.TURN)]
    assert refused(state, TurnTile((0, 0), Tile.M)).code == "wrong_phase"
    assert refused(state, Quit(expected[0])).code == "wrong_phase"
    assert refused(state, Pass(expected[1])).code == "not_your_turn"
    assert refused(state, Pass(0)).code == "player_quit"
    state, _ = run(state, Pass(expected[0]))
    state, _ = run(state, Claim(expected[1], TOP_ROW))
    assert state.winner == expected[1] and state.win_reason is WinReason.FOUND


def test_unclaimed_chain_and_the_turn_it_became_findable() -> None:
    # READING: at the end the state says whether a chain stood unclaimed, and from which turn.
    state = play_until_full(start(2), TOP_CHAIN)  # the last turn ends with Next
    assert state.phase is Phase.FINAL_LOOK
    assert view(state)["findable_since_turn"] is None  # no spoilers during play
    state, _ = run(state, Next())  # Next counts as a pass
    assert state.phase is Phase.OVER and state.winner is None
    assert state.unclaimed_chain in find_chains(TOP_CHAIN)
    # the top row is complete after turn 6 (one tile a turn in reading order)
    assert state.findable_since_turn == 6
    assert view(state)["findable_since_turn"] == 6
    assert view(state)["unclaimed_chain"] == [list(c) for c in state.unclaimed_chain]


def test_quitter_still_wins_when_a_chain_stood_unclaimed() -> None:
    # RULE: "Nobody was able to build the word after turning over the last tile? In this case
    # the player wins, who quit the game." -- nobody *built* it, so the bet is won.
    state, _ = run(start(2, first=1), Quit(1))
    state = play_until_full(state, TOP_CHAIN)
    assert state.phase is Phase.OVER  # Ana turned the last tile and said Next; Ben quit
    assert state.winner == 1 and state.win_reason is WinReason.QUITTER
    assert state.unclaimed_chain is not None


# --- corrections and impossible readings ---------------------------------------------------------


def test_an_eighth_letter_or_a_second_victim_is_an_impossible_reading() -> None:
    # RULE: "36 Tiles · 7x M ... 1x 'The victim'" (so an 8th M is a misreading)
    state = start()
    for c in range(6):
        state = turn(state, NO_CHAIN, (0, c))
    state = turn(state, NO_CHAIN, (1, 0))  # seven M
    err = refused(state, TurnTile((3, 3), Tile.M))
    assert err.code == "impossible_reading"
    assert err.details == {"cell": [3, 3], "tile": "M", "count": 8, "limit": 7}
    state, _ = run(state, TurnTile((5, 5), Tile.VICTIM))
    state, _ = run(state, *(TurnTile(c, Tile.E) for c in state.pending))
    err = refused(state, Correct((0, 0), Tile.VICTIM))
    assert err.code == "impossible_reading" and "second victim" in err.reason


def test_correction_keeps_turn_order_and_the_turn_a_tile_was_turned() -> None:
    # READING: a correction never changes whose turn it is; findable_since_turn is recomputed as
    # if the tile had been read right when it was turned.
    state = start(2)
    state = turn(state, TOP_CHAIN, (0, 0))
    state, _ = run(state, TurnTile((0, 1), Tile.E), Next())  # misread: really Ö
    for c in range(2, 6):
        state = turn(state, TOP_CHAIN, (0, c))
    assert state.findable_since_turn is None
    before = (state.turn, state.turn_number, state.own_tile)
    state, effects = run(state, Correct((0, 1), Tile.OE))
    assert effects == [Effect("correction", {"cell": [0, 1], "old": "E", "tile": "Ö"})]
    assert (state.turn, state.turn_number, state.own_tile) == before
    assert state.findable_since_turn == 6
    state, _ = run(state, Correct((0, 5), Tile.D))
    assert state.findable_since_turn is None


def test_correcting_the_own_tile_face_down_lets_the_player_turn_again() -> None:
    state, _ = run(start(), TurnTile((2, 2), Tile.D))
    state, effects = run(state, Correct((2, 2), None))
    assert effects[0].data == {"cell": [2, 2], "old": "D", "tile": None}
    assert state.own_tile is None and state.board[(2, 2)] is None
    assert refused(state, Next()).code == "tile_not_turned"
    state, _ = run(state, TurnTile((2, 2), Tile.M), Next())
    assert state.turn == 1


def test_correcting_a_tile_into_the_victim_makes_its_neighbours_pending() -> None:
    state, _ = run(start(), TurnTile((0, 0), Tile.D), Next(), TurnTile((4, 4), Tile.E))
    state, effects = run(state, Correct((0, 0), Tile.VICTIM))
    assert kinds(effects) == ["correction", "victim"]
    assert sorted(state.pending) == [(0, 1), (1, 0), (1, 1)]
    assert refused(state, Next()).code == "victim_neighbours_pending"
    state, _ = run(state, *(TurnTile(c, Tile.M) for c in state.pending), Next())
    assert state.turn == 0


def test_corrections_that_make_no_sense_are_refused() -> None:
    state, _ = run(start(), TurnTile((0, 0), Tile.D))
    assert refused(state, Correct((1, 1), Tile.M)).code == "not_turned"
    assert refused(state, Correct((0, 0), Tile.D)).code == "no_change"
    full = play_until_full(start(3), NO_CHAIN)
    assert full.phase is Phase.FINAL_LOOK
    assert refused(full, Correct((0, 0), None)).code == "wrong_phase"
    assert refused(full, Correct((0, 0), Tile.E)).code == "impossible_reading"
    assert refused(full, Correct((0, 0), Tile.E, (((0, 0), Tile.D),))).code == "no_change"


def test_two_misread_tiles_are_fixed_together_on_a_full_table() -> None:
    # READING: with all seven of a letter face up, a swap must be one correction.
    full = play_until_full(start(3), NO_CHAIN)
    state, effects = run(full, Correct((0, 5), Tile.OE, (((4, 4), Tile.M),)))
    assert state.board[(0, 5)] is Tile.OE and state.board[(4, 4)] is Tile.M
    assert kinds(effects) == ["correction", "correction"]
    assert state.phase is Phase.FINAL_LOOK and state.turn == full.turn


def test_pass_is_only_for_the_final_look() -> None:
    state, _ = run(start(), TurnTile((0, 0), Tile.D))
    assert refused(state, Pass(0)).code == "wrong_phase"


# --- undo, codec and view ------------------------------------------------------------------------


def test_undo_restores_the_turn_and_the_tile() -> None:
    tl = Timeline.start(GAME, {"players": ["Ana", "Ben"]})
    for event in (TurnTile((0, 0), Tile.VICTIM), TurnTile((0, 1), Tile.M), Undo()):
        tl, _ = tl.push(event)
    assert tl.state.pending == ((0, 1), (1, 0), (1, 1))
    log = [TurnTile((0, 0), Tile.M), Next(), TurnTile((0, 1), Tile.OE), Undo(), Quit(1)]
    folded = fold(GAME, {"players": ["Ana", "Ben"]}, log)
    assert folded.state.quitter == 1 and folded.state.board[(0, 1)] is None


cells_st = st.tuples(st.integers(0, 5), st.integers(0, 5))
events_st = st.one_of(
    st.builds(TurnTile, cells_st, st.sampled_from(list(Tile))),
    st.just(Next()),
    st.builds(Claim, st.integers(0, 3), st.none() | st.lists(cells_st, max_size=7).map(tuple)),
    st.builds(Quit, st.integers(0, 3)),
    st.builds(Pass, st.integers(0, 3)),
    st.builds(
        Correct,
        cells_st,
        st.none() | st.sampled_from(list(Tile)),
        st.lists(st.tuples(cells_st, st.none() | st.sampled_from(list(Tile))), max_size=2).map(
            tuple
        ),
    ),
)


@given(events_st)
def test_events_round_trip_through_json(event: Any) -> None:
    data = json.loads(json.dumps(GAME.encode(event)))
    assert GAME.decode(data) == event


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [
        ({"type": "turn_tile", "cell": [6, 0], "tile": "M"}, "off the 6x6 board"),
        ({"type": "turn_tile", "cell": [0, 0], "tile": "Q"}, "not one of"),
        ({"type": "claim", "player": "Ana"}, "whole number"),
        ({"type": "correct", "cell": [0, 0]}, "missing field 'tile'"),
    ],
)
def test_bad_events_are_event_errors(obj: dict[str, Any], fragment: str) -> None:
    with pytest.raises(EventError, match=fragment):
        CODEC.decode(obj)


def test_view_is_json_ready_and_complete() -> None:
    state, _ = run(start(3), TurnTile((1, 2), Tile.VICTIM))
    v = json.loads(json.dumps(view(state)))
    assert v["cells"][1][2] == "X" and v["cells"][0][0] is None
    assert v["board"] == "....../..X.../....../....../....../......"
    assert v["phase"] == "playing" and v["turn"] == 0 and v["turn_number"] == 1
    assert v["pending"] == [[0, 1], [0, 2], [0, 3], [1, 1], [1, 3], [2, 1], [2, 2], [2, 3]]
    assert v["tile_turned_this_turn"] is True and v["own_tile"] == [1, 2]
    assert v["players"] == [{"name": n, "quit": False} for n in ("Ana", "Ben", "Cem")]
    assert v["remaining"]["X"] == 0
    for key in (
        "winner",
        "win_reason",
        "chain",
        "unclaimed_chain",
        "findable_since_turn",
        "quitter",
    ):
        assert v[key] is None


# --- whole games on shuffled tables --------------------------------------------------------------


def _shuffled(seed: int) -> Board:
    tiles = [t for t, n in SET_COUNTS.items() for _ in range(n)]
    random.Random(seed).shuffle(tiles)
    return Board(tuple(tiles))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    quit_at=st.none() | st.integers(1, 40),
)
def test_random_games_follow_the_rules_to_the_end(
    seed: int, players: int, quit_at: int | None
) -> None:
    """Players never claim; the table is turned in a shuffled order; someone may quit."""
    truth = _shuffled(seed)
    rng = random.Random(seed)
    order = [index_cell(i) for i in range(CELLS)]
    rng.shuffle(order)
    state = start(players, first=seed % players)
    for cell in order:
        if state.turn_number == quit_at and state.quitter is None:
            quitter = state.turn
            state, _ = run(state, Quit(quitter))
            assert state.turn != quitter
        if state.board[cell] is None:
            assert state.turn != state.quitter
            state = turn(state, truth, cell)
    while state.phase is Phase.FINAL_LOOK:
        assert state.turn != state.quitter
        state, _ = run(state, Pass(state.turn))
    assert state.phase is Phase.OVER and state.board == truth
    chains = find_chains(truth)
    assert (state.unclaimed_chain is not None) == bool(chains)
    if state.quitter is not None:
        assert state.winner == state.quitter
    else:
        assert state.winner is None
    if chains:
        # the chain became findable when the last of its tiles was turned
        when = min(max(state.turned_in[r * SIZE + c] or 0 for r, c in ch) for ch in chains)
        assert state.findable_since_turn == when
    json.dumps(view(state))


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(2, 4),
    events=st.lists(
        st.one_of(
            events_st,
            st.builds(TurnTile, cells_st, st.sampled_from(list(Tile))),  # turning, more often
            st.builds(TurnTile, cells_st, st.sampled_from(list(Tile))),
            st.just(Next()),
            st.just(Undo()),
        ),
        max_size=120,
    ),
)
def test_any_event_stream_is_refused_or_applied_never_a_crash(
    players: int, events: list[Any]
) -> None:
    """What a camera and four phones may send in any order: the table never breaks."""
    tl = Timeline.start(GAME, {"players": ["Ana", "Ben", "Cem", "Dora"][:players]})
    for event in events:
        try:
            tl, effects = tl.push(event)
        except Refused as exc:
            assert exc.code and exc.reason
            continue
        state = tl.state
        state.board.check_counts()
        assert all(isinstance(e, (Effect, Signal, TurnMoved, Winners)) for e in effects)
        if state.phase is not Phase.OVER:
            assert state.turn != state.quitter
        if state.phase is Phase.FINAL_LOOK:
            assert state.board.is_full and state.looks_left[0] == state.turn
        if state.winner is not None and state.win_reason is WinReason.FOUND:
            assert state.chain is not None and chain_fault(state.board, state.chain) is None
        json.dumps(view(state))
