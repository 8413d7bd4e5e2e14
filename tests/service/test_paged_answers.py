"""Every answer is bounded: the game list and the move list come in pages (issue 33, finding 2).

The seed's answers keep their shape for small results; only a list longer
than a page gains ``next``. The largest answer of each route, built here
from the worst input the limits allow, stays within what service/README.md
states.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import AppClient

from connect_four.service.limits import MAX_MOVES_PAGE, MAX_PAGE
from connect_four.service.main import create_app
from connect_four.service.rate_limits import Rates
from server_support import REPOSITORY

WIDE = "\U0001f600" * 100  # A name of 100 characters of 4 bytes each: the longest in UTF-8.
SEVEN = [f"{n}{WIDE[1:]}" for n in range(7)]
"""Seven players on 100 rows: turn t drops in column t // 100, so no line ever holds a
player's four (neighbours are 1, 99, 100 or 101 turns apart, none a multiple of 7)."""


@pytest.fixture
def app(tmp_path: Path) -> Any:
    return create_app(tmp_path / "games.db", rates=Rates.off())


@pytest.fixture
def client(app: Any) -> Iterator[AppClient]:
    with AppClient(app) as test_client:
        yield test_client


def long_game(app: Any, client: AppClient, moves: int, players: list[str] = SEVEN) -> str:
    """A 100 x 100 game of ``moves`` moves, stored directly (the API's pace is not the point)."""
    body = {"players": players, "rows": 100, "columns": 100}
    game_id: str = client.post("/drop_token", json=body).json()["gameId"]
    for turn in range(moves):
        app.state.store.play(game_id=game_id, player_id=players[turn % 7], column=turn // 100)
    return game_id


def test_a_small_game_list_keeps_the_seeds_shape(client: AppClient) -> None:
    ids = [
        client.post("/drop_token", json={"players": ["a", "b"], "rows": 4, "columns": 4}).json()[
            "gameId"
        ]
        for _ in range(3)
    ]
    assert client.get("/drop_token").json() == {"games": ids}


def test_the_game_list_answers_one_page_at_most_and_where_the_next_starts(
    app: Any, client: AppClient
) -> None:
    ids = [
        app.state.store.create_game(players=["a", "b"], rows=4, columns=4).game_id
        for _ in range(MAX_PAGE + 5)
    ]
    first = client.get("/drop_token").json()
    assert first["games"] == ids[:MAX_PAGE]
    second = client.get(f"/drop_token?after={first['next']}").json()
    assert second == {"games": ids[MAX_PAGE:]}


def test_a_small_move_list_keeps_the_seeds_shape(app: Any, client: AppClient) -> None:
    game_id = long_game(app, client, 3)
    assert set(client.get(f"/drop_token/{game_id}/moves").json()) == {"moves"}
    assert len(client.get(f"/drop_token/{game_id}/moves?start=1&until=2").json()["moves"]) == 2


def test_the_move_list_answers_one_page_at_most_and_where_the_next_starts(
    app: Any, client: AppClient
) -> None:
    total = MAX_MOVES_PAGE + 120
    game_id = long_game(app, client, total)
    columns = [turn // 100 for turn in range(total)]

    def page(query: str) -> dict[str, Any]:
        answer: dict[str, Any] = client.get(f"/drop_token/{game_id}/moves{query}").json()
        return answer

    first = page("")
    assert [move["column"] for move in first["moves"]] == columns[:MAX_MOVES_PAGE]
    assert first["next"] == MAX_MOVES_PAGE
    rest = page(f"?start={first['next']}")
    assert [move["column"] for move in rest["moves"]] == columns[MAX_MOVES_PAGE:]
    assert "next" not in rest
    # A range longer than a page is cut to one, and says where it goes on.
    ranged = page(f"?start=10&until={total}")
    assert len(ranged["moves"]) == MAX_MOVES_PAGE and ranged["next"] == 10 + MAX_MOVES_PAGE
    assert page(f"?start=10&until={10 + MAX_MOVES_PAGE - 1}").keys() == {"moves"}
    # A long poll pages alike: moves there already are answered at once.
    waited = page("?start=0&wait=5")
    assert waited == first


def test_each_answer_is_within_its_stated_largest_size(app: Any, client: AppClient) -> None:
    """The worst input the limits allow: 100 players named with 100 four-byte characters."""
    players = [f"{n:02d}{WIDE[2:]}" for n in range(100)]
    body = {"players": players, "rows": 100, "columns": 100, "tokens": True}
    created = client.post("/drop_token", json=body)
    assert len(created.content) <= 46_000
    state = client.get(f"/drop_token/{created.json()['gameId']}")
    assert len(state.content) <= 41_000
    game_id = long_game(app, client, MAX_MOVES_PAGE + 1)
    page = client.get(f"/drop_token/{game_id}/moves")
    assert len(page.json()["moves"]) == MAX_MOVES_PAGE and len(page.content) <= 220_000
    assert len(client.get(f"/drop_token/{game_id}/moves/0").content) <= 500
    for _ in range(MAX_PAGE + 1):
        app.state.store.create_game(players=["a", "b"], rows=4, columns=4)
    assert len(client.get("/drop_token").content) <= 36_000
    errors = [
        client.post(f"/drop_token/{game_id}/{SEVEN[0]}", json={"column": 50}),  # two names
        client.get("/drop_token/" + "%01" * 5000),
        client.post(f"/drop_token/{game_id}/" + "x" * 10_000, json={"column": 1}),
        client.post("/drop_token", json={WIDE * 3: 0, **{f"k{n}": 0 for n in range(2000)}}),
    ]
    for error in errors:
        assert 400 <= error.status_code < 500 and len(error.content) <= 2_000, error.text[:200]
    readme = " ".join((REPOSITORY / "service" / "README.md").read_text().split())
    for figure in ("46 KB", "41 KB", "220 KB", "36 KB", "2 KB"):
        assert figure in readme, figure


def test_the_openapi_document_states_the_pages(client: AppClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert f"{MAX_MOVES_PAGE} at most" in paths["/drop_token/{gameId}/moves"]["get"]["description"]
    assert f"{MAX_PAGE:,}" in paths["/drop_token"]["get"]["description"]
