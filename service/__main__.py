"""Run the service: ``python -m service [--host H] [--port P] [--db FILE]``."""

from __future__ import annotations

import argparse

import uvicorn

from .main import DEFAULT_DB, create_app


def main(argv: list[str] | None = None) -> None:
    """Parse the options and serve until interrupted."""
    parser = argparse.ArgumentParser(
        prog="python -m service",
        description="Serve the drop-token game API and the board winner check.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (8080)")
    parser.add_argument(
        "--db", default=DEFAULT_DB, metavar="FILE", help=f"SQLite database file ({DEFAULT_DB})"
    )
    parser.add_argument(
        "--no-access-log", action="store_true", help="do not log each request"
    )
    args = parser.parse_args(argv)
    uvicorn.run(
        create_app(args.db),
        host=args.host,
        port=args.port,
        access_log=not args.no_access_log,
    )


if __name__ == "__main__":
    main()
