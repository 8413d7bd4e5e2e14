"""The service's command line: ``python -m connect_four.service [--host H] [--port P] [--db FILE_OR_URL]``.

Also the ``connect-four-service`` command's entry point (:func:`main`).
"""

from __future__ import annotations

import argparse
import os
import socket
import sys

try:
    import uvicorn

    from .errors import StorageError
    from .guards import GuardedHttpToolsProtocol
    from .limits import KEEP_ALIVE_TIMEOUT, MAX_CONNECTIONS, WINNER_WAITING
    from .main import create_app
    from .push_server import WakingServer, raise_open_files, settle_memory
    from .storage import DB_ENVIRONMENT, DEFAULT_DB, is_postgres_url
    from .winner_pool import AnalysisPool, ComputerPool, WinnerPool
except ModuleNotFoundError as missing:
    # Installed without the extra (`pip install connect-four`): say what to
    # install in one line instead of a traceback.
    print(
        f"connect-four-service: {missing.name} is not installed; the web service "
        "needs the service extra: pip install 'connect-four[service]'",
        file=sys.stderr,
    )
    sys.exit(1)


TRUSTED_PROXIES_ENVIRONMENT = "CONNECT_FOUR_TRUSTED_PROXIES"
"""The environment variable that lists the trusted proxies when ``--trusted-proxy`` does not."""


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve until interrupted.

    A database file that cannot be opened ends the program at once: one
    line on stderr, exit status 1. This is also the ``connect-four-service``
    command's entry point.
    """
    parser = argparse.ArgumentParser(
        prog="python -m connect_four.service",
        description="Serve the drop-token game API and the board winner check.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (8080)")
    parser.add_argument(
        "--fd",
        type=int,
        metavar="N",
        help="serve on the listening socket inherited as file descriptor N instead "
        "(socket activation; host and port are then the socket's)",
    )
    parser.add_argument(
        "--db",
        default=os.environ.get(DB_ENVIRONMENT) or DEFAULT_DB,
        metavar="FILE_OR_URL",
        help="SQLite database file, or postgresql://user@host:port/dbname to share games "
        f"between processes and machines (${DB_ENVIRONMENT}, else {DEFAULT_DB})",
    )
    parser.add_argument(
        "--max-db-pages",
        type=int,
        metavar="N",
        help="cap an SQLite database at N pages of 4 KiB; beyond, writes answer 503 storage_full",
    )
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="serve the games but refuse every change with 503 storage_read_only",
    )
    parser.add_argument(
        "--body-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds a request may take to send its body (10)",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="seconds a connection may take to send a request's headers (10)",
    )
    parser.add_argument(
        "--winner-queue",
        type=int,
        default=WINNER_WAITING,
        metavar="N",
        help=f"winner checks that may wait for the worker; more are 503 ({WINNER_WAITING})",
    )
    parser.add_argument("--no-access-log", action="store_true", help="do not log each request")
    parser.add_argument(
        "--trusted-proxy",
        default=os.environ.get(TRUSTED_PROXIES_ENVIRONMENT) or None,
        metavar="ADDR[,ADDR...]",
        help="addresses (or networks, 10.0.0.0/8) of the reverse proxies in front: a request "
        "from one of them is the client's its X-Forwarded-For header names (as the access log "
        "shows it); from any other address the header is ignored, as it is without this "
        f"option (${TRUSTED_PROXIES_ENVIRONMENT})",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help="connections and requests at once, waiting ones included; more are 503 "
        f"({MAX_CONNECTIONS}; the open-files limit is raised to fit when it can be)",
    )
    args = parser.parse_args(argv)
    if args.max_db_pages is not None and is_postgres_url(args.db):
        parser.error("--max-db-pages applies to SQLite files only")
    options = {} if args.body_timeout is None else {"body_timeout": args.body_timeout}
    pool = WinnerPool(waiting=args.winner_queue)
    try:
        app = create_app(
            args.db,
            max_db_pages=args.max_db_pages,
            read_only=args.read_only,
            winner_pool=pool,
            analysis_pool=AnalysisPool(),
            computer_pool=ComputerPool(),
            **options,
        )
    except StorageError as error:
        print(f"python -m connect_four.service: cannot open the database: {error}", file=sys.stderr)
        sys.exit(1)
    protocol: type[GuardedHttpToolsProtocol] = GuardedHttpToolsProtocol
    if args.header_timeout is not None:

        class TimedProtocol(GuardedHttpToolsProtocol):
            header_timeout = args.header_timeout

        protocol = TimedProtocol
    settle_memory()
    try:
        _serve(
            app,
            args.host,
            args.port,
            args.fd,
            not args.no_access_log,
            protocol,
            raise_open_files(args.max_connections),
            trusted_proxies(args.trusted_proxy),
        )
    finally:
        pool.close()


def _serve(
    app: object,
    host: str,
    port: int,
    fd: int | None,
    access_log: bool,
    protocol: type[GuardedHttpToolsProtocol],
    max_connections: int = MAX_CONNECTIONS,
    proxies: list[str] | None = None,
) -> None:
    """uvicorn with the service's limits on connections, headers and idle time.

    ``proxies``: the addresses whose X-Forwarded-For header is believed;
    None or empty: nobody's (uvicorn alone would believe 127.0.0.1's).
    """
    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        access_log=access_log,
        http=protocol,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        limit_concurrency=max_connections,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
    )
    # Waiting requests answer at once when the server stops, instead of
    # holding the shutdown for up to their whole wait.
    server = WakingServer(config, app.state.events)  # type: ignore[attr-defined]
    try:
        server.run(sockets=None if fd is None else [inherited_listener(fd)])
    except KeyboardInterrupt:
        pass  # As uvicorn.run: a second Ctrl-C while stopping ends quietly.
    if not server.started:
        sys.exit(3)  # uvicorn.run's status when the server could not start


def trusted_proxies(option: str | None) -> list[str] | None:
    """The addresses ``--trusted-proxy`` lists (comma-separated), or None if it is not given.

    >>> trusted_proxies("10.0.0.5, 10.0.1.0/24")
    ['10.0.0.5', '10.0.1.0/24']
    """
    if option is None:
        return None
    return [address.strip() for address in option.split(",") if address.strip()] or None


def inherited_listener(fd: int) -> socket.socket:
    """The listening socket handed over as descriptor ``fd`` (``--fd``), as what it really is.

    uvicorn's own ``fd`` option wraps any descriptor as a Unix socket. asyncio
    turns Nagle's algorithm off only on connections it knows as TCP, so each
    response's body then waited for the client's delayed acknowledgement of
    its headers: 40 ms more per answer, measured in a browser. Python reads
    the family and protocol off the descriptor itself.
    """
    return socket.socket(fileno=fd)
