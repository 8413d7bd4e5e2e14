"""connect.py --watch (a spectator's view), and joining a network game: token, program, address.

Against the session's real service. The spectator runs as a program
reading nothing, its output a pipe read line by line; each move is
played once the spectator shows it waits for it, so every move reaches
it by push.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from connect_four.terminal import network_game
from connect_four.terminal.errors import UsageError
from connect_four.terminal.network import GameAddress, parse_server_url, parse_watch_url
from connect_four.terminal.options import parse_options
from connect_support import CONNECT, ROOT, without_no_color
from network_support import DEADLINE, Friend, create_game, moves_of, play


@pytest.mark.slow
def test_a_spectator_sees_each_move_as_it_comes_and_who_won(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "0")
    spectator = subprocess.Popen(
        [sys.executable, str(CONNECT), "--watch", f"{drop_token_service}/drop_token/{game}"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=without_no_color(),
    )
    watchdog = threading.Timer(DEADLINE, spectator.kill)
    watchdog.start()
    record = ["1", "0", "1", "0", "1", "0"]  # then ann (X) has four in column 0
    shown: list[str] = []
    try:
        assert spectator.stdout is not None
        for raw in iter(spectator.stdout.readline, b""):
            line = raw.decode()
            shown.append(line)
            if line.startswith("Waiting for") and record:
                played = len(moves_of(drop_token_service, game))
                player = ("ann", "bob")[played % 2]
                assert (
                    line == f"Waiting for {player} ({'XO'[played % 2]}) to move... "
                    "(Ctrl-C stops watching)\n"
                )
                play(drop_token_service, game, player, tokens[player], record.pop(0))
        errors = spectator.stderr.read() if spectator.stderr else b""
        spectator.wait()
    finally:
        watchdog.cancel()
    text = "".join(shown)
    assert errors == b""
    assert spectator.returncode == 0
    assert shown[0] == (
        f"Watching game {game} on {drop_token_service}: ann is X, bob is O (1 move so far).\n"
    )
    told = [line for line in shown if " plays " in line]
    assert told == [
        f"{('bob', 'ann')[n % 2]} plays {column}.\n"
        for n, column in enumerate(["1", "0", "1", "0", "1", "0"])
    ]
    assert text.endswith("Game finished.\nann (X) wins.\n")
    assert "X......." in text and "XO......" in text  # the grids as they grew


@pytest.mark.slow
def test_a_spectator_of_a_finished_game_is_told_at_once(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    play(drop_token_service, game, "bob", tokens["bob"], "quit")
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--watch", f"{drop_token_service}/drop_token/{game}/"],
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
        env=without_no_color(),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.decode().endswith("Game finished.\nann (X) wins.\n")


@pytest.mark.slow
def test_an_unknown_game_to_watch_is_one_line_and_status_1(drop_token_service: str) -> None:
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--watch", f"{drop_token_service}/drop_token/{'0' * 32}"],
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
    )
    assert result.returncode == 1
    assert result.stdout == b""
    assert result.stderr.decode().startswith("connect.py: the service refused: there is no game")
    assert len(result.stderr.splitlines()) == 1


@pytest.mark.parametrize(
    ("arguments", "complaint"),
    [
        (
            ["--watch", "http://h:1/drop_token/g", "--join", "http://h:1/drop_token/g/bob"],
            "--watch follows a game without playing: not with --server or --join",
        ),
        (
            ["--watch", "http://h:1/drop_token/g", "--token", "t"],
            "--token does nothing without --join",
        ),
        (["--watch", "http://h:1/nothing"], "--watch: 'http://h:1/nothing' is not a game's URL"),
        (
            ["--watch", "http://h:1/drop_token/g", "--computer", "x"],
            "--computer cannot be used in a network game",
        ),
    ],
)
def test_watch_refuses_what_it_cannot_do(arguments: list[str], complaint: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_options(arguments)
    assert str(refused.value).startswith(complaint)


def test_a_watch_url_is_the_game_or_a_players_url() -> None:
    assert parse_watch_url("http://h:1/drop_token/g") == ("http://h:1", "g")
    assert parse_watch_url("http://h:1/c4/drop_token/g/bob") == ("http://h:1/c4", "g")
    settings = parse_options(["--watch", "http://h:1/drop_token/g", "--rows", "6"])
    assert (settings.network, settings.watching, settings.joining) == ("http://h:1", "g", None)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("token", "complaint"),
    [
        (
            None,
            "needs bob's secret token: run the join command shown to whoever created the "
            "game (it sets CONNECT_FOUR_TOKEN), or add --token TOKEN",
        ),
        ("ann", "that token is not bob's in game"),
    ],
)
def test_a_missing_or_wrong_token_is_told_when_joining_and_nothing_is_played(
    drop_token_service: str, token: str | None, complaint: str
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    arguments = ["--join", f"{drop_token_service}/drop_token/{game}/bob"]
    if token is not None:
        arguments += ["--token", tokens[token]]
    env = {key: value for key, value in without_no_color().items() if key != "CONNECT_FOUR_TOKEN"}
    result = subprocess.run(
        [sys.executable, str(CONNECT), *arguments],
        input=b"4\n",
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
        env=env,
    )
    assert result.returncode == 1
    assert result.stdout == b""  # before any grid or prompt
    errors = result.stderr.decode().splitlines()
    assert len(errors) == 1 and complaint in errors[0], errors
    assert moves_of(drop_token_service, game) == [{"type": "MOVE", "player": "ann", "column": 3}]


@pytest.mark.parametrize(
    ("program", "words"),
    [
        ("/usr/local/bin/connect-four", "connect-four --join"),
        ("connect.py", "python3 connect.py --join"),
        ("/home/ann/c4/connect.py", "python3 connect.py --join"),
    ],
)
def test_the_join_command_names_the_program_the_player_ran(
    monkeypatch: pytest.MonkeyPatch, program: str, words: str
) -> None:
    monkeypatch.setattr(sys, "argv", [program, "--server", "http://h:1"])
    settings = parse_options(["--server", "http://h:1"])
    command = network_game.join_command(GameAddress("http://h:1", "g", "bob"), "t0k", settings)
    assert command == f"CONNECT_FOUR_TOKEN=t0k {words} http://h:1/drop_token/g/bob"


def test_the_apis_own_path_given_as_the_service_is_understood() -> None:
    assert parse_server_url("http://h:8080/drop_token") == "http://h:8080"
    assert parse_server_url("http://h:8080/c4/drop_token/") == "http://h:8080/c4"


@pytest.mark.slow
def test_a_friend_joining_without_the_size_plays_on_the_board_the_service_tells(
    drop_token_service: str,
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"], rows=6, columns=7)
    play(drop_token_service, game, "ann", tokens["ann"], "6")
    env = {key: value for key, value in without_no_color().items() if key != "CONNECT_FOUR_TOKEN"}
    ann = Friend(drop_token_service, 0, ["quit"])  # ann quits once bob has moved
    ann.found(game, "ann", tokens["ann"])
    ann.start()
    # bob names no size: 7 is off this 6 x 7 board (an invalid move, not a refusal), 6 is played.
    result = subprocess.run(
        [
            sys.executable,
            str(CONNECT),
            "--join",
            f"{drop_token_service}/drop_token/{game}/bob",
            "--token",
            tokens["bob"],
        ],
        input=b"7\n6\n",
        capture_output=True,
        cwd=ROOT,
        timeout=DEADLINE,
        env=env,
    )
    shown = result.stdout.decode()
    assert "Invalid move. Enter a column number (0-6)." in shown
    assert "\n0123456\n" in shown and "01234567" not in shown
    assert moves_of(drop_token_service, game)[:2] == [
        {"type": "MOVE", "player": "ann", "column": 6},
        {"type": "MOVE", "player": "bob", "column": 6},
    ]
    ann.check()
    assert result.returncode == 0, result.stderr
    assert shown.endswith("ann (X) quits.\nGame finished.\nbob (O) wins.\n")
