"""A prompt cut short by news: connect.py's prompt ends when the watched news comes before a line.

The mechanism (connect_four.terminal.news, driven by connect.py) runs in a
child whose standard input is a pipe the test holds open and never writes
to, unless it answers for the player: only the news can end that wait.
Then the network game's own news, the friend's quit on a real service.
"""

from __future__ import annotations

import builtins
import os
import re
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest

from connect_four.terminal import network_game
from connect_four.terminal.errors import ServerUnreachable
from connect_four.terminal.network import DropTokenClient
from connect_four.terminal.news import PromptWatch, watch_prompt
from connect_four.terminal.steps import Ask
from connect_support import CONNECT, ROOT, default_sigint
from network_support import DEADLINE, create_game, moves_of, play

pytestmark = pytest.mark.skipif(
    sys.platform == "win32", reason="a prompt waits on standard input with select (POSIX)"
)

PROMPT = b"Enter a column: "

# The child: argv[2] prompts of connect.py (1 if not given), each with news
# that comes after argv[1] seconds ("never": only when the prompt ends);
# standard input read as a network game reads it. It prints each answer,
# then the signal wake-up file left (-1: none, as before) and how many
# threads are left. SIGUSR1 has a handler of the child's own, which says so.
CHILD = """\
import os, signal, sys, threading
import connect
from connect_four.terminal.news import read_line_by_line
from connect_four.terminal.steps import Ask

class News:
    def __init__(self, after):
        self.after = after
        self.stopped = threading.Event()
    def wait(self):
        if self.after is None:
            self.stopped.wait()
            return False
        return not self.stopped.wait(self.after)
    def stop(self):
        self.stopped.set()

after = None if sys.argv[1] == "never" else float(sys.argv[1])
signal.signal(signal.SIGUSR1, lambda number, frame: os.write(1, b"SIGUSR1 handled\\n"))
read_line_by_line(input)
for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1):
    print(repr(connect._ask_unless_news(Ask("Enter a column: ", News(after)))))
print(signal.set_wakeup_fd(-1), threading.active_count())
"""

# What the child prints last: no wake-up file left, no thread but the main one.
TIDY = b"-1 1\n"


class Child:
    """A program whose standard input is a pipe held open; its output read as it comes."""

    def __init__(self, *command: str) -> None:
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=default_sigint,  # Ctrl-C is meant, whatever started the tests
        )
        self.shown = b""
        # Only a test that failed waits this long: the child is then killed.
        self._watchdog = threading.Timer(DEADLINE, self.process.kill)
        self._watchdog.start()

    def wait_for(self, text: bytes) -> None:
        """Read standard output until it ends with ``text``."""
        assert self.process.stdout is not None
        while not self.shown.endswith(text):
            chunk = os.read(self.process.stdout.fileno(), 4096)
            assert chunk, f"the output ended before {text!r}: {self.shown!r}"
            self.shown += chunk

    def type_line(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line)
        self.process.stdin.flush()

    def end(self) -> tuple[int, bytes, bytes]:
        """Read to the end of the output, the input still open; the status and both outputs."""
        assert self.process.stdout is not None and self.process.stderr is not None
        try:
            self.shown += self.process.stdout.read()
            errors = self.process.stderr.read()
            status = self.process.wait()
        finally:
            self._watchdog.cancel()
            assert self.process.stdin is not None
            self.process.stdin.close()
        return status, self.shown, errors


def prompt_with_news(after: str, prompts: int = 1) -> Child:
    return Child(sys.executable, "-c", CHILD, after, str(prompts))


@pytest.mark.parametrize("after", ["0.2", "0"])
def test_news_ends_a_read_of_a_pipe_nobody_writes_to(after: str) -> None:
    # "0": the news comes at once, maybe before the wait even begins.
    child = prompt_with_news(after)
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # On a pipe the prompt's line is not ended: the transcript is what was printed.
    assert shown == PROMPT + b"None\n" + TIDY


def test_a_line_typed_before_any_news_is_the_answer_and_the_watch_ends() -> None:
    child = prompt_with_news("never")
    child.wait_for(PROMPT)
    child.type_line(b"4\n")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"'4'\n" + TIDY


def test_lines_piped_in_one_write_answer_one_prompt_each() -> None:
    # Both lines reach the pipe at once: the second must wait there, where
    # the second prompt's select sees it, not in a buffer read ahead.
    child = prompt_with_news("never", prompts=2)
    child.type_line(b"4\n5\n")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"'4'\n" + PROMPT + b"'5'\n" + TIDY


