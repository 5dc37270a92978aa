"""``companion murdero score HAND.json [--json]``: one hand's points, with the reason for each.

HAND.json is a hand entry as :mod:`companion.games.murdero.hand` documents it, plus an optional
top-level ``"pairs": true`` for Partner Murdero. Example: ``docs/examples/murdero-hand.json``.

A game log (set-up and events: ``docs/examples/murdero-game.json``, or the table's export) is
a different file that newcomers hand over just as often: it is named as such, with the command
that reads it, ``--hand N``, which replays the log and scores its N-th hand.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import InputError
from companion.games.base import EventError, RuleError, Timeline
from companion.games.murdero.events import decode_hand
from companion.games.murdero.hand import HandError
from companion.games.murdero.scoring import HandScore, score_hand
from companion.games.murdero.view import score_view
from companion.inputs import load_json, read_text


class MurderoInputError(HandError):
    """A HAND.json that cannot be read as a hand entry (only the CLI reads one, in English)."""

    def __init__(self, reason: str) -> None:
        super().__init__("bad_input", reason)


def register(subparsers: Any) -> None:
    group = subparsers.add_parser("murdero", help="Murdero: score a hand")
    sub = group.add_subparsers(dest="murdero_command", metavar="COMMAND")
    score = sub.add_parser("score", help="each player's points for one hand, with reasons")
    score.add_argument(
        "hand_file", metavar="HAND.json", help="the hand's end as entered at the table ('-' for stdin)"
    )
    score.add_argument("--json", action="store_true", help="print JSON for machines")
    score.add_argument("--hand", type=int, default=None, metavar="N",
                       help="the file is a game log: score its N-th hand (from 1)")
    score.set_defaults(func=_score)


def load_hand(text: str, where: str) -> tuple[HandScore, bool]:
    try:
        data = load_json(text, where)
    except InputError as exc:
        raise MurderoInputError(str(exc)) from None
    if not isinstance(data, dict):
        raise MurderoInputError(f"{where}: a hand must be a JSON object")
    if "events" in data:
        count = len(game_hands(data, where)[0])
        raise MurderoInputError(
            f"{where}: a game log (set-up and events, {count} hand(s)), not one hand; score a "
            f"hand of it with: companion murdero score {where} --hand N"
        )
    pairs = data.pop("pairs", False)
    if not isinstance(pairs, bool):
        raise MurderoInputError(f"{where}: pairs must be true or false")
    try:
        hand = decode_hand(data)
    except EventError as exc:
        raise MurderoInputError(f"{where}: {exc}") from None
    try:
        return score_hand(hand, pairs), pairs
    except HandError as exc:
        raise MurderoInputError(f"{where}: {exc}") from None


def game_hands(data: dict[str, Any], where: str) -> tuple[tuple[HandScore, ...], bool]:
    """The scored hands of a game log, replayed as the table did (corrections and undos
    included), and whether it is Partner Murdero."""
    from companion.games.murdero import GAME

    if "game" in data:  # a table's export (`companion export`, the history's Export JSON)
        if data["game"] != GAME.name:
            raise MurderoInputError(f"{where}: an export of {data['game']!r}, not of Murdero")
        if not isinstance(data.get("events"), list):
            raise MurderoInputError(f"{where}: 'events' must be a list")
        events = [e.get("event") if isinstance(e, dict) and "event" in e else e
                  for e in data["events"]]
    else:
        events = data["events"]
    if not isinstance(events, list):
        raise MurderoInputError(f"{where}: 'events' must be a list")
    try:
        timeline = Timeline.start(GAME, data.get("setup", {}))
        for raw in events:
            timeline, _ = timeline.push(GAME.decode(raw))
    except RuleError as exc:
        raise MurderoInputError(f"{where}: cannot replay the log: {exc}") from None
    state = timeline.state
    return tuple(scored.score for scored in state.hands), state.pairs


def _load(text: str, where: str, number: int | None) -> tuple[HandScore, bool]:
    if number is None:
        return load_hand(text, where)
    try:
        data = load_json(text, where)
    except InputError as exc:
        raise MurderoInputError(str(exc)) from None
    if not isinstance(data, dict) or "events" not in data:
        raise MurderoInputError(f"{where}: --hand N reads a game log (set-up and events)")
    hands, pairs = game_hands(data, where)
    if not 1 <= number <= len(hands):
        have = f"hands 1 to {len(hands)}" if hands else "no hand yet"
        raise MurderoInputError(f"{where}: --hand {number}: the log has {have}")
    return hands[number - 1], pairs


def _score(args: argparse.Namespace) -> int:
    text = read_text(args.hand_file, max_line=None)
    where = "stdin" if args.hand_file == "-" else args.hand_file
    score, pairs = _load(text, where, args.hand)
    if args.json:
        print(json.dumps({"pairs": pairs, **score_view(score)}, indent=2, ensure_ascii=False))
        return 0
    print(
        f"hand ended by {score.ended_by.value.replace('_', ' ')}; winner(s): {', '.join(score.winners) or 'none'}"
    )
    for side in score.sides:
        print(f"\n{side.label}: {side.points} points")
        for line in side.lines:
            print(f"  {line.points:+5d}  {line.reason}")
    return 0
