"""The table's commands: systemd notification by hand, export, and their errors."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from companion import cli
from companion.commands import sd_notify, watchdog_interval
from companion.store import Store


def test_sd_notify_sends_one_datagram_to_the_notify_socket(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        assert sd_notify("READY=1", {"NOTIFY_SOCKET": path})
        assert server.recv(256) == b"READY=1"
        assert sd_notify("WATCHDOG=1", {"NOTIFY_SOCKET": path})
        assert server.recv(256) == b"WATCHDOG=1"


def test_sd_notify_to_an_abstract_socket() -> None:
    name = f"companion-test-{id(object())}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        assert sd_notify("STOPPING=1", {"NOTIFY_SOCKET": "@" + name})
        assert server.recv(256) == b"STOPPING=1"


def test_sd_notify_outside_systemd_is_a_quiet_no(tmp_path: Path) -> None:
    assert not sd_notify("READY=1", {})
    assert not sd_notify("READY=1", {"NOTIFY_SOCKET": str(tmp_path / "gone")})


def test_watchdog_interval_is_half_of_watchdog_sec() -> None:
    import os

    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "soon"}) is None


def _db_with_a_game(tmp_path: Path) -> tuple[Path, int]:
    db = tmp_path / "log.sqlite"
    with Store(db) as s:
        gid = s.new_game("moerder", "Finde den Mörder", {"players": ["Ana", "Ben"], "first": 0},
                         [("Ana", "red"), ("Ben", "blue")])
        s.append(gid, {"type": "turn_tile", "cell": [0, 0], "tile": "Ö"}, "camera")
        s.append(gid, {"type": "next"}, "button")
    return db, gid


def test_export_prints_the_game_as_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, gid = _db_with_a_game(tmp_path)
    assert cli.main(["export", str(gid), "--db", str(db)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["id"] == gid and out["setup"]["players"] == ["Ana", "Ben"]
    assert [e["event"]["type"] for e in out["events"]] == ["turn_tile", "next"]
    assert out["events"][0]["event"]["tile"] == "Ö"
    target = tmp_path / "game.json"
    assert cli.main(["export", str(gid), "--db", str(db), "-o", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8")) == out


def test_export_errors_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, gid = _db_with_a_game(tmp_path)
    assert cli.main(["export", str(gid + 5), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: no game") and err.count("\n") == 1
    assert cli.main(["export", "1", "--db", str(tmp_path / "none.sqlite")]) == 2
    assert "no event log" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"garbage" * 100)
    assert cli.main(["export", "1", "--db", str(junk)]) == 2
    assert "not a database" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\ndatabse = 'x'\n")
    assert cli.main(["export", "1", "--config", str(bad)]) == 2
    assert "table.databse" in capsys.readouterr().err


def test_export_says_which_log_it_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, gid = _db_with_a_game(tmp_path)
    assert cli.main(["export", str(gid), "--db", str(db)]) == 0
    assert capsys.readouterr().err == f"game {gid} read from {db} (--db)\n"


def test_export_without_db_names_the_services_log_and_how_to_read_another(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, gid = _db_with_a_game(tmp_path)
    settings = tmp_path / "config.toml"
    settings.write_text(f"[table]\ndatabase = '{db}'\n")
    assert cli.main(["export", str(gid), "--config", str(settings)]) == 0
    err = capsys.readouterr().err
    assert err == f"game {gid} read from {db} (the table service's log, from --config {settings})\n"
    assert cli.main(["export", str(gid + 5), "--config", str(settings)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"no game {gid + 5} in {db}" in err
    assert "the table service's log" in err and "--db FILE names another log" in err
    settings.write_text(f"[table]\ndatabase = '{tmp_path / 'gone.sqlite'}'\n")
    assert cli.main(["export", "1", "--config", str(settings)]) == 2
    err = capsys.readouterr().err
    assert "no event log there (the table service's log" in err and "--db FILE" in err


@pytest.mark.parametrize("speed", ["0", "nan", "1e-308", "1e9"])
def test_demo_refuses_a_bad_speed(capsys: pytest.CaptureFixture[str], speed: str) -> None:
    """1e-308 was taken, and the replayed camera's clock overflowed: the demo hung."""
    assert cli.main(["demo", "--speed", speed]) == 2
    assert "--speed must be 0.1-100" in capsys.readouterr().err


def test_run_tells_systemd_it_is_ready_and_stops_cleanly(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    notify = str(tmp_path / "notify")
    conf = tmp_path / "config.toml"
    conf.write_text(
        f'[table]\ndatabase = "{tmp_path / "table.sqlite"}"\nplayers = ["Ana", "Ben"]\n'
        '[camera]\nsource = "none"\n[hardware]\npin_factory = "mock"\n'
        '[web]\nhost = "127.0.0.1"\nport = 0\n'
    )
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(notify)
        server.settimeout(60)
        env = {**os.environ, "NOTIFY_SOCKET": notify, "WATCHDOG_USEC": "400000"}
        env.pop("WATCHDOG_PID", None)
        log = open(tmp_path / "log.txt", "w")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "run", "--config", str(conf)],
            stdout=subprocess.PIPE, stderr=log, text=True, env=env,
            cwd=Path(__file__).resolve().parent.parent,
        )
        try:
            assert proc.stdout is not None
            lines = [proc.stdout.readline() for _ in range(2)]
            assert lines[0].startswith("PIN: ")  # chosen at first start, printed once
            url = lines[1].split()[1].replace(lines[1].split("//")[1].split(":")[0], "127.0.0.1")
            assert server.recv(256).startswith(b"READY=1")
            assert server.recv(256) == b"WATCHDOG=1"  # the loop is alive
            with urllib.request.urlopen(url + "api/state", timeout=10) as resp:
                state = json.loads(resp.read())
            assert [p["name"] for p in state["players"]] == ["Ana", "Ben"]
            assert state["camera"]["status"] == "none"
            proc.send_signal(signal.SIGTERM)
            while (msg := server.recv(256)) == b"WATCHDOG=1":
                pass
            assert msg == b"STOPPING=1"
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            log.close()
    with Store(tmp_path / "table.sqlite") as s:  # the PIN is stored hashed, not printed twice
        assert s.has_pin() and s.check_pin(lines[0].split()[1])
