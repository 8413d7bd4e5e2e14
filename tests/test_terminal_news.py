"""A prompt cut short by news: connect.py's input() ends when the watched news comes first.

The mechanism (connect_four.terminal.news, driven by connect.py) runs in a
child whose standard input is a pipe the test holds open and never writes
to, unless it answers for the player: only the news can end that read.
Then the network game's own news, the friend's quit on a real service.
"""

from __future__ import annotations

import builtins
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from connect_four.terminal import network_game
from connect_four.terminal.errors import ServerUnreachable
from connect_four.terminal.network import DropTokenClient
from connect_four.terminal.news import watch_prompt
from connect_four.terminal.steps import Ask
from connect_support import CONNECT, ROOT, default_sigint
from network_support import DEADLINE, create_game, moves_of, play

pytestmark = pytest.mark.skipif(
    not hasattr(signal, "pthread_kill"), reason="a prompt is cut short by a signal (POSIX)"
)

PROMPT = b"Enter a column: "

# The child: one prompt of connect.py, with news that comes after argv[1]
# seconds ("never": only when the prompt ends); then the answer, whether
# SIGUSR1 has its default handler back, and how many threads are left.
CHILD = """\
import signal, sys, threading
import connect
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
answer = connect._ask_unless_news(Ask("Enter a column: ", News(after)))
print(repr(answer))
print(signal.getsignal(signal.SIGUSR1) == signal.SIG_DFL, threading.active_count())
"""


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


def prompt_with_news(after: str) -> Child:
    return Child(sys.executable, "-c", CHILD, after)


@pytest.mark.parametrize("after", ["0.2", "0"])
def test_news_ends_a_read_of_a_pipe_nobody_writes_to(after: str) -> None:
    # "0": the news comes at once, maybe before input() even reads.
    child = prompt_with_news(after)
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # On a pipe the prompt's line is not ended: the transcript is what was printed.
    assert shown == PROMPT + b"None\nTrue 1\n"


def test_a_line_typed_before_any_news_is_the_answer_and_the_watch_ends() -> None:
    child = prompt_with_news("never")
    child.wait_for(PROMPT)
    child.type_line(b"4\n")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"'4'\nTrue 1\n"


def test_a_line_and_news_at_the_same_moment_end_the_prompt_one_way() -> None:
    child = prompt_with_news("0")
    child.type_line(b"4\n")  # there before input() reads, as the news is
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # Either may win; the handler is back and no thread is left either way.
    assert shown in (PROMPT + b"'4'\nTrue 1\n", PROMPT + b"None\nTrue 1\n")


def test_a_sigusr1_the_watch_did_not_send_leaves_the_prompt_alone() -> None:
    child = prompt_with_news("never")
    child.wait_for(PROMPT)  # input() is called: the handler is in place
    child.process.send_signal(signal.SIGUSR1)
    child.type_line(b"4\n")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    assert shown == PROMPT + b"'4'\nTrue 1\n"


def test_an_ask_with_news_is_another_step_than_one_without() -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    assert Ask("p", news) != Ask("p")
    assert Ask("p", news) == Ask("p", news)
    assert Ask("p", None) == Ask("p")
    assert repr(Ask("p", news)) == f"Ask('p', {news!r})"
    assert repr(Ask("p")) == "Ask('p')"


def test_only_the_builtin_input_of_the_main_thread_is_watched() -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    assert watch_prompt(news, builtins.input) is not None
    assert watch_prompt(news, lambda prompt: "3") is None  # a harness's input
    found: list[object] = []
    other = threading.Thread(target=lambda: found.append(watch_prompt(news, builtins.input)))
    other.start()
    other.join()
    assert found == [None]


def test_without_signals_to_threads_the_prompt_is_not_watched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    news = network_game._MoveWatch(DropTokenClient("http://127.0.0.1:9"), "g", 0)
    monkeypatch.delattr(signal, "pthread_kill")  # as on Windows
    assert watch_prompt(news, builtins.input) is None


def join_as_bob(base: str, game: str, token: str) -> Child:
    return Child(
        sys.executable, str(CONNECT), "--join", f"{base}/drop_token/{game}/bob", "--token", token
    )


def wait_until_reading_stdin(pid: int) -> None:
    """Wait until the main thread of ``pid`` is in a system call on file 0: its read of the prompt.

    A Ctrl-C that comes between the prompt's write and that read is seen
    only once the read returns (CPython's own race, with or without a
    watch): the test sends it only then. Linux's /proc tells the call.
    """
    calls = Path(f"/proc/{pid}/task/{pid}/syscall")
    deadline = time.monotonic() + DEADLINE
    while True:
        try:
            fields = calls.read_text().split()
        except OSError:
            pytest.skip("this system does not tell a thread's system call")
        if fields[1:2] == ["0x0"]:  # the call's first argument: the file, standard input
            return
        assert time.monotonic() < deadline, f"the read never started: {fields}"
        time.sleep(0.001)


def test_ctrl_c_at_a_watched_prompt_still_quits_the_game(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    child = join_as_bob(drop_token_service, game, tokens["bob"])
    child.wait_for(b"O's turn\n" + PROMPT)
    wait_until_reading_stdin(child.process.pid)
    child.process.send_signal(signal.SIGINT)
    status, shown, errors = child.end()
    assert (status, errors) == (130, b"\nconnect.py: game interrupted\n")
    assert shown.endswith(PROMPT)
    assert moves_of(drop_token_service, game)[-1] == {"type": "QUIT", "player": "bob"}


def test_a_friends_quit_ends_the_prompt_of_a_piped_game(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    child = join_as_bob(drop_token_service, game, tokens["bob"])
    child.wait_for(b"O's turn\n" + PROMPT)
    play(drop_token_service, game, "ann", tokens["ann"], "quit")
    status, shown, errors = child.end()
    assert (status, errors) == (0, b"")
    # The lines of a quit found after a move, nothing typed.
    assert shown.endswith(PROMPT + b"ann (X) quits.\nGame finished.\nbob (O) wins.\n")
    assert moves_of(drop_token_service, game) == [
        {"type": "MOVE", "player": "ann", "column": 3},
        {"type": "QUIT", "player": "ann"},
    ]


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


def test_stopping_the_watch_ends_its_long_poll_at_once(drop_token_service: str) -> None:
    game, _ = create_game(drop_token_service, ["ann", "bob"])
    client = DropTokenClient(drop_token_service)
    watch = network_game._MoveWatch(client, game, 0)
    found: list[bool] = []
    waiting = threading.Thread(target=lambda: found.append(watch.wait()))
    waiting.start()
    waiting.join(0.3)
    assert waiting.is_alive()  # the long poll waits for news
    stopped = time.monotonic()
    watch.stop()
    waiting.join(DEADLINE)
    assert found == [False]
    assert time.monotonic() - stopped < network_game.PUSH_WAIT / 2
    # Only the watch's own client is cut short.
    assert client.read_moves(game, 0) == []


def test_an_aborted_client_refuses_further_requests(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    client.abort()
    with pytest.raises(ServerUnreachable):
        client.read_moves("g", 0)
