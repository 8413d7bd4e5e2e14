"""A request that waits for news of one game: answer at once if there is some, else wait.

The route gives a ``read`` of the database that says whether its answer is
news (a move the client has not seen, or the game is over); without news
the request waits until the game changes or its time is up, then answers
what the last read found, as a request without waiting would have. Waiting
costs nothing while nobody moves (see :mod:`connect_four.service.events`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from starlette.types import Receive

from .events import EventHub
from .repository import GameStore
from .store_calls import call_store

__all__ = ["Reading", "client_gone", "wait_for_news"]

T = TypeVar("T")


@dataclass(frozen=True)
class Reading(Generic[T]):
    """What one read of the database found: the answer to send, and whether it is news."""

    answer: T
    news: bool
    again: float | None = None
    """Seconds after which to read again though the game did not change (a game between
    friends whose clock runs: a flag may fall with nobody moving); None: on a change only."""


async def wait_for_news(
    hub: EventHub,
    store: GameStore,
    game_id: str,
    key: object,
    read: Callable[[], Reading[T]],
    timeout: float,
    receive: Receive | None = None,
) -> T:
    """The first answer of ``read`` that is news, or its last answer after ``timeout`` seconds.

    ``read`` reads ``store`` (:func:`~connect_four.service.store_calls.call_store`:
    on the loop if it can, else in a worker thread), shared by the requests
    for the same game and ``key`` (the same question) woken together. Its exceptions
    (no such game, a storage fault) are the answer at once. When the server
    is stopping, the request answers at once what it read; when the client
    has gone (``receive``, the request's ASGI channel, says
    ``http.disconnect``), the wait ends at once too, and its place with it.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    gone: asyncio.Future[None] | None = None
    try:
        with hub.watch(game_id) as watched:
            while True:
                seen = watched.generation
                reading = await hub.shared(watched, key, lambda: call_store(store, read))
                if reading.news:
                    return reading.answer
                # Nothing new: the answer stays right until the game changes,
                # or until nobody is left to read it. (Watched for only now: most
                # waits of a game being played are answered by their first read.)
                if gone is None and receive is not None:
                    gone = asyncio.ensure_future(client_gone(receive))
                left = deadline - loop.time()
                if reading.again is not None:
                    left = min(left, reading.again)
                if not await hub.changed(watched, seen, left, gone):
                    if gone is not None and gone.done():
                        gone.result()  # Raises what receiving raised (the body's limits).
                        # Nobody left to answer: read again (a clock running) and it would
                        # spin on the loop until the deadline, the future being done.
                        return reading.answer
                    if reading.again is None or hub.closing or loop.time() >= deadline:
                        return reading.answer
    finally:
        if gone is not None:
            gone.cancel()
            if gone.done() and not gone.cancelled():
                gone.exception()  # Retrieved: the answer went out before it was looked at.


async def client_gone(receive: Receive) -> None:
    """Return once the client has gone (its connection closed): ``http.disconnect``.

    The request's body, if any, is read and dropped on the way: a long
    poll has none to read.
    """
    while (await receive())["type"] != "http.disconnect":
        pass
