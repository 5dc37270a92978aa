"""Crash safety: a writer killed with SIGKILL at random moments loses no acknowledged event."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from companion.store import Store

# The writer prints "ack GAME SEQ N" only after Store.append returned, i.e. after the commit;
# every line the parent reads is therefore a promise the file must keep.
WRITER = r"""
import sys
from companion.store import Store
s = Store(sys.argv[1])
rec = s.current()
gid = rec.id if rec else s.new_game("moerder", "M", {"players": ["A", "B"]}, [("A", "red"), ("B", "blue")])
n = int(sys.argv[2])
print("ready", flush=True)
while True:
    n += 1
    ack = s.append(gid, {"type": "tick", "n": n, "pad": "x" * (n % 300)}, "camera")
    sys.stdout.write(f"ack {gid} {ack.seq} {n}\n")
    sys.stdout.flush()
    if n % 37 == 0:
        s.end_game(gid, {"winner": None})
        gid = s.new_game("moerder", "M", {"players": ["A", "B"]}, [("A", "red"), ("B", "blue")])
"""


def test_sigkill_at_random_moments_loses_no_acknowledged_event(tmp_path: Path) -> None:
    rng = random.Random(20261122)
    path = tmp_path / "log.sqlite"
    acked: dict[tuple[int, int], int] = {}
    n = 0
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    for _ in range(8):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), str(n)],
            stdout=subprocess.PIPE, text=True, env=env,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        # kill after a random number of acknowledgements plus a random slice of a write
        for _ in range(rng.randint(1, 60)):
            line = proc.stdout.readline()
            _, gid, seq, num = line.split()
            acked[(int(gid), int(seq))] = int(num)
        time.sleep(rng.uniform(0, 0.01))
        proc.send_signal(signal.SIGKILL)
        for line in proc.stdout:  # acks printed before the kill landed
            if line.endswith("\n"):  # a torn last line never reached anyone: not an ack
                _, gid, seq, num = line.split()
                acked[(int(gid), int(seq))] = int(num)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL
        with Store(path) as s:
            assert s.integrity() == "ok"
            stored = {
                (g.id, e.seq): e.body["n"] for g in s.games(limit=1000) for e in s.events(g.id)
            }
        missing = {k: v for k, v in acked.items() if stored.get(k) != v}
        assert not missing, f"acknowledged events lost: {sorted(missing.items())[:5]}"
        n = max(stored.values())
    assert len(acked) > 8
