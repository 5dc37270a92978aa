"""A hand's end as entered at the table, and the checks that make it a possible table.

JSON form of one hand (the ``hand`` of a ``hand_entered`` event, and ``HAND.json`` for
``companion murdero score``)::

    {
      "players": [
        {"name": "Ann",
         "cases": [{"colour": "red", "cards": [1, 1, 2, 3, 4, 5]},
                   {"colour": "blue", "cards": [1, 2, 3, 5], "joker": 4}],
         "permanents": ["real_estate"],
         "held": ["G2", "overtime"]},
        {"name": "Bob", "cases": [{"colour": "green", "cards": [1, 2]}], "held": []}
      ],
      "ended_by": "case",
      "winners": ["Ann"]
    }

- ``cases``: one object per case in front of the player: its colour and its case cards by
  number, repeats allowed, in any order; ``joker`` is the number the Joker stands in for on
  that case (it is one of the player's Permanent Action Cards, worth 0 points).
- ``permanents``: the player's other Permanent Action Cards still in play (action ids).
- ``held``: cards left in the player's hand: ``R3``/``B5``/``G1`` or action ids.
- ``ended_by``: ``case`` (a player completed a winning case), ``removal`` (an alibi or Heavy
  Caseload was removed while completed cases waited, so each of their owners wins),
  ``reverse_charges`` or ``overtime`` (Overtime emptied the Case File). Optional ``winners``
  is a cross-check: if given it must name exactly the players the rules make winners.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from companion.games.murdero.cards import (
    ACTION_CARDS_IN_DECK,
    Action,
    ActionKind,
    CardError,
    CaseCard,
    Colour,
    HeldCard,
    Stage,
    card_token,
    parse_card,
)
from companion.games.murdero.errors import MurderoError

MAX_CASES = 3
HAND_LIMIT = 8
MIN_PLAYERS, MAX_PLAYERS = 2, 4


class HandError(MurderoError):
    """A hand entry the table cannot have produced; the message says which rule it breaks."""


class Ending(enum.Enum):
    CASE = "case"
    REMOVAL = "removal"
    REVERSE_CHARGES = "reverse_charges"
    OVERTIME = "overtime"


@dataclass(frozen=True)
class Case:
    """One case (set) in front of a player."""

    colour: Colour
    cards: tuple[int, ...] = ()
    joker: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    @property
    def stages(self) -> frozenset[int]:
        """The numbers present, the Joker's included."""
        present = set(self.cards)
        if self.joker is not None:
            present.add(self.joker)
        return frozenset(present)

    @property
    def complete(self) -> bool:
        """At least one card of each number 1 to 5 (the Joker standing in for one)."""
        return self.stages >= {int(s) for s in Stage}

    def sabotaged(self, number: int) -> Case | None:
        """The case after Sabotage removes one card of ``number`` (None: nothing is left).

        Taking the only card of a number takes every card after it in the sequence too (the
        Joker included), as nothing supports that part of the case any more; a strengthened
        number loses one card and the rest stays.
        """
        if number not in self.stages:
            raise HandError(
                "nothing_to_sabotage",
                f"the {self.colour.value} case has no {number} to sabotage",
                colour=self.colour.value,
                number=number,
            )
        cards = list(self.cards)
        joker = self.joker
        if number in cards:
            cards.remove(number)
        else:
            joker = None  # the Joker was standing in for it
        if number not in cards:
            cards = [c for c in cards if c < number]
            joker = joker if joker is not None and joker < number else None
        return Case(self.colour, tuple(cards), joker) if cards else None


