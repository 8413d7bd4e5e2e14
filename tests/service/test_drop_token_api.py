"""Every drop-token route and every status code the seed lists, through a AppClient."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from app_client import AppClient

from connect_four.service.limits import MAX_MOVES_PAGE
from connect_four.service.schemas import MoveList, MoveOut
from server_support import answered_before_storage

NewGame = Callable[..., str]
UNKNOWN_GAME = "0" * 32
BOARD_4X4 = {"rows": 4, "columns": 4, "connect": 4}
"""The keys beyond the seed's in the state of a game made by new_game's defaults."""


def play(client: AppClient, game_id: str, player: str, column: int) -> Any:
    return client.post(f"/drop_token/{game_id}/{player}", json={"column": column})


def play_all(client: AppClient, game_id: str, moves: list[tuple[str, int]]) -> None:
    for player, column in moves:
        response = play(client, game_id, player, column)
        assert response.status_code == 200, response.text


def assert_error(response: Any, status_code: int, code: str) -> None:
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["error"] == code
    assert isinstance(body["detail"], str) and body["detail"]


# p1 wins in column 0 after 7 moves on a 4 x 4 board.
P1_WINS = [("p1", 0), ("p2", 1), ("p1", 0), ("p2", 1), ("p1", 0), ("p2", 1), ("p1", 0)]


# --- GET /drop_token and POST /drop_token ------------------------------------


def test_list_starts_empty(client: AppClient) -> None:
    response = client.get("/drop_token")
    assert response.status_code == 200
    assert response.json() == {"games": []}


def test_created_games_are_listed_until_done(client: AppClient, new_game: NewGame) -> None:
    first, second = new_game(client), new_game(client)
    assert client.get("/drop_token").json() == {"games": [first, second]}
    play_all(client, first, P1_WINS)
    assert client.get("/drop_token").json() == {"games": [second]}


def test_create_returns_a_game_id(client: AppClient) -> None:
    response = client.post(
        "/drop_token", json={"players": ["player1", "player2"], "columns": 4, "rows": 4}
    )
    assert response.status_code == 200
    assert set(response.json()) == {"gameId"}


@answered_before_storage
@pytest.mark.parametrize(
    "body",
    [
        {"players": ["a"], "columns": 4, "rows": 4},
        {"players": [], "columns": 4, "rows": 4},
        {"players": ["a", "a"], "columns": 4, "rows": 4},
        {"players": ["a", ""], "columns": 4, "rows": 4},
        {"players": ["a", 2], "columns": 4, "rows": 4},
        {"players": ["a", "b/c"], "columns": 4, "rows": 4},
        {"players": "ab", "columns": 4, "rows": 4},
        {"players": ["a", "b"], "columns": 4},
        {"players": ["a", "b"], "rows": 4},
        {"columns": 4, "rows": 4},
        {"players": ["a", "b"], "columns": 0, "rows": 4},
        {"players": ["a", "b"], "columns": 4, "rows": -1},
        {"players": ["a", "b"], "columns": 101, "rows": 4},
        {"players": ["a", "b"], "columns": 4, "rows": 101},
        {"players": ["a", "b"], "columns": "4", "rows": 4},
        {"players": ["a", "b"], "columns": 4.0, "rows": 4},
        {"players": ["a", "b"], "columns": 4.5, "rows": 4},
        {"players": ["a", "b"], "columns": True, "rows": 4},
        {"players": ["a", "b"], "columns": None, "rows": 4},
        {"players": ["a", "b"], "columns": 4, "rows": 4, "connect": 2},
        {"players": ["a", "b"], "columns": 4, "rows": 4, "connect": 101},
        {"players": ["a", "b"], "columns": 4, "rows": 4, "connect": "4"},
        {"players": [f"p{n}" for n in range(101)], "columns": 4, "rows": 4},
        [],
        "players",
    ],
)
def test_create_refuses_malformed_bodies(client: AppClient, body: Any) -> None:
    assert_error(client.post("/drop_token", json=body), 400, "malformed_request")


def test_create_refuses_invalid_json(client: AppClient) -> None:
    response = client.post(
        "/drop_token", content=b"{players:", headers={"content-type": "application/json"}
    )
    assert_error(response, 400, "malformed_request")


def test_create_accepts_the_largest_board(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, rows=100, columns=100)
    assert play(client, game_id, "p1", 99).status_code == 200


# --- GET /drop_token/{gameId} -------------------------------------------------


def test_state_in_progress_has_no_winner_key(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["ann", "bob"])
    response = client.get(f"/drop_token/{game_id}")
    assert response.status_code == 200
    assert response.json() == {"players": ["ann", "bob"], "state": "IN_PROGRESS", **BOARD_4X4}


def test_state_names_the_board_after_the_seeds_keys(client: AppClient, new_game: NewGame) -> None:
    """A player who joins learns the board's size from the service; the seed's keys come first."""
    game_id = new_game(client, players=["ann", "bob"], rows=6, columns=7)
    response = client.get(f"/drop_token/{game_id}")
    assert response.content == (
        b'{"players":["ann","bob"],"state":"IN_PROGRESS","rows":6,"columns":7,"connect":4}'
    )
    client.delete(f"/drop_token/{game_id}/bob")
    response = client.get(f"/drop_token/{game_id}")
    assert response.content == (
        b'{"players":["ann","bob"],"state":"DONE","winner":"ann","rows":6,"columns":7,"connect":4}'
    )


def test_state_after_a_win_names_the_winner(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS)
    assert client.get(f"/drop_token/{game_id}").json() == {
        "players": ["p1", "p2"],
        "state": "DONE",
        "winner": "p1",
        **BOARD_4X4,
    }


def test_state_after_a_draw_has_a_null_winner(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, rows=2, columns=2)
    play_all(client, game_id, [("p1", 0), ("p2", 0), ("p1", 1), ("p2", 1)])
    response = client.get(f"/drop_token/{game_id}")
    assert response.json() == {
        "players": ["p1", "p2"],
        "state": "DONE",
        "winner": None,
        "rows": 2,
        "columns": 2,
        "connect": 4,
    }
    assert client.get("/drop_token").json() == {"games": []}


def test_a_4x4_draw(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    # Columns filled two at a time in the pattern that leaves no four in a line.
    columns = [0, 1, 0, 1, 1, 0, 1, 0, 2, 3, 2, 3, 3, 2, 3, 2]
    players = ["p1", "p2"]
    play_all(client, game_id, [(players[n % 2], c) for n, c in enumerate(columns)])
    assert client.get(f"/drop_token/{game_id}").json()["winner"] is None


def test_state_of_an_unknown_game(client: AppClient) -> None:
    assert_error(client.get(f"/drop_token/{UNKNOWN_GAME}"), 404, "game_not_found")


MALFORMED_IDS = ["not-a-game-id", "no-such-game-0000", "0" * 31, "0" * 33, "A" * 32]


@pytest.mark.parametrize("game_id", MALFORMED_IDS)
def test_state_of_a_malformed_game_id_is_not_found(client: AppClient, game_id: str) -> None:
    assert_error(client.get(f"/drop_token/{game_id}"), 404, "game_not_found")


# --- GET /drop_token/{gameId}/moves -------------------------------------------


def test_moves_lists_drops_and_quits(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    play_all(client, game_id, [("a", 1), ("b", 2)])
    assert client.delete(f"/drop_token/{game_id}/a").status_code == 202
    response = client.get(f"/drop_token/{game_id}/moves")
    assert response.status_code == 200
    assert response.json() == {
        "moves": [
            {"type": "MOVE", "player": "a", "column": 1},
            {"type": "MOVE", "player": "b", "column": 2},
            {"type": "QUIT", "player": "a"},
        ]
    }


def test_moves_of_a_new_game_is_empty(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    assert client.get(f"/drop_token/{game_id}/moves").json() == {"moves": []}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("start=0&until=1", [0, 1]),
        ("start=1&until=1", [1]),
        ("start=2", [2, 3, 4, 5, 6]),
        ("until=2", [0, 1, 2]),
        ("start=5&until=99", [5, 6]),
    ],
)
def test_moves_sub_list_is_inclusive(
    client: AppClient, new_game: NewGame, query: str, expected: list[int]
) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS)
    moves = client.get(f"/drop_token/{game_id}/moves?{query}").json()["moves"]
    assert moves == [
        {"type": "MOVE", "player": P1_WINS[n][0], "column": P1_WINS[n][1]} for n in expected
    ]


@pytest.mark.parametrize(
    "query", ["start=-1", "until=-1", "start=2&until=1", "start=a", "until=1.5", "start="]
)
def test_moves_malformed_range(client: AppClient, new_game: NewGame, query: str) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS)
    response = client.get(f"/drop_token/{game_id}/moves?{query}")
    assert response.status_code == 400
    assert response.json()["error"] in {"malformed_request", "bad_range"}


def test_moves_start_past_the_end(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS[:2])
    assert_error(client.get(f"/drop_token/{game_id}/moves?start=2"), 404, "move_not_found")


def test_moves_of_an_unknown_game(client: AppClient) -> None:
    assert_error(client.get(f"/drop_token/{UNKNOWN_GAME}/moves"), 404, "game_not_found")


@pytest.mark.parametrize("game_id", MALFORMED_IDS)
def test_moves_of_a_malformed_game_id_is_not_found(client: AppClient, game_id: str) -> None:
    assert_error(client.get(f"/drop_token/{game_id}/moves"), 404, "game_not_found")


# --- POST /drop_token/{gameId}/{playerId} -------------------------------------


def test_post_move_returns_its_path(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    response = play(client, game_id, "p1", 2)
    assert response.status_code == 200
    assert response.json() == {"move": f"{game_id}/moves/0"}
    assert play(client, game_id, "p2", 2).json() == {"move": f"{game_id}/moves/1"}


def test_move_numbers_count_quits(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    play_all(client, game_id, [("a", 0)])
    assert client.delete(f"/drop_token/{game_id}/c").status_code == 202
    assert play(client, game_id, "b", 0).json() == {"move": f"{game_id}/moves/2"}


@answered_before_storage
@pytest.mark.parametrize(
    "body",
    [
        {},
        {"column": "1"},
        {"column": 1.0},
        {"column": True},
        {"column": None},
        {"column": 1, "row": 2},
        [1],
    ],
)
def test_post_move_malformed_body(client: AppClient, new_game: NewGame, body: Any) -> None:
    game_id = new_game(client)
    response = client.post(f"/drop_token/{game_id}/p1", json=body)
    assert_error(response, 400, "malformed_request")


@pytest.mark.parametrize("column", [-1, 4, 10**20])
def test_post_move_off_the_board(client: AppClient, new_game: NewGame, column: int) -> None:
    game_id = new_game(client)
    assert_error(play(client, game_id, "p1", column), 400, "column_out_of_range")


def test_post_move_into_a_full_column(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, [("p1", 0), ("p2", 0), ("p1", 0), ("p2", 0)])
    assert_error(play(client, game_id, "p1", 0), 400, "column_full")
    # The player must play again: still their turn.
    assert play(client, game_id, "p1", 1).status_code == 200


def test_post_move_on_a_finished_game(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS)
    assert_error(play(client, game_id, "p2", 2), 400, "game_over")
    assert_error(play(client, game_id, "p1", 2), 400, "game_over")


def test_post_move_not_your_turn(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    assert_error(play(client, game_id, "p2", 0), 409, "not_your_turn")
    play_all(client, game_id, [("p1", 0)])
    assert_error(play(client, game_id, "p1", 0), 409, "not_your_turn")


def test_post_move_unknown_game(client: AppClient) -> None:
    assert_error(play(client, UNKNOWN_GAME, "p1", 0), 404, "game_not_found")


@pytest.mark.parametrize("game_id", MALFORMED_IDS)
def test_post_move_malformed_game_id_is_not_found(client: AppClient, game_id: str) -> None:
    assert_error(play(client, game_id, "p1", 0), 404, "game_not_found")


def test_post_move_unknown_player(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    assert_error(play(client, game_id, "p3", 0), 404, "player_not_found")


def test_post_move_by_a_player_who_quit(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    assert client.delete(f"/drop_token/{game_id}/a").status_code == 202
    assert_error(play(client, game_id, "a", 0), 404, "player_not_active")


def test_player_names_with_spaces_and_unicode(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["Ann Lee", "Zoë?"])
    assert client.post(f"/drop_token/{game_id}/Ann%20Lee", json={"column": 0}).status_code == 200
    assert client.post(f"/drop_token/{game_id}/Zo%C3%AB%3F", json={"column": 0}).status_code == 200
    assert client.get(f"/drop_token/{game_id}/moves/1").json()["player"] == "Zoë?"


# --- GET /drop_token/{gameId}/moves/{move_number} -----------------------------


def test_get_one_move_and_one_quit(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    play_all(client, game_id, [("a", 3)])
    client.delete(f"/drop_token/{game_id}/b")
    assert client.get(f"/drop_token/{game_id}/moves/0").json() == {
        "type": "MOVE",
        "player": "a",
        "column": 3,
    }
    response = client.get(f"/drop_token/{game_id}/moves/1")
    assert response.status_code == 200
    assert response.json() == {"type": "QUIT", "player": "b"}


@pytest.mark.parametrize("number", ["-1", "x", "1.5"])
def test_get_move_malformed_number(client: AppClient, new_game: NewGame, number: str) -> None:
    game_id = new_game(client)
    play_all(client, game_id, [("p1", 0)])
    assert_error(client.get(f"/drop_token/{game_id}/moves/{number}"), 400, "malformed_request")


def test_get_move_past_the_end(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, [("p1", 0)])
    assert_error(client.get(f"/drop_token/{game_id}/moves/1"), 404, "move_not_found")


def test_get_move_unknown_game(client: AppClient) -> None:
    assert_error(client.get(f"/drop_token/{UNKNOWN_GAME}/moves/0"), 404, "game_not_found")


@pytest.mark.parametrize("game_id", MALFORMED_IDS)
def test_get_move_malformed_game_id_is_not_found(client: AppClient, game_id: str) -> None:
    assert_error(client.get(f"/drop_token/{game_id}/moves/0"), 404, "game_not_found")


# --- DELETE /drop_token/{gameId}/{playerId} -----------------------------------


def test_quit_out_of_turn_leaves_the_last_player_the_winner(
    client: AppClient, new_game: NewGame
) -> None:
    game_id = new_game(client)
    response = client.delete(f"/drop_token/{game_id}/p2")
    assert response.status_code == 202
    assert client.get(f"/drop_token/{game_id}").json() == {
        "players": ["p1", "p2"],
        "state": "DONE",
        "winner": "p1",
        **BOARD_4X4,
    }


def test_quit_in_turn_passes_the_turn(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    play_all(client, game_id, [("a", 0)])
    assert client.delete(f"/drop_token/{game_id}/b").status_code == 202
    assert_error(play(client, game_id, "a", 0), 409, "not_your_turn")
    play_all(client, game_id, [("c", 0), ("a", 1), ("c", 1)])
    assert client.get(f"/drop_token/{game_id}").json()["state"] == "IN_PROGRESS"


def test_three_players_rotate_and_skip_those_who_quit(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"], rows=6, columns=7)
    play_all(client, game_id, [("a", 0), ("b", 1), ("c", 2), ("a", 0)])
    assert client.delete(f"/drop_token/{game_id}/c").status_code == 202
    play_all(client, game_id, [("b", 1), ("a", 0), ("b", 1), ("a", 0)])
    assert client.get(f"/drop_token/{game_id}").json()["winner"] == "a"
    assert client.delete(f"/drop_token/{game_id}/b").status_code == 410


def test_quit_twice(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    assert client.delete(f"/drop_token/{game_id}/a").status_code == 202
    assert_error(client.delete(f"/drop_token/{game_id}/a"), 404, "player_not_active")


def test_quitting_again_after_ones_own_quit_ended_the_game_is_410(
    client: AppClient, new_game: NewGame
) -> None:
    game_id = new_game(client)
    assert client.delete(f"/drop_token/{game_id}/p2").status_code == 202
    assert_error(client.delete(f"/drop_token/{game_id}/p2"), 410, "game_done")
    assert_error(client.delete(f"/drop_token/{game_id}/p1"), 410, "game_done")
    assert_error(client.delete(f"/drop_token/{game_id}/zed"), 404, "player_not_found")


def test_a_player_who_quit_stays_out_after_the_game_ends(
    client: AppClient, new_game: NewGame
) -> None:
    game_id = new_game(client, players=["a", "b", "c"])
    assert client.delete(f"/drop_token/{game_id}/c").status_code == 202
    assert client.delete(f"/drop_token/{game_id}/b").status_code == 202
    assert client.get(f"/drop_token/{game_id}").json()["winner"] == "a"
    assert_error(client.delete(f"/drop_token/{game_id}/c"), 410, "game_done")
    assert_error(play(client, game_id, "b", 0), 404, "player_not_active")
    assert_error(client.delete(f"/drop_token/{game_id}/a"), 410, "game_done")
    assert_error(play(client, game_id, "a", 0), 400, "game_over")


def test_quit_unknown_player(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    assert_error(client.delete(f"/drop_token/{game_id}/zed"), 404, "player_not_found")


@pytest.mark.parametrize("game_id", [UNKNOWN_GAME, *MALFORMED_IDS])
def test_quit_unknown_game(client: AppClient, game_id: str) -> None:
    assert_error(client.delete(f"/drop_token/{game_id}/p1"), 404, "game_not_found")


def test_quit_a_finished_game(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    play_all(client, game_id, P1_WINS)
    assert_error(client.delete(f"/drop_token/{game_id}/p2"), 410, "game_done")


def test_quit_after_a_draw(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, rows=1, columns=2)
    play_all(client, game_id, [("p1", 0), ("p2", 1)])
    assert_error(client.delete(f"/drop_token/{game_id}/p1"), 410, "game_done")


# --- Board sizes ----------------------------------------------------------------


def test_four_in_a_row_wins_on_a_one_row_board(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client, rows=1, columns=7)
    play_all(client, game_id, [("p1", 0), ("p2", 6), ("p1", 1), ("p2", 5), ("p1", 2), ("p2", 4)])
    assert client.get(f"/drop_token/{game_id}").json()["state"] == "IN_PROGRESS"
    play_all(client, game_id, [("p1", 3)])
    assert client.get(f"/drop_token/{game_id}").json()["winner"] == "p1"


@pytest.mark.parametrize(("rows", "columns"), [(1, 1), (3, 3), (2, 3), (3, 1)])
def test_boards_too_small_for_four_end_in_a_draw(
    client: AppClient, new_game: NewGame, rows: int, columns: int
) -> None:
    game_id = new_game(client, rows=rows, columns=columns)
    players = ["p1", "p2"]
    columns_played = [column for column in range(columns) for _ in range(rows)]
    play_all(client, game_id, [(players[n % 2], c) for n, c in enumerate(columns_played)])
    assert client.get(f"/drop_token/{game_id}").json() == {
        "players": players,
        "state": "DONE",
        "winner": None,
        "rows": rows,
        "columns": columns,
        "connect": 4,
    }


# --- Errors in general ----------------------------------------------------------


def test_unknown_route_is_a_json_404(client: AppClient) -> None:
    assert_error(client.get("/nowhere"), 404, "not_found")


def test_no_validation_422_anywhere_in_the_openapi_document(client: AppClient) -> None:
    """Malformed requests are 400; the only 422 is a reused Idempotency-Key's."""
    document = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in str(document)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            if "422" in operation["responses"]:
                assert "Idempotency-Key" in operation["responses"]["422"]["description"]
            assert operation.get("description"), (method, path)


