"""The suite's own set-up (conftest.py, tests/bytecode_on.py): what it promises every test process."""

from __future__ import annotations

import ast
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


def _module_marks(tree: ast.Module) -> list[str]:
    """The source of each module-level statement that sets or changes ``pytestmark``."""
    return [
        ast.unparse(node)
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        and "pytestmark"
        in ast.unparse(node.targets[0] if isinstance(node, ast.Assign) else node.target)
    ]


def test_the_modules_the_fast_subset_leaves_unread_hold_slow_tests_alone(
    request: pytest.FixtureRequest,
) -> None:
    """conftest.py's shortcut for ``-m "not slow"`` leaves out no test the subset would run.

    A module it leaves unread sets ``pytestmark`` once, to the slow mark, so
    every test of it carries that mark, and no test can take it off.
    """
    root = request.config.pluginmanager.get_plugin(str(REPOSITORY / "conftest.py"))
    sources = {
        path: path.read_bytes()
        for path in [*REPOSITORY.glob("test_*.py"), *REPOSITORY.glob("tests/**/test_*.py")]
    }
    unread = [path for path, source in sources.items() if root.WHOLLY_SLOW.search(source)]
    assert len(unread) > 40
    for path in unread:
        marks = _module_marks(ast.parse(sources[path]))
        assert marks == ["pytestmark = pytest.mark.slow"], (path, marks)