@dataclass(frozen=True)
class PlayerHand:
    """What one player has at the end of the hand."""

    name: str
    cases: tuple[Case, ...] = ()
    permanents: tuple[Action, ...] = ()
    held: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # canonical card tokens, so that an entry round-trips through JSON unchanged
        try:
            object.__setattr__(self, "held", tuple(card_token(parse_card(t)) for t in self.held))
        except CardError as exc:
            raise HandError(exc.code, f"{self.name}: {exc}", player=self.name, **exc.details) from None

    @property
    def held_cards(self) -> tuple[HeldCard, ...]:
        return tuple(parse_card(t) for t in self.held)

    @property
    def all_permanents(self) -> tuple[Action, ...]:
        """Permanents in play, the Joker (which sits on a case) included."""
        jokers = tuple(Action.JOKER for case in self.cases if case.joker is not None)
        return self.permanents + jokers

    def completed(self, standing: Iterable[Action]) -> tuple[Case, ...]:
        """Completed cases not held back by an alibi still standing."""
        blocked = {a.alibi_for for a in standing if a.alibi_for is not None}
        return tuple(c for c in self.cases if c.complete and c.colour not in blocked)


@dataclass(frozen=True)
class HandEnd:
    """A whole hand's end, as entered at the table."""

    players: tuple[PlayerHand, ...]
    ended_by: Ending
    winners: tuple[str, ...] | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def standing(self) -> tuple[Action, ...]:
        """Every permanent in play on the table, whoever owns it."""
        return tuple(a for p in self.players for a in p.all_permanents)


def seats_of_pairs(count: int) -> tuple[tuple[int, int], ...]:
    """Partners sit opposite: with players listed in seat order, 1st+3rd and 2nd+4th."""
    if count != 4:
        raise HandError(
            "pairs_need_four", f"Partner Murdero is for four players in pairs, not {count}", count=count
        )
    return ((0, 2), (1, 3))


def validate(hand: HandEnd) -> None:
    """Raise :class:`HandError` naming the first rule the entry breaks."""
    if not MIN_PLAYERS <= len(hand.players) <= MAX_PLAYERS:
        raise HandError(
            "player_count",
            f"Murdero is for 2-4 players, this hand has {len(hand.players)}",
            count=len(hand.players),
        )
    names = [p.name for p in hand.players]
    if any(not n.strip() for n in names):
        raise HandError("name_missing", "every player needs a name")
    dupes = sorted(n for n, k in Counter(names).items() if k > 1)
    if dupes:
        raise HandError(
            "names_repeat",
            f"player names must differ: {', '.join(dupes)} appears twice",
            names=", ".join(dupes),
        )
    for player in hand.players:
        _validate_player(player)
    big = [p.name for p in hand.players if len(p.held) > HAND_LIMIT]
    if len(big) > 1:
        raise HandError(
            "too_many_held",
            f"{' and '.join(big)} hold more than {HAND_LIMIT} cards; everyone discards down to "
            f"{HAND_LIMIT} at the end of their turn, so only the player whose turn ended the hand may",
            players=", ".join(big),
            limit=HAND_LIMIT,
        )
    _validate_deck(hand)


def _validate_player(player: PlayerHand) -> None:
    who = player.name
    if len(player.cases) > MAX_CASES:
        raise HandError(
            "too_many_cases",
            f"{who} has {len(player.cases)} cases; at most {MAX_CASES} at once",
            player=who,
            count=len(player.cases),
            limit=MAX_CASES,
        )
    colours = Counter(c.colour for c in player.cases)
    for colour, n in colours.items():
        if n > 1:
            raise HandError(
                "colour_twice",
                f"{who} has {n} {colour.value} cases; each case must be a different colour",
                player=who,
                count=n,
                colour=colour.value,
            )
    for case in player.cases:
        _validate_case(who, case)
    for action in player.permanents:
        if action.kind is not ActionKind.PERMANENT:
            raise HandError(
                "one_shot_in_play",
                f"{who}: {action.title} is One Shot; it never stays in play",
                player=who,
                card=action.value,
            )
        if action is Action.JOKER:
            raise HandError(
                "joker_off_case",
                f'{who}: put the Joker on the case it stands in for ("joker": number)',
                player=who,
            )
    perms = player.all_permanents
    if len(perms) > len(player.cases):
        raise HandError(
            "too_many_permanents",
            f"{who} has {len(perms)} Permanent Action Cards in play but {len(player.cases)} case(s); "
            "only one Permanent per case being built",
            player=who,
            count=len(perms),
            cases=len(player.cases),
        )


