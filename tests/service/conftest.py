"""Fixtures for the service: a TestClient on a fresh store, and real server processes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from service.main import create_app

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A TestClient over an app whose store is a new database in tmp_path."""
    with TestClient(create_app(tmp_path / "games.db")) as test_client:
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


def free_port() -> int:
    """A port nothing listens on right now, on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """``python -m service`` in a child process on 127.0.0.1, ``options`` on its command line."""

    def __init__(self, db: Path, port: int, options: tuple[str, ...] = ()) -> None:
        self.db = db
        self.port = port
        self.options = options
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def command(self) -> list[str]:
        return [sys.executable, "-m", "service", "--port", str(self.port), "--db", str(self.db),
                "--no-access-log", *self.options]

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command(),
            cwd=REPOSITORY,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        # Wait until it answers; give up (and fail) if it dies or never does.
        for _ in range(600):
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if httpx.get(self.url + "/drop_token", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

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
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start real servers (on a database in tmp_path unless told); stop them all after."""
    servers: list[Server] = []

    def start(db: Path | None = None, *options: str) -> Server:
        server = Server(db or tmp_path / "server.db", free_port(), options)
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
        server = Server(db, free_port(), options)
        return subprocess.run(
            server.command(), cwd=REPOSITORY, capture_output=True, text=True, timeout=120
        )

    return run
