"""Layered settings: defaults in code, a TOML file over them, then the environment.

A typo must not silently fall back to a default on a table nobody is watching, so unknown
sections and keys are errors that name them, and every value must have its default's type.
Each stage of the table (camera, vision, hardware, web…) receives only its own section as a
plain dict (picamera2 and Flask take their configuration the same way).

Environment overrides: ``COMPANION_<SECTION>_<KEY>=value`` (upper case), the value read as a
TOML value when it parses as one (``8000``, ``true``, ``[5, 6]``), else as a plain string. They
win over the file, which wins over the defaults. ``companion/defaults.toml`` ships the same
defaults with a comment for each key: it is the reference people copy from.
"""

from __future__ import annotations

import copy
import logging
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import InputError

_log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/companion/config.toml")
ENV_PREFIX = "COMPANION_"

# The single source of the defaults; companion/defaults.toml documents them (a test keeps the
# two equal). Pins are BCM GPIO numbers; -1 means "not connected".
DEFAULTS: dict[str, dict[str, Any]] = {
    "table": {
        "database": "/var/lib/companion/companion.sqlite",
        "game": "moerder",
        "players": ["Rot", "Blau", "Grün", "Gelb"],
        "setup": {},  # the first game's set-up, over {"players": players} (the game's own keys)
        "colours": ["red", "blue", "green", "yellow"],
        "advisor": False,
        "reminder_s": 60.0,
    },
    "camera": {
        "source": "picamera2",
        "device": "0",
        "width": 1640,
        "height": 1232,
        "fps": 4.0,
        "loop": False,
        "reconnect_min_s": 0.5,
        "reconnect_max_s": 30.0,
        "read_timeout_s": 5.0,
    },
    "vision": {
        "stable_frames": 2,
        "min_confidence": 0.6,
        "reference": "",
        "profile": "",
        "dice_profile": "",
    },
    "hardware": {
        "pin_factory": "",
        "buttons": [5, 6, 13, 19],
        "leds": [17, 27, 22, 23],
        "status_led": 24,
        "buzzer": 18,
        "tonal": "auto",
        "pull_up": True,
        "bounce_s": 0.03,
        "long_press_s": 1.0,
        "double_press_s": 0.4,
        "quiet": False,
    },
    "web": {
        "host": "0.0.0.0",
        "port": 8000,
        "threads": 8,
        "max_streams": 64,
        "max_per_address": 24,
        "header_timeout_s": 10.0,
        "idle_timeout_s": 60.0,
        "heartbeat_s": 15.0,
        "language": "de",
        "max_camera_streams": 2,
        "login_attempts": 5,
        "login_window_s": 300.0,
        "login_global_per_minute": 30,
        "session_hours": 12.0,
        "public_url": "",
    },
    "service": {
        "watchdog": True,
    },
    "club": {
        "broker": "",  # "" = a table on its own; mqtt://HOST:PORT or mqtts://HOST:PORT
        "table": "",
        "username": "",
        "password": "",
        "ca_file": "",
        "reconnect_max_s": 30.0,
    },
}

# Keys whose value is one of a closed set.
CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("camera", "source"): ("picamera2", "opencv", "replay", "none"),
    ("hardware", "pin_factory"): ("", "mock", "lgpio", "rpigpio", "pigpio", "native"),
    ("hardware", "tonal"): ("auto", "yes", "no"),
    ("web", "language"): ("de", "en"),
}


class ConfigError(InputError):
    """A settings file or override that cannot be used; the message names the key."""


@dataclass(frozen=True)
class Config:
    """Validated settings. ``section(name)`` hands a stage a copy of its own part only."""

    values: Mapping[str, Mapping[str, Any]]
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        if name not in self.values:
            raise ConfigError(f"no settings section [{name}]")
        return copy.deepcopy(dict(self.values[name]))

    def replace(self, section: str, **changes: Any) -> Config:
        """A copy with some keys of one section changed (validated like a file)."""
        merged = {s: dict(v) for s, v in self.values.items()}
        _merge(merged, {section: changes}, "override")
        return Config(merged, self.path)


def defaults() -> Config:
    return Config(copy.deepcopy(DEFAULTS))


