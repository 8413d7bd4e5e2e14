"""Checkpoints of an SQLite database in WAL mode, made by a thread of their own.

SQLite copies its write-ahead log into the database file (a checkpoint)
from whichever connection commits when the log has grown past 1,000
pages, and with ``synchronous=NORMAL`` that commit then waits for the
disk (two fsyncs): 3 to 25 ms on this project's shared machine, measured,
about every 250 moves. The service commits most moves on its event loop
(:mod:`connect_four.service.store_calls`), where such a wait holds every
request of the process. So the store's connections never checkpoint
(``wal_autocheckpoint=0``) and a :class:`Checkpointer` thread does it
every :data:`CHECKPOINT_COMMITS` commits instead, as SQLite would have
(a passive checkpoint: it never waits for a reader or a writer, and
finishes next time what it could not do this time). What a commit
guarantees is unchanged: in the log, not yet on the disk.

A passive checkpoint never shrinks the log's file. Under a size cap
(``--max-db-pages``) the store asks for ``TRUNCATE`` checkpoints instead,
which wait for readers (up to the busy timeout) and empty the file, and
:meth:`Checkpointer.urge` asks for one at once whenever the log passes half
the cap (see :mod:`connect_four.service.sqlite_store`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable

__all__ = ["CHECKPOINT_COMMITS", "Checkpointer"]

CHECKPOINT_COMMITS = 200
"""Write commits between two checkpoints: about SQLite's own 1,000 log pages of moves."""


class Checkpointer:
    """Checkpoint the database every ``every`` commits, in a thread started at the first.

    ``connect`` opens the thread's connection (in the thread, once).
    """

    def __init__(
        self,
        connect: Callable[[], sqlite3.Connection],
        every: int = CHECKPOINT_COMMITS,
        mode: str = "PASSIVE",
    ) -> None:
        self._connect = connect
        self._every = every
        self._mode = mode
        self._commits = 0
        self._due = threading.Event()
        self._stopping = False
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.checkpoints = 0
        """Checkpoints made so far (for tests)."""
        self.attempts = 0
        """Checkpoints tried so far, made or not (see :meth:`wait_past`)."""
        self._tried = threading.Condition()

    def committed(self) -> None:
        """Count a write commit of the store (any thread); every ``every``-th, checkpoint."""
        with self._lock:
            self._commits += 1
            if self._commits < self._every:
                return
        self.urge()

    def urge(self) -> None:
        """Checkpoint as soon as the thread can (started now if need be), whatever the count."""
        with self._lock:
            if self._stopping:
                return
            self._commits = 0
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="sqlite-checkpoints", daemon=True
                )
                self._thread.start()
        self._due.set()

    def close(self) -> None:
        """Stop the thread (after the checkpoint it is making, if any)."""
        with self._lock:
            self._stopping = True
            thread = self._thread
        self._due.set()
        if thread is not None:
            thread.join()

    def _run(self) -> None:
        connection = self._connect()
        while True:
            self._due.wait()
            self._due.clear()
            if self._stopping:
                return
            try:
                connection.execute(f"PRAGMA wal_checkpoint({self._mode})").fetchall()
                self.checkpoints += 1
            except sqlite3.Error:
                pass  # The file's faults are the requests' to report; next time, then.
            with self._tried:
                self.attempts += 1
                self._tried.notify_all()

    def wait_past(self, attempts: int, timeout: float) -> bool:
        """Wait until more than ``attempts`` checkpoints were tried; False if ``timeout`` ran out."""
        with self._tried:
            return self._tried.wait_for(lambda: self.attempts > attempts, timeout)
