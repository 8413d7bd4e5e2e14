"""The lobby's API (issue 36): players and keys, seeks, accepts, quick pairing, the feeds, presence.

Each test runs on SQLite and on PostgreSQL (the ``database`` fixture), in
one process through :class:`AppClient`; the clock is the test's, moved
instead of slept, and the lobby is swept by the test when it says so.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_client import AppClient, get_scope
from friend_support import FakeClock
from lobby_support import Call, Player, register
from starlette.types import Message

from connect_four.service.main import create_app
from server_support import Database


@pytest.fixture
def lobby_client(database: Database, clock: FakeClock) -> Iterator[AppClient]:
    with AppClient(create_app(database, clock=clock)) as client:
        yield client


def _waiting(client: AppClient, count: int) -> None:
    """Return once ``count`` requests wait in the app's hub (registered, first read done)."""
    events = client.app.state.events  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while events.waiting < count:
        assert time.monotonic() < deadline, "the request never waited"
        time.sleep(0.001)


# --- Players and keys -------------------------------------------------------------


def test_a_player_gets_a_long_url_safe_key_and_the_store_keeps_only_its_hash(
    lobby_client: AppClient, database: Database
) -> None:
    ann = register(lobby_client, "ann")
    assert len(ann.key) >= 43 and ann.key.replace("-", "").replace("_", "").isalnum()
    me = ann.get("/players/me").json()
    assert me == {"name": "ann", "bot": False, "ratings": {}}
    if isinstance(database, Path):
        with sqlite3.connect(database) as connection:
            (digest,) = connection.execute("SELECT key_digest FROM players").fetchone()
        assert digest == hashlib.sha256(ann.key.encode()).hexdigest()
        assert ann.key.encode() not in database.read_bytes()


@pytest.mark.parametrize("name", ["ANN", "Ann", "\uff41\uff4e\uff4e"])
def test_names_are_unique_case_folded(lobby_client: AppClient, name: str) -> None:
    register(lobby_client, "ann")
    taken = lobby_client.post("/players", json={"name": name})
    assert (taken.status_code, taken.json()["error"]) == (409, "name_taken")


@pytest.mark.parametrize(
    "body",
    [
        {"name": "x" * 101},
        {"name": ""},
        {"name": "."},
        {"name": ".."},
        {"name": "a/b"},
        {"name": "a\x00b"},
        {"name": "a\x1b[31mred"},
        {"name": 7},
        {"name": "ann", "bot": "yes"},
        {"name": "ann", "key": "mine"},
    ],
)
def test_a_name_the_drop_token_api_refuses_is_refused(
    lobby_client: AppClient, body: dict[str, Any]
) -> None:
    response = lobby_client.post("/players", json=body)
    assert (response.status_code, response.json()["error"]) == (400, "malformed_request")


def test_a_markup_name_is_kept_as_text(lobby_client: AppClient) -> None:
    name = '<img src=x onerror="alert(1)">&amp;'
    player = register(lobby_client, name)
    assert player.get("/players/me").json()["name"] == name
    shown = lobby_client.get("/players/" + urllib.parse.quote(name, safe=""))
    assert shown.json()["name"] == name
    assert player.seek()["by"] == name


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "key_missing"),
        ({"Authorization": "Basic abc"}, "key_missing"),
        ({"Authorization": "Bearer "}, "key_missing"),
        ({"Authorization": "Bearer wrong"}, "key_rejected"),
        ({"Authorization": "Bearer " + "k" * 5000}, "key_rejected"),
    ],
)
def test_a_call_as_a_player_needs_a_players_key(
    lobby_client: AppClient, headers: dict[str, str], code: str
) -> None:
    register(lobby_client, "ann")
    for method, path in [
        ("GET", "/players/me"),
        ("GET", "/lobby/me"),
        ("POST", "/lobby/seeks"),
        ("POST", "/lobby/pair"),
        ("DELETE", "/lobby/pair"),
    ]:
        response = lobby_client.request(method, path, headers=headers, json={})
        assert (response.status_code, response.json()["error"]) == (401, code), path
        assert response.headers["WWW-Authenticate"] == "Bearer"


def test_a_player_is_shown_to_all_without_secrets(lobby_client: AppClient) -> None:
    register(lobby_client, "Bot Bob", bot=True)
    shown = lobby_client.get("/players/bot bob")
    assert shown.json() == {"name": "Bot Bob", "bot": True, "ratings": {}}
    missing = lobby_client.get("/players/nobody")
    assert (missing.status_code, missing.json()["error"]) == (404, "lobby_player_not_found")


