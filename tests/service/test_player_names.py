"""Player names are path segments: refused when a URL cannot carry them, kept otherwise (issue 33)."""

from __future__ import annotations

import unicodedata
from urllib.parse import quote

import pytest
import text_support
from app_client import AppClient
from hypothesis import HealthCheck, given, settings

from server_support import answered_before_storage


def create(client: AppClient, players: list[str]) -> object:
    return client.post("/drop_token", json={"players": players, "rows": 4, "columns": 4})


@answered_before_storage
@pytest.mark.parametrize(
    ("name", "says"),
    [
        (".", "name 0 cannot be '.': a URL's path drops it"),
        ("..", "name 0 cannot be '..': a URL's path drops it"),
        ("a/b", "name 0 holds '/' at 1"),
        ("a\x00b", "name 0 holds the control character U+0000 at 1"),
        ("\x1b[31m", "name 0 holds the control character U+001B at 0"),
        ("a\nb", "name 0 holds the control character U+000A at 1"),
        ("a\x7f", "name 0 holds the control character U+007F at 1"),
        ("a\x85", "name 0 holds the control character U+0085 at 1"),
    ],
)
def test_names_a_url_cannot_carry_are_400_saying_why(
    client: AppClient, name: str, says: str
) -> None:
    response = create(client, [name, "other"])
    assert response.status_code == 400, response.text  # type: ignore[attr-defined]
    body = response.json()  # type: ignore[attr-defined]
    assert body["error"] == "malformed_request"
    assert f"players: {says}" in body["detail"]


@pytest.mark.parametrize("name", ["a?b", "a#b", "100%", "a b", "...", ".a", "\\", "名前", "🙂"])
def test_other_names_travel_percent_encoded_and_play(client: AppClient, name: str) -> None:
    response = create(client, [name, "other"])
    assert response.status_code == 200, response.text  # type: ignore[attr-defined]
    game_id = response.json()["gameId"]  # type: ignore[attr-defined]
    path = f"/drop_token/{game_id}/{quote(name, safe='')}"
    assert client.post(path, json={"column": 0}).json() == {"move": f"{game_id}/moves/0"}
    assert client.get(f"/drop_token/{game_id}/moves/0").json()["player"] == name
    assert client.get(f"/drop_token/{game_id}").json()["players"] == [name, "other"]


def test_the_schema_states_what_a_name_may_hold(client: AppClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    item = schemas["GameCreate"]["properties"]["players"]["items"]
    assert item["not"] == {"enum": [".", ".."]}
    assert "\\x00" in item["pattern"] or "\x00" in item["pattern"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=text_support.text(min_size=1, max_size=12))
def test_any_name_is_refused_with_a_reason_or_plays_under_its_own_name(
    shared_app_client: AppClient, name: str
) -> None:
    """Never a 500: a name is refused (400, saying why) or travels percent-encoded and back."""
    response = create(shared_app_client, [name, "other" if name != "other" else "another"])
    assert response.status_code in (200, 400), response.text  # type: ignore[attr-defined]
    if response.status_code == 400:  # type: ignore[attr-defined]
        assert name in (".", "..") or any(
            character == "/" or unicodedata.category(character) == "Cc" for character in name
        )
        return
    game_id = response.json()["gameId"]  # type: ignore[attr-defined]
    path = f"/drop_token/{game_id}/{quote(name, safe='')}"
    assert shared_app_client.post(path, json={"column": 0}).status_code == 200
    assert shared_app_client.get(f"/drop_token/{game_id}/moves/0").json()["player"] == name
