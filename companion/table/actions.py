"""A phone's action as a typed command; the table's own words only.

``{"action": WORD, ...fields}``: the words below belong to the table and mean the same in
every game. Any other word is the game's own (a claim, an answer to the camera…) and goes to
its ``act`` hook, so this file never learns a game's vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import InputError

TABLE_WORDS = ("event", "undo", "new_game", "settings", "timer")


@dataclass(frozen=True)
class ApplyEvent:
    """One game event, as JSON for the game's decoder."""

    body: Mapping[str, Any]


@dataclass(frozen=True)
class TakeBack:
    """Undo the newest event still standing."""


@dataclass(frozen=True)
class NewGame:
    """Start ``game`` with ``setup``; only if game ``replaces`` is still the table's."""

    game: str | None
    setup: Mapping[str, Any]
    replaces: int | None = None


@dataclass(frozen=True)
class Settings:
    advisor: bool


@dataclass(frozen=True)
class PauseTimer:
    """Pause (or go on with) the timer the game is running."""

    pause: bool


@dataclass(frozen=True)
class GameWords:
    """A word of the game's own, for its ``act`` hook."""

    word: str
    fields: Mapping[str, Any]


Command = ApplyEvent | TakeBack | NewGame | Settings | PauseTimer | GameWords


def parse(action: Any) -> Command:
    """The command a phone's action asks for; :class:`InputError` with a one-line reason."""
    if not isinstance(action, Mapping) or not isinstance(action.get("action"), str):
        raise InputError('an action is a JSON object with an "action" name')
    word = action["action"]
    fields = {k: v for k, v in action.items() if k != "action"}
    if word == "event":
        event = fields.get("event")
        if not isinstance(event, Mapping) or set(fields) != {"event"}:
            raise InputError('"event" needs one field "event" holding a game event')
        return ApplyEvent(event)
    if word == "undo":
        if fields:
            raise InputError(f"undo takes no fields, got {', '.join(sorted(fields))}")
        return TakeBack()
    if word == "new_game":
        game, setup, replaces = fields.get("game"), fields.get("setup"), fields.get("replaces")
        if (game is not None and not isinstance(game, str)) or not isinstance(setup, Mapping):
            raise InputError('new_game needs "game" (a name) and "setup" (an object)')
        if replaces is not None and (not isinstance(replaces, int) or isinstance(replaces, bool)):
            raise InputError('new_game: "replaces" is a game number')
        return NewGame(game, setup, replaces)
    if word == "settings":
        if set(fields) != {"advisor"} or not isinstance(fields["advisor"], bool):
            raise InputError('settings: only {"advisor": true|false} can be changed here')
        return Settings(fields["advisor"])
    if word == "timer":
        if set(fields) != {"pause"} or not isinstance(fields["pause"], bool):
            raise InputError('timer needs {"pause": true|false}')
        return PauseTimer(fields["pause"])
    return GameWords(word, fields)


__all__ = ["TABLE_WORDS", "Command", "parse"]
