"""Per-client rates across real service processes (issue 37): two processes count as one.

Two ``python -m connect_four.service`` processes share one database (an SQLite
file, then a PostgreSQL database) and ``--rate-store database``; one client
sends its requests to each in turn, as a proxy spreading them would. The
request past the rate is refused by whichever process gets it, with the
service's JSON error and ``Retry-After``. With ``--rate-store memory`` each
process would let the client make the rate again.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from server_support import HTTP, Server

pytestmark = pytest.mark.slow  # service processes (and a PostgreSQL server)

StartServer = Callable[..., Server]

GAME = {"players": ["a", "b"], "rows": 4, "columns": 4}
# Per year (windows of 360 days): a test seconds long almost never straddles two
# windows, where the sliding window counter lets the previous window's last hits
# count a little less than whole (with hour windows, a run at 06:00:00 did).
RATES = ("--rate-store", "database", "--rate-games", "3/year", "--rate-moves", "4/year")
YEAR = 360 * 24 * 3600


def assert_rate_limited(response: httpx.Response, what: str) -> None:
    """A 429 in the service's shape: ``{"error", "detail"}``, with ``Retry-After``."""
    assert response.status_code == 429, response.text
    body = response.json()
    assert set(body) == {"error", "detail"} and body["error"] == "rate_limited"
    assert what in body["detail"] and "from your address" in body["detail"]
    assert 1 <= int(response.headers["retry-after"]) <= YEAR


def two_processes(start_server: StartServer) -> list[Server]:
    """Two service processes on the test's database, counting in it."""
    return [start_server(None, *RATES), start_server(None, *RATES)]


def test_games_past_the_rate_are_refused_by_either_process(start_server: StartServer) -> None:
    servers = two_processes(start_server)
    created = [
        HTTP.post(servers[turn % 2].url + "/drop_token", json=GAME).status_code for turn in range(3)
    ]
    assert created == [200, 200, 200]
    # The fourth, to the process that saw one of the three, and to the other.
    for server in servers:
        assert_rate_limited(
            HTTP.post(server.url + "/drop_token", json=GAME), "at most 3 per 1 year"
        )
    games = HTTP.get(servers[0].url + "/drop_token").json()["games"]
    assert len(games) == 3


def test_moves_and_quits_past_the_rate_are_refused_by_either_process(
    start_server: StartServer,
) -> None:
    first, second = two_processes(start_server)
    game_id = HTTP.post(first.url + "/drop_token", json=GAME).json()["gameId"]
    for turn, server in enumerate((first, second, first, second)):
        player = "ab"[turn % 2]
        answer = HTTP.post(f"{server.url}/drop_token/{game_id}/{player}", json={"column": 0})
        assert answer.status_code == 200, answer.text
    assert_rate_limited(
        HTTP.post(f"{first.url}/drop_token/{game_id}/a", json={"column": 1}), "moves"
    )
    assert_rate_limited(HTTP.delete(f"{second.url}/drop_token/{game_id}/a"), "moves")
    assert len(HTTP.get(f"{second.url}/drop_token/{game_id}/moves").json()["moves"]) == 4
