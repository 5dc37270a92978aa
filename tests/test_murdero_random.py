"""Invariants over seeded random legal hands and games drawn from a real Murdero deck."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from murdero_support import random_hand

from companion.games.base import Timeline
from companion.games.murdero import GAME, Case, HandEntered, score_hand
from companion.games.murdero.cards import CaseCard, Stage, card_points

SEEDS = range(150)


@pytest.mark.parametrize("count", [2, 3, 4])
def test_random_hands_score_consistently(count: int) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"][:count]
    for seed in SEEDS:
        hand = random_hand(random.Random(seed * 10 + count), names)
        score = score_hand(hand)
        table: Counter[CaseCard] = Counter()
        for p in hand.players:
            for case in p.cases:
                table.update(CaseCard(case.colour, Stage(v)) for v in case.cards)
        assert all(n <= card.stage.copies for card, n in table.items())
        for s, p in zip(score.sides, hand.players, strict=True):
            # the reasons add up to the points
            assert sum(line.points for line in s.lines) == s.points
            # case points, doubled for a winner, minus the cards in hand (Real Estate aside)
            cases = sum(sum(c.cards) for c in p.cases)
            if "real_estate" not in [a.value for a in p.permanents]:
                assert s.points == cases * (2 if s.won else 1) - sum(
                    card_points(c) for c in p.held_cards
                )
            assert s.won == (p.name in score.winners)


def test_player_order_does_not_change_scores() -> None:
    for seed in SEEDS:
        rng = random.Random(seed)
        hand = random_hand(rng, ["Ann", "Bob", "Cid"])
        shuffled = list(hand.players)
        rng.shuffle(shuffled)
        assert score_hand(hand).points() == score_hand(replace(hand, players=tuple(shuffled))).points()


def test_more_case_cards_never_score_less() -> None:
    # RULE: "The more Case Cards your sets contain, the more points you can score."
    checked = 0
    for seed in SEEDS:
        hand = random_hand(random.Random(seed), ["Ann", "Bob"])
        before = score_hand(hand)
        ann = hand.players[0]
        for i, case in enumerate(ann.cases):
            for value in sorted(case.stages):
                grown = replace(case, cards=case.cards + (value,)) if value in case.cards else case
                if grown == case:
                    continue
                cases = ann.cases[:i] + (grown,) + ann.cases[i + 1 :]
                bigger = replace(hand, players=(replace(ann, cases=cases), *hand.players[1:]))
                try:
                    after = score_hand(bigger)
                except ValueError:
                    continue  # the deck has no such card left
                assert after.sides[0].points > before.sides[0].points
                checked += 1
    assert checked > 50


def test_random_games_keep_a_true_running_table() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        pairs = seed % 2 == 1
        names = ["Ann", "Bob", "Cid", "Dee"]
        tl = Timeline.start(GAME, {"players": names, "pairs": pairs})
        while not tl.state.over:
            tl, effects = tl.push(HandEntered(random_hand(rng, names, pairs)))
        state = tl.state
        sums: Counter[str] = Counter()
        for h in state.hands:
            sums.update(h.score.points())
        assert dict(sums) == state.totals
        target = 200 if pairs else 100
        assert max(state.totals.values()) >= target
        assert all(max(row.values()) < target for row in state.running()[:-1])
        assert "game_over" in [e.kind for e in effects]


def test_seeded_hands_repeat() -> None:
    first = random_hand(random.Random(7), ["A", "B"])
    assert first == random_hand(random.Random(7), ["A", "B"])
    assert all(isinstance(c, Case) for p in first.players for c in p.cases)
