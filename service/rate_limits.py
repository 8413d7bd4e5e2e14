"""Per-client rates of what creates, computes or reads: games, moves, analyses, computer
moves, stored moves replayed, and moves and game ids read.

Each kind of request has a rate per client address, counted by the
``limits`` package (a sliding window counter: two counters per client and
kind, forgotten two windows after the client's last request). The counters
are in this process's memory (some 270 bytes each, measured) with
``--rate-store memory``, or in the database with ``--rate-store database``
(:mod:`connect_four.service.shared_rates`), where every process using the
same database counts the same hits. A request beyond its rate is answered
429 ``rate_limited`` with ``Retry-After`` before it costs anything more.

The client is ``request.client.host``: the peer's address, or, behind a
trusted reverse proxy that uvicorn's proxy-headers support is told about,
the address the proxy reports. IPv6 clients are counted by their /64
network, which one subscriber usually holds whole. With memory counters,
each process counts its own clients: N processes behind a balancer allow up
to N times the rate; database counters allow the rate itself.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, fields

from fastapi import Request
from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from .errors import RateLimitedError, StorageError
from .limits import (
    RATE_ANALYSIS,
    RATE_COMPUTER,
    RATE_GAMES,
    RATE_MOVES,
    RATE_READS,
    RATE_REPLAYS,
)
from .replays import metered

__all__ = [
    "OFF",
    "RateLimiter",
    "Rates",
    "Charge",
    "charge_replays",
    "paid",
    "client_key",
    "limited",
    "parse_rate",
]

OFF = "off"
"""The rate that turns a kind's limit off."""

OPEN_FOR = 1.0
"""Seconds a process whose counters are shared trusts a kind it found open for a client.

Every drop-token request asks whether its client's replays are used up
(:func:`charge_replays`), and nearly every answer is no: in the database,
that question would be one more statement per request, reads included.
The process remembers the answer this
long; its own charges forget it at once, so only another process's
charges are seen up to this late, when the client may replay for one more
second there."""


@dataclass(frozen=True)
class Rates:
    """The rate of each kind of request, in the ``limits`` notation (``"3000/minute"``,
    ``"10/second;300/minute"``), or :data:`OFF`."""

    games: str = RATE_GAMES
    moves: str = RATE_MOVES
    analysis: str = RATE_ANALYSIS
    computer: str = RATE_COMPUTER
    replays: str = RATE_REPLAYS
    reads: str = RATE_READS

    @classmethod
    def off(cls) -> Rates:
        """No limit on any kind (benchmarks, which play from one address at full speed)."""
        return cls(**{field.name: OFF for field in fields(cls)})


_WHAT = {
    "games": "games created",
    "moves": "moves and quits posted",
    "analysis": "analyses and reviews asked",
    "computer": "computer moves asked",
    "replays": "stored moves replayed (games that had left the server's cache)",
    "reads": "moves and game ids read",
}


def parse_rate(rate: str) -> list[RateLimitItem]:
    """The limits of ``rate`` ([] for :data:`OFF`).

    >>> [str(item) for item in parse_rate("10/second;300/minute")]
    ['10 per 1 second', '300 per 1 minute']
    >>> parse_rate("off")
    []

    Raises:
        ValueError: ``rate`` is not in the notation.
    """
    if rate.strip().lower() == OFF:
        return []
    return list(parse_many(rate))


def client_key(host: str | None) -> str:
    """Whom a request is counted for: its address, an IPv6 one by its /64 network.

    >>> client_key("192.0.2.7"), client_key("2001:db8::1"), client_key("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8::/64', '192.0.2.7')
    """
    if host is None:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # A Unix socket's peer, or a test's name.
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    return str(address)


