"""Open the store that ``--db`` names: an SQLite file (the default) or a PostgreSQL URL."""

from __future__ import annotations

import os

from .cache import CACHE_WEIGHT
from .errors import StorageError
from .repository import GameStore

__all__ = ["DB_ENVIRONMENT", "DEFAULT_DB", "is_postgres_url", "open_store"]

DEFAULT_DB = "drop_token.db"
"""The database when none is named: an SQLite file in the working directory."""

DB_ENVIRONMENT = "CONNECT_FOUR_DB"
"""The environment variable that names the database when ``--db`` does not."""


def is_postgres_url(db: str) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than an SQLite file.

    >>> is_postgres_url("postgresql://c4@db.example:5432/games"), is_postgres_url("games.db")
    (True, False)
    """
    return db.startswith(("postgresql://", "postgres://"))


def open_store(
    db: str | os.PathLike[str],
    *,
    max_db_pages: int | None = None,
    read_only: bool = False,
    cache_weight: int = CACHE_WEIGHT,
) -> GameStore:
    """The store of ``db``: a ``postgresql://`` URL, or else the path of an SQLite file.

    ``max_db_pages`` (SQLite only) caps the file's size in pages;
    ``cache_weight`` bounds the cache of replayed games.

    Raises:
        StorageError: the database cannot be opened or set up.
        ValueError: ``max_db_pages`` was given for PostgreSQL.
    """
    name = os.fspath(db)
    if is_postgres_url(name):
        if max_db_pages is not None:
            raise ValueError("--max-db-pages applies to SQLite files only")
        # Imported here: an SQLite service never loads the PostgreSQL driver.
        try:
            from .postgres_store import PostgresGameStore
        except ImportError as error:
            raise StorageError(
                f"PostgreSQL needs its driver ({error}): pip install -r requirements.txt"
            ) from None

        return PostgresGameStore(name, read_only=read_only, cache_weight=cache_weight)
    from .sqlite_store import SqliteGameStore

    return SqliteGameStore(
        name, max_pages=max_db_pages, read_only=read_only, cache_weight=cache_weight
    )
