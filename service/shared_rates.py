"""A ``limits`` storage in the service's database: every process on it counts the same hits.

The strategy objects of ``limits`` (the sliding window counter the service
counts with, or a fixed window) ask a storage for counts; this one keeps
them in the store's ``rate_hits`` table (:mod:`connect_four.service.rate_counts`),
so N processes behind a proxy, on one SQLite file or one PostgreSQL
database, let a client make the configured rate, not N times it.

A sliding-window hit is counted by one statement that checks and counts at
once (:meth:`~connect_four.service.rate_counts.RateCounts.add_rate_hits`),
made as the store makes its own quick calls (:func:`~connect_four.service.store_calls.call_store`):
on SQLite on the event loop unless a lock is held, on PostgreSQL on the
loop's prepared connections, else in a worker thread.

A statement per counted request cost a request on PostgreSQL a third more
service CPU (0.73 against 0.59 ms, ``bench/service_load.py``). So a process
*reserves* hits: the statement counts a block of :func:`block` hits (a
hundredth of the limit) at once, if the window has room for them, and the
process lets its next requests of that client and limit in from the block
without a statement, until the block is used up or the window changes.
Every hit let in was counted in the database before, so the processes
together never let a client pass its rate. The price is the other way: the
unused part of a block counts as hits, so a client near its rate may be
refused early, by less than a block for each process that served it in the
window (some 1 % of the rate a process). When a block no longer fits, the
hits are counted one request at a time, exactly (a limit under 200 has
blocks of 1: every hit is its own statement).

Rows past their use are deleted by one statement every
:data:`SWEEP_SECONDS`, in the background.
The database's faults are the store's :class:`~connect_four.service.errors.StorageError`:
a request whose count cannot be kept is answered 503, as a move would be.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from dataclasses import dataclass

from limits.aio.storage import SlidingWindowCounterSupport, Storage

from .errors import StorageError
from .repository import GameStore
from .store_calls import call_store

__all__ = ["BLOCK_SHARE", "SWEEP_SECONDS", "DatabaseRateStorage", "block"]

SWEEP_SECONDS = 60.0
"""How often each process deletes the counters that count no more."""

BLOCK_SHARE = 100
"""A block of hits reserved at once is the limit divided by this (whole hits, at least 1)."""


def block(limit: int) -> int:
    """The hits a process reserves at once for a limit of ``limit`` a window.

    >>> block(3000), block(199), block(3)
    (30, 1, 1)
    """
    return max(1, limit // BLOCK_SHARE)


@dataclass
class _Reserve:
    """Hits of one counter this process counted in the database and has not let in yet."""

    window: int
    expiry: int
    left: int = 0
    blocks: bool = True
    """Whether a whole block may still fit in the window (False once one was refused)."""


class DatabaseRateStorage(Storage, SlidingWindowCounterSupport):
    """Rate counters in ``store``'s database, for ``limits``' sliding window and fixed window."""

    STORAGE_SCHEME = None  # Made by the service, never from a URI.

    def __init__(self, store: GameStore, *, sweep_seconds: float = SWEEP_SECONDS) -> None:
        super().__init__()
        self.store = store
        self.sweep_seconds = sweep_seconds
        self._next_sweep = time.monotonic() + sweep_seconds
        self._sweeping: asyncio.Task[None] | None = None
        self._reserves: dict[str, _Reserve] = {}

    @property
    def base_exceptions(self) -> type[Exception]:
        return StorageError

    # --- Sliding window counter: blocks reserved, then exact hits -------------

    async def acquire_sliding_window_entry(
        self, key: str, limit: int, expiry: int, amount: int = 1
    ) -> bool:
        """Count ``amount`` hits of ``key`` if its sliding window has room for them.

        From this process's reserve when it holds enough, without a
        statement; else by reserving a block, or, once blocks no longer
        fit, by counting ``amount`` alone.
        """
        if amount > limit:
            return False
        self._sweep_now_and_then()
        now = time.time()
        window = math.floor(now / expiry)
        reserve = self._reserves.get(key)
        if reserve is None or reserve.window != window:
            reserve = self._reserves[key] = _Reserve(window, expiry)
        if reserve.left >= amount:
            reserve.left -= amount
            return True
        weight = 1 - (now / expiry - window)  # The previous window's share still inside.
        size = block(limit)
        if reserve.blocks and size > amount:
            if await self._add(key, window, size, limit, weight, expiry):
                reserve.left += size - amount
                return True
            reserve.blocks = False  # The window has less than a block left: exact from now.
        return await self._add(key, window, amount, limit, weight, expiry)

    async def _add(
        self, key: str, window: int, amount: int, limit: int, weight: float, expiry: int
    ) -> bool:
        """Count ``amount`` hits in the database if the sliding window has room for them."""
        hits = await call_store(
            self.store,
            self.store.add_rate_hits,
            key,
            window,
            amount,
            limit,
            weight,
            float((window + 2) * expiry),  # The next window weighs this one: keep it till then.
        )
        return hits is not None

    def reserved(self, key: str) -> int:
        """The hits of ``key`` this process has counted in the database but not let in yet."""
        reserve = self._reserves.get(key)
        return 0 if reserve is None else reserve.left

    async def get_sliding_window(self, key: str, expiry: int) -> tuple[int, float, int, float]:
        """The previous window's hits and seconds left, the current window's, as ``limits`` asks."""
        now = time.time()
        window = math.floor(now / expiry)
        previous, current = await call_store(self.store, self.store.rate_windows, key, window)
        reserve = self._reserves.get(key)
        if reserve is not None and reserve.window == window:
            current = max(0, current - reserve.left)  # Reserved here, still ours to let in.
        share = now / expiry - window
        previous_left = (1 - share) * expiry if previous else 0.0
        return previous, previous_left, current, (1 - share) * expiry + expiry

    async def clear_sliding_window(self, key: str, expiry: int) -> None:
        """Forget ``key``'s windows."""
        await self.clear(key)

    # --- Fixed windows and the storage's other calls ---------------------------

    async def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        """Count ``amount`` hits of the fixed window ``key``, begun now if it had ended."""
        now = time.time()
        return await call_store(
            self.store, self.store.add_fixed_hits, key, amount, now + expiry, now
        )

    async def get(self, key: str) -> int:
        """The hits of the fixed window ``key`` (0 once it has ended)."""
        state = await call_store(self.store, self.store.fixed_hits, key, time.time())
        return 0 if state is None else state[0]

    async def get_expiry(self, key: str) -> float:
        """When the fixed window ``key`` ends (now if it has)."""
        now = time.time()
        state = await call_store(self.store, self.store.fixed_hits, key, now)
        return now if state is None else state[1]

    async def check(self) -> bool:
        """Whether the database answers."""
        try:
            await call_store(self.store, self.store.fixed_hits, "", time.time())
        except StorageError:
            return False
        return True

    async def reset(self) -> int | None:
        """Forget every counter; how many rows there were."""
        self._reserves.clear()
        return await call_store(self.store, self.store.forget_rates, math.inf)

    async def clear(self, key: str) -> None:
        """Forget the counter ``key`` (every window of it)."""
        self._reserves.pop(key, None)
        await call_store(self.store, self.store.clear_rate, key)

    # --- Rows past their use ----------------------------------------------------

    def _sweep_now_and_then(self) -> None:
        """Start a deletion of the rows past their use if none ran for :attr:`sweep_seconds`."""
        if time.monotonic() < self._next_sweep or self._sweeping is not None:
            return
        self._next_sweep = time.monotonic() + self.sweep_seconds
        # Reserves of windows that have ended are no use: keep those of the live ones.
        now = time.time()
        self._reserves = {
            key: reserve
            for key, reserve in self._reserves.items()
            if reserve.left and reserve.window == math.floor(now / reserve.expiry)
        }
        self._sweeping = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        try:
            # A fault is the next request's to report: this one tries again later.
            with contextlib.suppress(StorageError):
                await call_store(self.store, self.store.forget_rates, time.time())
        finally:
            self._sweeping = None

    async def close(self) -> None:
        """Wait for a deletion under way (before the store closes)."""
        if self._sweeping is not None:
            await asyncio.shield(self._sweeping)
