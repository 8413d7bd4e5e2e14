"""One installed package, connect_four, over the checkout's folders (issue 22).

``pip install`` puts only ``connect_four`` into site-packages; in a checkout
connect_four/ links to engine/, terminal/, service/ and connect.py. These
tests keep the two views one: no module imports a bare ``engine``,
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
    """The checkout's Python files, each once (the links in connect_four/ not followed)."""
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


@pytest.mark.parametrize("name", [*SUBPACKAGES, "connect.py"])
def test_the_package_links_to_the_checkout_s_own_folders(name: str) -> None:
    assert (ROOT / PACKAGE / name).resolve() == (ROOT / name).resolve()


def test_the_wheel_holds_one_top_level_package() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    setuptools = pyproject["tool"]["setuptools"]
    assert "py-modules" not in setuptools
    assert setuptools["packages"]["find"]["include"] == [PACKAGE, f"{PACKAGE}.*"]
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


@pytest.mark.parametrize("links", ["as files", "missing"])
def test_a_copy_without_the_links_still_plays_the_assignment_s_game(
    tmp_path: Path, links: str
) -> None:
    """An archive that drops symbolic links (or keeps them as text) still runs connect.py."""
    shutil.copy(ROOT / "connect.py", tmp_path)
    for folder in ("engine", "terminal"):
        shutil.copytree(
            ROOT / folder,
            tmp_path / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "data"),
        )
    (tmp_path / PACKAGE).mkdir()
    shutil.copy(ROOT / PACKAGE / "__init__.py", tmp_path / PACKAGE)
    if links == "as files":
        for name in (*SUBPACKAGES, "connect.py"):
            (tmp_path / PACKAGE / name).write_text(f"../{name}", encoding="utf-8")
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
