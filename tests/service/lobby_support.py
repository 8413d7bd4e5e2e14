"""Lobby players for tests: an app with an injected clock, players registered, their calls."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

import httpx
from app_client import AppClient


@dataclass
class Player:
    """A registered lobby player: name, key, and the client their calls go through."""

    client: AppClient
    name: str
    key: str

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.key}"}

    def get(self, path: str, **params: Any) -> httpx.Response:
        return self.client.get(path, params=params, headers=self.auth)

    def post(self, path: str, **body: Any) -> httpx.Response:
        return self.client.post(path, json=body, headers=self.auth)

    def delete(self, path: str) -> httpx.Response:
        return self.client.delete(path, headers=self.auth)

    def seek(self, **body: Any) -> dict[str, Any]:
        response = self.post("/lobby/seeks", **body)
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def accept(self, seek_id: str) -> dict[str, Any]:
        response = self.post(f"/lobby/seeks/{seek_id}/accept")
        assert response.status_code == 201, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def me(self) -> dict[str, Any]:
        response = self.get("/lobby/me")
        assert response.status_code == 200, response.text
        answer: dict[str, Any] = response.json()
        return answer

    def ticket(self, game_id: str) -> dict[str, Any]:
        """This player's entry of ``game_id`` in their own feed."""
        return next(game for game in self.me()["games"] if game["gameId"] == game_id)

    def move(self, game_id: str, column: int, token: str) -> httpx.Response:
        return self.client.post(
            f"/drop_token/{game_id}/{self.name}",
            json={"column": column},
            headers={"Authorization": f"Bearer {token}"},
        )


def register(client: AppClient, name: str, bot: bool = False) -> Player:
    response = client.post("/players", json={"name": name, "bot": bot})
    assert response.status_code == 201, response.text
    return Player(client, name, response.json()["key"])


def game_between(one: Player, two: Player, **seek: Any) -> tuple[str, dict[str, str]]:
    """A lobby game ``one`` seeks and ``two`` accepts: its id and each player's token by name."""
    opened = one.seek(**seek)
    ticket = two.accept(opened["id"])
    tokens = {two.name: ticket["token"], one.name: one.ticket(ticket["gameId"])["token"]}
    return ticket["gameId"], tokens


class Call(threading.Thread):
    """A request made in a thread (a long poll), and its response."""

    def __init__(self, send: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(daemon=True)
        self.send, self.args, self.kwargs = send, args, kwargs
        self.response: httpx.Response | None = None
        self.start()

    def run(self) -> None:
        self.response = self.send(*self.args, **self.kwargs)

    def result(self) -> httpx.Response:
        self.join(timeout=60)
        assert self.response is not None, "the request never answered"
        return self.response
