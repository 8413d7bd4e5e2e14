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
        # No conftest: the plugins are what is checked, and the project's
        # imports would only be compiled into the prefix too (3 s of CPU).
        [
            sys.executable,
            "-m",
            "pytest",
            "--noconftest",
            "--collect-only",
            "-q",
            "tests/test_slow_support.py",
        ],
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


def _collected(marks: str) -> list[str]:
    """The IDs of the tests ``pytest -m marks`` would run, from a pytest of its own."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-m", marks],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert listed.returncode == 0, listed.stdout + listed.stderr
    return [line for line in listed.stdout.splitlines() if "::" in line]


@pytest.mark.slow  # two pytests of its own
def test_the_fast_subset_left_unread_modules_are_the_tests_it_would_deselect() -> None:
    """conftest.py skips the wholly slow modules only for ``-m "not slow"``: the same tests run.

    ``(not slow)`` means the same but is not the shortcut's exact expression,
    so it collects every module and deselects one test at a time.
    """
    shortcut, every_module = _collected("not slow"), _collected("(not slow)")
    assert len(shortcut) > 2000
    assert shortcut == every_module
