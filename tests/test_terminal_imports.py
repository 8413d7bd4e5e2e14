"""The import structure of terminal/: the contracts of pyproject.toml, and what loading a module loads.

``lint-imports`` (import-linter) reads every import, deferred and type-only
ones included; .ci/run runs it as a step of its own, and this test runs it
too so that a plain pytest run sees a broken layer. The other tests check,
in a fresh interpreter, what the contracts cannot: which modules an import
really loads.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from connect_support import ROOT
from tools.package_view import make_view

LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


@pytest.mark.slow  # CI runs it; the edit-test loop has the fresh-interpreter checks below
def test_the_import_contracts_hold(tmp_path: Path) -> None:
    # import-linter reads files: the package as installed, laid out from links (tools/package_view.py).
    view = make_view(tmp_path).parent
    result = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", str(ROOT / "pyproject.toml")],
        cwd=view,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def loaded_by(module: str) -> set[str]:
    """The project's modules that importing ``module`` loads, in a fresh interpreter."""
    script = (
        "import sys; before = set(sys.modules); import " + module + "; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return {
        name
        for name in result.stdout.split()
        if name.startswith(("connect_four.engine", "connect_four.terminal", "connect_four.service"))
    }


def test_the_http_client_loads_nothing_of_the_game_or_the_engine():
    assert loaded_by("connect_four.terminal.network") == {
        "connect_four.terminal",
        "connect_four.terminal.network",
        "connect_four.terminal.errors",
    }


@pytest.mark.parametrize("leaf", ["errors", "match", "pacing", "streams"])
def test_a_leaf_loads_no_sibling(leaf):
    assert loaded_by(f"connect_four.terminal.{leaf}") == {
        "connect_four.terminal",
        f"connect_four.terminal.{leaf}",
    }


@pytest.mark.parametrize("leaf", ["settings", "dialog", "steps"])
def test_a_leaf_that_speaks_of_games_loads_the_engine_and_no_sibling(leaf):
    siblings = {
        name
        for name in loaded_by(f"connect_four.terminal.{leaf}")
        if name.startswith("connect_four.terminal")
    }
    assert siblings == {"connect_four.terminal", f"connect_four.terminal.{leaf}"}
