"""What serving many waiting requests needs from the process: open files, and a prompt stop."""

from __future__ import annotations

import resource
import socket

import uvicorn

from .events import EventHub

__all__ = ["SPARE_FILES", "WakingServer", "raise_open_files"]

SPARE_FILES = 200
"""Open files the process needs besides its connections (database, worker, modules)."""


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
