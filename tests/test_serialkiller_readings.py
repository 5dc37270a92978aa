"""One test per reading chosen where the Serial Killer rule text is ambiguous (numbered as in
the package docstring of ``companion.games.serialkiller``)."""

from __future__ import annotations

import pytest
from serialkiller_support import (
    ann_on_her_last_clue_holding_an_ace,
    fail_turn,
    inform_on_bob_four_times,
    kinds,
    numbers,
    run,
    start,
)

import companion.games.serialkiller as serialkiller
from companion.games.base import Refused
from companion.games.serialkiller import GAME, Bury, Discredit, EndTurn, FirstDraw, Hold, Inform, Phase
from companion.games.serialkiller.cards import Card, Rank


def test_docstring_lists_ten_readings() -> None:
    doc = serialkiller.__doc__ or ""
    assert all(f"\n{n}. " in doc for n in range(1, 11))


def test_reading_1_ace_high_suits_equal_only_top_tie_redraws() -> None:
    assert [r.high for r in (Rank.TWO, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)] == sorted(
        r.high for r in (Rank.TWO, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
    )
    tl = start("Ann", "Bob", "Cid", first=None)
    tl, said = run(tl, FirstDraw("Ann", "AC"), FirstDraw("Bob", "KS"), FirstDraw("Cid", "KH"))
    assert said[0].data == {"player": "Ann"}  # Ace beats King; the tie below the top is no tie
    tl = start("Ann", "Bob", first=None)
    tl, said = run(tl, FirstDraw("Ann", "7S"), FirstDraw("Bob", "7H"))  # suits do not rank
    assert kinds(said) == ["first_tie"]
    assert len(tl.state.stack) == 50
    tl, said = run(tl, FirstDraw("Bob", "8D"), FirstDraw("Ann", "2C"))
    assert len(tl.state.stack) == 52 and tl.state.players[tl.state.current] == "Bob"


def test_reading_2_draws_dealt_to_open_graves_in_order() -> None:
    tl, _ = run(start(), "KH", "2S", "QH", "3S", "4S", "5S", EndTurn())
    tl, _ = run(tl, "6S")
    assert tl.state.graves[1][-1] == Card.parse("6S")  # grave 1 is full: the first open is 2
    tl, _ = run(tl, "7S", "8S", "9S")
    assert [len(g) for g in tl.state.graves] == [1, 2, 1, 2, 2, 2]


def test_reading_3_fresh_jack_into_its_own_grave_held_jack_anywhere_open() -> None:
    tl, _ = run(start(), "2S", "JH")
    with pytest.raises(Refused) as info:
        tl.push(Bury(5))
    assert info.value.code == "wrong_grave"
    tl, _ = run(tl, Hold(), "3S", "JD", Hold(), "4S", "5S")
    tl, _ = run(tl, Bury(5), Bury(2))
    # held corpses go in the order they were held; any open grave the holder names
    assert tl.state.graves[4][-1] == Card.parse("JH") and tl.state.graves[1] == (Card.parse("JD"),)
    with pytest.raises(Refused) as info:
        run(tl, EndTurn(), "6S", "7S", "JC", Hold(), "8S", Bury(2))
    assert info.value.code == "grave_closed"


def test_reading_4_informants_share_a_victim_and_default_to_the_first() -> None:
    tl, _ = run(
        start("Ann", "Bob", "Cid"), "2S", "KH", "QD", "AS", Inform("Bob"), "AH", Inform("Cid", 2)
    )
    assert tl.state.graves[1] == (Card.parse("KH"), Card.parse("AS"), Card.parse("AH"))


def test_reading_5_held_cards_at_the_end_of_any_later_own_turn() -> None:
    tl, _ = run(start(), "JH", Hold(), *numbers(start().state, 5), EndTurn())
    tl, _ = fail_turn(tl)  # Bob
    tl, _ = fail_turn(tl, end=False)  # Ann's next turn
    tl, said = run(tl, Bury(1))
    assert said[0].kind == "corpse_buried" and tl.state.held[0] == ()


def test_reading_6_clue_found_as_the_turn_ends_after_the_end_of_turn_plays() -> None:
    tl, _ = ann_on_her_last_clue_holding_an_ace()
    tl, said = run(tl, *numbers(tl.state, len(tl.state.slots)))
    # the draws are done and no victim came, but the clue waits for the end of the turn
    assert "clue_found" not in kinds(said) and tl.state.phase is Phase.ENDING
    assert tl.state.clues[0] == 1 and GAME.view(tl.state)["clue_due"] is True
    saved, said = run(tl, Discredit(), EndTurn())  # the held Ace saves her, as a fresh one would
    assert kinds(said)[:2] == ["discredited", "clue_found"] and saved.state.clues[0] == 1
    tl, said = run(tl, EndTurn())  # without playing it she is arrested as the turn ends
    assert kinds(said)[-3:] == ["clue_found", "arrested", "winner"] and tl.state.winner == "Bob"
    assert tl.state.aside == (Card.parse("AS"),)


def test_reading_6_jack_no_kill_two_victims_one_kill() -> None:
    tl, said = run(start(), "JS", Bury(), *numbers(start().state, 5), EndTurn())
    assert kinds(said).count("clue_found") == 1
    tl, said = run(tl, "QH", "QS", *numbers(tl.state, 3), EndTurn())
    assert kinds(said).count("kill") == 2 and tl.state.clues[1] == 6


def test_reading_6_arrested_by_the_turns_clue_as_it_ends() -> None:
    tl = start()
    tl, _ = inform_on_bob_four_times(tl)
    tl, _ = fail_turn(tl)  # Bob 1
    tl, _ = fail_turn(tl)  # Ann 5
    assert tl.state.clues == (5, 1)
    # Bob holds a Jack as his turn fails: he may still bury it, then is arrested as it ends
    tl, said = run(tl, "JC", Hold(), *numbers(tl.state, len(tl.state.slots) - 1))
    assert "arrested" not in kinds(said) and tl.state.phase is Phase.ENDING
    grave = next(g["number"] for g in GAME.view(tl.state)["graves"] if g["open"])
    tl, said = run(tl, Bury(grave), EndTurn())
    assert kinds(said)[0] == "corpse_buried" and "arrested" in kinds(said)
    assert tl.state.phase is Phase.OVER and tl.state.aside == ()


def test_reading_7_nothing_to_discredit_with_all_six_counters() -> None:
    tl, _ = run(start(), "KH", "AS")
    with pytest.raises(Refused) as info:
        tl.push(Discredit())
    assert info.value.code == "no_clue_to_discredit"
    assert "discredit" not in GAME.view(tl.state)["legal"]


def test_reading_8_arrested_players_cards_set_aside_then_reshuffled() -> None:
    tl = start("Ann", "Bob", "Cid")
    tl, _ = run(
        tl,
        "KH",
        "AS",
        Inform("Cid"),
        "AH",
        Inform("Cid"),
        "AD",
        Inform("Cid"),
        "AC",
        Inform("Cid"),
        "2S",
        EndTurn(),
    )
    tl, _ = fail_turn(tl)  # Bob 5
    tl, _ = fail_turn(tl)  # Cid 1
    tl, _ = fail_turn(tl)  # Ann 5
    tl, _ = fail_turn(tl)  # Bob 4
    tl, said = run(
        tl, "JD", Hold(), *numbers(tl.state, len(tl.state.slots) - 1), EndTurn()
    )  # Cid arrested holding JD as his turn ends
    assert tl.state.arrests == ("Cid",) and tl.state.aside == (Card.parse("JD"),)
    assert "JD" not in GAME.view(tl.state)["players"][2]["held"] and GAME.view(tl.state)[
        "set_aside"
    ] == ["JD"]
    # fill the graves: the set-aside Jack goes back into the deck
    tl, said = run(tl, "KS", "KD", "KC", "QH", "QS")
    assert "reshuffle" in kinds(said)
    assert Card.parse("JD") in tl.state.stack and tl.state.aside == ()


def test_reading_9_reshuffle_when_a_buried_corpse_fills_the_last_grave() -> None:
    tl, _ = run(start(), "JH", Hold(), "KH", "KS", "KD", "KC", "QH")
    assert tl.state.phase is Phase.ENDING
    tl, said = run(tl, Bury(1))
    assert kinds(said) == ["corpse_buried", "reshuffle"] and said[1].data == {"cards": 52}
    tl, said = run(tl, EndTurn())
    assert said[0].data["draws"] == 6


def test_reading_10_turn_ends_only_by_end_turn() -> None:
    tl, _ = run(start(), "KH", *numbers(start().state, 5))
    assert tl.state.phase is Phase.ENDING and GAME.view(tl.state)["legal"] == ["end_turn"]
    tl, said = run(tl, EndTurn())
    assert said[0].kind == "turn" and tl.state.players[tl.state.current] == "Bob"
