"""What the phones, the table and the buttons make of a state of Wort-Kniffel."""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import Advisor, EventError, Refused, TableView, TimerRequest
from companion.games.kniffel.advice import advise
from companion.games.kniffel.lexicon import Lexicon
from companion.games.kniffel.pad import BOXES, UPPER, Box
from companion.games.kniffel.rules import ROLLS_PER_TURN, KniffelState
from companion.games.kniffel.solver import best_boxes, rank


def hourglass_running(state: KniffelState) -> bool:
    """The sand runs from a turn's first throw (or the button) until it is out or the turn
    ends; one rule, so the table's timer and the page's ring never disagree."""
    return not state.finished and (state.rolls > 0 or state.started) and not state.time_up


def table_view(state: KniffelState) -> TableView:
    """The player on turn; the hourglass runs from a turn's first throw until time is up."""
    over = state.finished
    timer = None
    if hourglass_running(state):
        timer = TimerRequest(
            key=f"hourglass/{state.turn}", seconds=float(state.hourglass_s), seat=state.current,
            expiry={"type": "time_up", "turn": state.turn},
        )
    best = max(p.total for p in state.pads)
    return TableView(
        players=state.players,
        on_turn=None if over else state.current,
        over=over,
        winners=tuple(i for i, p in enumerate(state.pads) if p.total == best) if over else (),
        timer=timer,
        reason="most_points" if over else None,
    )


def _chart(state: KniffelState) -> list[list[int]]:
    """Each player's total after each of their turns: the chart's lines, one point a round."""
    lines: list[list[int]] = [[] for _ in state.players]
    for w in state.written:
        lines[w.seat].append(w.total)
    return lines


def view(state: KniffelState) -> dict[str, Any]:
    words: list[dict[str, list[str]]] = [{} for _ in state.players]
    for w in state.written:
        words[w.seat][w.box.value] = list(w.words)
    return {
        "game": "kniffel",
        "players": [{"name": n, **p.view(), "words": words[i]}
                    for i, (n, p) in enumerate(zip(state.players, state.pads))],
        "current": None if state.finished else state.players[state.current],
        "seat": None if state.finished else state.current,
        "round": min(state.round, len(BOXES)),
        "rounds": len(BOXES),
        "turn": state.turn,
        "roll": None if state.roll is None else str(state.roll),
        "throw": None if state.roll is None else [
            {"letter": f.letter, "value": f.value} for f in state.roll.faces],
        "kept": list(state.kept),
        "rolls": state.rolls,
        "rolls_left": ROLLS_PER_TURN - state.rolls,
        "hourglass_s": state.hourglass_s,
        "hourglass": hourglass_running(state),
        "time_up": state.time_up,
        "finished": state.finished,
        "winners": list(state.winners()) if state.finished else [],
        "boxes": [b.value for b in BOXES],
        "upper_boxes": [b.value for b in UPPER],
        "can_extra": not state.finished and state.pad[Box.KNIFFEL] == 50,
        "chart": _chart(state),
        "dice": list(state.dice.notation()),
        "letters": sorted({f.letter for die in state.dice.dice for f in die}),
    }


# --- the buttons ------------------------------------------------------------------------------


def press(state: KniffelState, seat: int, gesture: str) -> Mapping[str, Any] | None:
    """What a seat's button means in Wort-Kniffel (``GAME.press``).

    The dice, the words and the pad are the players' business; the button does the one thing
    a player's hand is free for at the start of a turn: turning the hourglass.

    - **short press** (``next``) by the player on turn, before the first throw: turn the
      hourglass (the sand runs without waiting for the camera). A press by another seat is
      refused (``not_your_turn``), a press while it runs is refused (``hourglass_running``).
    - **long press** (``claim``) and **double press** (``quit``): nothing during play (the
      runtime's own extra after the game: a long press starts the same table again).
    """
    if state.finished or gesture != "next" or not 0 <= seat < len(state.players):
        return None
    if seat != state.current:
        raise Refused("not_your_turn", f"it is {state.players[state.current]}'s turn",
                      player=state.players[state.current])
    return {"type": "start_hourglass"}


# --- the phones' own words --------------------------------------------------------------------


def act(state: KniffelState, word: str, fields: Mapping[str, Any]) -> Sequence[Mapping[str, Any]]:
    """The phone's words: ``throw`` (typed dice, or the camera's question answered: a new
    throw, or the current one corrected when ``fix`` is true), ``enter``, ``zero``."""
    if word == "throw":
        dice = fields.get("dice")
        if not isinstance(dice, str):
            raise EventError("throw: 'dice' in notation, e.g. \"T2 O3 R2 E1 I1 C4 H3\"")
        fix = fields.get("fix", False)
        return [{"type": "fix_throw" if fix is True else "throw", "dice": dice}]
    if word in ("enter", "zero"):
        box = fields.get("box")
        if not isinstance(box, str):
            raise EventError(f"{word}: 'box' names a box")
        if word == "zero":
            return [{"type": "zero", "box": box}]
        words = fields.get("words", [])
        return [{"type": "enter", "box": box, "words": words,
                 "table_ok": fields.get("table_ok", False)}]
    raise EventError(f"Wort-Kniffel has no phone action {word!r}")


# --- the advisor ------------------------------------------------------------------------------


def advisor(lexicon: Lexicon) -> Advisor[KniffelState]:
    """The best entry of every open box for the throw on the table, and which dice to keep.

    Off the table's thread (the re-roll advice weighs thousands of throws, about 0.4 s);
    seeded by the throw, so the same throw always shows the same figures.
    """

    def key(state: KniffelState) -> str | None:
        if state.finished or state.roll is None or state.time_up:
            return None
        return f"{state.turn}/{state.rolls}/{state.roll}"

    def figures(state: KniffelState) -> Mapping[str, Any]:
        assert state.roll is not None
        pad = state.pad
        entries = best_boxes(state.roll, lexicon, pad.open_boxes)
        best = [{"box": r.entry.box.value, "value": r.value, "bonus": r.bonus_secured,
                 **r.entry.view()} for r in rank(entries.values(), pad.upper)]
        out: dict[str, Any] = {"best": best, "keep": None}
        left = ROLLS_PER_TURN - state.rolls
        if left > 0:
            rng = random.Random(zlib.crc32(str(state.roll).encode()))
            found = advise(state.roll, lexicon, state.dice, left, rng, pad.open_boxes, pad.upper)
            stand = next(o for o in found.options if len(o.keep) == len(state.roll.faces))
            out["keep"] = {"dice": list(found.best.keep), "expected": round(found.best.expected, 1),
                           "stand": round(stand.expected, 1)}
        return out

    return Advisor(key=key, advise=figures)
