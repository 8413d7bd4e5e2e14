"""Push across real service processes: a move posted to one wakes a waiter on another.

Two ``python -m connect_four.service`` processes share one database (an SQLite file,
then a PostgreSQL database): a client waits on process B while a player
moves through process A. On PostgreSQL the wake travels by LISTEN/NOTIFY,
on SQLite by the polled ``move_log``.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from server_support import HTTP, Server, http_client

pytestmark = pytest.mark.slow

StartServer = Callable[..., Server]
NewGame = Callable[..., str]

# How long the waiting request has been out before the move is posted:
# its first read of the database then found nothing, so the answer comes
# by push. (Were it slower, the answer would still be right, only early.)
SETTLE = 0.5


class Waiter(threading.Thread):
    """A waiting GET on a server, in a thread; its response and when it came."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.response: httpx.Response | None = None
        self.answered = 0.0
        self.sent = time.monotonic()

    def run(self) -> None:
        self.response = HTTP.get(self.url, timeout=60)
        self.answered = time.monotonic()

    def settled(self) -> Waiter:
        """Start, and return once the request has been out for SETTLE seconds."""
        return settled(self)[0]

    def result(self) -> httpx.Response:
        self.join(timeout=60)
        assert self.response is not None
        return self.response


def settled(*waiters: Waiter) -> tuple[Waiter, ...]:
    """Start the waiters together; return once their requests have been out for SETTLE seconds."""
    for waiter in waiters:
        waiter.start()
    for waiter in waiters:
        waiter.join(timeout=max(waiter.sent + SETTLE - time.monotonic(), 0))
        assert waiter.is_alive(), f"answered at once: {waiter.response and waiter.response.text}"
    return waiters


def post_move(server: Server, game_id: str, player: str, column: int) -> float:
    """Post the move through ``server``; return when it was acknowledged."""
    response = HTTP.post(
        f"{server.url}/drop_token/{game_id}/{player}", json={"column": column}, timeout=30
    )
    assert response.status_code == 200, response.text
    return time.monotonic()


def test_a_move_posted_to_one_process_wakes_a_waiter_on_another(
    start_server: StartServer, new_game: NewGame
) -> None:
    first, second = start_server(), start_server()
    with http_client(base_url=first.url) as client:
        game_id = new_game(client)
    for number, (player, column) in enumerate([("p1", 0), ("p2", 1), ("p1", 0)]):
        waiters = settled(
            *(
                Waiter(f"{server.url}/drop_token/{game_id}/moves?start={number}&wait=30")
                for server in (second, first)
            )
        )
        posted = post_move(first, game_id, player, column)
        for waiter in waiters:
            response = waiter.result()
            assert response.status_code == 200, response.text
            assert response.json() == {
                "moves": [{"type": "MOVE", "player": player, "column": column}]
            }
            assert waiter.answered - posted < 5  # pushed: the wait was 30 s


def test_a_quit_on_one_process_ends_the_wait_on_the_other_with_the_winner_known(
    start_server: StartServer, new_game: NewGame
) -> None:
    first, second = start_server(), start_server()
    with http_client(base_url=second.url) as client:
        game_id = new_game(client)
    waiter = Waiter(f"{second.url}/drop_token/{game_id}/moves?start=0&wait=30").settled()
    assert HTTP.delete(f"{first.url}/drop_token/{game_id}/p1").status_code == 202
    assert waiter.result().json() == {"moves": [{"type": "QUIT", "player": "p1"}]}
    state: dict[str, Any] = HTTP.get(f"{second.url}/drop_token/{game_id}").json()
    assert (state["state"], state["winner"]) == ("DONE", "p2")


def test_stopping_the_server_answers_its_waiting_requests_at_once(
    start_server: StartServer, new_game: NewGame
) -> None:
    server = start_server()
    with http_client(base_url=server.url) as client:
        game_id = new_game(client)
    waiter = Waiter(f"{server.url}/drop_token/{game_id}/moves?start=0&wait=60").settled()
    assert server.process is not None
    stopped = time.monotonic()
    server.process.send_signal(signal.SIGTERM)
    response = waiter.result()
    # uvicorn ends by raising the signal it caught again, once it has shut down.
    assert server.process.wait(timeout=30) in (0, -signal.SIGTERM)
    # The seed's answer at that moment, well before the 60 s were up.
    assert response.status_code == 404
    assert response.json()["error"] == "move_not_found"
    assert waiter.answered - stopped < 10
