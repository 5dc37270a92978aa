"""mypy --strict over every package, as CI runs it: full annotations, checked on every run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "vision", "hardware", "web")  # [tool.mypy] files in pyproject.toml


def test_mypy_is_clean_over_every_package() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", *PACKAGES], cwd=ROOT, capture_output=True, text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("Success: no issues found")


def test_mypy_runs_strict() -> None:
    """The strictness is the project's setting, not a flag someone may forget."""
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert settings["tool"]["mypy"]["strict"] is True
