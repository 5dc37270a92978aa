"""A real Mosquitto for the club's tests: Debian's broker on a free loopback port.

Set up as the shipped example (deploy/mosquitto/): no anonymous access, a user and password
per table and one for the board, an ACL that lets a table write only its own topics and the
board only read. The broker is started as ``/usr/sbin/mosquitto -c <conf>``, waited for by
connecting to its port, stopped and started again on the same port (its sessions persisted,
as a club's broker keeps them over a restart).
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

REPO_ACL = Path(__file__).resolve().parent.parent / "deploy" / "mosquitto" / "acl.example"
MOSQUITTO = "/usr/sbin/mosquitto"
PASSWD = "/usr/bin/mosquitto_passwd"
BOARD_USER, BOARD_PASSWORD = "board", "board-secret"


def table_password(name: str) -> str:
    return f"{name}-secret"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(check: Callable[[], Any], timeout: float = 15.0, what: str = "condition") -> Any:
    """Poll ``check`` until it is truthy; its value, or AssertionError naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


def acl_text(tables: list[str]) -> str:
    """The ACL as deploy/mosquitto/acl.example writes it, for these tables."""
    blocks = [f"user {t}\ntopic write companion/{t}/#\n" for t in tables]
    return "\n".join(blocks + [f"user {BOARD_USER}\ntopic read companion/#\n"])


class Broker:
    """One Mosquitto process; ``stop()`` and ``start()`` again keep its port and sessions."""

    def __init__(self, folder: Path, tables: list[str]) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"mqtt://127.0.0.1:{self.port}"
        folder.mkdir(parents=True, exist_ok=True)
        users = {BOARD_USER: BOARD_PASSWORD, **{t: table_password(t) for t in tables}}
        passwords = folder / "passwd"
        passwords.write_text("".join(f"{u}:{p}\n" for u, p in users.items()))
        passwords.chmod(0o600)
        subprocess.run([PASSWD, "-U", str(passwords)], check=True, capture_output=True)
        (folder / "acl").write_text(acl_text(tables))
        (folder / "acl").chmod(0o600)
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text("\n".join([
            f"listener {self.port} 127.0.0.1",
            "allow_anonymous false",
            f"password_file {passwords}",
            f"acl_file {folder / 'acl'}",
            "persistence true",
            # as deploy/mosquitto/mosquitto.conf: the board's queue holds a room's backlog
            # after an outage (Mosquitto's default of 1,000 drops it)
            "max_queued_messages 100000",
            "max_inflight_messages 200",
            f"persistence_location {folder}/",
            f"user {pwd.getpwuid(os.getuid()).pw_name}",  # root keeps root: reads these files
            f"log_dest file {folder / 'mosquitto.log'}",
            "",
        ]))
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 15.0) -> Broker:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_until(self._listening, timeout, f"mosquitto on port {self.port}")
        return self

    def _listening(self) -> bool:
        assert self.process is not None
        if self.process.poll() is not None:
            err = self.process.stderr.read().decode() if self.process.stderr else ""
            log = (self.folder / "mosquitto.log")
            raise RuntimeError(f"mosquitto exited: {err} {log.read_text() if log.exists() else ''}")
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        """SIGTERM, as systemd stops it: it saves its sessions and exits."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        self.process = None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid


@contextlib.contextmanager
def running_broker(folder: Path, tables: list[str]) -> Iterator[Broker]:
    broker = Broker(folder, tables).start()
    try:
        yield broker
    finally:
        broker.stop()


class Listener:
    """A raw MQTT subscriber that keeps every message it is handed (duplicates included)."""

    def __init__(self, broker: Broker, user: str = BOARD_USER, password: str = BOARD_PASSWORD,
                 topics: str = "companion/#") -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.messages: list[tuple[str, dict[str, Any], bool]] = []
        self._lock = threading.Lock()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, protocol=mqtt.MQTTv5)
        self.client.username_pw_set(user, password)
        self.client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topics, qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        wait_until(self.subscribed.is_set, what="the listener's subscription")

    def _message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._lock:
            self.messages.append((msg.topic, json.loads(msg.payload), bool(msg.retain)))

    def of(self, kind: str) -> list[dict[str, Any]]:
        with self._lock:
            return [m for t, m, _ in self.messages if t.endswith("/" + kind)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
