"""One installed package, connect_four, over the checkout's folders (issue 22).

``pip install`` puts only ``connect_four`` into site-packages; in a checkout
its subpackages are the top level's engine/, terminal/ and service/, and
connect_four/__init__.py finds them (no links). These tests keep the two
views one: no module imports a bare ``engine``,
``terminal`` or ``service`` (in a checkout that would load a second copy,
with exception classes of its own; installed, it would not load at all),
and each package refuses to load under its bare name.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from connect_support import ROOT, TEST_FILES, dialog_inputs, piped_transcript, read_dialog

PACKAGE = "connect_four"
SUBPACKAGES = ("engine", "terminal", "service")
SKIPPED = {".git", ".venv", "build", "dist", "test_files", "__pycache__", PACKAGE}


def _python_files() -> list[Path]:
    """The checkout's Python files."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED and not d.startswith(".venv")]
        found += [Path(folder, name) for name in files if name.endswith(".py")]
    return found


def _bare_imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bare = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        bare += [
            f"{path.relative_to(ROOT)}:{node.lineno}: {name}"
            for name in names
            if name.split(".")[0] in SUBPACKAGES
        ]
    return bare


def test_no_module_imports_a_bare_package_name() -> None:
    assert [line for path in _python_files() for line in _bare_imports(path)] == []


def test_no_file_in_the_repository_is_a_link() -> None:
    """No symbolic links: a checkout made without them (Windows, some archivers) is the same tree."""
    if (ROOT / ".git").exists():
        listed = subprocess.run(
            ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert [line for line in listed if line.startswith("120000")] == []
    assert [path for path in _all_paths() if path.is_symlink()] == []


def _all_paths() -> list[Path]:
    """Every file and folder of the checkout but the ignored build and environment folders."""
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [
            d
            for d in dirs
            if d not in {".git", "build", "dist", "node_modules"} and not d.startswith(".venv")
        ]
        found += [Path(folder, name) for name in dirs + files]
    return found


def test_the_wheel_holds_one_top_level_package_over_the_checkout_s_folders() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = pyproject["tool"]["setuptools"]
    assert "py-modules" not in setuptools
    assert all(name.partition(".")[0] == PACKAGE for name in setuptools["packages"])
    for package, folder in setuptools["package-dir"].items():
        assert package == f"{PACKAGE}.{folder.replace('/', '.')}"
        assert (ROOT / folder / "__init__.py").is_file()
    for target in pyproject["project"]["scripts"].values():
        assert target.startswith(f"{PACKAGE}.")


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_a_package_under_its_bare_name_is_refused(name: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", f"import {name}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert f"ImportError: import {PACKAGE}.{name}, not {name}" in result.stderr


def test_a_copy_of_the_checkout_plays_the_assignment_s_game_with_nothing_installed(
    tmp_path: Path,
) -> None:
    """connect.py, engine/, terminal/ and connect_four/__init__.py are all the game needs (``-S``: no site-packages)."""
    shutil.copy(ROOT / "connect.py", tmp_path)
    for folder in ("engine", "terminal"):
        shutil.copytree(
            ROOT / folder,
            tmp_path / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "data"),
        )
    (tmp_path / PACKAGE).mkdir()
    shutil.copy(ROOT / PACKAGE / "__init__.py", tmp_path / PACKAGE)
    text = read_dialog(TEST_FILES / "example_game.txt")
    stdin = "".join(line + "\n" for line in dialog_inputs(text)).encode()
    result = subprocess.run(
        [sys.executable, "-S", "connect.py"],
        cwd=tmp_path,
        input=stdin,
        capture_output=True,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, b"")
    assert result.stdout == piped_transcript(text).encode()
