"""The board's ear on the broker: one subscriber with a session the broker keeps.

The board connects with a fixed client id, ``clean_start`` off and a session that outlives a
disconnect, so the broker holds the QoS 1 events that tables publish while the board is away
(or restarting) and hands them over when it is back: nothing published is missed.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.club.settings import Broker
from web.board.model import Board

_log = logging.getLogger(__name__)

TOPICS = ("companion/+/event", "companion/+/state", "companion/+/status")
SESSION_S = 7 * 24 * 3600  # the broker keeps the board's queue this long while it is away


class Listener:
    """Subscribes to every table's topics and hands each message to ``board``."""

    def __init__(self, broker: Broker, board: Board, client_id: str = "companion-board") -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.broker, self.board = broker, board
        self.connected = False
        self.status = "connecting"
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                   protocol=mqtt.MQTTv5)
        if broker.username:
            self._client.username_pw_set(broker.username, broker.password or None)
        if broker.tls:
            self._client.tls_set()
        self._client.reconnect_delay_set(1, 10)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    def start(self) -> Listener:
        from paho.mqtt.packettypes import PacketTypes
        from paho.mqtt.properties import Properties

        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = SESSION_S
        self._client.connect_async(self.broker.host, self.broker.port, keepalive=30,
                                   clean_start=False, properties=props)
        self._client.loop_start()
        return self

    def close(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any = None) -> None:
        if reason.is_failure:
            self.status = f"refused: {reason}"
            _log.error("board: the broker %s refused the board: %s", self.broker.url, reason)
            return
        self.connected, self.status = True, "online"
        client.subscribe([(t, 1) for t in TOPICS])

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any = None) -> None:
        self.connected = False
        if not self.status.startswith("refused"):
            self.status = "offline"

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        self.board.take(msg.topic, msg.payload)


__all__ = ["Listener"]
