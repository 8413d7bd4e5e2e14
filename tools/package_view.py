"""Lay out the installed package's tree for the static checkers: ``python -m tools.package_view``.

The checkout keeps engine/, terminal/, service/ and connect.py at its top
level, and ``connect_four/__init__.py`` finds them when the game runs; mypy
and import-linter read files, not import paths, and need a folder named
``connect_four`` that holds them all, as the wheel does. This makes one under
build/ (which git ignores) out of relative links, the same tree
pyproject.toml's package-dir gives the wheel; .ci/run makes it before mypy
and lint-imports. Nothing in the repository is a link.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEW = ROOT / "build" / "package-view"
"""The folder to put on the checkers' path: it holds ``connect_four``."""

MEMBERS = {
    "__init__.py": "connect_four/__init__.py",
    "py.typed": "connect_four/py.typed",
    "connect.py": "connect.py",
    "engine": "engine",
    "terminal": "terminal",
    "service": "service",
}
"""What the package holds, by its name inside ``connect_four``: the checkout's path."""


def make_view(view: Path = VIEW) -> Path:
    """Make (or make again) ``view/connect_four`` from links to the checkout; return it."""
    package = view / "connect_four"
    shutil.rmtree(view, ignore_errors=True)
    package.mkdir(parents=True)
    for name, target in MEMBERS.items():
        (package / name).symlink_to(os.path.relpath(ROOT / target, package))
    return package


def main() -> int:
    """Make the view and say where it is."""
    print(make_view())
    return 0


if __name__ == "__main__":
    sys.exit(main())
