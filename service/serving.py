"""Serve the app the settings describe: its pools, its limits on connections, and uvicorn.

The command line (:mod:`connect_four.service.cli`) parses; this module runs.
"""

from __future__ import annotations

import socket
import sys

import uvicorn

from .client_limits import ClientLedger, TrustedProxies
from .errors import StorageError
from .guards import GuardedHttpToolsProtocol, guarded_protocol
from .limits import KEEP_ALIVE_TIMEOUT
from .main import create_app
from .push_server import WakingServer, raise_open_files, settle_memory
from .redaction import scrub
from .settings import PROGRAM, Settings
from .winner_pool import AnalysisPool, ComputerPool, ReviewPool, WinnerPool

__all__ = ["inherited_listener", "serve"]


def serve(settings: Settings) -> None:
    """Serve until interrupted.

    A database that cannot be opened ends the program at once: one line on
    stderr, exit status 1.
    """
    pool = WinnerPool(waiting=settings.winner_queue)
    try:
        app = create_app(
            settings=settings,
            winner_pool=pool,
            analysis_pool=AnalysisPool(),
            computer_pool=ComputerPool(),
            review_pool=ReviewPool(),
        )
    except StorageError as error:
        # The error names the database, its secrets masked; scrubbed again
        # for any the driver's own words may quote.
        print(
            f"{PROGRAM}: cannot open the database: {scrub(str(error), settings.db)}",
            file=sys.stderr,
        )
        sys.exit(1)
    trusted = settings.trusted_proxies()
    ledger = ClientLedger(
        raise_open_files(settings.max_connections), settings.max_client_connections, trusted
    )
    protocol = guarded_protocol(ledger, settings.header_timeout)
    settle_memory()
    try:
        _run(app, settings, protocol, trusted)
    finally:
        pool.close()


def _run(
    app: object,
    settings: Settings,
    protocol: type[GuardedHttpToolsProtocol],
    trusted: TrustedProxies,
) -> None:
    """uvicorn with the service's limits on connections, headers and idle time.

    The protocol counts the connections (its ledger), in place of uvicorn's
    ``limit_concurrency``; X-Forwarded-For is read from ``trusted`` proxies only.
    """
    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=settings.host,
        port=settings.port,
        access_log=not settings.no_access_log,
        http=protocol,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        proxy_headers=bool(trusted.networks),
        forwarded_allow_ips=trusted.names() or None,
    )
    # Waiting requests answer at once when the server stops, instead of
    # holding the shutdown for up to their whole wait.
    server = WakingServer(config, app.state.events)  # type: ignore[attr-defined]
    fd = settings.fd
    try:
        server.run(sockets=None if fd is None else [inherited_listener(fd)])
    except KeyboardInterrupt:
        pass  # As uvicorn.run: a second Ctrl-C while stopping ends quietly.
    if not server.started:
        sys.exit(3)  # uvicorn.run's status when the server could not start


def inherited_listener(fd: int) -> socket.socket:
    """The listening socket handed over as descriptor ``fd`` (``--fd``), as what it really is.

    uvicorn's own ``fd`` option wraps any descriptor as a Unix socket. asyncio
    turns Nagle's algorithm off only on connections it knows as TCP, so each
    response's body then waited for the client's delayed acknowledgement of
    its headers: 40 ms more per answer, measured in a browser. Python reads
    the family and protocol off the descriptor itself.
    """
    return socket.socket(fileno=fd)
