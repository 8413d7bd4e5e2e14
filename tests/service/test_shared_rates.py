"""Rate counters in the database (issue 37): two stores on one database count as one.

Two stores opened on one SQLite file or one PostgreSQL database stand for
two service processes. The storage is driven through ``limits``' own
strategy objects, as the service drives it, with limits per year (a window
of 360 days, whose edge a test almost never straddles), and its statements
are called with explicit windows and times where the clock would otherwise
decide.
"""

from __future__ import annotations

import math
import threading
import time
from typing import Any

from limits import parse
from limits.aio.strategies import FixedWindowRateLimiter, SlidingWindowCounterRateLimiter
from loop_support import run_async

from connect_four.service.repository import GameStore
from connect_four.service.shared_rates import DatabaseRateStorage

Database = Any  # an SQLite file's path or a PostgreSQL URL (tests/service/conftest.py)


def test_two_stores_share_one_sliding_window(
    stores: tuple[GameStore, GameStore], threads: list[str]
) -> None:
    limit = parse("3/year")

    async def hits() -> tuple[list[bool], list[int]]:
        first, second = (
            SlidingWindowCounterRateLimiter(DatabaseRateStorage(store)) for store in stores
        )
        taken = [
            await limiter.hit(limit, "moves", "192.0.2.7")
            for limiter in (first, second, first, second, first)
        ]
        remaining = [
            (await limiter.get_window_stats(limit, "moves", "192.0.2.7")).remaining
            for limiter in (first, second)
        ]
        # Another client's counter is its own.
        taken.append(await second.hit(limit, "moves", "192.0.2.8"))
        return taken, remaining

    taken, remaining = run_async(hits())
    assert taken == [True, True, True, False, False, True]
    assert remaining == [0, 0]
    # On SQLite no lock was held, on PostgreSQL the loop's connections answered:
    # every count was one statement on the event loop.
    assert threads == []


def test_the_previous_window_counts_by_its_share_still_inside(
    stores: tuple[GameStore, GameStore],
) -> None:
    first, second = stores
    # Window 10 took its 4 hits; at 3/4 of window 11 a quarter of them still count (1).
    assert [first.add_rate_hits("k", 10, 1, 4, 0.5, 1e12) for _ in range(5)] == [1, 2, 3, 4, None]
    counted = [second.add_rate_hits("k", 11, 1, 4, 0.25, 1e12) for _ in range(4)]
    assert counted == [1, 2, 3, None]
    assert first.rate_windows("k", 11) == (4, 3)
    assert second.rate_windows("k", 12) == (3, 0)
    # A hit dearer than what is left is refused whole, and counts nothing.
    assert first.add_rate_hits("j", 1, 3, 4, 0.0, 1e12) == 3
    assert second.add_rate_hits("j", 1, 2, 4, 0.0, 1e12) is None
    assert second.add_rate_hits("j", 1, 1, 4, 0.0, 1e12) == 4


def test_concurrent_hits_from_two_stores_never_pass_the_limit(
    stores: tuple[GameStore, GameStore],
) -> None:
    accepted: list[int] = []
    lock = threading.Lock()

    def hit_many(store: GameStore) -> None:
        for _ in range(60):
            if store.add_rate_hits("flood", 7, 1, 50, 0.0, 1e12) is not None:
                with lock:
                    accepted.append(1)

    workers = [threading.Thread(target=hit_many, args=(store,)) for store in stores * 2]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(accepted) == 50
    assert stores[0].rate_windows("flood", 7) == (0, 50)


def test_incr_get_expiry_clear_and_reset(stores: tuple[GameStore, GameStore]) -> None:
    async def calls() -> dict[str, Any]:
        first, second = (DatabaseRateStorage(store) for store in stores)
        seen: dict[str, Any] = {}
        before = time.time()
        seen["incr"] = [await first.incr("a", 3600)]
        after = time.time()
        seen["incr"].append(await second.incr("a", 3600, amount=2))
        seen["get"] = await second.get("a")
        # The window began with the first incr, between the two clock reads.
        seen["expiry"] = before + 3600 <= await second.get_expiry("a") <= after + 3600
        await first.incr("b", 3600)
        await first.clear("a")
        seen["cleared"] = (await second.get("a"), await second.get("b"))
        seen["reset"] = await second.reset()
        seen["after reset"] = await first.get("b")
        seen["check"] = await first.check()
        return seen

    seen = run_async(calls())
    assert seen["incr"] == [1, 3]
    assert seen["get"] == 3
    assert seen["expiry"] is True
    assert seen["cleared"] == (0, 1)
    assert seen["reset"] == 1
    assert seen["after reset"] == 0
    assert seen["check"] is True


