"""Drop-token games in one SQLite file: the service's default database.

Each move is one ``BEGIN IMMEDIATE`` transaction: take the write lock,
read how many moves there are, let the engine validate the new one, insert
it, commit. Writers are serialised, so two requests can never both append
move n. The database runs in WAL mode with ``synchronous=NORMAL``: a commit
reaches the operating system before the response is sent, so killing the
process loses no acknowledged move (a power cut may lose the last few).

Storage faults are never silent. Every SQLite failure becomes a
:class:`~connect_four.service.errors.StorageError` (a subclass per fault) after
the transaction is rolled back, so nothing is acknowledged that was not
committed. Before each transaction the file at the path must still be the
one opened: SQLite would go on writing into a deleted or moved file, which
nobody would ever read again.

The schema is versioned (table ``schema_version``): start-up applies the
steps of ``_MIGRATIONS`` not yet applied, in one transaction.
"""

from __future__ import annotations

import math
import os
import pathlib
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from .cache import CACHE_WEIGHT
from .checkpoints import Checkpointer
from .database import (
    BUSY_TIMEOUT,
    Connection,
    chain_length_column,
    friend_games_table,
    pending_migrations,
)
from .errors import (
    StorageBusyError,
    StorageCorruptError,
    StorageError,
    StorageFullError,
    StorageMissingError,
    StorageReadOnlyError,
    StorageReplacedError,
)
from .lobby_store import lobby_tables
from .presence_rows import friend_presence_table
from .rate_counts import RATE_TABLE_SQLITE
from .repository import Database, GameStore, WouldWaitError

__all__ = ["PAGE_SIZE", "TRANSACTION_PAGES", "SqliteGameStore", "disk_bound"]

PAGE_SIZE = 4096
"""Bytes of a database page (SQLite's default, which the service keeps)."""

TRANSACTION_PAGES = 16
"""The most pages one of the store's write transactions changes (a move: its row, the
indexes, the game's row; some 3 to 6), so the most log frames it adds."""

_FRAME = PAGE_SIZE + 24
"""Bytes of one page in the write-ahead log (its frame header included)."""


def disk_bound(max_pages: int) -> int:
    """The most bytes a store capped at ``max_pages`` keeps on disk: file, log and log index.

    The file holds at most ``max_pages`` pages; the log at most as many
    frames, or one transaction's (a write that could take it beyond waits
    for a checkpoint to empty it); its index (``-shm``) 32 KiB per 4,096
    frames.

    >>> disk_bound(40)
    361440
    """
    frames = max(max_pages, TRANSACTION_PAGES)
    return max_pages * PAGE_SIZE + 32 + frames * _FRAME + 32 * 1024 * math.ceil(frames / 4096)


_TABLES = (
    """CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    players TEXT NOT NULL,          -- JSON list of names, in turn order
    board_rows INTEGER NOT NULL,
    board_columns INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, -- derived from the moves, for listing
    tokens TEXT                     -- JSON list of SHA-256 hex digests, or NULL
)""",
    """CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    move_number INTEGER NOT NULL,   -- from 0, quits included
    player INTEGER NOT NULL,        -- index into games.players
    column_number INTEGER,          -- NULL: the player quit
    idempotency_key TEXT,           -- the client's Idempotency-Key, or NULL
    PRIMARY KEY (game_id, move_number)
) WITHOUT ROWID""",
    "CREATE INDEX IF NOT EXISTS games_by_done ON games (done)",
)

# Columns added before the schema had a version: a database made then gets them.
_ADDED_COLUMNS = (("games", "tokens", "TEXT"), ("moves", "idempotency_key", "TEXT"))

_KEY_INDEX = """
CREATE UNIQUE INDEX IF NOT EXISTS moves_by_key
    ON moves (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL
"""


def _version_1(connection: Connection) -> None:
    """The schema of issue 9, made or completed (databases older than versioning included)."""
    for statement in _TABLES:
        connection.execute(statement)
    for table, column, kind in _ADDED_COLUMNS:
        known = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if column not in known:
            connection.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    connection.execute(_KEY_INDEX)


def _version_2(connection: Connection) -> None:
    """The per-client rate counters shared by the processes (issue 37)."""
    connection.execute(RATE_TABLE_SQLITE)


_MOVE_LOG = "CREATE TABLE IF NOT EXISTS move_log (seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL)"
"""The move feed's log (service/move_feed.py makes it too, with its trigger on moves): the
lobby's changes are logged there for the other processes."""

MOVE_LOG_ROWS = 4096
"""Rows ``move_log`` keeps (move_feed.LOG_ROWS: the feed's trigger trims it as much)."""


def _version_4(connection: Connection) -> None:
    """The lobby (issue 36): players, ratings, seeks, pairings, lobby games; the feed's log."""
    lobby_tables("REAL")(connection)
    connection.execute(_MOVE_LOG)


_MIGRATIONS = (
    _version_1,
    _version_2,
    friend_games_table,
    _version_4,
    friend_presence_table,
    chain_length_column,
)
"""Schema steps in order; a database at version n has had the first n applied."""


