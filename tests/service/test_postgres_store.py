"""What only PostgreSQL has: a server that can stop, read-only sessions, concurrent start-ups.

The SQLite file faults (deleted, replaced, corrupted, page limit) have no
meaning here; their analogues are a stopped server (503
``storage_unavailable``, then recovery when it is back) and a read-only
database (503 ``storage_read_only``). The schema version is checked on both
databases.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from app_client import AppClient

from bench.postgres_cluster import Cluster
from connect_four.service.errors import StorageError
from connect_four.service.main import create_app
from connect_four.service.repository import GameStore
from connect_four.service.storage import open_store

pytestmark = pytest.mark.slow

RunService = Callable[..., "subprocess.CompletedProcess[str]"]

NEW_GAME = {"players": ["a", "b"], "rows": 6, "columns": 7}


@pytest.fixture
def postgres(postgres_cluster: Cluster) -> str:
    """The URL of an empty PostgreSQL database."""
    return postgres_cluster.empty_database()


def assert_storage_error(response: Any, code: str) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"] == code
    assert "changed nothing" in response.json()["detail"]
    assert "retry-after" in response.headers


def move(client: AppClient, game_id: str, number: int) -> Any:
    return client.post(
        f"/drop_token/{game_id}/{'ab'[number % 2]}", json={"column": (number // 2) % 7}
    )


def test_a_stopped_server_is_503_storage_unavailable_then_the_service_recovers(
    own_postgres_cluster: Cluster,
) -> None:
    """On a cluster of the test's own: the session's serves other workers' tests meanwhile."""
    from connect_four.service.postgres_store import PostgresGameStore

    cluster = own_postgres_cluster
    # A password in the URL (the cluster trusts local users and ignores it)
    # must reach no client, and the log only masked (issue 33).
    postgres = cluster.empty_database() + "&password=TopSecret123"
    app = create_app(postgres)
    with AppClient(app) as client:
        # A short wait for a connection, so each refusal comes within a second.
        app.state.store.close()
        app.state.store = PostgresGameStore(postgres, connect_timeout=1)
        game_id = client.post("/drop_token", json=NEW_GAME).json()["gameId"]
        assert move(client, game_id, 0).status_code == 200
        cluster.stop()
        refused = move(client, game_id, 1)
        assert_storage_error(refused, "storage_unavailable")
        assert "TopSecret123" not in refused.text and str(cluster.folder) not in refused.text
        assert_storage_error(client.get(f"/drop_token/{game_id}"), "storage_unavailable")
        assert_storage_error(client.post("/drop_token", json=NEW_GAME), "storage_unavailable")
        cluster.start()
        # The pool reconnects by itself; until it has, requests stay 503.
        for _ in range(200):
            response = move(client, game_id, 1)
            if response.status_code == 200:
                break
            assert_storage_error(response, "storage_unavailable")
        assert response.json() == {"move": f"{game_id}/moves/1"}
        # Calls in worker threads have a pool of their own, which reconnects apart.
        for _ in range(200):
            answer = client.get(f"/drop_token/{game_id}/moves")
            if answer.status_code == 200:
                break
            assert_storage_error(answer, "storage_unavailable")
        moves = answer.json()["moves"]
        assert [move["column"] for move in moves] == [0, 0]
        app.state.store.close()


def test_a_read_only_database_is_503_storage_read_only_and_reads_go_on(postgres: str) -> None:
    with AppClient(create_app(postgres)) as client:
        game_id = client.post("/drop_token", json=NEW_GAME).json()["gameId"]
    with AppClient(create_app(postgres, read_only=True)) as client:
        assert_storage_error(move(client, game_id, 0), "storage_read_only")
        assert_storage_error(client.delete(f"/drop_token/{game_id}/a"), "storage_read_only")
        assert_storage_error(client.post("/drop_token", json=NEW_GAME), "storage_read_only")
        assert client.get(f"/drop_token/{game_id}/moves").json() == {"moves": []}
        assert client.get("/drop_token").json() == {"games": [game_id]}
    with AppClient(create_app(postgres)) as client:
        assert move(client, game_id, 0).status_code == 200


def test_start_up_without_a_server_is_one_line_and_exit_status_1(
    tmp_path: Path, run_service: RunService
) -> None:
    url = f"postgresql://nobody@/games?host={tmp_path}"  # No server listens there.
    result = run_service(url)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("python -m connect_four.service: cannot open the database:")
    assert "Traceback" not in result.stderr


def test_max_db_pages_is_refused_for_postgresql(run_service: RunService) -> None:
    result = run_service("postgresql://nobody@/games", "--max-db-pages", "10")
    assert result.returncode == 2
    assert "SQLite files only" in result.stderr


def test_processes_starting_together_set_the_schema_up_once(postgres: str) -> None:
    stores: list[GameStore] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(4, timeout=120)

    def start() -> None:
        barrier.wait()
        try:
            stores.append(open_store(postgres))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    game_id = stores[0].create_game(players=["a", "b"], rows=4, columns=4).game_id
    assert all(store.in_progress_game_ids() == [game_id] for store in stores)
    for store in stores:
        store.close()


# --- The schema's version, on both databases -----------------------------------


def set_schema_version(database: str | Path, version: int) -> None:
    """Write ``version`` into the database's schema_version table, as a newer service would."""
    statement = f"UPDATE schema_version SET version = {version}"
    if isinstance(database, Path):
        with sqlite3.connect(database) as connection:
            connection.execute(statement)
        return
    import psycopg

    with psycopg.connect(database, autocommit=True) as connection:
        connection.execute(statement)  # type: ignore[arg-type]


def schema_version(store: GameStore) -> int:
    with store._transaction() as connection:
        (version,) = connection.execute("SELECT version FROM schema_version").fetchone()
    return int(version)


def test_the_schema_version_is_recorded_once(database: str | Path) -> None:
    store = open_store(database)
    # 2: rate counters (issue 37); 3: games between friends (35); 4: the lobby (36);
    # 5: friends' presence (35); 6: each game's chain (36).
    assert schema_version(store) == 6
    store.close()
    again = open_store(database)  # Nothing to migrate: still one row.
    with again._transaction() as connection:
        assert connection.execute("SELECT count(*) FROM schema_version").fetchone()[0] == 1
    again.close()


def test_a_database_from_a_newer_service_is_refused(database: str | Path) -> None:
    open_store(database).close()
    set_schema_version(database, 99)
    with pytest.raises(StorageError, match="schema version 99, newer than"):
        open_store(database)


def test_a_tests_new_schema_shows_nothing_made_through_another(postgres_cluster: Cluster) -> None:
    """The ``database`` fixture's PostgreSQL stores are apart by construction (Cluster.new_schema)."""
    import psycopg

    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    first, second = (postgres_cluster.new_schema(f"schemas_{worker}") for _ in range(2))
    open_store(first).close()  # the service's tables, in the first schema
    with psycopg.connect(first) as connection:
        assert connection.execute("SELECT to_regclass('games')").fetchone() != (None,)
    with psycopg.connect(second) as connection:
        assert connection.execute("SELECT to_regclass('games')").fetchone() == (None,)
        assert connection.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone() == (0,)