# --- Seeks -------------------------------------------------------------------------


def test_a_seek_is_listed_and_accepting_it_starts_the_game_for_both(
    lobby_client: AppClient,
) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob", bot=True)
    seek = ann.seek(rows=5, columns=8, colour="O", clock={"minutes": 0.5, "increment": 0})
    assert seek["pool"] == "5x8c4 0.5+0" and seek["rating"] == 1500.0
    assert seek["clock"] == {"minutes": 0.5, "increment": 0}
    lobby = lobby_client.get("/lobby").json()
    assert [listed["id"] for listed in lobby["seeks"]] == [seek["id"]]
    ticket = bob.accept(seek["id"])
    assert ticket["players"] == ["bob", "ann"] and ticket["you"] == "bob"
    assert (ticket["rows"], ticket["columns"], ticket["connect"]) == (5, 8, 4)
    assert lobby_client.get("/lobby").json()["seeks"] == []
    theirs = ann.ticket(ticket["gameId"])
    assert theirs["state"] == "IN_PROGRESS" and theirs["you"] == "ann"
    # Each token is its player's: bob (X) moves with his, ann with hers, not the other's.
    assert bob.move(ticket["gameId"], 0, theirs["token"]).status_code == 403
    assert bob.move(ticket["gameId"], 0, ticket["token"]).status_code == 200
    assert ann.move(ticket["gameId"], 1, theirs["token"]).status_code == 200
    live = lobby_client.get("/lobby").json()["live"]
    assert live == [
        {
            "gameId": ticket["gameId"],
            "players": ["bob", "ann"],
            "ratings": [1500.0, 1500.0],
            "pool": "5x8c4 0.5+0",
            "rated": True,
            "moves": 0,  # As of the lobby's last change: a move is none.
        }
    ]
    ann.seek()
    assert lobby_client.get("/lobby").json()["live"][0]["moves"] == 2


def test_seeks_have_limits(lobby_client: AppClient) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    seeks = [ann.seek() for _ in range(3)]
    refused = ann.post("/lobby/seeks")
    assert (refused.status_code, refused.json()["error"]) == (409, "too_many_seeks")
    own = ann.post(f"/lobby/seeks/{seeks[0]['id']}/accept")
    assert (own.status_code, own.json()["error"]) == (409, "own_seek")
    not_hers = bob.delete(f"/lobby/seeks/{seeks[0]['id']}")
    assert (not_hers.status_code, not_hers.json()["error"]) == (404, "seek_not_found")
    assert ann.delete(f"/lobby/seeks/{seeks[0]['id']}").status_code == 204
    gone = bob.post(f"/lobby/seeks/{seeks[0]['id']}/accept")
    assert (gone.status_code, gone.json()["error"]) == (409, "seek_gone")
    assert bob.post("/lobby/seeks/nonsense/accept").json()["error"] == "seek_gone"
    assert len(ann.me()["seeks"]) == 2
    ann.seek()


@pytest.mark.parametrize(
    "body",
    [
        {"rows": 0},
        {"rows": 101},
        {"columns": 2**63},
        {"columns": -(2**63)},
        {"rows": 6.0},
        {"rows": True},
        {"connect": 2},
        {"connect": 101},
        {"connect": 2**63},
        {"colour": "red"},
        {"clock": {"minutes": 0}},
        {"clock": {"minutes": 601}},
        {"clock": {"minutes": 5, "days": 1}},
        {"clock": {"days": 61}},
        {"rated": "yes"},
        {"extra": 1},
    ],
)
def test_a_seek_or_pairing_outside_the_limits_is_refused(
    lobby_client: AppClient, body: dict[str, Any]
) -> None:
    ann = register(lobby_client, "ann")
    for path in ("/lobby/seeks", "/lobby/pair"):
        response = ann.post(path, **body)
        assert (response.status_code, response.json()["error"]) == (400, "malformed_request")
    assert ann.me()["seeks"] == [] and ann.me()["pairing"] is None


def test_the_largest_and_smallest_boards_are_lobby_games(lobby_client: AppClient) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    largest = ann.seek(rows=100, columns=100, clock={"days": 60}, colour="X")
    assert largest["pool"] == "100x100c4 60d" and largest["clock"] == {"days": 60}
    smallest = ann.seek(rows=1, columns=1, rated=False)
    assert smallest["pool"] == "1x1c4 untimed" and smallest["rated"] is False
    for seek in (largest, smallest):
        ticket = bob.accept(seek["id"])
        record = lobby_client.get(f"/lobby/games/{ticket['gameId']}").json()
        assert (record["rows"], record["columns"]) == (seek["rows"], seek["columns"])


