"""How many stored moves a request made the server replay: a meter per request.

A game that is not in the cache (:mod:`connect_four.service.cache`) is
replayed from all its moves by the first request that needs it, some 4 us
a move: 43 ms for a game of 9,999 moves. The repository notes each replay
here (:func:`note`); a request that runs :func:`metered` first reads the
total afterwards, so that :mod:`connect_four.service.rate_limits` can
charge it to the client's address. The meter follows the request into
worker threads (a context variable: Starlette's threads copy the context).
"""

from __future__ import annotations

from contextvars import ContextVar

__all__ = ["metered", "note"]

_METER: ContextVar[list[int] | None] = ContextVar("replay_meter", default=None)


def metered() -> list[int]:
    """Start counting this request's replayed moves; the one-item list holds the count.

    Each request runs in a context of its own, so the meter is the request's.
    """
    meter = [0]
    _METER.set(meter)
    return meter


def note(moves: int) -> None:
    """Count ``moves`` stored moves replayed for the current request (if it is metered)."""
    meter = _METER.get()
    if meter is not None:
        meter[0] += moves
