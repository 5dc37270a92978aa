"""Murdero's hand validation and scoring, one rule-sheet sentence at a time."""

from __future__ import annotations

import pytest
from murdero_support import hand, player, side

from companion.games.murdero import Case, Colour, HandError, score_hand, validate, winners_of

# --- building cases ----------------------------------------------------------------------------


def test_case_must_begin_with_a_crime_scene() -> None:
    # RULE: "You MUST begin a set with a Crime Scene card, which always has a point value of 1."
    with pytest.raises(HandError, match="does not begin with a Crime Scene"):
        validate(hand(player("Ann", red=[2, 3]), player("Bob")))
    score = score_hand(hand(player("Ann", red=[1]), player("Bob"), ended="overtime"))
    assert side(score, "Ann").points == 1


def test_cases_run_in_number_sequence() -> None:
    # RULE: "To build a set, place cards in front of you in number sequence, i.e. 1,2,3,4,5."
    with pytest.raises(HandError, match="skips 3"):
        validate(hand(player("Ann", blue=[1, 2, 4]), player("Bob")))
    with pytest.raises(HandError, match="skips 2, 3, 4"):
        validate(hand(player("Ann", blue=[1, 5]), player("Bob")))
    validate(hand(player("Ann", blue=[1, 2, 3, 4]), player("Bob")))


def test_numbers_run_from_one_to_five() -> None:
    # RULE: "In the top left corner of every Case Card is a number from 1 to 5."
    with pytest.raises(HandError, match="6 is not a case card number"):
        validate(hand(player("Ann", red=[1, 2, 3, 4, 5, 6]), player("Bob")))
    with pytest.raises(HandError, match="0 is not a case card number"):
        validate(hand(player("Ann", red=[0, 1]), player("Bob")))


def test_a_case_is_one_colour_and_colours_differ() -> None:
    # RULE: "Each set must only contain cards of a single colour, but you can build up to three different coloured sets at once."
    from companion.games.murdero import Case, Colour, PlayerHand

    two_reds = PlayerHand("Ann", (Case(Colour.RED, (1,)), Case(Colour.RED, (1, 2))))
    with pytest.raises(HandError, match="2 red cases; each case must be a different colour"):
        validate(hand(two_reds, player("Bob")))
    validate(hand(player("Ann", red=[1], blue=[1], green=[1]), player("Bob")))


def test_at_most_three_cases() -> None:
    # RULE: "you can build up to three different coloured sets at once"
    from companion.games.murdero import Case, Colour, PlayerHand

    four = PlayerHand(
        "Ann", tuple(Case(c, (1,)) for c in (Colour.RED, Colour.BLUE, Colour.GREEN, Colour.RED))
    )
    with pytest.raises(HandError, match="4 cases; at most 3"):
        validate(hand(four, player("Bob")))


def test_repeated_numbers_strengthen_and_score() -> None:
    # RULE: "You can strengthen your cases by adding more than one of each numbered card to a set. This allows you to score points at the end of the hand"
    # RULE: "you could stack up to five Crime Scene cards if you had them and they would be worth five times 1 point at the end of the game!"
    one = score_hand(hand(player("Ann", green=[1, 2]), player("Bob"), ended="overtime"))
    more = score_hand(hand(player("Ann", green=[1, 1, 1, 1, 1, 2, 2]), player("Bob"), ended="overtime"))
    assert side(one, "Ann").points == 3
    assert side(more, "Ann").points == 5 * 1 + 2 * 2


def test_never_more_cards_of_a_kind_than_the_deck_holds() -> None:
    # RULE: "there's only one murder weapon for each colour so only one player will be able to complete each case"
    with pytest.raises(HandError, match="2 blue Weapon cards \\(5\\) on the table; the deck has 1"):
        validate(hand(player("Ann", blue=[1, 2, 3, 4, 5]), player("Bob", held=("B5",))))
    with pytest.raises(HandError, match="6 red Crime Scene cards"):
        validate(hand(player("Ann", red=[1, 1, 1, 1]), player("Bob", red=[1, 1])))
    validate(hand(player("Ann", red=[1, 1, 1, 1]), player("Bob", red=[1])))


