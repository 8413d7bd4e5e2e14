"""The report's header names the chromium the browser tests drive, and never fails."""

from __future__ import annotations

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
