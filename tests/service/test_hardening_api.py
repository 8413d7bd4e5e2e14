"""Issue 9 through a AppClient: tokens, safe retries, paged lists, limits, one error shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from app_client import AppClient

from connect_four.service.limits import MAX_BODY_BYTES, MAX_NAME_LENGTH, MAX_PLAYERS, MAX_SIZE
from server_support import REPOSITORY, answered_before_storage

pytestmark = pytest.mark.slow

P1_WINS = [("p1", 0), ("p2", 1), ("p1", 0), ("p2", 1), ("p1", 0), ("p2", 1), ("p1", 0)]


def assert_error(response: Any, status_code: int, code: str) -> None:
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["error"] == code
    assert isinstance(body["detail"], str) and body["detail"]


def create(client: AppClient, **extra: Any) -> Any:
    body = {"players": ["p1", "p2"], "rows": 4, "columns": 4, **extra}
    response = client.post("/drop_token", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# --- Player tokens ----------------------------------------------------------------


def test_without_tokens_the_answer_and_the_moves_are_the_seeds(client: AppClient) -> None:
    created = create(client)
    assert set(created) == {"gameId"}
    game_id = created["gameId"]
    response = client.post(f"/drop_token/{game_id}/p1", json={"column": 0})
    assert response.json() == {"move": f"{game_id}/moves/0"}
    # A stray Authorization header changes nothing for a game without tokens.
    response = client.post(f"/drop_token/{game_id}/p2", json={"column": 1}, headers=bearer("x"))
    assert response.status_code == 200


@pytest.fixture
def token_game(client: AppClient) -> Iterator[tuple[str, dict[str, str]]]:
    created = create(client, tokens=True)
    assert set(created["tokens"]) == {"p1", "p2"}
    assert created["tokens"]["p1"] != created["tokens"]["p2"]
    yield created["gameId"], created["tokens"]


def test_tokens_are_hex_so_a_command_line_never_reads_one_as_an_option(client: AppClient) -> None:
    # URL-safe base64 starts with "-" one time in 64: `--token -x...` would then fail.
    for _ in range(20):
        for token in create(client, tokens=True)["tokens"].values():
            assert len(token) == 48 and set(token) <= set("0123456789abcdef"), token


def test_the_service_readme_states_the_tokens_length(client: AppClient) -> None:
    (token, *_) = create(client, tokens=True)["tokens"].values()
    readme = " ".join((REPOSITORY / "service" / "README.md").read_text().split())
    assert f"one secret per player ({len(token)} hex digits)" in readme
    assert f"a real one has {len(token)} hex digits" in readme


def test_a_move_without_the_token_is_401(
    client: AppClient, token_game: tuple[str, dict[str, str]]
) -> None:
    game_id, _ = token_game
    response = client.post(f"/drop_token/{game_id}/p1", json={"column": 0})
    assert_error(response, 401, "token_required")
    assert response.headers["www-authenticate"] == "Bearer"
    assert_error(client.delete(f"/drop_token/{game_id}/p2"), 401, "token_required")
    assert client.get(f"/drop_token/{game_id}/moves").json() == {"moves": []}


def test_another_players_token_is_403(
    client: AppClient, token_game: tuple[str, dict[str, str]]
) -> None:
    game_id, tokens = token_game
    response = client.post(
        f"/drop_token/{game_id}/p1", json={"column": 0}, headers=bearer(tokens["p2"])
    )
    assert_error(response, 403, "token_rejected")
    response = client.delete(f"/drop_token/{game_id}/p2", headers=bearer(tokens["p1"]))
    assert_error(response, 403, "token_rejected")
    response = client.post(
        f"/drop_token/{game_id}/p1", json={"column": 0}, headers={"Authorization": "Basic abc"}
    )
    assert_error(response, 401, "token_required")
    assert client.get(f"/drop_token/{game_id}").json()["state"] == "IN_PROGRESS"


def test_each_player_with_their_own_token_plays_and_quits(
    client: AppClient, token_game: tuple[str, dict[str, str]]
) -> None:
    game_id, tokens = token_game
    response = client.post(
        f"/drop_token/{game_id}/p1", json={"column": 0}, headers=bearer(tokens["p1"])
    )
    assert response.status_code == 200
    response = client.delete(f"/drop_token/{game_id}/p2", headers=bearer(tokens["p2"]))
    assert response.status_code == 202
    assert client.get(f"/drop_token/{game_id}").json()["winner"] == "p1"


def test_tokens_must_be_a_boolean(client: AppClient) -> None:
    body = {"players": ["a", "b"], "rows": 4, "columns": 4, "tokens": "yes"}
    assert_error(client.post("/drop_token", json=body), 400, "malformed_request")


# --- Safe retries -------------------------------------------------------------------


def test_a_retried_move_is_answered_again_and_stored_once(client: AppClient) -> None:
    game_id = create(client)["gameId"]
    headers = {"Idempotency-Key": "move-1"}
    first = client.post(f"/drop_token/{game_id}/p1", json={"column": 2}, headers=headers)
    again = client.post(f"/drop_token/{game_id}/p1", json={"column": 2}, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json() == {"move": f"{game_id}/moves/0"}
    # Later moves do not change the answer to the retry.
    assert client.post(f"/drop_token/{game_id}/p2", json={"column": 3}).status_code == 200
    assert client.post(f"/drop_token/{game_id}/p1", json={"column": 2}, headers=headers).json() == {
        "move": f"{game_id}/moves/0"
    }
    assert len(client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 2


def test_without_a_key_a_retry_is_the_seeds_409(client: AppClient) -> None:
    game_id = create(client)["gameId"]
    assert client.post(f"/drop_token/{game_id}/p1", json={"column": 2}).status_code == 200
    assert_error(client.post(f"/drop_token/{game_id}/p1", json={"column": 2}), 409, "not_your_turn")


def test_a_key_reused_for_another_move_is_422(client: AppClient) -> None:
    game_id = create(client)["gameId"]
    headers = {"Idempotency-Key": "k"}
    assert (
        client.post(f"/drop_token/{game_id}/p1", json={"column": 2}, headers=headers).status_code
        == 200
    )
    response = client.post(f"/drop_token/{game_id}/p2", json={"column": 2}, headers=headers)
    assert_error(response, 422, "idempotency_key_reused")
    # Worded in the API's terms by the error table: the storage knows no header.
    assert response.json()["detail"].startswith("Idempotency-Key 'k' was sent with another request")
    response = client.post(f"/drop_token/{game_id}/p1", json={"column": 3}, headers=headers)
    assert_error(response, 422, "idempotency_key_reused")
    assert_error(
        client.delete(f"/drop_token/{game_id}/p1", headers=headers), 422, "idempotency_key_reused"
    )
    # Keys belong to one game.
    other = create(client)["gameId"]
    assert (
        client.post(f"/drop_token/{other}/p1", json={"column": 2}, headers=headers).status_code
        == 200
    )


def test_a_retried_quit_that_ended_the_game_is_202_again(client: AppClient) -> None:
    game_id = create(client)["gameId"]
    headers = {"Idempotency-Key": "quit-p2"}
    assert client.delete(f"/drop_token/{game_id}/p2", headers=headers).status_code == 202
    assert client.delete(f"/drop_token/{game_id}/p2", headers=headers).status_code == 202
    moves = client.get(f"/drop_token/{game_id}/moves").json()["moves"]
    assert moves == [{"type": "QUIT", "player": "p2"}]


def test_a_retried_winning_move_is_answered_again(client: AppClient) -> None:
    game_id = create(client)["gameId"]
    for number, (player, column) in enumerate(P1_WINS):
        headers = {"Idempotency-Key": f"m{number}"}
        response = client.post(
            f"/drop_token/{game_id}/{player}", json={"column": column}, headers=headers
        )
        assert response.status_code == 200
    response = client.post(
        f"/drop_token/{game_id}/p1", json={"column": 0}, headers={"Idempotency-Key": "m6"}
    )
    assert response.json() == {"move": f"{game_id}/moves/6"}


@pytest.mark.parametrize("key", ["", "k" * 101])
def test_a_key_outside_its_limits_is_malformed(client: AppClient, key: str) -> None:
    game_id = create(client)["gameId"]
    response = client.post(
        f"/drop_token/{game_id}/p1", json={"column": 0}, headers={"Idempotency-Key": key}
    )
    assert_error(response, 400, "malformed_request")


# --- Paged lists and ranges --------------------------------------------------------


def test_the_game_list_pages_with_limit_and_after(client: AppClient) -> None:
    ids = [create(client)["gameId"] for _ in range(5)]
    assert client.get("/drop_token").json() == {"games": ids}
    first = client.get("/drop_token?limit=2").json()
    assert first["games"] == ids[:2] and isinstance(first["next"], int)
    second = client.get(f"/drop_token?limit=2&after={first['next']}").json()
    assert second["games"] == ids[2:4]
    assert client.get(f"/drop_token?limit=2&after={second['next']}").json() == {"games": ids[4:]}
    assert client.get("/drop_token?after=0").json() == {"games": ids}
    assert client.get("/drop_token?after=1000000").json() == {"games": []}


def test_games_that_end_leave_the_pages_without_moving_the_others(client: AppClient) -> None:
    ids = [create(client)["gameId"] for _ in range(3)]
    first = client.get("/drop_token?limit=1").json()
    assert client.delete(f"/drop_token/{ids[1]}/p1").status_code == 202
    assert client.get(f"/drop_token?limit=5&after={first['next']}").json() == {"games": [ids[2]]}


@answered_before_storage
@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "limit=x", "after=-1", "after=x"])
def test_bad_page_parameters_are_400(client: AppClient, query: str) -> None:
    assert_error(client.get(f"/drop_token?{query}"), 400, "malformed_request")


def test_a_long_game_reads_one_move_and_a_range(client: AppClient) -> None:
    """A 40 x 40 game of 400 moves: one move and a range deep in it read right."""
    # Seven players filling column after column: along every line, neighbours
    # differ by 1, 40, 41 or 39 turns, none a multiple of 7, so nobody wins.
    players = [f"p{n}" for n in range(7)]
    body = {"players": players, "rows": 40, "columns": 40}
    game_id = client.post("/drop_token", json=body).json()["gameId"]
    for number in range(400):
        response = client.post(
            f"/drop_token/{game_id}/{players[number % 7]}", json={"column": number // 40}
        )
        assert response.status_code == 200, response.text
    assert client.get(f"/drop_token/{game_id}/moves/399").json() == {
        "type": "MOVE",
        "player": players[399 % 7],
        "column": 9,
    }
    moves = client.get(f"/drop_token/{game_id}/moves?start=300&until=302").json()["moves"]
    assert [move["player"] for move in moves] == [players[n % 7] for n in (300, 301, 302)]
    assert client.get(f"/drop_token/{game_id}").json()["state"] == "IN_PROGRESS"


# --- Limits --------------------------------------------------------------------------


@answered_before_storage
@pytest.mark.parametrize(
    "body",
    [
        {"players": [f"p{n}" for n in range(MAX_PLAYERS + 1)], "rows": 4, "columns": 4},
        {"players": ["a" * (MAX_NAME_LENGTH + 1), "b"], "rows": 4, "columns": 4},
        {"players": ["a", "b"], "rows": MAX_SIZE + 1, "columns": 4},
        {"players": ["a", "b"], "rows": 4, "columns": MAX_SIZE + 1},
        {"players": ["a", "a"], "rows": 4, "columns": 4},
    ],
)
def test_games_beyond_the_limits_are_400(client: AppClient, body: dict[str, Any]) -> None:
    assert_error(client.post("/drop_token", json=body), 400, "malformed_request")


def test_the_largest_game_within_the_limits_is_created(client: AppClient) -> None:
    players = [f"{n:0{MAX_NAME_LENGTH}d}" for n in range(MAX_PLAYERS)]
    body = {"players": players, "rows": MAX_SIZE, "columns": MAX_SIZE}
    assert client.post("/drop_token", json=body).status_code == 200


@answered_before_storage
@pytest.mark.parametrize("query", ["rows=17", "columns=17", "connect=17"])
def test_winner_boards_beyond_the_limits_are_400(client: AppClient, query: str) -> None:
    response = client.get(f"/winner/{'X' * 42}?{query}")
    assert_error(response, 400, "malformed_request")


def test_winner_board_strings_beyond_the_limit_are_400(client: AppClient) -> None:
    assert_error(client.get(f"/winner/{'AB' * 500}?rows=1&columns=16"), 400, "malformed_request")
    response = client.post("/winner", json={"board": "X" * 257, "rows": 16, "columns": 16})
    assert_error(response, 400, "malformed_request")


def test_a_board_beyond_the_search_budget_says_it_was_not_verified(client: AppClient) -> None:
    costly = "BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB"
    response = client.get(f"/winner/{costly}")
    assert (response.text, response.headers["order-verified"]) == ("B", "false")
    assert client.post("/winner", json={"board": costly}).json() == {
        "winner": "B",
        "orderVerified": False,
    }
    assert client.get(f"/winner/{'X' * 41}A").headers["order-verified"] == "true"


def test_a_body_over_the_limit_is_413_before_it_is_parsed(client: AppClient) -> None:
    body = b'{"board": "' + b"X" * MAX_BODY_BYTES + b'"}'
    response = client.post("/winner", content=body, headers={"content-type": "application/json"})
    assert_error(response, 413, "request_too_large")


def test_a_streamed_body_over_the_limit_is_413(client: AppClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"board": "'
        for _ in range(MAX_BODY_BYTES // 1024 + 1):
            yield b"X" * 1024
        yield b'"}'

    response = client.post(
        "/winner", content=chunks(), headers={"content-type": "application/json"}
    )
    assert_error(response, 413, "request_too_large")


# --- One error shape -------------------------------------------------------------------


@answered_before_storage
@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("put", "/drop_token", "GET, POST"),
        ("patch", "/drop_token/" + "0" * 32, "GET"),
        ("put", "/drop_token/" + "0" * 32 + "/p1", "DELETE, POST"),
        ("post", "/drop_token/" + "0" * 32 + "/moves/0", "GET"),
        ("delete", "/winner", "POST"),
        ("post", "/winner/XXXX", "GET"),
    ],
)
def test_405_names_every_allowed_method(
    client: AppClient, method: str, path: str, allowed: str
) -> None:
    response = client.request(method, path)
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == allowed


@answered_before_storage
@pytest.mark.parametrize(
    "body",
    [b"{", b"not json", b'{"column": 0', '{"column": "\u00e9"}'.encode("latin-1"), b"\xff\xfe"],
)
def test_unparseable_bodies_are_malformed_request(client: AppClient, body: bytes) -> None:
    game_id = create(client)["gameId"]
    response = client.post(
        f"/drop_token/{game_id}/p1", content=body, headers={"content-type": "application/json"}
    )
    assert_error(response, 400, "malformed_request")
    response = client.post("/winner", content=body, headers={"content-type": "application/json"})
    assert_error(response, 400, "malformed_request")


def test_winner_get_errors_are_documented_as_json(client: AppClient) -> None:
    document = client.get("/openapi.json").json()
    responses = document["paths"]["/winner/{board}"]["get"]["responses"]
    assert set(responses["400"]["content"]) == {"application/json"}
    assert set(responses["200"]["content"]) == {"text/plain"}


def test_the_schema_states_the_limits(client: AppClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    players = schemas["GameCreate"]["properties"]["players"]
    assert players["uniqueItems"] is True
    assert (players["minItems"], players["maxItems"]) == (2, MAX_PLAYERS)
    assert players["items"]["maxLength"] == MAX_NAME_LENGTH
    assert schemas["WinnerIn"]["properties"]["board"]["maxLength"] == 256
