"""The table's first start plays the configured game, any game, set up from the settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.config import ConfigError
from companion.games import game_names
from companion.games.base import Refused
from companion.table import Table
from companion.store import Store

NAMES = ["Ana", "Ben", "Cem"]

# each registered game with the settings a table would use for it
SETUPS: dict[str, dict[str, Any]] = {
    "moerder": {},
    "kniffel": {},
    "murdero": {},
    "serialkiller": {},
    "search": {"seed": 7},
}


def start(tmp_path: Path, factory: MockFactory, game: str, setup: dict[str, Any]) -> Table:
    cfg = config_mod.defaults().replace("table", database=str(tmp_path / "log.sqlite"),
                                        game=game, players=NAMES, setup=setup, advisor=False,
                                        reminder_s=0.0)
    store = Store(cfg.section("table")["database"])
    try:
        return Table(cfg, store, pin_factory=factory).start()
    except BaseException:
        store.close()
        raise


def test_every_registered_game_has_a_table_setting_here() -> None:
    assert set(SETUPS) == set(game_names())


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_the_first_start_plays_the_configured_game(tmp_path: Path, factory: MockFactory,
                                                   game: str) -> None:
    rt = start(tmp_path, factory, game, SETUPS[game])
    try:
        snap = rt.snapshot()
        assert snap["game"] == game and snap["events"] == 0
        assert [p["name"] for p in snap["players"]] == NAMES
        record = rt.store.game(snap["game_id"])
        assert record.setup == {"players": NAMES, **SETUPS[game]}  # the log keeps it as given
    finally:
        rt.close()
        rt.store.close()


def test_moerders_first_player_is_the_games_default_or_the_setting(tmp_path: Path,
                                                                   factory: MockFactory) -> None:
    rt = start(tmp_path / "a", factory, "moerder", {})
    try:
        assert rt.snapshot()["view"]["turn"] == 0
    finally:
        rt.close()
        rt.store.close()
    rt = start(tmp_path / "b", factory, "moerder", {"first": 2})
    try:
        assert rt.snapshot()["view"]["turn"] == 2
    finally:
        rt.close()
        rt.store.close()


def test_a_table_plays_kniffel_with_the_german_word_list(tmp_path: Path, factory: MockFactory) -> None:
    rt = start(tmp_path, factory, "kniffel", {})
    try:
        rt.submit({"action": "event", "event": {"type": "throw", "dice": "T2 O3 R2 E1 I1 C4 H3"}})
        with pytest.raises(Refused) as refused:  # the dice lay TH, but it is no word
            rt.submit({"action": "event", "event": {"type": "enter", "box": "two",
                                                    "words": ["TH"]}})
        assert refused.value.code == "not_a_word"
        snap = rt.submit({"action": "event", "event": {"type": "enter", "box": "two",
                                                       "words": ["OH"]}})
        assert snap["events"] == 2
    finally:
        rt.close()
        rt.store.close()


@pytest.mark.parametrize(
    ("game", "setup", "needle"),
    [
        ("search", {}, "table.setup for search: set-up needs 'house'"),
        ("murdero", {"rounds": 3}, "table.setup for murdero: set-up: unknown field(s) rounds"),
        ("serialkiller", {"first": "Zoe"}, "table.setup for serialkiller: first player 'Zoe'"),
        ("chess", {}, "table.game: unknown game 'chess'"),
    ],
)
def test_a_setup_the_game_rejects_stops_the_start_naming_the_key(
    tmp_path: Path, factory: MockFactory, game: str, setup: dict[str, Any], needle: str
) -> None:
    with pytest.raises(ConfigError) as err:
        start(tmp_path, factory, game, setup)
    assert str(err.value).startswith(needle) and "\n" not in str(err.value)


def test_the_setup_comes_from_the_file_and_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[table]\ngame = "search"\n\n[table.setup]\nseed = 3\n', encoding="utf-8")
    assert config_mod.load(path, environ={}).section("table")["setup"] == {"seed": 3}
    env = {"COMPANION_TABLE_SETUP": '{ seed = 5, dot_rule = "different" }'}
    assert config_mod.load(path, environ=env).section("table")["setup"] == {
        "seed": 5, "dot_rule": "different"}
    path.write_text("[table]\nsetup = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="table.setup must be a table of keys"):
        config_mod.load(path, environ={})
