"""The table: one thread owns the game; everything that could change it arrives on one inbox.

A still camera reading, a button press, a phone's action, the timer and the clock's tick are
handled in order, so the rules never see two things at once. An event is applied to a copy of
the game (:class:`~companion.games.base.Timeline`, pure), committed to the
:class:`~companion.store.Store`, and only then shown: a power cut can lose nothing a person saw
acknowledged. What lights and sounds comes from the game's typed effects and its
:class:`~companion.games.base.TableView`; this module names no game.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any

from companion.config import Config, ConfigError
from companion.errors import InputError
from companion.games import find_game
from companion.games.base import (
    AnyEffect,
    EventError,
    Refused,
    TableView,
)
from companion.resources import table_rules
from companion.store import Store
from companion.table import signals
from companion.table.advisor import Advice, AdvisorThread
from companion.table.camera import Camera, CameraStatus, Frames, Reader, Seen, Steady
from companion.table.inbox import STOP, Barrier, LoginsLocked, PhoneAction, Press
from companion.table.people import People, TableFault
from companion.table.publish import PhoneView, Publisher
from companion.table.state import Game
from companion.table.timers import TableTimer

_log = logging.getLogger(__name__)

TICK_S = 0.5


class Table(People, PhoneView, AbstractContextManager["Table"]):
    """One table: the game, its log, its panel, its camera, its timer and its phones.

    ``start()`` (or ``with``) starts the threads; ``close()`` stops them, idempotently.
    ``source`` and ``reader`` may be ``None`` (buttons and phones only); ``pin_factory``
    ``None`` means the one the ``[hardware]`` settings name; ``echo`` receives the panel's
    console lines (the demo); ``clock`` is monotonic seconds (tests move it by hand).
    """

    def __init__(
        self, config: Config, store: Store, *, source: Any = None, reader: Reader | None = None,
        pin_factory: Any = None, echo: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic, on_tick: Callable[[], None] | None = None,
    ) -> None:
        from hardware.panel import Panel, PinMap, make_pin_factory

        self.config, self.store = config, store
        self._table = config.section("table")
        self._camera_cfg = config.section("camera")
        self._vision = config.section("vision")
        hw = config.section("hardware")
        self.source, self.reader = source, reader
        self._clock, self._on_tick = clock, on_tick
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._threads: list[threading.Thread] = []
        self._started = self._closed = False
        self.publisher = Publisher(int(config.section("web")["max_streams"]))
        self._frames = Frames(self.publisher, float(self._camera_cfg["read_timeout_s"]))
        self.camera = Camera(self._camera_cfg, self._inbox.put, self._frames, clock, source)
        self._steady = Steady(int(self._vision["stable_frames"]))
        self._advisor = AdvisorThread(self._inbox.put)
        self._advising = bool(self._table["advisor"])
        self._idle_since, self._reminded = clock(), False
        self.game: Game | None = None
        self.timer = TableTimer(store, clock)
        factory = pin_factory if pin_factory is not None else make_pin_factory(hw["pin_factory"])
        self.pins = PinMap.from_config(hw)
        self.panel = Panel(self.pins, self._button, pin_factory=factory, echo=echo)
        try:
            self._resume()
        except BaseException:
            self.panel.close()
            raise

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> Table:
        if self._started:
            return self
        self._started = True
        self._spawn("table", self._loop)
        if self.source is not None and self.reader is not None:
            self.attach_camera(self.source, self.reader)
        return self

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> threading.Thread:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()
        return t

    def __enter__(self) -> Table:
        return self.start()

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads, close the camera and release the pins (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._inbox.put(STOP)
        self._frames.close()
        self.camera.close()
        for t in self._threads:
            t.join(timeout=5.0)
        self._advisor.close()
        if self.source is not None:
            self.source.close()
        self.panel.close()
        self.publisher.close()

    @property
    def alive(self) -> bool:
        """True while the table thread runs (the service's watchdog pings only then)."""
        return any(t.name == "table" and t.is_alive() for t in self._threads)

    # --- the game in progress -------------------------------------------------------------

    def _resume(self) -> None:
        """Fold the game in progress back from the log, or start the configured one."""
        record = self.store.current()
        if record is None:
            self._first_game()
        else:
            self.game = Game.resume(self.store, record, table_rules(record.game))
            self._follow_timer(resume=True)
            self._show()
        self._publish()

    def _first_game(self) -> None:
        """The configured game: ``table.setup`` over ``{"players": table.players}``."""
        game = self._table["game"]
        names = list(self._table["players"])[: len(self.pins.buttons)]
        try:
            find_game(game)
        except InputError as exc:
            raise ConfigError(f"table.game: {exc}") from None
        try:
            self._new_game(game, {"players": names, **self._table["setup"]}, announce=False)
        except InputError as exc:
            raise ConfigError(f"table.setup for {game}: {exc}") from None

    def _new_game(self, name: str, setup: Mapping[str, Any], announce: bool = True) -> None:
        game = Game.create(self.store, table_rules(name), setup, list(self._table["colours"]),
                           len(self.pins.buttons), announce)
        if self.game is not None:
            self.game.abandon()

        def start() -> None:
            self.game = game

        stop = self.camera.unbind(start)
        if stop is not None:
            self._spawn("camera-detach", self.camera.detach, stop,
                        "the camera watched the last game")
        self._steady.reset()
        self.timer.drop()
        self._follow_timer()
        self._show()

    def _view(self) -> TableView:
        assert self.game is not None
        return self.game.table_view()

    def _commit(self, body: Mapping[str, Any], source: str) -> tuple[AnyEffect, ...]:
        """Decode, apply, commit durably, then show. Raises Refused/EventError untouched."""
        assert self.game is not None
        effects = self.game.commit(body, source)
        self._idle_since, self._reminded = self._clock(), False
        signals.sound(self.panel, effects + self._follow_timer())
        self._show()
        return effects

    # --- the timer the game asks for ------------------------------------------------------

    def _follow_timer(self, resume: bool = False) -> tuple[AnyEffect, ...]:
        if self.game is None:
            return ()
        effects = self.timer.follow(self.game.id, self._view().timer, resume)
        if effects:
            self.game.note_effects(effects, "timer")
        return effects

    def _run_timer(self) -> None:
        if self.game is None:
            return
        effects, ended, ticked = self.timer.step(self.game.id)
        if effects:
            self.game.note_effects(effects, "timer")
            signals.sound(self.panel, effects)
        if ended is not None:
            try:
                self._commit(ended.expiry, "timer")
            except (Refused, EventError) as exc:
                _log.info("the timer's end no longer applies: %s", exc)
        if effects or ticked:
            self._changed()

    # --- the inbox ------------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            try:
                item = self._inbox.get(timeout=self._wait())
            except queue.Empty:
                item = None
            if item is STOP:
                return
            try:
                self._handle(item)
                self._tick()
                if isinstance(item, Barrier):  # after the clock's work: drain() waits for it
                    item.done.set()
            except Exception:  # never let one bad message stop the table
                _log.exception("table loop: handling %r failed", item)
                if isinstance(item, PhoneAction) and not item.reply.done():
                    item.reply.set_exception(TableFault("the table could not do that"))
            if self._on_tick is not None:
                self._on_tick()

    def _wait(self) -> float:
        due = self.timer.due()
        return TICK_S if due is None else max(0.0, min(TICK_S, due))

    def _handle(self, item: Any) -> None:
        if isinstance(item, PhoneAction):
            self._do_action(item)
        elif isinstance(item, Press):
            self._do_press(item)
        elif isinstance(item, Seen):
            if not item.camera.is_set():
                self._do_reading(item.reading)
        elif isinstance(item, CameraStatus):
            self._do_camera(item)
        elif isinstance(item, Advice):
            self._do_advice(item)
        elif isinstance(item, LoginsLocked):
            self._locked_until = self._clock() + item.seconds
            self.panel.play(signals.LOGINS_LOCKED)
            self._publish()
        elif item is not None and not isinstance(item, Barrier):
            self._do_reading(item)  # a reading handed over directly (post_reading)

    def _tick(self) -> None:
        """Work the clock does: the timer, a camera gone silent, a player idle on their turn."""
        self._run_timer()
        silent = self.camera.silent()
        if silent is not None:  # a read that hangs cannot be interrupted: say so meanwhile
            self._do_camera(CameraStatus("lost", f"no frame for {silent:.0f} s"))
        reminder = float(self._table["reminder_s"])
        if reminder <= 0 or self._reminded or self.game is None or self._view().over:
            return
        if self._clock() - self._idle_since >= reminder:
            self._reminded = True
            self.panel.play(signals.IDLE)

    def _changed(self) -> None:
        self._show()
        self._publish()
        self._want_advice()

    def _show(self) -> None:
        if self.game is not None:
            view = self._view()
            signals.steady(self.panel, view, camera_lost=self.camera.status["status"] == "lost",
                           asking=self.game.prompt is not None,
                           hurry=self.timer.hurrying(view.on_turn))

    # --- the camera -----------------------------------------------------------------------

    def attach_camera(self, source: Any, reader: Reader, game_id: int | None = None) -> bool:
        """Watch the table through ``source`` (replacing any camera before it).

        ``game_id``: the camera shows that one game only (the demo's recording of its round);
        when another game starts it is detached at once and none of its readings, not even
        those on the way, reach the new game. False (and no camera) when that game is gone.
        """
        self.source, self.reader = source, reader
        return self.camera.attach(source, reader, game_id, lambda: self.game)

    def detach_camera(self, message: str | None = None) -> None:
        """Stop watching: the table runs on buttons and phones alone (status ``none``)."""
        self.camera.detach(None, message)

    def _do_reading(self, reading: Any) -> None:
        if self.game is None or not self._steady.see(reading):
            return
        observe = self.game.rules.observe
        if observe is None or self._view().over:
            return  # nothing to referee: the table is being cleared
        before = (self.game.prompt, self.game.timeline, self.game.shown)
        asked = self.game.observe(observe, reading)
        for event in asked.events:
            self._commit(self.game.rules.encode(event), "camera")
            if reading.frame_at is not None and self.game.last is not None:
                self.game.last["frame_at"] = reading.frame_at  # the latency bench
        if asked.prompt is not None and asked.prompt != before[0]:
            if asked.prompt.refused:
                self.game.refused(Refused(asked.prompt.code, asked.prompt.message), "camera")
            self.panel.play(signals.ASKING)
            _log.info("asking the table (%s)", asked.prompt.code)
        if asked.effects:  # told, not applied: the record stays as it is
            self.game.note_effects(asked.effects, "camera")
            signals.sound(self.panel, asked.effects)
        if asked.effects or (self.game.prompt, self.game.timeline, self.game.shown) != before:
            self._changed()

    def _do_camera(self, item: CameraStatus) -> None:
        was = self.camera.update(item)
        if item.status != "ok":
            self._frames.forget()
        if item.status == "lost" and was != "lost":
            self.panel.play(signals.CAMERA_LOST)
            self._steady.reset()
        if item.status == "none" and self.game is not None:
            self.game.prompt = None  # no camera any more: its questions can never be settled
            self._steady.reset()
        self._show()
        self._publish()

    # --- advice ---------------------------------------------------------------------------

    def _want_advice(self) -> None:
        if self._advising and self.game is not None:
            self._advisor.want(self.game)

    def _do_advice(self, item: Advice) -> None:
        if self.game is not None and self._advisor.take(item, self.game):
            self._publish()

    # --- what the phones see --------------------------------------------------------------

    def _publish(self) -> None:
        assert self.game is not None
        self.publisher.publish({
            **self.game.snapshot(),
            "camera": self.camera.view(),
            # available: the game has figures at all (the phone offers the switch only then)
            "advisor": {"enabled": self._advising and self.game.rules.advisor is not None,
                        "available": self.game.rules.advisor is not None, **self.game.advice},
            "timer": self.timer.view(),
            "logins_locked_s": max(0, round(self._locked_until - self._clock())) or None,
            "panel": {"status": self.panel.status.value},
        })

    # --- for tests and benches (public: the bench measures through them) ------------------

    _locked_until = 0.0

    def lock_logins(self, seconds: float) -> None:
        """The web stopped every PIN login after a burst of wrong PINs: sound the alarm and
        tell every phone, so the table knows someone is guessing (any thread)."""
        self._inbox.put(LoginsLocked(seconds))

    def post_reading(self, reading: Any) -> None:
        """Hand the table a reading as the camera thread does."""
        self._inbox.put(reading)

    def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued message has been handled (the clock's work included)."""
        done = threading.Event()
        self._inbox.put(Barrier(done))
        if not done.wait(timeout):
            raise TimeoutError("the table did not catch up")


__all__ = ["Table", "TableFault"]