def _accept_at_once(
    rival: Player, seek_id: str, start: threading.Barrier, answers: list[int]
) -> None:
    start.wait()
    answers.append(rival.post(f"/lobby/seeks/{seek_id}/accept").status_code)


def test_two_accepts_racing_give_one_game(lobby_client: AppClient) -> None:
    ann = register(lobby_client, "ann")
    rivals = [register(lobby_client, f"rival{number}") for number in range(4)]
    for _ in range(8):  # Rounds: the window of a race is narrow.
        seek = ann.seek()
        start = threading.Barrier(len(rivals))
        answers: list[int] = []
        threads = [
            threading.Thread(target=_accept_at_once, args=(rival, seek["id"], start, answers))
            for rival in rivals
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [201, 409, 409, 409]
    assert len(ann.me()["games"]) == 8
    assert sum(len(rival.me()["games"]) for rival in rivals) == 8


# --- Feeds -------------------------------------------------------------------------


def test_the_lobby_feed_answers_a_waiter_when_a_seek_is_made(lobby_client: AppClient) -> None:
    ann = register(lobby_client, "ann")
    version = lobby_client.get("/lobby").json()["version"]
    waiter = Call(lobby_client.get, "/lobby", params={"since": version, "wait": 60})
    _waiting(lobby_client, 1)
    seek = ann.seek()
    answer = waiter.result().json()
    assert answer["version"] > version
    assert [listed["id"] for listed in answer["seeks"]] == [seek["id"]]
    at_once = lobby_client.get("/lobby", params={"since": version, "wait": 60}).json()
    assert at_once["version"] == answer["version"]


def test_the_seekers_feed_gets_the_ticket_when_the_seek_is_accepted(
    lobby_client: AppClient,
) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    seek = ann.seek(colour="X")
    version = ann.me()["version"]
    waiter = Call(ann.get, "/lobby/me", since=version, wait=60)
    _waiting(lobby_client, 1)
    ticket = bob.accept(seek["id"])
    mine = waiter.result().json()
    assert mine["version"] > version and mine["seeks"] == []
    (game,) = mine["games"]
    assert game["gameId"] == ticket["gameId"] and game["token"] != ticket["token"]
    assert ann.move(ticket["gameId"], 0, game["token"]).status_code == 200  # Her token plays.


def test_a_feed_refuses_a_wait_outside_its_limits(lobby_client: AppClient) -> None:
    ann = register(lobby_client, "ann")
    for params in ({"wait": 0}, {"wait": 301}, {"wait": "nan"}, {"since": -1}, {"since": 2**63}):
        for path in ("/lobby", "/lobby/me"):
            response = ann.get(path, **params)
            assert (response.status_code, response.json()["error"]) == (400, "malformed_request")


# --- Presence ----------------------------------------------------------------------


def test_the_seeks_of_a_player_gone_are_removed(lobby_client: AppClient, clock: FakeClock) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    ann.seek()
    bob.seek()
    lobby = lobby_client.app.state.lobby  # type: ignore[attr-defined]
    clock.advance(9)
    bob.get("/lobby/me")  # Bob is still here; ann's last call was 9 s ago.
    lobby.sweep()
    assert len(lobby_client.get("/lobby").json()["seeks"]) == 2
    clock.advance(2)
    lobby.sweep()
    assert [seek["by"] for seek in lobby_client.get("/lobby").json()["seeks"]] == ["bob"]
    assert ann.me()["seeks"] == []


def test_a_player_holding_a_lobby_wait_is_present(
    lobby_client: AppClient, clock: FakeClock
) -> None:
    ann = register(lobby_client, "ann")
    ann.seek()
    version = ann.me()["version"]
    waiter = Call(ann.get, "/lobby/me", since=version, wait=120)
    _waiting(lobby_client, 1)
    clock.advance(100)  # Within the wait: still present.
    lobby_client.app.state.lobby.sweep()  # type: ignore[attr-defined]
    assert len(lobby_client.get("/lobby").json()["seeks"]) == 1
    clock.advance(31)
    lobby_client.app.state.lobby.sweep()  # type: ignore[attr-defined]
    assert waiter.result().json()["seeks"] == []


class LeavingWait:
    """A long poll of ``path`` as ``player`` whose client leaves when told (:meth:`leave`).

    Spoken as raw ASGI on the app's loop: the app's ``receive`` gets the
    request, then ``http.disconnect`` once the client leaves.
    """

    def __init__(self, client: AppClient, player: Player, path: str, **params: Any) -> None:
        self.client = client
        self.left: asyncio.Event | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.status: list[int] = []
        scope = get_scope(
            path, {"Authorization": f"Bearer {player.key}"}, urllib.parse.urlencode(params)
        )
        self.done: concurrent.futures.Future[None] = client.submit(self._run(scope))

    async def _run(self, scope: dict[str, Any]) -> None:
        self.left = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        asked = False

        async def receive() -> Message:
            nonlocal asked
            if not asked:
                asked = True
                return {"type": "http.request", "body": b"", "more_body": False}
            assert self.left is not None
            await self.left.wait()
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                self.status.append(message["status"])

        await self.client.app(scope, receive, send)

    def leave(self) -> None:
        """The client goes; return once the app has answered (nobody to read it)."""
        assert self.left is not None and self.loop is not None
        self.loop.call_soon_threadsafe(self.left.set)
        self.done.result(timeout=30)


@pytest.mark.parametrize("path", ["/lobby/me", "/lobby"])
def test_a_client_gone_from_its_wait_counts_its_presence_from_then(
    lobby_client: AppClient, clock: FakeClock, path: str
) -> None:
    """Before, the wait kept its player present until the time it asked for plus 10 s."""
    ann = register(lobby_client, "ann")
    ann.seek()
    version = ann.me()["version"] if path == "/lobby/me" else ann.get("/lobby").json()["version"]
    wait = LeavingWait(lobby_client, ann, path, since=version, wait=120)
    _waiting(lobby_client, 1)
    clock.advance(5)
    wait.leave()
    assert wait.status == [200]
    lobby = lobby_client.app.state.lobby  # type: ignore[attr-defined]
    clock.advance(9)  # 10 s from the client's leaving: still present
    lobby.sweep()
    assert len(lobby_client.get("/lobby").json()["seeks"]) == 1
    clock.advance(2)
    lobby.sweep()
    assert lobby_client.get("/lobby").json()["seeks"] == []


def test_a_second_wait_still_held_keeps_its_player_present(
    lobby_client: AppClient, clock: FakeClock
) -> None:
    ann = register(lobby_client, "ann")
    ann.seek()
    version = ann.me()["version"]
    holding = Call(ann.get, "/lobby/me", since=version, wait=60)
    leaving = LeavingWait(lobby_client, ann, "/lobby/me", since=version, wait=120)
    _waiting(lobby_client, 2)
    clock.advance(5)
    leaving.leave()
    lobby = lobby_client.app.state.lobby  # type: ignore[attr-defined]
    clock.advance(30)  # the first wait (60 s) still holds
    lobby.sweep()
    assert len(lobby_client.get("/lobby").json()["seeks"]) == 1
    clock.advance(36)  # past its 60 s and 10 s more
    lobby.sweep()
    assert holding.result().json()["seeks"] == []


def test_a_wait_held_here_keeps_its_player_present_when_another_process_cut_it(
    lobby_client: AppClient, clock: FakeClock
) -> None:
    """Another process's wait of the same player ended (its client left) and cut the presence
    its own start had stored; this process still holds one: its sweep stores it again."""
    ann = register(lobby_client, "ann")
    ann.seek()
    version = ann.me()["version"]
    holding = Call(ann.get, "/lobby/me", since=version, wait=60)
    _waiting(lobby_client, 1)
    lobby = lobby_client.app.state.lobby  # type: ignore[attr-defined]
    store = lobby_client.app.state.store  # type: ignore[attr-defined]
    clock.advance(5)
    store.cut_presence("ann", clock() + 10, clock() + 1000)  # the other process's let-go
    for _ in range(6):  # 30 s, swept each 5 s: never gone while the wait holds
        clock.advance(5)
        lobby.sweep()
        assert len(lobby_client.get("/lobby").json()["seeks"]) == 1
    clock.advance(36)
    lobby.sweep()
    assert holding.result().json()["seeks"] == []


# --- Quick pairing -------------------------------------------------------------------


def test_two_players_asking_to_play_now_are_paired(lobby_client: AppClient) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    first = ann.post("/lobby/pair", clock={"minutes": 5, "increment": 3})
    assert (first.status_code, first.json()) == (200, {"state": "waiting"})
    assert ann.me()["pairing"] == "6x7c4 5+3"
    assert lobby_client.get("/lobby").json()["waiting"] == {"6x7c4 5+3": 1}
    other_pool = bob.post("/lobby/pair")
    assert other_pool.status_code == 200
    paired = bob.post("/lobby/pair", clock={"minutes": 5, "increment": 3})
    assert paired.status_code == 201
    ticket = paired.json()
    assert sorted(ticket["players"]) == ["ann", "bob"] and ticket["pool"] == "6x7c4 5+3"
    assert ann.ticket(ticket["gameId"])["token"]
    assert ann.me()["pairing"] is None and bob.me()["pairing"] is None
    assert lobby_client.get("/lobby").json()["waiting"] == {}


def test_pairing_waits_for_the_gap_to_widen_and_can_be_stopped(
    lobby_client: AppClient, clock: FakeClock
) -> None:
    players = [register(lobby_client, name) for name in ("ann", "bob", "cat")]
    store = lobby_client.app.state.store  # type: ignore[attr-defined]
    from connect_four.service.lobby_rules import Rating

    with store._transaction(write=True) as connection:  # A strong player, by the store's own row.
        connection.execute(
            "INSERT INTO ratings (name, pool, rating, rd, volatility, games)"
            " VALUES ('ann', '6x7c4 untimed', 2000, 50, 0.06, 30)"
        )
    assert store.lobby_player("ann")[2]["6x7c4 untimed"] == Rating(2000, 50, 0.06, 30)
    ann, bob, cat = players
    assert ann.post("/lobby/pair").status_code == 200
    assert bob.post("/lobby/pair").status_code == 200  # 500 points apart: not yet.
    assert cat.post("/lobby/pair", rows=5, columns=8).status_code == 200
    assert cat.delete("/lobby/pair").status_code == 204
    assert lobby_client.get("/lobby").json()["waiting"] == {"6x7c4 untimed": 2}
    clock.advance(5)
    for player in players:
        player.get("/lobby/me")  # All present.
    lobby_client.app.state.lobby.sweep()  # type: ignore[attr-defined]
    assert ann.me()["games"] == [] and ann.me()["pairing"] == "6x7c4 untimed"
    clock.advance(4)  # 100 + 50 x 9 > 500.
    lobby_client.app.state.lobby.sweep()  # type: ignore[attr-defined]
    (game,) = ann.me()["games"]
    assert sorted(game["players"]) == ["ann", "bob"] and cat.me()["games"] == []


def test_pairing_takes_the_nearest_rating_waiting(lobby_client: AppClient) -> None:
    store = lobby_client.app.state.store  # type: ignore[attr-defined]
    # 180 points apart, the two waiting never pair; the newcomer is 100 and 80 from them.
    ratings = {"low": 1500, "near": 1680, "new": 1600}
    players = {name: register(lobby_client, name) for name in ratings}
    with store._transaction(write=True) as connection:
        for name, rating in ratings.items():
            connection.execute(
                "INSERT INTO ratings (name, pool, rating, rd, volatility, games)"
                " VALUES (?, '6x7c4 untimed', ?, 50, 0.06, 10)",
                (name, rating),
            )
    for name in ("low", "near"):
        assert players[name].post("/lobby/pair").status_code == 200
    ticket = players["new"].post("/lobby/pair").json()
    assert sorted(ticket["players"]) == ["near", "new"]
    assert lobby_client.get("/lobby").json()["waiting"] == {"6x7c4 untimed": 1}


def test_an_unknown_name_of_any_length_is_a_short_404(lobby_client: AppClient) -> None:
    missing = lobby_client.get("/players/" + "n" * 10_000)
    assert (missing.status_code, missing.json()["error"]) == (404, "lobby_player_not_found")
    assert len(missing.json()["detail"]) < 200


def _press_at_once(player: Player, start: threading.Barrier, answers: list[int]) -> None:
    start.wait()
    answers.append(player.post("/lobby/pair").status_code)


def test_players_pressing_play_now_together_each_get_one_game_at_most(
    lobby_client: AppClient,
) -> None:
    players = [register(lobby_client, f"p{number}") for number in range(8)]
    start = threading.Barrier(len(players))
    answers: list[int] = []
    threads = [
        threading.Thread(target=_press_at_once, args=(player, start, answers)) for player in players
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200] * 4 + [201] * 4  # No fault, no deadlock.
    games = [player.me()["games"] for player in players]
    assert all(len(mine) == 1 for mine in games)
    assert len({mine[0]["gameId"] for mine in games}) == 4
    assert lobby_client.get("/lobby").json()["waiting"] == {}
