"""The table loop: frames, button presses and phone actions in; events, LEDs, buzzer and
dashboard updates out.

One thread owns the game (``table``): everything that could change it — a stable camera
reading, a button press, a phone's action, a tick of the clock — arrives on one queue and is
handled in order, so the rules never see two things at once. An event is first applied to a
copy of the game (:class:`~companion.games.base.Timeline`, pure), then committed to the
:class:`~companion.store.Store`, and only then shown: a power cut can lose nothing that a
person saw acknowledged.

The camera runs in its own thread (``camera``): it opens the source, reads frames at the
configured rate, hands each to the reader and posts the :class:`TableReading`. When the camera
is lost the table keeps running (buttons and phones still work), the status LED shows it, the
snapshot says ``camera.status == "lost"``, and the thread reopens with doubling backoff.

Vision never decides the game. A reading becomes events only when it is *still* (no hand over
the grid) and the same ``stable_frames`` times in a row. Cells the reader is unsure of
(``'?'``), readings the rules call impossible (``impossible_reading``) or otherwise refuse, and
readings that contradict the board all become a *prompt*: the buzzer asks, the status LED
blinks, the snapshot carries ``prompt`` for the phones, and nothing is guessed. A prompt goes
away when a later still reading agrees with the game, or when someone answers it on the phone
(``resolve`` / ``correct``).

The clock and every thread live here, never in ``companion.games``.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol

from companion.config import Config, ConfigError
from companion.errors import CompanionError, InputError
from companion.games import find_game, table_rules
from companion.games.base import Effect, EventError, GameRules, Refused, Timeline, Undo
from companion.store import Store
from web import protocol as _protocol

_log = logging.getLogger(__name__)

SIZE = 6
UNSURE = "?"
HIDDEN = "."
SUBMIT_TIMEOUT_S = 10.0


class RuntimeFault(CompanionError, RuntimeError):
    """Root of the runtime's own errors."""


Busy = _protocol.Busy  # every live-stream slot is taken (the web answers 503)


# --- what vision hands the runtime ---------------------------------------------------------------


@dataclass(frozen=True)
class TableReading:
    """One frame as the runtime needs it: 36 cell characters and whether the table was still.

    ``cells`` uses the board notation per cell (``M Ö R D E``, ``X`` victim, ``.`` face down)
    plus ``?`` for a cell the reader is not sure of, row by row from the top left.
    ``candidates`` lists, for unsure cells (index 0–35), the letters it might be, for the prompt.
    ``corners``: the grid's four outer corners in the image (TL, TR, BR, BL), to draw.
    ``rotations``: how far each letter is turned (0/90/180/270), so the dashboard draws it so.
    """

    cells: str
    still: bool = True
    candidates: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    corners: tuple[tuple[float, float], ...] | None = None
    rotations: tuple[int, ...] | None = None  # per cell, clockwise degrees of the letter
    frame_at: float | None = None  # time.perf_counter() when the frame was read (latency)

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE * SIZE:
            raise ValueError(f"a reading has {SIZE * SIZE} cells, not {len(self.cells)}")

    @classmethod
    def from_grid(cls, grid: str, still: bool = True, **kw: Any) -> TableReading:
        """From the notation of ``companion vision read-grid`` (rows joined by ``/``)."""
        rows = grid.split("/")
        if len(rows) != SIZE or any(len(r) != SIZE for r in rows):
            raise ValueError(f"not a 6x6 grid: {grid!r}")
        cells = "".join(rows).upper().replace("O", "Ö")
        return cls(cells, still, **kw)


class TableReader(Protocol):
    """Frames to readings; raises ``vision.VisionError`` when no grid is in the frame."""

    def __call__(self, image: Any) -> TableReading: ...


# --- messages on the table queue -----------------------------------------------------------------


@dataclass(frozen=True)
class _Action:
    body: Mapping[str, Any]
    source: str
    reply: Future[dict[str, Any]]


@dataclass(frozen=True)
class _Press:
    seat: int
    press: str  # next | claim | quit


@dataclass(frozen=True)
class _Camera:
    status: str  # ok | lost | none
    message: str | None = None
    retry_in: float | None = None


@dataclass(frozen=True)
class _Seen:
    """A reading from an attached camera; dropped once that camera is stopped (``camera``
    is its stop event), so a frame of a detached camera never reaches the game."""

    reading: TableReading
    camera: threading.Event


@dataclass(frozen=True)
class _Advice:
    board: str
    figures: Mapping[str, Any]


@dataclass(frozen=True)
class _Barrier:
    done: threading.Event


_STOP = object()

# ``signal`` effects: their tune word to the panel's tune
_SIGNAL_TUNES = {
    "valid": "claim_valid",
    "invalid": "claim_invalid",
    "reminder": "reminder",
    "alarm": "alarm",
}

# effects any game may emit that sound a tune of the same name
_TUNE_EFFECTS = {
    "timer_warning": "timer_warning",
    "timer_expired": "timer_expired",
    "reminder": "reminder",
    "alarm": "alarm",
}


