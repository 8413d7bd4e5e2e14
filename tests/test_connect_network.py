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

import contextlib
import os
import runpy
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from connect_support import (
    CONNECT,
    ROOT,
    TEST_FILES,
    default_sigint,
    dialog_arguments,
    dialog_inputs,
    harness_transcript,
    piped_transcript,
    read_dialog,
    run_like_the_harness,
    run_piped,
    without_no_color,
)
from network_support import DEADLINE, Friend, create_game, moves_of, play, serving

pytestmark = pytest.mark.slow

NETWORK_DIALOGS = sorted((TEST_FILES / "network").glob("*.txt"))


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
            self.values.update(
                {
                    "{join}": f"{base}/drop_token/{game}/bob",
                    "{game}": game,
                    "{token}": tokens["bob"],
                }
            )
        else:
            self.friend = Friend(base, 1, actions)
        self.arguments = [self._filled(argument) for argument in arguments]

    def expected(self) -> str:
        """The dialog's text with this run's game and token in place."""
        self.values.setdefault("{game}", self.friend.game)
        self.values.setdefault("{token}", self.friend.token)
        self.values.setdefault("{own_token}", self.friend.creator_token)
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
def test_network_dialog_through_the_harness(dialog: Path, drop_token_service: str) -> None:
    game = NetworkDialog(dialog, drop_token_service)
    game.friend.start()
    shown = run_like_the_harness(game.inputs, *game.arguments, on_line=game.friend.read_join_line)
    game.friend.check()
    assert shown == harness_transcript(game.expected())


@pytest.mark.parametrize("dialog", NETWORK_DIALOGS, ids=[path.stem for path in NETWORK_DIALOGS])
def test_network_dialog_through_a_pipe(dialog: Path, drop_token_service: str) -> None:
    game = NetworkDialog(dialog, drop_token_service)
    game.friend.start()
    process = subprocess.Popen(
        [sys.executable, str(CONNECT), *game.arguments],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=without_no_color(),
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


def test_a_dialog_friend_really_played_through_the_service(drop_token_service: str) -> None:
    # The friend's moves are the service's: the dialogs see no stand-in.
    game = NetworkDialog(TEST_FILES / "network" / "join_o_wins_highlight.txt", drop_token_service)
    game.friend.start()
    run_like_the_harness(game.inputs, *game.arguments)
    game.friend.check()
    moves = moves_of(drop_token_service, game.values["{game}"])
    assert [move["player"] for move in moves] == ["ann", "bob"] * 4
    assert [move["column"] for move in moves] == [0, 1, 0, 1, 0, 1, 6, 1]


# --- Leaving early, losing the service, a hostile service -------------------------


def _start_creator(base: str, stdin: bytes) -> tuple[subprocess.Popen[bytes], Friend]:
    """connect.py --server in a child; returns it once it waits for bob, and bob's view."""
    process = subprocess.Popen(
        [sys.executable, str(CONNECT), "--server", base, "--name", "ann", "--friend", "bob"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        preexec_fn=default_sigint,  # Ctrl-C is meant, whatever started the tests
    )
    assert process.stdin and process.stdout
    process.stdin.write(stdin)
    process.stdin.flush()
    bob = Friend(base, 1, [])
    watchdog = threading.Timer(DEADLINE, process.kill)
    watchdog.start()
    try:
        for line in iter(process.stdout.readline, b""):
            bob.read_join_line(line.decode())
            if line.startswith(b"Waiting for bob"):
                return process, bob
    finally:
        watchdog.cancel()
    raise AssertionError("the game never waited for bob")


def test_ctrl_c_while_waiting_quits_the_game_on_the_service(drop_token_service: str) -> None:
    process, bob = _start_creator(drop_token_service, b"3\n")
    process.send_signal(signal.SIGINT)
    _, errors = process.communicate(timeout=DEADLINE)
    assert process.returncode == 130
    assert errors.decode().splitlines() == ["", "connect.py: game interrupted"]
    moves = moves_of(drop_token_service, bob.game)
    assert moves == [
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "QUIT", "player": "ann"},
    ]


def test_the_creator_rejoins_with_the_command_it_was_shown(drop_token_service: str) -> None:
    # ann's terminal dies after her first move: nothing tells the service.
    process, bob = _start_creator(drop_token_service, b"3\n")
    process.kill()
    process.communicate(timeout=DEADLINE)
    assert bob.creator_token and bob.creator_token != bob.token
    play(drop_token_service, bob.game, "bob", bob.token, "0")
    friend = Friend(drop_token_service, 1, ["quit"])
    friend.found(bob.game, "bob", bob.token)
    friend.start()
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--join", f"{drop_token_service}/drop_token/{bob.game}/ann"],
        input=b"3\n",
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
        env={**os.environ, "CONNECT_FOUR_TOKEN": bob.creator_token},
    )
    friend.check()
    assert result.returncode == 0, result.stderr
    shown = result.stdout.decode()
    assert "you are ann (X), bob is O." in shown
    assert shown.endswith("bob (O) quits.\nGame finished.\nann (X) wins.\n")
    assert moves_of(drop_token_service, bob.game) == [
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "MOVE", "player": "bob", "column": 0},
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "QUIT", "player": "bob"},
    ]


