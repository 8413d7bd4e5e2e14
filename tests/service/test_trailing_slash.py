"""A trailing slash is served as the path without it: never a 307 with an empty body."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app_client import AppClient
from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send

from connect_four.service.main import create_app

NewGame = Callable[..., str]


def test_posting_a_game_to_drop_token_slash_creates_it(client: AppClient) -> None:
    response = client.post(
        "/drop_token/",
        json={"players": ["ann", "bob"], "rows": 4, "columns": 4},
        follow_redirects=False,
    )
    assert response.status_code == 200
    game_id = response.json()["gameId"]
    assert client.get("/drop_token/", follow_redirects=False).json() == {"games": [game_id]}


def test_every_route_of_a_game_takes_a_trailing_slash(client: AppClient, new_game: NewGame) -> None:
    game_id = new_game(client)
    base = f"/drop_token/{game_id}"
    answers = [
        client.post(f"{base}/p1/", json={"column": 2}, follow_redirects=False),
        client.get(f"{base}/", follow_redirects=False),
        client.get(f"{base}/moves/", follow_redirects=False),
        client.get(f"{base}/moves/0/", follow_redirects=False),
        client.delete(f"{base}/p2/", follow_redirects=False),
    ]
    assert [answer.status_code for answer in answers] == [200, 200, 200, 200, 202]
    assert answers[0].json() == {"move": f"{game_id}/moves/0"}
    assert answers[3].json() == {"type": "MOVE", "player": "p1", "column": 2}
    assert client.get(base).json()["winner"] == "p1"


def test_the_winner_check_takes_a_trailing_slash(client: AppClient) -> None:
    board = "X" * 35 + "AAAABBB"
    assert client.get(f"/winner/{board}/", follow_redirects=False).text == "A"
    response = client.post("/winner/", json={"board": board}, follow_redirects=False)
    assert response.json() == {"winner": "A", "orderVerified": True}


def test_get_winner_slash_says_which_method_the_path_takes(client: AppClient) -> None:
    response = client.get("/winner/", follow_redirects=False)
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"
    assert response.json() == {
        "error": "method_not_allowed",
        "detail": "method GET is not allowed here; use POST",
    }


def test_a_slash_after_an_unknown_path_is_still_not_found(client: AppClient) -> None:
    response = client.get("/no/such/path/", follow_redirects=False)
    assert response.status_code == 404
    assert response.json()["error"] == "not_found"
    assert response.json()["detail"].startswith("no such path: GET /no/such/path/ ")


async def _everything(scope: Scope, receive: Receive, send: Send) -> None:
    await PlainTextResponse(f"mounted {scope['path']}")(scope, receive, send)


def test_an_app_mounted_anywhere_keeps_its_own_paths(tmp_path: Path) -> None:
    """Static files mounted at "/" (a page, say) take neither the API's slash nor their own."""
    app = create_app(tmp_path / "games.db")
    app.mount("/", _everything)
    with AppClient(app) as client:
        assert client.get("/drop_token/", follow_redirects=False).json() == {"games": []}
        assert client.get("/pages/", follow_redirects=False).text == "mounted /pages/"
