"""The README's promises: its examples run, its commands are the ones CI runs, its tables are true."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCUMENTS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "service" / "README.md",
]


def _indented_commands(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.startswith("    ")]


def test_the_engine_guide_examples_give_what_they_show() -> None:
    result = doctest.testfile(str(ROOT / "docs" / "engine.md"), module_relative=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_the_readme_opens_with_the_two_commands_and_ci_runs_the_second_word_for_word() -> None:
    commands = _indented_commands(README)[:2]
    assert commands[0] == "python3 connect.py"
    assert commands[1] in (ROOT / ".ci" / "run").read_text().splitlines()


def test_ci_runs_the_fast_subset_the_readme_names() -> None:
    assert '.venv/bin/python -m pytest -m "not slow" -n auto' in _indented_commands(README)
    assert '-m pytest -m "not slow" -n auto' in (ROOT / ".ci" / "run").read_text()


@pytest.mark.parametrize(("markers", "per_core"), [("", 2), ("not slow", 1), ("not  slow", 1)])
def test_auto_starts_the_workers_per_core_the_readme_says(
    markers: str, per_core: int, monkeypatch: pytest.MonkeyPatch, pytestconfig: pytest.Config
) -> None:
    """Two workers per core for the whole suite, one for the fast subset (conftest.py)."""
    import os

    # The root conftest.py as pytest loaded it ("import conftest" may find another's).
    conftest = pytestconfig.pluginmanager.get_plugin(str(ROOT / "conftest.py"))
    monkeypatch.delenv("PYTEST_XDIST_AUTO_NUM_WORKERS", raising=False)

    prose = " ".join(README.split())  # as a reader sees it, wherever its lines break
    assert "two workers per core (`-n auto`)" in prose and "runs one worker per core" in prose
    config = type("Config", (), {"option": type("Options", (), {"markexpr": markers})()})()
    cores = len(os.sched_getaffinity(0))
    assert conftest.pytest_xdist_auto_num_workers(config) == per_core * cores  # type: ignore[arg-type]


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_every_local_link_leads_to_a_file(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#:]+)\)", text)
    for target in targets:
        assert (document.parent / target).exists(), f"{document.name} links to missing {target}"


def _options_in_the_table() -> set[str]:
    rows = [line for line in README.splitlines() if line.startswith("| `--")]
    return {option for row in rows for option in re.findall(r"`(--[a-z-]+)", row.split("|")[1])}


def test_the_options_table_lists_exactly_the_options_of_help() -> None:
    shown = subprocess.run(
        [sys.executable, str(ROOT / "connect.py"), "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    offered = set(re.findall(r"^\s+(--[a-z-]+)", shown, flags=re.MULTILINE))
    offered |= set(re.findall(r", (--[a-z-]+)", shown))
    assert _options_in_the_table() == offered


def test_the_bot_commands_shown_are_ones_the_bot_takes_and_installed_as_connect_four_bot() -> None:
    from connect_four.terminal.bot import _parser

    commands = [line for line in _indented_commands(README) if "connect_four.terminal.bot" in line]
    assert len(commands) >= 2
    for command in commands:
        words = command.split()
        assert words[:3] == ["python", "-m", "connect_four.terminal.bot"]
        _parser().parse_args(words[3:])  # argparse exits (status 2) on an option it lacks
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["connect-four-bot"] == "connect_four.terminal.bot:main"