def test_a_fixed_window_starts_again_once_it_has_ended(stores: tuple[GameStore, GameStore]) -> None:
    first, second = stores
    assert first.add_fixed_hits("f", 1, expires=10.0, now=0.0) == 1
    assert second.add_fixed_hits("f", 1, expires=15.0, now=5.0) == 2
    assert first.fixed_hits("f", now=9.0) == (2, 10.0)
    assert first.fixed_hits("f", now=10.0) is None
    assert second.add_fixed_hits("f", 1, expires=20.0, now=10.0) == 1
    assert first.fixed_hits("f", now=11.0) == (1, 20.0)


def test_a_fixed_window_limiter_counts_across_stores(stores: tuple[GameStore, GameStore]) -> None:
    limit = parse("2/year")

    async def hits() -> list[bool]:
        first, second = (FixedWindowRateLimiter(DatabaseRateStorage(store)) for store in stores)
        return [await limiter.hit(limit, "games", "x") for limiter in (first, second, first)]

    assert run_async(hits()) == [True, True, False]


def test_rows_past_their_use_are_forgotten(stores: tuple[GameStore, GameStore]) -> None:
    first, second = stores
    first.add_rate_hits("old", 5, 1, 9, 0.0, 100.0)
    first.add_rate_hits("new", 5, 1, 9, 0.0, 200.0)
    assert second.forget_rates(99.0) == 0
    assert second.forget_rates(100.0) == 1
    assert first.rate_windows("old", 5) == (0, 0)
    assert first.rate_windows("new", 5) == (0, 1)
    assert second.forget_rates(math.inf) == 1


def test_the_storage_sweeps_now_and_then(stores: tuple[GameStore, GameStore]) -> None:
    first, second = stores
    first.add_rate_hits("stale", 5, 1, 9, 0.0, 100.0)  # long past at any clock of today

    async def hit() -> None:
        storage = DatabaseRateStorage(second, sweep_seconds=0.0)
        await SlidingWindowCounterRateLimiter(storage).hit(parse("5/year"), "k")
        await storage.close()  # waits for the sweep under way

    run_async(hit())
    assert first.rate_windows("stale", 5) == (0, 0)


class CountedCalls:
    """Counts the store's counting statements (``add_rate_hits``) while passing them on."""

    def __init__(self, store: GameStore) -> None:
        self.calls = 0
        self._add = store.add_rate_hits

        def add(*args: Any) -> int | None:
            self.calls += 1
            return self._add(*args)

        store.add_rate_hits = add  # type: ignore[method-assign]


def test_a_process_counts_a_block_of_hits_in_one_statement(
    stores: tuple[GameStore, GameStore],
) -> None:
    first, _ = stores
    counted = CountedCalls(first)
    limit = parse("3000/year")  # Blocks of 30.

    async def hits() -> tuple[list[bool], int, int]:
        here, there = (
            SlidingWindowCounterRateLimiter(DatabaseRateStorage(store)) for store in stores
        )
        taken = [await here.hit(limit, "moves", "192.0.2.7") for _ in range(100)]
        mine = await here.get_window_stats(limit, "moves", "192.0.2.7")
        theirs = await there.get_window_stats(limit, "moves", "192.0.2.7")
        return taken, mine.remaining, theirs.remaining

    taken, mine, theirs = run_async(hits())
    assert taken == [True] * 100
    assert counted.calls == 4  # 4 blocks of 30, not 100 statements.
    # Its own reserve is still the client's to use; another process sees the blocks counted.
    assert (mine, theirs) == (3000 - 100, 3000 - 120)


def test_blocks_never_let_a_client_past_its_rate_across_processes(
    stores: tuple[GameStore, GameStore],
) -> None:
    limit = parse("1000/year")  # Blocks of 10.

    async def flood() -> list[bool]:
        first, second = (
            SlidingWindowCounterRateLimiter(DatabaseRateStorage(store)) for store in stores
        )
        return [
            await limiter.hit(limit, "moves", "192.0.2.7")
            for _ in range(600)
            for limiter in (first, second)
        ]

    taken = run_async(flood())
    # Never past the rate; refused early by less than a block (10) a process at most.
    assert 1000 - 2 * 9 <= taken.count(True) <= 1000
    # Once refused, refused: what is left is less than either process may take.
    first_refusal = taken.index(False)
    assert taken[first_refusal:].count(True) <= 2 * 9
