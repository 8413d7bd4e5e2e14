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

from .events import EventHub
from .repository import GameStore
from .store_calls import call_store

__all__ = ["Reading", "wait_for_news"]

T = TypeVar("T")


@dataclass(frozen=True)
class Reading(Generic[T]):
    """What one read of the database found: the answer to send, and whether it is news."""

    answer: T
    news: bool


async def wait_for_news(
    hub: EventHub,
    store: GameStore,
    game_id: str,
    key: object,
    read: Callable[[], Reading[T]],
    timeout: float,
) -> T:
    """The first answer of ``read`` that is news, or its last answer after ``timeout`` seconds.

    ``read`` reads ``store`` (:func:`~connect_four.service.store_calls.call_store`:
    on the loop if it can, else in a worker thread), shared by the requests
    for the same game and ``key`` (the same question) woken together. Its exceptions
    (no such game, a storage fault) are the answer at once. When the server
    is stopping, the request answers at once what it read.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    with hub.watch(game_id) as watched:
        while True:
            seen = watched.generation
            reading = await hub.shared(watched, key, lambda: call_store(store, read))
            if reading.news:
                return reading.answer
            # Nothing new: the answer stays right until the game changes.
            if not await hub.changed(watched, seen, deadline - loop.time()):
                return reading.answer
