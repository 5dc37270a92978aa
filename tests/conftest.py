"""Shared fixtures. ``SHARED`` is the shared/ folder beside the repo (rules, real data)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("shared/ is not beside the repo")
    return SHARED
