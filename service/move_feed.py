"""Moves stored by other service processes, told to this process's :class:`~connect_four.service.events.EventHub`.

A move stored by this process wakes its waiters directly; these feeds
carry the moves of the others, one feed per process, at a bounded cost:

- **PostgreSQL**: a trigger on ``moves`` calls ``pg_notify`` in the move's
  own transaction, so the notice leaves exactly when the move is committed
  (never for a move rolled back). Each process keeps one connection that
  ``LISTEN``\\ s, in its event loop; each notice wakes the waiters of its
  game. When that connection breaks, the feed reconnects and wakes every
  waiter, since notices sent meanwhile are lost.
- **SQLite**: a trigger on ``moves`` appends the game's id to a small
  table ``move_log`` (its last :data:`LOG_ROWS` rows are kept). A thread
  per process asks SQLite every :data:`POLL_INTERVAL` seconds whether
  anyone committed (``PRAGMA data_version``, which reads no table), and
  only then reads the new rows of ``move_log`` and wakes those games.
  Idle, that is some 40 cheap statements a second per process.

The triggers are installed at start-up when missing (they leave the
store's own tables and schema version alone). A read-only SQLite service
installs nothing; without ``move_log`` its feed wakes every waiter at each
commit instead.
"""

from __future__ import annotations

import asyncio
import logging
import pathlib
import sqlite3
import threading
from typing import Any, Protocol

from .database import BUSY_TIMEOUT
from .events import EventHub
from .repository import GameStore

__all__ = [
    "CHANNEL",
    "LOG_ROWS",
    "POLL_INTERVAL",
    "MoveFeed",
    "PostgresMoveFeed",
    "SqliteMoveFeed",
    "open_feed",
]

POLL_INTERVAL = 0.025
"""Seconds between two looks at an SQLite database for moves of other processes."""

LOG_ROWS = 4096
"""Rows ``move_log`` keeps: a process that falls further behind wakes all its waiters."""

CHANNEL = "drop_token_moves"
"""The PostgreSQL notification channel; each notice's payload is a game id."""

RECONNECT_PAUSE = 1.0
"""Seconds between two tries to get the PostgreSQL listener connection back."""

_log = logging.getLogger("connect_four.service.move_feed")


class MoveFeed(Protocol):
    """Tells the hub about moves of other processes while started."""

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class _NoFeed:
    """A store this process alone writes (a test's stand-in): its own notices suffice."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        return None


def open_feed(store: GameStore, hub: EventHub) -> MoveFeed:
    """The feed for ``store``'s database: LISTEN on PostgreSQL, a polled log on SQLite."""
    url = getattr(store, "url", None)
    if isinstance(url, str):
        return PostgresMoveFeed(url, hub, read_only=bool(getattr(store, "read_only", False)))
    path = getattr(store, "path", None)
    if isinstance(path, str):
        return SqliteMoveFeed(path, hub, read_only=bool(getattr(store, "read_only", False)))
    return _NoFeed()


# --- SQLite -------------------------------------------------------------------

_SQLITE_LOG = (
    "CREATE TABLE IF NOT EXISTS move_log (seq INTEGER PRIMARY KEY, game_id TEXT NOT NULL)",
    # LOG_ROWS is this module's constant, no input.
    f"""CREATE TRIGGER IF NOT EXISTS move_log_append AFTER INSERT ON moves BEGIN
    INSERT INTO move_log (game_id) VALUES (NEW.game_id);
    DELETE FROM move_log WHERE seq <= (SELECT max(seq) FROM move_log) - {LOG_ROWS};
END""",  # noqa: S608
)


