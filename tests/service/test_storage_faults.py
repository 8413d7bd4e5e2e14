"""Storage faults are never silent: each is a JSON 503 with its own code, nothing
acknowledged is lost, and the service recovers when the fault is gone.

Most faults are made on a real file under an app in this process; start-up
on a corrupted file and a real full disk (a small tmpfs, where this machine
lets the tests mount one) use a real server process. These faults are
SQLite's; a stopped or read-only PostgreSQL server is tested in
``test_postgres_store.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_client import AppClient

from connect_four.service.main import create_app
from server_support import REPOSITORY, http_client, listening_socket

pytestmark = pytest.mark.slow

RunService = Callable[..., "subprocess.CompletedProcess[str]"]

NEW_GAME = {"players": ["a", "b"], "rows": 6, "columns": 7}


def assert_storage_error(response: Any, code: str) -> None:
    assert response.status_code == 503, response.text
    assert response.json()["error"] == code
    assert "changed nothing" in response.json()["detail"]
    assert "retry-after" in response.headers


def new_game(client: AppClient | httpx.Client) -> str:
    response = client.post("/drop_token", json=NEW_GAME)
    assert response.status_code == 200, response.text
    game_id: str = response.json()["gameId"]
    return game_id


def move(client: AppClient | httpx.Client, game_id: str, number: int) -> Any:
    """Post move ``number`` of a game that fills columns 0 and 1 alternately... until full."""
    return client.post(
        f"/drop_token/{game_id}/{'ab'[number % 2]}", json={"column": (number // 2) % 7}
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def database(db: Path) -> Path:
    """SQLite only: these faults are the file's (PostgreSQL's: test_postgres_store.py)."""
    return db


@pytest.fixture
def app_client(db: Path) -> Iterator[AppClient]:
    with AppClient(create_app(db)) as client:
        yield client


def test_a_full_database_is_503_storage_full_and_loses_no_acknowledged_game(db: Path) -> None:
    acknowledged: list[str] = []
    # 24 pages of games besides the 16 of the lobby's empty tables (schema version 4).
    with AppClient(create_app(db, max_db_pages=40)) as client:
        for _ in range(5000):  # Far more than 24 pages hold.
            response = client.post("/drop_token", json=NEW_GAME)
            if response.status_code != 200:
                break
            acknowledged.append(response.json()["gameId"])
        assert_storage_error(response, "storage_full")
        assert len(acknowledged) > 10
        # Reads go on, and show exactly the acknowledged games.
        assert client.get("/drop_token").json()["games"] == acknowledged
    # The fault gone (here: the limit raised), the same file takes new games.
    with AppClient(create_app(db)) as client:
        assert client.get("/drop_token").json()["games"] == acknowledged
        new_game(client)


def test_a_moved_away_file_is_503_storage_missing_until_it_is_back(
    app_client: AppClient, db: Path
) -> None:
    game_id = new_game(app_client)
    assert move(app_client, game_id, 0).status_code == 200
    db.rename(db.with_suffix(".away"))
    assert_storage_error(move(app_client, game_id, 1), "storage_missing")
    assert_storage_error(app_client.get(f"/drop_token/{game_id}"), "storage_missing")
    assert_storage_error(app_client.post("/drop_token", json=NEW_GAME), "storage_missing")
    db.with_suffix(".away").rename(db)
    assert move(app_client, game_id, 1).json() == {"move": f"{game_id}/moves/1"}
    assert len(app_client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 2


def test_a_deleted_file_acknowledges_nothing_more(app_client: AppClient, db: Path) -> None:
    """The bug of issue 9: moves went into the deleted file with 200s."""
    game_id = new_game(app_client)
    db.unlink()
    for number in range(20):
        assert_storage_error(move(app_client, game_id, number), "storage_missing")
    assert not db.exists()


def test_new_connections_never_make_an_empty_database_where_the_file_was(
    app_client: AppClient, db: Path
) -> None:
    game_id = new_game(app_client)
    app_client.app.state.store.close()  # type: ignore[attr-defined]
    db.unlink()
    assert_storage_error(move(app_client, game_id, 0), "storage_missing")
    assert_storage_error(app_client.get("/drop_token"), "storage_missing")
    assert not db.exists()


def test_a_replaced_file_is_503_storage_replaced_until_the_original_is_back(
    app_client: AppClient, db: Path, tmp_path: Path
) -> None:
    game_id = new_game(app_client)
    assert move(app_client, game_id, 0).status_code == 200
    original = tmp_path / "original.db"
    os.link(db, original)  # Keep the original reachable.
    copy = tmp_path / "copy.db"
    shutil.copyfile(db, copy)
    os.replace(copy, db)
    assert_storage_error(move(app_client, game_id, 1), "storage_replaced")
    assert_storage_error(app_client.get("/drop_token"), "storage_replaced")
    os.replace(original, db)
    assert move(app_client, game_id, 1).status_code == 200
    assert len(app_client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 2


def test_a_corrupted_file_is_503_storage_corrupt_until_it_is_repaired(
    app_client: AppClient, db: Path
) -> None:
    game_id = new_game(app_client)
    assert move(app_client, game_id, 0).status_code == 200
    store = app_client.app.state.store  # type: ignore[attr-defined]
    # Let SQLite fold its log into the file, then drop the connections: in WAL
    # mode an open connection serves the pages it already holds, so the
    # damage shows when the file is next read, as after any fault.
    store._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    intact = db.read_bytes()
    db.write_bytes(b"this is no database" * 10 + intact[190:])
    assert_storage_error(move(app_client, game_id, 1), "storage_corrupt")
    assert_storage_error(app_client.get(f"/drop_token/{game_id}"), "storage_corrupt")
    db.write_bytes(intact)
    assert move(app_client, game_id, 1).status_code == 200
    assert len(app_client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 2


def test_read_only_storage_is_503_storage_read_only_and_reads_go_on(db: Path) -> None:
    """SQLite's SQLITE_READONLY, as a file opened read-only gives it (``--read-only``)."""
    with AppClient(create_app(db)) as client:
        game_id = new_game(client)
    with AppClient(create_app(db, read_only=True)) as client:
        assert_storage_error(move(client, game_id, 0), "storage_read_only")
        assert_storage_error(client.delete(f"/drop_token/{game_id}/a"), "storage_read_only")
        assert_storage_error(client.post("/drop_token", json=NEW_GAME), "storage_read_only")
        assert client.get(f"/drop_token/{game_id}/moves").json() == {"moves": []}
        assert client.get("/drop_token").json() == {"games": [game_id]}
    with AppClient(create_app(db)) as client:
        assert move(client, game_id, 0).status_code == 200


