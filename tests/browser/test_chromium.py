"""The report's header names the chromium the browser tests drive (never failing); its launcher."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from browser import chromium


def test_the_header_gives_the_executable_and_its_version() -> None:
    line = chromium.chromium_header()
    assert line.startswith(f"chromium: {chromium.CHROMIUM}, Chromium "), line
    assert any(word[:1].isdigit() and word.count(".") == 3 for word in line.split()), line


@pytest.mark.parametrize(
    ("executable", "said"),
    [("no-such-chromium", "is missing"), ("/bin/false", "--version failed with 1")],
)
def test_a_missing_or_broken_chromium_is_said_not_raised(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, executable: str, said: str
) -> None:
    path = Path(executable) if executable.startswith("/") else tmp_path / executable
    monkeypatch.setattr(chromium, "CHROMIUM", path)
    assert chromium.chromium_header().startswith(f"chromium: {path} {said}")


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
