"""Table figures: reading-to-phone latency, the demo's memory, durable events per second.

Run: ``.venv/bin/python bench/runtime_bench.py [--quick]``. Prints one line per figure and a
JSON object at the end. Figures depend on the machine's load; say what else ran.

- latency: a frame that shows a newly turned tile, through the vision reader, the table
  thread, the durable commit and out to a live subscriber (what an SSE stream sends). Measured
  from the moment the camera delivered the frame that confirms the reading (the runtime needs
  ``stable_frames`` agreeing still frames; waiting for the second one is one frame period,
  a setting rather than work, and is not included).
- rss: peak resident memory (VmHWM) of a ``companion demo`` process over a round of each of
  its games (Finde den Mörder, then Wort-Kniffel), and over the Mörder round alone.
- events/s: ``Store.append`` with ``synchronous=FULL`` on this disk (each one fsynced).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def durable_events_per_s(n: int) -> float:
    from companion.store import Store

    with tempfile.TemporaryDirectory(dir=REPO) as tmp, Store(Path(tmp) / "b.sqlite") as store:
        gid = store.new_game("moerder", "M", {"players": ["A", "B"]}, [("A", "r"), ("B", "b")])
        t0 = time.perf_counter()
        for i in range(n):
            store.append(gid, {"type": "turn_tile", "cell": [i % 6, i // 6 % 6], "tile": "M"}, "bench")
        return n / (time.perf_counter() - t0)


def latency(speed: float = 1.0) -> dict[str, Any]:
    """ms from the camera delivering a frame to a subscriber holding the state it changed.

    One round of the demo game (the demo's director plays the people: presses, answers,
    corrections), watched through a live subscription like an SSE stream. Only changes the
    camera made count; each is timed from the read of the frame that confirmed the reading.
    """
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion import config as config_mod
    from companion import demo
    from companion.table import GridReader
    from companion.table import Table
    from companion.store import Store

    script = demo.choose_script(7)
    folder = demo.cache_dir() / demo.session_key(script, demo.DEFAULT_SIZE)
    demo.render_session(script, folder)
    seen: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config_mod.defaults()
        cfg = cfg.replace("table", database=f"{tmp}/l.sqlite", players=list(script.players),
                          advisor=True, reminder_s=0.0)
        cfg = cfg.replace("hardware", pin_factory="mock")
        vision = GridReader(cfg.section("vision"))
        reads: list[float] = []

        def reader(image: Any) -> Any:  # the vision reader, timed
            t0 = time.perf_counter()
            try:
                return vision(image)
            finally:
                reads.append((time.perf_counter() - t0) * 1000)

        factory = MockFactory(pin_class=MockPWMPin)
        with Store(cfg.section("table")["database"]) as store, Table(
            cfg, store, pin_factory=factory
        ) as rt, rt.subscribe() as sub:
            director = demo.Director(rt, script, folder, reader, factory, speed=speed,
                                     rounds=1, pause_s=0.0, say=lambda line: None).start()
            deadline = time.monotonic() + 60 + 8 * len(script.boards) / speed
            last_version = 0
            counted: set[float] = set()
            while time.monotonic() < deadline:
                msg = sub.get(timeout=0.5)
                if msg is None:
                    if not director._thread.is_alive():
                        break
                    continue
                got = time.perf_counter()
                last = msg.get("last") or {}
                if msg["version"] > last_version and "frame_at" in last:
                    if last["frame_at"] not in counted:  # later messages repeat `last`
                        counted.add(last["frame_at"])
                        seen.append((got - float(last["frame_at"])) * 1000)
                last_version = msg["version"]
            director.close()
    if not seen:
        return {"changes": 0}
    return {
        "changes": len(seen),
        "median_ms": round(statistics.median(seen), 1),
        "p90_ms": round(sorted(seen)[int(0.9 * (len(seen) - 1))], 1),
        "max_ms": round(max(seen), 1),
        "of_which_vision_read_median_ms": round(statistics.median(reads), 1) if reads else None,
    }


def demo_rss(speed: float, rounds: int = 2) -> dict[str, Any]:
    """Peak RSS (MB) of ``companion demo`` over its first ``rounds`` games.

    The plain demo alternates Finde den Mörder and Wort-Kniffel, so two rounds are what a
    user runs: the second game starts with whatever the first one left behind. The
    checkout's own code runs (``-m companion.cli`` from the repository), not whatever
    ``companion`` is installed.
    """
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--port", "0", "--host", "127.0.0.1",
         "--rounds", str(rounds), "--speed", str(speed), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO, env=env,
    )
    peak = 0
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout or []), daemon=True)
    reader.start()
    status = Path(f"/proc/{proc.pid}/status")
    try:
        while proc.poll() is None:
            try:
                for line in status.read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
            except OSError:
                break
            time.sleep(0.2)
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(timeout=30)
    played = sum(line.startswith("demo: round ") for line in lines)
    return {"peak_rss_mb": round(peak / 1024, 1), "rounds": played, "exit": proc.returncode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    parser.add_argument("--rss", action="store_true", help="only the demo's memory")
    parser.add_argument("--speed", type=float, default=4.0, help="the demo's replay speed")
    args = parser.parse_args()
    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    if args.rss:
        _rss(out, args.speed)
        return
    n = 100 if args.quick else 500
    out["durable_events_per_s"] = round(durable_events_per_s(n), 1)
    print(f"durable events/s (synchronous=FULL, {n} appends): {out['durable_events_per_s']}")
    lat = latency(2.0 if args.quick else 1.0)
    out["latency"] = lat
    print(f"frame to subscriber latency: {lat}")
    _rss(out, args.speed)


def _rss(out: dict[str, Any], speed: float) -> None:
    """The demo's peak over Finde den Mörder alone and over a round of both games."""
    out["demo"] = {"moerder": demo_rss(speed, rounds=1), "both": demo_rss(speed, rounds=2)}
    for name, rss in out["demo"].items():
        print(f"companion demo peak RSS ({name}, {rss['rounds']} rounds): "
              f"{rss['peak_rss_mb']} MB (target <= 150 MB)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
