"""connect.py's options through a pipe, and the command lines it refuses."""

from __future__ import annotations

import pytest

from connect_four.connect import main
from connect_support import (
    TEST_FILES,
    dialog_arguments,
    dialog_inputs,
    piped_transcript,
    read_dialog,
    run_piped,
)

OPTION_DIALOGS = sorted((TEST_FILES / "options").glob("*.txt"))


@pytest.mark.slow
@pytest.mark.parametrize("dialog", OPTION_DIALOGS, ids=[path.stem for path in OPTION_DIALOGS])
def test_option_dialog_played_through_a_pipe(dialog):
    text = read_dialog(dialog)
    stdin = "".join(line + "\n" for line in dialog_inputs(text)).encode()
    result = run_piped(stdin, *dialog_arguments(dialog))
    assert result.stdout.decode() == piped_transcript(text)
    assert result.stderr == b""
    assert result.returncode == 0


REFUSED = [
    (["--rows", "0"], "--rows"),
    (["--rows", "100"], "--rows"),
    (["--columns", "-3"], "--columns"),
    (["--columns", "x"], "--columns"),
    (["--rows", "٣"], "--rows"),
    (["--connect", "9"], "connect 9 is longer"),
    (["--rows", "3", "--columns", "3", "--connect", "4"], "connect 4"),
    (["--bogus"], "--bogus"),
    (["--moves", "3,3,9"], "column 9"),
    (["--moves", "3,,4"], "--moves"),
    (["--moves", "0,0,0,0,0,0"], "full"),
    (["--moves", "1", "--moves-file", "x"], "not allowed"),
    (["--moves-file", "no/such/file"], "no/such/file"),
    (["extra"], "extra"),
    (["--computer", "Z"], "--computer"),
    (["--level", "0"], "--level"),
    (["--level", "6"], "--level"),
    (["--think", "0"], "--think"),
    (["--think", "nan"], "--think"),
    (["--seed", "x"], "--seed"),
    (["--server", "localhost"], "--server"),
    (["--join", "http://h/drop_token/g"], "--join"),
    (["--server", "http://h", "--computer", "o"], "network game"),
]
"""Command lines connect.py refuses, each with a word its one line of complaint must hold."""


@pytest.mark.parametrize("arguments, complaint", REFUSED)
def test_refused_command_line_is_one_line_on_stderr_and_status_2(
    arguments: list[str], complaint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(arguments) == 2
    _assert_refused(*capsys.readouterr(), complaint)


# In-process above, each case in a twentieth of the time; the status a shell
# sees, and that nothing else is written, come from the program itself.
@pytest.mark.parametrize("arguments, complaint", [REFUSED[0], REFUSED[7], REFUSED[12]])
def test_a_refused_command_line_ends_the_program_with_status_2(
    arguments: list[str], complaint: str
) -> None:
    result = run_piped(b"", *arguments)
    assert result.returncode == 2
    _assert_refused(result.stdout.decode(), result.stderr.decode(), complaint)


def _assert_refused(shown: str, complained: str, complaint: str) -> None:
    """Nothing shown, and one line of complaint that holds ``complaint``."""
    assert shown == ""
    (line,) = complained.splitlines()
    assert line.startswith("connect.py: error: ")
    assert complaint in line


def test_help_describes_the_game_and_every_option():
    result = run_piped(b"", "--help")
    assert result.returncode == 0
    text = result.stdout.decode()
    assert text.startswith("usage: connect.py")
    for option in (
        "--rows",
        "--columns",
        "--connect",
        "--announce",
        "--highlight",
        "--moves",
        "--moves-file",
        "--version",
        "--help",
        "--server",
        "--join",
        "--name",
        "--friend",
        "--token",
    ):
        assert option in text
    assert "Connect Four" in text
    assert "examples:" in text


def test_moves_played_after_a_win_are_refused():
    result = run_piped(b"", "--moves", "0,7,0,6,0,5,0,1")
    assert result.returncode == 2
    assert b"over" in result.stderr


def test_no_color_in_the_environment_turns_color_off_end_to_end():
    import subprocess
    import sys

    from connect_support import CONNECT, ROOT, without_no_color

    moves = b"0\n7\n0\n6\n0\n5\n0\n"
    plain = run_piped(moves, "--announce")
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--color", "--announce"],
        input=moves,
        capture_output=True,
        cwd=ROOT,
        env={**without_no_color(), "NO_COLOR": "1"},
        timeout=60,
    )
    assert result.stdout == plain.stdout
    assert b"\x1b[" not in result.stdout
