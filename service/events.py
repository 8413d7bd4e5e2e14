"""Who waits for which game, and waking them when a move of that game is stored.

A waiting request costs no CPU while nobody moves: it is one asyncio
future (and one timer) in :class:`EventHub`, keyed by its game. A move or
quit stored by this process wakes its game's waiters at once
(:meth:`EventHub.notify`, from the loop or a worker thread); moves stored by
other processes reach the hub through a feed of the database's own
(:mod:`connect_four.service.move_feed`), which may also be handed this
process's moves to tell the others (:meth:`EventHub.publish_to`). A wake only says "this game changed": each
woken request reads the game again, and the requests woken together share
one read (:meth:`EventHub.shared`), so a thousand spectators of one game
cost one query, not a thousand.

Every game's entry carries a *generation*, a number from one counter that
grows at each wake. A request notes the generation, reads the database,
and if nothing new was there waits until the generation differs: a move
stored after the read was begun always bumps it, since the request was
registered (:meth:`EventHub.watch`) before it read.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["EventHub", "Watched"]

T = TypeVar("T")


class Watched:
    """One game somebody waits for: its generation, waiters and shared reads."""

    __slots__ = ("generation", "watchers", "futures", "flights")

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self.watchers = 0
        self.futures: set[asyncio.Future[None]] = set()
        self.flights: dict[object, asyncio.Future[Any]] = {}


class EventHub:
    """Waiters keyed by game id, woken when their game changes; one per app (and event loop).

    :meth:`bind` ties the hub to the running loop at start-up; before that,
    and after :meth:`close`, nobody waits.
    """

    def __init__(self) -> None:
        self._games: dict[str, Watched] = {}
        self._clock = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._publish: Callable[[str], None] | None = None
        self.closing = False

    def publish_to(self, publish: Callable[[str], None] | None) -> None:
        """Hand ``publish`` (called on the loop) the id of every game :meth:`notify` is told of.

        A feed that tells the other processes of this process's moves
        (PostgreSQL's) registers here; None stops it.
        """
        self._publish = publish

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve waiters on ``loop`` (the server's, running in this thread), from now on."""
        self._loop = loop
        self._loop_thread = threading.get_ident()
        self.closing = False

    @property
    def watching(self) -> bool:
        """Whether any request waits for news of some game."""
        return bool(self._games)

    @property
    def waiting(self) -> int:
        """How many requests wait for news at this moment (for tests and benchmarks)."""
        return sum(len(watched.futures) for watched in self._games.values())

    # --- Called from any thread --------------------------------------------

    def notify(self, game_id: str) -> None:
        """Wake ``game_id``'s waiters: a move or quit of it was committed (any thread)."""
        loop = self._loop
        if loop is None:
            return
        on_loop = threading.get_ident() == self._loop_thread
        publish = self._publish
        if publish is not None:
            if on_loop:
                publish(game_id)
            else:
                loop.call_soon_threadsafe(publish, game_id)
        # Nobody watching: nothing to do (a watcher registers before it reads).
        if game_id not in self._games:
            return
        if on_loop:
            self.wake(game_id)  # Stored on the loop itself: no hop through its wake-up pipe.
        else:
            loop.call_soon_threadsafe(self.wake, game_id)

    def notify_many(self, game_ids: Iterable[str]) -> None:
        """Wake the waiters of each game in ``game_ids`` (any thread), in one hop to the loop."""
        loop = self._loop
        if loop is None:
            return
        watched = [game_id for game_id in set(game_ids) if game_id in self._games]
        if watched:
            loop.call_soon_threadsafe(self._wake_many, watched)

    def notify_all(self) -> None:
        """Wake every waiter (any thread): news may have been missed, so all read again."""
        loop = self._loop
        if loop is not None and self._games:
            loop.call_soon_threadsafe(self.wake_all)

    # --- Called on the loop ------------------------------------------------

    def wake(self, game_id: str) -> None:
        """Bump ``game_id``'s generation and resolve its waiters' futures."""
        watched = self._games.get(game_id)
        if watched is None:
            return
        watched.generation = next(self._clock)
        futures, watched.futures = watched.futures, set()
        for future in futures:
            if not future.done():
                future.set_result(None)

    def _wake_many(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            self.wake(game_id)

    def wake_all(self) -> None:
        """Wake every game's waiters."""
        for game_id in list(self._games):
            self.wake(game_id)

    def close(self) -> None:
        """The server is stopping: wake every waiter, and let no request wait from now on."""
        self.closing = True
        self.wake_all()

    @contextmanager
    def watch(self, game_id: str) -> Iterator[Watched]:
        """Register interest in ``game_id`` for the block (before reading it)."""
        watched = self._games.get(game_id)
        if watched is None:
            watched = self._games[game_id] = Watched(next(self._clock))
        watched.watchers += 1
        try:
            yield watched
        finally:
            watched.watchers -= 1
            if watched.watchers == 0 and self._games.get(game_id) is watched:
                del self._games[game_id]

    async def changed(
        self,
        watched: Watched,
        seen: int,
        timeout: float,
        until: asyncio.Future[Any] | None = None,
    ) -> bool:
        """Wait up to ``timeout`` seconds for ``watched``'s generation to differ from ``seen``.

        Returns whether it did (False: the time ran out first, or ``until``,
        when given, was done first: the client left).
        """
        if watched.generation != seen:
            return True
        if self.closing or timeout <= 0 or (until is not None and until.done()):
            return False
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        watched.futures.add(future)
        timer = loop.call_later(timeout, _resolve, future)

        def stop_waiting(_: asyncio.Future[Any]) -> None:
            _resolve(future)

        if until is not None:
            until.add_done_callback(stop_waiting)
        try:
            await future
        finally:
            timer.cancel()
            watched.futures.discard(future)
            if until is not None:
                until.remove_done_callback(stop_waiting)
        return watched.generation != seen

    async def shared(self, watched: Watched, key: object, read: Callable[[], Awaitable[T]]) -> T:
        """The result of ``read()``, shared by every request of the game's same generation.

        Requests asking with the same ``key`` while the game's generation is
        unchanged share one call: it was started after the last wake, so it
        sees every move the wake announced. A request that gives up (its
        client left) leaves the read running for the others.
        """
        flight_key = (key, watched.generation)
        flight = watched.flights.get(flight_key)
        if flight is None:
            flight = watched.flights[flight_key] = asyncio.ensure_future(read())

            def forget(done: asyncio.Future[Any]) -> None:
                if watched.flights.get(flight_key) is done:
                    del watched.flights[flight_key]
                if not done.cancelled():
                    done.exception()  # Retrieved here, in case every asker left.

            flight.add_done_callback(forget)
        result: T = await asyncio.shield(flight)
        return result


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)
