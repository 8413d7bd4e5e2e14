"""SQLite's store calls on the event loop: never waiting for a lock there, nor for the disk."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from loop_support import run_async

from connect_four.service import sqlite_store
from connect_four.service.checkpoints import CHECKPOINT_COMMITS, Checkpointer
from connect_four.service.repository import WouldWaitError
from connect_four.service.sqlite_store import SqliteGameStore
from connect_four.service.store_calls import call_store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqliteGameStore]:
    opened = SqliteGameStore(tmp_path / "games.db")
    yield opened
    opened.close()


DEADLINE = 60.0
"""Seconds a test gives a call that must not wait before it fails (it would wait an hour)."""


def new_game(store: SqliteGameStore) -> str:
    return store.create_game(players=["ann", "bob"], rows=6, columns=7).game_id


def test_a_lock_held_by_another_process_is_would_wait_at_once_and_changes_nothing(
    store: SqliteGameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A call that waited for the lock would wait an hour: long after the
    # test has found it still waiting.
    monkeypatch.setattr(sqlite_store, "BUSY_TIMEOUT", 3600.0)
    game_id = new_game(store)
    other = sqlite3.connect(store.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # Another process's writer, holding the lock.
    raised: list[BaseException] = []

    def play_without_waiting() -> None:
        try:
            with store.without_waiting():
                store.play(game_id=game_id, player_id="ann", column=3)
        except BaseException as error:
            raised.append(error)

    player = threading.Thread(target=play_without_waiting)  # a connection of its own
    player.start()
    try:
        player.join(DEADLINE)
        assert not player.is_alive(), "the call waits for the other process's lock"
    finally:
        other.execute("ROLLBACK")
        other.close()
        player.join()
    assert [type(error) for error in raised] == [WouldWaitError]
    assert store.play(game_id=game_id, player_id="ann", column=3) == 0  # Nothing was stored.


def test_a_game_locked_by_another_thread_is_would_wait_without_waiting(
    store: SqliteGameStore,
) -> None:
    game_id = new_game(store)
    entered, release = threading.Event(), threading.Event()
    original = store._record

    def slow_record(*args: object, **kwargs: object) -> object:
        entered.set()
        release.wait(10)
        return original(*args, **kwargs)  # type: ignore[arg-type]

    store._record = slow_record  # type: ignore[method-assign]
    writer = threading.Thread(
        target=store.play, kwargs=dict(game_id=game_id, player_id="ann", column=0)
    )
    writer.start()
    try:
        assert entered.wait(10)
        store._record = original  # type: ignore[method-assign]
        with store.without_waiting(), pytest.raises(WouldWaitError):
            store.play(game_id=game_id, player_id="bob", column=1)
    finally:
        release.set()
        writer.join()
    assert [move.column for move in store.read_moves(game_id)[1]] == [0]


def test_call_store_runs_on_the_loop_or_else_in_a_thread_where_it_waits(
    store: SqliteGameStore,
) -> None:
    game_id = new_game(store)

    async def scenario() -> tuple[int, int, set[bool]]:
        loop_thread = threading.get_ident()
        on_loop: set[bool] = set()
        original = store.play

        def play(**kwargs: object) -> int:
            on_loop.add(threading.get_ident() == loop_thread)
            return original(**kwargs)  # type: ignore[arg-type]

        first = await call_store(store, play, game_id=game_id, player_id="ann", column=3)
        other = sqlite3.connect(store.path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(0.2, other.execute, "ROLLBACK")
        try:
            second = await call_store(store, play, game_id=game_id, player_id="bob", column=3)
        finally:
            other.close()
        return first, second, on_loop

    first, second, on_loop = run_async(scenario())
    assert (first, second) == (0, 1)
    assert on_loop == {True, False}  # Tried on the loop both times, once again in a thread.


def test_the_stores_connections_leave_checkpoints_to_their_thread(
    store: SqliteGameStore,
) -> None:
    size = Path(store.path).stat().st_size
    game_ids = [new_game(store) for _ in range(CHECKPOINT_COMMITS * 2)]
    deadline = time.monotonic() + 30
    # Without checkpoints every page stays in the log, and the file never grows.
    while Path(store.path).stat().st_size == size:
        assert time.monotonic() < deadline, "no checkpoint copied the log into the file"
        time.sleep(0.01)
    wal_pages = store._connection().execute("PRAGMA wal_autocheckpoint").fetchone()[0]
    assert wal_pages == 0
    assert store.read_state(game_ids[-1])[1] is None


def test_the_checkpointer_checkpoints_every_so_many_commits_and_stops(tmp_path: Path) -> None:
    path = tmp_path / "log.db"
    made: list[sqlite3.Connection] = []

    def connect() -> sqlite3.Connection:
        connection = sqlite3.connect(path, check_same_thread=False)
        made.append(connection)
        return connection

    checkpointer = Checkpointer(connect, every=3)
    for _ in range(2):
        checkpointer.committed()
    assert made == []  # No thread before the first checkpoint is due.
    checkpointer.committed()
    deadline = time.monotonic() + 10
    while checkpointer.checkpoints < 1:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    checkpointer.close()
    assert len(made) == 1
    for connection in made:
        connection.close()
