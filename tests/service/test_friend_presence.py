"""Presence of the players of a game between friends, pushed to a waiting client, and claims."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from app_client import AppClient
from friend_support import (
    FakeClock,
    bearer,
    friend_app,
    move,
    new_game,
    present,
    status,
    wait_as,
)

from server_support import Database


@pytest.fixture
def client(database: Database, clock: FakeClock) -> Iterator[AppClient]:
    with friend_app(database, clock) as test_client:
        yield test_client


def test_a_player_never_seen_is_away(client: AppClient) -> None:
    game, _ = new_game(client)
    assert present(status(client, game)) == {"ann": False, "bob": False}


def test_arrival_and_departure_are_pushed_to_the_waiting_opponent(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client)
    first = client.get(
        f"/friend_game/{game}", params={"player": "bob"}, headers=bearer(tokens["bob"])
    )
    assert present(first.json()) == {"ann": False, "bob": True}
    bob = wait_as(client, game, tokens, "bob", first.json()["version"])
    ann = wait_as(client, game, tokens, "ann", first.json()["version"], wait=0.3)
    seen = bob.answer()
    assert present(seen) == {"ann": True, "bob": True}
    ann.answer()  # Her wait ends (her client went away)...
    bob = wait_as(client, game, tokens, "bob", seen["version"])
    clock.advance(1.5)  # ...and after the grace she is away: bob's wait says so.
    gone = bob.answer()
    assert present(gone) == {"ann": False, "bob": True}
    assert gone["players"][0]["awayFor"] == pytest.approx(1.5, abs=0.01)


def test_a_request_with_a_token_counts_as_present_for_the_grace(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client)
    seen = client.get(
        f"/friend_game/{game}", params={"player": "ann"}, headers=bearer(tokens["ann"])
    )
    assert present(seen.json())["ann"] is True
    clock.advance(1.5)
    assert present(status(client, game))["ann"] is False


def test_presence_needs_the_players_token(client: AppClient) -> None:
    game, tokens = new_game(client)
    refused = client.get(
        f"/friend_game/{game}", params={"player": "ann"}, headers=bearer(tokens["bob"])
    )
    assert (refused.status_code, refused.json()["error"]) == (403, "token_rejected")
    assert present(status(client, game))["ann"] is False


def test_the_win_is_claimed_once_the_opponent_is_away_long_enough_on_their_turn(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client)
    move(client, game, tokens, "ann", 0)
    move(client, game, tokens, "bob", 1)  # ann's turn; she is gone.
    clock.advance(59)
    assert status(client, game)["claimable"] is False
    url = f"/drop_token/{game}"
    early = client.post(
        f"/friend_game/{game}/bob/claim", json={"result": "win"}, headers=bearer(tokens["bob"])
    )
    assert (early.status_code, early.json()["error"]) == (409, "claim_refused")
    assert client.get(url).json()["state"] == "IN_PROGRESS"
    clock.advance(2)
    assert status(client, game)["claimable"] is True
    claimed = client.post(
        f"/friend_game/{game}/bob/claim", json={"result": "win"}, headers=bearer(tokens["bob"])
    )
    assert claimed.status_code == 200, claimed.text
    state = client.get(url).json()
    assert (state["state"], state["winner"], state["reason"]) == ("DONE", "bob", "ABANDONED")
    assert client.get(f"{url}/moves").json()["moves"][-1] == {"type": "ABANDONED", "player": "ann"}


def test_a_draw_is_claimed_and_ends_the_game(client: AppClient, clock: FakeClock) -> None:
    game, tokens = new_game(client)
    move(client, game, tokens, "ann", 0)  # bob's turn; he is gone.
    clock.advance(61)
    claimed = client.post(
        f"/friend_game/{game}/ann/claim", json={"result": "draw"}, headers=bearer(tokens["ann"])
    )
    assert claimed.status_code == 200, claimed.text
    state = client.get(f"/drop_token/{game}").json()
    assert (state["state"], state["winner"], state["reason"]) == ("DONE", None, "DRAW_CLAIMED")
    late = client.post(f"/drop_token/{game}/bob", json={"column": 1}, headers=bearer(tokens["bob"]))
    assert (late.status_code, late.json()["error"]) == (410, "game_done")
    assert game not in client.get("/drop_token").json()["games"]


def test_no_claim_on_ones_own_turn_nor_against_a_present_opponent(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client)
    clock.advance(100)
    own_turn = client.post(
        f"/friend_game/{game}/ann/claim", json={"result": "win"}, headers=bearer(tokens["ann"])
    )
    assert (own_turn.status_code, own_turn.json()["error"]) == (409, "claim_refused")
    client.get(f"/friend_game/{game}", params={"player": "ann"}, headers=bearer(tokens["ann"]))
    present_one = client.post(
        f"/friend_game/{game}/bob/claim", json={"result": "win"}, headers=bearer(tokens["bob"])
    )
    assert (present_one.status_code, present_one.json()["error"]) == (409, "claim_refused")


def test_the_claim_time_is_the_apps(database: Database, clock: FakeClock) -> None:
    with friend_app(database, clock, claim_after=5) as client:
        game, tokens = new_game(client)
        clock.advance(6)
        claimed = client.post(
            f"/friend_game/{game}/bob/claim", json={"result": "win"}, headers=bearer(tokens["bob"])
        )
        assert claimed.status_code == 200, claimed.text


def test_a_move_is_a_sign_of_presence_on_every_path(client: AppClient, clock: FakeClock) -> None:
    """A plain game's move (PostgreSQL: one statement on the event loop) tells presence too."""
    game, tokens = new_game(client)
    clock.advance(50)
    move(client, game, tokens, "ann", 0)
    move(client, game, tokens, "bob", 1)  # ann's turn: she has been away since her move.
    clock.advance(30)
    ann = status(client, game)["players"][0]
    assert (ann["present"], ann["awayFor"]) == (False, pytest.approx(30))
    assert status(client, game)["claimable"] is False  # 30 s, not 80 since the game was made.
