"""An app whose clock the test sets (games between friends), and helpers to play in it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from app_client import AppClient

from connect_four.service.main import create_app
from server_support import Database

START = 1_000_000.0
"""The injected clock's first reading (any number: only differences count)."""


class FakeClock:
    """Wall time as the test says: it moves only when :meth:`advance` is called."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@contextmanager
def friend_app(database: Database, clock: FakeClock, **options: Any) -> Iterator[AppClient]:
    """An AppClient over a new app on ``database`` whose friends' games keep ``clock``'s time."""
    with AppClient(create_app(database, clock=clock, **options)) as client:
        yield client


def new_game(client: AppClient, **extra: Any) -> tuple[str, dict[str, str]]:
    """A game of ann and bob (4x4, with tokens) and its tokens; ``extra`` goes into the body."""
    body = {"players": ["ann", "bob"], "rows": 4, "columns": 4, "tokens": True, **extra}
    response = client.post("/drop_token", json=body)
    assert response.status_code == 200, response.text
    answer = response.json()
    return answer["gameId"], answer["tokens"]


def bearer(token: str) -> dict[str, str]:
    """The header that sends ``token``."""
    return {"Authorization": f"Bearer {token}"}


def move(client: AppClient, game: str, tokens: dict[str, str], player: str, column: int) -> None:
    """``player`` drops into ``column``; the move must be accepted."""
    response = client.post(
        f"/drop_token/{game}/{player}", json={"column": column}, headers=bearer(tokens[player])
    )
    assert response.status_code == 200, response.text
