"""The hub of waiting requests on its own: wakes, time-outs, shared reads, shutdown."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from loop_support import run_async

from connect_four.service.events import EventHub

GAME = "a" * 32
OTHER = "b" * 32


def run(coroutine: object) -> object:
    return run_async(coroutine)  # type: ignore[arg-type]


async def bound_hub() -> EventHub:
    hub = EventHub()
    hub.bind(asyncio.get_running_loop())
    return hub


@contextmanager
def counting_hops() -> Iterator[list[int]]:
    """Count the running loop's call_soon_threadsafe calls (hops from other threads) in the block."""
    loop = asyncio.get_running_loop()
    hops = [0]
    original = loop.call_soon_threadsafe

    def counted(*args: object, **kwargs: object) -> object:
        hops[0] += 1
        return original(*args, **kwargs)  # type: ignore[arg-type]

    loop.call_soon_threadsafe = counted  # type: ignore[method-assign]
    try:
        yield hops
    finally:
        loop.call_soon_threadsafe = original  # type: ignore[method-assign]


def test_a_wake_of_the_game_ends_the_wait() -> None:
    async def scenario() -> tuple[bool, int]:
        hub = await bound_hub()
        with hub.watch(GAME) as watched:
            seen = watched.generation
            waiting = asyncio.ensure_future(hub.changed(watched, seen, 30))
            while hub.waiting == 0:
                await asyncio.sleep(0)
            hub.wake(GAME)
            return await waiting, hub.waiting

    assert run(scenario()) == (True, 0)


def test_a_wake_of_another_game_does_not() -> None:
    async def scenario() -> bool:
        hub = await bound_hub()
        with hub.watch(GAME) as watched, hub.watch(OTHER):
            hub.wake(OTHER)
            return await hub.changed(watched, watched.generation, 0.05)

    assert run(scenario()) is False


def test_a_wake_between_the_read_and_the_wait_is_not_missed() -> None:
    async def scenario() -> bool:
        hub = await bound_hub()
        with hub.watch(GAME) as watched:
            seen = watched.generation  # noted before "reading"
            hub.wake(GAME)  # a move committed while the request read
            return await hub.changed(watched, seen, 30)  # returns at once

    assert run(asyncio.wait_for(scenario(), 5)) is True


def test_notify_from_a_worker_thread_wakes_the_waiter() -> None:
    async def scenario() -> bool:
        hub = await bound_hub()
        with hub.watch(GAME) as watched:
            seen = watched.generation
            waiting = asyncio.ensure_future(hub.changed(watched, seen, 30))
            while hub.waiting == 0:
                await asyncio.sleep(0)
            poster = threading.Thread(target=hub.notify, args=(GAME,))
            poster.start()
            woken = await waiting
            poster.join()
            return woken

    assert run(asyncio.wait_for(scenario(), 5)) is True


def test_notify_of_an_unwatched_game_costs_no_hop_to_the_loop() -> None:
    async def scenario() -> int:
        hub = await bound_hub()
        with counting_hops() as hops:
            hub.notify(GAME)
            hub.notify_many([GAME, OTHER])
            with hub.watch(GAME):
                poster = threading.Thread(target=hub.notify, args=(GAME,))
                poster.start()  # From a worker thread: one hop.
                poster.join()
        return hops[0]

    assert run(scenario()) == 1


def test_notify_on_the_loop_wakes_its_waiters_without_a_hop() -> None:
    async def scenario() -> tuple[bool, int]:
        hub = await bound_hub()
        with counting_hops() as hops, hub.watch(GAME) as watched:
            seen = watched.generation
            waiter = asyncio.ensure_future(hub.changed(watched, seen, 5))
            while not watched.futures:
                await asyncio.sleep(0)
            hub.notify(GAME)  # A move stored on the loop (SQLite's quick calls).
            woken = await waiter
        return woken, hops[0]

    assert run(scenario()) == (True, 0)


def test_the_games_entry_goes_when_nobody_watches() -> None:
    async def scenario() -> list[bool]:
        hub = await bound_hub()
        seen = []
        with hub.watch(GAME):
            with hub.watch(GAME):
                seen.append(GAME in hub._games)
            seen.append(GAME in hub._games)
        seen.append(GAME in hub._games)
        return seen

    assert run(scenario()) == [True, True, False]


def test_close_wakes_everyone_and_no_request_waits_after() -> None:
    async def scenario() -> tuple[list[bool], bool]:
        hub = await bound_hub()
        with hub.watch(GAME) as first, hub.watch(OTHER) as second:
            waits = [
                asyncio.ensure_future(hub.changed(watched, watched.generation, 30))
                for watched in (first, second)
            ]
            while hub.waiting < 2:
                await asyncio.sleep(0)
            hub.close()
            woken = list(await asyncio.gather(*waits))
            later = await hub.changed(first, first.generation, 30)
        return woken, later

    assert run(asyncio.wait_for(scenario(), 5)) == ([True, True], False)


def test_requests_woken_together_share_one_read() -> None:
    async def scenario() -> tuple[list[int], int]:
        hub = await bound_hub()
        reads = 0

        async def read() -> int:
            nonlocal reads
            reads += 1
            await asyncio.sleep(0.01)
            return reads

        with hub.watch(GAME) as watched:
            answers = await asyncio.gather(*(hub.shared(watched, "q", read) for _ in range(50)))
            hub.wake(GAME)  # a new generation reads again
            answers.append(await hub.shared(watched, "q", read))
        return answers, reads

    answers, reads = run(scenario())  # type: ignore[misc]
    assert reads == 2
    assert answers == [1] * 50 + [2]


def test_a_shared_read_that_fails_fails_for_every_asker() -> None:
    async def scenario() -> list[object]:
        hub = await bound_hub()

        async def read() -> int:
            await asyncio.sleep(0.01)
            raise LookupError("no such game")

        with hub.watch(GAME) as watched:
            return await asyncio.gather(
                *(hub.shared(watched, "q", read) for _ in range(3)), return_exceptions=True
            )

    answers = run(scenario())
    assert [str(answer) for answer in answers] == ["no such game"] * 3  # type: ignore[attr-defined]
