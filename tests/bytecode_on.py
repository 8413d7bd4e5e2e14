"""Bytecode caching on for the test run, from before pytest loads its plugins.

The suite starts hundreds of interpreters (games through a pipe, servers,
terminals) and pytest rewrites the asserts of every test module and every
plugin's modules: with bytecode writing off (PYTHONDONTWRITEBYTECODE, set on
some machines) each of them compiled the project's sources again, and
pytest rewrote some 130 modules of its plugins (xdist, hypothesis,
byu-pytest-utils, anyio) in every process, every run: 0.6 s of CPU a
process. The root conftest.py comes too late for the plugins, so
pyproject.toml's addopts loads this module first (``-p bytecode_on``, found
through ``pythonpath``). The cache goes to the __pycache__ folders
.gitignore already leaves out, and writing it changes nothing that runs;
the xdist workers and every program the tests start inherit the setting.
"""

from __future__ import annotations

import os
import sys

os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
