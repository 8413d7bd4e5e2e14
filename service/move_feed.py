"""Moves stored by other service processes, told to this process's :class:`~connect_four.service.events.EventHub`.

A move stored by this process wakes its waiters directly; these feeds
carry the moves of the others, one feed per process, at a bounded cost:

- **PostgreSQL**: each process sends ``NOTIFY`` for the games it moved in,
  right after each move's commit, batched (:class:`PostgresMoveFeed`),
  and keeps one connection that ``LISTEN``\\ s, in its event loop; each
  notice wakes the waiters of its game. When that connection breaks, the
  feed reconnects and wakes every waiter, since notices sent meanwhile
  are lost.
- **SQLite**: a trigger on ``moves`` appends the game's id to a small
  table ``move_log`` (its last :data:`LOG_ROWS` rows are kept). A thread
  per process asks SQLite every :data:`POLL_INTERVAL` seconds whether
  anyone committed (``PRAGMA data_version``, which reads no table), and
  only then reads the new rows of ``move_log`` and wakes those games.
  Idle, that is some 40 cheap statements a second per process.

SQLite's trigger is installed at start-up when missing (it leaves the
store's own tables and schema version alone); PostgreSQL's of earlier
versions is removed. A read-only SQLite service
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
    database = store.database()
    if database is None:
        return _NoFeed()
    if database.kind == "postgresql":
        return PostgresMoveFeed(database.where, hub, read_only=database.read_only)
    return SqliteMoveFeed(database.where, hub, read_only=database.read_only)


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

# The trigger of earlier versions, which notified in the move's own
# transaction: PostgreSQL holds one lock over every notifying commit until
# it is flushed to disk, so the moves of all processes were committed one
# flush at a time (half the moves per second at 64 clients, measured).
_OLD_TRIGGER = (
    "DROP TRIGGER IF EXISTS moves_notify ON moves",
    "DROP FUNCTION IF EXISTS drop_token_move_notify()",
)

# CHANNEL is this module's constant, no input.
_NOTIFY = f"SELECT pg_notify('{CHANNEL}', game_id) FROM unnest(%s::text[]) AS game_id"  # noqa: S608


class PostgresMoveFeed:
    """Tells the other processes of this process's moves, and this process of theirs.

    Two connections in the event loop: one ``LISTEN``\\ s (each notice
    wakes its game's waiters), one sends ``NOTIFY`` for the games this
    process moved in (:meth:`publish`, from the hub), batched: the games
    moved in while one batch was being sent go out in the next, so a notice
    costs one statement whatever the rate of moves. A notice leaves right
    after its move's commit, in a transaction of its own that writes
    nothing to wait for; a process killed in between loses the notices
    of its last moves (waiters elsewhere then answer when their wait ends).
    """

    def __init__(self, url: str, hub: EventHub, *, read_only: bool = False) -> None:
        self.url = url
        self.hub = hub
        self.read_only = read_only
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self._sender_pid: int | None = None  # Our own notices need not wake us again.
        self._outbox: set[str] = set()
        self._outbox_filled = asyncio.Event()
        self._stopping = False

    async def start(self) -> None:
        """Take the old trigger away, then publish and listen (until :meth:`stop`)."""
        if not self.read_only:
            await asyncio.to_thread(self._remove_old_trigger)
            self._sender = asyncio.create_task(self._send())
            self.hub.publish_to(self.publish)
        self._task = asyncio.create_task(self._listen())
        # Up to a few seconds for the first LISTEN: a move right after
        # start-up should not be missed by a process that just started.
        try:
            await asyncio.wait_for(self._listening.wait(), timeout=5)
        except TimeoutError:
            _log.warning("move feed: not listening yet; retrying in the background")

    def _remove_old_trigger(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            with connection.transaction():
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (_TRIGGER_LOCK,))
                present = connection.execute(
                    "SELECT 1 FROM pg_trigger WHERE tgname = 'moves_notify'"
                    " AND tgrelid = 'moves'::regclass"
                ).fetchone()
                if present is not None:
                    for statement in _OLD_TRIGGER:
                        connection.execute(statement)

    def publish(self, game_id: str) -> None:
        """Tell the other processes that ``game_id`` changed (on the loop; sent soon after)."""
        self._outbox.add(game_id)
        self._outbox_filled.set()

    async def _send(self) -> None:
        """Send the outbox's games as notices, batch after batch, until stopped and empty."""
        import psycopg

        connection: Any = None
        try:
            while not (self._stopping and not self._outbox):
                await self._outbox_filled.wait()
                self._outbox_filled.clear()
                if not self._outbox:
                    continue
                batch, self._outbox = sorted(self._outbox), set()
                try:
                    if connection is None:
                        connection = await psycopg.AsyncConnection.connect(
                            self.url, autocommit=True
                        )
                        self._sender_pid = connection.info.backend_pid
                    await connection.execute(_NOTIFY, (batch,), prepare=True)
                except psycopg.Error as error:
                    _log.warning("move feed: %s; notifying again in %g s", error, RECONNECT_PAUSE)
                    if connection is not None:
                        await connection.close()
                        connection = None
                    if self._stopping:
                        return
                    self._outbox.update(batch)
                    await asyncio.sleep(RECONNECT_PAUSE)
                    self._outbox_filled.set()
        finally:
            if connection is not None:
                await connection.close()

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
                        if notice.pid != self._sender_pid:
                            self.hub.wake(notice.payload)
            except psycopg.Error as error:
                _log.warning("move feed: %s; listening again in %g s", error, RECONNECT_PAUSE)
                first = False
                self.hub.wake_all()
                await asyncio.sleep(RECONNECT_PAUSE)

    async def stop(self) -> None:
        """Stop listening; send the notices still in the outbox (for up to 5 s)."""
        self.hub.publish_to(None)
        if self._sender is not None:
            self._stopping = True
            self._outbox_filled.set()
            try:
                await asyncio.wait_for(self._sender, timeout=5)
            except TimeoutError:
                _log.warning("move feed: notices of the last moves not sent")
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
