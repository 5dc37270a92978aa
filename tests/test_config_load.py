"""Settings: defaults, a TOML file over them, the environment over that; typos rejected by name."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.config import ConfigError


def test_shipped_reference_equals_the_defaults_in_code() -> None:
    shipped = Path(config.__file__).with_name("defaults.toml")
    assert tomllib.loads(shipped.read_text(encoding="utf-8")) == config.DEFAULTS


def test_missing_default_file_means_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "absent.toml")
    cfg = config.load(None, environ={})
    assert cfg.path is None
    assert cfg.section("web")["port"] == config.DEFAULTS["web"]["port"]


def test_missing_named_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="absent.toml"):
        config.load(tmp_path / "absent.toml", environ={})


def test_file_overrides_and_each_stage_gets_only_its_section(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[web]\nport = 9000\n[hardware]\nbuttons = [1, 2]\nbounce_s = 0\n')
    cfg = config.load(path, environ={})
    web = cfg.section("web")
    assert web["port"] == 9000 and "buttons" not in web
    hw = cfg.section("hardware")
    assert hw["buttons"] == [1, 2] and hw["bounce_s"] == 0.0 and isinstance(hw["bounce_s"], float)
    hw["buttons"].append(3)  # a stage's copy cannot change the settings
    assert cfg.section("hardware")["buttons"] == [1, 2]


@pytest.mark.parametrize(
    "text, needle",
    [
        ("[web]\nprot = 1\n", "web.prot"),
        ("[wbe]\nport = 1\n", "[wbe]"),
        ("[web]\nport = '8000'\n", "web.port"),
        ("[camera]\nsource = 'webcam'\n", "camera.source"),
        ("[hardware]\nleds = [1, 'x']\n", "hardware.leds"),
        ("[table]\nadvisor = 1\n", "table.advisor"),
        ("[web\n", "c.toml"),
        ("[table]\nsetup = {a = " + "[" * 5000 + "1" + "]" * 5000 + "}\n", "nested too deep"),
    ],
)
def test_bad_files_are_rejected_naming_the_key(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={})
    assert needle in str(info.value)


def test_environment_wins_over_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[web]\nport = 9000\n")
    env = {
        "COMPANION_WEB_PORT": "9100",
        "COMPANION_CAMERA_DEVICE": "0",
        "COMPANION_HARDWARE_LEDS": "[4, 5]",
        "COMPANION_TABLE_DATABASE": "/tmp/x.sqlite",
        "OTHER": "ignored",
    }
    cfg = config.load(path, environ=env)
    assert cfg.section("web")["port"] == 9100
    assert cfg.section("camera")["device"] == "0"
    assert cfg.section("hardware")["leds"] == [4, 5]
    assert cfg.section("table")["database"] == "/tmp/x.sqlite"


def test_unknown_environment_key_is_rejected() -> None:
    with pytest.raises(ConfigError, match="web.prot"):
        config.load(None, environ={"COMPANION_WEB_PROT": "1"})
    with pytest.raises(ConfigError, match="COMPANION_NOPE_X"):
        config.load(None, environ={"COMPANION_NOPE_X": "1"})


def test_replace_validates_like_a_file() -> None:
    cfg = config.defaults().replace("web", port=1234)
    assert cfg.section("web")["port"] == 1234
    with pytest.raises(ConfigError, match="web.port"):
        cfg.replace("web", port="x")


@pytest.mark.parametrize("setting", [
    {"session_hours": float("inf")}, {"session_hours": 1e308}, {"heartbeat_s": float("nan")},
    {"threads": 1_000_000},
])
def test_web_settings_a_server_cannot_keep_are_refused(setting: dict[str, float]) -> None:
    """Each passed the check and ended ``companion run`` at start: a session of infinite
    hours overflowed the date, a million threads ran out of memory on the way."""
    from web.config import WebConfig, WebConfigError

    with pytest.raises(WebConfigError, match=f"web.{next(iter(setting))}"):
        WebConfig.from_mapping(setting)
