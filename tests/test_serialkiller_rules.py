"""Serial Killer's engine, one sentence of the rule text at a time."""

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

from companion.games import find_game
from companion.games.base import EventError, Refused, Timeline
from companion.games.serialkiller import (
    CLUES,
    GAME,
    Bury,
    Discredit,
    Draw,
    EndTurn,
    FirstDraw,
    Hold,
    Inform,
    Phase,
    Rank,
    Role,
)
from companion.games.serialkiller.cards import FULL_DECK, Card


def refused(tl: Timeline, event: object) -> str:  # type: ignore[type-arg]
    with pytest.raises(Refused) as info:
        tl.push(event)
    return info.value.code


def test_registered_by_name() -> None:
    assert find_game("serialkiller") is GAME


# --- requirements and card summary ------------------------------------------------------------


def test_a_standard_deck() -> None:
    # RULE: "1 standard deck of playing cards"
    assert len(FULL_DECK) == 52
    assert len({c.rank for c in FULL_DECK}) == 13 and len({c.suit for c in FULL_DECK}) == 4


def test_six_clues_each() -> None:
    # RULE: "6 counters per player (pennies, toothpicks, etc.)"
    # RULE: "Each player gets 6 counters. The counters are clues."
    state = start("Ann", "Bob", "Cid").state
    assert state.clues == (6, 6, 6) and CLUES == 6


def test_card_summary() -> None:
    # RULE: "Ace – informant"
    # RULE: "Jacks and Aces are special cards."
    # RULE: "An Ace is an informant."
    # RULE: "King – victim"
    # RULE: "Queen – victim"
    # RULE: "Jack – corpse"
    # RULE: "Numbered cards – missed opportunity!"
    roles = {c.rank: c.role for c in FULL_DECK}
    assert roles[Rank.ACE] is Role.INFORMANT
    assert roles[Rank.KING] is Role.VICTIM and roles[Rank.QUEEN] is Role.VICTIM
    assert roles[Rank.JACK] is Role.CORPSE
    assert {roles[r] for r in Rank if r.value.isdigit()} == {Role.MISSED}


def test_two_to_six_players() -> None:
    with pytest.raises(EventError, match="2 to 6 players"):
        GAME.new({"players": ["Ann"]})
    with pytest.raises(EventError, match="2 to 6 players"):
        GAME.new({"players": [f"P{i}" for i in range(7)]})  # READING 11: no seventh
    assert len(GAME.new({"players": [f"P{i}" for i in range(6)]}).players) == 6
    with pytest.raises(EventError, match="same name"):
        GAME.new({"players": ["Ann", "Ann"]})
    with pytest.raises(EventError, match="not one of"):
        GAME.new({"players": ["Ann", "Bob"], "first": "Cid"})


# --- who goes first ------------------------------------------------------------------------------


def test_high_card_goes_first() -> None:
    # RULE: "To select who goes first: players draw a card at random from the shuffled deck. High card will go first."
    tl = start("Ann", "Bob", "Cid", first=None)
    assert tl.state.phase is Phase.CHOOSING
    tl, said = run(tl, FirstDraw("Ann", "5H"), FirstDraw("Bob", "QS"), FirstDraw("Cid", "9D"))
    assert kinds(said) == ["first_player", "turn"]
    assert tl.state.players[tl.state.current] == "Bob" and tl.state.phase is Phase.DRAWING


def test_tied_players_draw_again() -> None:
    # RULE: "In case of a tie, players with tied cards draw again."
    tl = start("Ann", "Bob", "Cid", first=None)
    tl, said = run(tl, FirstDraw("Ann", "KH"), FirstDraw("Bob", "2S"), FirstDraw("Cid", "KD"))
    assert kinds(said) == ["first_tie"] and said[0].data["players"] == ["Ann", "Cid"]
    assert refused(tl, FirstDraw("Bob", "3S")) == "not_drawing"
    assert refused(tl, FirstDraw("Cid", "KH")) == "card_not_in_stack"  # still out until the game starts
    tl, said = run(tl, FirstDraw("Cid", "4C"), FirstDraw("Ann", "7C"))
    assert said[0].data == {"player": "Ann"}


