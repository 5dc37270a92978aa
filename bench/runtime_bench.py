"""Runtime figures: reading-to-phone latency, the demo's memory, durable events per second.

Run: ``.venv/bin/python bench/runtime_bench.py [--quick]``. Prints one line per figure and a
JSON object at the end. Figures depend on the machine's load; say what else ran.

- latency: a frame that shows a newly turned tile, through the vision reader, the table
  thread, the durable commit and out to a live subscriber (what an SSE stream sends). Measured
  from the moment the camera delivered the frame that confirms the reading (the runtime needs
  ``stable_frames`` agreeing frames; the wait for the second frame is one frame period and is
  reported separately, as it is a setting, not work).
- rss: peak resident memory (VmHWM) of a ``companion demo`` process over one round.
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


class _TimedReplay:
    """A replay source that notes when each frame was handed over (bench instrumentation)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.live = False
        self.times: dict[int, float] = {}

    def open(self) -> None:
        self.inner.open()

    def close(self) -> None:
        self.inner.close()

    def read(self) -> Any:
        frame = self.inner.read()
        self.times[frame.index] = time.perf_counter()
        return frame


def latency(turns: int) -> dict[str, Any]:
    """Median and worst ms from the confirming frame to a subscriber seeing the tile."""
    from gpiozero.pins.mock import MockFactory

    from companion import config as config_mod
    from companion import demo
    from companion.runtime import Runtime, VisionReader
    from companion.store import Store
    from vision.sources import ReplaySource

    script = demo.choose_script(7)
    folder = demo.cache_dir() / demo.session_key(script, demo.DEFAULT_SIZE)
    demo.render_session(script, folder)
    turns = min(turns, len(script.boards) - 1)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = config_mod.defaults()
        cfg = cfg.replace("table", database=f"{tmp}/l.sqlite", players=list(script.players),
                          advisor=False, reminder_s=0.0)
        cfg = cfg.replace("hardware", pin_factory="mock")
        reader = VisionReader(cfg.section("vision"))
        source = _TimedReplay(ReplaySource(folder, speed=1.0))  # the recording's own timing
        seen: list[float] = []
        waits: list[float] = []
        with Store(cfg.section("table")["database"]) as store, Runtime(
            cfg, store, pin_factory=MockFactory()
        ) as rt, rt.subscribe() as sub:
            rt.attach_camera(source, reader)
            face_up = 0
            deadline = time.monotonic() + 30 + 6 * turns
            while len(seen) < turns and time.monotonic() < deadline:
                msg = sub.get(timeout=1.0)
                if msg is None:
                    continue
                got = time.perf_counter()
                board = (msg.get("view") or {}).get("board", "")
                count = sum(ch not in "./" for ch in board)
                if count > face_up:
                    face_up = count
                    # the confirming frame: the newest one read before this message
                    idx = max(i for i, t in source.times.items() if t <= got)
                    seen.append((got - source.times[idx]) * 1000)
                    if idx - 1 in source.times:
                        waits.append((source.times[idx] - source.times[idx - 1]) * 1000)
                    if msg["view"].get("phase") == "playing" and not msg["view"].get("pending"):
                        try:
                            rt.submit({"action": "next"}, source="bench")
                        except Exception:  # a claim is due instead: the game ends here
                            break
    if not seen:
        return {"turns": 0}
    return {
        "turns": len(seen),
        "median_ms": round(statistics.median(seen), 1),
        "max_ms": round(max(seen), 1),
        "stability_wait_ms": round(statistics.median(waits), 1) if waits else None,
    }


def demo_rss(speed: float) -> dict[str, Any]:
    """Peak RSS of `companion demo` over one round (MB)."""
    exe = REPO / ".venv" / "bin" / "companion"
    proc = subprocess.Popen(
        [str(exe), "demo", "--port", "0", "--host", "127.0.0.1", "--rounds", "1",
         "--speed", str(speed), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
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
    return {"peak_rss_mb": round(peak / 1024, 1), "exit": proc.returncode}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples")
    args = parser.parse_args()
    out: dict[str, Any] = {"load": os.getloadavg()[0]}
    n = 100 if args.quick else 500
    out["durable_events_per_s"] = round(durable_events_per_s(n), 1)
    print(f"durable events/s (synchronous=FULL, {n} appends): {out['durable_events_per_s']}")
    lat = latency(4 if args.quick else 10)
    out["latency"] = lat
    print(f"frame to subscriber latency: {lat}")
    rss = demo_rss(speed=4.0)
    out["demo"] = rss
    print(f"companion demo peak RSS: {rss['peak_rss_mb']} MB (target <= 150 MB)")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
