"""One test per reading chosen where the Murdero rule sheet is ambiguous (numbered as in the
package docstring of ``companion.games.murdero``)."""

from __future__ import annotations

import pytest
from murdero_support import hand, player, side

import companion.games.murdero as murdero
from companion.games.base import Refused, Timeline
from companion.games.murdero import GAME, HandCorrected, HandEntered, HandError, score_hand, validate


def test_docstring_lists_fourteen_readings() -> None:
    doc = murdero.__doc__ or ""
    assert all(f"\n{n}. " in doc for n in range(1, 15))


def test_reading_1_two_duplicate_action_cards_at_most() -> None:
    two_spare = hand(
        player("Ann", red=[1], held=("overtime", "overtime", "sabotage")),
        player("Bob", blue=[1], held=("sabotage",)),
        ended="overtime",
    )
    validate(two_spare)  # 15 cards, 13 names: two copies beyond one of each may exist
    three_spare = hand(
        player("Ann", red=[1], held=("overtime", "overtime", "overtime")),
        player("Bob", blue=[1], held=("sabotage", "sabotage")),
        ended="overtime",
    )
    with pytest.raises(HandError, match="at most 2 copies beyond one of each"):
        validate(three_spare)


def test_reading_2_reverse_charges_ends_the_hand_not_the_game() -> None:
    tl = Timeline.start(GAME, {"players": ["Ann", "Bob"]})
    tl, effects = tl.push(
        HandEntered(hand(player("Ann", red=[1, 2]), player("Bob"), ended="reverse_charges"))
    )
    assert not tl.state.over and "game_over" not in [e.kind for e in effects]
    tl, _ = tl.push(HandEntered(hand(player("Ann", red=[1]), player("Bob"), ended="overtime")))
    assert len(tl.state.hands) == 2


def test_reading_3_real_estate_is_four_instead_of_one_and_counts_once() -> None:
    one = score_hand(
        hand(player("Ann", red=[1, 1], perms=("real_estate",)), player("Bob"), ended="overtime")
    )
    assert side(one, "Ann").points == 8  # not 2 + 8
    two = score_hand(
        hand(
            player("Ann", red=[1, 1], blue=[1], perms=("real_estate", "real_estate")),
            player("Bob"),
            ended="overtime",
        )
    )
    assert side(two, "Ann").points == 12


def test_reading_4_doubling_covers_real_estate_and_pairs_double_together() -> None:
    score = score_hand(
        hand(player("Ann", red=[1, 2, 3, 4, 5], perms=("real_estate",), held=("G1",)), player("Bob"))
    )
    assert side(score, "Ann").points == 2 * (15 + 3) - 1
    pairs = score_hand(
        hand(
            player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"), player("Cid", blue=[1, 2]), player("Dee")
        ),
        pairs=True,
    )
    assert side(pairs, "Ann & Cid").points == 2 * (15 + 3)


def test_reading_5_joker_needs_a_real_crime_scene_and_stands_for_2_to_5() -> None:
    with pytest.raises(HandError, match="does not begin with a Crime Scene"):
        validate(hand(player("Ann", red=[2, 3, 4, 5], joker={"red": 1}), player("Bob")))
    with pytest.raises(HandError, match="Joker can stand in for a 2-5 only"):
        validate(hand(player("Ann", red=[1, 2, 3, 4, 5], joker={"red": 1}), player("Bob")))
    score = score_hand(hand(player("Ann", red=[1, 3, 4, 5], joker={"red": 2}), player("Bob")))
    assert side(score, "Ann").points == 2 * 13  # the Joker itself is worth 0


def test_reading_6_permanents_at_most_cases() -> None:
    validate(
        hand(player("Ann", red=[1], blue=[1], perms=("real_estate", "heavy_caseload")), player("Bob"))
    )
    with pytest.raises(HandError, match="only one Permanent per case"):
        validate(hand(player("Ann", red=[1], perms=("real_estate", "heavy_caseload")), player("Bob")))


def test_reading_7_own_alibi_binds_its_owner_and_blocked_cases_do_not_count_for_caseload() -> None:
    own = hand(player("Ann", blue=[1, 2, 3, 4, 5], perms=("silver_screen_alibi",)), player("Bob"))
    with pytest.raises(HandError, match="alibi"):
        score_hand(own)
    blocked = hand(
        player(
            "Ann", blue=[1, 2, 3, 4, 5], red=[1, 2, 3, 4], joker={"red": 5}, perms=("heavy_caseload",)
        ),
        player("Bob", green=[1], perms=("silver_screen_alibi",)),
    )
    with pytest.raises(HandError):
        score_hand(blocked)


