"""The ``[club]`` settings and the broker address, checked before anything connects.

A table in a club is named once by people (``table = "tisch-3"``) and that name is its MQTT
topic and, in the shipped ACL, its broker user: a typo must stop the start with one line, not
publish under a topic the board never reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from companion.errors import InputError

TOPIC_ROOT = "companion"
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


class ClubError(InputError):
    """A club setting or a broker address that cannot be used; the message names it."""


@dataclass(frozen=True)
class Broker:
    """Where the broker listens; ``tls`` for ``mqtts://``. Credentials in the URL are allowed
    (``mqtt://user:pass@host``) for the command line; settings keep them apart."""

    host: str
    port: int
    tls: bool = False
    username: str = ""
    password: str = ""

    @property
    def url(self) -> str:
        """The address without credentials, for log lines and pages."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker(url: str, where: str = "broker") -> Broker:
    """``mqtt://HOST[:PORT]`` or ``mqtts://HOST[:PORT]``; :class:`ClubError` otherwise."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ClubError(f"{where}: {url!r} is not a broker address ({exc})") from None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        raise ClubError(f"{where}: {url!r} is not a broker address; "
                        "write mqtt://HOST:PORT or mqtts://HOST:PORT")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ClubError(f"{where}: {url!r}: a broker address has no path or query")
    try:  # the name as the resolver will take it: labels of 1-63 characters (IDNA)
        parts.hostname.encode("idna")
    except UnicodeError:
        raise ClubError(f"{where}: {url!r}: {parts.hostname[:40]!r} is no host name "
                        "(each part between dots 1-63 characters)") from None
    return Broker(parts.hostname, port or DEFAULT_PORTS[parts.scheme], parts.scheme == "mqtts",
                  unquote(parts.username or ""), unquote(parts.password or ""))


def check_name(name: str, where: str = "club.table") -> str:
    """A table's name: it becomes a topic level, so no ``/``, ``+``, ``#`` or spaces."""
    if not NAME.fullmatch(name):
        raise ClubError(f"{where}: {name!r} is not a table name (1–32 letters, digits, "
                        "'-' or '_', starting with a letter or digit)")
    return name


def topic(table: str, kind: str) -> str:
    """``companion/<table>/<kind>``: ``event`` (every event), ``state`` and ``status``
    (retained)."""
    return f"{TOPIC_ROOT}/{table}/{kind}"


@dataclass(frozen=True)
class ClubSettings:
    """A table's place in a club: the broker, its name, its credentials."""

    broker: Broker
    table: str
    ca_file: str = ""
    reconnect_max_s: float = 30.0

    @classmethod
    def from_section(cls, section: Mapping[str, Any]) -> ClubSettings | None:
        """``None`` when ``club.broker`` is empty (a table on its own)."""
        url = str(section.get("broker", ""))
        if not url:
            return None
        broker = parse_broker(url, "club.broker")
        name = check_name(str(section.get("table", "")))
        password = str(section.get("password", "")) or broker.password
        # the shipped ACL names each table's user after the table
        user = str(section.get("username", "")) or broker.username or (name if password else "")
        ca_file = str(section.get("ca_file", ""))
        if ca_file and not broker.tls:
            raise ClubError("club.ca_file is for an mqtts:// broker")
        broker = Broker(broker.host, broker.port, broker.tls, user, password)
        return cls(broker, name, ca_file, float(section.get("reconnect_max_s", 30.0)))


__all__ = ["Broker", "ClubError", "ClubSettings", "TOPIC_ROOT", "check_name", "parse_broker",
           "topic"]
