"""Murdero's deck as data, checked against the rule sheet's numbers."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.games.murdero import Action, ActionKind, CaseCard, Colour, Stage
from companion.games.murdero.cards import (
    ACTION_CARDS_IN_DECK,
    CASE_CARDS_IN_DECK,
    DECK_SIZE,
    CardError,
    card_points,
    card_token,
    deck,
    parse_card,
    reference,
)


def test_sixty_cards_forty_five_case_fifteen_action() -> None:
    # RULE: "There are 60 cards in a Murdero deck. These are divided into Case Cards (45 cards per deck) and Action Cards (15 cards per deck)."
    assert (DECK_SIZE, CASE_CARDS_IN_DECK, ACTION_CARDS_IN_DECK) == (60, 45, 15)
    cases = [c for c in deck() if isinstance(c, CaseCard)]
    assert len(cases) == 45


def test_case_cards_per_colour_and_number() -> None:
    # RULE: "Case Cards come in three colours"
    # RULE: "1 = Crime Scene (5 cards per colour)"
    # RULE: "2 = Victim (4 cards per colour)"
    # RULE: "3 = Evidence (3 cards per colour)"
    # RULE: "4 = Suspect (2 cards per colour)"
    # RULE: "5 = Weapon (1 card per colour)"
    counts = Counter(c for c in deck() if isinstance(c, CaseCard))
    assert {c.colour for c in counts} == {Colour.RED, Colour.BLUE, Colour.GREEN}
    expected = {"Crime Scene": 5, "Victim": 4, "Evidence": 3, "Suspect": 2, "Weapon": 1}
    for colour in Colour:
        for stage in Stage:
            assert counts[CaseCard(colour, stage)] == expected[stage.label]


def test_each_number_is_its_point_value() -> None:
    # RULE: "Each Case Card also has a point value from 1 to 5"
    # RULE: "Each number represents a different stage of a murder investigation and also acts as the point value of that card for scoring purposes."
    for stage in Stage:
        assert card_points(CaseCard(Colour.GREEN, stage)) == int(stage)


def test_action_cards_score_nothing() -> None:
    # RULE: "All Action Cards have a point value of zero and do not count towards your score."
    assert all(card_points(a) == 0 for a in Action)


def test_action_cards_named_with_their_kinds() -> None:
    # RULE: "Action Cards are either One Shot (the card can only be used once) or Permanent"
    # RULE: "0 = Action (15 cards)"
    # RULE: "Your deck contains a set of 15 Action Cards"
    kinds = {a.title: a.kind for a in Action}
    one_shot = {"Lost Treasure", "Reverse Charges", "Shake Down", "Overtime", "Destroy", "Sabotage"}
    permanent = {
        "Silver Screen Alibi",
        "The Don's Alibi",
        "Political Alibi",
        "Heavy Caseload",
        "Real Estate",
        "Mitigating Circs",
        "Joker",
    }
    assert {t for t, k in kinds.items() if k is ActionKind.ONE_SHOT} == one_shot
    assert {t for t, k in kinds.items() if k is ActionKind.PERMANENT} == permanent


def test_alibis_name_their_colours() -> None:
    # RULE: "red cards are set in the criminal underworld, blue in the world of movie-making, and green in the world of politics and law"
    assert Action.SILVER_SCREEN_ALIBI.alibi_for is Colour.BLUE  # the movie world
    assert Action.THE_DONS_ALIBI.alibi_for is Colour.RED  # the underworld
    assert Action.POLITICAL_ALIBI.alibi_for is Colour.GREEN
    assert Action.JOKER.alibi_for is None


def test_reference_is_json_ready_and_covers_every_card() -> None:
    ref = reference()
    assert [r["id"] for r in ref] == [a.value for a in Action]
    for entry in ref:
        assert entry["does"] and entry["kind"] in ("one_shot", "permanent")


def test_every_reference_title_is_a_heading_of_the_rule_text(rule_texts: Path) -> None:
    ref = reference()
    rules = (rule_texts / "murdero.txt").read_text(encoding="utf-8").upper()
    for entry in ref:  # every title is a heading of the sheet's reference
        title = str(entry["title"]).upper().replace("CIRCS", "CIRC")
        assert title.replace("’", "'") in rules


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("R3", CaseCard(Colour.RED, Stage.EVIDENCE)),
        ("blue 5", CaseCard(Colour.BLUE, Stage.WEAPON)),
        ("g1", CaseCard(Colour.GREEN, Stage.CRIME_SCENE)),
        ("joker", Action.JOKER),
        ("The Don's Alibi", Action.THE_DONS_ALIBI),
        ("REAL_ESTATE", Action.REAL_ESTATE),
    ],
)
def test_parse_card_tokens(token: str, card: object) -> None:
    assert parse_card(token) == card
    assert parse_card(card_token(parse_card(token))) == card


@pytest.mark.parametrize("token", ["R6", "R0", "Y3", "", "jokers", "5"])
def test_parse_card_rejects_non_cards(token: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(token)


def test_one_root_exception() -> None:
    from companion.errors import CompanionError
    from companion.games.murdero import HandError, MurderoError
    from companion.tools.murdero import MurderoInputError

    for error in (CardError, HandError, MurderoInputError):
        assert issubclass(error, MurderoError)
    assert issubclass(MurderoError, CompanionError) and issubclass(MurderoError, ValueError)
