"""What people do at the table: a phone's action and a seat's button, turned into events.

Split from the table's loop (``loop.py``), which owns the thread, the game and the camera; this
part only decides what an action or a press means and hands the events to the loop's commit.
The :class:`~companion.table.loop.Table` is the only class that mixes it in, as it does
:class:`~companion.table.publish.PhoneView`.
"""

from __future__ import annotations

import copy
import logging
import queue
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any

from companion.errors import CompanionError, InputError
from companion.games.base import AnyEffect, EventError, Refused, TableView
from companion.store import StoreError
from companion.table import actions, signals
from companion.table.inbox import PhoneAction, Press
from companion.table.state import Game
from companion.table.timers import TableTimer

_log = logging.getLogger(__name__)

SUBMIT_TIMEOUT_S = 10.0


class TableFault(CompanionError, RuntimeError):
    """Root of the table's own errors."""


class People:
    """Phones and buttons; what they need of the table is declared here and given by it."""

    game: Game | None
    panel: Any
    timer: TableTimer
    _inbox: queue.Queue[Any]
    _started: bool
    _closed: bool
    _advising: bool
    _steady: Any
    _commit: Callable[[Mapping[str, Any], str], tuple[AnyEffect, ...]]
    _new_game: Callable[..., None]
    _view: Callable[[], TableView]
    _changed: Callable[[], None]
    _publish: Callable[[], None]
    _want_advice: Callable[[], None]
    snapshot: Callable[[], dict[str, Any]]

    def submit(self, action: Mapping[str, Any], source: str = "web") -> dict[str, Any]:
        """Carry out a phone's action; returns the snapshot once the event is on disk.

        ``source`` names who acted in the log (``web``; the demo's director says ``demo``).
        """
        actions.parse(action)  # a malformed action is refused here, on the caller's thread
        if not self._started or self._closed:
            raise TableFault("the table is not running")
        reply: Future[dict[str, Any]] = Future()
        self._inbox.put(PhoneAction(copy.deepcopy(dict(action)), source, reply))
        return reply.result(timeout=SUBMIT_TIMEOUT_S)

    def _do_action(self, item: PhoneAction) -> None:
        assert self.game is not None
        try:
            self._act(actions.parse(item.body), item.source)
        except (Refused, EventError, InputError, StoreError) as exc:
            if isinstance(exc, Refused):
                self._refused(exc, item.source, None)
                self._publish()
            if isinstance(exc, StoreError):  # nothing was applied: the game stands as it was
                _log.error("an action could not be recorded: %s", exc)
                self.panel.play(signals.LOG_FAILED)
            item.reply.set_exception(exc)
            return
        if self.game.last is not None and self.game.last.get("source") == item.source:
            self.game.last["action"] = item.body["action"]
        self._changed()
        item.reply.set_result(self.snapshot())

    def _act(self, command: actions.Command, source: str) -> None:
        assert self.game is not None
        if isinstance(command, actions.ApplyEvent):
            self._commit_all([command.body], source, answers=False)
        elif isinstance(command, actions.TakeBack):
            self._commit({"type": "undo"}, source)
        elif isinstance(command, actions.GameWords):
            act = self.game.rules.act
            if act is None:
                known = ", ".join(actions.TABLE_WORDS)
                raise InputError(f"unknown action {command.word!r}; known: {known}")
            try:
                bodies = act(self.game.state, command.word, command.fields)
            except EventError as exc:  # a word or fields the game does not know: bad input
                raise InputError(str(exc)) from None
            prompt = self.game.prompt
            self._commit_all(bodies, source, prompt is not None and command.word in prompt.answers)
        elif isinstance(command, actions.NewGame):
            if command.replaces is not None and command.replaces != self.game.id:
                raise InputError(f"game {self.game.id} has taken the table, "
                                 f"not game {command.replaces}")
            self._new_game(command.game or self.game.rules.name, command.setup)
        elif isinstance(command, actions.Settings):
            self._advising = command.advisor
            self._want_advice()
        elif isinstance(command, actions.PauseTimer):
            self.timer.pause(self.game.id, command.pause)

    def _commit_all(self, bodies: Sequence[Mapping[str, Any]], source: str,
                    answers: bool) -> None:
        """Several events all or nothing: tried on a copy of the game before any is logged.
        ``answers``: they answer the camera's question (look again with the answer in place)."""
        assert self.game is not None
        self.game.trial(bodies)
        for body in bodies:
            self._commit(body, source)
        if answers:
            self.game.answered()
            self._steady.reset()

    def _refused(self, exc: Refused, source: str, seat: int | None) -> None:
        assert self.game is not None
        self.game.refused(exc, source)
        if seat is not None:
            self.panel.flash_claim(seat, False)
        if source != "camera":  # the camera's refusals become a question, with its own tune
            self.panel.play(signals.REFUSED)

    # --- buttons --------------------------------------------------------------------------

    def _button(self, press: Any) -> None:
        """Panel callback (gpiozero's thread): queue it for the table thread."""
        self._inbox.put(Press(press.seat, press.press.value))

    def _do_press(self, item: Press) -> None:
        """A seat's gesture: the game says what it means (``GameRules.press``)."""
        assert self.game is not None
        view = self._view()
        try:
            if view.over:
                if item.press == "claim":  # a long press after the end: the same table again
                    self._new_game(self.game.rules.name, self.game.replay_setup(view))
                    self._changed()
                return
            press = self.game.rules.press
            if press is None or item.seat >= len(view.players):
                return  # a game without button actions, or a button at an empty seat
            body = press(self.game.state, item.seat, item.press)
            if body is None:
                _log.debug("seat %d %s means nothing now", item.seat, item.press)
                return
            self._commit(body, "button")
        except Refused as exc:
            self._refused(exc, "button", item.seat)
            self._publish()
            return
        self._changed()


__all__ = ["People", "SUBMIT_TIMEOUT_S", "TableFault"]