def test_input_ending_at_the_prompt_quits_the_game_on_the_service(
    drop_token_service: str,
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "4")
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--join", f"{drop_token_service}/drop_token/{game}/bob"],
        input=b"",
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
        env={**os.environ, "CONNECT_FOUR_TOKEN": tokens["bob"]},
    )
    assert result.returncode == 1
    assert result.stderr == b"connect.py: input ended before the game finished\n"
    assert result.stdout.endswith(b"O's turn\nEnter a column: ")
    assert moves_of(drop_token_service, game) == [
        {"type": "MOVE", "player": "ann", "column": 4},
        {"type": "QUIT", "player": "bob"},
    ]


def test_a_service_gone_for_good_is_one_line_and_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import connect
    from connect_four.terminal import network_game

    monkeypatch.setattr(network_game, "RETRY_SECONDS", 0.5)
    with socket.socket() as bound:  # bound, not listening: every connection is refused
        bound.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{bound.getsockname()[1]}"
        status = connect.main(["--server", url])
    shown = capsys.readouterr()
    # The first contact fails at once, saying what to check.
    assert status == 1
    assert shown.out == ""
    assert shown.err == (
        f"connect.py: cannot reach the service at {url} (connection refused): "
        "is it running there? (check the address, the port, and http:// rather "
        "than https://)\n"
    )


@pytest.mark.parametrize("option", ["--join", "--watch"])
def test_a_board_the_game_does_not_have_is_a_refused_command_line(
    option: str, drop_token_service: str
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"], rows=5, columns=8)
    if option == "--join":  # ann, to move: were the board taken, input would end the game
        arguments = [f"{drop_token_service}/drop_token/{game}/ann", "--token", tokens["ann"]]
    else:  # a game over: were the board taken, the watch would end at once
        play(drop_token_service, game, "ann", tokens["ann"], "quit")
        arguments = [f"{drop_token_service}/drop_token/{game}"]
    played = moves_of(drop_token_service, game)
    result = run_piped(b"", option, *arguments, "--rows", "6", "--columns", "7")
    assert (result.returncode, result.stdout) == (2, b"")
    assert result.stderr.decode() == (
        f"connect.py: error: {option}: this game's board is 5 x 8, not the 6 x 7 of --rows "
        "and --columns (leave them out: the service tells the board)\n"
    )
    # Nothing played, nothing quit. (A join naming the game's own board is taken:
    # test_files/network/join_friend_quits.)
    assert moves_of(drop_token_service, game) == played


@pytest.mark.parametrize(
    "moves, complaint",
    [
        ([{"type": "MOVE", "player": "ann", "column": 42}], "the rules refuse: column 42"),
        ([{"type": "MOVE", "player": "bob", "column": 1}], "the rules refuse"),
        ([{"type": "MOVE", "player": "eve", "column": 1}], "eve, who is not in the game"),
        ([{"type": "MOVE", "player": "ann", "column": 1.5}], "malformed move"),
    ],
)
def test_a_move_no_game_could_play_ends_the_game_in_one_line(
    moves: list[dict[str, object]],
    complaint: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import connect

    with _FakeService({"players": ["ann", "bob"], "state": "IN_PROGRESS"}, moves) as url:
        status = connect.main(["--join", f"{url}/drop_token/g/bob", "--token", "t"])
    errors = capsys.readouterr().err.splitlines()
    assert status == 1
    assert len(errors) == 1
    assert errors[0].startswith("connect.py: the service")
    assert complaint in errors[0]


class _FakeService:
    """A service on 127.0.0.1 that tells of one game and a fixed move list, and accepts quits."""

    def __init__(self, game: dict[str, object], moves: list[dict[str, object]]) -> None:
        import http.server
        import json

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = {"moves": moves} if "/moves" in self.path else game
                self._send(200, json.dumps(body).encode())

            def do_DELETE(self) -> None:
                self._send(202, b"")

            def _send(self, status: int, body: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._serving = contextlib.ExitStack()

    def __enter__(self) -> str:
        self._serving.enter_context(serving(self.server))
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc: object) -> None:
        self._serving.close()


def test_a_friend_who_quits_while_the_player_thinks_ends_the_game_at_the_next_move(
    drop_token_service: str,
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    typed = []

    def quit_then_type(prompt: str = "") -> str:
        # ann quits while bob's prompt waits; bob's move is then refused.
        play(drop_token_service, game, "ann", tokens["ann"], "quit")
        typed.append(prompt)
        return "4"

    shown: list[str] = []
    arguments = [
        "--join",
        f"{drop_token_service}/drop_token/{game}/bob",
        "--token",
        tokens["bob"],
        "--announce",
    ]
    saved = sys.argv
    sys.argv = [str(CONNECT), *arguments]
    try:
        runpy.run_path(str(CONNECT), {"print": shown.append, "input": quit_then_type}, "__main__")
    finally:
        sys.argv = saved
    assert typed == ["Enter a column: "]
    assert shown[-4:] == ["ann (X) quits.", "Game finished.", "bob (O) wins.", "Moves: 3"]
    assert moves_of(drop_token_service, game)[-1] == {"type": "QUIT", "player": "ann"}
