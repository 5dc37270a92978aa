"""Short ways to drive Serial Killer in tests."""

from __future__ import annotations

from typing import Any

from companion.games.base import Effect, Timeline
from companion.games.serialkiller import GAME, Draw, EndTurn, Hold, Inform, SKState
from companion.games.serialkiller.cards import Card, Rank, sorted_cards


def start(*players: str, first: str | None = "Ann") -> Timeline[SKState]:
    return Timeline.start(GAME, {"players": list(players or ("Ann", "Bob")), "first": first})


def run(tl: Timeline[SKState], *events: Any) -> tuple[Timeline[SKState], list[Effect]]:
    said: list[Effect] = []
    for event in events:
        if isinstance(event, str):
            event = Draw(event)
        tl, effects = tl.push(event)
        said += effects
    return tl, said


def kinds(effects: list[Effect]) -> list[str]:
    return [e.kind for e in effects]


def numbers(state: SKState, n: int) -> list[str]:
    """``n`` number cards still in the victim stack, lowest first."""
    cards = [
        c
        for c in sorted_cards(state.stack)
        if c.rank not in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK)
    ]
    return [str(c) for c in cards[:n]]


def fail_turn(tl: Timeline[SKState], end: bool = True) -> tuple[Timeline[SKState], list[Effect]]:
    """The current player draws only number cards for every open grave (and ends the turn)."""
    tl, said = run(tl, *numbers(tl.state, len(tl.state.slots)))
    if end and tl.state.phase.value == "ending":
        tl, more = run(tl, EndTurn())
        said += more
    return tl, said


def inform_on_bob_four_times(tl: Timeline[SKState]) -> tuple[Timeline[SKState], list[Effect]]:
    """Ann's turn: a King, then four Aces each informing on Bob, a number card, end of turn."""
    return run(tl, "KH", "AS", Inform("Bob"), "AH", Inform("Bob"), "AD", Inform("Bob"),
               "AC", Inform("Bob"), "2S", EndTurn())


def ann_on_her_last_clue_holding_an_ace() -> tuple[Timeline[SKState], list[Effect]]:
    """Two players; Ann kills and holds the Ace of spades, Bob informs on her with the other
    three Aces, then both fail twice: Ann's turn, one clue left, the Ace still in her hand."""
    tl, said = run(start(), "KH", "AS", Hold(), *numbers(start().state, 4), EndTurn())
    tl, more = run(tl, "AH", Inform("Ann"), "AD", Inform("Ann"), "AC", Inform("Ann"), "QH",
                   *numbers(tl.state, 1), EndTurn())
    said += more
    for _ in range(4):  # Ann, Bob, Ann, Bob
        tl, more = fail_turn(tl)
        said += more
    assert tl.state.clues == (1, 4) and tl.state.held[0] == (Card.parse("AS"),)
    return tl, said


__all__ = ["Card", "ann_on_her_last_clue_holding_an_ace", "fail_turn", "inform_on_bob_four_times", "kinds", "numbers", "run", "start"]
