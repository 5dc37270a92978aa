"""glibc's allocator told to hand freed memory back, so a long-running table fits a Pi.

A table switches between games whose readers hold large native buffers (OpenCV's networks,
numpy frames). Left alone, glibc keeps what they freed: a freed block of many megabytes
raises the threshold under which later blocks come from the heap rather than their own
mapping, and each thread that allocates (camera, advisor, web workers) may get an arena of
its own that is never shrunk. So the next game starts on top of the last one's leftovers.
Fixed settings at start keep the peak nearer to what one game needs. On another C library
(macOS, musl) all of this does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
from pathlib import Path
from typing import Any

_log = logging.getLogger(__name__)

# mallopt parameters (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
M_ARENA_MAX = -8

# A block this large gets its own mapping, returned whole when freed. Fixing it also stops
# glibc from raising it after each large free (up to 32 MB), which is what keeps a freed
# frame's or network's buffers in the heap. Frames and network blobs are far larger; Python's
# own small objects are not affected (its allocator maps its arenas itself).
MMAP_THRESHOLD = 256 * 1024
# Two arenas: the table's threads mostly wait, so more would only hold more idle free space.
ARENA_MAX = 2


@functools.cache
def _libc() -> Any:
    """glibc, or None on a C library without its malloc knobs."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
        if hasattr(libc, "madvise"):
            libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        return libc
    except (OSError, AttributeError, TypeError):
        return None


def tune() -> bool:
    """Set the allocator for a long-running table; call first thing, before threads start
    (arenas made earlier stay). True when glibc took the settings."""
    libc = _libc()
    if libc is None:
        return False
    # the top of the heap goes back once this much is free there; fixed too, since glibc
    # otherwise doubles it along with the mmap threshold
    ok = all([libc.mallopt(param, value) == 1 for param, value in (
        (M_ARENA_MAX, ARENA_MAX), (M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        (M_TRIM_THRESHOLD, 2 * MMAP_THRESHOLD))])  # a list: each is tried
    if not ok:
        _log.debug("mallopt refused a setting")
    return ok


# madvise advice (Linux's mman.h)
MADV_RANDOM = 1
MADV_PAGEOUT = 21


def shed_code() -> int:
    """Hand back the pages of the libraries' code and read-only data that are resident but
    not running, and stop the kernel reading ahead on them; returns how many mappings were
    advised (0 where the C library or the kernel cannot).

    A library is mapped from its file, and each page it touches is read with the pages around
    it (a whole read-ahead window, 8 MB on some disks), so OpenCV alone left up to 49 MB of
    its code resident of which a game runs a few. Called when a game's reader is made (the
    imports are done, the last game's code paths are left behind): what the next game runs
    comes back page by page from the page cache, the rest stays out of the table's memory.
    """
    libc = _libc()
    if libc is None or not hasattr(libc, "madvise"):
        return 0
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return 0
    madvise = libc.madvise
    advised = 0
    for line in maps.splitlines():
        parts = line.split()
        # code and read-only data of shared libraries; never a file the program maps for its
        # own data, nor anything writable
        if len(parts) < 6 or parts[1] not in ("r-xp", "r--p") or ".so" not in parts[5]:
            continue
        start, end = (int(x, 16) for x in parts[0].split("-"))
        if madvise(start, end - start, MADV_RANDOM) == 0:
            madvise(start, end - start, MADV_PAGEOUT)  # refused by kernels before 5.4
            advised += 1
    return advised


__all__ = ["shed_code", "tune"]