class RateLimiter:
    """Counts each client's requests of each kind against :class:`Rates`, in ``storage``.

    ``storage`` keeps the counters (one the sliding window counter can use:
    ``limits``' own, or :mod:`connect_four.service.shared_rates`'): this
    process's memory if None.

    Raises:
        ValueError: a rate is not in the ``limits`` notation.
    """

    def __init__(self, rates: Rates, storage: Storage | None = None) -> None:
        self.rates = rates
        self._items = {
            field.name: parse_rate(getattr(rates, field.name)) for field in fields(rates)
        }
        self.storage = storage or MemoryStorage()
        self._limiter = SlidingWindowCounterRateLimiter(self.storage)
        self._found_open = None if storage is None else _RecentlyOpen(OPEN_FOR)

    async def hit(self, kind: str, client: str, cost: int = 1) -> None:
        """Count one request of ``kind`` by ``client``, ``cost`` of it.

        Raises:
            RateLimitedError: one of the kind's limits has less than ``cost`` left (the
                limits before it in ``rates`` counted the request).
        """
        for item in self._items[kind]:
            if not await self._limiter.hit(item, kind, client, cost=cost):
                reset, _ = await self._limiter.get_window_stats(item, kind, client)
                raise self._refusal(kind, item, reset)

    async def ensure_open(self, kind: str, client: str) -> None:
        """Refuse ``client`` if one of the kind's limits has nothing left (counting nothing).

        With shared counters, a kind found open is trusted for :data:`OPEN_FOR`.

        Raises:
            RateLimitedError: a limit of the kind is used up.
        """
        found_open = self._found_open
        if found_open is not None and found_open.holds((kind, client)):
            return
        for item in self._items[kind]:
            reset, remaining = await self._limiter.get_window_stats(item, kind, client)
            if remaining <= 0:
                raise self._refusal(kind, item, reset)
        if found_open is not None:
            found_open.note((kind, client))

    async def charge(self, kind: str, client: str, cost: int) -> None:
        """Count ``cost`` of ``kind`` for ``client``, as much of it as each limit has left.

        The whole cost is tried first: when it fits, as it nearly always
        does, that is one call of the storage (one statement in the database).
        """
        if cost <= 0:
            return
        if self._found_open is not None:
            self._found_open.forget((kind, client))
        for item in self._items[kind]:
            if await self._limiter.hit(item, kind, client, cost=cost):
                continue
            _, remaining = await self._limiter.get_window_stats(item, kind, client)
            if remaining > 0:
                await self._limiter.hit(item, kind, client, cost=min(cost, remaining))

    @staticmethod
    def _refusal(kind: str, item: RateLimitItem, reset: float) -> RateLimitedError:
        """The error of a limit reached, with the whole seconds until its window lets one in."""
        wait = max(1, math.ceil(reset - time.time()))
        return RateLimitedError(
            f"too many {_WHAT[kind]} from your address: at most {item}; try again in {wait} s",
            wait,
        )


class _RecentlyOpen:
    """The (kind, client) pairs found open in the last ``seconds``, the oldest forgotten first."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._until: OrderedDict[tuple[str, str], float] = OrderedDict()  # in deadline order

    def holds(self, key: tuple[str, str]) -> bool:
        """Whether ``key`` was noted less than ``seconds`` ago (dropping the notes past theirs)."""
        now = time.monotonic()
        while self._until:
            oldest, until = next(iter(self._until.items()))
            if until > now:
                break
            del self._until[oldest]
        return key in self._until

    def note(self, key: tuple[str, str]) -> None:
        """Remember ``key`` as open from now."""
        self._until[key] = time.monotonic() + self.seconds
        self._until.move_to_end(key)

    def forget(self, key: tuple[str, str]) -> None:
        """Forget ``key`` (its counts changed)."""
        self._until.pop(key, None)


def _counted(request: Request) -> tuple[RateLimiter, str]:
    """The app's rate limiter, and whom ``request`` is counted for (:func:`client_key`)."""
    limiter: RateLimiter = request.app.state.rate_limiter
    return limiter, client_key(request.client.host if request.client else None)


def limited(kind: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency that counts the request as one of ``kind`` for its client."""

    async def count(request: Request) -> None:
        limiter, client = _counted(request)
        await limiter.hit(kind, client)

    count.__name__ = f"rate_limit_{kind}"
    return count


@dataclass
class Charge:
    """What a request costs its client of one kind, counted before its answer goes out."""

    limiter: RateLimiter
    kind: str
    client: str
    cost: int = 0

    async def settle(self) -> None:
        """Count :attr:`cost` now, so that the answer may go out.

        Counted in one step of the storage, so that many requests at once
        can never together pass what the client has left.

        Raises:
            RateLimitedError: the cost does not fit what the client has left.
        """
        cost, self.cost = self.cost, 0
        if cost > 0:
            await self.limiter.hit(self.kind, self.client, cost)


def paid(kind: str) -> Callable[[Request], Awaitable[Charge]]:
    """A route dependency: refuse a client whose ``kind`` is used up, else give the route a
    :class:`Charge` to add its cost to and settle before it answers.

    For costs known only once the answer is read but before it is sent:
    the moves and game ids a list holds.
    """

    async def charge(request: Request) -> Charge:
        limiter, client = _counted(request)
        await limiter.ensure_open(kind, client)
        return Charge(limiter, kind, client)

    charge.__name__ = f"pay_{kind}"
    return charge


async def charge_replays(request: Request) -> AsyncIterator[None]:
    """A route dependency: refuse a client whose replays are used up, then charge this request's.

    The stored moves the request made the server replay
    (:mod:`connect_four.service.replays` meters them, into worker threads
    too) are charged when it ends, refused or not: a move refused after its
    game was replayed cost the replay all the same. A charge the database
    cannot store (counters in it, the database failing) is dropped: the
    request's own answer says what failed, if anything did.
    """
    limiter, client = _counted(request)
    await limiter.ensure_open("replays", client)
    meter = metered()
    try:
        yield
    finally:
        with contextlib.suppress(StorageError):
            await limiter.charge("replays", client, meter[0])
