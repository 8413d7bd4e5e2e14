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
from server_support import HTTP, Server

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


@pytest.mark.parametrize(
    ("choice", "keys", "said", "status"),
    [
        ("n", ["q", "Enter"], "Your challenge is taken back.", 0),
        ("n", ["C-d"], "input ended before anyone accepted: your challenge is taken back", 1),
        ("p", ["C-c"], "you left before anyone came: you no longer wait to play", 130),
    ],
)
def test_a_terminal_leaves_its_wait_for_a_game_and_what_it_opened_is_taken_back(
    tmp_path: Path, tmux: Tmux, choice: str, keys: list[str], said: str, status: int
) -> None:
    """At a terminal the wait is a prompt: q, Ctrl-D or Ctrl-C leave it, said, with no traceback."""
    service = Server(tmp_path / "games.db")
    service.start()
    try:
        pane = tmux.new_pane(run_in_pane(lobby_command(service.url, tmp_path / "cal")), first=True)
        tmux.wait_for(pane, "Your name in the lobby: ")
        tmux.type_line(pane, "cal")
        tmux.wait_for(pane, "Your choice: ")
        tmux.type_line(pane, choice)
        tmux.wait_for(pane, "Type q to leave (Ctrl-D or Ctrl-C too): ")
        lobby = HTTP.get(f"{service.url}/lobby", timeout=30).json()
        assert [seek["by"] for seek in lobby["seeks"]] + list(lobby["waiting"]) == [
            "cal" if choice == "n" else "6x7c4 untimed"
        ]
        tmux.run("send-keys", "-t", pane, *keys)
        assert tmux.exit_status(pane) == status
        screen = tmux.screen(pane)
        assert said in screen and "Traceback" not in screen
        lobby = HTTP.get(f"{service.url}/lobby", timeout=30).json()
        assert (lobby["seeks"], lobby["waiting"]) == ([], {})
    finally:
        service.close()
