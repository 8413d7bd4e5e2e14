"""Fixtures for the service: a TestClient on a fresh store, and real server processes.

Every test that touches stored games runs twice, through the one
parametrised fixture :func:`database`: on a new SQLite file, and on a new
PostgreSQL database of a throw-away cluster (``bench/postgres_cluster.py``)
started once per session.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bench.postgres_cluster import Cluster, ClusterUnavailable, start_cluster
from connect_four.service.main import create_app
from server_support import REPOSITORY, Database, Server


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server of its own for the session.

    Without a server (or the driver) the PostgreSQL tests skip, saying why,
    on a developer's machine; on CI (``CI=true``) they fail: there they must run.
    """
    try:
        cluster = start_cluster()
    except ClusterUnavailable as reason:
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL tests cannot run on CI: {reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {reason} (CI installs the server and runs them)")
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A new, empty database of each kind: an SQLite file in tmp_path, a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "games.db"
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    return cluster.empty_database()


@pytest.fixture
def client(database: Database) -> Iterator[TestClient]:
    """A TestClient over an app whose store is a new database."""
    with TestClient(create_app(database)) as test_client:
        yield test_client


def create_game(
    client: TestClient | httpx.Client,
    players: list[str] | None = None,
    rows: int = 4,
    columns: int = 4,
) -> str:
    """Create a game through the API and return its id."""
    response = client.post(
        "/drop_token",
        json={"players": players or ["p1", "p2"], "rows": rows, "columns": columns},
    )
    assert response.status_code == 200, response.text
    game_id: str = response.json()["gameId"]
    return game_id


@pytest.fixture
def start_server(database: Database) -> Iterator[Callable[..., Server]]:
    """Start real servers (on the test's new database unless told); stop them all after."""
    servers: list[Server] = []

    def start(db: Database | None = None, *options: str) -> Server:
        server = Server(db or database, options)
        servers.append(server)
        server.start()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture
def new_game() -> Callable[..., str]:
    """The create_game helper, for tests to create games through any client."""
    return create_game


@pytest.fixture
def run_service() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m connect_four.service`` on a database to its end (for start-ups that must fail)."""

    def run(db: Path, *options: str) -> subprocess.CompletedProcess[str]:
        server = Server(db, options)
        try:
            return subprocess.run(
                server.command(),
                cwd=REPOSITORY,
                capture_output=True,
                text=True,
                timeout=120,
                pass_fds=(server.listener.fileno(),),
            )
        finally:
            server.listener.close()

    return run
