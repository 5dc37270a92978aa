"""Invariants over seeded random legal games: 52 cards conserved, no card twice before a
reshuffle, graves, clues, turns and the winner."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from companion.games.base import Timeline, Undo, fold
from companion.games.serialkiller import GAME, Draw, Phase, Role
from companion.games.serialkiller.cards import FULL_DECK
from companion.games.serialkiller.rules import CLUES, grave_closed
from companion.games.serialkiller.simulate import Played, play_random

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def games() -> list[Played]:
    return [play_random(NAMES[: 2 + seed % 4], random.Random(seed)) for seed in range(60)]


GAMES = games()


def test_random_games_end_with_one_player_on_the_loose() -> None:
    for played in GAMES:
        final = played.states[-1]
        assert final.phase is Phase.OVER
        assert len(final.active_players) == 1
        assert final.winner == final.players[final.active_players[0]]
        assert sorted(final.arrests) == sorted(p for p in final.players if p != final.winner)


def test_fifty_two_cards_are_always_accounted_for() -> None:
    for played in GAMES:
        for state in played.states:
            out = state.cards_out()
            assert len(out) + len(state.stack) == 52
            assert set(out) | state.stack == FULL_DECK


def test_no_card_drawn_twice_before_a_reshuffle() -> None:
    for played in GAMES:
        seen: set[str] = set()
        for event, before, after in zip(
            played.events, played.states[:-1], played.states[1:], strict=True
        ):
            card = getattr(event, "card", None)
            if card is not None:
                assert card not in seen
                seen.add(card)
            if before.phase is Phase.CHOOSING and after.phase is not Phase.CHOOSING:
                seen = set()  # the deck is shuffled to start the game
            if after.reshuffles != before.reshuffles:
                seen = set()


def test_graves_clues_and_turns_stay_legal() -> None:
    reshuffles = 0
    for played in GAMES:
        for state in played.states:
            assert all(0 <= c <= CLUES for c in state.clues)
            for grave in state.graves:
                roles = Counter(c.role for c in grave)
                assert roles[Role.VICTIM] + roles[Role.CORPSE] <= 1
                if roles[Role.INFORMANT]:
                    assert roles[Role.VICTIM] == 1  # an informant sits on a victim
                if grave_closed(grave):
                    assert grave[-1].role is not Role.MISSED  # nothing goes on a full grave
            for held in state.held:
                assert all(c.role in (Role.CORPSE, Role.INFORMANT) for c in held)
            if state.phase not in (Phase.CHOOSING, Phase.OVER):
                assert state.active(state.current)
        reshuffles += played.states[-1].reshuffles
    assert reshuffles > 0  # the games do reach reshuffles


def test_each_turn_draws_one_card_per_open_grave() -> None:
    for played in GAMES:
        draws = 0
        expected = None
        for event, before, after in zip(
            played.events, played.states[:-1], played.states[1:], strict=True
        ):
            if isinstance(event, Draw):
                if expected is None:
                    expected = len(before.slots)
                    assert expected == sum(not grave_closed(g) for g in before.graves)
                draws += 1
            if after.turn != before.turn or after.phase is Phase.OVER:
                if expected is not None and after.phase is not Phase.OVER:
                    assert draws == expected
                draws, expected = 0, None


def test_logs_replay_from_json_to_the_same_states() -> None:
    for played in GAMES[:20]:
        logged = json.loads(json.dumps([GAME.encode(e) for e in played.events]))
        assert fold(GAME, played.setup, [GAME.decode(d) for d in logged]).states == played.states


@pytest.mark.parametrize("seed", range(5))
def test_undo_anywhere_returns_the_state_before(seed: int) -> None:
    played = GAMES[seed]
    rng = random.Random(seed)
    tl = Timeline.start(GAME, played.setup)
    for event in played.events:
        if rng.random() < 0.2:
            before = tl.state
            probe, _ = tl.push(event)
            probe, _ = probe.push(Undo())
            assert probe.state == before
        tl, _ = tl.push(event)
    assert tl.state == played.states[-1]


def test_seeded_games_repeat() -> None:
    assert (
        play_random(NAMES[:3], random.Random(5)).events
        == play_random(NAMES[:3], random.Random(5)).events
    )
