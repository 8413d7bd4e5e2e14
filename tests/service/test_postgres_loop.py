"""PostgreSQL's calls on the event loop: one statement each, and the full call whenever in doubt.

Two stores on one database stand for two service processes: each caches
the games it used, and the other's moves make that cache fall behind. The
calls are made as the routes make them (:func:`call_store`, on a running
loop), with worker threads counted.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import psycopg
import pytest
from loop_support import run_async

from bench.postgres_cluster import Cluster
from connect_four.engine import NotYourTurnError, Status
from connect_four.service.events import EventHub
from connect_four.service.move_feed import PostgresMoveFeed
from connect_four.service.postgres_store import PostgresGameStore
from connect_four.service.store_calls import call_store

pytestmark = pytest.mark.slow  # a PostgreSQL cluster

T = TypeVar("T")


@pytest.fixture
def url(postgres_cluster: Cluster) -> str:
    # One cluster serves every worker: each worker empties a database of its own.
    return postgres_cluster.empty_database(f"loop_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}")


@pytest.fixture
def stores(url: str) -> Iterator[tuple[PostgresGameStore, PostgresGameStore]]:
    """Two stores on one database: two processes."""
    first, second = PostgresGameStore(url), PostgresGameStore(url)
    yield first, second
    first.close()
    second.close()


def on_loop(*stores: PostgresGameStore) -> Callable[[Coroutine[Any, Any, T]], T]:
    """Run a coroutine to its end (loop_support), then close the stores' connections of its loop."""

    def run(work: Coroutine[Any, Any, T]) -> T:
        async def then_close() -> T:
            try:
                return await work
            finally:
                for store in stores:
                    await store.close_on_loop()

        return run_async(then_close())

    return run


def test_a_game_played_on_one_process_needs_no_worker_thread(
    stores: tuple[PostgresGameStore, PostgresGameStore], threads: list[str]
) -> None:
    store, _ = stores

    async def play() -> tuple[Any, ...]:
        game_id = (
            await call_store(store, store.create_game, players=["a", "b"], rows=4, columns=4)
        ).game_id
        numbers = []
        for player, column in [("a", 0), ("b", 1), ("a", 0), ("b", 1), ("a", 0), ("b", 1)]:
            numbers.append(
                await call_store(
                    store, store.play, game_id=game_id, player_id=player, column=column
                )
            )
        numbers.append(await call_store(store, store.quit, game_id=game_id, player_id="b"))
        _, outcome = await call_store(store, store.read_state, game_id)
        return game_id, numbers, outcome

    game_id, numbers, outcome = on_loop(store)(play())
    assert threads == []
    assert numbers == list(range(7))
    assert outcome is not None and (outcome.status, outcome.winner) == (Status.WON, 0)
    stored = store.read_game(game_id).game
    assert [(move.player, move.column) for move in stored.history][-2:] == [(1, 1), (1, None)]
    assert stored.is_over()
    assert store.in_progress_game_ids() == []  # The finishing move set games.done.


def test_a_move_made_elsewhere_first_is_seen_before_the_next_is_judged(
    stores: tuple[PostgresGameStore, PostgresGameStore], threads: list[str]
) -> None:
    first, second = stores

    async def race() -> tuple[str, list[int]]:
        created = await call_store(first, first.create_game, players=["a", "b"], rows=4, columns=4)
        game_id = created.game_id
        # The other process moves: this one's cached game is now behind, and
        # would take a's move as move 0 again; the statement stores nothing.
        second.play(game_id=game_id, player_id="a", column=3)
        with pytest.raises(NotYourTurnError):
            await call_store(first, first.play, game_id=game_id, player_id="a", column=0)
        numbers = [await call_store(first, first.play, game_id=game_id, player_id="b", column=1)]
        # Behind again; reading the state catches the cached game up, on the loop.
        second.play(game_id=game_id, player_id="a", column=2)
        await call_store(first, first.read_state, game_id)
        numbers.append(
            await call_store(first, first.play, game_id=game_id, player_id="b", column=1)
        )
        return game_id, numbers

    game_id, numbers = on_loop(first)(race())
    assert numbers == [1, 3]
    # Only the refused move went to the full call, in a thread.
    assert threads == ["play"]
    history = second.read_game(game_id).game.history
    assert [(move.player, move.column) for move in history] == [(0, 3), (1, 1), (0, 2), (1, 1)]