def test_a_line_and_news_at_the_same_moment_end_the_prompt_one_way() -> None:
    child = prompt_with_news("0")
    child.type_line(b"4\n")  # there before the wait begins, as the news may be
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # Either may win; the wake-up file is put back and no thread is left either way.
    assert shown in (PROMPT + b"'4'\n" + TIDY, PROMPT + b"None\n" + TIDY)


def test_a_handled_signal_during_the_wait_is_no_news() -> None:
    # The signal's wake-up byte ends the select; the wait must wait again.
    child = prompt_with_news("never")
    child.wait_for(PROMPT)  # the wait is set up before the prompt shows
    child.process.send_signal(signal.SIGUSR1)
    child.wait_for(b"SIGUSR1 handled\n")
    child.type_line(b"4\n")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"SIGUSR1 handled\n'4'\n" + TIDY


# The child: one prompt whose news never comes, and a SIGUSR1 that raises
# as Ctrl-C does; only the watch's thread takes SIGUSR1 from the system.
INTERRUPTED_CHILD = """\
import signal, threading
import connect
from connect_four.terminal.steps import Ask

class Interrupted(Exception):
    pass

def interrupt(number, frame):
    raise Interrupted

class News:
    def __init__(self):
        self.stopped = threading.Event()
    def wait(self):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        self.stopped.wait()
        return False
    def stop(self):
        self.stopped.set()

signal.signal(signal.SIGUSR1, interrupt)
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})  # the main thread never takes it
try:
    connect._ask_unless_news(Ask("Enter a column: ", News()))
except Interrupted:
    print("interrupted")
print(signal.set_wakeup_fd(-1), threading.active_count())
"""


def test_a_signal_the_system_gives_another_thread_still_ends_the_wait() -> None:
    # Python runs the handler in the main thread, once it wakes from select:
    # the signal's byte in the wake-up pipe wakes it.
    child = Child(sys.executable, "-c", INTERRUPTED_CHILD)
    child.wait_for(PROMPT)
    child.process.send_signal(signal.SIGUSR1)
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"interrupted\n" + TIDY


def test_an_ask_with_news_is_another_step_than_one_without() -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    assert Ask("p", news) != Ask("p")
    assert Ask("p", news) == Ask("p", news)
    assert Ask("p", None) == Ask("p")
    assert repr(Ask("p", news)) == f"Ask('p', {news!r})"
    assert repr(Ask("p")) == "Ask('p')"


