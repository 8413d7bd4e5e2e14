"""A real ``python -m connect_four.service`` against hostile clients: slow or short requests,
oversized bodies, and a flood of the costliest winner checks while moves go on.

The server runs with one-second body and header timeouts so that the tests
wait for its answers (each wait bounded by a socket timeout), never on a
guess of how long something takes.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from raw_http import connect, read_all, read_response

from connect_four.engine import Game, Rules
from server_support import http_client

pytestmark = pytest.mark.slow

StartServer = Callable[..., Any]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """SQLite only: these guards act before any storage, so one database shows them."""
    return tmp_path / "games.db"


FAST_TIMEOUTS = ("--body-timeout", "1", "--header-timeout", "1")

# Within the limits (6 x 7), and among the costliest: every rule holds but
# no order of turns builds it, which the search cannot settle in its budget.
COSTLY_BOARD = "BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB"


def test_a_body_shorter_than_declared_is_answered_408(start_server: StartServer) -> None:
    server = start_server(None, *FAST_TIMEOUTS)
    with connect(server.url) as sock:
        sock.sendall(
            b"POST /drop_token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"players": '
        )
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert b'"error":"request_timeout"' in answer
    with http_client(base_url=server.url) as client:
        assert client.get("/drop_token").json() == {"games": []}


def test_headers_never_finished_get_the_connection_closed(start_server: StartServer) -> None:
    server = start_server(None, *FAST_TIMEOUTS)
    sockets = [connect(server.url) for _ in range(50)]
    try:
        for sock in sockets:
            sock.sendall(b"GET /drop_token HTTP/1.1\r\nHost: x\r\n")  # No blank line.
        for sock in sockets:
            assert read_all(sock) == b""  # Closed by the server, nothing answered.
    finally:
        for sock in sockets:
            sock.close()
    with http_client(base_url=server.url) as client:
        assert client.get("/drop_token").status_code == 200


def test_a_declared_huge_body_is_413_before_it_is_sent(start_server: StartServer) -> None:
    server = start_server(None)
    with connect(server.url) as sock:
        sock.sendall(
            b"POST /winner HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 200000000\r\n\r\n"
        )
        answer = read_response(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer
    assert b'"error":"request_too_large"' in answer


def test_headers_over_their_limit_are_refused_in_the_json_shape(
    start_server: StartServer,
) -> None:
    server = start_server(None, *FAST_TIMEOUTS)
    big = b"GET /drop_token HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 20_000 + b"\r\n\r\n"
    with connect(server.url) as sock:  # All at once: the app counts them (431).
        sock.sendall(big)
        answer = read_response(sock)
    assert answer.startswith(b"HTTP/1.1 431 "), answer
    assert b'"error":"headers_too_large"' in answer
    with connect(server.url) as sock:  # Trickled: uvicorn's buffer limit (400).
        sock.sendall(big[:10_000])
        sock.sendall(big[10_000:])
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 4"), answer
    assert b'"error":' in answer


def test_a_head_growing_past_its_limit_unfinished_is_refused_in_the_json_shape(
    start_server: StartServer,
) -> None:
    server = start_server(None, *FAST_TIMEOUTS)
    with connect(server.url) as sock:  # Never finished: the parser must not buffer it all.
        sock.sendall(b"GET /drop_token HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 10_000)
        sock.sendall(b"a" * 10_000)
        answer = read_all(sock)
    body = b'{"error":"malformed_request","detail":"Invalid HTTP request received."}'
    assert answer == (
        b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
    )


def test_a_flood_of_costly_winner_checks_never_refuses_or_fails_a_move(
    start_server: StartServer,
) -> None:
    """Structural, not timed: winner checks run in a bounded worker pool.

    The server's winner queue is cut to 2 so that eight clients looping
    on the costliest check surely overflow it, while one client plays 40
    moves. Every move is accepted (200); every check is answered 200 or 503
    winner_check_busy, and some are refused, which shows the pool was
    saturated. That moves keep at least half their rate under this flood is
    measured by bench/service_load.py --flood, as a ratio in one run.
    """
    server = start_server(None, "--winner-queue", "2")
    done = threading.Event()
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def flood() -> None:
        with http_client(base_url=server.url, timeout=60) as client:
            for _ in range(5000):  # Bounded; the moves end it long before.
                if done.is_set():
                    return
                response = client.get(f"/winner/{COSTLY_BOARD}")
                code = response.text if response.status_code == 200 else response.json()["error"]
                with lock:
                    answers.append((response.status_code, code))

    flooders = [threading.Thread(target=flood) for _ in range(8)]
    for thread in flooders:
        thread.start()
    move_statuses: list[int] = []
    try:
        chooser = random.Random(9)
        with http_client(base_url=server.url, timeout=60) as client:
            while len(move_statuses) < 40:
                game_id = client.post(
                    "/drop_token", json={"players": ["p1", "p2"], "rows": 6, "columns": 7}
                ).json()["gameId"]
                game = Game(Rules(6, 7, 4))
                while not game.is_over() and len(move_statuses) < 40:
                    column = chooser.choice(game.legal_moves())
                    player = f"p{(game.to_move or 0) + 1}"
                    response = client.post(
                        f"/drop_token/{game_id}/{player}", json={"column": column}
                    )
                    move_statuses.append(response.status_code)
                    game.play(column)
            # Wait (bounded) until the pool has been seen saturated at least once.
            for _ in range(1000):
                with lock:
                    if any(status == 503 for status, _ in answers):
                        break
                client.get("/drop_token")
    finally:
        done.set()
        for thread in flooders:
            thread.join()
    assert move_statuses == [200] * 40
    assert set(answers) <= {(200, "B"), (503, "winner_check_busy")}
    assert (200, "B") in answers and (503, "winner_check_busy") in answers
