"""Shared fixtures. ``SHARED`` is the shared/ folder beside the repo (rules, real data)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("shared/ is not beside the repo")
    return SHARED


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    """gpiozero's own MockFactory as the pin factory, reset afterwards (as gpiozero's tests do)."""
    save = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = save