def test_reading_8_several_winners_only_by_removal() -> None:
    both = (player("Ann", red=[1, 2, 3, 4, 5]), player("Bob", green=[1, 2, 3, 4, 5]))
    with pytest.raises(HandError, match="removal"):
        score_hand(hand(*both))
    assert sorted(score_hand(hand(*both, ended="removal")).winners) == ["Ann", "Bob"]
    with pytest.raises(HandError, match="not by Overtime"):
        score_hand(hand(*both, ended="overtime"))


def test_reading_9_negative_hand_counts_against_the_total() -> None:
    tl = Timeline.start(GAME, {"players": ["Ann", "Bob"]})
    tl, _ = tl.push(
        HandEntered(hand(player("Ann", red=[1], held=("B5", "B4")), player("Bob"), ended="overtime"))
    )
    assert tl.state.totals["Ann"] == 1 - 9


def _winning(name: str, other: str, extra: list[int]) -> object:
    return hand(player(name, red=[1, 2, 3, 4, 5, *extra]), player(other, blue=[1]))


def test_reading_10_highest_total_wins_when_several_pass_100() -> None:
    tl = Timeline.start(GAME, {"players": ["Ann", "Bob"]})
    # Bob gets to 96, Ann to 75, over three hands
    for _ in range(3):
        tl, _ = tl.push(
            HandEntered(
                hand(
                    player("Bob", red=[1, 2, 3, 4, 5, 1]),
                    player("Ann", blue=[1, 1, 1, 1, 2, 2, 3, 3, 3, 4, 4]),
                )
            )
        )
    totals = tl.state.totals
    assert totals["Bob"] == 96 and totals["Ann"] == 75 and not tl.state.over
    tl, effects = tl.push(
        HandEntered(hand(player("Ann", blue=[1, 2, 3, 4, 5, 1, 1, 2]), player("Bob", red=[1, 2, 1, 1])))
    )
    assert tl.state.totals == {"Ann": 75 + 38, "Bob": 96 + 5}
    assert tl.state.game_winners == ("Ann",)
    assert [e.data["winners"] for e in effects if e.kind == "game_over"] == [["Ann"]]


def test_reading_11_pairs_are_first_and_third_against_second_and_fourth() -> None:
    state = GAME.new({"players": ["Ann", "Bob", "Cid", "Dee"], "pairs": True})
    assert state.sides == (("Ann", "Cid"), ("Bob", "Dee"))


def test_reading_12_correction_cannot_end_the_game_before_later_hands() -> None:
    tl = Timeline.start(GAME, {"players": ["Ann", "Bob"]})
    small = hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"))
    tl, _ = tl.push(HandEntered(small))  # Ann 30
    tl, _ = tl.push(HandEntered(small))  # Ann 60
    tl, _ = tl.push(HandEntered(small))  # Ann 90
    big = hand(
        player("Ann", red=[1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5]), player("Bob")
    )  # 2 * 35 = 70
    with pytest.raises(Refused) as info:
        tl.push(HandCorrected(1, big))
    assert info.value.code == "correction_ends_game_early"
    tl, effects = tl.push(HandCorrected(3, big))  # the last hand: allowed, and it ends the game
    assert tl.state.over and tl.state.totals["Ann"] == 130
    assert "game_over" in [e.kind for e in effects]


def test_reading_13_one_deck_on_the_table() -> None:
    # RULE: "If you own more than one deck you can build your own custom deck by using a mixture of Action Cards from both sets."
    two_weapons = hand(player("Ann", green=[1, 2, 3, 4, 5]), player("Bob", held=("G5",)))
    with pytest.raises(HandError, match="the deck has 1"):
        validate(two_weapons)


def test_reading_14_only_one_player_over_eight_cards() -> None:
    # RULE: "If you have more than eight cards in your hand at the end of your turn, you must discard down to eight."
    nine = ("R1", "R2", "R3", "R4", "B1", "B2", "B3", "B4", "G1")
    other = ("G2", "G3", "G4", "B5", "R5", "G5", "overtime", "destroy", "joker")
    validate(hand(player("Ann", held=nine), player("Bob", held=other[:8]), ended="overtime"))
    with pytest.raises(HandError, match="Ann and Bob hold more than 8 cards"):
        validate(hand(player("Ann", held=nine), player("Bob", held=other), ended="overtime"))
