"""Drop-token games in PostgreSQL, shared by any number of service processes and machines.

Same tables and rules as on SQLite (:class:`~connect_four.service.repository.GameStore` holds
them); what differs is how writers are kept apart. Every transaction runs
on a connection from a bounded pool. A move's transaction reads the game's
row ``FOR UPDATE``: the row stays locked until commit, so two requests for
one game, from any processes, take turns, and the second reads the moves
the first stored (READ COMMITTED takes a new snapshot per statement).
Moves of different games never wait for each other. The primary key
``(game_id, move_number)`` would refuse a second move n even so.

Durability: each connection sets ``synchronous_commit`` on, so a commit is
in the server's flushed write-ahead log before the answer is sent; killing
a service process loses nothing acknowledged, and neither does a crash of
the database server.

Faults are never silent: every driver error becomes a
:class:`~connect_four.service.errors.StorageError` (a subclass per fault) after the transaction is
rolled back, by SQLSTATE: disk full, read-only, corrupt data, lock waits
past their time, and the server unreachable (the base class itself).
A connection found broken when its transaction begins is dropped and
another tried, so the service recovers by itself when the server is back.

The schema is versioned (table ``schema_version``); start-up applies the
missing steps of ``_MIGRATIONS`` under an advisory lock, so processes
starting together migrate once.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from .cache import CACHE_WEIGHT
from .database import BUSY_TIMEOUT, Connection, Cursor, friend_games_table, pending_migrations
from .errors import (
    StorageBusyError,
    StorageCommitLostError,
    StorageCorruptError,
    StorageError,
    StorageFullError,
    StorageReadOnlyError,
)
from .redaction import redacted, scrub
from .repository import GameStore

__all__ = ["POOL_SIZE", "PostgresGameStore"]

POOL_SIZE = 16
"""Connections each service process may hold open to the server at most."""

CONNECT_TIMEOUT = 5.0
"""Seconds a request waits for a usable connection before failing with StorageError."""

_MIGRATION_LOCK = 0x43344442  # Any number, the same in every process: "C4DB".

_VERSION_1 = (
    """CREATE TABLE games (
    position BIGSERIAL UNIQUE,       -- creation order, for paging
    game_id TEXT PRIMARY KEY,
    players TEXT NOT NULL,           -- JSON list of names, in turn order
    board_rows INTEGER NOT NULL,
    board_columns INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, -- derived from the moves, for listing
    tokens TEXT                      -- JSON list of SHA-256 hex digests, or NULL
)""",
    """CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    move_number INTEGER NOT NULL,    -- from 0, quits included
    player INTEGER NOT NULL,         -- index into games.players
    column_number INTEGER,           -- NULL: the player quit
    idempotency_key TEXT,            -- the client's Idempotency-Key, or NULL
    PRIMARY KEY (game_id, move_number)
)""",
    "CREATE INDEX games_in_progress ON games (position) WHERE done = 0",
    """CREATE UNIQUE INDEX moves_by_key
    ON moves (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL""",
)


def _version_1(connection: Connection) -> None:
    """The first schema: games and their moves."""
    for statement in _VERSION_1:
        connection.execute(statement)


_MIGRATIONS = (_version_1, friend_games_table)
"""Schema steps in order; a database at version n has had the first n applied."""


def _storage_error(error: psycopg.Error, url: str) -> StorageError:
    """The service error for a driver failure, by its SQLSTATE (none: no connection).

    Its text, for the server's log, names the database with every secret of
    ``url`` masked, in the driver's words too.
    """
    state = error.sqlstate or ""
    kinds: tuple[tuple[tuple[str, ...], type[StorageError]], ...] = (
        (("53100",), StorageFullError),  # disk_full
        (("25006",), StorageReadOnlyError),  # read_only_sql_transaction
        (("XX001", "XX002"), StorageCorruptError),  # data_corrupted, index_corrupted
        (("55P03", "57014", "40001", "40P01"), StorageBusyError),  # lock, timeout, deadlock
    )
    kind = next((kind for states, kind in kinds if state in states), StorageError)
    reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return kind(
        f"the database {redacted(url)} cannot be used ({scrub(reason, url)}); "
        "the request changed nothing"
    )


@functools.lru_cache(maxsize=256)
def _placeholders(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (no statement has a literal ? or %)."""
    return sql.replace("?", "%s")


class _Connection:
    """A psycopg connection taking the store's ``?`` placeholders."""

    __slots__ = ("connection",)

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        return self.connection.execute(_placeholders(sql), parameters, prepare=None)


class PostgresGameStore(GameStore):
    """Drop-token games in the PostgreSQL database at ``url``, safe to share between threads.

    ``read_only`` serves the games but refuses every write with
    :class:`~connect_four.service.errors.StorageReadOnlyError`. ``pool_size`` bounds this
    process's connections.

    Raises:
        StorageError: the server cannot be reached, or the schema cannot be
            set up (its subclass names why).
    """

    # Games are numbered by their own column; a write locks only its game's row.
    _SELECT_IN_PROGRESS = "SELECT game_id FROM games WHERE done = 0 ORDER BY position"
    _SELECT_IN_PROGRESS_PAGE = (
        "SELECT position, game_id FROM games WHERE done = 0 AND position > ?"
        " ORDER BY position LIMIT ?"
    )
    _SELECT_GAME_TO_WRITE = GameStore._SELECT_GAME + " FOR UPDATE"

    def __init__(
        self,
        url: str,
        *,
        read_only: bool = False,
        cache_weight: int = CACHE_WEIGHT,
        pool_size: int = POOL_SIZE,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        super().__init__(cache_weight=cache_weight)
        self.url = url
        self.where = redacted(url)
        self.read_only = read_only
        try:
            # One connection of its own first: it sets the schema up, and if
            # the server cannot be reached, its error says why.
            with psycopg.connect(url, **self._connect_options(connect_timeout)) as connection:
                self._configure(connection)
                self._migrate(connection)
        except psycopg.Error as error:
            raise _storage_error(error, url) from error
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            timeout=connect_timeout,
            kwargs=self._connect_options(connect_timeout),
            configure=self._configure,
            open=True,
            name="connect-four",
        )

    @staticmethod
    def _connect_options(timeout: float) -> dict[str, Any]:
        # libpq's own connect_timeout counts whole seconds, at least 2.
        return {"autocommit": True, "connect_timeout": max(2, round(timeout))}

    def _configure(self, connection: psycopg.Connection[Any]) -> None:
        """Settings of every new connection: durable commits, bounded lock waits."""
        connection.execute("SET synchronous_commit = on")
        connection.execute(f"SET lock_timeout = {int(BUSY_TIMEOUT * 1000)}")
        if self.read_only:
            connection.execute("SET default_transaction_read_only = on")

    def _migrate(self, connection: psycopg.Connection[Any]) -> None:
        """Bring the schema up to date in one transaction, one process at a time."""
        with connection.transaction():
            connection.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            # Only a database without the table creates it: a read-only
            # connection may start on a database that is up to date.
            (table,) = connection.execute("SELECT to_regclass('schema_version')").fetchone() or (
                None,
            )
            if table is None:
                connection.execute("CREATE TABLE schema_version (version INTEGER)")
            row = connection.execute("SELECT max(version) FROM schema_version").fetchone()
            version = 0 if row is None or row[0] is None else int(row[0])
            steps = pending_migrations(version, _MIGRATIONS, self.where)
            for step in steps:
                step(_Connection(connection))
            if steps:
                connection.execute("DELETE FROM schema_version")
                connection.execute(
                    "INSERT INTO schema_version (version) VALUES (%s)", (len(_MIGRATIONS),)
                )

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """One transaction on a pooled connection; reads see one snapshot.

        Raises:
            StorageError: no connection could be had, or the server failed
                (nothing of the transaction was kept).
        """
        # A read is REPEATABLE READ: the game's row, its move count and its
        # moves come from one snapshot. A write is READ COMMITTED: once it
        # holds the game's row, it sees the moves committed before.
        begin = "BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        try:
            connection = self._begun(begin)
            try:
                yield _Connection(connection)
                try:
                    connection.execute("COMMIT")
                except psycopg.OperationalError as error:
                    if not connection.broken:
                        raise
                    # The server may have committed before the line broke.
                    raise StorageCommitLostError(
                        f"the connection to the database {self.where} broke while "
                        f"committing ({scrub(str(error), self.url)}); the request may or "
                        "may not have been stored"
                    ) from error
            except BaseException:
                if not connection.closed:
                    try:
                        connection.execute("ROLLBACK")
                    except psycopg.Error:
                        connection.close()  # The pool replaces it.
                raise
            finally:
                self._pool.putconn(connection)
        except psycopg.IntegrityError:
            raise  # A broken rule of the schema is a bug, not a storage fault.
        except psycopg.Error as error:
            raise _storage_error(error, self.url) from error

    def _begun(self, begin: str) -> psycopg.Connection[Any]:
        """A pooled connection on which ``begin`` has started a transaction.

        Connections broken while idle in the pool (the server restarted)
        fail at ``begin``, which is harmless to repeat: the pool drops each
        and another is tried. Checking every connection before lending it
        would cost a round trip on every request instead.
        """
        for _ in range(self._pool.max_size):
            connection = self._pool.getconn()
            try:
                connection.execute(begin)
                return connection
            except psycopg.OperationalError:
                self._pool.putconn(connection)  # A broken one is discarded.
                if not connection.broken:
                    raise
        connection = self._pool.getconn()  # The last try: its error is the answer.
        try:
            connection.execute(begin)
        except BaseException:
            self._pool.putconn(connection)
            raise
        return connection

    def close(self) -> None:
        """Close the pool's connections."""
        self._pool.close()
        super().close()
