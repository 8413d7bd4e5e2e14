"""Fixtures for the service: a AppClient on a fresh store, and real server processes.

Every test that touches stored games runs twice, through the one
parametrised fixture :func:`database`: on a new SQLite file, and on a new
schema of a PostgreSQL database of a throw-away cluster
(``bench/postgres_cluster.py``) started once per session.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from app_client import AppClient
from ci_support import unavailable
from server_zygote import FIRST_READS, ZYGOTE
from slow_support import starts_processes

from bench.postgres_cluster import Cluster, ClusterUnavailable, start_cluster
from connect_four.service import store_calls
from connect_four.service.main import create_app
from connect_four.service.repository import GameStore
from connect_four.service.storage import open_store
from fake_clock import FakeClock
from server_support import REPOSITORY, Database, FirstReads, Server, stop_later

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
"""This process's name among pytest-xdist's workers ("main" without xdist)."""


@contextmanager
def _locked(folder: Path) -> Iterator[Path]:
    """Hold the lock that the session's processes take to share a cluster; its record's path."""
    with open(folder / "postgres.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder / "postgres.json"
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def _shared_cluster(folder: Path) -> Iterator[Cluster]:
    """The session's one cluster, shared by every worker: started by the first, removed by the last.

    An initdb and a server for each worker cost each a second and a half of
    CPU; the record in ``folder`` says where the cluster runs and how many
    workers use it.
    """
    with _locked(folder) as record:
        if record.exists():
            known = json.loads(record.read_text())
            cluster, users = Cluster.described(known["cluster"]), known["users"] + 1
        else:
            cluster, users = start_cluster(), 1
        record.write_text(json.dumps({"cluster": cluster.description(), "users": users}))
    try:
        yield cluster
    finally:
        cluster.disconnect()
        with _locked(folder) as record:
            known = json.loads(record.read_text())
            if known["users"] == 1:
                cluster.remove()
                record.unlink()
            else:
                known["users"] -= 1
                record.write_text(json.dumps(known))


def _unavailable(reason: ClusterUnavailable) -> None:
    """Skip the PostgreSQL tests on a developer's machine, saying why; fail them on CI (``CI=true``)."""
    unavailable(
        f"PostgreSQL tests skipped: {reason} (CI installs the server and runs them)",
        f"PostgreSQL tests cannot run on CI: {reason}",
    )