class SqliteMoveFeed:
    """A thread that wakes the games other processes moved in, read from ``move_log``."""

    def __init__(
        self,
        path: str,
        hub: EventHub,
        *,
        read_only: bool = False,
        interval: float = POLL_INTERVAL,
    ) -> None:
        self.path = path
        self.hub = hub
        self.read_only = read_only
        self.interval = interval
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._connection: sqlite3.Connection | None = None
        self._version: int | None = None
        self._seq: int | None = None  # None: no move_log; every change wakes everyone.

    async def start(self) -> None:
        """Install the log where missing, note where it ends, and start polling."""
        await asyncio.to_thread(self._open)
        self._thread = threading.Thread(target=self._run, name="move-feed", daemon=True)
        self._thread.start()

    async def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)
        if self._connection is not None:
            self._connection.close()

    def _open(self) -> None:
        uri = f"{pathlib.Path(self.path).resolve().as_uri()}?mode=rw"
        connection = sqlite3.connect(
            uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
        self._connection = connection
        if not self.read_only:
            connection.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SQLITE_LOG:
                    connection.execute(statement)
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        self._version = self._data_version(connection)
        exists = connection.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'move_log'"
        ).fetchone()
        if exists:
            (last,) = connection.execute("SELECT max(seq) FROM move_log").fetchone()
            self._seq = last or 0

    @staticmethod
    def _data_version(connection: sqlite3.Connection) -> int:
        (version,) = connection.execute("PRAGMA data_version").fetchone()
        return int(version)

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            try:
                self.poll()
            except sqlite3.Error as error:
                # The file is being repaired, replaced...: the waiters read it
                # again and answer its fault themselves.
                _log.warning("move feed: %s", error)
                self.hub.notify_all()

    def poll(self) -> None:
        """Wake the games moved in since the last poll (nothing to read if nobody committed)."""
        connection = self._connection
        assert connection is not None
        version = self._data_version(connection)
        if version == self._version:
            return
        self._version = version
        if self._seq is None:
            self.hub.notify_all()
            return
        # Nobody to wake: only note where the log ends, read before asking
        # (a request registered after the question reads these moves itself).
        (last,) = connection.execute("SELECT max(seq) FROM move_log").fetchone()
        if not self.hub.watching:
            self._seq = last or 0
            return
        rows = connection.execute(
            "SELECT seq, game_id FROM move_log WHERE seq > ? ORDER BY seq", (self._seq,)
        ).fetchall()
        if not rows:
            return
        if rows[0][0] != self._seq + 1:
            self.hub.notify_all()  # Rows we never read were dropped: we fell behind.
        else:
            self.hub.notify_many(game_id for _, game_id in rows)
        self._seq = rows[-1][0]


# --- PostgreSQL ---------------------------------------------------------------

_TRIGGER_LOCK = 0x43344E54  # Any number, the same in every process: "C4NT".

_POSTGRES_NOTIFY = (
    f"""CREATE OR REPLACE FUNCTION drop_token_move_notify() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('{CHANNEL}', NEW.game_id);
    RETURN NULL;
END $$""",
    """CREATE TRIGGER moves_notify AFTER INSERT ON moves
    FOR EACH ROW EXECUTE FUNCTION drop_token_move_notify()""",
)


class PostgresMoveFeed:
    """One LISTENing connection in the event loop; each notice wakes its game."""

    def __init__(self, url: str, hub: EventHub, *, read_only: bool = False) -> None:
        self.url = url
        self.hub = hub
        self.read_only = read_only
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    async def start(self) -> None:
        """Install the trigger where missing, then listen (until :meth:`stop`)."""
        if not self.read_only:
            await asyncio.to_thread(self._install)
        self._task = asyncio.create_task(self._listen())
        # Up to a few seconds for the first LISTEN: a move right after
        # start-up should not be missed by a process that just started.
        try:
            await asyncio.wait_for(self._listening.wait(), timeout=5)
        except TimeoutError:
            _log.warning("move feed: not listening yet; retrying in the background")

    def _install(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            with connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (_TRIGGER_LOCK,))
                present = connection.execute(
                    "SELECT 1 FROM pg_trigger WHERE tgname = 'moves_notify'"
                    " AND tgrelid = 'moves'::regclass"
                ).fetchone()
                if present is None:
                    for statement in _POSTGRES_NOTIFY:
                        connection.execute(statement)

    async def _listen(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                connection: Any = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    if not first:
                        self.hub.wake_all()  # Notices sent while away are lost.
                    first = False
                    async for notice in connection.notifies():
                        self.hub.wake(notice.payload)
            except psycopg.Error as error:
                _log.warning("move feed: %s; listening again in %g s", error, RECONNECT_PAUSE)
                first = False
                self.hub.wake_all()
                await asyncio.sleep(RECONNECT_PAUSE)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
