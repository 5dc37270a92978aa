"""The Murdero deck as data: 45 case cards and the action cards the rule sheet names.

The rule sheet says the deck holds 15 action cards but names only 13 (six One Shot, seven
Permanent); it does not say which two are doubled. :data:`ACTION_CARDS_IN_DECK` and
:data:`ACTION_NAMES_KNOWN` let validation check exactly what the text allows: every named
card at least once, 15 in all, so at most two copies beyond one of each across the table.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from companion.games.murdero.errors import MurderoError


class Colour(enum.Enum):
    """The three case colours and the world each is set in."""

    RED = "red"  # the criminal underworld
    BLUE = "blue"  # movie-making
    GREEN = "green"  # politics and law

    @property
    def letter(self) -> str:
        return self.value[0].upper()


class Stage(enum.IntEnum):
    """A case card's number: its stage of the investigation and its point value."""

    CRIME_SCENE = 1
    VICTIM = 2
    EVIDENCE = 3
    SUSPECT = 4
    WEAPON = 5

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").title()

    @property
    def copies(self) -> int:
        """How many cards of this stage each colour has (5, 4, 3, 2, 1)."""
        return 6 - int(self)


CASE_CARDS_PER_COLOUR = sum(stage.copies for stage in Stage)  # 15
CASE_CARDS_IN_DECK = CASE_CARDS_PER_COLOUR * len(Colour)  # 45
ACTION_CARDS_IN_DECK = 15
DECK_SIZE = CASE_CARDS_IN_DECK + ACTION_CARDS_IN_DECK  # 60


class ActionKind(enum.Enum):
    ONE_SHOT = "one_shot"  # grey border: removed from the game once played
    PERMANENT = "permanent"  # black border: stays out in front of its owner


@dataclass(frozen=True)
class ActionInfo:
    title: str
    kind: ActionKind
    does: str  # what the card does, condensed from the rule sheet
    notes: tuple[str, ...]  # the sheet's clarifications, as the reference page shows them


class Action(enum.Enum):
    """The action cards named in the rule sheet's Action Card Reference."""

    LOST_TREASURE = "lost_treasure"
    REVERSE_CHARGES = "reverse_charges"
    SHAKE_DOWN = "shake_down"
    OVERTIME = "overtime"
    DESTROY = "destroy"
    SABOTAGE = "sabotage"
    SILVER_SCREEN_ALIBI = "silver_screen_alibi"
    THE_DONS_ALIBI = "the_dons_alibi"
    POLITICAL_ALIBI = "political_alibi"
    HEAVY_CASELOAD = "heavy_caseload"
    REAL_ESTATE = "real_estate"
    MITIGATING_CIRCS = "mitigating_circs"
    JOKER = "joker"

    @property
    def info(self) -> ActionInfo:
        return ACTION_REFERENCE[self]

    @property
    def kind(self) -> ActionKind:
        return ACTION_REFERENCE[self].kind

    @property
    def title(self) -> str:
        return ACTION_REFERENCE[self].title

    @property
    def alibi_for(self) -> Colour | None:
        """The colour whose completed cases this alibi stops from winning, if it is one."""
        return _ALIBIS.get(self)


_ALIBIS = {
    Action.SILVER_SCREEN_ALIBI: Colour.BLUE,
    Action.THE_DONS_ALIBI: Colour.RED,
    Action.POLITICAL_ALIBI: Colour.GREEN,
}

_ONE, _PERM = ActionKind.ONE_SHOT, ActionKind.PERMANENT
_ALIBI_NOTES = (
    "If this card is in play when a {c} case is completed, that player cannot win with that "
    "case and the hand does not finish.",
    "If it is removed after someone has completed a {c} case, the person with the completed "
    "{c} case is the winner.",
    "If more than one person has completed a {c} case (e.g. by using the Joker), each of them "
    "wins and scores double for that hand.",
)


def _alibi(title: str, colour: str) -> ActionInfo:
    return ActionInfo(
        title,
        _PERM,
        f"While it stands, a completed {colour} case does not win the hand.",
        tuple(note.format(c=colour) for note in _ALIBI_NOTES),
    )


