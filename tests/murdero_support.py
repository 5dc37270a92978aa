"""Short ways to write Murdero hands in tests: ``player("Ann", red=[1, 2, 3], held=["G2"])``."""

from __future__ import annotations

from typing import Any

from companion.games.murdero import Action, Case, Colour, Ending, HandEnd, PlayerHand
from companion.games.murdero.simulate import random_hand


def player(
    name: str,
    *,
    red: list[int] | None = None,
    blue: list[int] | None = None,
    green: list[int] | None = None,
    joker: dict[str, int] | None = None,
    perms: tuple[str, ...] = (),
    held: tuple[str, ...] = (),
) -> PlayerHand:
    cases = []
    for colour, cards in ((Colour.RED, red), (Colour.BLUE, blue), (Colour.GREEN, green)):
        if cards is not None:
            cases.append(Case(colour, tuple(cards), (joker or {}).get(colour.value)))
    return PlayerHand(name, tuple(cases), tuple(Action(p) for p in perms), tuple(held))


def hand(*players: PlayerHand, ended: str = "case", winners: Any = None) -> HandEnd:
    return HandEnd(tuple(players), Ending(ended), None if winners is None else tuple(winners))


def side(score: Any, label: str) -> Any:
    return next(s for s in score.sides if s.label == label)


__all__ = ["hand", "player", "random_hand", "side"]
