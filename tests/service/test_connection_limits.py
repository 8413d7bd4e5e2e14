"""A real ``python -m connect_four.service`` against one client taking the room of all:
waits dropped by their client, connections held from one address, a full server.

The server runs with a few places only, so that a handful of sockets fill
them; a second client is played by connecting from 127.0.0.2.
"""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from raw_http import connect, get, headers_of, json_of, read_all, read_response, status_of

from server_support import HTTP

pytestmark = pytest.mark.slow  # real servers (forked), raw sockets

StartServer = Callable[..., Any]

OTHER_CLIENT = "127.0.0.2"
"""The address a second client connects from (the server listens on 127.0.0.1)."""

TRIES = 200
"""Requests a test may send while the server settles what it just saw; only ever fails a test."""


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """SQLite only: these limits act before any storage, so one database shows them."""
    return tmp_path / "games.db"


@contextlib.contextmanager
def held_connections(
    url: str, count: int, source: str | None = None
) -> Iterator[list[socket.socket]]:
    """``count`` keep-alive connections, each served one request (so surely admitted), held open."""
    sockets: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = connect(url, source)
            sockets.append(sock)
            answer = get(sock, "/drop_token")
            assert status_of(answer) == 200, answer
        yield sockets
    finally:
        for sock in sockets:
            sock.close()


def new_game(url: str) -> str:
    answer = HTTP.post(
        f"{url}/drop_token", json={"players": ["ann", "bob"], "rows": 4, "columns": 4}
    )
    assert answer.status_code == 200, answer.text
    game_id: str = answer.json()["gameId"]
    return game_id


def assert_refusal(answer: bytes, status: int, code: str, closes: bool = True) -> None:
    """The one error shape, with Retry-After, and the connection closed if ``closes``."""
    assert status_of(answer) == status, answer
    headers = headers_of(answer)
    assert headers["content-type"] == "application/json", answer
    assert int(headers["retry-after"]) >= 1, answer
    assert (headers.get("connection") == "close") is closes, answer
    body = json_of(answer)
    assert set(body) == {"error", "detail"} and body["error"] == code, body


