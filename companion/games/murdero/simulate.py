"""Legal hands at random, drawn from a real Murdero deck: for tests, benchmarks and demos.

All randomness comes from the :class:`random.Random` handed in, so a seed gives the same hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.murdero.cards import (
    Action,
    ActionKind,
    CaseCard,
    Colour,
    HeldCard,
    Stage,
    card_token,
    deck,
)
from companion.games.murdero.hand import Case, Ending, HandEnd, PlayerHand, partners_of


def random_hand(rng: random.Random, names: Sequence[str], pairs: bool = False) -> HandEnd:
    """A legal hand's end drawn from a real deck with ``rng`` (a seeded random.Random)."""
    pool: list[HeldCard] = list(deck())
    rng.shuffle(pool)

    def take(card: HeldCard) -> bool:
        if card in pool:
            pool.remove(card)
            return True
        return False

    players: list[PlayerHand] = []
    for name in names:
        cases: list[Case] = []
        for colour in rng.sample(list(Colour), rng.randint(0, 3)):
            cards: list[int] = []
            joker: int | None = None
            for stage in Stage:
                if rng.random() < 0.15 and cards:
                    break
                copies = [c for c in pool if c == CaseCard(colour, stage)]
                if not copies:
                    if (
                        stage is not Stage.CRIME_SCENE
                        and joker is None
                        and rng.random() < 0.6
                        and take(Action.JOKER)
                    ):
                        joker = int(stage)
                        continue
                    break
                for _ in range(rng.randint(1, len(copies))):
                    take(CaseCard(colour, stage))
                    cards.append(int(stage))
            if cards:
                cases.append(Case(colour, tuple(cards), joker))
            elif joker is not None:
                pool.append(Action.JOKER)
        room = len(cases) - sum(c.joker is not None for c in cases)
        perms: list[Action] = []
        for card in list(pool):
            if len(perms) < room and isinstance(card, Action) and card.kind is ActionKind.PERMANENT:
                if card is not Action.JOKER and rng.random() < 0.3:
                    pool.remove(card)
                    perms.append(card)
        held = [card_token(pool.pop()) for _ in range(min(len(pool), rng.randint(0, 8)))]
        players.append(PlayerHand(name, tuple(cases), tuple(perms), tuple(held)))
    trial = HandEnd(tuple(players), Ending.OVERTIME)
    standing = trial.standing
    need = 2 if Action.HEAVY_CASELOAD in standing else 1
    qualified = {p.name for p in players if len(p.completed(standing)) >= need}
    sides = [s for s in partners_of(trial, pairs) if any(players[i].name in qualified for i in s)]
    if len(sides) > 1:
        ending = Ending.REMOVAL
    elif sides:
        ending = rng.choice([Ending.CASE, Ending.REMOVAL])
    elif any(len(p.held) <= 3 for p in players) and rng.random() < 0.5:
        ending = Ending.REVERSE_CHARGES
    else:
        ending = Ending.OVERTIME
    return HandEnd(tuple(players), ending)
