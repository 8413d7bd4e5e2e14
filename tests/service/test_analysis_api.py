"""POST /analysis: every playable column's score over HTTP, bounded like the winner check."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import AppClient
from loop_support import run_async

from connect_four.engine import Game, Rules, Solver
from connect_four.engine.convert import to_position
from connect_four.engine.outlook import position_outlook
from connect_four.service.dependencies import get_analysis_pool
from connect_four.service.errors import AnalysisBusyError
from connect_four.service.limits import MAX_ANALYSIS_SIZE
from connect_four.service.main import create_app
from connect_four.service.winner_pool import AnalysisPool

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pool() -> Iterator[AnalysisPool]:
    """One analysis worker for the module's tests, stopped after them."""
    analysis_pool = AnalysisPool()
    yield analysis_pool
    analysis_pool.close()


@pytest.fixture
def client(tmp_path: Path, pool: AnalysisPool) -> Iterator[AppClient]:
    """A AppClient over an app with the module's analysis pool (no stored games are used)."""
    app = create_app(tmp_path / "games.db")
    app.dependency_overrides[get_analysis_pool] = lambda: pool
    with AppClient(app) as test_client:
        yield test_client


def _refused(response: Any, status_code: int, code: str) -> str:
    """Assert the one error shape with this status and code; return its detail."""
    assert response.status_code == status_code, response.text
    body = response.json()
    assert body["error"] == code
    assert isinstance(body["detail"], str) and body["detail"]
    detail: str = body["detail"]
    return detail


def test_the_issues_example_answers_every_column(client: AppClient) -> None:
    response = client.post("/analysis", json={"rows": 6, "columns": 7, "moves": [3, 3, 4]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["state"], body["winner"]) == ("in_progress", None)
    assert [entry["column"] for entry in body["scores"]] == list(range(7))
    # O must block at 2 or 5: every other column lets X win on the bottom row.
    for column in (0, 1, 3, 4, 6):
        assert body["scores"][column] == {
            "column": column,
            "score": -18,
            "exact": True,
            "outlook": "loss",
        }
    assert set(body["best"]) <= {2, 5}


def test_exact_scores_are_the_exact_solvers(client: AppClient) -> None:
    rules = Rules(5, 5)
    moves = [2, 2, 3]
    body = client.post("/analysis", json={"rows": 5, "columns": 5, "moves": moves}).json()
    solver = Solver(rules)
    for entry in body["scores"]:
        child = Game.from_moves([*moves, entry["column"]], rules)
        truth = 0 if child.is_over() and child.outcome().winner is None else None
        if truth is None:
            truth = -solver.score(to_position(child))
        assert entry == {
            "column": entry["column"],
            "score": truth,
            "exact": True,
            "outlook": "win" if truth > 0 else "loss" if truth < 0 else "draw",
        }
    best = max(entry["score"] for entry in body["scores"])
    assert set(body["best"]) == {e["column"] for e in body["scores"] if e["score"] == best}


def test_connect_is_optional_and_taken_when_given(client: AppClient) -> None:
    three = client.post(
        "/analysis", json={"rows": 4, "columns": 4, "connect": 3, "moves": [1, 1, 2]}
    ).json()
    four = client.post("/analysis", json={"rows": 4, "columns": 4, "moves": [1, 1, 2]}).json()
    expected = position_outlook(4, 4, 3, [1, 1, 2])
    assert [entry["score"] for entry in three["scores"]] == [c.score for c in expected.columns]
    assert three != four


def test_a_full_column_is_left_out(client: AppClient) -> None:
    body = client.post(
        "/analysis", json={"rows": 4, "columns": 4, "moves": [0, 0, 0, 0, 1, 2]}
    ).json()
    assert [entry["column"] for entry in body["scores"]] == [1, 2, 3]


def test_an_unsettled_column_is_a_word_without_a_score(client: AppClient) -> None:
    body = client.post("/analysis", json={"rows": 10, "columns": 10, "moves": []}).json()
    estimates = [entry for entry in body["scores"] if not entry["exact"]]
    assert estimates, body  # the empty 10 x 10 board is far beyond a second of search
    for entry in estimates:
        assert entry["score"] is None
        assert entry["outlook"] in ("likely win", "unclear", "likely loss")
    assert body["best"] and body["best"][0] in range(10)


@pytest.mark.parametrize(
    ("rules", "moves", "state", "winner"),
    [
        ({"rows": 6, "columns": 7}, [0, 1, 0, 1, 0, 1, 0], "won", "first"),
        ({"rows": 6, "columns": 7}, [0, 1, 0, 1, 0, 1, 2, 1], "won", "second"),
        ({"rows": 1, "columns": 2, "connect": 2}, [0, 1], "drawn", None),
    ],
)
def test_a_finished_game_answers_its_state_and_no_scores(
    client: AppClient, rules: dict[str, int], moves: list[int], state: str, winner: str | None
) -> None:
    response = client.post("/analysis", json={**rules, "moves": moves})
    assert response.status_code == 200, response.text
    assert response.json() == {"state": state, "winner": winner, "scores": [], "best": []}


@pytest.mark.parametrize(
    ("moves", "code", "named"),
    [
        ([3, 3, 3, 3, 3, 3, 3], "column_full", "moves[6] (column 3)"),
        ([3, 9], "column_out_of_range", "moves[1] (column 9)"),
        ([-1], "column_out_of_range", "moves[0] (column -1)"),
        ([0, 1, 0, 1, 0, 1, 0, 2], "game_over", "moves[7] (column 2)"),
    ],
)
def test_an_illegal_move_list_is_400_naming_the_move_and_why(
    client: AppClient, moves: list[int], code: str, named: str
) -> None:
    response = client.post("/analysis", json={"rows": 6, "columns": 7, "moves": moves})
    detail = _refused(response, 400, code)
    assert detail.startswith(named + ": ")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"columns": 7, "moves": []}, "malformed_request"),
        ({"rows": 6, "moves": []}, "malformed_request"),
        ({"rows": 6, "columns": 7}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": "334"}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": ["3"]}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": [True]}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": [3.0]}, "malformed_request"),
        ({"rows": "6", "columns": 7, "moves": []}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": [], "first": "A"}, "malformed_request"),
        ({"rows": MAX_ANALYSIS_SIZE + 1, "columns": 7, "moves": []}, "malformed_request"),
        ({"rows": 6, "columns": 10**9, "moves": []}, "malformed_request"),
        ({"rows": 6, "columns": 7, "moves": [0] * (MAX_ANALYSIS_SIZE**2 + 1)}, "malformed_request"),
        ({"rows": 0, "columns": 7, "moves": []}, "bad_rules"),
        ({"rows": 6, "columns": 7, "connect": 8, "moves": []}, "bad_rules"),
        ([3, 3, 4], "malformed_request"),
    ],
)
def test_malformed_and_oversized_requests_are_400(
    client: AppClient, body: object, code: str
) -> None:
    _refused(client.post("/analysis", json=body), 400, code)


