"""A counted progress line on stderr for long CLI work; silent when stderr is not a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TextIO, TypeVar

T = TypeVar("T")


def progress(
    items: Iterable[T], total: int | None = None, label: str = "", stream: TextIO | None = None
) -> Iterator[T]:
    """Yield ``items`` while drawing ``label  n/total`` (or ``label  n``) on one line."""
    out = stream if stream is not None else sys.stderr
    live = stream is not None or out.isatty()
    n = 0
    for item in items:
        yield item
        n += 1
        if live:
            of = f"/{total}" if total is not None else ""
            out.write(f"\r{label}  {n}{of}")
            out.flush()
    if live and n:
        out.write("\n")
        out.flush()
