"""What the routes need, as FastAPI dependencies: the store, the worker pools, the client.

The app made by :func:`connect_four.service.main.create_app` holds both; a route asks
for them by type (``store: StoreDep``, ``pool: WinnerPoolDep``) and never
reaches into the app itself, so a test may swap either through
``app.dependency_overrides``. Both are ``async``: they do no I/O, and an
async dependency runs on the event loop instead of taking a worker thread.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from starlette.types import Receive

from .client_limits import WaitLedger
from .events import EventHub
from .friends import Friends
from .lobby import Lobby
from .lobby_stream import LobbyStreams
from .long_poll import client_gone
from .repository import GameStore
from .winner_pool import AnalysisPool, ComputerPool, ReviewPool, WinnerPool

__all__ = [
    "AnalysisPoolDep",
    "Client",
    "ClientDep",
    "ComputerPoolDep",
    "ReviewPoolDep",
    "EventsDep",
    "FriendsDep",
    "GoneDep",
    "LobbyDep",
    "LobbyStreamsDep",
    "StoreDep",
    "WinnerPoolDep",
    "get_analysis_pool",
    "get_client",
    "get_computer_pool",
    "get_review_pool",
    "get_events",
    "get_friends",
    "get_lobby",
    "get_lobby_streams",
    "get_store",
    "get_winner_pool",
]


async def get_store(request: Request) -> GameStore:
    """The app's store of games."""
    store: GameStore = request.app.state.store
    return store


async def get_events(request: Request) -> EventHub:
    """The app's hub of requests waiting for moves (GET .../moves?wait=)."""
    events: EventHub = request.app.state.events
    return events


async def get_winner_pool(request: Request) -> WinnerPool:
    """The app's pool of winner-check worker processes."""
    pool: WinnerPool = request.app.state.winner_pool
    return pool


StoreDep = Annotated[GameStore, Depends(get_store)]
"""A route's parameter of this type receives the app's store."""

WinnerPoolDep = Annotated[WinnerPool, Depends(get_winner_pool)]
"""A route's parameter of this type receives the app's winner-check pool."""


async def get_analysis_pool(request: Request) -> AnalysisPool:
    """The app's pool of analysis worker processes (``POST /analysis``)."""
    pool: AnalysisPool = request.app.state.analysis_pool
    return pool


AnalysisPoolDep = Annotated[AnalysisPool, Depends(get_analysis_pool)]
"""A route's parameter of this type receives the analysis pool."""


async def get_review_pool(request: Request) -> ReviewPool:
    """The app's pool of game-review worker processes (``POST /review``)."""
    pool: ReviewPool = request.app.state.review_pool
    return pool


ReviewPoolDep = Annotated[ReviewPool, Depends(get_review_pool)]
"""A route's parameter of this type receives the game-review pool."""

EventsDep = Annotated[EventHub, Depends(get_events)]
"""A route's parameter of this type receives the app's hub of waiting requests."""


@dataclass(frozen=True)
class Client:
    """Who sent a request: its address, the channel that says when it has gone, and
    the app's count of each address's waits (one dependency, not two: each adds to a
    request's time)."""

    host: str | None
    """The TCP peer's address, or the one a trusted proxy passed on (``--trusted-proxy``)."""
    receive: Receive
    """The request's ASGI receive channel: ``http.disconnect`` once the client has gone."""
    waits: WaitLedger

    def waiting(self) -> AbstractContextManager[None]:
        """Hold one of this client's waits for the block (:meth:`WaitLedger.waiting`)."""
        return self.waits.waiting(self.host)

    async def gone(self) -> None:
        """Return once the client has gone (its connection closed); the body is read by then."""
        await client_gone(self.receive)


async def get_client(request: Request) -> Client:
    """The request's client."""
    host = request.client.host if request.client else None
    return Client(host, request.receive, request.app.state.waits)


ClientDep = Annotated[Client, Depends(get_client)]
"""A route's parameter of this type receives the request's client."""


async def get_computer_pool(request: Request) -> ComputerPool:
    """The app's pool of computer-move worker processes (``POST /computer_move``)."""
    pool: ComputerPool = request.app.state.computer_pool
    return pool


ComputerPoolDep = Annotated[ComputerPool, Depends(get_computer_pool)]
"""A route's parameter of this type receives the computer-move pool."""


async def get_friends(request: Request) -> Friends:
    """The extras of games between friends, and who is present (:mod:`connect_four.service.friends`)."""
    friends: Friends = request.app.state.friends
    store: GameStore = request.app.state.store
    if friends.store is not store:  # A test or an operator swapped the store.
        friends.attach(store)
    return friends


FriendsDep = Annotated[Friends, Depends(get_friends)]
"""A route's parameter of this type receives the app's :class:`~connect_four.service.friends.Friends`."""


async def get_gone(request: Request) -> Callable[[], Awaitable[bool]]:
    """Whether the request's client has gone (closed its connection): for long waits."""
    return request.is_disconnected


GoneDep = Annotated[Callable[[], Awaitable[bool]], Depends(get_gone)]
"""A route's parameter of this type receives a check that its client has gone."""


async def get_lobby(request: Request) -> Lobby:
    """The lobby: keys, presence and wake-ups (:mod:`connect_four.service.lobby`)."""
    lobby: Lobby = request.app.state.lobby
    store: GameStore = request.app.state.store
    if lobby.store is not store:  # A test or an operator swapped the store.
        lobby.attach(store)
    return lobby


LobbyDep = Annotated[Lobby, Depends(get_lobby)]
"""A route's parameter of this type receives the app's :class:`~connect_four.service.lobby.Lobby`."""


async def get_lobby_streams(request: Request) -> LobbyStreams:
    """The lobby's open event streams (:mod:`connect_four.service.lobby_stream`)."""
    await get_lobby(request)  # The lobby re-attached to a swapped store, as for its long poll.
    streams: LobbyStreams = request.app.state.lobby_streams
    return streams


LobbyStreamsDep = Annotated[LobbyStreams, Depends(get_lobby_streams)]
"""A route's parameter of this type receives the app's :class:`~connect_four.service.lobby_stream.LobbyStreams`."""