@answered_before_storage
@pytest.mark.parametrize(
    ("method", "path", "codes"),
    [
        ("get", "/drop_token", {"200", "400", "429", "503"}),
        ("post", "/drop_token", {"200", "400", "408", "413", "429", "503"}),
        ("get", "/drop_token/{gameId}", {"200", "404", "429", "503"}),
        ("get", "/drop_token/{gameId}/moves", {"200", "400", "404", "429", "503"}),
        (
            "post",
            "/drop_token/{gameId}/{playerId}",
            {"200", "400", "401", "403", "404", "408", "409", "413", "422", "429", "503"},
        ),
        ("get", "/drop_token/{gameId}/moves/{move_number}", {"200", "400", "404", "429", "503"}),
        (
            "delete",
            "/drop_token/{gameId}/{playerId}",
            {"202", "400", "401", "403", "404", "410", "422", "429", "503"},
        ),
        ("get", "/winner/{board}", {"200", "400", "503"}),
        ("post", "/winner", {"200", "400", "408", "413", "503"}),
    ],
)
def test_openapi_documents_every_status(
    client: AppClient, method: str, path: str, codes: set[str]
) -> None:
    document = client.get("/openapi.json").json()
    assert set(document["paths"][path][method]["responses"]) == codes


@pytest.mark.parametrize(
    "names",
    [
        ["a", "b", "c"],
        ['quote " and \\ backslash', "👩\u200d🚀 Zoë", "line\u2028separator", "<b>&amp;"],
    ],
)
def test_a_move_list_s_bytes_are_the_models_bytes(
    client: AppClient, new_game: NewGame, names: list[str]
) -> None:
    # The list is written straight as JSON (for speed): byte for byte what its model writes.
    game_id = new_game(client, players=names)
    play_all(client, game_id, [(names[0], 1), (names[1], 2)])
    assert client.delete(f"/drop_token/{game_id}/{names[0]}").status_code == 202
    for query in ("", "?start=1", "?start=0&until=0", "?start=0&wait=1"):
        body = client.get(f"/drop_token/{game_id}/moves{query}").content
        model = MoveList.model_validate_json(body)
        assert body == model.model_dump_json(exclude_none=True).encode()
        assert model.moves[-1] == MoveOut(type="QUIT", player=names[0]) or "until" in query


def test_a_long_move_list_s_pages_are_the_models_bytes(
    client: AppClient, new_game: NewGame
) -> None:
    # Seven players in turn over 100 columns never line up four.
    names = [f"p{n}" for n in range(7)]
    game_id = new_game(client, players=names, rows=100, columns=100)
    play_all(
        client,
        game_id,
        [(names[n % 7], n % 100) for n in range(MAX_MOVES_PAGE + 3)],
    )
    for query, following in (
        ("", MAX_MOVES_PAGE),
        ("?start=2", MAX_MOVES_PAGE + 2),
        ("?start=500", None),
    ):
        body = client.get(f"/drop_token/{game_id}/moves{query}").content
        model = MoveList.model_validate_json(body)
        assert body == model.model_dump_json(exclude_none=True).encode()
        assert model.next == following
