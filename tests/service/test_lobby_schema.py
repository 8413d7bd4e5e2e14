"""The lobby's tables are schema version 4: a database at version 3 is migrated (to the latest) and keeps its games."""

from __future__ import annotations

from app_client import AppClient
from lobby_support import register
from old_schemas import run_statements, schema_version

from connect_four.service.main import create_app
from connect_four.service.storage import open_store
from server_support import Database

LOBBY_TABLES = ("players", "ratings", "seeks", "pairing", "lobby_games", "lobby_version")


def _as_version_3(database: Database) -> None:
    """Take the lobby's tables and the games' chain away and say version 3, as a service
    before issue 36 left it."""
    statements = [f"DROP TABLE {table}" for table in LOBBY_TABLES]
    statements.append("ALTER TABLE games DROP COLUMN chain_length")
    statements.append("UPDATE schema_version SET version = 3")
    run_statements(database, statements)


def test_a_version_3_database_gets_the_lobby_and_keeps_its_games(database: Database) -> None:
    store = open_store(str(database))
    created = store.create_game(players=["ann", "bob"], rows=6, columns=7)
    store.play(game_id=created.game_id, player_id="ann", column=3)
    store.close()
    _as_version_3(database)
    assert schema_version(database) == 3
    with AppClient(create_app(database)) as client:
        # the lobby (4), friends' presence (5), each game's chain (6)
        assert schema_version(database) == 6
        moves = client.get(f"/drop_token/{created.game_id}/moves").json()["moves"]
        assert moves == [{"type": "MOVE", "player": "ann", "column": 3}]
        ann, bob = register(client, "ann"), register(client, "bob")
        ticket = bob.accept(ann.seek()["id"])
        assert client.get(f"/lobby/games/{ticket['gameId']}").json()["state"] == "IN_PROGRESS"