def test_a_body_that_is_no_json_is_400(client: AppClient) -> None:
    response = client.post(
        "/analysis", content=b'{"rows": 6', headers={"content-type": "application/json"}
    )
    _refused(response, 400, "malformed_request")


def test_a_huge_body_is_413(client: AppClient) -> None:
    body = b'{"rows": 6, "columns": 7, "moves": [' + b"0, " * 40_000 + b"0]}"
    response = client.post("/analysis", content=body, headers={"content-type": "application/json"})
    _refused(response, 413, "request_too_large")


def test_only_post_is_allowed(client: AppClient) -> None:
    response = client.get("/analysis")
    _refused(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"


def test_a_full_pool_answers_503_with_a_json_body(tmp_path: Path) -> None:
    full = AnalysisPool(workers=1, waiting=0, refusal_pause=0)
    full.in_flight = full.capacity  # as if one analysis held the only worker
    app = create_app(tmp_path / "games.db")
    app.dependency_overrides[get_analysis_pool] = lambda: full
    try:
        with AppClient(app) as busy_client:
            response = busy_client.post("/analysis", json={"rows": 6, "columns": 7, "moves": [3]})
    finally:
        full.close()
    _refused(response, 503, "analysis_busy")
    assert response.headers["retry-after"] == "1"
    assert full.refused == 1


def test_analyses_beyond_the_pools_capacity_are_refused() -> None:
    pool = AnalysisPool(workers=1, waiting=1, refusal_pause=0)

    async def three_at_once() -> list[object]:
        jobs = [pool.run(position_outlook, 4, 4, 4, [1, 2]) for _ in range(3)]
        return await asyncio.gather(*jobs, return_exceptions=True)

    try:
        outcomes = run_async(three_at_once())
    finally:
        pool.close()
    assert outcomes[0] == outcomes[1] == position_outlook(4, 4, 4, [1, 2])
    assert isinstance(outcomes[2], AnalysisBusyError)
    assert (pool.refused, pool.in_flight) == (1, 0)


def test_the_openapi_document_describes_the_route(client: AppClient) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/analysis"]["post"]
    assert {"200", "400", "503", "413", "408"} <= set(operation["responses"])
    assert "exact" in operation["description"]
