"""What the repository asks of a database: connections in a transaction, and schema steps.

Both backends (:mod:`connect_four.service.sqlite_store`, :mod:`connect_four.service.postgres_store`)
hand the repository a :class:`Connection` whose statements take ``?``
placeholders, and bring their schema up to date at start-up with
:func:`pending_migrations`. Neither the protocol nor the migrations know
about games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol

from .errors import StorageError

__all__ = [
    "BUSY_TIMEOUT",
    "FRIEND_GAMES",
    "INSERT_GAME",
    "Connection",
    "Cursor",
    "Migration",
    "chain_length_column",
    "friend_games_table",
    "pending_migrations",
]

BUSY_TIMEOUT = 10.0
"""Seconds a transaction waits for another's lock before failing with storage_busy."""


class Cursor(Protocol):
    """What the store reads from a statement's result (sqlite3's and psycopg's cursors)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection inside a transaction: statements take ``?`` placeholders."""

    def execute(self, sql: str, parameters: Sequence[Any] = ..., /) -> Cursor: ...


Migration = Callable[[Connection], None]
"""One step of a database's schema: run inside the start-up transaction."""


def pending_migrations(
    version: int, migrations: Sequence[Migration], where: str
) -> Sequence[Migration]:
    """The steps that bring a schema at ``version`` up to date (``version`` counts steps done).

    Raises:
        StorageError: the database was made by a newer service than this one.
    """
    if version > len(migrations):
        raise StorageError(
            f"the database {where} has schema version {version}, newer than this service's "
            f"{len(migrations)}; run the newer service (the request changed nothing)"
        )
    return migrations[version:]


FRIEND_GAMES = """CREATE TABLE IF NOT EXISTS friend_games (
    game_id TEXT PRIMARY KEY REFERENCES games (game_id),
    state TEXT NOT NULL             -- JSON: clock, offer, end, rematch (service/friends.py)
)"""
"""A game between friends' extras, one row for a game that has any (issue 35)."""


def friend_games_table(connection: Connection) -> None:
    """Schema step 2, alike in both databases: the table of friends' games' extras."""
    connection.execute(FRIEND_GAMES)


def chain_length_column(connection: Connection) -> None:
    """Schema step 6, alike in both databases: the chain that wins each game (issue 36).

    The games stored before were all four in a row: their rows read 4.
    """
    connection.execute("ALTER TABLE games ADD COLUMN chain_length INTEGER NOT NULL DEFAULT 4")


INSERT_GAME = (
    "INSERT INTO games (game_id, players, board_rows, board_columns, tokens, chain_length)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
"""How every path stores a new game's row (the values of ``GameStore._game_row``)."""
