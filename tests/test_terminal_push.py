"""The network game waits for the friend's move by push (a long poll), and slowly without it.

Against the real service a read asking to wait returns the moment the
friend's move is stored; against older services (one refusing ``wait``,
one ignoring it) the game falls back to reading at a slow pace, in pauses
it asks connect.py for.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import threading
import time
from collections.abc import Iterator

import pytest

from connect_four.terminal import network_game
from connect_four.terminal.network import OLD_MAX_WAIT, DropTokenClient, RemoteMove
from connect_four.terminal.options import parse_options
from connect_four.terminal.session import converse
from connect_four.terminal.steps import Ask, Show, Wait
from network_support import create_game, play, serving

pytestmark = pytest.mark.slow

TYPE_CHECKING = False
if TYPE_CHECKING:
    from connect_four.terminal.steps import Conversation, Step

# How long a waiting read has been out before the friend moves: its first
# look found nothing, so only a push can bring the move.
SETTLE = 0.5


class _Read(threading.Thread):
    def __init__(self, client: DropTokenClient, game: str, start: int) -> None:
        super().__init__(daemon=True)
        self.client, self.game, self.start_number = client, game, start
        self.moves: list[RemoteMove] | None = None
        self.answered = 0.0

    def run(self) -> None:
        self.moves = self.client.read_moves(self.game, self.start_number, 30)
        self.answered = time.monotonic()


def test_a_waiting_read_returns_the_friends_move_as_it_is_stored(drop_token_service: str) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    play(drop_token_service, game, "ann", tokens["ann"], "3")
    read = _Read(DropTokenClient(drop_token_service), game, 1)
    read.start()
    read.join(SETTLE)
    assert read.is_alive(), f"the read did not wait: {read.moves}"
    play(drop_token_service, game, "bob", tokens["bob"], "4")
    posted = time.monotonic()
    read.join(60)
    assert repr(read.moves) == "[RemoteMove('bob', 4)]"
    assert read.answered - posted < 5  # pushed, long before the 30 s wait


class _OldService:
    """A service on 127.0.0.1 of one game where ann played 3 and bob 4, answering reads as told.

    ``board``: extra keys of the game's state (``rows``, ``columns``), as
    newer services tell them. ``max_wait``: a longer ``wait`` is a 400, as
    services of before 300 s waits answer one over 60 s. ``refuses_wait``: a ``wait`` in the query is a 400, as a service that
    checks its parameters strictly might answer. Otherwise ``wait`` is
    ignored, as the seed's service does: the first ``empty_reads`` reads
    of move 2 answer 404 at once, the next ones ann's move 5.
    """

    def __init__(
        self,
        *,
        refuses_wait: bool,
        empty_reads: int,
        board: dict[str, int] | None = None,
        max_wait: float | None = None,
    ) -> None:
        self.paths: list[str] = []
        answered = [0]
        service = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                service.paths.append(self.path)
                if "/moves" not in self.path:
                    state = {"players": ["ann", "bob"], "state": "IN_PROGRESS"}
                    self._send(200, {**state, **(board or {})})
                elif "start=0" in self.path:
                    self._send(
                        200,
                        {
                            "moves": [
                                {"type": "MOVE", "player": "ann", "column": 3},
                                {"type": "MOVE", "player": "bob", "column": 4},
                            ]
                        },
                    )
                elif refuses_wait and "wait=" in self.path:
                    self._send(400, {"error": "malformed_request", "detail": "query.wait: no"})
                elif (
                    max_wait is not None
                    and float(self.path.partition("wait=")[2].partition("&")[0] or 0) > max_wait
                ):
                    self._send(400, {"error": "malformed_request", "detail": "query.wait: max"})
                elif "start=2&" not in self.path:  # past ann's move 5: nothing more
                    self._send(404, {"error": "move_not_found", "detail": "no such move"})
                else:
                    answered[0] += 1
                    if answered[0] <= empty_reads:
                        self._send(404, {"error": "move_not_found", "detail": "no move 2"})
                    else:
                        self._send(200, {"moves": [{"type": "MOVE", "player": "ann", "column": 5}]})

            def do_DELETE(self) -> None:
                self._send(202, None)

            def _send(self, status: int, body: object) -> None:
                raw = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args: object) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._serving = contextlib.ExitStack()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> _OldService:
        self._serving.enter_context(serving(self.server))
        return self

    def __exit__(self, *exc: object) -> None:
        self._serving.close()


def test_a_service_refusing_wait_is_asked_without_it_from_then_on() -> None:
    with _OldService(refuses_wait=True, empty_reads=1) as service:
        client = DropTokenClient(service.url)
        assert client.read_moves("g", 2, 30) == []
        assert repr(client.read_moves("g", 2, 30)) == "[RemoteMove('ann', 5)]"
    reads = [path for path in service.paths if "start=2" in path]
    assert "wait=30" in reads[0]
    assert all("wait" not in path for path in reads[1:]) and len(reads) == 3
    assert client.waits is False


def test_a_service_of_one_minute_waits_is_asked_one_minute_from_then_on() -> None:
    with _OldService(refuses_wait=False, empty_reads=1, max_wait=60) as service:
        client = DropTokenClient(service.url)
        assert client.read_moves("g", 2, network_game.PUSH_WAIT) == []
        assert repr(client.read_moves("g", 2, network_game.PUSH_WAIT)) == "[RemoteMove('ann', 5)]"
    reads = [path for path in service.paths if "start=2" in path]
    assert [path.partition("wait=")[2] for path in reads] == ["300", "60", "60"]
    assert (client.waits, client.max_wait) == (True, OLD_MAX_WAIT)


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The network game's clock stands still unless a test moves it; it never sleeps."""
    now = [100.0]

    def no_sleep(seconds: float) -> None:
        raise AssertionError("the network game slept itself")

    monkeypatch.setattr(network_game.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(network_game.time, "sleep", no_sleep)
    yield now


def _join_until_asked(url: str) -> tuple[Conversation[None], list[Step]]:
    """Bob's joining game, run until it first asks for a column, and what it said before."""
    steps = converse(parse_options(["--join", f"{url}/drop_token/g/bob", "--token", "t"]))
    shown = []
    step = next(steps)
    while not isinstance(step, Ask):
        shown.append(step)
        step = steps.send(None)
    return steps, shown


@pytest.mark.parametrize("refuses_wait", [False, True], ids=["ignores-wait", "refuses-wait"])
def test_with_an_older_service_the_friends_move_is_read_at_a_slow_pace(
    fake_clock: list[float], refuses_wait: bool
) -> None:
    # The first empty read is the joining game's catching up; two more come while waiting.
    with _OldService(refuses_wait=refuses_wait, empty_reads=3) as service:
        steps, shown = _join_until_asked(service.url)
        steps.close()
    # Two empty answers at once, each followed by the slow pause, then the move.
    # (A pause of 0 only shows the lines so far before the first read.)
    waits = [step for step in shown if isinstance(step, Wait) and step.seconds]
    assert waits == [Wait(network_game.POLL_SECONDS)] * 2
    assert network_game.POLL_SECONDS >= 1.0
    assert shown.index(waits[0]) > shown.index(Show("X's turn"))
    # Then ann's move is told, the grid shown with it, and it is bob's turn.
    assert shown[-3] == Show("ann plays 5.")
    assert shown[-1] == Show("O's turn")


def test_a_read_answered_after_its_wait_asks_again_without_a_pause(
    fake_clock: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wait that ran out (the friend thinks long) is followed by the next one at once."""
    answers = [[], [], [RemoteMove("ann", 2)]]

    def read_moves(self: DropTokenClient, game: str, start: int, wait: float | None = None):
        assert wait == network_game.PUSH_WAIT
        fake_clock[0] += wait  # the service held the request for the whole wait
        return answers.pop(0)

    monkeypatch.setattr(DropTokenClient, "read_moves", read_moves)
    from connect_four.engine import Game

    steps = network_game._wait_for_news(
        Game(), DropTokenClient("http://127.0.0.1:9"), network_game._Patience("u"), "g"
    )
    assert next(steps) == Wait(0.0)  # the lines so far shown before the read holds
    with pytest.raises(StopIteration) as finished:
        next(steps)
    assert repr(finished.value.value) == "[RemoteMove('ann', 2)]"
    assert answers == []


def test_a_joining_player_gets_the_board_the_service_tells(fake_clock: list[float]) -> None:
    board = {"rows": 6, "columns": 7, "connect": 4}
    with _OldService(refuses_wait=False, empty_reads=0, board=board) as service:
        steps, shown = _join_until_asked(service.url)
        grids = [step.text for step in shown if isinstance(step, Show) and "0123456" in step.text]
        # 6 rows of 7 (not the default 5 x 8): column 7 is off this board.
        assert grids and all(grid.strip().splitlines()[-1] == "0123456" for grid in grids)
        assert len(grids[-1].strip().splitlines()) == 1 + 6 + 1  # header, 6 rows, footer
        assert steps.send("7") == Show("Invalid move. Enter a column number (0-6).")
        steps.close()
