"""``companion murdero score HAND.json [--json]``: one hand's points, with the reason for each.

HAND.json is a hand entry as :mod:`companion.games.murdero.hand` documents it, plus an optional
top-level ``"pairs": true`` for Partner Murdero. Example: ``docs/examples/murdero-hand.json``.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import InputError
from companion.games.base import EventError
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
        "hand", metavar="HAND.json", help="the hand's end as entered at the table ('-' for stdin)"
    )
    score.add_argument("--json", action="store_true", help="print JSON for machines")
    score.set_defaults(func=_score)


def load_hand(text: str, where: str) -> tuple[HandScore, bool]:
    try:
        data = load_json(text, where)
    except InputError as exc:
        raise MurderoInputError(str(exc)) from None
    if not isinstance(data, dict):
        raise MurderoInputError(f"{where}: a hand must be a JSON object")
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


def _score(args: argparse.Namespace) -> int:
    text = read_text(args.hand, max_line=None)
    where = "stdin" if args.hand == "-" else args.hand
    score, pairs = load_hand(text, where)
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
