"""No parameter of any route can make the service fail: boundary integers and stray text.

Every path and query parameter the OpenAPI document lists (so a new route
is covered by being added) receives 0, -1, 2**31, 2**63, 2**64, 10**40,
their neighbours and signs, and text that is no number, while its
siblings hold valid values so that the request reaches as deep as it can.
Whatever the answer, it is never a 500, and an error has the one JSON shape.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import text_support
from app_client import AppClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from connect_four.service.main import create_app

pytestmark = pytest.mark.slow

BOUNDARIES = [
    "0",
    "-1",
    "1",
    str(2**31 - 1),
    str(2**31),
    str(2**63 - 1),
    str(2**63),
    str(-(2**63)),
    str(-(2**63) - 1),
    str(2**64),
    str(10**40),
    str(-(10**40)),
    "9" * 5000,
    "abc",
    "1.5",
    "1e3",
    "0x1f",
    "+5",
    "1_000",
    " 7",
    "\u0663",  # ARABIC-INDIC DIGIT THREE: int() reads it, a schema may not.
]
"""What each parameter receives for sure: the integers where storage types end, and non-numbers."""

VALUES = st.one_of(st.integers().map(str), text_support.text(min_size=1, max_size=30))
"""What each parameter may receive beyond :data:`BOUNDARIES` (each of those is an example already)."""


@dataclass(frozen=True)
class Parameter:
    """One path or query parameter of one operation, as the OpenAPI document lists it."""

    method: str
    path: str
    name: str
    where: str

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.where}:{self.name}"


def _parameters() -> list[Parameter]:
    """Every path and query parameter of every operation of the app."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Path(folder) / "games.db")
        document = app.openapi()
        app.state.store.close()
    return [
        Parameter(method.upper(), path, parameter["name"], parameter["in"])
        for path, operations in document["paths"].items()
        for method, operation in operations.items()
        for parameter in operation.get("parameters", [])
        if parameter["in"] in ("path", "query")
    ]


PARAMETERS = _parameters()

BODIES: dict[tuple[str, str], dict[str, object]] = {
    ("POST", "/drop_token"): {"players": ["p1", "p2"], "rows": 6, "columns": 7},
    ("POST", "/drop_token/{gameId}/{playerId}"): {"column": 0},
    ("POST", "/winner"): {"board": "X" * 42},
}
"""A valid body for each operation that takes one, so a request is refused for its parameter."""


@pytest.fixture
def valid(client: AppClient) -> Iterator[dict[str, str]]:
    """A valid value of each path parameter: a game with one move, its player, a board."""
    game_id = client.post("/drop_token", json=BODIES["POST", "/drop_token"]).json()["gameId"]
    assert client.post(f"/drop_token/{game_id}/p1", json={"column": 0}).status_code == 200
    # A lobby player and their open seek (issue 36): the lobby's routes take their names.
    key = client.post("/players", json={"name": "p3"}).json()["key"]
    seek = client.post("/lobby/seeks", json={}, headers={"Authorization": f"Bearer {key}"})
    yield {
        "gameId": game_id,
        "playerId": "p2",
        "move_number": "0",
        "board": "X" * 42,
        "name": "p3",
        "seekId": seek.json()["id"],
    }


def test_every_parameter_of_the_api_is_listed() -> None:
    """The property test below covers every parameter: none is missed by the document."""
    assert {(parameter.path, parameter.name) for parameter in PARAMETERS} >= {
        ("/drop_token", "limit"),
        ("/drop_token", "after"),
        ("/drop_token/{gameId}", "gameId"),
        ("/drop_token/{gameId}/moves", "start"),
        ("/drop_token/{gameId}/moves", "until"),
        ("/drop_token/{gameId}/moves/{move_number}", "move_number"),
        ("/drop_token/{gameId}/{playerId}", "playerId"),
        ("/winner/{board}", "board"),
        ("/winner/{board}", "rows"),
        ("/winner/{board}", "columns"),
        ("/winner/{board}", "connect"),
        ("/winner/{board}", "first"),
        ("/lobby", "since"),
        ("/lobby", "wait"),
        ("/lobby/seeks/{seekId}", "seekId"),
        ("/players/{name}", "name"),
    }


@pytest.mark.parametrize("parameter", PARAMETERS, ids=str)
@settings(
    max_examples=10,  # drawn beyond the 21 boundaries: before, a third of 15 repeated one
    deadline=None,
    # One client and game serve every example of a parameter: that is the point.
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(value=VALUES)
@example(value=BOUNDARIES[0])
@example(value=BOUNDARIES[1])
@example(value=BOUNDARIES[2])
@example(value=BOUNDARIES[3])
@example(value=BOUNDARIES[4])
@example(value=BOUNDARIES[5])
@example(value=BOUNDARIES[6])
@example(value=BOUNDARIES[7])
@example(value=BOUNDARIES[8])
@example(value=BOUNDARIES[9])
@example(value=BOUNDARIES[10])
@example(value=BOUNDARIES[11])
@example(value=BOUNDARIES[12])
@example(value=BOUNDARIES[13])
@example(value=BOUNDARIES[14])
@example(value=BOUNDARIES[15])
@example(value=BOUNDARIES[16])
@example(value=BOUNDARIES[17])
@example(value=BOUNDARIES[18])
@example(value=BOUNDARIES[19])
@example(value=BOUNDARIES[20])
def test_no_value_of_any_parameter_is_a_server_error(
    client: AppClient, valid: dict[str, str], parameter: Parameter, value: str
) -> None:
    path = parameter.path
    for name, default in valid.items():
        segment = value if parameter.where == "path" and name == parameter.name else default
        path = path.replace("{" + name + "}", quote(segment, safe=""))
    assert "{" not in path, f"no valid value for a parameter of {parameter.path}"
    query = {parameter.name: value} if parameter.where == "query" else {}
    response = client.request(
        parameter.method,
        path,
        params=query,
        json=BODIES.get((parameter.method, parameter.path)),
    )
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert set(response.json()) == {"error", "detail"}


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/drop_token/{game}/moves/9223372036854775808", "move_number in the path"),
        ("/drop_token?after=9223372036854775808", "query parameter after"),
        ("/drop_token/{game}/moves?start=18446744073709551616", "query parameter start"),
        (f"/drop_token/{{game}}/moves?until={10**40}", "query parameter until"),
    ],
)
def test_numbers_past_what_the_database_stores_are_malformed(
    client: AppClient, valid: dict[str, str], url: str, name: str
) -> None:
    """Issue 21's 500s: a move number or position past 2**63 - 1 is a 400 naming it."""
    response = client.get(url.format(game=valid["gameId"]))
    assert response.status_code == 400
    assert response.json()["error"] == "malformed_request"
    assert response.json()["detail"].startswith(f"{name}: ")
    assert "9223372036854775807" in response.json()["detail"]


def test_the_largest_stored_number_is_still_a_number(
    client: AppClient, valid: dict[str, str]
) -> None:
    """2**63 - 1 reaches the database and is answered as any number past the end."""
    game_id = valid["gameId"]
    largest = 2**63 - 1
    assert client.get(f"/drop_token/{game_id}/moves/{largest}").json()["error"] == (
        "move_not_found"
    )
    assert client.get(f"/drop_token?after={largest}").json() == {"games": []}
    moves = client.get(f"/drop_token/{game_id}/moves?start=0&until={largest}").json()
    assert moves == {"moves": [{"type": "MOVE", "player": "p1", "column": 0}]}
