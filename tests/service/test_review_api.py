"""POST /review: the terminal's --review over HTTP, bounded like POST /analysis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import AppClient

from connect_four.engine.review import review_moves
from connect_four.service.dependencies import get_analysis_pool, get_review_pool
from connect_four.service.limits import MAX_ANALYSIS_SIZE, REVIEW_SECONDS, REVIEW_TIME_LIMIT
from connect_four.service.main import create_app
from connect_four.service.rate_limits import Rates
from connect_four.service.winner_pool import AnalysisPool, ReviewPool

pytestmark = pytest.mark.slow

# X stacks three in column 3 and O three in column 0; X then plays column 1
# instead of winning at 3, and O wins at 0: move 7 throws a win away.
BLUNDER_GAME = [3, 0, 3, 0, 3, 0, 1, 0]


@pytest.fixture(scope="module")
def pool() -> Iterator[ReviewPool]:
    """One review worker for the module's tests, stopped after them."""
    review_pool = ReviewPool()
    yield review_pool
    review_pool.close()


@pytest.fixture
def client(tmp_path: Path, pool: ReviewPool) -> Iterator[AppClient]:
    """An AppClient over an app with the module's review pool."""
    app = create_app(tmp_path / "games.db")
    app.dependency_overrides[get_review_pool] = lambda: pool
    with AppClient(app) as test_client:
        yield test_client


def _refused(response: Any, status_code: int, code: str) -> str:
    """Assert the one error shape with this status and code; return its detail."""
    assert response.status_code == status_code, response.text
    body = response.json()
    assert set(body) == {"error", "detail"}
    assert body["error"] == code
    detail: str = body["detail"]
    assert detail
    return detail


def test_a_thrown_away_win_is_a_blunder(client: AppClient) -> None:
    response = client.post("/review", json={"rows": 6, "columns": 7, "moves": BLUNDER_GAME})
    assert response.status_code == 200, response.text
    moves = response.json()["moves"]
    assert [move["number"] for move in moves] == list(range(1, 9))
    assert [move["player"] for move in moves] == ["first", "second"] * 4
    assert moves[6] == {
        "number": 7,
        "player": "first",
        "column": 1,
        "score": -18,
        "best": 18,
        "best_column": 3,
        "verdict": "blunder",
    }
    assert moves[7]["verdict"] == "best"


def test_the_answer_is_the_engines_review(client: AppClient) -> None:
    moves = [3, 3, 4, 4, 2]
    body = client.post("/review", json={"rows": 6, "columns": 7, "moves": moves}).json()
    truth = review_moves(6, 7, 4, moves, REVIEW_SECONDS, REVIEW_TIME_LIMIT)
    assert [(m["score"], m["best"], m["verdict"]) for m in body["moves"]] == [
        (m.score, m.best, m.verdict) for m in truth.moves
    ]


def test_no_moves_is_an_empty_review(client: AppClient) -> None:
    response = client.post("/review", json={"rows": 5, "columns": 8, "moves": []})
    assert response.json() == {"moves": []}


def test_an_illegal_move_list_is_400_naming_the_move(client: AppClient) -> None:
    response = client.post("/review", json={"rows": 4, "columns": 4, "moves": [0, 0, 0, 0, 0]})
    assert "moves[4] (column 0)" in _refused(response, 400, "column_full")
    response = client.post("/review", json={"rows": 4, "columns": 4, "moves": [7]})
    _refused(response, 400, "column_out_of_range")


@pytest.mark.parametrize(
    "body",
    [
        {"rows": MAX_ANALYSIS_SIZE + 1, "columns": 7, "moves": []},
        {"rows": 6, "columns": 7, "moves": [0] * (MAX_ANALYSIS_SIZE**2 + 1)},
        {"rows": 6, "columns": 7},
        {"rows": 6, "columns": 7, "moves": ["3"]},
    ],
)
def test_out_of_limits_and_malformed_requests_are_400(
    client: AppClient, body: dict[str, object]
) -> None:
    _refused(client.post("/review", json=body), 400, "malformed_request")


@pytest.mark.usefixtures("still_rate_clock")  # no minute ends between the two requests
def test_reviews_count_against_the_analysis_rate(tmp_path: Path, pool: ReviewPool) -> None:
    app = create_app(tmp_path / "games.db", rates=Rates(analysis="1/minute"))
    analysis_pool = AnalysisPool()
    app.dependency_overrides[get_review_pool] = lambda: pool
    app.dependency_overrides[get_analysis_pool] = lambda: analysis_pool
    try:
        with AppClient(app, client=("192.0.2.1", 40000)) as limited_client:
            first = limited_client.post("/analysis", json={"rows": 4, "columns": 4, "moves": []})
            assert first.status_code == 200, first.text
            response = limited_client.post("/review", json={"rows": 4, "columns": 4, "moves": [1]})
    finally:
        analysis_pool.close()
    _refused(response, 429, "rate_limited")
    assert int(response.headers["retry-after"]) >= 1


def test_a_full_pool_answers_503_review_busy(tmp_path: Path) -> None:
    full = ReviewPool(workers=1, waiting=0, refusal_pause=0)
    full.in_flight = full.capacity  # as if one review held the only worker
    app = create_app(tmp_path / "games.db")
    app.dependency_overrides[get_review_pool] = lambda: full
    try:
        with AppClient(app) as busy_client:
            response = busy_client.post("/review", json={"rows": 6, "columns": 7, "moves": [3]})
    finally:
        full.close()
    _refused(response, 503, "review_busy")
    assert response.headers["retry-after"] == "1"


def test_the_openapi_document_describes_the_route(client: AppClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/review"]["post"]
    assert {"200", "400", "429", "503", "413"} <= set(operation["responses"])
    assert "blunder" in operation["description"]
    verdict = document["components"]["schemas"]["MoveReviewOut"]["properties"]["verdict"]
    assert "blunder" in str(verdict)
