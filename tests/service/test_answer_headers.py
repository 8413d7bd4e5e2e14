"""Every answer says nosniff; answers that may hold tokens are never stored by a cache (issue 33)."""

from __future__ import annotations

from typing import Any

import pytest
from app_client import AppClient

from connect_four.service.limits import MAX_BODY_BYTES
from server_support import answered_before_storage

GAME = {"players": ["a", "b"], "rows": 4, "columns": 4}


@answered_before_storage
@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("get", "/drop_token", None),
        ("get", "/drop_token/" + "0" * 32, None),
        ("get", "/drop_token/" + "0" * 32 + "/moves", None),
        ("get", "/no/such/path", None),
        ("put", "/drop_token", None),
        ("get", "/winner/" + "X" * 42, None),
        ("get", "/", None),
        ("get", "/openapi.json", None),
        ("post", "/winner", {"board": "X" * 42}),
        ("post", "/drop_token", {"players": "a"}),
    ],
)
def test_every_answer_says_nosniff(client: AppClient, method: str, path: str, body: Any) -> None:
    response = client.request(method, path, json=body)
    assert response.headers["x-content-type-options"] == "nosniff"


def test_a_refused_body_too_large_says_nosniff(client: AppClient) -> None:
    response = client.post(
        "/winner", content=b"X" * (MAX_BODY_BYTES + 1), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_answer_with_tokens_is_never_stored_by_a_cache(client: AppClient) -> None:
    response = client.post("/drop_token", json={**GAME, "tokens": True})
    assert response.status_code == 200 and "tokens" in response.json()
    assert response.headers["cache-control"] == "no-store"
    game_id = response.json()["gameId"]
    token = response.json()["tokens"]["a"]
    for answer in (
        client.post(
            f"/drop_token/{game_id}/a",
            json={"column": 0},
            headers={"Authorization": f"Bearer {token}"},
        ),
        client.post(f"/drop_token/{game_id}/b", json={"column": 0}),
        client.delete(f"/drop_token/{game_id}/b"),
        client.post("/drop_token", json=GAME),
    ):
        assert answer.headers["cache-control"] == "no-store", answer.text
