"""The lobby across real service processes: what one process changes wakes the waiters of another.

Two ``python -m connect_four.service`` processes share one database (SQLite,
then PostgreSQL). A client waits for the lobby's feed, or a player's own, on
process B while another player seeks or accepts through process A: the wake
travels as moves' do (``move_log`` on SQLite, LISTEN/NOTIFY on PostgreSQL).
Each server tells the test once a waiting request's first read found nothing
new (tests/server_zygote.py), so the answer can only come by a wake: without
one, the wait would run out and answer the stale read.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_push_processes import StartServer, Waiter

from server_support import HTTP, FirstReads, Server

pytestmark = pytest.mark.slow


def register(server: Server, name: str) -> dict[str, str]:
    """A new player through ``server``: the header that sends their key."""
    response = HTTP.post(f"{server.url}/players", json={"name": name}, timeout=30)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['key']}"}


class KeyedWaiter(Waiter):
    """A waiting GET sent with a player's key."""

    def __init__(self, server: Server, path: str, headers: dict[str, str]) -> None:
        self.headers = headers
        super().__init__(server, path)

    def run(self) -> None:
        self.response = HTTP.get(self.url, headers=self.headers, timeout=60)


def test_a_seek_made_on_one_process_wakes_lobby_waiters_on_another(
    start_server: StartServer, first_reads: FirstReads
) -> None:
    first, second = start_server(), start_server()
    ann = register(first, "ann")
    version = HTTP.get(f"{second.url}/lobby", timeout=30).json()["version"]
    waiter = Waiter(second, f"/lobby?since={version}&wait=30")
    first_reads.wait_for(second, "~lobby", "lobby")
    seek = HTTP.post(f"{first.url}/lobby/seeks", json={}, headers=ann, timeout=30).json()
    answer: dict[str, Any] = waiter.result().json()
    assert answer["version"] > version
    assert [listed["id"] for listed in answer["seeks"]] == [seek["id"]]


def test_an_accept_on_one_process_brings_the_seeker_their_ticket_on_another(
    start_server: StartServer, first_reads: FirstReads
) -> None:
    first, second = start_server(), start_server()
    ann, bob = register(first, "ann"), register(second, "bob")
    seek = HTTP.post(f"{second.url}/lobby/seeks", json={"colour": "X"}, headers=ann, timeout=30)
    mine = HTTP.get(f"{second.url}/lobby/me", headers=ann, timeout=30).json()
    waiter = KeyedWaiter(second, f"/lobby/me?since={mine['version']}&wait=30", ann)
    first_reads.wait_for(second, "~player:ann", "me")
    ticket = HTTP.post(
        f"{first.url}/lobby/seeks/{seek.json()['id']}/accept", headers=bob, timeout=30
    ).json()
    (game,) = waiter.result().json()["games"]
    assert game["gameId"] == ticket["gameId"] and game["players"] == ["ann", "bob"]
    # The ticket's token plays on either process.
    moved = HTTP.post(
        f"{first.url}/drop_token/{game['gameId']}/ann",
        json={"column": 3},
        headers={"Authorization": f"Bearer {game['token']}"},
        timeout=30,
    )
    assert moved.status_code == 200, moved.text


class LoggedServer(Server):
    """A server that writes its access log (the tests' servers do not)."""

    def command(self) -> list[str]:
        return [part for part in super().command() if part != "--no-access-log"]


def test_a_players_key_never_reaches_the_access_log(database: Any) -> None:
    server = LoggedServer(database, capture_output=True)
    server.start()
    try:
        ann = register(server, "ann")
        HTTP.get(f"{server.url}/lobby/me?wait=0.1", headers=ann, timeout=30)
        HTTP.post(f"{server.url}/lobby/seeks", json={}, headers=ann, timeout=30)
        HTTP.post(f"{server.url}/lobby/pair", json={}, headers=ann, timeout=30)
    finally:
        server.interrupt()
        printed = server.output()
    key = ann["Authorization"].removeprefix("Bearer ")
    assert "/lobby/seeks" in printed and "/lobby/me" in printed  # The log was written.
    assert key not in printed
