"""Per-client rate counters in the service's database, shared by every process that uses it.

One table, ``rate_hits``: a row per counter key (a limit of one kind for
one client address, as the ``limits`` package names it: some 60 bytes) and
window, holding its hits and when the row may be forgotten. Nothing else of
the client is kept. :class:`RateCounts` holds the statements, written once
for SQLite and PostgreSQL (``?`` placeholders, explicit casts), each call
one transaction of one statement; a store class mixes it in, and
:mod:`connect_four.service.shared_rates` gives it to ``limits`` as a storage.

Sliding window counter (the strategy the service counts with): window n of
a limit lasting ``expiry`` seconds spans ``[n * expiry, (n + 1) * expiry)``.
A hit is let in if the previous window's hits, weighted by the share of it
still inside the sliding window, plus the current window's, plus the hit,
stay within the limit; one ``INSERT ... ON CONFLICT DO UPDATE ... WHERE``
decides and counts at once, so two processes can never both take the last
hit (the row is locked by the update; a first insert racing another turns
into the update). A row outlives its window by one window (the next
window weighs it), then :meth:`RateCounts.forget_rates` deletes it.
Fixed windows (``limits``' plain counters) are rows of window -1.

Each process reads the time from its own clock: several machines must keep
theirs in step (NTP), as the window is the same for all only if their
clocks agree to well within it.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager

from .database import Connection

__all__ = [
    "ADD_HITS",
    "FIXED_WINDOW",
    "RATE_TABLE_POSTGRES",
    "RATE_TABLE_SQLITE",
    "READ_WINDOWS",
    "RateCounts",
    "rate_windows",
]

FIXED_WINDOW = -1
"""The window number of a fixed window's counter (sliding windows count from 0)."""

RATE_TABLE_SQLITE = """CREATE TABLE IF NOT EXISTS rate_hits (
    rate_key TEXT NOT NULL,          -- the limit and the client address
    window_number INTEGER NOT NULL,  -- floor(time / window), or -1: a fixed window
    hits INTEGER NOT NULL,
    expires REAL NOT NULL,           -- Unix time after which the row counts no more
    PRIMARY KEY (rate_key, window_number)
) WITHOUT ROWID"""
"""The counters' table in SQLite."""

# UNLOGGED: counters are not worth a flush of the write-ahead log per request
# (a commit that wrote only such rows does not wait for the disk); a crash of
# the server empties the table, which lets each client start its windows afresh.
RATE_TABLE_POSTGRES = """CREATE UNLOGGED TABLE rate_hits (
    rate_key TEXT NOT NULL,          -- the limit and the client address
    window_number BIGINT NOT NULL,   -- floor(time / window), or -1: a fixed window
    hits INTEGER NOT NULL,
    expires DOUBLE PRECISION NOT NULL, -- Unix time after which the row counts no more
    PRIMARY KEY (rate_key, window_number)
)"""
"""The counters' table in PostgreSQL."""

# Parameters: key, window, amount, limit + 1, previous window's weight, expires.
# The previous window's hits are read by the statement, the current ones are
# the row's (locked, and the latest, in the update's WHERE).
ADD_HITS = """INSERT INTO rate_hits (rate_key, window_number, hits, expires)
SELECT key, window_number, amount, expires FROM (SELECT
    CAST(? AS TEXT) AS key, CAST(? AS BIGINT) AS window_number, CAST(? AS INTEGER) AS amount,
    CAST(? AS INTEGER) AS ceiling, CAST(? AS DOUBLE PRECISION) AS weight,
    CAST(? AS DOUBLE PRECISION) AS expires) AS hit
WHERE hit.weight * coalesce((SELECT previous.hits FROM rate_hits AS previous
    WHERE previous.rate_key = hit.key AND previous.window_number = hit.window_number - 1), 0)
    + hit.amount < hit.ceiling
ON CONFLICT (rate_key, window_number) DO UPDATE SET hits = rate_hits.hits + excluded.hits
WHERE CAST(? AS DOUBLE PRECISION) * coalesce((SELECT previous.hits FROM rate_hits AS previous
    WHERE previous.rate_key = excluded.rate_key
    AND previous.window_number = excluded.window_number - 1), 0)
    + rate_hits.hits + excluded.hits < CAST(? AS INTEGER)
RETURNING hits"""
"""Count a hit if it fits the sliding window: its window's hits after it, or no row if not."""

