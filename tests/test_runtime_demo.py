"""The demo: its scripted game follows the rules, and `companion demo` serves a changing table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from companion import demo
from companion.games.moerder.board import Board, Tile, neighbours
from companion.games.moerder.chain import find_chains

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_the_script_turns_one_tile_a_turn_or_the_victim_with_its_neighbours(seed: int) -> None:
    script = demo.play_out(seed)
    assert script == demo.play_out(seed)  # seeded
    assert all(t is None for t in script.boards[0].cells)
    for before, after in zip(script.boards, script.boards[1:]):
        new = [i for i in range(36) if before.cells[i] is None and after.cells[i] is not None]
        assert all(after.cells[i] == before.cells[i] for i in range(36) if before.cells[i])
        if len(new) > 1:
            victim = [i for i in new if after.cells[i] is Tile.VICTIM]
            assert len(victim) == 1
            around = {r * 6 + c for r, c in neighbours(divmod(victim[0], 6))}
            assert set(new) - set(victim) == {i for i in around if before.cells[i] is None}
        else:
            assert len(new) == 1
        # nobody could have claimed before the last turn
        if after is not script.boards[-1]:
            assert not find_chains(after, limit=1)
    assert bool(find_chains(script.boards[-1], limit=1)) == script.claim


def test_the_chosen_script_is_worth_watching() -> None:
    script = demo.choose_script(7)
    assert script.claim and 12 <= len(script.boards) - 1 <= 24
    assert any(Tile.VICTIM in b.cells for b in script.boards)
    assert isinstance(script.boards[-1], Board)


def _get(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=10) as resp:
        return json.loads(resp.read())


@pytest.mark.slow
def test_companion_demo_serves_a_table_that_changes(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--port", "0", "--host", "127.0.0.1",
         "--speed", "3", "--db", str(tmp_path / "demo.sqlite")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO, env=env,
    )
    try:
        assert proc.stdout is not None
        url = pin = None
        lines: list[str] = []
        deadline = time.monotonic() + 240  # the first start renders the game once
        while (url is None or pin is None) and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if m := re.match(r"^Dashboard: (\S+)", line):
                url = m.group(1)
            if m := re.match(r"^PIN: (\S+)", line):
                pin = m.group(1)
        assert url and pin, "".join(lines[-20:])
        first = _get(url + "api/state")
        assert first["game"] == "moerder"
        changed = None
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            state = _get(url + "api/state")
            view = state["view"]
            if any(ch not in "./" for ch in view["board"]):  # type: ignore[index]
                changed = state
                break
            time.sleep(0.5)
        assert changed is not None, "the demo never turned a tile"
        assert changed["version"] > first["version"]  # type: ignore[operator]
        assert changed["camera"]["status"] == "ok"  # type: ignore[index]
    finally:
        proc.terminate()
        try:
            out, _ = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
    assert proc.returncode == 0, out[-2000:]
