"""A game between friends served by two processes on one database: what one changes, the other sees.

Two apps on one database stand for two service processes, each with its
own cache of the games it served. A takeback deletes stored moves, the one
change of a game that is not an appended move: the other process's cached
game must not go on from the moves taken back.
"""

from __future__ import annotations

from typing import Any

from app_client import AppClient
from friend_support import FakeClock, bearer, friend_app, move, new_game

from server_support import Database


def post(
    client: AppClient, game: str, tokens: dict[str, str], player: str, what: str, **body: Any
) -> Any:
    return client.post(
        f"/friend_game/{game}/{player}/{what}", json=body, headers=bearer(tokens[player])
    )


def history(client: AppClient, game: str) -> list[tuple[int, int | None]]:
    """The moves of ``game`` as the app's own store holds them (its cached game, caught up)."""
    stored = client.app.state.store.read_game(game).game  # type: ignore[attr-defined]
    return [(played.player, played.column) for played in stored.history]


def test_a_takeback_made_by_one_process_is_seen_by_the_other(database: Database) -> None:
    clock = FakeClock()
    with friend_app(database, clock) as first, friend_app(database, clock) as second:
        game, tokens = new_game(first)
        for player, column in [("ann", 0), ("bob", 1), ("ann", 2)]:
            move(first, game, tokens, player, column)
        assert second.get(f"/drop_token/{game}").json()["state"] == "IN_PROGRESS"
        assert history(second, game) == [(0, 0), (1, 1), (0, 2)]  # Cached by the second.
        assert post(first, game, tokens, "ann", "offer", kind="takeback").status_code == 200
        assert post(first, game, tokens, "bob", "answer", accept=True).status_code == 200
        move(first, game, tokens, "ann", 3)  # As many moves as before, another board.
        move(second, game, tokens, "bob", 2)
        stored = [(0, 0), (1, 1), (0, 3), (1, 2)]
        assert history(second, game) == stored
        assert history(first, game) == stored
        listed = second.get(f"/drop_token/{game}/moves").json()["moves"]
        assert [(entry["player"], entry["column"]) for entry in listed] == [
            ("ann", 0),
            ("bob", 1),
            ("ann", 3),
            ("bob", 2),
        ]
