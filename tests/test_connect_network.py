"""Network games (--server, --join) in the project's dialog format, against a real service.

Each dialog under ``test_files/network/`` is one player's transcript; its
``.args`` file holds the command line, where ``{server}`` stands for the
service's URL and ``{join}``/``{token}`` for the game and token the test
created. A friend (network_support.Friend) plays the other side over HTTP:
the actions in the ``.friend`` file, one a line, each as soon as it is the
friend's turn; a ``.before`` file lists moves played before the dialog's
player starts (so that a joining player's view is the same every run). In
the transcript ``{server}``, ``{game}`` and ``{token}`` stand for the values
of the run. Each dialog runs twice: through byu-pytest-utils' harness
in-process, and as a program reading a pipe.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from connect_support import (
    CONNECT,
    ROOT,
    TEST_FILES,
    dialog_arguments,
    dialog_inputs,
    piped_transcript,
    read_dialog,
    run_like_the_harness,
    without_no_color,
)
from network_support import DEADLINE, Friend, create_game, moves_of, play
from server_support import Server

NETWORK_DIALOGS = sorted((TEST_FILES / "network").glob("*.txt"))
_TYPED = re.compile(r"<<(.*?)>>", re.DOTALL)


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real drop-token service on 127.0.0.1 for the module; its base URL."""
    server = Server(tmp_path_factory.mktemp("network") / "games.db")
    server.start()
    try:
        yield server.url
    finally:
        server.close()


class NetworkDialog:
    """One dialog set up against a service: its command line, its friend, its values."""

    def __init__(self, dialog: Path, base: str) -> None:
        self.dialog = dialog
        self.base = base
        self.text = read_dialog(dialog)
        self.inputs = dialog_inputs(self.text)
        arguments = dialog_arguments(dialog)
        actions = dialog.with_suffix(".friend").read_text(encoding="utf-8").split()
        self.values = {"{server}": base}
        if "{join}" in arguments:
            # The test creates the game: its friend ann plays X, the dialog bob.
            rows, columns = _board(arguments)
            game, tokens = create_game(base, ["ann", "bob"], rows, columns)
            before = dialog.with_suffix(".before")
            record = before.read_text(encoding="utf-8").split() if before.exists() else []
            for number, column in enumerate(record):
                player = ("ann", "bob")[number % 2]
                play(base, game, player, tokens[player], column)
            self.friend = Friend(base, 0, actions)
            self.friend.found(game, "ann", tokens["ann"])
            self.values.update({"{join}": f"{base}/drop_token/{game}/bob",
                                "{game}": game, "{token}": tokens["bob"]})
        else:
            self.friend = Friend(base, 1, actions)
        self.arguments = [self._filled(argument) for argument in arguments]

    def expected(self) -> str:
        """The dialog's text with this run's game and token in place."""
        self.values.setdefault("{game}", self.friend.game)
        self.values.setdefault("{token}", self.friend.token)
        return self._filled(self.text)

    def _filled(self, text: str) -> str:
        for placeholder, value in self.values.items():
            text = text.replace(placeholder, value)
        return text


def _board(arguments: list[str]) -> tuple[int, int]:
    rows = int(arguments[arguments.index("--rows") + 1]) if "--rows" in arguments else 5
    columns = int(arguments[arguments.index("--columns") + 1]) if "--columns" in arguments else 8
    return rows, columns


@pytest.mark.parametrize("dialog", NETWORK_DIALOGS, ids=[path.stem for path in NETWORK_DIALOGS])
def test_network_dialog_through_the_harness(dialog: Path, service: str) -> None:
    game = NetworkDialog(dialog, service)
    game.friend.start()
    shown = run_like_the_harness(game.inputs, *game.arguments, on_line=game.friend.read_join_line)
    game.friend.check()
    assert shown == _TYPED.sub(r"\1", game.expected())


@pytest.mark.parametrize("dialog", NETWORK_DIALOGS, ids=[path.stem for path in NETWORK_DIALOGS])
def test_network_dialog_through_a_pipe(dialog: Path, service: str) -> None:
    game = NetworkDialog(dialog, service)
    game.friend.start()
    process = subprocess.Popen(
        [sys.executable, str(CONNECT), *game.arguments],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        cwd=ROOT, env=without_no_color(),
    )
    # A game that hangs is killed at the deadline, and the test fails.
    watchdog = threading.Timer(DEADLINE, process.kill)
    watchdog.start()
    try:
        assert process.stdin and process.stdout and process.stderr
        process.stdin.write("".join(line + "\n" for line in game.inputs).encode())
        process.stdin.close()
        shown = b""
        for line in iter(process.stdout.readline, b""):
            shown += line
            game.friend.read_join_line(line.decode())
        errors = process.stderr.read()
        process.wait()
    finally:
        watchdog.cancel()
    game.friend.check()
    assert errors == b""
    assert process.returncode == 0
    assert shown.decode() == piped_transcript(game.expected())


def test_a_dialog_friend_really_played_through_the_service(service: str) -> None:
    # The friend's moves are the service's: the dialogs see no stand-in.
    game = NetworkDialog(TEST_FILES / "network" / "join_o_wins_highlight.txt", service)
    game.friend.start()
    run_like_the_harness(game.inputs, *game.arguments)
    game.friend.check()
    moves = moves_of(service, game.values["{game}"])
    assert [move["player"] for move in moves] == ["ann", "bob"] * 4
    assert [move["column"] for move in moves] == [0, 1, 0, 1, 0, 1, 6, 1]
