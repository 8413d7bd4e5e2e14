"""Databases made to look as an older service left them, for the migration tests."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg

from server_support import Database


def run_statements(database: Database, statements: list[str]) -> None:
    """Run ``statements`` in order on the SQLite file or the PostgreSQL database, committed."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as connection:
            for statement in statements:
                connection.execute(statement)
        return
    with psycopg.connect(str(database), autocommit=True) as connection:
        for statement in statements:
            connection.execute(statement)  # type: ignore[arg-type]


def schema_version(database: Database) -> int:
    """The schema version the database says it has."""
    if isinstance(database, Path):
        with sqlite3.connect(database) as connection:
            ((version,),) = connection.execute("SELECT version FROM schema_version").fetchall()
    else:
        with psycopg.connect(str(database)) as connection:
            ((version,),) = connection.execute("SELECT version FROM schema_version").fetchall()
    return int(version)