@pytest.fixture(scope="session")
@starts_processes
def postgres_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A PostgreSQL server for the session, one for all of xdist's workers.

    Each worker keeps to its own databases (named after it). Without a
    server (or the driver) the PostgreSQL tests skip, saying why, on a
    developer's machine; on CI (``CI=true``) they fail: there they must run.
    """
    # The workers' temporary folders share a parent; a run without xdist has its own.
    folder = (
        tmp_path_factory.getbasetemp().parent if WORKER != "main" else tmp_path_factory.mktemp("pg")
    )
    try:
        with _shared_cluster(folder) as cluster:
            yield cluster
    except ClusterUnavailable as reason:
        _unavailable(reason)


@pytest.fixture
@starts_processes
def own_postgres_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server for one test alone: one it may stop and start."""
    try:
        cluster = start_cluster()
    except ClusterUnavailable as reason:
        _unavailable(reason)
        raise  # not reached: _unavailable skips or fails
    try:
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A new, empty database of each kind: an SQLite file in tmp_path, a PostgreSQL schema.

    The PostgreSQL one is a schema no earlier test had, the only one its URL
    lets a connection see (``Cluster.new_schema``), in this worker's
    database: nothing of another test's can be found there, by
    construction, and nothing needs emptying.
    """
    if request.param == "sqlite":
        return tmp_path / "games.db"
    cluster: Cluster = request.getfixturevalue("postgres_cluster")
    return cluster.new_schema(f"games_{WORKER}")


@pytest.fixture(scope="session")
def shared_app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppClient]:
    """One AppClient over one app on SQLite, for the tests answered before storage."""
    with AppClient(create_app(tmp_path_factory.mktemp("shared") / "games.db")) as test_client:
        yield test_client


@pytest.fixture
def client(request: pytest.FixtureRequest, database: Database) -> Iterator[AppClient]:
    """An AppClient over an app whose store is a new database.

    A test marked ``shared_app`` (server_support.answered_before_storage)
    gets the session's shared app instead.
    """
    if request.node.get_closest_marker("shared_app") is not None:
        yield request.getfixturevalue("shared_app_client")
        return
    with AppClient(create_app(database)) as test_client:
        yield test_client


def create_game(
    client: AppClient | httpx.Client,
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
@starts_processes
def start_server(database: Database) -> Iterator[Callable[..., Server]]:
    """Start real servers (on the test's new database unless told); stop them all after."""
    servers: list[Server] = []

    def start(db: Database | None = None, *options: str) -> Server:
        server = Server(db or database, options)
        servers.append(server)
        server.start()
        return server

    yield start
    # All told at once, the SQLite ones (each test's own file) waited for at
    # the session's end (server_support.stop_later); those on PostgreSQL end
    # before the test does, while the session's cluster surely still runs.
    for server in servers:
        if isinstance(server.db, Path):
            stop_later(server)
        else:
            server.begin_stop()
    for server in servers:
        if not isinstance(server.db, Path):
            server.stop()


@pytest.fixture
def stores(database: Database) -> Iterator[tuple[GameStore, GameStore]]:
    """Two stores on one new database: two processes."""
    first, second = open_store(database), open_store(database)
    yield first, second
    first.close()
    second.close()


@pytest.fixture
def first_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FirstReads:
    """Servers started from now on tell their waiting requests (tests/server_zygote.py)."""
    path = tmp_path / "first_reads"
    path.touch()
    monkeypatch.setenv(FIRST_READS, str(path))
    return FirstReads(path)


@pytest.fixture
def new_game() -> Callable[..., str]:
    """The create_game helper, for tests to create games through any client."""
    return create_game


@pytest.fixture
@starts_processes
def run_service() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run ``python -m connect_four.service`` on a database to its end (for start-ups that must fail)."""

    def run(db: Path, *options: str) -> subprocess.CompletedProcess[str]:
        server = Server(db, options)
        try:
            return ZYGOTE.run(
                server.command(),
                cwd=REPOSITORY,
                pass_fds=(server.listener.fileno(),),
                timeout=120,
            )
        finally:
            server.listener.close()

    return run


T = TypeVar("T")


@pytest.fixture
def threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the store's calls made in a worker thread, in order."""
    made: list[str] = []
    real = store_calls.run_in_threadpool

    async def counted(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        made.append(call.__name__)
        return await real(call, *args, **kwargs)

    monkeypatch.setattr(store_calls, "run_in_threadpool", counted)
    return made


@pytest.fixture
def clock() -> FakeClock:
    """The service's clock for a test's app (games between friends, the lobby), moved by the test."""
    return FakeClock()


class _StillWallClock:
    """The ``time`` module as the rate counters see it: its wall clock stands 30 s into a minute.

    The sliding window counter weighs the last window by the share of it
    still inside the sliding one and rounds down (``limits``' own, and
    :mod:`connect_four.service.shared_rates`): two requests on either side
    of a minute's end let one more in than the rate. A test whose requests
    straddled one (seen once: the review test, whose first analysis starts
    a worker) saw 200 where 429 was due. Standing still, the clock never
    reaches a window's end; the other clocks (``monotonic``) run.
    """

    def __init__(self) -> None:
        self.now = time.time() // 60 * 60 + 30

    def time(self) -> float:
        return self.now

    def __getattr__(self, name: str) -> Any:
        return getattr(time, name)


@pytest.fixture
def still_rate_clock(monkeypatch: pytest.MonkeyPatch) -> _StillWallClock:
    """The rate counters' wall clock stands still (:class:`_StillWallClock`) for the test.

    Every module that reads it for the rates: ``limits``' storage and its
    strategies (which date a window's reset), the service's two counters.
    A clock left out runs apart from the still one by up to half a minute.
    """
    import limits.aio.storage.memory
    import limits.aio.strategies

    from connect_four.service import rate_limits, shared_rates

    still = _StillWallClock()
    for module in (limits.aio.storage.memory, limits.aio.strategies, rate_limits, shared_rates):
        monkeypatch.setattr(module, "time", still)
    return still
