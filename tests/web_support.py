"""The tables the web tests run against: the real runtime, in process or as `companion demo`.

:func:`make_table` builds ``companion.table.Table`` on real parts (a temp SQLite event log,
gpiozero's MockFactory, no camera: readings are posted as the camera thread would).
:func:`start_demo` runs ``companion demo`` as a subprocess, exactly as a newcomer would.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient
from gpiozero.pins.mock import MockFactory

from companion import config as config_mod
from companion.games.readings import GridReading
from companion.table import Table
from companion.store import Store, hash_pin

PIN = "482916"
Table = Table


def _empty_table(image: Any) -> GridReading:
    return GridReading("." * 36)  # every tile face down, whatever the frame shows


@contextlib.contextmanager
def make_table(tmp: Path, players: tuple[str, ...] = ("Ana", "Ben"), camera: bool = False,
               **web: Any) -> Iterator[Table]:
    """A running table; ``camera`` attaches a replay camera of a few plain frames (its reader
    sees every tile face down), so the MJPEG view has pictures to send."""
    tmp.mkdir(parents=True, exist_ok=True)
    cfg = config_mod.defaults()
    cfg = cfg.replace("table", database=str(tmp / "table.sqlite"), players=list(players),
                      advisor=False, reminder_s=0.0)
    cfg = cfg.replace("hardware", bounce_s=0.0)
    source = None
    if camera:
        import cv2
        import numpy as np

        from vision.sources import ReplaySource

        folder = tmp / "frames"
        folder.mkdir(exist_ok=True)
        for i in range(3):
            cv2.imwrite(str(folder / f"{i:03d}.png"), np.full((48, 64, 3), 60 + 40 * i, np.uint8))
        cfg = cfg.replace("camera", source="replay", device=str(folder), loop=True, fps=20.0,
                          read_timeout_s=1.0)
        source = ReplaySource(folder, fps=20.0, loop=True)
    if web:
        cfg = cfg.replace("web", **web)
    factory = MockFactory()
    try:
        with Store(tmp / "table.sqlite") as store:
            # A cheap hash keeps the tests quick; the runtime reads the rounds from the hash.
            store.set_setting("pin_hash", hash_pin(PIN, rounds=1000))
            with Table(cfg, store, source=source, reader=_empty_table if camera else None,
                         pin_factory=factory) as runtime:
                yield runtime
    finally:
        factory.reset()


def turn_a_tile_for_the_player_on_turn(client: FlaskClient, headers: Mapping[str, str]) -> None:
    """Turn the first face-down tile by hand from the phone (no camera on this table)."""
    cells = client.get("/api/state").get_json()["view"]["cells"]
    cell = next([r, c] for r in range(6) for c in range(6) if cells[r][c] is None)
    response = client.post("/api/action", json={"action": "turn", "cell": cell, "tile": "M"},
                           headers=headers)
    assert response.status_code == 200, response.get_json()


def see_a_tile(runtime: Table) -> None:
    """What the camera does: a face-down tile seen turned, stable over two readings."""
    cells = runtime.snapshot()["view"]["cells"]
    grid = "".join("." if t is None else t for row in cells for t in row)
    i = grid.index(".")
    grid = grid[:i] + "E" + grid[i + 1:]
    for _ in range(2):
        runtime.post_reading(GridReading(grid))
    runtime.drain()


class Site:
    """A dashboard being served on a free port, with its PIN and ways to move the table."""

    def __init__(self, url: str, port: int, pin: str) -> None:
        self.url = url
        self.port = port
        self.pin = pin


@contextlib.contextmanager
def start_demo(tmp: Path, speed: float = 2.0, timeout_s: float = 120.0) -> Iterator[Site]:
    """``companion demo --port 0`` as a newcomer runs it; stopped with Ctrl+C (SIGINT)."""
    exe = Path(sys.executable).with_name("companion")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "companion.cli"]
    command += ["demo", "--port", "0", "--speed", str(speed), "--db", str(tmp / "demo.sqlite"),
                "--quiet"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[str] = queue.Queue()
    log: list[str] = []

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            log.append(line)
            lines.put(line)
        lines.put("")

    threading.Thread(target=pump, name="demo-stdout", daemon=True).start()
    url = pin = None
    try:
        while url is None or pin is None:
            try:
                line = lines.get(timeout=timeout_s)
            except queue.Empty:
                raise AssertionError("companion demo printed no address:\n" + "".join(log)) from None
            if line == "" and proc.poll() is not None:
                raise AssertionError("companion demo ended:\n" + "".join(log))
            if m := re.match(r"^Dashboard: (\S+)", line):
                url = m.group(1) if m.group(1).endswith("/") else m.group(1) + "/"
            if m := re.match(r"^PIN: (\S+)", line):
                pin = m.group(1)
        port = int(re.search(r":(\d+)/", url).group(1))  # type: ignore[union-attr]
        yield Site(url, port, pin)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


CHROMIUM = Path("/usr/bin/chromium")  # Debian's chromium (scripts/setup --dev); never downloaded
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def launch() -> Iterator[Any]:
    """Headless Chromium under Playwright for one module's browser tests; skips without it."""
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (scripts/setup --dev installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield b
        finally:
            b.close()
