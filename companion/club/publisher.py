"""The table's voice in the club: every committed event to the broker, once, in order.

The event log is the outbox. A mark in the log's settings (``club.published``) names the
newest event row the broker has acknowledged (PUBACK, QoS 1); events after it are sent again
after a restart, and the mark only moves over an unbroken run of acknowledged events, so
none is skipped. While the broker is away paho keeps the few events in flight and sends them
again on reconnect; the rest wait in the log. The board drops what it has already seen
(table, log, game, seq), so a resend never counts twice.

It is an edge beside the table: its own thread reads the log after commits (the store wakes
it), paho's thread does the network. The table's thread never waits on either; a broker
that is down costs the table nothing.
"""

from __future__ import annotations

import collections
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.club.settings import ClubSettings, topic
from companion.club.summary import Folder
from companion.store import EventRecord, Store

_log = logging.getLogger(__name__)

MARK = "club.published"  # the newest event row the broker acknowledged
LOG_ID = "club.log"  # this log's name in the club: game ids restart with a new log
WINDOW = 100  # events in flight (sent, not yet acknowledged) at most
POLL_S = 1.0  # a missed wake-up costs at most this


class ClubPublisher:
    """Publishes ``store``'s events and the table's state to the club's broker.

    ``start()`` connects in the background; ``close()`` says goodbye and stops. ``status``
    and ``mark`` are for the dashboard's health and the tests.
    """

    def __init__(self, settings: ClubSettings, store: Store, *, window: int = WINDOW,
                 clock: Callable[[], float] = time.time) -> None:
        self.settings, self.store = settings, store
        self._window, self._clock = window, clock
        self._folder = Folder(store)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._acks_lock = threading.Lock()
        self._acks: dict[int, bool] = {}  # mid -> accepted, written by paho's thread
        self._inflight: collections.deque[tuple[int, int]] = collections.deque()  # (row, mid)
        self._state_mids: set[int] = set()
        self._connected = False
        self._say_state = False
        self.status = "connecting"
        self.log_id = _log_id(store)
        self.mark = _initial_mark(store)
        self._sent = self.mark
        self._shown: tuple[int, int] | None = None  # (game, seq) of the last state sent
        self._client = self._make_client()
        self._thread = threading.Thread(target=self._run, name="club", daemon=True)
        store.listen(self._wake.set)

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> ClubPublisher:
        broker = self.settings.broker
        self._client.connect_async(broker.host, broker.port, keepalive=30)
        self._client.loop_start()
        self._thread.start()
        _log.info("club: table %s publishes to %s from event row %d", self.settings.table,
                  broker.url, self.mark)
        return self

    def close(self, patience_s: float = 2.0) -> None:
        """Stop; events still unacknowledged are sent again by the next start."""
        if self._stop.is_set():
            return
        deadline = time.monotonic() + patience_s
        while self._inflight and self._connected and time.monotonic() < deadline:
            self._wake.set()
            if self._stop.wait(0.05):
                break
        self._stop.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5.0)
        if self._connected:
            info = self._client.publish(topic(self.settings.table, "status"),
                                        _status("offline"), qos=1, retain=True)
            try:
                info.wait_for_publish(timeout=1.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()

    # --- paho's thread --------------------------------------------------------------------

    def _make_client(self) -> Any:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        client = mqtt.Client(CallbackAPIVersion.VERSION2,
                             client_id=f"companion-table-{self.settings.table}",
                             protocol=mqtt.MQTTv5)
        broker = self.settings.broker
        if broker.username:
            client.username_pw_set(broker.username, broker.password or None)
        if broker.tls:
            client.tls_set(ca_certs=self.settings.ca_file or None)
        client.will_set(topic(self.settings.table, "status"), _status("offline"), qos=1,
                        retain=True)
        client.reconnect_delay_set(1, max(1, int(self.settings.reconnect_max_s)))
        client.max_inflight_messages_set(self._window + 10)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        return client

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if reason.is_failure:
            self.status = f"refused: {reason}"
            _log.error("club: the broker %s refused table %s: %s", self.settings.broker.url,
                       self.settings.table, reason)
            return
        self._connected, self.status, self._say_state = True, "online", True
        client.publish(topic(self.settings.table, "status"), _status("online"), qos=1,
                       retain=True)
        self._wake.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any = None) -> None:
        if self._connected and not self._stop.is_set():
            _log.warning("club: lost the broker (%s); the table plays on", reason)
        self._connected = False
        if not self.status.startswith("refused"):
            self.status = "offline"

    def _on_publish(self, client: Any, userdata: Any, mid: int, reason: Any,
                    properties: Any = None) -> None:
        with self._acks_lock:
            self._acks[mid] = not reason.is_failure
        if reason.is_failure:
            _log.error("club: the broker refused a message of table %s (%s): check the ACL",
                       self.settings.table, reason)
            self.status = f"refused: {reason}"
        self._wake.set()

    # --- the club's thread ----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(POLL_S)
            self._wake.clear()
            try:
                self._settle()
                if self._connected:
                    self._send()
            except Exception:  # a damaged event must not end the table's club voice
                _log.exception("club: publishing failed; trying again")
                self._stop.wait(POLL_S)

    def _settle(self) -> None:
        """Move the mark over the acknowledged front of the events in flight."""
        with self._acks_lock:
            acks, self._acks = self._acks, {}
        for mid in self._state_mids & acks.keys():
            self._state_mids.discard(mid)
            del acks[mid]
        mark = self.mark
        while self._inflight and acks.get(self._inflight[0][1]):
            row, mid = self._inflight.popleft()
            del acks[mid]
            mark = row
        if acks:  # acks for messages further back (or refused): keep them for later
            with self._acks_lock:
                self._acks.update(acks)
        if mark != self.mark:
            self.store.set_setting(MARK, str(mark))
            self.mark = mark

    def _send(self) -> None:
        room = self._window - len(self._inflight)
        batch = self.store.log_after(self._sent, room) if room > 0 else []
        summary: dict[str, Any] | None = None
        for row, event in batch:
            summary = self._folder.summary(event.game_id, event.seq, event.body)
            info = self._client.publish(topic(self.settings.table, "event"),
                                        self._event_json(row, event, summary), qos=1)
            self._inflight.append((row, info.mid))
            self._sent = row
        self._send_state(summary)

    def _send_state(self, summary: dict[str, Any] | None) -> None:
        """The retained state: the newest game as it stands after the newest event sent (a
        game just set up, with no event yet, as set up)."""
        newest = self.store.games(1)
        if not newest:
            return
        game = newest[0]
        if summary is None or summary["game_id"] != game.id:
            if not self._say_state and self._shown is not None and self._shown[0] == game.id:
                return
            summary = self._folder.summary(game.id, game.events)  # seqs run 1..events
        key = (int(summary["game_id"]), int(summary["seq"]))
        if key == self._shown and not self._say_state:
            return
        state = {"v": 1, "table": self.settings.table, "log": self.log_id, "at": self._clock(),
                 "game": summary}
        info = self._client.publish(topic(self.settings.table, "state"),
                                    json.dumps(state, ensure_ascii=False), qos=1, retain=True)
        self._state_mids.add(info.mid)
        self._shown, self._say_state = key, False

    def _event_json(self, row: int, event: EventRecord, summary: dict[str, Any]) -> str:
        return json.dumps({
            "v": 1, "table": self.settings.table, "log": self.log_id, "row": row,
            "game_id": event.game_id, "seq": event.seq, "at": event.at,
            "source": event.source, "event": event.body, "summary": summary,
        }, ensure_ascii=False)


def _status(word: str) -> str:
    return json.dumps({"v": 1, "status": word})


def _log_id(store: Store) -> str:
    """This log's name in the club, made once: a table with a new log starts its games at 1
    again, and the board must not take them for the old ones."""
    name = store.setting(LOG_ID)
    if name is None:
        name = secrets.token_hex(4)
        store.set_setting(LOG_ID, name)
    return name


def _initial_mark(store: Store) -> int:
    """The mark, or where a table joining a club begins: with the game in progress (the
    games it played before joining are not the club's)."""
    mark = store.setting(MARK)
    if mark is not None:
        return int(mark)
    current = store.current()
    start = store.last_row(before_game=current.id) if current is not None else store.last_row()
    store.set_setting(MARK, str(start))
    return start


__all__ = ["ClubPublisher", "LOG_ID", "MARK"]