def test_a_game_whose_requests_alternate_between_two_processes_needs_no_worker_thread(
    stores: tuple[PostgresGameStore, PostgresGameStore], threads: list[str]
) -> None:
    """As behind a round-robin proxy: each move finds its process's cached game one behind."""
    first, second = stores

    async def alternate() -> tuple[str, list[int]]:
        created = await call_store(first, first.create_game, players=["a", "b"], rows=4, columns=4)
        game_id, numbers = created.game_id, []
        for number, (player, column) in enumerate([("a", 0), ("b", 1), ("a", 0), ("b", 1)]):
            store = (first, second)[number % 2]
            numbers.append(
                await call_store(
                    store, store.play, game_id=game_id, player_id=player, column=column
                )
            )
        await call_store(second, second.read_state, game_id)
        return game_id, numbers

    game_id, numbers = on_loop(first, second)(alternate())
    assert numbers == [0, 1, 2, 3]
    assert threads == []
    history = first.read_game(game_id).game.history
    assert [(move.player, move.column) for move in history] == [(0, 0), (1, 1), (0, 0), (1, 1)]


def test_a_retried_idempotency_key_is_answered_by_the_full_call(
    stores: tuple[PostgresGameStore, PostgresGameStore],
) -> None:
    store, _ = stores

    async def retry() -> list[int]:
        game_id = (
            await call_store(store, store.create_game, players=["a", "b"], rows=4, columns=4)
        ).game_id
        sent = {"game_id": game_id, "player_id": "a", "column": 2, "key": "k1"}
        return [await call_store(store, store.play, **sent) for _ in range(2)]

    assert on_loop(store)(retry()) == [0, 0]


def test_the_move_trigger_of_earlier_versions_is_removed(url: str) -> None:
    store = PostgresGameStore(url)
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(
            "CREATE FUNCTION drop_token_move_notify() RETURNS trigger LANGUAGE plpgsql AS"
            " $$ BEGIN PERFORM pg_notify('drop_token_moves', NEW.game_id); RETURN NULL; END $$"
        )
        connection.execute(
            "CREATE TRIGGER moves_notify AFTER INSERT ON moves"
            " FOR EACH ROW EXECUTE FUNCTION drop_token_move_notify()"
        )

    async def start_and_stop() -> None:
        hub = EventHub()
        hub.bind(asyncio.get_running_loop())
        feed = PostgresMoveFeed(url, hub)
        await feed.start()
        await feed.stop()

    run_async(start_and_stop())
    store.close()
    with psycopg.connect(url, autocommit=True) as connection:
        triggers = connection.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        assert triggers.fetchall() == []


def test_statements_beyond_the_connections_wait_their_turn_then_time_out(url: str) -> None:
    from connect_four.service.loop_connections import LoopConnections

    def connect() -> psycopg.Connection[Any]:
        return psycopg.connect(url, autocommit=True)

    statements = {b"nap": "SELECT pg_sleep($1::float), $2::text"}

    async def use() -> tuple[list[Any], str]:
        connections = LoopConnections(connect, statements, size=1, timeout=30)
        try:
            # Three at once on one connection: each waits for the one before.
            answers = await asyncio.gather(
                *(connections.query(b"nap", [b"0.05", name]) for name in (b"a", b"b", b"c"))
            )
            impatient = LoopConnections(connect, statements, size=1, timeout=0.2)
            held = asyncio.ensure_future(impatient.query(b"nap", [b"2", b"held"]))
            await asyncio.sleep(0)  # The first takes the one connection.
            try:
                await impatient.query(b"nap", [b"0", b"late"])
                refused = ""
            except psycopg.OperationalError as error:
                refused = str(error)
            await held
            await impatient.close()
            return answers, refused
        finally:
            await connections.close()

    answers, refused = run_async(use())
    assert [rows[0][1] for rows in answers] == [b"a", b"b", b"c"]
    assert "couldn't get a connection after 0.20 sec" in refused
