"""Who wins a hand and what each player (or pair) scores, with the reason for every number.

Order of scoring, as the sheet says: add the case cards in sets (Real Estate makes its owner's
Crime Scenes worth 4), the hand's winner doubles that, then the cards left in hand are deducted.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.murdero.cards import Action, Stage, card_points, card_token
from companion.games.murdero.hand import (
    Ending,
    HandEnd,
    HandError,
    PlayerHand,
    partners_of,
    validate,
)

_log = logging.getLogger(__name__)

REAL_ESTATE_POINTS = 4


@dataclass(frozen=True)
class Line:
    """One number on the score sheet and why it is there.

    ``reason`` is the English line the CLI prints; ``code`` and ``details`` let a phone word
    the same line in its own language.
    """

    points: int
    reason: str
    code: str = ""
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SideScore:
    """A player's score for the hand, or a pair's in Partner Murdero."""

    label: str
    players: tuple[str, ...]
    won: bool
    lines: tuple[Line, ...]
    points: int


@dataclass(frozen=True)
class HandScore:
    ended_by: Ending
    winners: tuple[str, ...]  # the players whose case won the hand
    sides: tuple[SideScore, ...]

    def points(self) -> dict[str, int]:
        return {side.label: side.points for side in self.sides}


def side_label(names: tuple[str, ...]) -> str:
    return " & ".join(names)


def winners_of(hand: HandEnd, pairs: bool = False) -> tuple[str, ...]:
    """The players the rules make winners of this hand, or raise :class:`HandError`."""
    standing = hand.standing
    need = 2 if Action.HEAVY_CASELOAD in standing else 1
    qualified = tuple(p.name for p in hand.players if len(p.completed(standing)) >= need)
    sides = partners_of(hand, pairs)
    winning_sides = [s for s in sides if any(hand.players[i].name in qualified for i in s)]
    if hand.ended_by is Ending.CASE:
        if not winning_sides:
            raise _no_winner(hand, "with a case")
        if len(winning_sides) > 1:
            raise HandError(
                "several_winners",
                f"{', '.join(qualified)} all have winning cases; several players win only when an "
                'alibi or Heavy Caseload is removed (ended_by "removal")',
                players=", ".join(qualified),
            )
    elif hand.ended_by is Ending.REMOVAL:
        if not winning_sides:
            raise _no_winner(hand, "by a removal")
    elif qualified:
        how = "Reverse Charges" if hand.ended_by is Ending.REVERSE_CHARGES else "Overtime"
        raise HandError(
            "won_before_ending",
            f"{', '.join(qualified)} has a winning case, so the hand ended when it was completed, not by {how}",
            players=", ".join(qualified),
            ended_by=hand.ended_by.value,
        )
    if hand.ended_by is Ending.REVERSE_CHARGES and not any(len(p.held) <= 3 for p in hand.players):
        raise HandError(
            "reverse_charges_held",
            "Reverse Charges can only be played if it leaves its player three or fewer cards in hand, "
            "but every player holds more than three"
        )
    if hand.winners is not None and sorted(hand.winners) != sorted(qualified):
        raise HandError(
            "winners_differ",
            f"the entry names {', '.join(hand.winners) or 'no one'} as winner(s), but the table shows "
            f"{', '.join(qualified) or 'no winner'}",
            named=", ".join(hand.winners),
            shown=", ".join(qualified),
        )
    return qualified


def _no_winner(hand: HandEnd, how: str) -> HandError:
    why, words = _why_not(hand)
    return HandError(
        "no_winning_case",
        f"the hand ended {how}, but no one has a winning case: {words}",
        ended_by=hand.ended_by.value,
        why=why,
    )


def _why_not(hand: HandEnd) -> tuple[str, str]:
    """Why no case wins: a code for the phones and the English words."""
    standing = hand.standing
    complete = [(p.name, c.colour.value) for p in hand.players for c in p.cases if c.complete]
    if not complete:
        return "none_complete", "no case holds every number 1-5"
    if Action.HEAVY_CASELOAD in standing:
        return "heavy_caseload", "Heavy Caseload is in play, so a player needs two completed cases"
    return "alibi", "every completed case is of a colour whose alibi is in play"


def _case_lines(player: PlayerHand, prefix: str) -> tuple[list[Line], int]:
    lines: list[Line] = []
    total = 0
    who = {"player": player.name} if prefix else {}
    for case in player.cases:
        pts = sum(case.cards)
        parts = "+".join(map(str, case.cards))
        joker = f" (Joker as {case.joker}, 0)" if case.joker is not None else ""
        done = ", complete" if case.complete else ""
        lines.append(
            Line(
                pts,
                f"{prefix}{case.colour.value} case {parts}{joker}{done}",
                "case",
                {"colour": case.colour.value, "cards": parts, "joker": case.joker,
                 "complete": case.complete, **who},
            )
        )
        total += pts
    if Action.REAL_ESTATE in player.permanents:
        scenes = sum(case.cards.count(int(Stage.CRIME_SCENE)) for case in player.cases)
        bonus = scenes * (REAL_ESTATE_POINTS - int(Stage.CRIME_SCENE))
        lines.append(
            Line(
                bonus,
                f"{prefix}Real Estate: {scenes} Crime Scene(s) worth {REAL_ESTATE_POINTS} each, not 1",
                "real_estate",
                {"scenes": scenes, "worth": REAL_ESTATE_POINTS, **who},
            )
        )
        total += bonus
    return lines, total


def _held_line(player: PlayerHand, prefix: str) -> tuple[Line | None, int]:
    cards = player.held_cards
    if not cards:
        return None, 0
    pts = sum(card_points(c) for c in cards)
    counts = Counter(card_token(c) for c in cards)
    listed = " ".join(f"{t}x{n}" if n > 1 else t for t, n in counts.items())
    who = {"player": player.name} if prefix else {}
    return Line(-pts, f"{prefix}left in hand: {listed}", "left_in_hand",
                {"cards": [card_token(c) for c in cards], **who}), pts


def score_hand(hand: HandEnd, pairs: bool = False) -> HandScore:
    """Validate the entry and score it; raises :class:`HandError` with the reason if impossible."""
    validate(hand)
    winners = winners_of(hand, pairs)
    sides: list[SideScore] = []
    for seats in partners_of(hand, pairs):
        members = tuple(hand.players[i] for i in seats)
        names = tuple(p.name for p in members)
        lines: list[Line] = []
        cases = 0
        for p in members:
            plines, pts = _case_lines(p, f"{p.name}: " if pairs else "")
            lines += plines
            cases += pts
        won = any(n in winners for n in names)
        if won:
            lines.append(
                Line(
                    cases,
                    f"won the hand: case points doubled ({cases} x 2 = {2 * cases})",
                    "won_doubled",
                    {"points": cases, "doubled": 2 * cases},
                )
            )
            cases *= 2
        deducted = 0
        for p in members:
            line, pts = _held_line(p, f"{p.name}: " if pairs else "")
            if line is not None:
                lines.append(line)
                deducted += pts
        sides.append(SideScore(side_label(names), names, won, tuple(lines), cases - deducted))
    _log.debug(
        "scored a hand ended by %s: %s", hand.ended_by.value, [(s.label, s.points) for s in sides]
    )
    return HandScore(hand.ended_by, winners, tuple(sides))