def test_a_wait_whose_client_has_gone_frees_its_place_at_once(start_server: StartServer) -> None:
    server = start_server(None, "--max-connections", "4")
    game_id = new_game(server.url)
    for _ in range(4):
        with connect(server.url) as sock:
            sock.sendall(
                f"GET /drop_token/{game_id}/moves?start=0&wait=300 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            )
            sock.shutdown(socket.SHUT_WR)  # Gone: nobody will read the answer.
            assert read_all(sock) == b""  # The server has seen it, and closed its end.
    # Every place was a waiting request's: each is free again as soon as the
    # server has ended its wait, not in 300 s.
    statuses = []
    for _ in range(TRIES):
        with connect(server.url) as sock:
            statuses.append(status_of(get(sock, "/drop_token")))
        if statuses[-1] == 200:
            break
    assert statuses[-1] == 200, statuses


def test_one_address_holding_its_share_is_refused_while_another_is_served(
    start_server: StartServer,
) -> None:
    server = start_server(None, "--max-client-connections", "3")
    with held_connections(server.url, 3, OTHER_CLIENT):
        with connect(server.url, OTHER_CLIENT) as sock:
            assert_refusal(get(sock, "/drop_token"), 429, "too_many_connections")
            assert read_all(sock) == b""
        with held_connections(server.url, 3) as mine:  # 127.0.0.1 has its own share.
            assert status_of(get(mine[0], "/")) == 200
    with held_connections(server.url, 3, OTHER_CLIENT):  # Closed connections give theirs back.
        pass


def test_a_full_server_answers_503_in_the_json_shape(start_server: StartServer) -> None:
    server = start_server(None, "--max-connections", "2")
    with held_connections(server.url, 2, OTHER_CLIENT), connect(server.url) as sock:
        assert_refusal(get(sock, "/drop_token"), 503, "server_busy")


@pytest.mark.parametrize("named_by", ["option", "environment"])
def test_a_clients_waits_beyond_its_share_are_429_counted_by_the_trusted_proxys_word(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch, named_by: str
) -> None:
    if named_by == "option":
        server = start_server(None, "--max-client-waits", "2", "--trusted-proxy", OTHER_CLIENT)
    else:
        monkeypatch.setenv("CONNECT_FOUR_TRUSTED_PROXIES", f"{OTHER_CLIENT}/32")
        server = start_server(None, "--max-client-waits", "2")
    game_id, played = new_game(server.url), new_game(server.url)
    HTTP.post(f"{server.url}/drop_token/{played}/ann", json={"column": 0}).raise_for_status()
    wait = f"/drop_token/{game_id}/moves?start=0&wait=300 HTTP/1.1\r\nHost: x\r\n"
    client = "X-Forwarded-For: 203.0.113.7\r\n"
    with contextlib.ExitStack() as stack:
        for _ in range(2):  # Two waits of one client, through the proxy.
            sock = stack.enter_context(connect(server.url, OTHER_CLIENT))
            sock.sendall(f"GET {wait}{client}\r\n".encode())
        # Until the server has both waiting, this is answered at once (the
        # game has a move); then it is one wait too many.
        for _ in range(TRIES):
            with connect(server.url, OTHER_CLIENT) as sock:
                answer = get(sock, f"/drop_token/{played}/moves?start=0&wait=300", client)
            if status_of(answer) != 200:
                break
        assert_refusal(answer, 429, "too_many_waits", closes=False)
        # Another client of the same proxy, and a client whose own header
        # says 203.0.113.7 from an address not trusted, still wait.
        others = [
            stack.enter_context(connect(server.url, source)) for source in (OTHER_CLIENT, None)
        ]
        for sock, forwarded in zip(others, ("203.0.113.8", "203.0.113.7"), strict=True):
            sock.sendall(f"GET {wait}X-Forwarded-For: {forwarded}\r\n\r\n".encode())
        HTTP.post(f"{server.url}/drop_token/{game_id}/ann", json={"column": 0}).raise_for_status()
        for sock in others:  # The move ends their waits (or they read it at once).
            answer = read_response(sock)
            assert status_of(answer) == 200, answer
            assert json_of(answer) == {"moves": [{"type": "MOVE", "player": "ann", "column": 0}]}


def test_a_long_poll_outlasts_the_body_timeout(start_server: StartServer) -> None:
    """Waiting for the client to leave is no body still being sent: no 408 after the body timeout."""
    server = start_server(None, "--body-timeout", "0.2")
    game_id = new_game(server.url)
    answer = HTTP.get(
        f"{server.url}/drop_token/{game_id}/moves", params={"start": 0, "wait": 1}, timeout=60
    )
    assert (answer.status_code, answer.json()["error"]) == (404, "move_not_found")


def test_a_trusted_proxy_that_is_no_address_stops_the_start(
    run_service: Callable[..., Any], database: Path
) -> None:
    ran = run_service(database, "--trusted-proxy", "10.0.0.300")
    assert ran.returncode == 2 and "--trusted-proxy: " in ran.stderr, ran.stderr


def test_a_pressed_client_has_its_slow_heads_and_bodies_cut_first(
    start_server: StartServer,
) -> None:
    """Half its share taken, a client's slow requests are cut long before the usual timeouts.

    The client's two long polls keep it pressed (they are no slow request:
    they wait on the server). With 600 s timeouts, a request still
    unfinished would otherwise be waited for longer than each read here
    may wait: closed unanswered (not 408) means the pressed time cut it.
    """
    server = start_server(
        None, "--max-client-connections", "4", "--header-timeout", "600", "--body-timeout", "600"
    )
    game_id = new_game(server.url)
    with contextlib.ExitStack() as stack:
        for _ in range(2):
            sock = stack.enter_context(connect(server.url, OTHER_CLIENT))
            sock.sendall(
                f"GET /drop_token/{game_id}/moves?start=0&wait=300 HTTP/1.1\r\nHost: x\r\n\r\n".encode()
            )
        slow_head = stack.enter_context(connect(server.url, OTHER_CLIENT))
        slow_head.sendall(b"GET /drop_token HTTP/1.1\r\nHost: x\r\n")  # Never finished.
        slow_body = stack.enter_context(connect(server.url, OTHER_CLIENT))
        slow_body.sendall(
            b"POST /drop_token HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"players": '
        )
        assert (read_all(slow_head), read_all(slow_body)) == (b"", b"")
        with connect(server.url) as sock:  # Another client, not pressed, is served.
            assert status_of(get(sock, "/drop_token")) == 200