def _storage_error(error: sqlite3.Error, path: str) -> StorageError:
    """The service error for an SQLite failure, by SQLite's own error name."""
    name = getattr(error, "sqlite_errorname", "") or ""
    kinds: tuple[tuple[tuple[str, ...], type[StorageError]], ...] = (
        (("SQLITE_FULL",), StorageFullError),
        (("SQLITE_READONLY",), StorageReadOnlyError),
        (("SQLITE_CORRUPT", "SQLITE_NOTADB"), StorageCorruptError),
        (("SQLITE_BUSY", "SQLITE_LOCKED"), StorageBusyError),
    )
    kind = next((kind for prefixes, kind in kinds if name.startswith(prefixes)), StorageError)
    return kind(f"the database {path} cannot be used ({error}); the request changed nothing")


def _busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` says a lock is held by another connection (SQLITE_BUSY or _LOCKED)."""
    name = getattr(error, "sqlite_errorname", "") or ""
    return name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


class SqliteGameStore(GameStore):
    """Drop-token games in one SQLite file, safe to share between threads.

    Each thread gets its own connection, opened on first use.
    ``max_pages``, when given, caps the database at that many pages (an
    operator's size limit; writes beyond it raise
    :class:`~connect_four.service.errors.StorageFullError`). ``read_only`` serves the
    games but refuses every write with
    :class:`~connect_four.service.errors.StorageReadOnlyError` (for backups and maintenance).

    Raises:
        StorageError: the file cannot be opened as a database (its subclass
            names why: corrupt, read-only...).
    """

    # A call is a few statements in this process, some tens of microseconds.
    quick = True

    def _lobby_news(self, connection: Connection, keys: Iterable[str]) -> None:
        """Log the lobby's feeds changed in ``move_log``: the other processes' feeds read it."""
        for key in keys:
            connection.execute("INSERT INTO move_log (game_id) VALUES (?)", (key,))
        connection.execute(
            "DELETE FROM move_log WHERE seq <= (SELECT max(seq) FROM move_log) - ?",
            (MOVE_LOG_ROWS,),
        )

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_pages: int | None = None,
        read_only: bool = False,
        cache_weight: int = CACHE_WEIGHT,
    ) -> None:
        self.path = os.fspath(path)
        self.max_pages = max_pages
        self.read_only = read_only
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # Writers of this process queue here rather than in SQLite's busy
        # handler, which sleeps up to 100 ms at a time between tries.
        self._write_lock = threading.Lock()
        # Checkpoints wait for the disk: a thread of their own makes them.
        # Under a cap, each empties the log's file (TRUNCATE), as often as
        # the log passes half the cap (_watch_log).
        self._checkpoints = Checkpointer(
            self._connection,
            mode="PASSIVE" if max_pages is None else "TRUNCATE",
        )
        self._log = f"{self.path}-wal"
        super().__init__(cache_weight=cache_weight)
        self._opened = False  # Until the file is made and set up.
        try:
            connection = self._connection()
            connection.execute("PRAGMA journal_mode=WAL")
            self._migrate(connection)
            if read_only:
                connection.execute("PRAGMA query_only=ON")
        except sqlite3.DatabaseError as error:
            self.close()
            raise _storage_error(error, self.path) from error
        except BaseException:
            self.close()
            raise
        status = os.stat(self.path)
        self._identity = (status.st_dev, status.st_ino)
        self._opened = True

    # --- Connections and transactions -------------------------------------

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            # Only the store's first connection may create the file: a later
            # one must never make an empty database where the file went missing.
            mode = "rw" if self._opened else "rwc"
            uri = f"{pathlib.Path(self.path).resolve().as_uri()}?mode={mode}"
            # Autocommit mode: transactions are the explicit BEGINs below.
            connection = sqlite3.connect(
                uri,
                uri=True,
                timeout=BUSY_TIMEOUT,
                isolation_level=None,
                check_same_thread=False,
            )
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA wal_autocheckpoint=0")  # The Checkpointer's job.
            connection.execute("PRAGMA foreign_keys=ON")
            if self.max_pages is not None:
                connection.execute(f"PRAGMA max_page_count={int(self.max_pages)}")
                # A log that starts over is cut to nothing: its file's size is its content.
                connection.execute("PRAGMA journal_size_limit=0")
            if self.read_only and self._opened:  # The first is set up in __init__.
                connection.execute("PRAGMA query_only=ON")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    def _drop_connection(self) -> None:
        """Close this thread's connection after a fault; the next use opens a new one."""
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        self._local.connection = None
        self._local.patient = True  # A new connection waits, as sqlite3.connect sets it.
        if connection is not None:
            with self._lock:
                if connection in self._connections:
                    self._connections.remove(connection)
            try:
                connection.close()
            except sqlite3.Error:
                pass

    def _check_file(self) -> None:
        """Refuse to go on unless the file at the path is the one this store opened.

        Raises:
            StorageMissingError: nothing is at the path any more.
            StorageReplacedError: another file is.
        """
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            raise StorageMissingError(
                f"the database file {self.path} is gone (deleted or moved away); "
                "the request changed nothing"
            ) from None
        except OSError as error:
            raise StorageError(
                f"the database file {self.path} cannot be reached ({error}); "
                "the request changed nothing"
            ) from None
        if (status.st_dev, status.st_ino) != self._identity:
            raise StorageReplacedError(
                f"the database file {self.path} was replaced by another file; the request "
                "changed nothing (restart the service to serve the new file)"
            )

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[sqlite3.Connection]:
        """One transaction; a write takes the database's write lock at once (IMMEDIATE).

        Raises:
            StorageError: the file is not the one opened, or SQLite failed
                (nothing of the transaction was kept).
        """
        self._check_file()
        mode = "IMMEDIATE" if write else "DEFERRED"
        if write:
            self._acquire(self._write_lock)
        try:
            if write:
                self._watch_log(before=True)
            try:
                connection = self._connection()
                self._set_patience(connection)
                connection.execute(f"BEGIN {mode}")
            except sqlite3.DatabaseError as error:
                if _busy(error) and not self._may_wait():
                    raise WouldWaitError(str(error)) from error
                self._drop_connection()
                raise _storage_error(error, self.path) from error
            yield from self._run(connection)
        finally:
            if write:
                self._write_lock.release()
        if write:
            self._checkpoints.committed()
            self._watch_log(before=False)

    def _watch_log(self, *, before: bool) -> None:
        """Under a cap, keep the write-ahead log within it (a stat of its file per write).

        Past half the cap, a checkpoint is asked for at once. ``before`` a
        write, a log that one more transaction could take past the cap holds
        the write until a checkpoint has emptied it: a write that may not
        wait (on the event loop) is made again in a thread, and one that
        waited the busy timeout in vain is refused.

        Raises:
            WouldWaitError: the write must wait and this thread may not.
            StorageFullError: the log stayed full for the busy timeout.
        """
        if self.max_pages is None:
            return
        deadline = time.monotonic() + BUSY_TIMEOUT
        while True:
            attempts = self._checkpoints.attempts
            frames = self._log_frames()
            # An empty log always takes a write, however small the cap.
            full = frames > 0 and frames + TRANSACTION_PAGES > self.max_pages
            if full or frames > self.max_pages // 2:
                self._checkpoints.urge()
            if not before or not full:
                return
            if not self._may_wait():
                raise WouldWaitError("the write-ahead log is full")
            left = deadline - time.monotonic()
            if left <= 0 or not self._checkpoints.wait_past(attempts, left):
                raise StorageFullError(
                    f"the write-ahead log of {self.path} holds {frames} pages, the cap of "
                    f"--max-db-pages {self.max_pages} with a write, and no checkpoint emptied "
                    f"it within {BUSY_TIMEOUT:g} s; the request changed nothing"
                )

    def _log_frames(self) -> int:
        """Pages in the write-ahead log's file now (0 without a file)."""
        try:
            return max(0, os.stat(self._log).st_size - 32) // _FRAME
        except FileNotFoundError:
            return 0

    def _set_patience(self, connection: sqlite3.Connection) -> None:
        """Let this thread's connection wait for other processes' locks unless it may not wait.

        Without waiting, SQLite's busy handler is off (``busy_timeout`` 0): a
        lock held elsewhere is SQLITE_BUSY at once, which :meth:`_transaction`
        turns into WouldWaitError. Set only when it changes.
        """
        patient = self._may_wait()
        if getattr(self._local, "patient", True) != patient:
            milliseconds = int(BUSY_TIMEOUT * 1000) if patient else 0
            connection.execute(f"PRAGMA busy_timeout={milliseconds}")
            self._local.patient = patient

    def _run(self, connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """The body of :meth:`_transaction` once it has begun: commit, or roll back and map."""
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException as error:
            try:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
            except sqlite3.Error:
                self._drop_connection()
            if isinstance(error, sqlite3.DatabaseError) and not isinstance(
                error, sqlite3.IntegrityError
            ):
                if _busy(error) and not self._may_wait():
                    raise WouldWaitError(str(error)) from error
                self._drop_connection()
                raise _storage_error(error, self.path) from error
            raise

    def _migrate(self, connection: sqlite3.Connection) -> None:
        """Bring the schema up to date in one transaction, and record its version."""
        connection.execute("BEGIN IMMEDIATE")
        try:
            connection.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            row = connection.execute("SELECT max(version) FROM schema_version").fetchone()
            version = row[0] or 0
            steps = pending_migrations(version, _MIGRATIONS, self.path)
            for step in steps:
                step(connection)
            if steps:
                connection.execute("DELETE FROM schema_version")
                connection.execute(
                    "INSERT INTO schema_version (version) VALUES (?)", (len(_MIGRATIONS),)
                )
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise

    def database(self) -> Database:
        """This SQLite file, for the move feed."""
        return Database("sqlite", self.path, self.read_only)

    def close(self) -> None:
        """Close every connection the store opened (its checkpoints' thread first)."""
        self._checkpoints.close()
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()
        super().close()
