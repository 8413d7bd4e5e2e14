"""A stored game keeps the chain that wins it (issue 36): lobby seeks, pairings and friends'
games may ask for 3 to the board's longer side; four in a row stays the default.

On SQLite and PostgreSQL: a connect-5 lobby game is not ended by a line of four and is
won by five, rated in its own pool; connect 3 on a 4 x 4 board; every bound refused with a
400 and nothing stored; a database of schema version 5 reads its games as four in a row.
"""

from __future__ import annotations

from typing import Any

import pytest
from app_client import AppClient
from friend_support import bearer, move, new_game, status
from lobby_support import Player, game_between, register
from old_schemas import run_statements, schema_version

from connect_four.service.main import create_app
from connect_four.service.storage import open_store
from server_support import Database

# Connect values the schema refuses (malformed_request), whatever the board.
MALFORMED = [2, 1, 0, -1, 101, 2**63, -(2**63), 2**64, "5", 5.0, True, None]


def _state(client: AppClient, game_id: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/drop_token/{game_id}").json()
    return answer


def _ratings(player: Player) -> dict[str, Any]:
    ratings: dict[str, Any] = player.get("/players/me").json()["ratings"]
    return ratings


def test_a_connect_5_lobby_game_goes_on_past_four_and_is_won_by_five(
    client: AppClient,
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    seek = ann.seek(rows=7, columns=8, connect=5, colour="X")
    assert (seek["connect"], seek["pool"]) == (5, "7x8c5 untimed")
    ticket = bob.accept(seek["id"])
    assert (ticket["connect"], ticket["pool"]) == (5, "7x8c5 untimed")
    game_id = ticket["gameId"]
    tokens = {"bob": ticket["token"], "ann": ann.ticket(game_id)["token"]}
    # Four of ann's down column 0 and four of bob's down column 1: nobody has won.
    for _ in range(4):
        for player, column in ((ann, 0), (bob, 1)):
            assert player.move(game_id, column, tokens[player.name]).status_code == 200
    state = _state(client, game_id)
    assert (state["state"], state["connect"], state["rows"], state["columns"]) == (
        "IN_PROGRESS",
        5,
        7,
        8,
    )
    assert ann.move(game_id, 0, tokens["ann"]).status_code == 200  # The fifth.
    assert _state(client, game_id) | {"players": None} == {
        "players": None,
        "state": "DONE",
        "winner": "ann",
        "rows": 7,
        "columns": 8,
        "connect": 5,
    }
    record = client.get(f"/lobby/games/{game_id}").json()
    assert (record["connect"], record["pool"], record["reason"]) == (5, "7x8c5 untimed", "CONNECT")
    line = client.get(f"/lobby/games/{game_id}.txt").text
    assert " 7x8c5 untimed rated ann (1500) - bob (1500) 1-0 CONNECT 1 2 1 2 1 2 1 2 1\n" in line
    assert set(_ratings(ann)) == set(_ratings(bob)) == {"7x8c5 untimed"}
    assert (
        _ratings(ann)["7x8c5 untimed"]["rating"] > 1500 > _ratings(bob)["7x8c5 untimed"]["rating"]
    )
    board = client.get("/lobby/leaderboard", params={"pool": "7x8c5 untimed"}).json()
    assert [leader["name"] for leader in board["players"]] == ["ann", "bob"]
    assert client.get("/lobby/leaderboard").json()["players"] == []  # 6x7c4: none


def test_connect_3_is_paired_on_a_4x4_board_and_won_by_three(client: AppClient) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    wanted = {"rows": 4, "columns": 4, "connect": 3, "rated": False}
    assert ann.post("/lobby/pair", **wanted).json() == {"state": "waiting"}
    assert ann.me()["pairing"] == "4x4c3 untimed"
    ticket = bob.post("/lobby/pair", **wanted).json()
    assert (ticket["connect"], ticket["pool"]) == (3, "4x4c3 untimed")
    game_id = ticket["gameId"]
    tokens = {"bob": ticket["token"], "ann": ann.ticket(game_id)["token"]}
    x, o = (ann, bob) if ticket["players"][0] == "ann" else (bob, ann)
    for player, column in ((x, 0), (o, 1), (x, 0), (o, 1)):
        assert player.move(game_id, column, tokens[player.name]).status_code == 200
    assert _state(client, game_id)["state"] == "IN_PROGRESS"
    assert x.move(game_id, 0, tokens[x.name]).status_code == 200
    assert (_state(client, game_id)["winner"], x.ticket(game_id)["reason"]) == (x.name, "CONNECT")


def test_a_friends_game_keeps_its_chain_in_its_state_and_its_rematch(client: AppClient) -> None:
    game, tokens = new_game(client, connect=3)
    assert _state(client, game)["connect"] == 3
    for player, column in (("ann", 0), ("bob", 0), ("ann", 1), ("bob", 1), ("ann", 2)):
        move(client, game, tokens, player, column)
    assert _state(client, game)["winner"] == "ann"  # Three along the bottom row.
    for player, what, body in (
        ("bob", "offer", {"kind": "rematch"}),
        ("ann", "answer", {"accept": True}),
    ):
        response = client.post(
            f"/friend_game/{game}/{player}/{what}", json=body, headers=bearer(tokens[player])
        )
        assert response.status_code == 200, response.text
    rematch = status(client, game)["rematch"]
    assert _state(client, rematch)["connect"] == 3


def test_the_seed_game_without_connect_is_four_in_a_row_on_any_board(client: AppClient) -> None:
    game, _ = new_game(client)
    assert _state(client, game)["connect"] == 4
    tiny = client.post("/drop_token", json={"players": ["a", "b"], "rows": 2, "columns": 2})
    assert _state(client, tiny.json()["gameId"])["connect"] == 4
    explicit = client.post(
        "/drop_token", json={"players": ["a", "b"], "rows": 2, "columns": 3, "connect": 4}
    )
    assert explicit.status_code == 200, explicit.text


@pytest.mark.parametrize("connect", MALFORMED)
def test_a_chain_out_of_bounds_is_malformed_and_makes_nothing(
    client: AppClient, connect: Any
) -> None:
    ann = register(client, "ann")
    for path in ("/lobby/seeks", "/lobby/pair"):
        response = ann.post(path, rows=6, columns=7, connect=connect)
        assert (response.status_code, response.json()["error"]) == (400, "malformed_request")
    response = client.post(
        "/drop_token", json={"players": ["a", "b"], "rows": 6, "columns": 7, "connect": connect}
    )
    assert (response.status_code, response.json()["error"]) == (400, "malformed_request")
    assert ann.me()["seeks"] == [] and ann.me()["pairing"] is None
    assert client.get("/drop_token").json()["games"] == []


@pytest.mark.parametrize(("rows", "columns", "connect"), [(4, 4, 5), (7, 8, 9), (1, 99, 100)])
def test_a_chain_longer_than_the_board_is_refused_in_words(
    client: AppClient, rows: int, columns: int, connect: int
) -> None:
    ann = register(client, "ann")
    board = {"rows": rows, "columns": columns, "connect": connect}
    answers = [ann.post("/lobby/seeks", **board), ann.post("/lobby/pair", **board)]
    answers.append(client.post("/drop_token", json={"players": ["a", "b"], **board}))
    for response in answers:
        assert (response.status_code, response.json()["error"]) == (400, "bad_rules")
        assert response.json()["detail"] == (
            f"connect {connect} is longer than any line of a {rows} x {columns} board "
            f"(at most {max(rows, columns)})"
        )
    assert ann.me()["seeks"] == [] and ann.me()["pairing"] is None
    assert client.get("/drop_token").json()["games"] == []


@pytest.mark.parametrize(
    ("rows", "columns", "connect"), [(4, 4, 3), (4, 4, 4), (1, 100, 100), (100, 1, 100)]
)
def test_the_boundary_chains_are_games(
    client: AppClient, rows: int, columns: int, connect: int
) -> None:
    ann, bob = register(client, "ann"), register(client, "bob")
    seek = ann.seek(rows=rows, columns=columns, connect=connect, rated=False)
    assert seek["pool"] == f"{rows}x{columns}c{connect} untimed"
    assert _state(client, bob.accept(seek["id"])["gameId"])["connect"] == connect
    created = client.post(
        "/drop_token",
        json={"players": ["a", "b"], "rows": rows, "columns": columns, "connect": connect},
    )
    assert _state(client, created.json()["gameId"])["connect"] == connect


def _as_version_5(database: Database) -> None:
    """Take the chain's column away and say version 5, as a service before it left it."""
    statements = [
        "ALTER TABLE games DROP COLUMN chain_length",
        "UPDATE schema_version SET version = 5",
    ]
    run_statements(database, statements)


def test_a_version_5_database_reads_its_games_as_four_in_a_row(database: Database) -> None:
    store = open_store(str(database))
    created = store.create_game(players=["ann", "bob"], rows=6, columns=7)
    for player, column in (("ann", 0), ("bob", 1), ("ann", 0), ("bob", 1), ("ann", 0)):
        store.play(game_id=created.game_id, player_id=player, column=column)
    store.close()
    _as_version_5(database)
    assert schema_version(database) == 5
    with AppClient(create_app(database)) as client:
        assert schema_version(database) == 6
        assert _state(client, created.game_id)["connect"] == 4
        client.post(f"/drop_token/{created.game_id}/bob", json={"column": 1})
        assert _state(client, created.game_id)["state"] == "IN_PROGRESS"
        client.post(f"/drop_token/{created.game_id}/ann", json={"column": 0})  # The fourth.
        assert _state(client, created.game_id)["winner"] == "ann"
        ann, bob = register(client, "ann"), register(client, "bob")
        game_id, _ = game_between(ann, bob, rows=5, columns=5, connect=5)
        assert _state(client, game_id)["connect"] == 5