@pytest.fixture
def stdin_with_a_file(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Standard input a file with a number (pytest's own has none), as a program's is."""
    with open(os.devnull, encoding="utf-8") as empty:
        monkeypatch.setattr(sys, "stdin", empty)
        yield


class _NewsOnlyAtStop:
    """News that never comes: its wait ends when the watch stops it."""

    def __init__(self) -> None:
        self.stopped = threading.Event()

    def wait(self) -> bool:
        self.stopped.wait()
        return False

    def stop(self) -> None:
        self.stopped.set()


def test_from_the_first_key_until_readline_reads_no_key_is_shown_or_edited() -> None:
    """Where readline reads, the terminal stays unechoed and hands keys one by one until the read.

    Found in a loaded run of tests/test_connect_tmux_push.py: the mode was
    put back when the wait ended, so an arrow key typed while the news's
    thread stopped was echoed as ``^[[D`` before readline's prompt.
    """
    import pty
    import termios

    primary, secondary = pty.openpty()
    try:
        before = termios.tcgetattr(secondary)
        watch = PromptWatch(_NewsOnlyAtStop(), secondary, first_key=True)
        with watch.first_key_mode():
            with watch:
                os.write(primary, b"7")
                assert watch.wait()
            # The news's thread has stopped: only now does the terminal's own mode come back.
            modes = termios.tcgetattr(secondary)[3]
            assert not modes & termios.ECHO
            assert not modes & termios.ICANON
        assert termios.tcgetattr(secondary) == before
    finally:
        os.close(primary)
        os.close(secondary)


@pytest.mark.usefixtures("stdin_with_a_file")
def test_only_the_builtin_input_of_the_main_thread_is_watched() -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    assert watch_prompt(news, builtins.input) is not None
    assert watch_prompt(news, lambda prompt: "3") is None  # a harness's input
    found: list[object] = []
    other = threading.Thread(target=lambda: found.append(watch_prompt(news, builtins.input)))
    other.start()
    other.join()
    assert found == [None]


@pytest.mark.usefixtures("stdin_with_a_file")
def test_on_windows_the_prompt_is_not_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    monkeypatch.setattr(sys, "platform", "win32")  # select cannot wait on its consoles
    assert watch_prompt(news, builtins.input) is None


def join_as_bob(base: str, game: str, token: str) -> Child:
    return Child(
        sys.executable, str(CONNECT), "--join", f"{base}/drop_token/{game}/bob", "--token", token
    )


@pytest.mark.slow
def test_ctrl_c_at_a_watched_prompt_still_quits_the_game(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    child = join_as_bob(drop_token_service, game, tokens["bob"])
    # The wait's wake-up file is set before the prompt shows: from then on
    # Ctrl-C ends the wait, whichever thread the system hands it to.
    child.wait_for(b"O's turn\n" + PROMPT)
    child.process.send_signal(signal.SIGINT)
    status, shown, errors = child.end()
    assert (status, errors) == (130, b"\nconnect.py: game interrupted\n")
    assert shown.endswith(PROMPT)
    assert moves_of(drop_token_service, game)[-1] == {"type": "QUIT", "player": "bob"}


ANN_S_PRESENCE = re.compile(rb"ann is (?:away|back)\.\n(?:" + re.escape(PROMPT) + rb")?")
"""ann's presence as bob's game tells it, with the prompt it shows again after the news. ann
plays through the test's own requests, present for the service's grace (a second) after
each: when the machine is slow, bob's game sees her away before her quit, and back with it."""


@pytest.mark.slow
def test_a_friends_quit_ends_the_prompt_of_a_piped_game(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    child = join_as_bob(drop_token_service, game, tokens["bob"])
    child.wait_for(b"O's turn\n" + PROMPT)
    play(drop_token_service, game, "ann", tokens["ann"], "quit")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # The lines of a quit found after a move, nothing typed.
    ending = PROMPT + b"ann (X) quits.\nGame finished.\nbob (O) wins.\n"
    assert ANN_S_PRESENCE.sub(b"", shown).endswith(ending), shown
    assert moves_of(drop_token_service, game) == [
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "QUIT", "player": "ann"},
    ]


@pytest.mark.slow
def test_the_watch_on_the_move_list_sees_the_quit(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    watch = network_game._MoveWatch(DropTokenClient(drop_token_service), game, 0)
    found: list[bool] = []
    waiting = threading.Thread(target=lambda: found.append(watch.wait()))
    waiting.start()
    play(drop_token_service, game, "bob", tokens["bob"], "quit")
    waiting.join(DEADLINE)
    assert found == [True]
    assert repr(watch.entries) == "[RemoteMove('bob', None)]"


def test_stopping_the_watch_ends_its_long_poll_at_once() -> None:
    # A service that takes the request and never answers: only stop() can
    # end the watch's wait (its client would wait minutes for an answer).
    with socket.create_server(("127.0.0.1", 0)) as listener:
        listener.settimeout(DEADLINE)  # a test that failed: no request ever came
        client = DropTokenClient(f"http://127.0.0.1:{listener.getsockname()[1]}")
        watch = network_game._MoveWatch(client, "g", 0)
        found: list[bool] = []
        waiting = threading.Thread(target=lambda: found.append(watch.wait()))
        waiting.start()
        connection, _ = listener.accept()
        with connection:
            request = b""
            while b"\r\n\r\n" not in request:  # the long poll is under way
                chunk = connection.recv(4096)
                assert chunk, request
                request += chunk
            assert b"wait=" in request.split(b"\r\n")[0], request
            watch.stop()
            waiting.join(DEADLINE)
    assert found == [False]


@pytest.mark.slow
def test_stopping_the_watch_leaves_the_games_own_client_working(drop_token_service: str) -> None:
    game, _ = create_game(drop_token_service, ["ann", "bob"])
    client = DropTokenClient(drop_token_service)
    watch = network_game._MoveWatch(client, game, 0)
    watch.stop()
    # Only the watch's own client is cut short.
    assert client.read_moves(game, 0) == []


@pytest.mark.slow
def test_an_aborted_client_refuses_further_requests(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    client.abort()
    with pytest.raises(ServerUnreachable):
        client.read_moves("g", 0)
