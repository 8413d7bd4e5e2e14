"""Presence in a game between friends served by two processes on one database (issue 35).

Two apps on one database (an SQLite file, then a PostgreSQL database) stand
for two service processes behind a proxy that spreads a player's requests
over both: ann waits on the first, bob on the second. Each sees the other
come and go, pushed to their wait, and a claim made on the second is
decided on ann's presence on the first. Time is the tests' clock: the
processes' presence rows are looked at once it has moved, never slept for.
"""

from __future__ import annotations

from typing import Any

from app_client import AppClient
from friend_support import FakeClock, bearer, friend_app, new_game, present, status, until, wait_as

from server_support import Database


def rows_of(client: AppClient, game: str, player: int) -> list[Any]:
    """What every process's presence row says of ``player``, read from the app's database."""
    store = client.app.state.store  # type: ignore[attr-defined]
    return [row for row in store.presence_rows(game) if row.player == player]


def claim(client: AppClient, game: str, tokens: dict[str, str]) -> Any:
    return client.post(
        f"/friend_game/{game}/bob/claim", json={"result": "win"}, headers=bearer(tokens["bob"])
    )


def test_arrival_and_departure_on_one_process_reach_a_wait_on_the_other(
    database: Database,
) -> None:
    clock = FakeClock()
    with friend_app(database, clock) as first, friend_app(database, clock) as second:
        game, tokens = new_game(first)
        bob = wait_as(second, game, tokens, "bob")
        ann = wait_as(first, game, tokens, "ann", wait=0.3)
        seen = bob.answer()  # Woken by ann's arrival on the other process.
        assert present(seen) == {"ann": True, "bob": True}
        ann.answer()  # Her wait ends and she polls no more...
        bob = wait_as(second, game, tokens, "bob", seen["version"])
        clock.advance(1.5)  # ...and after the grace the first process says she left.
        gone = bob.answer()
        assert present(gone) == {"ann": False, "bob": True}
        assert gone["players"][0]["awayFor"] == 1.5


def test_a_claim_on_one_process_is_decided_on_presence_on_the_other(
    database: Database,
) -> None:
    clock = FakeClock()
    with friend_app(database, clock) as first, friend_app(database, clock) as second:
        game, tokens = new_game(first)
        status(second, game)  # The second process has known the game from the start.
        ann = wait_as(first, game, tokens, "ann")
        clock.advance(61)
        # Her process vouches for her again within a quarter second (its heartbeat).
        until(lambda: max(row.until for row in rows_of(second, game, 0)) > clock(), "a heartbeat")
        refused = claim(second, game, tokens)
        assert (refused.status_code, refused.json()["error"]) == (409, "claim_refused")
        assert status(second, game)["players"][0]["present"] is True
        # Bob shows himself on the second process: ann's wait, on the first, is told.
        second.get(f"/friend_game/{game}", params={"player": "bob"}, headers=bearer(tokens["bob"]))
        assert present(ann.answer()) == {"ann": True, "bob": True}
        # ann polls no more; the first process writes her departure once the grace is over.
        clock.advance(30)
        until(lambda: max(row.until for row in rows_of(second, game, 0)) < clock(), "departure")
        too_soon = claim(second, game, tokens)
        assert (too_soon.status_code, too_soon.json()["error"]) == (409, "claim_refused")
        assert status(second, game)["players"][0]["awayFor"] == 30
        clock.advance(31)
        assert claim(second, game, tokens).status_code == 200
        state = first.get(f"/drop_token/{game}").json()
        assert (state["state"], state["winner"]) == ("DONE", "bob")
