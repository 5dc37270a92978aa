"""Finde den Mörder solver speed: full-table chain checks per second and time to p_end ±0.005.

    .venv/bin/python bench/moerder_bench.py [--json] [--seed N] [--boards N] [--positions N]

The same measurement as ``companion moerder bench`` (companion/tools/moerder_bench.py).
Targets on one core of the development machine: >= 1,000,000 boards/s, p_end in <= 200 ms.
"""

from __future__ import annotations

import sys

from companion.cli import main

if __name__ == "__main__":
    sys.exit(main(["moerder", "bench", *sys.argv[1:]]))
