"""The move feed follows what the store says it is, never the attributes it happens to have."""

from __future__ import annotations

from pathlib import Path

from connect_four.service.events import EventHub
from connect_four.service.move_feed import PostgresMoveFeed, SqliteMoveFeed, open_feed
from connect_four.service.repository import Database, GameStore
from connect_four.service.sqlite_store import SqliteGameStore


class _LocalStore(GameStore):
    """A store this process alone writes, though it carries a URL (a test's stand-in)."""

    url = "postgresql://nobody@127.0.0.1:1/none"
    path = "games.db"


class _SaysPostgres(GameStore):
    def database(self) -> Database:
        return Database("postgresql", "postgresql://c4@127.0.0.1:1/games", read_only=True)


def test_a_store_that_names_no_database_gets_no_feed() -> None:
    feed = open_feed(_LocalStore(), EventHub())
    assert not isinstance(feed, (PostgresMoveFeed, SqliteMoveFeed))


def test_the_feed_is_the_database_kind_the_store_names(tmp_path: Path) -> None:
    assert isinstance(open_feed(_SaysPostgres(), EventHub()), PostgresMoveFeed)
    store = SqliteGameStore(tmp_path / "games.db")
    try:
        assert store.database() == Database("sqlite", str(tmp_path / "games.db"), read_only=False)
        assert isinstance(open_feed(store, EventHub()), SqliteMoveFeed)
    finally:
        store.close()
