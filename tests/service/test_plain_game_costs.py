"""Games between friends cost the seed's games nothing: each request makes the statements it did.

A game between friends has extras (issue 35: clocks, offers, claims), read
with the game's own row. A plain drop-token game has none, and each of its
requests must make exactly the statements (SQLite) or round trips
(PostgreSQL, on the event loop, no worker thread) it made before games
between friends existed. The counts below are those of main before the
merge, statement by statement; an extra read of ``friend_games`` per
request (as the branch first had) fails every one of them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from app_client import AppClient

from connect_four.service import lobby
from connect_four.service.loop_connections import LoopConnections
from connect_four.service.main import create_app
from connect_four.service.sqlite_store import SqliteGameStore
from server_support import Database

# SQLite: BEGIN, the game's row (its extras joined), its move count, then the call's own.
SQLITE_STATEMENTS = {
    "move": 5,  # BEGIN IMMEDIATE, game, count, INSERT move, COMMIT
    "state": 4,  # BEGIN, game, count, COMMIT (the cached game needs no moves read)
    "moves": 5,  # BEGIN, game, count, SELECT moves, COMMIT
    "move n": 5,  # BEGIN, game, count, SELECT the move, COMMIT
    "wait": 5,  # a wait answered at once by the moves: as "moves"
    "quit": 6,  # BEGIN IMMEDIATE, game, count, INSERT quit, UPDATE games done, COMMIT
}

# PostgreSQL's calls on the event loop: one statement each, no worker thread.
POSTGRES_LOOP_STATEMENTS = {"move": 1, "state": 1, "quit": 1}


@pytest.fixture
def sqlite_statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement the SQLite store's connections run (checkpoints' PRAGMAs left out)."""
    made: list[str] = []
    real = SqliteGameStore._connection
    # The lobby's sweep, a task of the app's own, reads its tables every
    # second: held off, so that only the requests' statements are counted.
    monkeypatch.setattr(lobby, "SWEEP", 3600.0)

    def note(sql: str) -> None:
        # A statement that fires triggers (the move feed's) is traced once more
        # for each: the same text again at once, which no store call ever sends.
        if not sql.lstrip().upper().startswith("PRAGMA") and (not made or made[-1] != sql):
            made.append(sql)

    def traced(self: SqliteGameStore) -> sqlite3.Connection:
        connection = real(self)
        connection.set_trace_callback(note)
        return connection

    monkeypatch.setattr(SqliteGameStore, "_connection", traced)
    return made


@pytest.fixture
def loop_statements(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The names of the prepared statements PostgreSQL's calls on the loop run."""
    made: list[bytes] = []
    real = LoopConnections.query

    async def counted(self: LoopConnections, name: bytes, values: Any) -> Any:
        made.append(name)
        return await real(self, name, values)

    monkeypatch.setattr(LoopConnections, "query", counted)
    return made


def plain_requests(client: AppClient) -> Iterator[tuple[str, Callable[[], Any]]]:
    """A plain game's requests, each named, made in turn (a game, two moves, reads, a quit)."""
    game = client.post("/drop_token", json={"players": ["a", "b"], "rows": 4, "columns": 4})
    game_id = game.json()["gameId"]
    client.post(f"/drop_token/{game_id}/a", json={"column": 0})  # Warms the connections up.
    yield "move", lambda: client.post(f"/drop_token/{game_id}/b", json={"column": 1})
    yield "state", lambda: client.get(f"/drop_token/{game_id}")
    yield "moves", lambda: client.get(f"/drop_token/{game_id}/moves")
    yield "move n", lambda: client.get(f"/drop_token/{game_id}/moves/1")
    yield "wait", lambda: client.get(f"/drop_token/{game_id}/moves", params={"wait": 5})
    yield "quit", lambda: client.delete(f"/drop_token/{game_id}/a")


def test_a_plain_game_makes_the_statements_it_did_on_sqlite(
    tmp_path: Any, sqlite_statements: list[str]
) -> None:
    counts = {}
    with AppClient(create_app(tmp_path / "games.db")) as client:
        for name, request in plain_requests(client):
            sqlite_statements.clear()
            response = request()
            assert response.status_code < 300, response.text
            counts[name] = len(sqlite_statements)
            joined = [sql for sql in sqlite_statements if "friend_games" in sql]
            # The extras come with the game's row, in the same statement, if at all.
            assert all("LEFT JOIN friend_games" in sql for sql in joined), joined
    assert counts == SQLITE_STATEMENTS


@pytest.mark.slow  # a PostgreSQL cluster
def test_a_plain_game_makes_one_statement_a_call_on_the_postgresql_loop(
    postgres_cluster: Any, loop_statements: list[bytes], threads: list[str]
) -> None:
    database: Database = postgres_cluster.empty_database("plain_costs")
    counts = {}
    with AppClient(create_app(database)) as client:
        for name, request in plain_requests(client):
            loop_statements.clear()
            response = request()
            assert response.status_code < 300, response.text
            if name in POSTGRES_LOOP_STATEMENTS:
                counts[name] = len(loop_statements)
                assert threads == [], (name, threads)  # All on the loop: no worker thread.
            threads.clear()
    assert counts == POSTGRES_LOOP_STATEMENTS