class Runtime(AbstractContextManager["Runtime"]):
    """One table: the game, its log, its panel, its camera and its phones.

    Implements ``web.protocol.TableAPI``. ``start()`` (or ``with``) starts the threads;
    ``close()`` stops them, idempotently. ``source`` and ``reader`` may be ``None`` (a table
    with no camera: buttons and phones only); ``pin_factory`` ``None`` means the one the
    ``[hardware]`` settings name; ``echo`` receives the panel's console lines (the demo).
    """

    def __init__(
        self,
        config: Config,
        store: Store,
        *,
        source: Any = None,
        reader: TableReader | None = None,
        pin_factory: Any = None,
        echo: Callable[[str], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_tick: Callable[[], None] | None = None,
        advisor: Callable[[str], Mapping[str, Any]] | None = None,
    ) -> None:
        from hardware.panel import Panel, PinMap, make_pin_factory

        self.config = config
        self.store = store
        self._table = config.section("table")
        self._camera_cfg = config.section("camera")
        self._vision = config.section("vision")
        self._web = config.section("web")
        hw = config.section("hardware")
        self.source = source
        self.reader = reader
        self._clock = clock
        self._on_tick = on_tick
        self._advisor_fn = advisor if advisor is not None else _default_advisor()
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._lock = threading.RLock()  # guards the snapshot and the subscribers
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._camera_thread: threading.Thread | None = None
        self._camera_stop = threading.Event()
        self._camera_game: int | None = None  # the one game the attached camera watches
        self._started = False
        self._closed = False

        # game state (owned by the table thread after start)
        self.rules: GameRules[Any] | None = None
        self.timeline: Timeline[Any] | None = None
        self.game_id: int | None = None
        self._colours: list[str] = []
        self._stable: tuple[str, int] | None = None  # (cells, times seen in a row)
        self._prompt: dict[str, Any] | None = None
        self._last: dict[str, Any] | None = None
        self._rotations: list[list[int]] | None = None
        self._lit: int | None = None  # seat on turn, from ``turn`` effects (games without view.turn)
        self._winners: list[int] | None = None  # from ``winner`` effects
        self._seen: str | None = None  # the last believed reading
        self._frame_at: float | None = None
        # cell -> what the camera saw there and people overruled
        self._confirmed: dict[int, set[str]] = {}
        self._camera: dict[str, Any] = {
            "status": "none",
            "source": getattr(source, "name", None),
            "message": None,
            "retry_in": None,
            "fps": None,
        }
        self._advice: dict[str, Any] = {
            "enabled": bool(self._table["advisor"]) and self._advisor_fn is not None,
            "possible": None,
            "p_end": None,
            "p_end_se": None,
        }
        self._advice_for: str | None = None
        self._advice_wanted: queue.Queue[str | None] = queue.Queue(maxsize=1)
        self._last_activity = clock()
        self._reminded = False
        self._last_frame_at: float | None = None
        self._fps: float | None = None  # frames per second the camera delivers (smoothed)
        self._reading = False  # the camera thread is inside the vision reader
        self._fps_prev: float | None = None

        # what the phones see
        self._version = 0
        self._snapshot: dict[str, Any] = {}
        self._subscribers: set[_Subscription] = set()
        self._max_streams = int(self._web["max_streams"])
        self._frame_jpeg: bytes | None = None
        self._frame_seq = 0
        self._frame_cond = threading.Condition()

        factory = pin_factory if pin_factory is not None else make_pin_factory(hw["pin_factory"])
        self.pins = PinMap.from_config(hw)
        self.panel = Panel(self.pins, self._button, pin_factory=factory, echo=echo)
        try:
            self._resume()
        except BaseException:
            self.panel.close()
            raise

    # --- lifecycle --------------------------------------------------------------------------

    def start(self) -> Runtime:
        if self._started:
            return self
        self._started = True
        self._spawn("table", self._table_loop)
        if self.source is not None and self.reader is not None:
            self.attach_camera(self.source, self.reader)
        if self._advice["enabled"]:
            self._spawn("advisor", self._advisor_loop)
        return self

    def _spawn(self, name: str, target: Callable[..., None], *args: Any) -> threading.Thread:
        t = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads = [x for x in self._threads if x.is_alive()] + [t]
        t.start()
        return t

    def attach_camera(self, source: Any, reader: TableReader, game_id: int | None = None) -> bool:
        """Watch the table through ``source`` (replacing any camera before it).

        ``game_id``: the camera shows that one game only (the demo's recording of its round).
        When another game starts, the camera is detached at once and none of its readings,
        not even those already on the way, reach the new game. False (and no camera) when that
        game is no longer the table's.
        """
        self.detach_camera()
        with self._lock:
            if game_id is not None and game_id != self.game_id:
                source.close()
                return False
            self.source, self.reader = source, reader
            self._camera_stop = threading.Event()
            self._camera_game = game_id
            self._camera["source"] = getattr(source, "name", None)
            self._camera_thread = self._spawn("camera", self._camera_loop, source, reader,
                                              self._camera_stop)
        return True

    def detach_camera(self, message: str | None = None) -> None:
        """Stop watching: the table runs on buttons and phones alone (status ``none``)."""
        self._detach(None, message)

    def _detach(self, only: threading.Event | None, message: str | None) -> None:
        """Detach the camera (``only``: if it is still the one with that stop event)."""
        with self._lock:
            stop, thread, source = self._camera_stop, self._camera_thread, self.source
            if thread is None or (only is not None and stop is not only):
                return
            self._camera_thread = None
            self._camera_game = None
            stop.set()  # its readings still queued are dropped from now on
            self._inbox.put(_Camera("none", message))
        if thread is not threading.current_thread():
            thread.join(timeout=5.0)
        if source is not None:
            source.close()

    def __enter__(self) -> Runtime:
        return self.start()

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Stop the threads, close the camera and release the pins (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._stopping.set()
        self._inbox.put(_STOP)
        try:
            self._advice_wanted.put_nowait(None)
        except queue.Full:
            pass
        with self._frame_cond:
            self._frame_cond.notify_all()
        self._camera_stop.set()
        for t in self._threads:
            t.join(timeout=5.0)
        if self.source is not None:
            self.source.close()
        self.panel.close()
        with self._lock:
            for sub in list(self._subscribers):
                sub.put(None)

    @property
    def alive(self) -> bool:
        """True while the table thread runs (the service's watchdog pings only then)."""
        return any(t.name == "table" and t.is_alive() for t in self._threads)

    # --- the game in progress ---------------------------------------------------------------

    def _resume(self) -> None:
        """Fold the game in progress back from the log, or start the configured one."""
        record = self.store.current()
        if record is None:
            self._first_game()
            self._publish()
            return
        rules = table_rules(record.game)
        timeline = Timeline.start(rules, record.setup)
        skipped = 0
        for ev in self.store.events(record.id):
            try:
                event = Undo() if ev.body.get("type") == "undo" else rules.decode(ev.body)
                timeline, _ = timeline.push(event)
            except (Refused, EventError) as exc:  # a log from other rules: keep it, skip it
                skipped += 1
                _log.error("game %d event %d no longer applies: %s", record.id, ev.seq, exc)
        self.rules, self.timeline, self.game_id = rules, timeline, record.id
        self._colours = [c for _, c in record.players]
        _log.info(
            "resumed game %d (%s) from %d events%s", record.id, record.game,
            record.events, f", {skipped} skipped" if skipped else "",
        )
        self._show_state()
        self._publish()

    def _first_game(self) -> None:
        """The configured game: ``table.setup`` over ``{"players": table.players}``, the same
        for every game (each game's own defaults fill in what the set-up leaves out)."""
        game = self._table["game"]
        names = list(self._table["players"])[: len(self.pins.buttons)]
        setup = {"players": names, **self._table["setup"]}
        try:
            find_game(game)
        except InputError as exc:
            raise ConfigError(f"table.game: {exc}") from None
        try:
            self._new_game(game, setup, announce=False)
        except InputError as exc:
            raise ConfigError(f"table.setup for {game}: {exc}") from None

    def _new_game(self, game: str, setup: Mapping[str, Any], announce: bool = True) -> None:
        rules = table_rules(game)
        try:
            timeline = Timeline.start(rules, setup)
        except EventError as exc:
            raise InputError(str(exc)) from None
        view = rules.view(timeline.state)
        names = [str(p.get("name") or f"Spieler {i + 1}") for i, p in enumerate(_players(view))]
        if len(names) > len(self.pins.buttons):
            raise InputError(
                f"{len(names)} players, but the table has {len(self.pins.buttons)} buttons"
            )
        colours = list(self._table["colours"])
        seats = [(n, colours[i % len(colours)] if colours else "") for i, n in enumerate(names)]
        if self.game_id is not None and self.timeline is not None:
            self.store.end_game(self.game_id, self._result(abandoned=True))
        game_id = self.store.new_game(rules.name, rules.title, dict(setup), seats)
        with self._lock:  # one step with attach_camera's look at the game in progress
            stop = self._camera_stop
            bound = self._camera_game is not None and self._camera_thread is not None
            if bound:  # the camera watched the game that just ended: nothing to say here
                stop.set()  # before the new game exists, so no old frame reaches it
            self.rules, self.timeline, self.game_id = rules, timeline, game_id
        if bound:
            self._spawn("camera-detach", self._detach, stop, "the camera watched the last game")
        self._colours = [c for _, c in seats]
        self._prompt = None
        self._stable = None
        self._rotations = None
        self._lit = None
        self._winners = None
        self._seen = None
        self._confirmed = {}
        self._advice.update(possible=None, p_end=None, p_end_se=None)
        self._advice_for = None
        _log.info("new game %d: %s with %s", game_id, rules.name, ", ".join(names))
        if announce:
            self._last = {"kind": "effects", "source": "system", "effects": [
                {"kind": "new_game", "data": {"game": rules.name, "game_id": game_id}}
            ], "code": None, "reason": None}
        self._show_state()

    def _view(self) -> dict[str, Any]:
        assert self.rules is not None and self.timeline is not None
        return self.rules.view(self.timeline.state)

    def _result(self, abandoned: bool = False) -> dict[str, Any]:
        view = self._view()
        winner = view.get("winner")
        names = [p.get("name") for p in _players(view)]
        seats = _winner_seats(view)
        together = " & ".join(str(names[s]) for s in seats if s < len(names)) if seats else None
        return {
            "winner": names[winner] if isinstance(winner, int) and winner < len(names) else together,
            "reason": "abandoned" if abandoned else view.get("win_reason"),
        }

    def _apply(self, body: Mapping[str, Any], source: str) -> tuple[Effect, ...]:
        """Decode, apply, commit durably, then show. Raises Refused/EventError untouched."""
        assert self.rules is not None and self.timeline is not None and self.game_id is not None
        event = Undo() if body.get("type") == "undo" else self.rules.decode(body)
        was_over = self._view().get("phase") == "over"
        timeline, effects = self.timeline.push(event)
        encoded = {"type": "undo"} if isinstance(event, Undo) else self.rules.encode(event)
        if was_over:
            self.store.reopen_game(self.game_id)  # undoing the end of a game
        self.store.append(self.game_id, encoded, source)  # durable before anyone sees it
        self.timeline = timeline
        self._last_activity = self._clock()
        self._reminded = False
        self._last = {
            "kind": "effects", "source": source, "code": None, "reason": None,
            "effects": [{"kind": e.kind, "data": dict(e.data)} for e in effects],
        }
        if source == "camera" and self._frame_at is not None:
            self._last["frame_at"] = self._frame_at  # perf_counter of the frame (the bench)
        self._effects(effects)
        if any(e.kind == "winner" for e in effects):
            self.store.end_game(self.game_id, self._result())
        return effects

    # --- effects to the panel -----------------------------------------------------------------

    def _effects(self, effects: Sequence[Effect]) -> None:
        """Show effects on the panel: the shared vocabulary of ``companion.games.base``
        (turn, winner, claim_valid/invalid, signal) for every game, plus Mörder's own."""
        from hardware.panel import Tune

        for e in effects:
            player = e.data.get("player")
            seat = player if isinstance(player, int) else None
            if e.kind == "turn":
                self._lit = seat
                self.panel.play(Tune.TURN)
            elif e.kind == "final_look":
                self.panel.play(Tune.TURN)
            elif e.kind in ("claim_valid", "claim_invalid"):
                valid = e.kind == "claim_valid"
                if seat is not None:
                    self.panel.flash_claim(seat, valid)
                self.panel.play(Tune.CLAIM_VALID if valid else Tune.CLAIM_INVALID)
            elif e.kind == "winner":
                players = e.data.get("players")
                if isinstance(players, list):
                    self._winners = [p for p in players if isinstance(p, int)]
                else:
                    self._winners = [seat] if seat is not None else []
                self.panel.play(Tune.WINNER if self._winners else Tune.TIMER_EXPIRED)
            elif e.kind == "signal":
                tune = _SIGNAL_TUNES.get(str(e.data.get("tune")))
                if tune is not None:
                    self.panel.play(Tune(tune))
                seat = e.data.get("seat")
                if e.data.get("blink") and isinstance(seat, int):
                    self.panel.flash_claim(seat, e.data.get("tune") != "invalid")
            elif e.kind == "victim":
                self.panel.play(Tune.REMINDER)
            elif e.kind == "quit":
                self.panel.play(Tune.TIMER_EXPIRED)
            elif e.kind == "undone":
                self.panel.play(Tune.REMINDER)
            elif e.kind in _TUNE_EFFECTS:  # other games' timers (the Kniffel hourglass…)
                self.panel.play(Tune(_TUNE_EFFECTS[e.kind]))
        self._show_state()

    def _show_state(self) -> None:
        """The steady LEDs for the game as it stands (turn or winner) and the status LED."""
        from hardware.panel import Light

        view = self._view()
        names = [str(p.get("name", "")) for p in _players(view)]
        self.panel.set_names(names)
        # the view's own words first (they survive a restart), else what effects said
        winner = view.get("winner")
        if "phase" in view:
            over = view["phase"] == "over"
        else:
            over = winner is not None or self._winners is not None
        if over:
            if _winner_seats(view) is not None:  # several seats win together (pairs, a team)
                self.panel.show_winners(_winner_seats(view) or [])
            elif "winner" in view:
                self.panel.show_winners([winner] if isinstance(winner, int) else [])
            else:
                self.panel.show_winners(self._winners or [])
        else:
            turn = view.get("turn", self._lit)
            self.panel.show_turn(turn if isinstance(turn, int) else None)
        if self._camera["status"] == "lost":
            light = Light.CAMERA_LOST
        elif self._prompt is not None:
            light = Light.PROMPT
        elif view.get("pending"):
            light = Light.PENDING
        else:
            light = Light.OK
        self.panel.show_status(light)

    def _refused(self, exc: Refused, source: str, seat: int | None) -> None:
        from hardware.panel import Tune

        self._last = {
            "kind": "refused", "source": source, "code": exc.code, "reason": exc.reason,
            "effects": [], "details": _jsonable(exc.details),
        }
        if seat is not None:
            self.panel.flash_claim(seat, False)
        if source != "camera":  # the camera's refusals become a prompt, with its own tune
            self.panel.play(Tune.CLAIM_INVALID)

    # --- the table thread ---------------------------------------------------------------------

    def _table_loop(self) -> None:
        tick = 0.5
        while True:
            try:
                item = self._inbox.get(timeout=tick)
            except queue.Empty:
                item = None
            if item is _STOP:
                return
            try:
                if isinstance(item, _Action):
                    self._do_action(item)
                elif isinstance(item, _Press):
                    self._do_press(item)
                elif isinstance(item, TableReading):
                    self._do_reading(item)
                elif isinstance(item, _Seen):
                    if not item.camera.is_set():
                        self._do_reading(item.reading)
                elif isinstance(item, _Camera):
                    self._do_camera(item)
                elif isinstance(item, _Advice):
                    self._do_advice(item)
                elif isinstance(item, _Barrier):
                    item.done.set()
                self._tick()
            except Exception:  # never let one bad message stop the table
                _log.exception("table loop: handling %r failed", item)
                if isinstance(item, _Action) and not item.reply.done():
                    item.reply.set_exception(RuntimeFault("the table could not do that"))
            if self._on_tick is not None:
                self._on_tick()

    def _tick(self) -> None:
        """Work the clock does: a camera gone silent, a player idle on their turn."""
        from hardware.panel import Tune

        silent = float(self._camera_cfg["read_timeout_s"])
        last = self._last_frame_at
        if (
            silent > 0 and last is not None and self._camera["status"] == "ok"
            and not self._reading  # a slow read is not a silent camera
            and self._clock() - last > silent
        ):
            # a read that hangs cannot be interrupted; say so until frames come again
            self._do_camera(_Camera("lost", f"no frame for {silent:.0f} s"))

        reminder = float(self._table["reminder_s"])
        if reminder <= 0 or self._reminded or self.timeline is None:
            return
        if self._view().get("phase") == "over":
            return
        if self._clock() - self._last_activity >= reminder:
            self._reminded = True
            self.panel.play(Tune.REMINDER)

    def _changed(self) -> None:
        self._show_state()
        self._publish()
        self._want_advice()

    # --- phones -------------------------------------------------------------------------------

    def submit(self, action: Mapping[str, Any], source: str = "web") -> dict[str, Any]:
        """Carry out a phone's action; returns the snapshot once the event is on disk.

        ``source`` names who acted in the log (``web``; the demo's director says ``demo``).
        """
        if not isinstance(action, Mapping) or not isinstance(action.get("action"), str):
            raise InputError('an action is a JSON object with an "action" name')
        if not self._started or self._closed:
            raise RuntimeFault("the table is not running")
        reply: Future[dict[str, Any]] = Future()
        self._inbox.put(_Action(copy.deepcopy(dict(action)), source, reply))
        return reply.result(timeout=SUBMIT_TIMEOUT_S)

    def _do_action(self, item: _Action) -> None:
        try:
            self._act(item.body, item.source)
        except (Refused, EventError, InputError) as exc:
            if isinstance(exc, Refused):
                self._refused(exc, item.source, None)
                self._publish()
            item.reply.set_exception(exc)
            return
        self._changed()
        item.reply.set_result(self.snapshot())

    def _act(self, body: Mapping[str, Any], source: str) -> None:
        self._act_on(body, source)
        if self._last is not None and self._last.get("source") == source:
            self._last["action"] = body["action"]

    def _act_on(self, body: Mapping[str, Any], source: str) -> None:
        name = body["action"]
        fields = {k: v for k, v in body.items() if k != "action"}
        view = self._view()
        if name in ("next", "undo"):
            _no_fields(name, fields)
            self._apply({"type": name}, source)
        elif name in ("claim", "quit", "pass"):
            fields.setdefault("player", view.get("turn"))
            self._apply({"type": name, **fields}, source)
        elif name == "turn":  # a tile entered by hand (a table without camera)
            if set(fields) != {"cell", "tile"}:
                raise InputError('turn needs exactly "cell": [row, col] and "tile"')
            self._apply({"type": "turn_tile", **fields}, source)
        elif name == "correct":
            self._apply({"type": "correct", **fields}, source)
            self._clear_prompt_if_settled(fields)
        elif name == "resolve":
            self._resolve(fields, source)
        elif name == "new_game":
            game = fields.get("game", self.rules.name if self.rules else self._table["game"])
            setup = fields.get("setup")
            if not isinstance(game, str) or not isinstance(setup, Mapping):
                raise InputError('new_game needs "game" (a name) and "setup" (an object)')
            replaces = fields.get("replaces")  # only if that game is still the table's
            if replaces is not None and replaces != self.game_id:
                raise InputError(f"game {self.game_id} has taken the table, not game {replaces}")
            self._new_game(game, setup)
        elif name == "settings":
            if set(fields) - {"advisor"} or not isinstance(fields.get("advisor"), bool):
                raise InputError('settings: only {"advisor": true|false} can be changed here')
            self._advice["enabled"] = fields["advisor"] and self._advisor_fn is not None
            if self._advice["enabled"] and not any(t.name == "advisor" for t in self._threads):
                self._spawn("advisor", self._advisor_loop)
        elif name == "event":
            event = fields.get("event")
            if not isinstance(event, Mapping) or set(fields) != {"event"}:
                raise InputError('"event" needs one field "event" holding a game event')
            self._apply(event, source)
        else:
            known = "next, claim, quit, pass, turn, correct, resolve, undo, new_game, settings, event"
            raise InputError(f"unknown action {name!r}; known: {known}")

    def _resolve(self, fields: Mapping[str, Any], source: str) -> None:
        """Answer a prompt: ``{"cells": {"r,c": tile or null}}``; hidden cells are turned."""
        cells = fields.get("cells")
        if set(fields) != {"cells"} or not isinstance(cells, Mapping) or not cells:
            raise InputError('resolve needs "cells": {"row,col": "M" | … | null}')
        board = self._board()
        answers: list[tuple[int, Any]] = []
        for key, tile in cells.items():
            try:
                r, c = (int(x) for x in str(key).split(","))
                if not (0 <= r < SIZE and 0 <= c < SIZE):
                    raise ValueError
            except ValueError:
                raise InputError(f"resolve: {key!r} is not a cell 'row,col'") from None
            answers.append((r * SIZE + c, tile))
        answers.sort(key=lambda a: _char(a[1]) != "X")  # the victim first: then its neighbours
        bodies: list[dict[str, Any]] = []
        for index, tile in answers:
            cell = list(divmod(index, SIZE))
            if board is not None and board[index] == HIDDEN:
                if tile is not None:
                    bodies.append({"type": "turn_tile", "cell": cell, "tile": tile})
            elif board is None or _char(tile) != board[index]:
                bodies.append({"type": "correct", "cell": cell, "tile": tile})
        # all or nothing: try the answers on a copy of the game before logging any of them
        assert self.rules is not None and self.timeline is not None
        trial = self.timeline
        for body in bodies:
            trial, _ = trial.push(self.rules.decode(body))
        for body in bodies:
            self._apply(body, source)
        for index, tile in answers:
            self._confirm(index, tile)
        self._prompt = None
        self._stable = None  # look again with the answers in place

    def _confirm(self, index: int, tile: Any) -> None:
        """People said what cell ``index`` shows: if the camera keeps seeing something else
        there, stop asking about it (until it sees what people said, or a new game)."""
        if self._seen is not None and self._seen[index] != _char(tile):
            self._confirmed.setdefault(index, set()).add(self._seen[index])

    def _clear_prompt_if_settled(self, body: Mapping[str, Any]) -> None:
        cell = body.get("cell")
        if isinstance(cell, (list, tuple)) and len(cell) == 2 and all(isinstance(x, int) for x in cell):
            self._confirm(cell[0] * SIZE + cell[1], body.get("tile"))
        if self._prompt is not None:
            self._prompt = None
            self._stable = None

    # --- buttons ------------------------------------------------------------------------------

    def _button(self, press: Any) -> None:
        """Panel callback (gpiozero's thread): queue it for the table thread."""
        self._inbox.put(_Press(press.seat, press.press.value))

    def _do_press(self, item: _Press) -> None:
        """A seat's gesture: the game says what it means (``GameRules.press``)."""
        view = self._view()
        try:
            if view.get("phase") == "over":
                if item.press == "claim":  # a long press after the end: the same table again
                    assert self.rules is not None and self.game_id is not None
                    setup = dict(self.store.game(self.game_id).setup)
                    winner = view.get("winner")
                    if isinstance(winner, int) and not isinstance(winner, bool):
                        # the winner begins, in a game whose set-up takes a first seat
                        with_first = {**setup, "first": winner}
                        try:
                            Timeline.start(self.rules, with_first)
                            setup = with_first
                        except EventError:
                            pass
                    self._new_game(self.rules.name, setup)
                    self._changed()
                return
            assert self.rules is not None and self.timeline is not None
            if self.rules.press is None or item.seat >= len(_players(view)):
                return  # a game without button actions, or a button at an empty seat
            body = self.rules.press(self.timeline.state, item.seat, item.press)
            if body is None:
                _log.debug("seat %d %s means nothing now", item.seat, item.press)
                return
            self._apply(body, "button")
        except Refused as exc:
            self._refused(exc, "button", item.seat)
            self._publish()
            return
        self._changed()

    # --- the camera ---------------------------------------------------------------------------

    def _board(self) -> str | None:
        """The game's 36 cells in reading characters, or None for a game without a grid."""
        cells = self._view().get("cells")
        if not isinstance(cells, list) or len(cells) != SIZE:
            return None
        return "".join(HIDDEN if t is None else str(t) for row in cells for t in row)

    def _do_reading(self, reading: TableReading) -> None:
        if not reading.still:
            self._stable = None
            return
        if self._stable is not None and self._stable[0] == reading.cells:
            self._stable = (reading.cells, self._stable[1] + 1)
        else:
            self._stable = (reading.cells, 1)
        if self._stable[1] != int(self._vision["stable_frames"]):
            return  # not yet believed, or already handled
        board = self._board()
        if board is None or self._view().get("phase") == "over":
            return  # nothing left to referee: the table is being cleared
        self._seen = reading.cells
        self._frame_at = reading.frame_at
        before = (self._prompt, self.timeline, self._rotations)
        if reading.rotations is not None:
            rot = [r if reading.cells[i] not in (HIDDEN, UNSURE, "X") else 0
                   for i, r in enumerate(reading.rotations)]
            self._rotations = [rot[r * SIZE:(r + 1) * SIZE] for r in range(SIZE)]
        self._observe(reading, board)
        if (self._prompt, self.timeline, self._rotations) != before:
            self._changed()

    def _observe(self, reading: TableReading, board: str) -> None:
        # Cells people have ruled on read as the game has them while the camera disagrees. A
        # face-up tile never changes, so once ruled on, the camera's doubts about it are noise
        # until it sees it right; on a face-down cell only the overruled readings are ignored,
        # so that turning the tile for real is still seen.
        for i in list(self._confirmed):
            if reading.cells[i] == board[i]:
                del self._confirmed[i]  # the camera agrees now
        seen = "".join(
            board[i]
            if i in self._confirmed and (board[i] != HIDDEN or ch in self._confirmed[i])
            else ch
            for i, ch in enumerate(reading.cells)
        )
        unsure = [i for i, ch in enumerate(seen) if ch == UNSURE and board[i] == HIDDEN]
        turned = [i for i, ch in enumerate(seen) if board[i] == HIDDEN and ch not in (HIDDEN, UNSURE)]
        differs = [
            i for i, ch in enumerate(seen)
            if board[i] != HIDDEN and ch != board[i] and ch != UNSURE
        ]
        if unsure:
            self._ask("unsure", "unsure_cells", unsure, reading,
                      "The camera is not sure what these tiles show: please tell it.")
            return
        if differs:
            self._ask("unsure", "reading_differs", differs, reading,
                      "The camera sees something else than the game remembers here: "
                      "please check these tiles.")
            return
        # the victim first: its neighbours are only allowed once it lies face up
        turned.sort(key=lambda i: seen[i] != "X")
        for i in turned:
            r, c = divmod(i, SIZE)
            try:
                self._apply({"type": "turn_tile", "cell": [r, c], "tile": seen[i]}, "camera")
            except Refused as exc:
                kind = "impossible" if exc.code == "impossible_reading" else "unsure"
                self._ask(kind, exc.code, [i], reading, exc.reason)
                self._refused(exc, "camera", None)
                return
        if self._prompt is not None:
            _log.info("prompt settled by the camera: %s", self._prompt["code"])
            self._prompt = None

    def _ask(self, kind: str, code: str, cells: list[int], reading: TableReading, message: str) -> None:
        from hardware.panel import Tune

        prompt = {
            "kind": kind,
            "code": code,
            "cells": [list(divmod(i, SIZE)) for i in cells],
            "seen": {f"{i // SIZE},{i % SIZE}": reading.cells[i] for i in cells},
            "candidates": {
                f"{i // SIZE},{i % SIZE}": list(reading.candidates.get(i, ())) for i in cells
            },
            "message": message,
        }
        if prompt != self._prompt:
            self._prompt = prompt
            self.panel.play(Tune.PROMPT)
            _log.info("asking the table (%s): %s", code, prompt["cells"])

    def _do_camera(self, item: _Camera) -> None:
        from hardware.panel import Tune

        was = self._camera["status"]
        self._camera.update(status=item.status, message=item.message, retry_in=item.retry_in)
        if item.status == "lost" and was != "lost":
            self.panel.play(Tune.ALARM)
            self._stable = None
        if item.status == "none":  # no camera any more: its questions can never be settled
            self._prompt = None
            self._stable = None
        self._show_state()
        self._publish()

    def _camera_loop(self, source: Any, reader: TableReader, stop: threading.Event) -> None:
        from vision import VisionError
        from vision.sources import CameraLost, CameraUnavailable, EndOfFrames

        low = float(self._camera_cfg["reconnect_min_s"])
        high = float(self._camera_cfg["reconnect_max_s"])
        period = 1.0 / max(float(self._camera_cfg["fps"]), 0.1)
        backoff = low
        while not stop.is_set():
            try:
                source.open()
                self._inbox.put(_Camera("ok"))
                backoff = low
                last = 0.0
                while not stop.is_set():
                    frame = source.read()
                    read_at = time.perf_counter()
                    now = self._clock()
                    if self._camera["status"] == "lost":  # frames again after a silence
                        self._inbox.put(_Camera("ok"))
                    if self._fps_prev is not None and now > self._fps_prev:
                        rate = 1.0 / (now - self._fps_prev)
                        self._fps = rate if self._fps is None else 0.8 * self._fps + 0.2 * rate
                    self._fps_prev = now
                    self._last_frame_at = now
                    self._reading = True
                    try:
                        reading = reader(frame.image)
                    except VisionError as exc:
                        _log.debug("frame %d: %s", frame.index, exc)
                        reading = None
                    finally:
                        self._reading = False
                        self._last_frame_at = self._clock()
                    if reading is not None:
                        self._inbox.put(_Seen(dataclasses.replace(reading, frame_at=read_at), stop))
                    self._store_frame(frame.image, reading)
                    if source.live and now - last < period:
                        stop.wait(period - (now - last))
                    last = now
            except EndOfFrames:
                source.close()
                self._inbox.put(_Camera("none", "the recording has ended"))
                return
            except (CameraLost, CameraUnavailable) as exc:
                source.close()
                _log.warning("camera: %s (again in %.1f s)", exc, backoff)
                self._inbox.put(_Camera("lost", str(exc), backoff))
                if stop.wait(backoff):
                    return
                backoff = min(backoff * 2, high)
            except Exception:
                source.close()
                _log.exception("camera thread failed; reopening")
                self._inbox.put(_Camera("lost", "camera failure", backoff))
                if stop.wait(backoff):
                    return
                backoff = min(backoff * 2, high)

    def _store_frame(self, image: Any, reading: TableReading | None) -> None:
        if not self._frame_waiters:
            return  # nobody watches the MJPEG stream: do not spend the CPU
        import cv2
        import numpy as np

        if reading is not None and reading.corners is not None:
            image = image.copy()
            pts = np.array(reading.corners, np.int32).reshape(-1, 1, 2)
            cv2.polylines(image, [pts], True, (0, 220, 0), 3)
        scale = 800 / max(image.shape[1], 1)
        if scale < 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 75])
        if ok:
            with self._frame_cond:
                self._frame_jpeg = buf.tobytes()
                self._frame_seq += 1
                self._frame_cond.notify_all()

    _frame_waiters = 0

    # --- advisor ------------------------------------------------------------------------------

    def _want_advice(self) -> None:
        if not self._advice["enabled"]:
            return
        board = self._view().get("board")
        if not isinstance(board, str) or board == self._advice_for:
            return
        try:
            self._advice_wanted.get_nowait()  # only the newest board matters
        except queue.Empty:
            pass
        try:
            self._advice_wanted.put_nowait(board)
        except queue.Full:
            pass

    def _advisor_loop(self) -> None:
        assert self._advisor_fn is not None
        while not self._stopping.is_set():
            board = self._advice_wanted.get()
            if board is None:
                return
            try:
                figures = self._advisor_fn(board)
            except Exception:
                _log.exception("advisor failed on %s", board)
                continue
            self._inbox.put(_Advice(board, figures))

    def _do_advice(self, item: _Advice) -> None:
        if self._view().get("board") != item.board:
            return  # the table moved on meanwhile
        self._advice_for = item.board
        for key in ("possible", "p_end", "p_end_se"):
            self._advice[key] = item.figures.get(key)
        self._publish()

    # --- what the phones see ------------------------------------------------------------------

    def _publish(self) -> None:
        assert self.rules is not None and self.timeline is not None
        view = self._view()
        turn = view.get("turn", self._lit)
        players = [
            {
                "index": i,
                "name": p.get("name"),
                "colour": self._colours[i] if i < len(self._colours) else None,
                "on_turn": i == turn and view.get("phase") != "over",
                **{k: v for k, v in p.items() if k != "name"},
            }
            for i, p in enumerate(_players(view))
        ]
        with self._lock:
            self._version += 1
            self._snapshot = {
                "version": self._version,
                "game": self.rules.name,
                "title": self.rules.title,
                "game_id": self.game_id,
                "players": players,
                "view": view,
                "events": len(self.timeline.states) - 1,
                "can_undo": len(self.timeline.states) > 1,
                "camera": {**self._camera,
                           "fps": None if self._fps is None or self._camera["status"] != "ok"
                           else round(self._fps, 1)},
                "rotations": copy.deepcopy(self._rotations),
                "prompt": copy.deepcopy(self._prompt),
                "advisor": dict(self._advice),
                "last": copy.deepcopy(self._last),
                "panel": {"status": self.panel.status.value},
            }
            message = copy.deepcopy(self._snapshot)
            for sub in self._subscribers:
                sub.put(message)

    def snapshot(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy(self._snapshot)

    def subscribe(self) -> AbstractContextManager[_Subscription]:
        """A live feed of snapshots for one SSE client; :class:`Busy` when all slots are taken."""
        with self._lock:
            if self._streams() >= self._max_streams:
                raise Busy(f"all {self._max_streams} live streams are in use; try again later")
            sub = _Subscription()
            self._subscribers.add(sub)
        return self._subscription(sub)

    @contextmanager
    def _subscription(self, sub: _Subscription) -> Iterator[_Subscription]:
        try:
            yield sub
        finally:
            with self._lock:
                self._subscribers.discard(sub)

    def _streams(self) -> int:
        return len(self._subscribers) + self._frame_waiters

    def frames(self) -> Iterator[bytes]:
        """JPEG frames with the grid drawn, for MJPEG; takes a stream slot until closed."""
        with self._lock:
            if self._streams() >= self._max_streams:
                raise Busy(f"all {self._max_streams} live streams are in use; try again later")
            self._frame_waiters += 1
        return self._frame_iter()

    def _frame_iter(self) -> Iterator[bytes]:
        """Ends (freeing the slot) when no new frame comes for ``read_timeout_s``: the camera
        is lost or detached, and a viewer holding on would only block a phone's stream."""
        seen = -1
        patience = max(float(self._camera_cfg["read_timeout_s"]), 1.0)
        last = time.monotonic()
        try:
            while not self._stopping.is_set():
                with self._frame_cond:
                    if self._frame_seq == seen or self._frame_jpeg is None:
                        self._frame_cond.wait(timeout=min(1.0, patience))
                    jpeg = self._frame_jpeg if self._frame_seq != seen else None
                    seen = self._frame_seq
                if jpeg is None:
                    if time.monotonic() - last > patience:
                        return
                    continue
                last = time.monotonic()
                yield jpeg
        finally:
            with self._lock:
                self._frame_waiters -= 1

    def history(self) -> list[dict[str, Any]]:
        return [g.summary() for g in self.store.games()]

    def export(self, game_id: int) -> dict[str, Any]:
        return self.store.export(game_id)

    def check_pin(self, pin: str) -> bool:
        return isinstance(pin, str) and self.store.check_pin(pin)

    def session_secret(self) -> str:
        return self.store.session_secret()

    # --- test and bench hooks (public: the bench measures through them) ----------------------

    def post_reading(self, reading: TableReading) -> None:
        """Hand the table a reading as the camera thread does (bench, tests, other readers)."""
        self._inbox.put(reading)

    def wait_version(self, version: int, timeout: float = 5.0) -> dict[str, Any]:
        """Block until the snapshot's version reaches ``version`` (tests and the bench)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snap = self.snapshot()
            if snap.get("version", 0) >= version:
                return snap
            time.sleep(0.005)
        raise TimeoutError(f"snapshot version {version} not reached")

    def drain(self, timeout: float = 5.0) -> None:
        """Wait until every queued message has been handled."""
        done = threading.Event()
        self._inbox.put(_Barrier(done))
        if not done.wait(timeout):
            raise TimeoutError("the table did not catch up")


class _Subscription:
    """One SSE client's queue; a slow phone loses old snapshots, never blocks the table."""

    def __init__(self, depth: int = 8) -> None:
        self._q: queue.Queue[dict[str, Any] | None] = queue.Queue(maxsize=depth)

    def put(self, message: dict[str, Any] | None) -> None:
        while True:
            try:
                self._q.put_nowait(message)
                return
            except queue.Full:
                try:
                    self._q.get_nowait()
                except queue.Empty:
                    pass

    def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None


def _winner_seats(view: Mapping[str, Any]) -> list[int] | None:
    """The view's ``winner_seats`` (every seat that won, e.g. a Murdero pair), if it has them."""
    seats = view.get("winner_seats")
    if not isinstance(seats, list):
        return None
    return [s for s in seats if isinstance(s, int) and not isinstance(s, bool)]


def _players(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The view's players as objects with a ``name`` (games list names or objects)."""
    out: list[dict[str, Any]] = []
    for p in view.get("players") or []:
        out.append(dict(p) if isinstance(p, Mapping) else {"name": str(p)})
    return out


def _char(tile: Any) -> str:
    """A tile as a reading character: null is face down; ``O`` is taken for ``Ö``."""
    if tile is None:
        return HIDDEN
    text = str(tile).upper()
    return "Ö" if text == "O" else text


def _no_fields(name: str, fields: Mapping[str, Any]) -> None:
    if fields:
        raise InputError(f"{name} takes no fields, got {', '.join(sorted(fields))}")


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return getattr(value, "value", str(value))


def _default_advisor() -> Callable[[str], Mapping[str, Any]] | None:
    """The Mörder solver's figures for a board (run in the advisor thread, never the table's).

    The Monte Carlo draws from a generator seeded by the board, so the same board always
    shows the same figures.
    """
    try:
        from companion.games.moerder import solver
    except ImportError:
        return None

    def advise(board: str) -> Mapping[str, Any]:
        import zlib

        import numpy as np

        from companion.games.moerder.board import Board

        rng = np.random.default_rng(zlib.crc32(board.encode()))
        result = solver.analyse(Board.parse(board), rng).to_json()
        return {k: result[k] for k in ("possible", "p_end", "p_end_se")}

    return advise


__all__ = ["Busy", "Runtime", "RuntimeFault", "TableReader", "TableReading"]


class VisionReader:
    """The vision pipeline as a :class:`TableReader`: ``vision.observation.TableReader``.

    Vision gates on a still, uncovered table (a frame with a hand in it gives no observation:
    reported not still, and the runtime ignores it), keeps the grid and the tiles' back, and
    re-reads only the cells that changed. A letter below ``min_confidence`` becomes ``?``:
    the runtime asks rather than guesses. ``reference`` (a frame with every tile face down)
    teaches the back; ``profile`` (written by ``companion vision teach``) a real tile set.
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        try:
            from vision.observation import TableReader as VisionTable
            from vision.observation import load_image
        except ImportError as exc:
            raise RuntimeFault(f"the vision cannot read a grid here: {exc}") from None
        profile = str(settings.get("profile", "")) or None
        self._vision = VisionTable.create(profile=profile, still_frames=2)
        self.min_confidence = float(settings.get("min_confidence", 0.6))
        reference = str(settings.get("reference", ""))
        if reference:
            self._vision.learn_reference(load_image(reference))

    @property
    def status(self) -> str:
        """Why the last frame gave no reading ("moving", "covered", "no-grid") or "read"."""
        return str(self._vision.status)

    def __call__(self, image: Any) -> TableReading:
        obs = self._vision.read(image)
        if obs is None:
            return TableReading(HIDDEN * (SIZE * SIZE), still=False)  # ignored by the runtime
        chars: list[str] = []
        candidates: dict[int, tuple[str, ...]] = {}
        for i, cell in enumerate(obs.cells):
            ch = cell.char
            if ch not in (HIDDEN, "X", UNSURE) and cell.confidence < self.min_confidence:
                ch = UNSURE
            if ch == UNSURE and cell.letter:
                candidates[i] = (str(cell.letter),)
            chars.append(ch)
        return TableReading(
            "".join(chars),
            still=True,
            candidates=candidates,
            corners=tuple(obs.corners),
            rotations=tuple(int(c.rotation) for c in obs.cells),
        )


def vision_reader(settings: Mapping[str, Any]) -> TableReader:
    return VisionReader(settings)


def _is_table_api(runtime: Runtime) -> _protocol.TableAPI:
    """mypy checks here that :class:`Runtime` keeps to the web's protocol."""
    return runtime
