"""The web section of the configuration: defaults in code, unknown keys rejected by name.

The runtime's ``companion.config`` owns the TOML file; ``create_app`` receives only the
``[web]`` section as a mapping and turns it into :class:`WebConfig` here, so a typo such as
``heartbeat = 5`` is an error naming the key rather than a silently ignored setting.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.errors import InputError

MAX_THREADS = 256  # web.threads: each holds a stack, and a Pi has 512 MB
MAX_SECONDS = 365 * 24 * 3600.0  # a timing setting at most a year


class WebConfigError(InputError):
    """A bad ``[web]`` setting: unknown key, wrong type or out of range."""


@dataclass(frozen=True)
class WebConfig:
    """Settings of the dashboard server. Field names are the TOML keys."""

    host: str = "0.0.0.0"
    port: int = 8000
    # waitress worker threads for requests and camera views; live pages hold none (web.front).
    threads: int = 8
    # live pages (server-sent events) at once; each costs a socket and a few KiB, no thread.
    max_streams: int = 64
    max_camera_streams: int = 2
    # connections one client address may hold at once; the excess is refused with a 503.
    max_per_address: int = 24
    # a request head must arrive within this many seconds (slow requests are cut off).
    header_timeout_s: float = 10.0
    # a passed-on request whose connection is silent this long both ways is closed.
    idle_timeout_s: float = 60.0
    heartbeat_s: float = 15.0
    # failed PIN attempts per client address within the window before answering 429.
    login_attempts: int = 5
    login_window_s: float = 300.0
    # wrong PINs from all addresses together within a minute before every login waits.
    login_global_per_minute: int = 30
    session_hours: float = 12.0
    # the address the QR code shows; empty: the address the page was opened with.
    public_url: str = ""
    # the page's language when the browser asks for neither German nor English.
    language: str = "de"

    def __post_init__(self) -> None:
        if not 0 <= self.port <= 65535:
            raise WebConfigError(f"web.port must be 0..65535, got {self.port}")
        if not 2 <= self.threads <= MAX_THREADS:  # each a thread's stack: a million ran out
            raise WebConfigError(f"web.threads must be 2..{MAX_THREADS}, got {self.threads}")
        if not 1 <= self.max_streams <= 10000:
            raise WebConfigError(f"web.max_streams must be 1..10000, got {self.max_streams}")
        if self.max_per_address < 2:
            raise WebConfigError("web.max_per_address must be at least 2")
        if not 0 <= self.max_camera_streams < self.threads:
            raise WebConfigError("web.max_camera_streams must be 0..threads-1")
        for name in ("heartbeat_s", "login_window_s", "session_hours", "header_timeout_s",
                     "idle_timeout_s"):
            value = getattr(self, name)
            # NaN passes no comparison; a year bounds what a date can add (inf overflowed)
            if not 0 < value <= MAX_SECONDS / (3600 if name == "session_hours" else 1):
                raise WebConfigError(f"web.{name} must be positive and at most a year")
        if self.language not in ("de", "en"):
            raise WebConfigError(f"web.language must be de or en, got {self.language!r}")
        if self.login_attempts < 1:
            raise WebConfigError("web.login_attempts must be at least 1")
        if self.login_global_per_minute < 1:
            raise WebConfigError("web.login_global_per_minute must be at least 1")

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any] | None) -> WebConfig:
        """Read a ``[web]`` section; missing keys keep their defaults."""
        section = dict(section or {})
        fields = {f.name: f for f in dataclasses.fields(cls)}
        unknown = sorted(set(section) - set(fields))
        if unknown:
            raise WebConfigError(
                f"unknown web setting(s): {', '.join(unknown)}; known: {', '.join(fields)}"
            )
        values: dict[str, Any] = {}
        for key, value in section.items():
            default = fields[key].default
            if isinstance(default, bool) or isinstance(value, bool):
                ok = isinstance(value, bool) and isinstance(default, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float))
                value = float(value) if ok else value
            else:
                ok = isinstance(value, type(default))
            if not ok:
                raise WebConfigError(
                    f"web.{key} must be {type(default).__name__}, got {value!r}"
                )
            values[key] = value
        return cls(**values)
