"""Two terminals meet in the lobby (``connect.py --server URL --lobby``) and play to the end.

Each player is connect.py in a tmux pane of its own (a real terminal),
with a key file of its own (``XDG_CONFIG_HOME``). ann opens a challenge;
bob's lobby lists it and he accepts it by its number; both then play the
network game, typing each move when their pane prompts for it. Every wait
is for a text in a pane (tests/test_connect_tmux.py's tmux helpers).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from test_connect_tmux import Tmux, run_in_pane
from test_connect_tmux import tmux as tmux  # the fixture, asked for by its name

from connect_support import CONNECT
from server_support import Server

pytestmark = pytest.mark.slow


def lobby_command(url: str, config: Path) -> str:
    words = ["python3", str(CONNECT), "--server", url, "--lobby", "--rows", "6", "--columns", "7"]
    return f"XDG_CONFIG_HOME={shlex.quote(str(config))} " + shlex.join(words)


def test_two_terminals_meet_in_the_lobby_and_play_a_whole_game(tmp_path: Path, tmux: Tmux) -> None:
    service = Server(tmp_path / "games.db")
    service.start()
    try:
        ann = tmux.new_pane(run_in_pane(lobby_command(service.url, tmp_path / "ann")), first=True)
        tmux.wait_for(ann, "Your name in the lobby: ")
        tmux.type_line(ann, "ann")
        tmux.wait_for(ann, "Your choice: ")
        tmux.type_line(ann, "n")
        tmux.wait_for(ann, "Waiting for someone to accept it...")

        bob = tmux.new_pane(run_in_pane(lobby_command(service.url, tmp_path / "bob")), first=False)
        tmux.wait_for(bob, "Your name in the lobby: ")
        tmux.type_line(bob, "bob")
        tmux.wait_for(bob, "  1. ann (1500): 6 x 7, four in a row, untimed, rated")
        tmux.type_line(bob, "1")
        screen = tmux.wait_for(bob, "you are bob (")
        bob_mark = re.search(r"you are bob \(([XO])\)", screen)[1]  # type: ignore[index]
        first, second = (bob, ann) if bob_mark == "X" else (ann, bob)
        tmux.wait_for(second, "Joined game")

        for number, (pane, column) in enumerate([(first, "0"), (second, "1")] * 3 + [(first, "0")]):
            tmux.wait_for(pane, "Enter a column: ", number // 2 + 1)
            tmux.type_line(pane, column)
        winner = "bob" if first is bob else "ann"
        for pane in (ann, bob):
            tmux.wait_for(pane, f"{winner} (X) wins.")
            assert tmux.exit_status(pane) == 0
        for config in ("ann", "bob"):
            kept = (tmp_path / config / "connect-four" / "players.json").read_text()
            key = re.search(r'"key": "([^"]+)"', kept)[1]  # type: ignore[index]
            assert all(key not in tmux.screen(pane) for pane in (ann, bob))
    finally:
        service.close()
