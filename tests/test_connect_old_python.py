"""On a Python older than 3.11, connect.py says so in one line instead of a traceback."""

from __future__ import annotations

import ast
import os
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from connect_support import CONNECT, ROOT

# Interpreters this machine may have (on the PATH, or installed by pyenv
# wherever its root is); each one present is tried for real. pyenv's shims
# are left out: one for a version not selected only complains.
PYENV_VERSIONS = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
OLD_PYTHONS = sorted(
    {
        found
        for version in ("3.8", "3.9", "3.10")
        for found in [
            shutil.which(f"python{version}"),
            *map(str, PYENV_VERSIONS.glob(f"{version}.*/bin/python")),
        ]
        if found and "shims" not in Path(found).parts
    }
)


def test_connect_py_parses_as_python_3_8():
    # Parsing must succeed for the version check at its top to run at all.
    ast.parse(CONNECT.read_text(encoding="utf-8"), feature_version=(3, 8))


def test_version_check_stops_with_one_line_and_status_1(monkeypatch):
    lines = []

    def fake_print(*values, **options):
        assert options.get("file") is sys.stderr
        lines.append(" ".join(values))

    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    with pytest.raises(SystemExit) as stopped:
        runpy.run_path(str(CONNECT), {"print": fake_print}, "__main__")
    assert stopped.value.code == 1
    assert len(lines) == 1
    assert lines[0].startswith("connect.py: error: Python 3.11 or newer is needed")


@pytest.mark.skipif(not OLD_PYTHONS, reason="no Python older than 3.11 on this machine")
@pytest.mark.parametrize("python", OLD_PYTHONS)
def test_old_interpreter_gets_one_line_on_stderr_and_status_1(python):
    result = subprocess.run(
        [python, str(CONNECT)], input=b"3\n", capture_output=True, cwd=ROOT, timeout=60
    )
    assert result.returncode == 1
    assert result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("connect.py: error: Python 3.11 or newer is needed, this is Python ")