def load(path: str | Path | None = None, environ: Mapping[str, str] | None = None) -> Config:
    """The settings from ``path`` (default /etc/companion/config.toml) and the environment.

    A missing *default* file means the defaults; a missing file that was asked for is an error.
    """
    values: dict[str, dict[str, Any]] = copy.deepcopy(DEFAULTS)
    chosen: Path | None = None
    if path is None:
        if DEFAULT_PATH.is_file():
            chosen = DEFAULT_PATH
    else:
        chosen = Path(path)
        if not chosen.is_file():
            raise ConfigError(f"{chosen}: no such settings file")
    if chosen is not None:
        from companion.inputs import read_text

        try:  # bounded like every input: a settings file is a few kilobytes
            text = read_text(chosen, max_bytes=1 << 20, max_line=None)
        except InputError as exc:
            raise ConfigError(str(exc)) from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{chosen}: {exc}") from None
        except RecursionError:  # tomllib recurses into nested arrays and tables
            raise ConfigError(f"{chosen}: nested too deep to be settings") from None
        except UnicodeDecodeError:
            raise ConfigError(f"{chosen}: not UTF-8 text") from None
        _merge(values, data, str(chosen))
    env = os.environ if environ is None else environ
    _merge(values, _from_environ(env), "environment")
    _log.debug("settings from %s", chosen or "defaults")
    return Config(values, chosen)


def _from_environ(env: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, raw in env.items():
        if not name.startswith(ENV_PREFIX):
            continue
        rest = name[len(ENV_PREFIX):].lower()
        section = next((s for s in DEFAULTS if rest.startswith(s + "_")), None)
        if section is None:
            raise ConfigError(f"{name}: no settings section matches (sections: {', '.join(DEFAULTS)})")
        key = rest[len(section) + 1:]
        try:
            value: Any = tomllib.loads(f"v = {raw}")["v"]
        except (tomllib.TOMLDecodeError, RecursionError):
            value = raw  # taken as the text it is; the setting's own check says what is wrong
        if isinstance(DEFAULTS[section].get(key), str) and not isinstance(value, str):
            value = raw  # COMPANION_CAMERA_DEVICE=0 means the string "0"
        out.setdefault(section, {})[key] = value
    return out


def _merge(values: dict[str, dict[str, Any]], data: Mapping[str, Any], where: str) -> None:
    for section, body in data.items():
        if section not in DEFAULTS:
            raise ConfigError(
                f"{where}: unknown section [{section}] (known: {', '.join(DEFAULTS)})"
            )
        if not isinstance(body, Mapping):
            raise ConfigError(f"{where}: [{section}] must be a table of keys")
        for key, value in body.items():
            if key not in DEFAULTS[section]:
                known = ", ".join(DEFAULTS[section])
                raise ConfigError(f"{where}: unknown key {section}.{key} (known: {known})")
            values[section][key] = _check(section, key, value, where)


def _check(section: str, key: str, value: Any, where: str) -> Any:
    default = DEFAULTS[section][key]
    name = f"{section}.{key}"
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {name} must be true or false, not {value!r}")
    elif isinstance(default, float):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError(f"{where}: {name} must be a number, not {value!r}")
        value = float(value)
        if value < 0:
            raise ConfigError(f"{where}: {name} must not be negative")
    elif isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{where}: {name} must be a whole number, not {value!r}")
    elif isinstance(default, str):
        if not isinstance(value, str):
            raise ConfigError(f"{where}: {name} must be a string, not {value!r}")
        allowed = CHOICES.get((section, key))
        if allowed is not None and value not in allowed:
            raise ConfigError(f"{where}: {name} must be one of {', '.join(map(repr, allowed))}")
    elif isinstance(default, dict):
        if not isinstance(value, Mapping):
            raise ConfigError(f"{where}: {name} must be a table of keys, not {value!r}")
        value = copy.deepcopy(dict(value))
    elif isinstance(default, list):
        if not isinstance(value, list):
            raise ConfigError(f"{where}: {name} must be a list, not {value!r}")
        kind = type(default[0]) if default else str
        if any(isinstance(v, bool) or not isinstance(v, kind) for v in value):
            raise ConfigError(f"{where}: {name} must be a list of {kind.__name__}")
        value = list(value)
    return value
