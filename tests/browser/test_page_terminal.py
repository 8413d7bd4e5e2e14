"""A browser player against a terminal player, the real connect.py --join, in one game."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from browser.browser_support import drop, status, wait_for_discs, wait_for_more_discs
from server_support import REPOSITORY

pytestmark = pytest.mark.slow

TERMINAL_SECONDS = 60
"""The longest the terminal game may take to see the game's end and stop."""

ASTRONAUT = "\U0001f469\u200d\U0001f680 Zo\u00eb"
"""The friend's name: an emoji of three code points (woman, zero-width joiner, rocket)."""


def test_the_browser_beats_a_terminal_player_who_joined_by_the_pages_command(
    new_page: Callable[..., Page], service: str, tmp_path: Path
) -> None:
    page = new_page()
    page.goto(service + "/")
    page.get_by_label("Your name").fill("ann")
    page.get_by_label("Friend's name").fill(ASTRONAUT)
    page.get_by_role("button", name="Create game").click()
    command = page.locator("#invite-command")
    expect(command).to_have_value(
        re.compile(r"^CONNECT_FOUR_TOKEN=\S+ python3 connect\.py --join ")
    )
    words = shlex.split(command.input_value())
    token = words[0].removeprefix("CONNECT_FOUR_TOKEN=")
    assert words[1:4] == ["python3", "connect.py", "--join"]
    url, options = words[4], words[5:]
    assert url.startswith(service + "/drop_token/") and url.endswith("/" + quote(ASTRONAUT))
    assert options == ["--rows", "6", "--columns", "7"]  # the page's board, not the terminal's
    (tmp_path / "in").write_text("1\n1\n1\n")  # bob's columns, read one a turn
    with (tmp_path / "in").open() as typed, (tmp_path / "out").open("w") as shown:
        terminal = subprocess.Popen(
            [sys.executable, "connect.py", "--join", url, "--token", token, *options],
            cwd=REPOSITORY,
            stdin=typed,
            stdout=shown,
            stderr=subprocess.STDOUT,
        )
    try:
        for move in range(4):
            drop(page, 0)  # once the terminal's answer arrived
            wait_for_more_discs(page, 2 * move)
        wait_for_discs(page, 7)
        expect(status(page)).to_have_text("Game over: you win!")
        terminal.wait(timeout=TERMINAL_SECONDS)
    finally:
        if terminal.poll() is None:
            terminal.kill()
            terminal.wait()
    out = (tmp_path / "out").read_text(encoding="utf-8")
    assert terminal.returncode == 0, out
    assert f"you are {ASTRONAUT} (O), ann is X" in out
    assert "Game finished." in out
    assert out.rstrip().endswith("ann (X) wins.")
