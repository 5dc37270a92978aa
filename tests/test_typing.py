"""mypy over every package, as CI runs it (STYLE.md: full annotations, mypy in CI)."""

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
