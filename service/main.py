"""Build the web app: its store and worker pool, its routers, its guards and its error handler.

Each resource is one router module (:mod:`connect_four.service.routers`); each thing a
route needs is one dependency (:mod:`connect_four.service.dependencies`); every error
is answered by the one table of :mod:`connect_four.service.error_table`. Adding a router
is one ``include_router`` line here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from connect_four.engine import __version__

from .client_limits import WaitLedger
from .error_table import install_error_handler
from .events import EventHub
from .friends import Friends
from .guards import RequestLimits
from .limits import BODY_TIMEOUT, CLAIM_AFTER, MAX_BODY_BYTES, MAX_CLIENT_WAITS
from .lobby import Lobby
from .lobby_stream import LobbyStreams
from .move_feed import open_feed
from .openapi import describe_limits, install_openapi
from .rate_limits import RateLimiter, Rates
from .response_headers import AnswerHeaders
from .routers import (
    analysis,
    api_docs,
    computer,
    drop_token,
    friend,
    lobby,
    page,
    players,
    review,
    winner,
)
from .settings import Settings
from .shared_rates import DatabaseRateStorage
from .storage import DEFAULT_DB, open_store
from .trailing_slash import ServeWithoutTrailingSlash
from .winner_pool import (
    AnalysisPool,
    ComputerPool,
    ReviewPool,
    WinnerPool,
    shared_analysis_pool,
    shared_computer_pool,
    shared_pool,
    shared_review_pool,
)

__all__ = ["DEFAULT_DB", "create_app"]


def create_app(
    db: str | os.PathLike[str] = DEFAULT_DB,
    *,
    max_db_pages: int | None = None,
    read_only: bool = False,
    max_body_bytes: int = MAX_BODY_BYTES,
    body_timeout: float = BODY_TIMEOUT,
    winner_pool: WinnerPool | None = None,
    analysis_pool: AnalysisPool | None = None,
    computer_pool: ComputerPool | None = None,
    review_pool: ReviewPool | None = None,
    rates: Rates | None = None,
    rate_store: str = "memory",
    max_client_waits: int = MAX_CLIENT_WAITS,
    settings: Settings | None = None,
    claim_after: float = CLAIM_AFTER,
    clock: Callable[[], float] = time.time,
) -> FastAPI:
    """The app, its games stored in ``db``: a ``postgresql://`` URL or an SQLite file.

    ``settings``, when given, is the service's settings whole (the command
    line's): its database, limits and rates replace ``db``, ``max_db_pages``,
    ``read_only``, ``body_timeout``, ``rates``, ``rate_store``,
    ``max_client_waits`` and ``claim_after``, which remain for a caller (a
    test) that sets one or two.

    An SQLite file is created if missing; a PostgreSQL database must exist
    (the service creates or migrates its tables).
    ``max_db_pages`` caps an SQLite database's size in pages (4 KiB each);
    ``read_only`` serves the games and refuses every change (503);
    ``winner_pool`` runs the winner checks, and the app stops its workers
    when it shuts down (before the server's process ends, so no worker is
    left to print a traceback or leak a semaphore); if None, the process's
    shared pool runs them and outlives the app; ``analysis_pool`` likewise
    for ``POST /analysis``, ``computer_pool`` for ``POST /computer_move``,
    ``review_pool`` for ``POST /review``;
    ``rates`` bounds what each client address may create or have computed
    (429 beyond; the defaults of :class:`Rates` if None), counted in this
    process's memory or, ``rate_store`` ``"database"``, in the database, for
    every process that uses it (a read-only service counts in memory).
    ``max_client_waits`` bounds the long polls one client address may have waiting.
    ``clock`` is the time of games between friends' clocks and presence, and
    of the lobby's presence and pairing (tests inject theirs).

    Raises:
        StorageError: the database cannot be opened as the service's database.
        SettingsError: the settings contradict each other.
    """
    if settings is None:
        settings = Settings(
            rate_store=rate_store,
            db=os.fspath(db),
            max_db_pages=max_db_pages,
            read_only=read_only,
            body_timeout=body_timeout,
            max_client_waits=max_client_waits,
            claim_after=claim_after,
        ).with_rates(rates or Rates())
    store = open_store(
        settings.db, max_db_pages=settings.max_db_pages, read_only=settings.read_only
    )
    # Counters every process on the database shares, unless it may not write.
    rate_storage = None
    if settings.rate_store == "database" and not settings.read_only:
        rate_storage = DatabaseRateStorage(store)
    # Waiting requests (GET .../moves?wait=), woken by this process's moves
    # and, through the database, by the other processes'.
    events = EventHub()
    feed = open_feed(store, events)
    friends = Friends(store, clock=clock, claim_after=settings.claim_after)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        events.bind(asyncio.get_running_loop())
        await feed.start()
        sweeper = None if settings.read_only else asyncio.create_task(app.state.lobby.run())
        presence = asyncio.create_task(friend.keep_presence(store, friends, events))
        yield
        for task in (sweeper, presence):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        events.close()
        await feed.stop()
        if rate_storage is not None:
            await rate_storage.close()
        await store.close_on_loop()
        store.close()
        for pool in (winner_pool, analysis_pool, computer_pool, review_pool):
            if pool is not None:
                pool.close()

    app = FastAPI(
        title="Connect Four service",
        summary="The drop-token game API and a winner check for board strings.",
        description=describe_limits(max_body_bytes, settings.body_timeout),
        version=__version__,  # the one version of the project (connect_four.engine.__version__)
        lifespan=lifespan,
        # FastAPI's pages load Swagger UI and ReDoc from a CDN: /docs is
        # served from the service's own files instead (routers/api_docs.py).
        docs_url=None,
        redoc_url=None,
    )
    # What the dependencies hand the routes (service/dependencies.py).
    app.state.store = store
    app.state.rate_limiter = RateLimiter(settings.rates(), rate_storage)
    app.state.events = events
    app.state.waits = WaitLedger(settings.max_client_waits)
    app.state.friends = friends
    app.state.lobby = Lobby(store, events, clock=clock)
    app.state.lobby_streams = LobbyStreams(app.state.lobby, events)
    app.state.winner_pool = winner_pool or shared_pool()
    app.state.analysis_pool = analysis_pool or shared_analysis_pool()
    app.state.computer_pool = computer_pool or shared_computer_pool()
    app.state.review_pool = review_pool or shared_review_pool()
    app.include_router(drop_token.router)
    app.include_router(friend.router)
    app.include_router(players.router)
    app.include_router(lobby.router)
    app.include_router(winner.router)
    app.include_router(analysis.router)
    app.include_router(computer.router)
    app.include_router(review.router)
    app.include_router(page.router)
    app.include_router(api_docs.router)
    install_error_handler(app)
    app.add_middleware(RequestLimits, max_bytes=max_body_bytes, timeout=settings.body_timeout)
    app.add_middleware(ServeWithoutTrailingSlash)
    # Outermost: every answer of the app gets its headers, errors of the guards included.
    app.add_middleware(AnswerHeaders)
    install_openapi(app, max_body_bytes, settings.body_timeout)
    return app