def test_one_draw_each_per_round_and_only_players() -> None:
    tl = start("Ann", "Bob", first=None)
    tl, _ = run(tl, FirstDraw("Ann", "5H"))
    assert refused(tl, FirstDraw("Ann", "6H")) == "already_drew"
    assert refused(tl, FirstDraw("Zed", "6H")) == "unknown_player"
    assert refused(tl, Draw("6H")) == "wrong_phase"


def test_deck_shuffled_into_the_victim_stack_to_start() -> None:
    # RULE: "To start the game: shuffle the deck. Place the deck in the “victim stack”."
    tl = start("Ann", "Bob", first=None)
    tl, _ = run(tl, FirstDraw("Ann", "5H"), FirstDraw("Bob", "QS"))
    assert tl.state.stack == FULL_DECK
    tl, _ = run(tl, "5H")  # the cards drawn for first are back in the deck
    assert tl.state.graves[0] == (Card.parse("5H"),)


# --- drawing into graves --------------------------------------------------------------------------


def test_first_player_draws_six_one_per_grave() -> None:
    # RULE: "The first player draws six cards from top of the victim stack, placing each into one of six “grave” piles."
    tl = start()
    assert tl.state.slots == (0, 1, 2, 3, 4, 5)
    tl, said = run(tl, "2S", "3S", "4S", "5S", "6S")
    assert tl.state.phase is Phase.DRAWING and len(tl.state.slots) == 1
    assert refused(tl, EndTurn()) == "wrong_phase"
    tl, said = run(tl, "7S")
    assert [len(g) for g in tl.state.graves] == [1] * 6
    assert refused(tl, Draw("8S")) == "wrong_phase"


def test_later_players_draw_one_card_per_open_grave() -> None:
    # RULE: "Subsequent players will draw only as many cards as there are open graves."
    tl, _ = run(start(), "2S", "KH", "4S", "QS", "6S", "7S", EndTurn())
    assert tl.state.slots == (0, 2, 4, 5)
    tl, said = run(tl, "8S", "9S", "10S", "2H")
    assert tl.state.graves[0] == (Card.parse("2S"), Card.parse("8S"))
    assert tl.state.phase is Phase.ENDING


def test_play_proceeds_clockwise() -> None:
    # RULE: "Play proceeds clockwise."
    tl = start("Ann", "Bob", "Cid", first="Bob")
    order = []
    for _ in range(4):
        order.append(tl.state.players[tl.state.current])
        tl, _ = fail_turn(tl)
    assert order == ["Bob", "Cid", "Ann", "Bob"]


def test_victim_is_a_kill_and_fills_the_grave() -> None:
    # RULE: "A King or Queen is a victim. If a player draws a victim and places it into a grave, the player has successfully killed that turn."
    # RULE: "The grave that the victim goes into is now full, and no more cards will be placed in it."
    tl, said = run(start(), "2S", "3S", "QH", "5S", "6S", "7S")
    assert "kill" in kinds(said) and "clue_found" not in kinds(said)
    assert tl.state.clues[0] == 6
    tl, _ = run(tl, EndTurn())
    assert 2 not in tl.state.slots


def test_number_cards_leave_graves_open() -> None:
    # RULE: "Graves with numbered cards are still open—and proof that a player missed an opportunity to kill!"
    tl, said = run(start(), "2S", "3S", "4S", "5S", "6S", "7S")
    assert kinds(said).count("missed") == 6
    assert GAME.view(tl.state)["graves"][0]["open"] is True


