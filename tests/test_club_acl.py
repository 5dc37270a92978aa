"""The club's broker as shipped (deploy/mosquitto/): nobody without a password, a table writes
only its own topics, the board only reads. Refusals are seen as MQTT 5 reason codes, and the
board never receives what was refused (a later message of the same sender arrives first)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mqtt_support import (
    BOARD_PASSWORD,
    BOARD_USER,
    REPO_ACL,
    Broker,
    Listener,
    acl_text,
    running_broker,
    table_password,
    wait_until,
)


@pytest.fixture(scope="module")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    with running_broker(tmp_path_factory.mktemp("acl"), ["t1", "t2"]) as b:
        yield b


class Client:
    """An MQTT 5 client that remembers its CONNACK and each PUBACK's reason code."""

    def __init__(self, broker: Broker, user: str | None, password: str | None) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.connack: Any = None
        self.acks: dict[int, Any] = {}
        self.done = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        if user is not None:
            self.client.username_pw_set(user, password)
        self.client.on_connect = self._connect
        self.client.on_publish = lambda c, u, mid, rc, p=None: self.acks.__setitem__(mid, rc)
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        wait_until(self.done.is_set, what="the CONNACK")

    def _connect(self, client: Any, userdata: Any, flags: Any, reason: Any, props: Any) -> None:
        self.connack = reason
        self.done.set()

    def publish(self, topic: str, payload: str = '{"v": 1}') -> Any:
        mid = self.client.publish(topic, payload, qos=1).mid
        return wait_until(lambda: self.acks.get(mid), what=f"the PUBACK on {topic}")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.mark.parametrize("user, password", [(None, None), ("t1", "wrong"), ("nobody", "x")])
def test_no_anonymous_access_and_no_wrong_password(broker: Broker, user: str | None,
                                                   password: str | None) -> None:
    client = Client(broker, user, password)
    try:
        assert client.connack.is_failure
        assert client.connack.getName() in ("Not authorized", "Bad user name or password")
    finally:
        client.close()


def test_a_table_writes_its_own_topics_only_and_the_board_never_sees_the_rest(
        broker: Broker) -> None:
    board = Listener(broker)
    t1 = Client(broker, "t1", table_password("t1"))
    try:
        assert not t1.connack.is_failure
        assert t1.publish("companion/t2/event").getName() == "Not authorized"
        assert t1.publish("companion/t2/state").getName() == "Not authorized"
        assert t1.publish("other/topic").getName() == "Not authorized"
        assert not t1.publish("companion/t1/event", '{"marker": 1}').is_failure
        wait_until(lambda: board.of("event"), what="the allowed message")
        assert [t for t, _, _ in board.messages if t.startswith("companion/t1/")] and not [
            t for t, _, _ in board.messages if not t.startswith("companion/t1/")]
    finally:
        t1.close()
        board.close()


def test_the_board_only_reads(broker: Broker) -> None:
    board = Client(broker, BOARD_USER, BOARD_PASSWORD)
    try:
        assert not board.connack.is_failure
        assert board.publish("companion/t1/state").getName() == "Not authorized"
    finally:
        board.close()


def test_a_table_cannot_read_the_others(broker: Broker) -> None:
    """A table has no read right: its subscription gets nothing, even what it wrote itself."""
    spy = Listener(broker, "t2", table_password("t2"))
    t1 = Client(broker, "t1", table_password("t1"))
    board = Listener(broker)
    try:
        t1.publish("companion/t1/event", '{"marker": 2}')
        wait_until(lambda: board.of("event"), what="the board's copy")
        assert spy.messages == []
    finally:
        t1.close()
        spy.close()
        board.close()


def test_the_shipped_acl_example_is_the_one_tested() -> None:
    shipped = REPO_ACL.read_text(encoding="utf-8")
    rules = [line for line in shipped.splitlines() if line and not line.startswith("#")]
    assert rules == [line for line in acl_text(["tisch-1", "tisch-2", "tisch-3"]).splitlines()
                     if line]
    conf = (REPO_ACL.parent / "mosquitto.conf").read_text(encoding="utf-8")
    assert "allow_anonymous false" in conf and "acl_file" in conf and "password_file" in conf