def test_start_up_on_a_corrupted_file_is_one_line_and_exit_status_1(
    db: Path, run_service: RunService
) -> None:
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    result = run_service(db)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("python -m connect_four.service: cannot open the database:")
    assert str(db) in lines[0] and "Traceback" not in result.stderr


def test_start_up_on_a_file_that_is_no_database(db: Path, run_service: RunService) -> None:
    db.write_text("hello, this is a text file\n" * 100)
    result = run_service(db)
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1


# --- A real full disk -------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs at tmp_path/disk, if this machine lets the tests mount one."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
        capture_output=True,
    )
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (the max_db_pages test covers SQLITE_FULL)")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], capture_output=True)


def fill(path: Path) -> None:
    """Write ``path`` until the disk is full."""
    with open(path, "wb", buffering=0) as ballast:
        for _ in range(100_000):  # 400 MB at most: the disk is 2 MiB.
            try:
                ballast.write(b"x" * 4096)
            except OSError:
                return
    raise AssertionError("the disk never filled")


def test_a_real_full_disk_is_503_then_recovers_when_space_is_freed(
    small_disk: Path, start_server: Callable[..., Any]
) -> None:
    server = start_server(small_disk / "games.db")
    acknowledged: list[int] = []
    with http_client(base_url=server.url, timeout=60) as client:
        game_ids = [new_game(client) for _ in range(3)]
        fill(small_disk / "ballast")
        statuses = []
        for number in range(200):
            game_id = game_ids[number % 3]
            response = move(client, game_id, number // 3)
            statuses.append(response.status_code)
            if response.status_code == 200:
                acknowledged.append(number)
            else:
                assert_storage_error(response, "storage_full")
                break
        assert statuses[-1] == 503
        for game_id in game_ids:  # Reads still work, and hold every acknowledged move.
            moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
            assert len(moves) == sum(1 for n in acknowledged if game_ids[n % 3] == game_id)
        (small_disk / "ballast").unlink()
        response = move(
            client, game_ids[0], len(client.get(f"/drop_token/{game_ids[0]}/moves").json()["moves"])
        )
        assert response.status_code == 200, response.text


def test_the_environment_names_the_database_when_db_does_not(db: Path) -> None:
    """CONNECT_FOUR_DB is read when --db is absent: here it names a file that is no database."""
    db.write_text("hello, this is a text file\n" * 100)
    listener = listening_socket()
    try:
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "connect_four.service",
                "--fd",
                str(listener.fileno()),
                "--no-access-log",
            ],
            cwd=REPOSITORY,
            capture_output=True,
            text=True,
            timeout=120,
            pass_fds=(listener.fileno(),),
            env={**os.environ, "CONNECT_FOUR_DB": str(db)},
        )
    finally:
        listener.close()
    assert result.returncode == 1
    assert str(db) in result.stderr
