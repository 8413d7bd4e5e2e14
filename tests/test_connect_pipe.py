"""connect.py as a grader's pipe sees it: the dialog files, EOF, Ctrl-C, bad bytes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from connect_support import (
    CONNECT,
    ROOT,
    TEST_FILES,
    default_sigint,
    dialog_inputs,
    piped_transcript,
    read_dialog,
    run_piped,
)

pytestmark = pytest.mark.slow

DIALOGS = sorted(TEST_FILES.glob("*.txt"))
INVALID = b"Invalid move. Enter a column number (0-7).\n"


@pytest.mark.parametrize("dialog", DIALOGS, ids=[path.stem for path in DIALOGS])
def test_dialog_played_through_a_pipe_gives_the_same_transcript(dialog):
    text = read_dialog(dialog)
    stdin = "".join(line + "\n" for line in dialog_inputs(text)).encode("utf-8")
    result = run_piped(stdin)
    assert result.stdout.decode("utf-8") == piped_transcript(text)
    assert result.stderr == b""
    assert result.returncode == 0


def test_assignment_example_transcript_is_byte_exact():
    expected = read_dialog(TEST_FILES / "example_game.txt")
    result = run_piped(b"0\n7\n0\n6\n0\n5\n0\n")
    assert result.stdout == piped_transcript(expected).encode()
    assert result.stdout.endswith(b"X....OOO\n01234567\nGame finished.\n")


def test_crlf_input_file_plays_like_lf():
    lf = run_piped(b"0\n7\n0\n6\n0\n5\n0\n")
    crlf = run_piped(b"0\r\n7\r\n0\r\n6\r\n0\r\n5\r\n0\r\n")
    assert crlf.stdout == lf.stdout
    assert crlf.returncode == 0


def test_only_one_carriage_return_is_forgiven():
    result = run_piped(b"0\r\r\n0\n7\n0\n6\n0\n5\n0\n")
    assert result.stdout.count(INVALID) == 1


def test_line_that_is_not_utf8_is_an_invalid_move():
    result = run_piped(b"\xff\n3\xfe\n0\n7\n0\n6\n0\n5\n0\n")
    assert result.stdout.count(INVALID) == 2
    assert result.stdout.endswith(b"Game finished.\n")
    assert result.returncode == 0
    assert result.stderr == b""


def test_input_ending_early_exits_1_with_one_line_on_stderr():
    complete = run_piped(b"0\n7\n0\n6\n0\n5\n0\n").stdout
    result = run_piped(b"0\n7\n")
    assert result.returncode == 1
    assert b"Traceback" not in result.stderr
    assert len(result.stderr.decode().splitlines()) == 1
    # Standard output holds the game so far, ending at the unanswered prompt.
    cut = complete.index(b"Enter a column: ", complete.index(b"X......O")) + len(
        b"Enter a column: "
    )
    assert result.stdout == complete[:cut]


def test_empty_input_exits_1():
    result = run_piped(b"")
    assert result.returncode == 1
    assert result.stdout.endswith(b"X's turn\nEnter a column: ")
    assert b"Traceback" not in result.stderr


def _game_at_its_first_prompt(**options: object) -> subprocess.Popen[bytes]:
    """connect.py in a child with piped streams, once it asks for its first column."""
    process = subprocess.Popen(
        [sys.executable, str(CONNECT)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        **options,
    )
    assert process.stdout is not None
    seen = b""
    while not seen.endswith(b"Enter a column: "):
        chunk = os.read(process.stdout.fileno(), 1024)
        assert chunk, "connect.py ended before its first prompt"
        seen += chunk
    return process


def test_ctrl_c_exits_130_without_traceback():
    # Ctrl-C is meant, whatever started the tests.
    process = _game_at_its_first_prompt(preexec_fn=default_sigint)
    # A signal that lands after the prompt is written but before input()
    # blocks in read() is recorded by CPython yet cannot wake that read, as
    # at a real terminal a user would press Ctrl-C again: so send it until
    # the game ends. Standard input stays open, or the game could end by EOF.
    for _ in range(120):
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=1)
            break
        except subprocess.TimeoutExpired:
            continue
    rest, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert rest == b""
    assert b"Traceback" not in err
    assert err.decode().splitlines()[-1] == "connect.py: game interrupted"


def test_a_second_ctrl_c_while_stopping_is_ignored():
    # Ctrl-C twice: the first one stops the game, the second must not turn
    # its clean exit into a traceback.
    script = (
        "import signal\n"
        "import connect\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "def interrupted(prompt=''):\n"
        "    raise KeyboardInterrupt\n"
        "connect.input = interrupted\n"
        "status = connect.main([])\n"
        "signal.raise_signal(signal.SIGINT)\n"
        "print('still here', status)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        cwd=ROOT,
        timeout=60,
        input=b"",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith(b"still here 130\n")


def test_closed_pipe_ends_the_game_quietly_with_status_141():
    # `connect.py | head -3`: the reader leaves while the game still writes.
    process = _game_at_its_first_prompt()
    assert process.stdout is not None
    process.stdout.close()
    # The next board goes to a pipe nobody reads any more.
    _, err = process.communicate(b"0\n7\n0\n6\n0\n5\n0\n", timeout=60)
    assert process.returncode == 141
    assert err == b""


def test_closed_pipe_after_help_ends_quietly():
    read_end, write_end = os.pipe()
    os.close(read_end)
    result = subprocess.run(
        [sys.executable, str(CONNECT), "--help"],
        stdout=write_end,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        timeout=60,
    )
    os.close(write_end)
    assert result.returncode == 141
    assert result.stderr == b""


def _run_at_a_terminal(keys: bytes, *args: str) -> tuple[int, bytes]:
    """Run connect.py on a pseudo-terminal, type ``keys`` once the first prompt shows.

    Returns the exit status and everything the terminal showed.
    """
    import pty

    controller, terminal = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, str(CONNECT), *args],
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        cwd=ROOT,
        close_fds=True,
    )
    os.close(terminal)
    shown = b""
    typed = False
    while True:
        if not typed and shown.endswith(b"Enter a column: "):
            os.write(controller, keys)
            typed = True
        try:
            chunk = os.read(controller, 4096)
        except OSError:  # EIO: the game closed the terminal's other end
            break
        if not chunk:
            break
        shown += chunk
    os.close(controller)
    return process.wait(timeout=60), shown


def test_ctrl_d_at_a_terminal_puts_the_message_on_a_line_of_its_own():
    status, shown = _run_at_a_terminal(b"\x04")
    assert status == 1
    assert shown.endswith(
        b"Enter a column: \r\nconnect.py: input ended before the game finished\r\n"
    )


def test_input_ending_in_a_pipe_adds_nothing_to_either_stream():
    result = run_piped(b"0\n")
    assert result.stdout.endswith(b"O's turn\nEnter a column: ")
    assert result.stderr == b"connect.py: input ended before the game finished\n"
