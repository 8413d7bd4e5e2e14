"""Error details a person understands: what was expected, not the parser's words (issue 33)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from app_client import AppClient

from connect_four.service.limits import MAX_BODY_BYTES
from connect_four.service.problems import MAX_PROBLEMS
from server_support import answered_before_storage

GAME_ID = "0" * 32
MOVE_SHAPE = 'the body must be a JSON object {"column": integer}'


def detail(response: Any, status: int = 400) -> str:
    assert response.status_code == status, response.text
    text: str = response.json()["detail"]
    return text


@answered_before_storage
def test_an_unknown_path_is_named_and_the_api_pointed_at(client: AppClient) -> None:
    text = detail(client.get("/drop_tokens"), 404)
    assert text.startswith("no such path: GET /drop_tokens")
    assert "/drop_token" in text and "/docs" in text


@answered_before_storage
def test_a_method_not_allowed_says_which_to_use(client: AppClient) -> None:
    assert (
        detail(client.put("/drop_token"), 405) == "method PUT is not allowed here; use GET or POST"
    )
    assert detail(client.get("/winner"), 405) == "method GET is not allowed here; use POST"


@answered_before_storage
@pytest.mark.parametrize(
    ("content", "content_type", "says"),
    [
        (b"{", "application/json", "the body is not valid JSON (Expecting property name"),
        (b"\xff\xfe", "application/json", "the body is not valid JSON"),
        (b'{"column": 0}', "text/plain", "the body was sent as text/plain, not as JSON"),
        (b'{"column": 0}', "application/x-www-form-urlencoded", "the body was sent as application"),
        (b"[0]", "application/json", "the body is JSON but not an object"),
        (b"", "application/json", "the body is empty"),
    ],
)
def test_a_body_that_is_no_json_object_says_the_object_expected(
    client: AppClient, content: bytes, content_type: str, says: str
) -> None:
    response = client.post(
        f"/drop_token/{GAME_ID}/p1", content=content, headers={"content-type": content_type}
    )
    text = detail(response)
    assert response.json()["error"] == "malformed_request"
    assert text.startswith(says), text
    assert text.endswith(MOVE_SHAPE), text
    for parser_word in ("JSON decode error", "dictionary", "body.", "error parsing"):
        assert parser_word not in text


@answered_before_storage
def test_a_body_without_content_type_says_json_is_expected(client: AppClient) -> None:
    text = detail(client.post(f"/drop_token/{GAME_ID}/p1", content=b'{"column": 0}'))
    assert text.startswith("the body was sent without a Content-Type, not as JSON")


@answered_before_storage
def test_each_problem_is_named_where_a_client_wrote_it(client: AppClient) -> None:
    body = {"players": ["a", 7], "rows": 0, "colums": 4}
    text = detail(client.post("/drop_token", json=body))
    assert "players[1]: must be a string" in text
    assert "rows: must be at least 1" in text
    assert "columns: missing" in text
    assert "colums: not a key this request takes" in text
    assert text.endswith(
        'the body must be a JSON object {"players": [string, ...], "columns": integer, '
        '"rows": integer, "connect": integer (optional), "tokens": boolean (optional), '
        '"clock": object (optional)}'
    )
    text = detail(client.get("/drop_token?limit=x"))
    assert text == "query parameter limit: must be an integer"
    text = detail(
        client.post(
            f"/drop_token/{GAME_ID}/p1", json={"column": 0}, headers={"Idempotency-Key": ""}
        )
    )
    assert text == "header Idempotency-Key: must have at least 1 character"


@answered_before_storage
def test_a_detail_is_bounded_however_many_keys_the_body_has(client: AppClient) -> None:
    """Unknown keys are each a problem: a 64 KiB body of them must not make a huge answer."""
    keys = {f"k{n}": 0 for n in range(MAX_BODY_BYTES // 16)}
    keys[("x" * 1000)] = 0
    body = json.dumps({"column": 0, **keys}).encode()[: MAX_BODY_BYTES - 2]
    body = body[: body.rindex(b",")] + b"}"
    response = client.post(
        f"/drop_token/{GAME_ID}/p1", content=body, headers={"content-type": "application/json"}
    )
    text = detail(response)
    assert text.count("not a key this request takes") == MAX_PROBLEMS
    assert "more problems" in text
    assert len(response.content) < 1000
