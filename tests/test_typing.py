"""The engine and the terminal game pass ``mypy --strict``, as CI requires."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Checked when present: connect.py is the terminal game beside the engine.
CHECKED = ["engine", "connect.py"]


def test_engine_and_terminal_game_pass_mypy_strict() -> None:
    paths = [path for path in CHECKED if (ROOT / path).exists()]
    assert "engine" in paths
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