READ_WINDOWS = """SELECT window_number, hits FROM rate_hits
WHERE rate_key = CAST(? AS TEXT) AND window_number IN (CAST(? AS BIGINT) - 1, CAST(? AS BIGINT))"""

# Parameters: key, amount, expires, now, now.
INCREMENT = """INSERT INTO rate_hits (rate_key, window_number, hits, expires)
VALUES (?, -1, ?, ?)
ON CONFLICT (rate_key, window_number) DO UPDATE SET
    hits = CASE WHEN rate_hits.expires <= ? THEN excluded.hits
        ELSE rate_hits.hits + excluded.hits END,
    expires = CASE WHEN rate_hits.expires <= ? THEN excluded.expires ELSE rate_hits.expires END
RETURNING hits"""

READ_FIXED = """SELECT hits, expires FROM rate_hits
WHERE rate_key = ? AND window_number = -1 AND expires > ?"""

CLEAR = "DELETE FROM rate_hits WHERE rate_key = ? RETURNING 1"

FORGET = "DELETE FROM rate_hits WHERE expires <= ? RETURNING 1"


class RateCounts:
    """The counters' calls on a store's database, one statement each (a mixin of the stores).

    The store supplies ``_transaction`` (one transaction, faults mapped to
    :class:`~connect_four.service.errors.StorageError`).
    """

    def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def add_rate_hits(
        self, key: str, window: int, amount: int, limit: int, weight: float, expires: float
    ) -> int | None:
        """Count ``amount`` hits in ``window`` if the sliding window has room: the window's hits.

        ``weight`` is the share of the previous window still inside the
        sliding window; None (nothing counted) if the hits would pass ``limit``.
        """
        with self._transaction(write=True) as connection:
            row = connection.execute(
                ADD_HITS, (key, window, amount, limit + 1, weight, expires, weight, limit + 1)
            ).fetchone()
        return None if row is None else int(row[0])

    def rate_windows(self, key: str, window: int) -> tuple[int, int]:
        """The hits of ``key`` in the window before ``window`` and in ``window``."""
        with self._transaction() as connection:
            rows = connection.execute(READ_WINDOWS, (key, window, window)).fetchall()
        return rate_windows(window, ((int(number), int(hits)) for number, hits in rows))

    def add_fixed_hits(self, key: str, amount: int, expires: float, now: float) -> int:
        """Count ``amount`` hits of a fixed window that ends at ``expires`` if it starts now."""
        with self._transaction(write=True) as connection:
            row = connection.execute(INCREMENT, (key, amount, expires, now, now)).fetchone()
        return int(row[0])

    def fixed_hits(self, key: str, now: float) -> tuple[int, float] | None:
        """The hits of a fixed window and when it ends; None if it has ended or never began."""
        with self._transaction() as connection:
            row = connection.execute(READ_FIXED, (key, now)).fetchone()
        return None if row is None else (int(row[0]), float(row[1]))

    def clear_rate(self, key: str) -> int:
        """Forget every window of ``key``; how many rows there were."""
        with self._transaction(write=True) as connection:
            return len(connection.execute(CLEAR, (key,)).fetchall())

    def forget_rates(self, now: float) -> int:
        """Delete the rows that count no more at ``now`` (``inf``: every row); how many."""
        with self._transaction(write=True) as connection:
            return len(connection.execute(FORGET, (now,)).fetchall())


def rate_windows(window: int, rows: Iterable[tuple[int, int]]) -> tuple[int, int]:
    """The previous and current windows' hits among ``rows`` of (window number, hits)."""
    hits = dict(rows)
    return hits.get(window - 1, 0), hits.get(window, 0)
