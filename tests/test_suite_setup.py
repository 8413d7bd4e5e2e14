"""The suite's own set-up (conftest.py, tests/bytecode_on.py): what it promises every test process."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[1]


def test_what_collection_made_is_frozen_before_the_first_test() -> None:
    assert gc.get_freeze_count() > 0


@pytest.mark.slow  # a pytest of its own
def test_plugins_rewritten_asserts_are_cached_even_where_bytecode_writing_is_off(
    tmp_path: Path,
) -> None:
    """With PYTHONDONTWRITEBYTECODE set, pytest still caches its plugins' rewritten modules.

    Without the cache every pytest process (each xdist worker) rewrote some
    130 modules of xdist, hypothesis and the grader's plugin again.
    """
    environment = {
        **os.environ,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPYCACHEPREFIX": str(tmp_path),  # every cache written lands here
    }
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests/test_slow_support.py"],
        cwd=REPOSITORY,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    assert list(tmp_path.rglob("xdist/plugin.*-pytest-*.pyc")), sorted(
        str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*.pyc")
    )[:20]