def _validate_case(who: str, case: Case) -> None:
    where = f"{who}'s {case.colour.value} case"
    about = {"player": who, "colour": case.colour.value}
    for value in case.cards:
        if value not in range(1, 6):
            raise HandError(
                "not_a_case_number",
                f"{where}: {value} is not a case card number (1-5)",
                number=value,
                **about,
            )
    if not case.cards and case.joker is None:
        raise HandError("empty_case", f"{where} is empty; leave it out", **about)
    if 1 not in case.cards:
        raise HandError(
            "no_crime_scene",
            f"{where} does not begin with a Crime Scene (1); every case must",
            **about,
        )
    if case.joker is not None:
        if case.joker not in range(2, 6):
            raise HandError(
                "joker_number",
                f"{where}: the Joker can stand in for a 2-5 only (a case begins with a real Crime Scene)",
                **about,
            )
        if case.joker in case.cards:
            raise HandError(
                "joker_doubles",
                f"{where}: the Joker stands in for a {case.joker} the case already has",
                number=case.joker,
                **about,
            )
    top = max(case.stages)
    gaps = [n for n in range(1, top) if n not in case.stages]
    if gaps:
        raise HandError(
            "case_gaps",
            f"{where} skips {', '.join(map(str, gaps))}: cases are built in number sequence 1,2,3,4,5",
            gaps=", ".join(map(str, gaps)),
            **about,
        )


def _validate_deck(hand: HandEnd) -> None:
    """Never more cards of a kind on the table than the deck holds."""
    case_cards: Counter[CaseCard] = Counter()
    actions: Counter[Action] = Counter()
    for player in hand.players:
        for case in player.cases:
            case_cards.update(CaseCard(case.colour, Stage(v)) for v in case.cards)
        actions.update(player.all_permanents)
        for card in player.held_cards:
            if isinstance(card, CaseCard):
                case_cards[card] += 1
            else:
                actions[card] += 1
    for card, n in sorted(case_cards.items(), key=lambda item: str(item[0])):
        if n > card.stage.copies:
            raise HandError(
                "too_many_cards",
                f"{n} {card.colour.value} {card.stage.label} cards ({int(card.stage)}) on the table; "
                f"the deck has {card.stage.copies}",
                count=n,
                colour=card.colour.value,
                number=int(card.stage),
                copies=card.stage.copies,
            )
    spare = ACTION_CARDS_IN_DECK - len(Action)
    extra = sum(n - 1 for n in actions.values() if n > 1)
    if extra > spare:
        doubled = ", ".join(
            f"{n}x {a.title}" for a, n in sorted(actions.items(), key=lambda i: i[0].value) if n > 1
        )
        raise HandError(
            "too_many_actions",
            f"{doubled}: the deck's {ACTION_CARDS_IN_DECK} action cards include each of the "
            f"{len(Action)} named ones, so at most {spare} copies beyond one of each",
            cards=[a.value for a, n in sorted(actions.items(), key=lambda i: i[0].value) if n > 1],
            spare=spare,
        )


def partners_of(hand: HandEnd, pairs: bool) -> tuple[tuple[int, ...], ...]:
    """The scoring sides: one per player, or the two pairs of Partner Murdero."""
    if pairs:
        return seats_of_pairs(len(hand.players))
    return tuple((i,) for i in range(len(hand.players)))


__all__ = [
    "Case",
    "Ending",
    "HandEnd",
    "HandError",
    "PlayerHand",
    "partners_of",
    "seats_of_pairs",
    "validate",
]
