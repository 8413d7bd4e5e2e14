"""What serving many waiting requests needs from the process: open files, a garbage
collector that does not scan them over and over, and a prompt stop."""

from __future__ import annotations

import gc
import resource
import socket

import uvicorn

from .client_limits import MIN_REFUSED
from .events import EventHub

__all__ = ["SPARE_FILES", "YOUNG_COLLECTION", "WakingServer", "raise_open_files", "settle_memory"]

SPARE_FILES = 200 + MIN_REFUSED
"""Open files the process needs besides its connections (database, worker, modules),
and room for refused connections to be told why (client_limits.MIN_REFUSED)."""

YOUNG_COLLECTION = 10_000
"""Allocations between two collections of the youngest objects (Python's default: 700).

Every waiting request keeps a few hundred objects alive (its scope, task,
future, timer), and the collector scanned them again at each promotion:
with 5,000 waiters it took some 45 % of the CPU of renewing their waits
(0.89 ms a renewal, 0.49 ms with this; 10,000 or 50,000 alike), and 8 %
of a move request's under load (``bench/service_load.py``). Memory is
unchanged within a few MB: reference counting frees all but cycles."""


def settle_memory() -> None:
    """Leave the objects made at start-up out of every collection, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, middle, old)


def raise_open_files(connections: int) -> int:
    """Raise the soft open-files limit to fit ``connections``, as far as the hard limit allows.

    Returns the connections that fit: ``connections``, or fewer when the
    hard limit is lower (the server then answers 503 beyond, rather than
    failing to accept).
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < wanted:
        ceiling = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
        soft = ceiling
    if soft == resource.RLIM_INFINITY:
        return connections
    return max(1, min(connections, soft - SPARE_FILES))


class WakingServer(uvicorn.Server):
    """uvicorn's server that, when told to stop, first answers every waiting request."""

    def __init__(self, config: uvicorn.Config, events: EventHub) -> None:
        super().__init__(config)
        self.events = events

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self.events.close()
        await super().shutdown(sockets)
