"""The report's header names the browsers the browser tests drive (never failing); their launcher."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from browser import chromium


def test_the_header_gives_each_browser_s_executable_and_version() -> None:
    lines = chromium.browsers_header()
    assert len(lines) == len(chromium.BROWSERS) == 2
    for line, executable in zip(lines, chromium.BROWSERS.values(), strict=True):
        assert line.startswith(f"chromium: {executable}, Chromium "), line
        assert any(word[:1].isdigit() and word.count(".") == 3 for word in line.split()), line


def test_both_browsers_are_one_chromium_version() -> None:
    """The headless shell stands for chromium in most tests: they must be one release."""
    versions = {
        next(word for word in line.split() if word.count(".") == 3)
        for line in chromium.browsers_header()
    }
    assert len(versions) == 1, chromium.browsers_header()


@pytest.mark.parametrize(
    ("executable", "said"),
    [
        (
            "chromium-headless-shell",
            "is missing (the browser tests fail: apt-get install chromium-headless-shell)",
        ),
        ("/bin/false", "--version failed with 1"),
    ],
)
def test_a_missing_or_broken_browser_is_said_not_raised(
    tmp_path: Path, executable: str, said: str
) -> None:
    path = Path(executable) if executable.startswith("/") else tmp_path / executable
    assert chromium.chromium_header(path) == f"chromium: {path} {said}"


def test_the_launcher_merges_every_list_of_disabled_features_into_one(tmp_path: Path) -> None:
    fake = tmp_path / "chromium"
    fake.write_text('#!/bin/sh\nfor argument do echo "[$argument]"; done\n')
    fake.chmod(0o755)
    given = ["--a", "--disable-features=X,Y", "b c", "--disable-features=Z", "", "--z"]
    started = subprocess.run(
        [str(chromium.LAUNCHER), *given],
        env={**os.environ, "CONNECT_FOUR_CHROMIUM": str(fake)},
        capture_output=True,
        text=True,
        check=True,
    )
    assert started.stdout.splitlines() == [
        "[--disable-features=X,Y,Z]",
        "[--a]",
        "[b c]",
        "[]",
        "[--z]",
    ]
