"""Fixtures for the service: a TestClient on a fresh store, and real server processes.

Every test that touches stored games runs twice, through the one
parametrised fixture :func:`database`: on a new SQLite file, and on a new
PostgreSQL database of a throw-away cluster (``postgres_cluster.py``)
started once per session.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from postgres_cluster import Cluster, ClusterUnavailable, start_cluster

from service.main import create_app

REPOSITORY = Path(__file__).resolve().parents[2]

Database = str | Path
"""An SQLite file's path or a PostgreSQL URL, as ``--db`` takes them."""


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


def listening_socket() -> socket.socket:
    """A socket listening on a free port of 127.0.0.1, for a server to inherit.

    Binding here and handing the socket over (``--fd``) leaves no moment in
    which another program could take the port, as picking a free port and
    letting the server bind it later would.
    """
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    listener.set_inheritable(True)
    return listener


class Server:
    """``python -m service`` in a child process on 127.0.0.1, ``options`` on its command line."""

    def __init__(self, db: Database, options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.options = options
        self.listener = listening_socket()
        self.port: int = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "service", "--fd", str(self.listener.fileno()),
                "--db", str(self.db), "--no-access-log", *self.options]

    def start(self) -> None:
        fd = self.listener.fileno()
        self.process = subprocess.Popen(
            self.command(),
            cwd=REPOSITORY,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(fd,),
        )
        # The socket now lives in the server: once it dies, connecting fails.
        self.listener.close()
        # Connections wait in the socket's backlog until the server accepts
        # them, so each try waits for the server itself; give up (and fail)
        # only if it dies.
        for _ in range(600):
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(self.url + "/drop_token", timeout=10).status_code == 200:
                    return
            except httpx.TransportError:
                continue
        raise RuntimeError("the server did not answer")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


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
    """Run ``python -m service`` on a database to its end (for start-ups that must fail)."""

    def run(db: Path, *options: str) -> subprocess.CompletedProcess[str]:
        server = Server(db, options)
        try:
            return subprocess.run(
                server.command(), cwd=REPOSITORY, capture_output=True, text=True,
                timeout=120, pass_fds=(server.listener.fileno(),),
            )
        finally:
            server.listener.close()

    return run
