"""Work for a client who has gone is dropped: the engine's routes stop waiting for it (499).

A client who asks for an analysis, a review or a computer move and closes
its connection leaves nobody to read the answer; its job is dropped from
the pool's queue if no worker has taken it yet (tests/service/test_winner_pool.py
shows the pool's side). Here each route is shown to hand the pool its
client's departure: the client is made to have left at once (yet reads
on), and the answer a real server would send nobody is 499 client_gone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from app_client import AppClient

from connect_four.service.dependencies import Client
from connect_four.service.main import create_app

ROUTES = {
    "/analysis": {"rows": 6, "columns": 7, "moves": [3, 3, 4]},
    "/review": {"rows": 6, "columns": 7, "moves": [3, 3, 4, 4]},
    "/computer_move": {"rows": 6, "columns": 7, "moves": [3], "level": 5},
}
"""Each route that runs engine work in a pool, and a body it answers with 200."""


@pytest.fixture
def client_who_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppClient]:
    """A client over a new app whose every request's client has gone as soon as it asked."""

    async def gone_at_once(self: Client) -> None:
        return None

    monkeypatch.setattr(Client, "gone", gone_at_once)
    with AppClient(create_app(tmp_path / "games.db")) as test_client:
        yield test_client


@pytest.mark.parametrize("path", sorted(ROUTES))
def test_the_work_of_a_client_who_left_is_dropped(client_who_left: AppClient, path: str) -> None:
    response = client_who_left.post(path, json=ROUTES[path])
    assert response.status_code == 499, response.text
    assert response.json()["error"] == "client_gone"


@pytest.mark.parametrize("path", sorted(ROUTES))
def test_each_body_is_answered_when_the_client_stays(tmp_path: Path, path: str) -> None:
    """The bodies above are good ones: the 499 is the departure's, not a refusal's."""
    with AppClient(create_app(tmp_path / "games.db")) as test_client:
        response = test_client.post(path, json=ROUTES[path])
    assert response.status_code == 200, response.text
