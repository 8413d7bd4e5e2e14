"""The README's promises: its examples run, its commands are the ones CI runs."""

from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_readme_examples_give_what_they_show():
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_ci_runs_the_readme_test_command_word_for_word():
    readme = (ROOT / "README.md").read_text().splitlines()
    commands = [line.strip() for line in readme if line.startswith("    ")][:2]
    assert commands[0] == "python3 connect.py"
    assert commands[1] in (ROOT / ".ci" / "run").read_text().splitlines()