def test_no_victim_the_police_find_a_clue() -> None:
    # RULE: "If a player does not draw a King or Queen, that player has failed to kill that turn."
    # RULE: "the police find a clue about the player's identity"
    # RULE: "When the police find a clue about a player, one of that player's counters is moved to the "police investigation" pile."
    tl, said = fail_turn(start())  # found as the turn ends (reading 6)
    assert "clue_found" in kinds(said)
    ann = GAME.view(tl.state)["players"][0]
    assert (ann["clues"], ann["police"]) == (5, 1)


def test_no_counters_left_arrested_and_out() -> None:
    # RULE: "When the police have collected all of the clues about a player—meaning the player has no counters left—they arrest the player, who is then out of the game."
    # RULE: "Once the police have all 6 of a player's clues, they identify the player as a serial killer, and arrested that player—the player is out of the game."
    tl = start("Ann", "Bob", "Cid")
    tl, said = run(
        tl,
        "KH",
        Draw("AS"),
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
    assert tl.state.clues == (6, 6, 2)
    for _ in range(4):  # Bob, Cid, Ann, Bob fail
        tl, _ = fail_turn(tl)
    assert tl.state.clues == (5, 4, 1)
    tl, said = fail_turn(tl)  # Cid's last clue
    assert "arrested" in kinds(said) and tl.state.arrests == ("Cid",)
    assert tl.state.players[tl.state.current] == "Ann"  # Cid's turn is over, and Cid is skipped
    tl, _ = fail_turn(tl)
    assert tl.state.players[tl.state.current] == "Bob"
    tl, _ = fail_turn(tl)
    assert tl.state.players[tl.state.current] == "Ann"


def test_last_player_with_clues_wins() -> None:
    # RULE: "The last player with clues left is still “on the loose”, and wins the game."
    # RULE: "The winner is the last serial killer on the loose!"
    tl, _ = inform_on_bob_four_times(start())
    tl, _ = fail_turn(tl)
    tl, _ = fail_turn(tl)
    assert tl.state.clues == (5, 1)
    tl, said = fail_turn(tl)
    assert kinds(said)[-3:] == ["clue_found", "arrested", "winner"]
    assert tl.state.winner == "Ann" and tl.state.phase is Phase.OVER
    assert refused(tl, Draw(numbers(tl.state, 1)[0])) == "game_over"


# --- Jacks and Aces -------------------------------------------------------------------------------


def test_jack_or_ace_waits_for_the_players_choice() -> None:
    # RULE: "Players are not required to immediately put a Jack or Ace into a grave; they are only put into a grave when the player chooses to do so."
    tl, _ = run(start(), "2S", "JH")
    assert tl.state.phase is Phase.DECIDING and str(tl.state.pending) == "JH"
    assert refused(tl, Draw("3S")) == "wrong_phase"
    tl, said = run(tl, Hold())
    assert kinds(said) == ["corpse_held"] and tl.state.held[0] == (Card.parse("JH"),)


def test_skipped_grave_for_a_held_card() -> None:
    # RULE: "The grave into which the card would have been placed when it was drawn gets skipped for that turn."
    tl, _ = run(start(), "2S", "JH", Hold(), "3S")
    assert tl.state.graves[1] == () and tl.state.graves[2] == (Card.parse("3S"),)
    tl, _ = run(tl, "4S", "5S", "6S", EndTurn())
    assert 1 in tl.state.slots  # the skipped grave is open for the next player


def test_jack_is_no_kill() -> None:
    # RULE: "A Jack is a corpse. Since the Jack is already dead, it fails to satiate a player's need to kill, so it does not prevent the player losing a clue to the police investigation pile."
    tl, said = run(start(), "2S", "JH", Bury(), "3S", "4S", "5S", "6S", EndTurn())
    assert "clue_found" in kinds(said) and tl.state.clues[0] == 5


def test_corpse_held_instead_of_buried() -> None:
    # RULE: "the player can choose to hold onto a corpse instead of burying it right away"
    # RULE: "A player can use the corpse to close a grave, by putting the corpse into it."
    tl, said = run(start(), "2S", "JH", Bury())
    assert said[-1].kind == "corpse_buried" and tl.state.graves[1] == (Card.parse("JH"),)
    assert GAME.view(tl.state)["graves"][1]["open"] is False


def test_held_corpse_is_buried_at_the_end_of_its_holders_turn() -> None:
    # RULE: "A corpse can be played at the end of a turn of the player who drew the Jack."
    tl, _ = run(start(), "2S", "JH", Hold())
    assert refused(tl, Bury(2)) == "wrong_phase"  # a held corpse waits for the end of the turn
    tl, _ = run(tl, "3S", "4S", "5S", "6S")
    tl, said = run(tl, Bury(1))
    assert said[0].data == {"player": "Ann", "card": "JH", "grave": 1} and tl.state.held[0] == ()
    assert refused(tl, Bury(2)) == "none_held"


def test_held_corpse_not_on_another_players_turn() -> None:
    tl, _ = run(start(), "2S", "JH", Hold(), "3S", "4S", "5S", "6S", EndTurn())
    tl, _ = fail_turn(tl, end=False)  # Bob's turn, draws done
    assert refused(tl, Bury(1)) == "none_held"
    tl, _ = run(tl, EndTurn(), numbers(tl.state, 1)[0])  # Ann again, drawing
    assert refused(tl, Bury(1)) == "wrong_phase"


def test_informant_discredits_or_informs() -> None:
    # RULE: "An informant can either discredit a clue against the player playing the Ace, or can inform on another player."
    # RULE: "When the informant discredits a clue, the player playing the Ace gets a counter back from the police investigation pile"
    # RULE: "when the informant informs on another player, that player loses a clue to the police investigation pile."
    tl, _ = fail_turn(start())  # Ann 5
    tl, _ = run(tl, "KH", "AS", Inform("Ann"))  # Bob informs on Ann: 4
    assert tl.state.clues == (4, 6)
    tl, _ = run(tl, *numbers(tl.state, 4), EndTurn())
    tl, said = run(tl, "AH", Discredit())
    assert tl.state.clues == (5, 6) and kinds(said) == ["discredited"]


def test_informant_needs_a_victim() -> None:
    # RULE: "To use an informant, there must be a victim. If there are no victims, the informant cannot be played."
    tl, _ = run(start(), "AS")
    assert refused(tl, Inform("Bob")) == "no_victim"
    tl, _ = run(tl, Hold(), "KH", "3S", "4S", "5S", "6S")
    assert refused(tl, Inform("Bob", 1)) == "no_victim"  # grave 1 was skipped: empty
    tl, _ = run(tl, Inform("Bob", 2))
    assert tl.state.clues == (6, 5)


def test_corpse_is_not_a_victim() -> None:
    # RULE: "A corpse does not qualify as a victim, since there is no police investigation into the death of the corpse."
    tl, _ = run(start(), "JH", Bury(), "AS")
    assert refused(tl, Inform("Bob")) == "no_victim" and refused(tl, Inform("Bob", 1)) == "no_victim"


def test_informant_goes_on_top_of_a_victim() -> None:
    # RULE: "When using an informant, the Ace is placed on top of a King or Queen in a grave."
    tl, _ = run(start(), "2S", "QD", "AS", Inform("Bob", 2))
    assert tl.state.graves[1] == (Card.parse("QD"), Card.parse("AS"))
    assert GAME.view(tl.state)["graves"][1]["informants"] == ["AS"]


def test_informant_used_at_once_or_held() -> None:
    # RULE: "A player can use an informant immediately when drawn, or can hold onto it."
    # RULE: "A held informant can be played at the end of a turn of the player who drew the Ace."
    tl, _ = run(start(), "KH", "AS", Inform("Bob"))
    assert tl.state.clues == (6, 5)
    tl, _ = run(tl, "AH", Hold(), "3S", "4S")
    assert tl.state.phase is Phase.DRAWING and refused(tl, Inform("Bob")) == "wrong_phase"
    tl, _ = run(tl, "5S", Inform("Bob"))
    assert tl.state.clues == (6, 4) and tl.state.held[0] == ()


def test_held_informant_discredits_the_failed_turns_clue() -> None:
    # RULE: "A held informant can be played at the end of a turn of the player who drew the Ace."
    # RULE: "When the informant discredits a clue, the player playing the Ace gets a counter back from the police investigation pile"
    tl, _ = ann_on_her_last_clue_holding_an_ace()
    tl, said = run(tl, *numbers(tl.state, len(tl.state.slots)))  # no victim this turn
    assert "clue_found" not in kinds(said) and "discredit" in GAME.view(tl.state)["legal"]
    tl, said = run(tl, Discredit(), EndTurn())
    assert kinds(said)[:2] == ["discredited", "clue_found"] and tl.state.clues[0] == 1
    assert tl.state.phase is Phase.DRAWING and tl.state.players[tl.state.current] == "Bob"


def test_held_cards_are_face_up_for_all() -> None:
    # RULE: "Any special cards (corpses or informants) that a player is holding should be kept face up and plainly visible to the other players."
    tl, _ = run(start(), "JH", Hold(), "AS", Hold())
    assert GAME.view(tl.state)["players"][0]["held"] == ["JH", "AS"]


def test_discredit_and_inform_targets() -> None:
    tl, _ = run(start("Ann", "Bob", "Cid"), "KH", "AS")
    assert refused(tl, Discredit()) == "no_clue_to_discredit"
    assert refused(tl, Inform("Ann")) == "inform_on_self"
    assert refused(tl, Inform("Zed")) == "unknown_player"
    assert refused(tl, Inform("Bob", 7)) == "no_such_grave"
    assert refused(tl, Bury()) == "wrong_card"


# --- reshuffle ------------------------------------------------------------------------------------


def test_all_graves_full_reshuffle_unheld_cards() -> None:
    # RULE: "When all six of the graves are occupied by victims or corpses, reshuffle all of the unheld cards, both those in graves and in the victim stack."
    # RULE: "(Special cards—corpses or informants—being held by players are not taken.)"
    # RULE: "The shuffled deck is placed back in the victim stack."
    tl, _ = run(start(), "AS", Hold(), "KH", "KS", "KD", "KC", "QH", EndTurn())
    assert tl.state.slots == (0,)
    tl, said = run(tl, "QS")
    assert "reshuffle" in kinds(said) and said[kinds(said).index("reshuffle")].data == {"cards": 51}
    assert tl.state.graves == ((),) * 6 and Card.parse("AS") not in tl.state.stack
    assert len(tl.state.stack) == 51


def test_after_a_reshuffle_six_open_graves_and_play_resumes() -> None:
    # RULE: "Play resumes where it left off. There are once again six open graves to fill"
    tl, said = run(start(), "KH", "KS", "KD", "KC", "QH", "QS")
    assert "reshuffle" in kinds(said) and tl.state.phase is Phase.ENDING
    tl, said = run(tl, EndTurn())
    assert tl.state.players[tl.state.current] == "Bob" and len(tl.state.slots) == 6
    tl, _ = run(tl, "KH")  # drawn again after the reshuffle
    assert tl.state.graves[0] == (Card.parse("KH"),)


def test_a_card_cannot_appear_twice_before_a_reshuffle() -> None:
    tl, _ = run(start(), "KH", "2S")
    assert refused(tl, Draw("KH")) == "card_not_in_stack"
    with pytest.raises(Refused, match="in grave 1"):
        tl.push(Draw("kh"))
    tl, _ = run(tl, "JD", Hold())
    with pytest.raises(Refused, match="held by Ann"):
        tl.push(Draw("JD"))
