"""What the room needs of a game after each of its events, folded from the log.

The board has no rules: it shows what a table says. So the publisher, which reads the log
anyway, folds each game as the table does (:class:`~companion.games.base.Timeline`) and sends
with every event the game's standing after it: players, scores, whose turn, over, winners.
The table's own thread is never asked; a restart folds the game again from its events.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from companion.games.base import EventError, GameRules, Refused, Timeline, Undo
from companion.resources import table_rules
from companion.store import GameRecord, Store

_log = logging.getLogger(__name__)


class Folder:
    """The newest game folded so far; the next event of the same game is one step."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._game: GameRecord | None = None
        self._rules: GameRules[Any] | None = None
        self._timeline: Timeline[Any] | None = None
        self._seq = 0

    def summary(self, game_id: int, seq: int, body: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The game's standing after its event ``seq`` (0: as it was set up). ``body`` is that
        event when it is the next one after the last asked for (saves reading the log)."""
        if self._game is None or self._game.id != game_id or seq < self._seq or (
                seq > self._seq + 1 or (seq == self._seq + 1 and body is None)):
            self._refold(game_id, seq)
        elif seq == self._seq + 1 and body is not None:
            self._push(body, seq)
        assert self._game is not None and self._rules is not None and self._timeline is not None
        return _standing(self._game, self._rules, self._timeline, seq)

    def _refold(self, game_id: int, seq: int) -> None:
        self._game = self._store.game(game_id)
        self._rules = table_rules(self._game.game)
        self._timeline = Timeline.start(self._rules, self._game.setup)
        self._seq = 0
        for event in self._store.events(game_id):
            if event.seq > seq:
                break
            self._push(event.body, event.seq)

    def _push(self, body: Mapping[str, Any], seq: int) -> None:
        assert self._rules is not None and self._timeline is not None
        self._seq = seq
        try:
            event = Undo() if body.get("type") == "undo" else self._rules.decode(body)
            self._timeline, _ = self._timeline.push(event)
        except (Refused, EventError) as exc:  # kept in the log, skipped as on resume
            _log.error("club: event %d of game %s no longer applies: %s", seq,
                       None if self._game is None else self._game.id, exc)


def _standing(game: GameRecord, rules: GameRules[Any], timeline: Timeline[Any],
              seq: int) -> dict[str, Any]:
    table = rules.table(timeline.state)
    extra = rules.view(timeline.state).get("players") or []
    scores = {str(p.get("name")): p.get("total") for p in extra if isinstance(p, Mapping)}
    names = list(table.players)
    return {
        "game": rules.name, "title": rules.title, "game_id": game.id, "seq": seq,
        "players": [{"name": n, "score": _score(scores.get(n))} for n in names],
        "on_turn": None if table.over or table.on_turn is None else names[table.on_turn],
        "over": table.over,
        "winners": [names[i] for i in table.winners if i < len(names)] if table.over else [],
        "reason": table.reason if table.over else None,
    }


def _score(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


__all__ = ["Folder"]
