"""What arrives on the table's inbox besides readings, camera news and advice."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PhoneAction:
    """A phone's action; ``reply`` gets the snapshot once it is on disk, or the error."""

    body: Mapping[str, Any]
    source: str
    reply: Future[dict[str, Any]]


@dataclass(frozen=True)
class Press:
    """A seat's button gesture: ``next``, ``claim`` or ``quit``."""

    seat: int
    press: str


@dataclass(frozen=True)
class Barrier:
    """Set once everything queued before it (and the clock's work) is done."""

    done: threading.Event


@dataclass(frozen=True)
class LoginsLocked:
    """The web has stopped every PIN login for ``seconds`` (a burst of wrong PINs)."""

    seconds: float


STOP = object()

__all__ = ["STOP", "Barrier", "LoginsLocked", "PhoneAction", "Press"]
