"""The advisor's thread: a game's figures computed off the table's thread.

The table hands over each new state; only the newest matters, so an older one still waiting
is dropped. Results come back through the inbox with the key they were computed for, and the
table shows them only if the game is still there.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.base import Advisor
from companion.table.state import Game

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Advice:
    """Figures for the state whose advice key was ``key``."""

    key: str
    figures: Mapping[str, Any]


class AdvisorThread:
    """Computes ``advisor.advise(state)`` for the newest state asked for."""

    def __init__(self, post: Callable[[Advice], None]) -> None:
        self._post = post
        self._wanted: queue.Queue[tuple[Advisor[Any], str, Any] | None] = queue.Queue(maxsize=1)
        self._thread: threading.Thread | None = None

    def want(self, game: Game) -> None:
        """Ask for the game's figures if its state has new ones to give."""
        advisor = game.rules.advisor
        key = None if advisor is None else advisor.key(game.state)
        if advisor is not None and key is not None and key != game.advice_for:
            self._ask(advisor, key, game.state)

    def take(self, item: Advice, game: Game) -> bool:
        """Keep figures for the game if it is still where they were computed; True if kept."""
        advisor = game.rules.advisor
        if advisor is None or advisor.key(game.state) != item.key:
            return False  # the table moved on meanwhile
        game.advice_for, game.advice = item.key, dict(item.figures)
        return True

    def _ask(self, advisor: Advisor[Any], key: str, state: Any) -> None:
        """Replace any request not yet begun."""
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name="advisor", daemon=True)
            self._thread.start()
        try:
            self._wanted.get_nowait()
        except queue.Empty:
            pass
        try:
            self._wanted.put_nowait((advisor, key, state))
        except queue.Full:
            pass

    def _run(self) -> None:
        while True:
            item = self._wanted.get()
            if item is None:
                return
            advisor, key, state = item
            try:
                figures = advisor.advise(state)
            except Exception:
                _log.exception("advisor failed for %s", key)
                continue
            self._post(Advice(key, figures))

    def close(self) -> None:
        try:
            self._wanted.get_nowait()
        except queue.Empty:
            pass
        try:
            self._wanted.put_nowait(None)
        except queue.Full:
            pass
        if self._thread is not None:
            self._thread.join(timeout=5.0)


__all__ = ["Advice", "AdvisorThread"]
