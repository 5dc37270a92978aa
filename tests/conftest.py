"""Fixtures for every test: gpiozero's MockFactory, and the folder of rule texts if given.

The games' rule texts are not part of the repository (they are the publishers'); the tests
that check quoted sentences against them run when ``COMPANION_RULE_TEXTS`` names a folder
holding them, and are skipped with that reason otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def rule_texts() -> Path:
    """The folder of the games' rule texts (``murdero.txt``, ``serial-killer.txt``…)."""
    folder = os.environ.get("COMPANION_RULE_TEXTS", "")
    if not folder or not Path(folder).is_dir():
        pytest.skip("the rule texts are not in the repository; set COMPANION_RULE_TEXTS to "
                    "a folder holding them to check the quotes")
    return Path(folder)


@pytest.fixture(scope="session", autouse=True)
def word_index() -> None:
    """Wort-Kniffel's word index on disk before any table runs, as `companion serve` and
    `companion demo` build it first: a table whose first Wort-Kniffel game builds it holds its
    thread longer than a phone's request waits, so a test starting such a game on a fresh
    machine would pass only after another test had built it."""
    from companion.commands import word_index

    word_index()


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
