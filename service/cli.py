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
    from .friends import CLAIM_AFTER
    from .guards import GuardedHttpToolsProtocol
    from .limits import KEEP_ALIVE_TIMEOUT, MAX_CONNECTIONS, WINNER_WAITING
    from .main import create_app
    from .push_server import WakingServer, raise_open_files, settle_memory
    from .rate_limits import OFF, Rates, parse_rate
    from .redaction import scrub
    from .storage import DB_ENVIRONMENT, DEFAULT_DB, is_postgres_url
    from .winner_pool import AnalysisPool, ComputerPool, WinnerPool
except ModuleNotFoundError as missing:
    # Installed without the extra (`pip install connect-four`): say what to
    # install in one line instead of a traceback.
    from .install_hint import install_command

    print(
        f"connect-four-service: {missing.name} is not installed; the web service "
        f"needs the service extra: {install_command('service')}",
        file=sys.stderr,
    )
    sys.exit(1)


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
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help="connections and requests at once, waiting ones included; more are 503 "
        f"({MAX_CONNECTIONS}; the open-files limit is raised to fit when it can be)",
    )
    parser.add_argument(
        "--claim-after",
        type=_claim_seconds,
        default=CLAIM_AFTER,
        metavar="SECONDS",
        help="in a game between friends, how long a player must be away on their turn before "
        f"the other may claim the win or a draw ({CLAIM_AFTER:g})",
    )
    _add_rate_options(parser)
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
            rates=Rates(
                games=args.rate_games,
                moves=args.rate_moves,
                analysis=args.rate_analysis,
                computer=args.rate_computer,
                replays=args.rate_replays,
            ),
            claim_after=args.claim_after,
            **options,
        )
    except StorageError as error:
        # The error names the database, its secrets masked; scrubbed again
        # for any the driver's own words may quote.
        print(
            f"python -m connect_four.service: cannot open the database: {scrub(str(error), args.db)}",
            file=sys.stderr,
        )
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
        )
    finally:
        pool.close()


RATE_ENVIRONMENT = "CONNECT_FOUR_RATE_{}"
"""The environment variable of each kind's rate (``CONNECT_FOUR_RATE_MOVES``), read when
its option is not given."""


def _add_rate_options(parser: argparse.ArgumentParser) -> None:
    """``--rate-games`` and the others: each kind's rate per client address, or ``off``."""
    defaults = Rates()
    what = {
        "games": "games one client address may create",
        "moves": "moves and quits one client address may post",
        "analysis": "POST /analysis one client address may ask",
        "computer": "POST /computer_move one client address may ask",
        "replays": "stored moves one client address may make the server replay "
        "(games that had left its cache)",
    }
    for kind, text in what.items():
        variable = RATE_ENVIRONMENT.format(kind.upper())
        parser.add_argument(
            f"--rate-{kind}",
            type=_rate,
            default=os.environ.get(variable) or getattr(defaults, kind),  # checked by type
            metavar="RATE",
            help=f"{text}, e.g. 100/minute or 10/second;300/hour, or {OFF}; more are 429 "
            f"(${variable}, else {getattr(defaults, kind)})",
        )


def _claim_seconds(text: str) -> float:
    """``--claim-after``'s value: seconds, above 0 and at most a day (argparse's ``type``)."""
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 86400:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds above 0, at most 86400")
    return seconds


def _rate(text: str) -> str:
    """A rate option's value, checked (argparse's ``type``)."""
    try:
        parse_rate(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is no rate: write N/second, N/minute, N/hour (';' between several) or {OFF}"
        ) from None
    return text


def _serve(
    app: object,
    host: str,
    port: int,
    fd: int | None,
    access_log: bool,
    protocol: type[GuardedHttpToolsProtocol],
    max_connections: int = MAX_CONNECTIONS,
) -> None:
    """uvicorn with the service's limits on connections, headers and idle time."""
    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        access_log=access_log,
        http=protocol,
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        limit_concurrency=max_connections,
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


def inherited_listener(fd: int) -> socket.socket:
    """The listening socket handed over as descriptor ``fd`` (``--fd``), as what it really is.

    uvicorn's own ``fd`` option wraps any descriptor as a Unix socket. asyncio
    turns Nagle's algorithm off only on connections it knows as TCP, so each
    response's body then waited for the client's delayed acknowledgement of
    its headers: 40 ms more per answer, measured in a browser. Python reads
    the family and protocol off the descriptor itself.
    """
    return socket.socket(fileno=fd)
