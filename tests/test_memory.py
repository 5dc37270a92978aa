"""The table hands back library pages it does not run (companion.memory)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# in a fresh interpreter: the pages OpenCV's import left resident, then after shedding, then
# after using OpenCV again (it must still work, its pages coming back as they run)
PROBE = """
import cv2, numpy as np
from companion import memory

def resident_file_kb():
    for line in open("/proc/self/status"):
        if line.startswith("RssFile:"):
            return int(line.split()[1])
    return -1

before = resident_file_kb()
advised = memory.shed_code()
after = resident_file_kb()
blurred = cv2.GaussianBlur(np.full((64, 64), 200, np.uint8), (5, 5), 0)
print(before, advised, after, int(blurred.mean()))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux's /proc")
def test_library_pages_not_running_are_handed_back_and_come_back_when_used() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, check=True, timeout=120).stdout.split()
    before, advised, after, blurred = (int(x) for x in out)
    if advised == 0:
        pytest.skip("this C library or kernel takes no madvise advice")
    assert after < before  # OpenCV's import alone leaves megabytes of its code resident
    assert blurred == 200  # and it still runs