def test_completing_needs_every_number_of_one_colour() -> None:
    # RULE: "You need to complete a set containing at least one card of each number in a single colour to win the hand."
    with pytest.raises(HandError, match="no case holds every number 1-5"):
        score_hand(
            hand(
                player("Ann", red=[1, 2, 3, 4], blue=[1, 2, 3, 4]), player("Bob", green=[1, 2, 3, 4, 4])
            )
        )
    assert winners_of(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"))) == ("Ann",)


def test_two_to_four_players() -> None:
    # RULE: "Murdero is a murder mystery themed game for 2-4 players."
    with pytest.raises(HandError, match="2-4 players"):
        validate(hand(player("Ann")))
    with pytest.raises(HandError, match="2-4 players"):
        validate(hand(*(player(n) for n in "ABCDE")))


# --- scoring -------------------------------------------------------------------------------------


def test_first_to_complete_a_set_wins_the_hand() -> None:
    # RULE: "The first player to complete a set of Case Cards numbered 1 to 5 wins the hand."
    # RULE: "To win Murdero you must be the first player to complete a case (set)."
    score = score_hand(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob", blue=[1, 2, 3, 4])))
    assert score.winners == ("Ann",)
    assert side(score, "Ann").won and not side(score, "Bob").won


def test_set_points_minus_cards_in_hand() -> None:
    # RULE: "Points are scored by building sets of "Case Cards"."
    # RULE: "Players score by adding together the point values of all Case Cards they have in sets. The point values of any cards remaining in your hand are deducted from this to arrive at your final score."
    score = score_hand(
        hand(
            player("Ann", red=[1, 2, 3, 4, 5]),
            player("Bob", blue=[1, 1, 2, 3], green=[1, 2], held=("R1", "G5", "joker")),
        )
    )
    assert side(score, "Bob").points == (1 + 1 + 2 + 3) + (1 + 2) - (1 + 5 + 0)


def test_winner_doubles_before_deductions() -> None:
    # RULE: "The player who won the hand doubles their score before making any deductions for cards left in their hand."
    score = score_hand(
        hand(player("Ann", red=[1, 2, 3, 4, 5], blue=[1, 2], held=("G3", "G1")), player("Bob"))
    )
    assert side(score, "Ann").points == 2 * (15 + 3) - 4


def test_score_lines_explain_every_point() -> None:
    score = score_hand(
        hand(
            player("Ann", red=[1, 1, 2, 3, 4, 5], perms=("real_estate",), held=("G3",)),
            player("Bob", blue=[1, 2], held=("B2", "overtime")),
        )
    )
    for s in score.sides:
        assert sum(line.points for line in s.lines) == s.points
        assert all(line.reason for line in s.lines)
    reasons = " | ".join(line.reason for line in side(score, "Ann").lines)
    assert "red case 1+1+2+3+4+5" in reasons and "Real Estate" in reasons and "doubled" in reasons
    assert "left in hand: G3" in reasons


# --- permanents ---------------------------------------------------------------------------------


def test_one_shot_cards_never_stay_in_play() -> None:
    # RULE: "Once the Action Card has been played it is removed from the game (NOT placed on the Discard Pile) and cannot be played again."
    with pytest.raises(HandError, match="Overtime is One Shot"):
        validate(hand(player("Ann", red=[1], perms=("overtime",)), player("Bob")))


def test_one_permanent_per_case() -> None:
    # RULE: "You may only have one Permanent Action Card out for each case you are building (three in total)."
    # RULE: "Place Permanent Action Cards in front of you along with your sets."
    # RULE: "However, you must remove one Permanent Action Card you own from the game (do not place on the Discard Pile) and replace it with the new Permanent Action Card."
    with pytest.raises(HandError, match="2 Permanent Action Cards in play but 1 case"):
        validate(hand(player("Ann", red=[1], perms=("real_estate", "heavy_caseload")), player("Bob")))
    with pytest.raises(HandError, match="only one Permanent per case"):
        validate(hand(player("Ann", perms=("real_estate",)), player("Bob")))
    validate(
        hand(
            player(
                "Ann",
                red=[1],
                blue=[1],
                green=[1],
                perms=("real_estate", "heavy_caseload", "mitigating_circs"),
            ),
            player("Bob"),
        )
    )


def test_the_joker_counts_as_a_permanent() -> None:
    # RULE: "JOKER (PERMANENT)"
    with pytest.raises(HandError, match="2 Permanent Action Cards in play but 1 case"):
        validate(
            hand(
                player("Ann", red=[1, 2, 3, 4], joker={"red": 5}, perms=("real_estate",)), player("Bob")
            )
        )


# --- action cards at the hand's end ---------------------------------------------------------------


def test_reverse_charges_nobody_doubles() -> None:
    # RULE: "REVERSE CHARGES (ONE SHOT)"
    # RULE: "This card ends the game."
    # RULE: "No player can score double as no-one has completed a case."
    score = score_hand(
        hand(player("Ann", red=[1, 2, 3, 4]), player("Bob", blue=[1, 2]), ended="reverse_charges")
    )
    assert score.winners == ()
    assert side(score, "Ann").points == 10 and side(score, "Bob").points == 3


def test_reverse_charges_leaves_its_player_three_cards_or_fewer() -> None:
    # RULE: "you can only play this card if doing so would leave three or fewer cards in your hand"
    four = ("R1", "R2", "G1", "G2")
    with pytest.raises(HandError, match="three or fewer"):
        score_hand(
            hand(
                player("Ann", held=four),
                player("Bob", held=("B1", "B2", "B3", "B4")),
                ended="reverse_charges",
            )
        )
    score_hand(
        hand(player("Ann", held=four), player("Bob", held=("B1", "B2", "B3")), ended="reverse_charges")
    )


def test_reverse_charges_cannot_end_a_hand_someone_has_won() -> None:
    with pytest.raises(
        HandError, match="Ann has a winning case, so the hand ended when it was completed"
    ):
        score_hand(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"), ended="reverse_charges"))


def test_overtime_emptying_the_case_file_ends_the_hand() -> None:
    # RULE: "If drawing three cards depletes the Case File, then the game ends."
    score = score_hand(
        hand(player("Ann", red=[1, 2], held=("B1", "B2", "B3")), player("Bob"), ended="overtime")
    )
    assert score.winners == ()
    assert side(score, "Ann").points == 3 - 6


@pytest.mark.parametrize(
    ("alibi", "colour"),
    [("silver_screen_alibi", "blue"), ("the_dons_alibi", "red"), ("political_alibi", "green")],
)
def test_alibi_stops_a_completed_case_from_winning(alibi: str, colour: str) -> None:
    # RULE: "If this card is in play when a blue case is completed, that player cannot win the game with that case and the game does not finish."
    # RULE: "As above, but applies to red cases."
    # RULE: "As above, but applies to green cases."
    done = player("Ann", **{colour: [1, 2, 3, 4, 5]})  # type: ignore[arg-type]
    with pytest.raises(HandError, match="alibi is in play"):
        score_hand(hand(done, player("Bob", red=[1], perms=(alibi,))))
    # the hand may go on and end otherwise; the blocked case then does not double
    score = score_hand(hand(done, player("Bob", red=[1], perms=(alibi,)), ended="overtime"))
    assert score.winners == () and side(score, "Ann").points == 15


def test_alibi_of_another_colour_does_not_block() -> None:
    score = score_hand(
        hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob", blue=[1], perms=("political_alibi",)))
    )
    assert score.winners == ("Ann",)


def test_alibi_removed_completed_case_wins() -> None:
    # RULE: "However, if this card is removed from play after someone has completed a blue case then the person with the completed blue case is the winner."
    score = score_hand(
        hand(player("Ann", blue=[1, 2, 3, 4, 5]), player("Bob", red=[1]), ended="removal")
    )
    assert score.winners == ("Ann",)
    assert side(score, "Ann").points == 30


def test_alibi_removed_several_completed_cases_all_win() -> None:
    # RULE: "If more than one person has completed a blue case (e.g. by using the Joker) then each person who has completed a blue case wins and scores double for that hand."
    score = score_hand(
        hand(
            player("Ann", blue=[1, 2, 3, 4, 5]),
            player("Bob", blue=[1, 2, 3, 4], joker={"blue": 5}),
            player("Cid", red=[1, 2]),
            ended="removal",
        )
    )
    assert sorted(score.winners) == ["Ann", "Bob"]
    assert side(score, "Ann").points == 30 and side(score, "Bob").points == 20
    assert side(score, "Cid").points == 3


def test_heavy_caseload_needs_two_cases() -> None:
    # RULE: "The game does not end until a player completes two cases."
    one = hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob", green=[1], perms=("heavy_caseload",)))
    with pytest.raises(
        HandError, match="Heavy Caseload is in play, so a player needs two completed cases"
    ):
        score_hand(one)
    two = hand(
        player("Ann", red=[1, 2, 3, 4, 5], blue=[1, 2, 3, 4], joker={"blue": 5}),
        player("Bob", green=[1], perms=("heavy_caseload",)),
    )
    assert score_hand(two).winners == ("Ann",)


def test_heavy_caseload_removed_each_completed_case_wins() -> None:
    # RULE: "If this Permanent Action Card is removed and any player or players have completed one case, each player who has completed a case wins and scores double for that hand."
    score = score_hand(
        hand(
            player("Ann", red=[1, 2, 3, 4, 5]),
            player("Bob", green=[1, 2, 3, 4, 5]),
            player("Cid", blue=[1]),
            ended="removal",
        )
    )
    assert sorted(score.winners) == ["Ann", "Bob"]
    assert (
        side(score, "Ann").points == 30
        and side(score, "Bob").points == 30
        and side(score, "Cid").points == 1
    )


def test_real_estate_scores_four_per_crime_scene() -> None:
    # RULE: "As long as this card remains in play until the end of the game the player who owns it scores 4 points for each Crime Scene card (point value 1) they have in play."
    score = score_hand(
        hand(
            player("Ann", red=[1, 1, 2], green=[1], perms=("real_estate",)),
            player("Bob", blue=[1, 1]),
            ended="overtime",
        )
    )
    assert side(score, "Ann").points == 3 * 4 + 2
    assert side(score, "Bob").points == 2  # only the owner's Crime Scenes


def test_joker_completes_a_case_worth_nothing_itself() -> None:
    # RULE: "You can use the Joker to complete your case (e.g. in place of a Weapon or Suspect card, etc.)"
    score = score_hand(hand(player("Ann", green=[1, 2, 3, 5], joker={"green": 4}), player("Bob")))
    assert score.winners == ("Ann",)
    assert side(score, "Ann").points == 2 * (1 + 2 + 3 + 5)


def test_joker_cannot_stand_for_a_card_already_there() -> None:
    with pytest.raises(HandError, match="already has"):
        validate(hand(player("Ann", red=[1, 2], joker={"red": 2}), player("Bob")))


# --- Partner Murdero ---------------------------------------------------------------------------


def _four(**kw: object) -> tuple[object, ...]:
    return (
        player("Ann", red=[1, 2, 3, 4, 5], held=("G1",)),
        player("Bob", blue=[1, 2]),
        player("Cid", green=[1, 1], held=("B3",)),
        player("Dee", blue=[1], held=("R2",)),
    )


def test_pairs_score_together() -> None:
    # RULE: "You score in pairs."
    # RULE: "Your score is calculated by adding up the point values of all Case Cards both you AND your partner have in play."
    # RULE: "If either you or your partner are left holding cards in your hands, you should deduct the point values of those cards from your combined score."
    # RULE: "You must sit opposite your partner."
    score = score_hand(hand(*_four()), pairs=True)  # type: ignore[arg-type]
    assert [s.label for s in score.sides] == ["Ann & Cid", "Bob & Dee"]
    assert side(score, "Ann & Cid").points == 2 * (15 + 2) - (1 + 3)
    assert side(score, "Bob & Dee").points == (3 + 1) - 2


def test_pairs_need_four_players() -> None:
    # RULE: "You play Partner Murdero in pairs."
    with pytest.raises(HandError, match="four players"):
        score_hand(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob")), pairs=True)


def test_pairs_heavy_caseload_needs_two_cases_by_one_player() -> None:
    # RULE: "In Partner Murdero, either player in the partnership must complete two cases to win – it is not enough that they both complete one each."
    split = hand(
        player("Ann", red=[1, 2, 3, 4, 5], perms=("heavy_caseload",)),
        player("Bob"),
        player("Cid", green=[1, 2, 3, 4, 5]),
        player("Dee"),
    )
    with pytest.raises(HandError, match="needs two completed cases"):
        score_hand(split, pairs=True)
    one_player = hand(
        player("Ann", red=[1, 2, 3, 4, 5], green=[1, 2, 3, 4, 5], perms=("heavy_caseload",)),
        player("Bob"),
        player("Cid"),
        player("Dee"),
    )
    assert score_hand(one_player, pairs=True).winners == ("Ann",)


def test_pairs_real_estate_only_for_its_owner() -> None:
    # RULE: "If you play them on your partner's cases then the card is owned by your partner and any effect it has can only be for the benefit of your partner."
    # RULE: "In Partner Murdero, only the player who owns the Real Estate Action Card scores this way, not both players."
    score = score_hand(
        hand(
            player("Ann", red=[1, 1], perms=("real_estate",)),
            player("Bob"),
            player("Cid", green=[1, 1, 1]),
            player("Dee"),
            ended="overtime",
        ),
        pairs=True,
    )
    assert side(score, "Ann & Cid").points == 2 * 4 + 3 * 1


def test_pairs_win_once_whichever_partner_completes() -> None:
    score = score_hand(
        hand(
            player("Ann"), player("Bob", blue=[1, 2, 3, 4, 5]), player("Cid"), player("Dee", red=[1, 2])
        ),
        pairs=True,
    )
    assert score.winners == ("Bob",)
    assert side(score, "Bob & Dee").points == 2 * 18


# --- who wins -----------------------------------------------------------------------------------


def test_a_case_ending_has_one_winner() -> None:
    with pytest.raises(HandError, match="several players win only when"):
        score_hand(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob", green=[1, 2, 3, 4, 5])))


def test_winners_cross_check() -> None:
    with pytest.raises(HandError, match="names Bob as winner"):
        score_hand(hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"), winners=["Bob"]))
    assert score_hand(
        hand(player("Ann", red=[1, 2, 3, 4, 5]), player("Bob"), winners=["Ann"])
    ).winners == ("Ann",)


def test_names_must_differ() -> None:
    with pytest.raises(HandError, match="Ann appears twice"):
        validate(hand(player("Ann"), player("Ann")))


# --- Sabotage, as the hand-entry page applies it -----------------------------------------------


def test_sabotage_in_the_middle_takes_what_follows() -> None:
    # RULE: "If you use this to remove a Case Card from the middle of a case, any cards following it in the set must be removed as well."
    # RULE: "you must also remove the Suspect card as there is no longer any Evidence to support that part of the case"
    case = Case(Colour.RED, (1, 2, 3, 4))
    assert case.sabotaged(3) == Case(Colour.RED, (1, 2))
    assert Case(Colour.RED, (1, 2, 3), joker=4).sabotaged(2) == Case(Colour.RED, (1,))
    assert Case(Colour.RED, (1, 1, 2)).sabotaged(1) == Case(Colour.RED, (1, 2))
    assert Case(Colour.RED, (1, 2, 3)).sabotaged(1) is None


def test_sabotage_of_a_strengthened_number_takes_one() -> None:
    # RULE: "if the player's case has been strengthened and contains two or more Evidence cards then only one Evidence card is removed and the Suspect card remains in play"
    assert Case(Colour.BLUE, (1, 2, 3, 3, 4)).sabotaged(3) == Case(Colour.BLUE, (1, 2, 3, 4))


def test_sabotage_of_the_joker_or_a_missing_number() -> None:
    assert Case(Colour.GREEN, (1, 2, 4), joker=3).sabotaged(3) == Case(Colour.GREEN, (1, 2))
    assert Case(Colour.GREEN, (1, 2, 3, 4), joker=5).sabotaged(5) == Case(Colour.GREEN, (1, 2, 3, 4))
    with pytest.raises(HandError, match="no 5 to sabotage"):
        Case(Colour.GREEN, (1, 2)).sabotaged(5)
