"""POST /computer_move: the engine's levels over HTTP, in a bounded pool of workers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_client import AppClient

from connect_four.engine import Game
from connect_four.service.dependencies import get_computer_pool
from connect_four.service.main import create_app
from connect_four.service.records import drop_token_rules
from connect_four.service.winner_pool import ComputerPool

pytestmark = pytest.mark.slow


@pytest.fixture
def client(tmp_path: Path) -> Iterator[AppClient]:
    with AppClient(create_app(tmp_path / "games.db")) as test_client:
        yield test_client


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_takes_a_win_in_one(client: AppClient, level: int) -> None:
    answer = client.post(
        "/computer_move",
        json={"rows": 6, "columns": 7, "moves": [0, 6, 0, 6, 0, 6], "level": level},
    )
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"column": 0}


def test_the_perfect_level_answers_a_legal_move_on_other_boards(client: AppClient) -> None:
    for rows, columns, moves in [(5, 8, [3, 4]), (4, 4, [0, 1, 2]), (9, 9, [4] * 5)]:
        answer = client.post(
            "/computer_move", json={"rows": rows, "columns": columns, "moves": moves, "level": 5}
        )
        assert answer.status_code == 200, answer.text
        game = Game.from_moves(moves, drop_token_rules(rows, columns))
        assert game.can_play(answer.json()["column"])


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"rows": 6, "columns": 7, "moves": [7], "level": 3}, 400, "column_out_of_range"),
        ({"rows": 4, "columns": 4, "moves": [0] * 5, "level": 3}, 400, "column_full"),
        ({"rows": 6, "columns": 7, "moves": [0, 1, 0, 1, 0, 1, 0], "level": 3}, 400, "game_over"),
        ({"rows": 6, "columns": 7, "moves": [], "level": 6}, 400, "malformed_request"),
        ({"rows": 3, "columns": 7, "moves": [], "level": 1}, 400, "malformed_request"),
        ({"rows": 6, "columns": 17, "moves": [], "level": 1}, 400, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": ["3"], "level": 1}, 400, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": [], "level": 1, "seed": 1}, 400, "malformed_request"),
    ],
)
def test_a_position_that_is_no_game_is_refused_with_its_rule(
    client: AppClient, body: dict[str, object], status: int, code: str
) -> None:
    answer = client.post("/computer_move", json=body)
    assert answer.status_code == status, answer.text
    assert answer.json()["error"] == code


def test_a_full_pool_answers_503_computer_busy(client: AppClient) -> None:
    busy = ComputerPool(workers=1, waiting=0, refusal_pause=0)
    busy.in_flight = busy.capacity  # every worker taken
    client.app.dependency_overrides[get_computer_pool] = lambda: busy
    answer = client.post("/computer_move", json={"rows": 6, "columns": 7, "moves": [], "level": 1})
    assert answer.status_code == 503
    assert answer.headers["retry-after"] == "1"
    assert answer.json() == {
        "error": "computer_busy",
        "detail": "1 computer moves are in progress or waiting, the most at once; "
        "try again in a moment",
    }
    assert busy.refused == 1
