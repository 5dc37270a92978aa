"""What can happen in a Murdero game as the table records it, as frozen values and their JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import EventError
from companion.games.codec import EventCodec
from companion.games.murdero.hand import HandEnd


@dataclass(frozen=True)
class HandEntered:
    hand: HandEnd


@dataclass(frozen=True)
class HandCorrected:
    """Replace hand ``number`` (1-based) of the current game with a corrected entry."""

    number: int
    hand: HandEnd


@dataclass(frozen=True)
class NextTurn:
    """The player on turn is done: play passes to the left (the table's lights follow)."""


@dataclass(frozen=True)
class NewGame:
    players: tuple[str, ...] | None = None
    pairs: bool | None = None


CODEC = EventCodec([HandEntered, HandCorrected, NextTurn, NewGame])


def decode_hand(obj: Mapping[str, Any]) -> HandEnd:
    """A hand entry from its JSON object (see :mod:`companion.games.murdero.hand`)."""
    _require(obj, ("players", "ended_by"), "hand")
    players = obj.get("players")
    if isinstance(players, list):
        for i, player in enumerate(players):
            _require(player, ("name",), f"hand.players[{i}]")
            cases = player.get("cases", [])
            if isinstance(cases, list):
                for j, case in enumerate(cases):
                    _require(case, ("colour",), f"hand.players[{i}].cases[{j}]")
    try:
        event = CODEC.decode({"type": "hand_entered", "hand": obj})
    except EventError as exc:
        # the codec nests the path once per level; keep the innermost, which names the field
        inner = str(exc).replace("hand_entered.", "").split(": ")
        while len(inner) > 2 and inner[0].startswith("hand") and inner[1].startswith("hand"):
            inner = inner[1:]
        raise EventError(": ".join(inner)) from None
    hand: HandEnd = event.hand
    return hand


def _require(obj: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(obj, Mapping):
        raise EventError(f"{where}: expected a JSON object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise EventError(f"{where}: missing field {missing[0]!r}")


def encode_hand(hand: HandEnd) -> dict[str, Any]:
    data: dict[str, Any] = CODEC.encode(HandEntered(hand))["hand"]
    return data


__all__ = ["CODEC", "HandCorrected", "HandEntered", "NewGame", "NextTurn", "decode_hand", "encode_hand"]
