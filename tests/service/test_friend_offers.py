"""Draw and takeback offers of a game between friends, and rematches: never without consent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from app_client import AppClient
from friend_support import FakeClock, bearer, friend_app, move, new_game, status, wait_as

from server_support import Database


@pytest.fixture
def client(database: Database, clock: FakeClock) -> Iterator[AppClient]:
    with friend_app(database, clock) as test_client:
        yield test_client


def post(
    client: AppClient, game: str, tokens: dict[str, str], player: str, what: str, **body: Any
) -> Any:
    return client.post(
        f"/friend_game/{game}/{player}/{what}", json=body, headers=bearer(tokens[player])
    )


def moves(client: AppClient, game: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get(f"/drop_token/{game}/moves").json()["moves"]
    return listed


def test_a_draw_offer_is_pushed_and_accepted(client: AppClient) -> None:
    game, tokens = new_game(client)
    move(client, game, tokens, "ann", 0)
    bob = wait_as(client, game, tokens, "bob")
    offered = post(client, game, tokens, "ann", "offer", kind="draw")
    assert offered.status_code == 200, offered.text
    assert bob.answer()["offer"] == {"kind": "draw", "by": "ann"}
    accepted = post(client, game, tokens, "bob", "answer", accept=True)
    assert accepted.status_code == 200, accepted.text
    state = client.get(f"/drop_token/{game}").json()
    assert (state["state"], state["winner"], state["reason"]) == ("DONE", None, "DRAW_AGREED")


def test_a_declined_offer_changes_nothing(client: AppClient) -> None:
    game, tokens = new_game(client)
    move(client, game, tokens, "ann", 0)
    post(client, game, tokens, "bob", "offer", kind="draw")
    declined = post(client, game, tokens, "ann", "answer", accept=False)
    assert declined.status_code == 200, declined.text
    assert "offer" not in status(client, game)
    assert client.get(f"/drop_token/{game}").json()["state"] == "IN_PROGRESS"


def test_nobody_answers_their_own_offer(client: AppClient) -> None:
    game, tokens = new_game(client)
    post(client, game, tokens, "ann", "offer", kind="draw")
    own = post(client, game, tokens, "ann", "answer", accept=True)
    assert (own.status_code, own.json()["error"]) == (409, "no_offer")
    twice = post(client, game, tokens, "bob", "offer", kind="draw")
    assert (twice.status_code, twice.json()["error"]) == (409, "offer_refused")
    stranger = post(client, game, {"ann": tokens["bob"]}, "ann", "answer", accept=True)
    assert (stranger.status_code, stranger.json()["error"]) == (403, "token_rejected")
    assert client.get(f"/drop_token/{game}").json()["state"] == "IN_PROGRESS"


def test_a_move_withdraws_a_pending_draw_offer(client: AppClient) -> None:
    game, tokens = new_game(client)
    post(client, game, tokens, "bob", "offer", kind="draw")
    move(client, game, tokens, "ann", 0)
    assert "offer" not in status(client, game)
    late = post(client, game, tokens, "ann", "answer", accept=True)
    assert (late.status_code, late.json()["error"]) == (409, "no_offer")


def test_a_takeback_accepted_deletes_the_offerers_last_move_and_after(client: AppClient) -> None:
    game, tokens = new_game(client)
    move(client, game, tokens, "ann", 0)
    move(client, game, tokens, "bob", 1)
    assert post(client, game, tokens, "ann", "offer", kind="takeback").status_code == 200
    assert post(client, game, tokens, "bob", "answer", accept=True).status_code == 200
    assert moves(client, game) == []
    assert status(client, game)["toMove"] == "ann"
    move(client, game, tokens, "ann", 2)
    assert moves(client, game) == [{"type": "MOVE", "player": "ann", "column": 2}]


def test_no_takeback_without_a_move_nor_after_the_end(client: AppClient) -> None:
    game, tokens = new_game(client)
    early = post(client, game, tokens, "ann", "offer", kind="takeback")
    assert (early.status_code, early.json()["error"]) == (409, "offer_refused")
    assert (
        client.delete(f"/drop_token/{game}/bob", headers=bearer(tokens["bob"])).status_code == 202
    )
    for kind in ("takeback", "draw"):
        late = post(client, game, tokens, "ann", "offer", kind=kind)
        assert (late.status_code, late.json()["error"]) == (409, "offer_refused")


def test_a_rematch_swaps_colours_keeps_tokens_and_counts_the_score(
    client: AppClient, clock: FakeClock
) -> None:
    game, tokens = new_game(client, clock={"minutes": 3, "increment": 2})
    early = post(client, game, tokens, "ann", "offer", kind="rematch")
    assert (early.status_code, early.json()["error"]) == (409, "offer_refused")
    for column in (0, 1, 0, 1, 0, 1, 0):  # ann wins down column 0.
        move(client, game, tokens, "bob" if column else "ann", column)
    assert post(client, game, tokens, "bob", "offer", kind="rematch").status_code == 200
    accepted = post(client, game, tokens, "ann", "answer", accept=True)
    rematch = accepted.json()["rematch"]
    assert status(client, game)["rematch"] == rematch
    again = status(client, rematch)
    assert [player["name"] for player in again["players"]] == ["bob", "ann"]
    assert (again["previous"], again["wins"], again["draws"]) == (game, {"bob": 0, "ann": 1}, 0)
    assert again["clock"] == {"minutes": 3, "increment": 2}
    move(client, rematch, tokens, "bob", 3)  # Each keeps their token.
    move(client, rematch, tokens, "ann", 3)
    twice = post(client, game, tokens, "bob", "offer", kind="rematch")
    assert (twice.status_code, twice.json()["error"]) == (409, "offer_refused")


def test_the_score_adds_up_over_rematches(client: AppClient) -> None:
    game, tokens = new_game(client)
    for _ in range(3):
        assert (
            client.delete(f"/drop_token/{game}/ann", headers=bearer(tokens["ann"])).status_code
            == 202
        )
        post(client, game, tokens, "ann", "offer", kind="rematch")
        game = post(client, game, tokens, "bob", "answer", accept=True).json()["rematch"]
    assert (status(client, game)["wins"], status(client, game)["draws"]) == (
        {"bob": 3, "ann": 0},
        0,
    )
