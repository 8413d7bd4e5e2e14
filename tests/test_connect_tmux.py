"""Two terminals play a network game to its end, the service restarted in the middle.

Each player is connect.py in a pane of its own tmux server (a real
terminal each), against a real service on 127.0.0.1 with its games in an
SQLite file. X's pane creates the game; the test copies the join command
X's pane shows into the second pane, exactly as printed, and types each
move when the pane prompts for it. After four moves the service is killed
(SIGKILL) and started again on the same database and the same socket: both
players say the connection was lost, then carry on, and both panes end on
the same final grid and result.

Every wait is for a text to appear in a pane, bounded by a generous
deadline that only fails the test; no sleep stands in for a condition.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ci_support import unavailable

from connect_support import CONNECT, ROOT
from network_support import DEADLINE, join_lines
from server_support import Server

pytestmark = pytest.mark.slow

TMUX = shutil.which("tmux")

FINAL = """\
01234567
........
X.......
XO......
XO......
XO......
01234567
Game finished.
ann (X) wins.
Moves: 0,1,0,1,0,1,0"""


# What a pane's shell prints once connect.py has ended, before its status.
EXIT_MARK = "[connect.py ended with status "


def run_in_pane(command: str) -> str:
    """A pane's shell command: ``command``, then a line with its exit status.

    The shell then sleeps until the tmux server ends with the test: a pane
    whose process exits may lose its last lines (tmux can mark it dead
    before it has read them all), which a busy machine once showed.
    """
    return f'{command}; echo "{EXIT_MARK}$?]"; exec sleep 86400'


class Tmux:
    """A tmux server of the test's own (its socket in tmp_path), and its panes."""

    def __init__(self, socket: Path, environment: dict[str, str]) -> None:
        assert TMUX is not None
        self.command = [TMUX, "-f", os.devnull, "-S", str(socket)]
        self.environment = environment

    def run(self, *arguments: str) -> str:
        result = subprocess.run(
            [*self.command, *arguments],
            capture_output=True,
            text=True,
            env=self.environment,
            timeout=60,
            check=True,
        )
        return result.stdout

    def new_pane(self, shell_command: str, first: bool) -> str:
        """Start ``shell_command`` in a new pane (the first makes the session); its pane id."""
        if first:
            pane = self.run(
                "new-session",
                "-d",
                "-P",
                "-F",
                "#{pane_id}",
                "-x",
                "160",
                "-y",
                "50",
                "-c",
                str(ROOT),
                shell_command,
            )
            # Keep a finished pane, to read its last screen.
            self.run("set-option", "-g", "remain-on-exit", "on")
            self.run("set-option", "-g", "history-limit", "10000")
        else:
            pane = self.run(
                "split-window", "-P", "-F", "#{pane_id}", "-c", str(ROOT), shell_command
            )
        return pane.strip()

    def screen(self, pane: str) -> str:
        """Everything the pane has shown, wrapped lines joined."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", pane)

    def wait_for(self, pane: str, text: str, count: int = 1) -> str:
        """Wait until ``text`` shows ``count`` times in the pane; return its screen."""
        deadline = time.monotonic() + DEADLINE
        while True:
            screen = self.screen(pane)
            if screen.count(text) >= count:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} x{count} never showed in {pane}:\n{screen}")
            time.sleep(0.05)

    def type_line(self, pane: str, text: str) -> None:
        self.run("send-keys", "-t", pane, "-l", text)
        self.run("send-keys", "-t", pane, "Enter")

    def exit_status(self, pane: str) -> int:
        """The status the pane's command ended with, as its shell reported it (see run_in_pane)."""
        screen = self.wait_for(pane, EXIT_MARK)
        return int(screen.split(EXIT_MARK)[-1].split("]")[0])

    def kill_server(self) -> None:
        subprocess.run(
            [*self.command, "kill-server"], capture_output=True, timeout=60, env=self.environment
        )


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    """A tmux server whose panes find this interpreter as ``python3``, as the join command says."""
    if TMUX is None:
        unavailable(
            "tmux is not installed (CI installs it and runs this test)",
            "tmux is needed on CI (.ci/run installs it)",
        )
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "python3").symlink_to(sys.executable)
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("TMUX", "NO_COLOR", "CONNECT_FOUR_TOKEN")
    }
    environment["PATH"] = f"{bin_folder}{os.pathsep}{environment.get('PATH', '')}"
    environment["TERM"] = "xterm"
    terminals = Tmux(tmp_path / "tmux.socket", environment)
    try:
        yield terminals
    finally:
        terminals.kill_server()


def test_two_panes_play_a_whole_game_across_a_service_restart(tmp_path: Path, tmux: Tmux) -> None:
    service = Server(tmp_path / "games.db", keep_listening=True)
    service.start()
    try:
        creator = shlex.join(
            [
                "python3",
                str(CONNECT),
                "--server",
                service.url,
                "--name",
                "ann",
                "--friend",
                "bob",
                "--announce",
            ]
        )
        ann = tmux.new_pane(run_in_pane(creator), first=True)
        screen = tmux.wait_for(ann, "Enter a column: ")
        joins = join_lines(screen)
        assert len(joins) == 2, screen  # the friend's, then the creator's own
        # The friend's command, word for word as X's pane shows it.
        bob = tmux.new_pane(run_in_pane(joins[0].strip() + " --announce"), first=False)
        tmux.wait_for(bob, "Waiting for ann to move")

        def turn(pane: str, number: int, column: str) -> None:
            tmux.wait_for(pane, "Enter a column: ", number)
            tmux.type_line(pane, column)

        turn(ann, 1, "0")
        turn(bob, 1, "1")
        turn(ann, 2, "0")
        turn(bob, 2, "1")
        tmux.wait_for(ann, "Enter a column: ", 3)
        tmux.wait_for(bob, "Waiting for ann to move", 3)

        # The service dies; connections wait unanswered on its socket. X
        # plays into the silence, O waits for that move.
        service.kill()
        tmux.type_line(ann, "0")
        lost = f"Connection to {service.url} lost"
        tmux.wait_for(ann, lost)
        tmux.wait_for(bob, lost)
        service.start()
        tmux.wait_for(ann, "Connection restored.")
        tmux.wait_for(bob, "Connection restored.")

        turn(bob, 3, "1")
        turn(ann, 4, "0")
        for pane in (ann, bob):
            assert tmux.exit_status(pane) == 0, tmux.screen(pane)
            screen = tmux.screen(pane)
            assert FINAL in screen, screen
            assert "Traceback" not in screen
        assert "ann plays" not in tmux.screen(ann)
        assert tmux.screen(bob).count("ann plays 0.") == 4
    finally:
        service.close()
