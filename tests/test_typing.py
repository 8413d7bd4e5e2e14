"""The engine, the terminal game and the service pass ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHECKED = ["engine", "connect.py", "terminal", "service"]


def test_engine_terminal_game_and_service_pass_mypy_strict() -> None:
    paths = CHECKED
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, (
        f"mypy --strict {' '.join(paths)} exited {result.returncode}:\n"
        f"{result.stdout}{result.stderr}"
    )
