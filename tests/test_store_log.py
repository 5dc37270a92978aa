"""The event log: games, events, settings, migrations and export, on a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion import store as store_mod
from companion.store import Store, StoreError


def _clock() -> object:
    t = [1_700_000_000.0]

    def tick() -> float:
        t[0] += 1.5
        return t[0]

    return tick


def test_events_come_back_in_order_and_survive_reopening(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Store(path) as s:
        gid = s.new_game("moerder", "Finde den Mörder", {"players": ["Ana", "Ben"], "first": 0},
                         [("Ana", "red"), ("Ben", "blue")])
        bodies = [{"type": "next"}, {"type": "turn_tile", "cell": [0, 1], "tile": "Ö"}, {"type": "undo"}]
        acks = [s.append(gid, b, "button") for b in bodies]
        assert [a.seq for a in acks] == [1, 2, 3]
    with Store(path) as s:
        assert [e.body for e in s.events(gid)] == bodies
        rec = s.current()
        assert rec is not None and rec.id == gid and rec.players == (("Ana", "red"), ("Ben", "blue"))
        assert rec.events == 3 and rec.ended is None
        assert s.integrity() == "ok"
        mode = s._conn.execute("PRAGMA journal_mode").fetchone()[0]
        sync = s._conn.execute("PRAGMA synchronous").fetchone()[0]
        assert (mode, sync) == ("wal", 2)  # 2 = FULL


def test_an_ended_game_is_no_longer_current_and_its_log_is_closed(tmp_path: Path) -> None:
    with Store(tmp_path / "log.sqlite") as s:
        a = s.new_game("moerder", "M", {}, [("A", "red"), ("B", "blue")])
        b = s.new_game("moerder", "M", {}, [("C", "red"), ("D", "blue")])
        s.end_game(b, {"winner": "C"})
        cur = s.current()
        assert cur is not None and cur.id == a
        with pytest.raises(StoreError, match="ended"):
            s.append(b, {"type": "next"}, "web")
        with pytest.raises(KeyError):
            s.append(999, {"type": "next"}, "web")
        assert [g.id for g in s.games()] == [b, a]
        assert s.games()[0].summary()["winner"] == "C"


def test_the_winning_event_and_the_end_are_one_transaction(tmp_path: Path) -> None:
    with Store(tmp_path / "log.sqlite") as s:
        gid = s.new_game("moerder", "M", {}, [("A", "red"), ("B", "blue")])
        s.append(gid, {"type": "claim", "player": 0}, "button", end={"winner": "A"})
        rec = s.game(gid)
        assert rec.ended is not None and rec.result == {"winner": "A"} and rec.events == 1
        assert s.current() is None
        # undoing the end reopens the log in the undo's own transaction
        s.append(gid, {"type": "undo"}, "web", reopen=True)
        rec = s.game(gid)
        assert rec.ended is None and rec.result is None and rec.events == 2
        # a failed write changes nothing: neither the event nor the end
        with pytest.raises(KeyError):
            s.append(gid + 1, {"type": "next"}, "web", end={"winner": "B"})
        assert s.game(gid).ended is None


def test_export_holds_setup_players_and_every_event(tmp_path: Path) -> None:
    with Store(tmp_path / "log.sqlite", clock=_clock()) as s:  # type: ignore[arg-type]
        gid = s.new_game("moerder", "Finde den Mörder", {"players": ["Ana", "Ben"], "first": 1},
                         [("Ana", "red"), ("Ben", "blue")])
        s.append(gid, {"type": "next"}, "button")
        s.append(gid, {"type": "claim", "player": 0, "cells": None}, "web")
        out = s.export(gid)
        assert out["setup"] == {"players": ["Ana", "Ben"], "first": 1}
        assert [p["name"] for p in out["players"]] == ["Ana", "Ben"]
        assert [(e["seq"], e["source"], e["event"]["type"]) for e in out["events"]] == [
            (1, "button", "next"),
            (2, "web", "claim"),
        ]
        assert out["events"][0]["at"] < out["events"][1]["at"]
        with pytest.raises(KeyError):
            s.export(gid + 1)


def test_pin_is_stored_hashed_and_the_session_secret_is_stable(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    with Store(path) as s:
        assert not s.has_pin() and not s.check_pin("1234")
        s.set_pin("482913")
        secret = s.session_secret()
    with Store(path) as s:
        assert s.check_pin("482913") and not s.check_pin("482914")
        assert "482913" not in (s.setting("pin_hash") or "")
        assert s.session_secret() == secret
    assert not store_mod.verify_pin("1", "garbage")
    assert len(store_mod.new_pin()) == 6


def test_a_file_from_a_newer_companion_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {store_mod.SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="schema version"):
        Store(path)


def test_an_old_file_is_migrated_step_by_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log.sqlite"
    with Store(path) as s:
        gid = s.new_game("moerder", "M", {}, [("A", "red"), ("B", "blue")])
        s.append(gid, {"type": "next"}, "web")
    extra = "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';"
    monkeypatch.setattr(store_mod, "MIGRATIONS", (*store_mod.MIGRATIONS, extra))
    monkeypatch.setattr(store_mod, "SCHEMA_VERSION", len(store_mod.MIGRATIONS))
    with Store(path) as s:
        assert s._conn.execute("PRAGMA user_version").fetchone()[0] == store_mod.SCHEMA_VERSION
        assert s._conn.execute("SELECT note FROM games").fetchone()[0] == ""
        assert [e.body for e in s.events(gid)] == [{"type": "next"}]


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "log.sqlite"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="log.sqlite"):
        Store(path)