ACTION_REFERENCE: dict[Action, ActionInfo] = {
    Action.LOST_TREASURE: ActionInfo(
        "Lost Treasure",
        _ONE,
        "Take any one Case Card from anywhere in the Discard Pile.",
        (
            "You can't take an Action Card.",
            "The card may come from anywhere in the pile, not just the top.",
        ),
    ),
    Action.REVERSE_CHARGES: ActionInfo(
        "Reverse Charges",
        _ONE,
        "Ends the hand; no player scores double, as no-one has completed a case.",
        (
            "The four cards mentioned include Reverse Charges itself, so you can only play it if "
            "doing so leaves three or fewer cards in your hand.",
        ),
    ),
    Action.SHAKE_DOWN: ActionInfo(
        "Shake Down",
        _ONE,
        "Remove one of your own Case Cards in a set from the game and take a Case Card from "
        "another player.",
        (
            "The card you remove must be your own (even in Partner Murdero) and in a set, not in your hand.",
            "You may only take a Case Card from another player, not an Action Card.",
        ),
    ),
    Action.OVERTIME: ActionInfo(
        "Overtime",
        _ONE,
        "Draw the top three cards of the Case File into your hand.",
        (
            "Discard down to eight at the end of your turn.",
            "If drawing three cards empties the Case File, the hand ends.",
        ),
    ),
    Action.DESTROY: ActionInfo(
        "Destroy",
        _ONE,
        "Remove one Permanent Action Card from play (out of the game, not to the Discard Pile).",
        ("It cannot remove Case Cards.",),
    ),
    Action.SABOTAGE: ActionInfo(
        "Sabotage",
        _ONE,
        "Remove one card from play; it may be one of your own.",
        (
            "Removing a Case Card from the middle of a case removes the cards that follow it too.",
            "If the case holds two or more cards of that number, only one is removed and the "
            "cards after it stay.",
        ),
    ),
    Action.SILVER_SCREEN_ALIBI: _alibi("Silver Screen Alibi", "blue"),
    Action.THE_DONS_ALIBI: _alibi("The Don's Alibi", "red"),
    Action.POLITICAL_ALIBI: _alibi("Political Alibi", "green"),
    Action.HEAVY_CASELOAD: ActionInfo(
        "Heavy Caseload",
        _PERM,
        "The hand does not end until a player completes two cases.",
        (
            "If it is removed while players have completed one case, each player who has completed "
            "a case wins and scores double for that hand.",
            "In Partner Murdero one player of the pair must complete two cases; one each is not enough.",
        ),
    ),
    Action.REAL_ESTATE: ActionInfo(
        "Real Estate",
        _PERM,
        "If it is still in play at the end of the hand, its owner scores 4 points for each "
        "Crime Scene they have in play.",
        ("In Partner Murdero only the owner scores this way, not the partner.",),
    ),
    Action.MITIGATING_CIRCS: ActionInfo(
        "Mitigating Circs",
        _PERM,
        "Once per turn, as your Take Action, remove a Case Card.",
        (
            "Not in the turn you put it into play.",
            "In Partner Murdero you may only remove Case Cards you own.",
        ),
    ),
    Action.JOKER: ActionInfo(
        "Joker",
        _PERM,
        "Stands in for a card to complete your case (e.g. a Weapon or Suspect).",
        (
            "You must play it as the Take Action part of your turn.",
            "Like every Action Card it is worth 0 points.",
        ),
    ),
}

ACTION_NAMES_KNOWN = len(Action)  # 13 named in the text; the deck holds ACTION_CARDS_IN_DECK


@dataclass(frozen=True, order=True)
class CaseCard:
    colour: Colour
    stage: Stage

    def __str__(self) -> str:
        return f"{self.colour.letter}{int(self.stage)}"


HeldCard = CaseCard | Action

_CASE_TOKEN = re.compile(r"^\s*(red|blue|green|r|b|g)\s*-?\s*([1-5])\s*$", re.IGNORECASE)
_COLOUR_BY_WORD = {c.value: c for c in Colour} | {c.letter.lower(): c for c in Colour}


class CardError(MurderoError):
    """A card token that names no Murdero card."""


def parse_card(token: str) -> HeldCard:
    """Read a card as people type it: ``R3``, ``blue 5``, ``g1`` or an action id (``joker``)."""
    match = _CASE_TOKEN.match(token)
    if match:
        return CaseCard(_COLOUR_BY_WORD[match.group(1).lower()], Stage(int(match.group(2))))
    key = token.strip().lower().replace(" ", "_").replace("-", "_").replace("'", "")
    for action in Action:
        if key in (action.value, action.name.lower()):
            return action
    raise CardError(
        "not_a_card",
        f"{token!r} is not a card: write a case card as colour letter and number (R3, B5, G1) "
        f"or an action card as one of {', '.join(a.value for a in Action)}",
        token=token,
    )


def card_token(card: HeldCard) -> str:
    return str(card) if isinstance(card, CaseCard) else card.value


def card_points(card: HeldCard) -> int:
    """A card's point value: its number for a case card, zero for every action card."""
    return int(card.stage) if isinstance(card, CaseCard) else 0


def deck() -> tuple[HeldCard, ...]:
    """The 45 case cards and one of each named action card (the two unnamed copies unknown)."""
    cases = tuple(CaseCard(c, s) for c in Colour for s in Stage for _ in range(s.copies))
    return cases + tuple(Action)


def reference() -> list[dict[str, object]]:
    """The action-card reference as the dashboard shows it, in the rule sheet's order."""
    return [
        {
            "id": action.value,
            "title": info.title,
            "kind": info.kind.value,
            "does": info.does,
            "notes": list(info.notes),
            "alibi_for": action.alibi_for.value if action.alibi_for else None,
        }
        for action, info in ACTION_REFERENCE.items()
    ]
