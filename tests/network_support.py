"""Helpers of the network game's tests: a friend who plays the other side over HTTP.

The friend speaks to the service with httpx, not with the game's own
client, so that the client is checked against an independent speaker of
the API. Every wait is on a condition, bounded by a generous deadline that
only ever fails a test.
"""

from __future__ import annotations

import contextlib
import re
import socketserver
import threading
import time
from collections.abc import Iterator

from server_support import HTTP

DEADLINE = 120.0
"""Seconds any one wait of a test may last before the test fails."""

SHUTDOWN_POLL = 0.005
"""Seconds between a threaded test server's looks for its shutdown request.

socketserver's default, half a second, was what ``shutdown()`` waited for
the serving loop to notice: half a second a test of a hand-made server,
13 s of test_terminal_network.py's 14 s. The loop still stops only once
it has seen the request; it just sees it sooner.
"""


@contextlib.contextmanager
def serving(server: socketserver.BaseServer) -> Iterator[None]:
    """Serve ``server`` in a thread of its own; on leaving, stop the loop and close the server."""
    thread = threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        server.shutdown()  # returns once the serving loop has stopped
        server.server_close()
        thread.join()


JOIN_LINE = re.compile(
    r"^  CONNECT_FOUR_TOKEN=(?P<token>\S+) python3 connect\.py --join "
    r"(?P<base>\S+)/drop_token/(?P<game>[0-9a-f]+)/(?P<player>\S+)"
)
"""A join command as --server prints it, two spaces in: the token and the game's URL. The
friend's comes first, then the creator's own, to rejoin after a closed terminal."""


def join_lines(screen: str) -> list[str]:
    """The join commands in what --server printed: the friend's, then the creator's."""
    return [line for line in screen.splitlines() if JOIN_LINE.match(line)]


def create_game(
    base: str, players: list[str], rows: int = 5, columns: int = 8
) -> tuple[str, dict[str, str]]:
    """Create a game with tokens; return its id and the players' tokens."""
    answer = HTTP.post(
        f"{base}/drop_token",
        timeout=30,
        json={"players": players, "rows": rows, "columns": columns, "tokens": True},
    )
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return body["gameId"], body["tokens"]


def moves_of(base: str, game: str) -> list[dict[str, object]]:
    """The game's whole move list, as the service answers it."""
    answer = HTTP.get(f"{base}/drop_token/{game}/moves", timeout=30)
    assert answer.status_code == 200, answer.text
    moves: list[dict[str, object]] = answer.json()["moves"]
    return moves


def play(base: str, game: str, player: str, token: str, action: str) -> None:
    """Play one action for ``player``: a column number, or ``quit``."""
    headers = {"Authorization": f"Bearer {token}"}
    url = f"{base}/drop_token/{game}/{player}"
    if action == "quit":
        answer = HTTP.delete(url, headers=headers, timeout=30)
        assert answer.status_code == 202, answer.text
    else:
        answer = HTTP.post(url, headers=headers, json={"column": int(action)}, timeout=30)
        assert answer.status_code == 200, answer.text


class Friend(threading.Thread):
    """Plays ``actions`` for one player, each as soon as it is that player's turn.

    The game, player and token come from :meth:`found` (the test passes
    them, or the line --server printed). ``error`` holds what went wrong,
    for the test to raise; the thread never hangs past :data:`DEADLINE`.
    """

    def __init__(self, base: str, side: int, actions: list[str]) -> None:
        super().__init__(daemon=True)
        self.base = base
        self.side = side
        self.actions = actions
        self.error: BaseException | None = None
        self._found = threading.Event()
        self.game = self.player = self.token = ""
        self.creator_token = ""
        """The other side's token, when --server printed it for rejoining."""

    def found(self, game: str, player: str, token: str) -> None:
        self.game, self.player, self.token = game, player, token
        self._found.set()

    def read_join_line(self, line: str) -> None:
        """Take the game, player and token from the lines --server printed, if it is one.

        The first join command is the friend's; the second, the creator's own.
        """
        match = JOIN_LINE.match(line)
        if match and self._found.is_set():
            self.creator_token = match["token"]
        elif match:
            self.found(match["game"], match["player"], match["token"])

    def run(self) -> None:
        try:
            if not self._found.wait(DEADLINE):
                raise AssertionError("the friend never learnt which game to play")
            played = len(moves_of(self.base, self.game))
            for action in self.actions:
                # Two players, no quit before the last action: the friend's
                # turns are the move numbers of its side's parity.
                turn = played + (self.side - played) % 2
                self._wait_for_moves(turn)
                play(self.base, self.game, self.player, self.token, action)
                played = turn + 1
        except BaseException as error:
            self.error = error

    def check(self) -> None:
        """Wait for the friend to finish; raise what went wrong in its thread."""
        self.join(DEADLINE)
        assert not self.is_alive(), "the friend is still waiting for its turn"
        if self.error is not None:
            raise self.error

    def _wait_for_moves(self, count: int) -> None:
        deadline = time.monotonic() + DEADLINE
        while len(moves_of(self.base, self.game)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"move {count} never came")
            time.sleep(0.05)
