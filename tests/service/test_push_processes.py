"""Push across real service processes: a move posted to one wakes a waiter on another.

Two ``python -m connect_four.service`` processes share one database (an SQLite file,
then a PostgreSQL database): a client waits on process B while a player
moves through process A. On PostgreSQL the wake travels by LISTEN/NOTIFY,
on SQLite by the polled ``move_log``. Each server tells the test when a
waiting request's first read found nothing (``FirstReads``): a move posted
after that reaches it only by a wake.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from server_support import HTTP, FirstReads, Server, http_client

pytestmark = pytest.mark.slow

StartServer = Callable[..., Server]
NewGame = Callable[..., str]


class Waiter(threading.Thread):
    """A waiting GET on a server, in a thread, and its response."""

    def __init__(self, server: Server, path: str) -> None:
        super().__init__()
        self.url = server.url + path
        self.response: httpx.Response | None = None
        self.start()

    def run(self) -> None:
        self.response = HTTP.get(self.url, timeout=60)

    def result(self) -> httpx.Response:
        self.join(timeout=60)
        assert self.response is not None, "the waiting request never answered"
        return self.response


def post_move(server: Server, game_id: str, player: str, column: int) -> None:
    """Post the move through ``server``."""
    response = HTTP.post(
        f"{server.url}/drop_token/{game_id}/{player}", json={"column": column}, timeout=30
    )
    assert response.status_code == 200, response.text


def test_a_move_posted_to_one_process_wakes_a_waiter_on_another(
    start_server: StartServer, new_game: NewGame, first_reads: FirstReads
) -> None:
    first, second = start_server(), start_server()
    with http_client(base_url=first.url) as client:
        game_id = new_game(client)
    for number, (player, column) in enumerate([("p1", 0), ("p2", 1), ("p1", 0)]):
        waiters = []
        for server in (second, first):
            waiters.append(Waiter(server, f"/drop_token/{game_id}/moves?start={number}&wait=30"))
        for server in (second, first):
            first_reads.wait_for(server, game_id, number)
        post_move(first, game_id, player, column)
        for waiter in waiters:
            response = waiter.result()
            # Had no wake come, the 30 s would have run out with the seed's 404.
            assert response.status_code == 200, response.text
            assert response.json() == {
                "moves": [{"type": "MOVE", "player": player, "column": column}]
            }


def test_a_quit_on_one_process_ends_the_wait_on_the_other_with_the_winner_known(
    start_server: StartServer, new_game: NewGame, first_reads: FirstReads
) -> None:
    first, second = start_server(), start_server()
    with http_client(base_url=second.url) as client:
        game_id = new_game(client)
    waiter = Waiter(second, f"/drop_token/{game_id}/moves?start=0&wait=30")
    first_reads.wait_for(second, game_id, 0)
    assert HTTP.delete(f"{first.url}/drop_token/{game_id}/p1").status_code == 202
    assert waiter.result().json() == {"moves": [{"type": "QUIT", "player": "p1"}]}
    state: dict[str, Any] = HTTP.get(f"{second.url}/drop_token/{game_id}").json()
    assert (state["state"], state["winner"]) == ("DONE", "p2")


def test_stopping_the_server_answers_its_waiting_requests_at_once(
    start_server: StartServer, new_game: NewGame, first_reads: FirstReads
) -> None:
    server = start_server()
    with http_client(base_url=server.url) as client:
        game_id = new_game(client)
    # Held for its whole wait, the request would outlast the test's patience (60 s).
    waiter = Waiter(server, f"/drop_token/{game_id}/moves?start=0&wait=300")
    first_reads.wait_for(server, game_id, 0)
    assert server.process is not None
    server.process.send_signal(signal.SIGTERM)
    response = waiter.result()
    # uvicorn ends by raising the signal it caught again, once it has shut down.
    assert server.process.wait(timeout=30) in (0, -signal.SIGTERM)
    # The seed's answer at that moment, long before the 300 s were up.
    assert response.status_code == 404
    assert response.json()["error"] == "move_not_found"
