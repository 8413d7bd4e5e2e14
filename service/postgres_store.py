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

The commonest calls (a move, a quit, a new game, a game's state) are also
made on the event loop, one prepared statement each in autocommit, on
connections of their own (:mod:`~connect_four.service.loop_connections`),
trusting the cached game only as far as the statement checks it: see
:meth:`PostgresGameStore.call_on_loop` and the section "Calls on the
event loop" below.

The schema is versioned (table ``schema_version``); start-up applies the
missing steps of ``_MIGRATIONS`` under an advisory lock, so processes
starting together migrate once.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar, ParamSpec, TypeVar, cast

import psycopg
from psycopg_pool import ConnectionPool

from connect_four.engine import Game, Outcome

from .cache import CACHE_WEIGHT
from .database import (
    BUSY_TIMEOUT,
    INSERT_GAME,
    Connection,
    Cursor,
    chain_length_column,
    friend_games_table,
    pending_migrations,
)
from .errors import (
    StorageBusyError,
    StorageCommitLostError,
    StorageCorruptError,
    StorageError,
    StorageFullError,
    StorageReadOnlyError,
)
from .lobby_store import lobby_tables
from .loop_connections import ConnectionBroken, LoopConnections, Row
from .presence_rows import friend_presence_table
from .rate_counts import ADD_HITS, RATE_TABLE_POSTGRES, READ_WINDOWS, rate_windows
from .records import CONNECT, ClockSetting, CreatedGame, GameRecord, check_game_id
from .redaction import redacted, scrub
from .repository import Apply, Database, GameStatus, GameStore, WouldWaitError, quit_move

__all__ = ["POOL_SIZE", "PostgresGameStore"]

P = ParamSpec("P")
T = TypeVar("T")

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


def _version_2(connection: Connection) -> None:
    """The per-client rate counters shared by the processes (issue 37)."""
    connection.execute(RATE_TABLE_POSTGRES)


_MIGRATIONS = (
    _version_1,
    _version_2,
    friend_games_table,
    lobby_tables("DOUBLE PRECISION"),
    friend_presence_table,
    chain_length_column,
)
"""Schema steps in order; a database at version n has had the first n applied."""


def _text(value: str | float | bool | None) -> bytes | None:
    """A statement's parameter as the server reads it in text (None: NULL)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return b"t" if value else b"f"
    return str(value).encode()


def _move(player: bytes | None, column: bytes | None) -> tuple[int, int | None]:
    """A stored move's row, read as text: its player, and its column (None: a quit)."""
    assert player is not None  # NOT NULL in the schema
    return int(player), None if column is None else int(column)


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


def _numbered(sql: str) -> str:
    """The store's ``?`` placeholders numbered as a prepared statement's (``$1``, ``$2``...)."""
    pieces = sql.split("?")
    return pieces[0] + "".join(f"${number}{piece}" for number, piece in enumerate(pieces[1:], 1))


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
    _SELECT_GAME_TO_WRITE = GameStore._SELECT_GAME + " FOR UPDATE OF g"
    _FOR_UPDATE = " FOR UPDATE"
    _LOCK_POOL = "SELECT pg_advisory_xact_lock(36, hashtext(?))"  # 36: the lobby's issue.

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
        self.pool_size = pool_size
        self.connect_timeout = connect_timeout
        self._loop_pool: LoopConnections | None = None
        self._pool_loop: asyncio.AbstractEventLoop | None = None
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

    def database(self) -> Database:
        """This PostgreSQL database, for the move feed."""
        return Database("postgresql", self.url, self.read_only)

    def close(self) -> None:
        """Close the pools' connections."""
        self._pool.close()
        pool, loop = self._loop_pool, self._pool_loop
        self._loop_pool = None
        if pool is not None and loop is not None and loop.is_running():
            # A store closed from outside its loop (a test): close it there.
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not loop:
                asyncio.run_coroutine_threadsafe(pool.close(), loop).result(timeout=30)
        super().close()

    # --- Calls on the event loop: one statement each ---------------------------
    #
    # A worker thread per call cost more CPU than the call (the hop, and
    # threads queueing for the interpreter lock: see service/README.md),
    # and each statement of a transaction is a round trip. So the commonest
    # calls run on the event loop, on a pool of asynchronous connections in
    # autocommit, each one statement, which is its own transaction: the
    # game's record and replay come from the cache (a record never changes),
    # and the database is asked only what the cache cannot know.

    # Lock the game's row as the full call does (so neither can slip a move
    # between the other's count and insert), then store move n only if the
    # game has n moves and is no game between friends (whose rules, clocks
    # and offers, need the full call's transaction: it has extras). Stored, the answer is one row (-1, NULL, NULL);
    # otherwise (another process moved first, or the key was used) nothing
    # is stored and the answer is the moves from n on, as the statement's
    # snapshot has them (behind a load balancer that spreads one game's
    # requests over the processes, that is the common case).
    # Parameters: game id, move number, player, column, key, game over.
    _APPEND = b"c4_append"
    _INSERT_GAME = b"c4_insert_game"
    _COUNT_MOVES = b"c4_count_moves"
    _MOVES_BETWEEN = b"c4_moves_between"
    _MOVES_FROM = b"c4_moves_from"
    _LOAD = b"c4_load"
    _ADD_HITS = b"c4_add_hits"
    _READ_WINDOWS = b"c4_read_windows"
    _STATEMENTS: ClassVar[dict[bytes, str]] = {
        _APPEND: """WITH game AS (
    SELECT game_id FROM games WHERE game_id = $1 FOR UPDATE
), stored AS (
    INSERT INTO moves (game_id, move_number, player, column_number, idempotency_key)
    SELECT game_id, $2::integer, $3::integer, $4::integer, $5::text FROM game
    WHERE (SELECT coalesce(max(move_number), -1) FROM moves WHERE game_id = $1) = $2::integer - 1
    AND NOT EXISTS (SELECT FROM friend_games WHERE game_id = $1)
    ON CONFLICT DO NOTHING
    RETURNING game_id
), finished AS (
    UPDATE games SET done = 1 WHERE game_id = (SELECT game_id FROM stored) AND $6::boolean
)
SELECT -1, NULL::integer, NULL::integer FROM stored
UNION ALL
SELECT move_number, player, column_number FROM moves
WHERE game_id = $1 AND move_number >= $2::integer AND NOT EXISTS (SELECT FROM stored)""",
        _INSERT_GAME: _numbered(INSERT_GAME),
        _COUNT_MOVES: "SELECT max(move_number),"
        " EXISTS (SELECT FROM friend_games WHERE game_id = $1) FROM moves WHERE game_id = $1",
        _MOVES_BETWEEN: "SELECT player, column_number FROM moves WHERE game_id = $1"
        " AND move_number >= $2 AND move_number < $3 ORDER BY move_number",
        _MOVES_FROM: "SELECT move_number, player, column_number FROM moves WHERE game_id = $1"
        " AND move_number >= $2",
        _LOAD: "SELECT g.players, g.board_rows, g.board_columns, g.tokens, g.chain_length,"
        " m.move_number, m.player, m.column_number"
        " FROM games AS g LEFT JOIN moves AS m ON m.game_id = g.game_id WHERE g.game_id = $1",
        # The rate counters' two calls of every counted request (service/rate_counts.py).
        _ADD_HITS: _numbered(ADD_HITS),
        _READ_WINDOWS: _numbered(READ_WINDOWS),
    }
    """The statements of the calls on the loop, prepared on each of its connections."""

    async def call_on_loop(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``call`` on the loop if it is a move, a quit, a new game or a game's state."""
        on_loop = _ON_LOOP.get(getattr(call, "__func__", None))
        if on_loop is None or getattr(call, "__self__", None) is not self:
            raise WouldWaitError("this call runs in a worker thread")
        return cast(T, await on_loop(self, *args, **kwargs))

    async def close_on_loop(self) -> None:
        """Close the loop's connections, on the loop."""
        pool, self._loop_pool = self._loop_pool, None
        if pool is not None:
            await pool.close()

    def _connections(self) -> LoopConnections:
        """The loop's connections, made on their first use."""
        pool = self._loop_pool
        loop = asyncio.get_running_loop()
        if pool is None:
            if self._pool_loop is not None:
                raise WouldWaitError("the store is closing")
            pool = LoopConnections(
                self._connect_for_loop,
                self._STATEMENTS,
                size=self.pool_size,
                timeout=self.connect_timeout,
            )
            self._loop_pool, self._pool_loop = pool, loop
        elif loop is not self._pool_loop:
            raise WouldWaitError("the store's connections belong to another event loop")
        return pool

    def _connect_for_loop(self) -> psycopg.Connection[Any]:
        """A new connection for the loop, set up as the pool's (in a worker thread)."""
        connection = psycopg.connect(self.url, **self._connect_options(self.connect_timeout))
        try:
            self._configure(connection)
        except BaseException:
            connection.close()
            raise
        return connection

    async def _query(self, statement: bytes, *values: str | float | bool | None) -> list[Row]:
        """The rows of one prepared statement, committed on its own, on a connection of the loop.

        Raises:
            WouldWaitError: the connection broke (the full call, in a
                thread, retries on a good one or answers the fault).
            StorageError: the server failed; the statement changed nothing.
        """
        try:
            return await self._connections().query(statement, [_text(value) for value in values])
        except ConnectionBroken as error:
            raise WouldWaitError("the connection broke") from error
        except psycopg.IntegrityError:
            raise  # A broken rule of the schema is a bug, not a storage fault.
        except psycopg.Error as error:
            raise _storage_error(error, self.where) from error

    async def _create_game_on_loop(
        self,
        *,
        players: list[str],
        rows: int,
        columns: int,
        tokens: bool = False,
        clock: ClockSetting | None = None,
        connect: int = CONNECT,
    ) -> CreatedGame:
        """:meth:`create_game` in one statement (a game with a clock: the full call's two)."""
        if clock is not None:
            raise WouldWaitError("a game between friends: its extras need the full call")
        created, record = self._new_game(players, rows, columns, tokens, connect)
        await self._query(self._INSERT_GAME, *self._game_row(record))
        self._remember_new(record)
        return created

    async def _load_on_loop(self, game_id: str) -> None:
        """Cache ``game_id`` if this process has not: its row and moves, in one statement.

        Raises:
            WouldWaitError: no such game (the full call answers), or its
                moves not all visible yet.
            GameNotFoundError: the text is no game id.
        """
        entry = self._cache.peek(game_id)
        if entry is not None and entry.record is not None and entry.game is not None:
            return
        check_game_id(game_id)
        rows = await self._query(self._LOAD, game_id)
        if not rows:
            raise WouldWaitError("no such game: the full call answers")
        players, board_rows, board_columns, tokens, connect = rows[0][:5]
        assert players is not None and board_rows is not None and board_columns is not None
        assert connect is not None
        record = self._record_of(
            game_id, players, int(board_rows), int(board_columns), tokens, int(connect)
        )
        game = record.new_game()
        moved = [row[5:] for row in rows if row[5] is not None]
        if moved and not self._caught_up_on_loop(game, 0, moved):
            raise WouldWaitError("moves not all visible yet")
        self._remember(record, game)

    async def _read_state_on_loop(self, game_id: str) -> tuple[GameRecord, Outcome | None]:
        """:meth:`read_state` of a cached game: its count of moves, and any it has not seen."""
        status = await self._read_status_on_loop(game_id)
        return status.record, status.outcome

    async def _read_status_on_loop(self, game_id: str) -> GameStatus:
        """:meth:`read_status` of a cached game without extras (a game between friends'
        needs the full call): its count of moves, and any it has not seen."""
        await self._load_on_loop(game_id)
        with self._ready(game_id) as (entry, record, game):
            ((last, extras),) = await self._query(self._COUNT_MOVES, game_id)
            if extras == b"t":
                raise WouldWaitError("a game between friends: its extras need the full call")
            count = 0 if last is None else int(last) + 1
            if count < len(game):
                raise WouldWaitError("the cached game is ahead: replay it")
            if count > len(game):
                # Stored moves never change: these are the ones counted.
                rows = await self._query(self._MOVES_BETWEEN, game_id, len(game), count)
                self._catch_up(game, [_move(player, column) for player, column in rows])
                self._cache.weigh(game_id, entry)
            return GameStatus(record, game.outcome(), moves=len(game), to_move=game.to_move)

    async def _play_on_loop(
        self,
        *,
        game_id: str,
        player_id: str,
        column: int,
        token: str | None = None,
        key: str | None = None,
    ) -> int:
        """:meth:`play` in one statement, if the cached game is the stored one."""
        return await self._append_on_loop(
            game_id, player_id, token, key, lambda game, player: game.play(column, player)
        )

    async def _quit_on_loop(
        self, *, game_id: str, player_id: str, token: str | None = None, key: str | None = None
    ) -> int:
        """:meth:`quit` in one statement, if the cached game is the stored one."""
        return await self._append_on_loop(game_id, player_id, token, key, quit_move)

    async def _append_on_loop(
        self, game_id: str, player_id: str, token: str | None, key: str | None, apply: Apply
    ) -> int:
        """Play the move on the cached game, then store it if the database has no other.

        Raises:
            WouldWaitError: the game is not cached or in use, the cached game
                refuses the move, or the database holds more moves (or the
                key): nothing was stored, and the cached game is as before.
        """
        await self._load_on_loop(game_id)
        with self._ready(game_id) as (entry, record, game):
            # Twice at most: once on the cached game, once more on it caught
            # up with the moves stored since (behind a load balancer that
            # spreads a game's requests over the processes, the common case).
            for attempt in range(2):
                number = len(game)
                try:
                    move = self._move_ahead(record, game, player_id, token, apply)
                except WouldWaitError:
                    if attempt or not self._caught_up_on_loop(
                        game, number, await self._query(self._MOVES_FROM, game_id, number)
                    ):
                        raise  # Refused on the stored moves: the full call says why.
                    self._cache.weigh(game_id, entry)
                    continue
                try:
                    rows = await self._query(
                        self._APPEND, game_id, number, move.player, move.column, key, game.is_over()
                    )
                except BaseException:
                    # Perhaps stored after all (a broken line): the cached game
                    # may fall behind, which the next call catches up, never ahead.
                    game.pop()
                    raise
                if rows == [(b"-1", None, None)]:
                    self._cache.weigh(game_id, entry)
                    if self.friend_moved is not None:
                        self.friend_moved(game_id, move.player)
                    return number
                game.pop()
                if not self._caught_up_on_loop(game, number, rows):
                    # No move came first (the key was used), or not all are
                    # visible yet: the full call judges.
                    raise WouldWaitError("the database holds the key, or moves not seen")
                self._cache.weigh(game_id, entry)
            raise WouldWaitError("other processes moved first twice")

    async def _add_rate_hits_on_loop(
        self, key: str, window: int, amount: int, limit: int, weight: float, expires: float
    ) -> int | None:
        """:meth:`add_rate_hits` on the loop (one statement, as in a thread)."""
        rows = await self._query(
            self._ADD_HITS, key, window, amount, limit + 1, weight, expires, weight, limit + 1
        )
        return int(rows[0][0] or b"0") if rows else None

    async def _rate_windows_on_loop(self, key: str, window: int) -> tuple[int, int]:
        """:meth:`rate_windows` on the loop."""
        rows = await self._query(self._READ_WINDOWS, key, window, window)
        return rate_windows(window, ((int(n or b"0"), int(h or b"0")) for n, h in rows))

    def _caught_up_on_loop(self, game: Game, number: int, rows: list[Row]) -> bool:
        """Play the stored moves ``rows`` (number, player, column) from ``number`` on the game.

        False, and the game unchanged, if there are none or they do not
        follow on from ``number`` (moves committed but not yet visible).
        """
        moves = sorted((int(row[0] or b"0"), row[1], row[2]) for row in rows)
        if not moves or [row[0] for row in moves] != list(range(number, number + len(moves))):
            return False
        self._catch_up(game, [_move(player, column) for _, player, column in moves])
        return True


_ON_LOOP: dict[object, Callable[..., Awaitable[Any]]] = {
    GameStore.add_rate_hits: PostgresGameStore._add_rate_hits_on_loop,
    GameStore.rate_windows: PostgresGameStore._rate_windows_on_loop,
    GameStore.play: PostgresGameStore._play_on_loop,
    GameStore.quit: PostgresGameStore._quit_on_loop,
    GameStore.create_game: PostgresGameStore._create_game_on_loop,
    GameStore.read_state: PostgresGameStore._read_state_on_loop,
    GameStore.read_status: PostgresGameStore._read_status_on_loop,
}
"""The calls :meth:`PostgresGameStore.call_on_loop` makes on the loop, by the function called."""
