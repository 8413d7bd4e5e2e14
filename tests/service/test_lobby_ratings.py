"""Lobby ratings (issue 36): Glicko-2 from the ``glicko2`` package, updated once a rated game ends.

Every path that ends a game between friends ends a lobby game: a line of
four, a full board, a quit, a flag fall, a claimed abandonment, a draw
agreed. Each updates both players' ratings once (an act on the game after
its end changes nothing), as the ``glicko2`` package computes them from the
ratings before; a casual game changes none. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import glicko2
import pytest
from app_client import AppClient
from friend_support import FakeClock
from lobby_support import Call, Player, game_between, register

from connect_four.service.main import create_app
from server_support import Database

CLAIM_AFTER = 60.0


@pytest.fixture
def lobby_client(database: Database, clock: FakeClock) -> Iterator[AppClient]:
    app = create_app(database, clock=clock, claim_after=CLAIM_AFTER)
    with AppClient(app) as client:
        yield client


def expected(
    me: tuple[float, float, float], them: tuple[float, float], score: float
) -> list[float]:
    """What the glicko2 package itself makes of one game: rating, RD, volatility."""
    player = glicko2.Player(rating=me[0], rd=me[1], vol=me[2])
    player.update_player([them[0]], [them[1]], [score])
    return [player.rating, player.rd, player.vol]


def ratings(player: Player, pool: str) -> list[float]:
    rating = player.get("/players/me").json()["ratings"][pool]
    return [rating["rating"], rating["rd"], rating["volatility"], rating["games"]]


def test_a_rated_win_moves_both_ratings_as_the_glicko2_package_says(
    lobby_client: AppClient,
) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    game_id, tokens = game_between(ann, bob, colour="X")
    for player, column in [(ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0)]:
        assert player.move(game_id, column, tokens[player.name]).status_code == 200
    pool = "6x7c4 untimed"
    win = expected((1500, 350, 0.06), (1500, 350), 1.0)
    loss = expected((1500, 350, 0.06), (1500, 350), 0.0)
    assert ratings(ann, pool) == pytest.approx([*win, 1])
    assert ratings(bob, pool) == pytest.approx([*loss, 1])
    # The package's numbers for this game, written out: 1662.3 and 1337.7, RD 290.3.
    assert [round(win[0], 1), round(loss[0], 1), round(win[1], 1)] == [1662.3, 1337.7, 290.3]
    record = lobby_client.get(f"/lobby/games/{game_id}").json()
    assert (record["state"], record["winner"], record["reason"]) == ("DONE", "ann", "CONNECT")
    assert record["moves"] == [0, 1, 0, 1, 0, 1, 0] and record["players"] == ["ann", "bob"]
    assert [r["rating"] for r in record["ratings"]["before"]] == [1500, 1500]
    assert [r["rating"] for r in record["ratings"]["after"]] == pytest.approx([win[0], loss[0]])
    line = lobby_client.get(f"/lobby/games/{game_id}.txt")
    assert line.headers["content-type"].startswith("text/plain")
    started = record["started"]
    assert line.text == (
        f"{started} 6x7c4 untimed rated ann (1500) - bob (1500) 1-0 CONNECT 1 2 1 2 1 2 1\n"
    )
    board = lobby_client.get("/lobby/leaderboard", params={"pool": pool}).json()
    assert [(entry["name"], entry["games"]) for entry in board["players"]] == [
        ("ann", 1),
        ("bob", 1),
    ]
    # A second game starts from the first's ratings.
    game_id, tokens = game_between(bob, ann, colour="X")
    assert lobby_client.delete(
        f"/drop_token/{game_id}/ann", headers={"Authorization": f"Bearer {tokens['ann']}"}
    ).status_code in (200, 202)
    assert ratings(bob, pool) == pytest.approx(
        [*expected(tuple(loss), (win[0], win[1]), 1.0), 2]  # type: ignore[arg-type]
    )


def _drop(player: Player, game_id: str, tokens: dict[str, str], column: int) -> None:
    assert player.move(game_id, column, tokens[player.name]).status_code == 200


def _friend(player: Player, game_id: str, tokens: dict[str, str], what: str, **body: Any) -> None:
    response = player.client.post(
        f"/friend_game/{game_id}/{player.name}/{what}",
        json=body,
        headers={"Authorization": f"Bearer {tokens[player.name]}"},
    )
    assert response.status_code == 200, response.text


Ending = Callable[[AppClient, FakeClock, Player, Player, str, dict[str, str]], None]


def _quit(
    client: AppClient, clock: FakeClock, x: Player, o: Player, game: str, tokens: dict[str, str]
) -> None:
    _drop(x, game, tokens, 0)
    response = client.delete(
        f"/drop_token/{game}/o", headers={"Authorization": f"Bearer {tokens['o']}"}
    )
    assert response.status_code == 202, response.text


def _flag(
    client: AppClient, clock: FakeClock, x: Player, o: Player, game: str, tokens: dict[str, str]
) -> None:
    _drop(x, game, tokens, 0)  # The clocks run from the first move: o's runs out.
    clock.advance(31)
    assert client.get(f"/friend_game/{game}").json()["reason"] == "TIMEOUT"


def _claim(
    client: AppClient, clock: FakeClock, x: Player, o: Player, game: str, tokens: dict[str, str]
) -> None:
    _drop(x, game, tokens, 0)
    clock.advance(CLAIM_AFTER + 1)
    x.get("/lobby/me")
    _friend(x, game, tokens, "claim", result="win")


def _draw_agreed(
    client: AppClient, clock: FakeClock, x: Player, o: Player, game: str, tokens: dict[str, str]
) -> None:
    _drop(x, game, tokens, 0)
    _friend(o, game, tokens, "offer", kind="draw")
    _friend(x, game, tokens, "answer", accept=True)


def _full_board(
    client: AppClient, clock: FakeClock, x: Player, o: Player, game: str, tokens: dict[str, str]
) -> None:
    for number, column in enumerate([0, 0, 1, 1, 2, 2]):  # 2 x 3: no line of four.
        _drop((x, o)[number % 2], game, tokens, column)


@pytest.mark.parametrize(
    ("end", "board", "score", "reason"),
    [
        (_quit, {}, 1.0, "QUIT"),
        (_flag, {"clock": {"minutes": 0.5, "increment": 0}}, 1.0, "TIMEOUT"),
        (_claim, {}, 1.0, "ABANDONED"),
        (_draw_agreed, {}, 0.5, "DRAW_AGREED"),
        (_full_board, {"rows": 2, "columns": 3}, 0.5, "DRAW"),
    ],
)
def test_every_end_of_a_rated_game_updates_the_ratings_once(
    lobby_client: AppClient,
    clock: FakeClock,
    end: Ending,
    board: dict[str, Any],
    score: float,
    reason: str,
) -> None:
    x, o = register(lobby_client, "x"), register(lobby_client, "o")
    game, tokens = game_between(x, o, colour="X", **board)
    pool = lobby_client.get(f"/lobby/games/{game}").json()["pool"]
    end(lobby_client, clock, x, o, game, tokens)
    record = lobby_client.get(f"/lobby/games/{game}").json()
    assert (record["state"], record["reason"]) == ("DONE", reason)
    assert record["clocks"] == ([30.0, 0.0] if reason == "TIMEOUT" else None)
    assert record["winner"] == (None if score == 0.5 else "x")
    want_x = [*expected((1500, 350, 0.06), (1500, 350), score), 1]
    want_o = [*expected((1500, 350, 0.06), (1500, 350), 1 - score), 1]
    assert ratings(x, pool) == pytest.approx(want_x)
    assert ratings(o, pool) == pytest.approx(want_o)
    # Acts on the game once it is over (a rematch offered and accepted) change no rating.
    _friend(x, game, tokens, "offer", kind="rematch")
    _friend(o, game, tokens, "answer", accept=True)
    assert lobby_client.get(f"/friend_game/{game}").json()["state"] == "DONE"
    assert ratings(x, pool) == pytest.approx(want_x)
    assert ratings(o, pool) == pytest.approx(want_o)
    assert x.ticket(game)["state"] == "DONE" and "token" not in x.ticket(game)


@pytest.mark.parametrize("rated", [True, False])
def test_the_rematch_of_a_lobby_game_is_a_lobby_game_of_its_pool_rated_as_it_was(
    lobby_client: AppClient, rated: bool
) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    first, tokens = game_between(ann, bob, colour="X", rows=5, columns=8, rated=rated)
    for player, column in [(ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0)]:
        _drop(player, first, tokens, column)
    _friend(bob, first, tokens, "offer", kind="rematch")
    version = ann.me()["version"]
    response = ann.client.post(
        f"/friend_game/{first}/ann/answer",
        json={"accept": True},
        headers={"Authorization": f"Bearer {tokens['ann']}"},
    )
    assert response.status_code == 200, response.text
    again = response.json()["rematch"]
    # Both players' feeds have it at once, with the tokens they play the first with.
    mine = ann.get("/lobby/me", since=version, wait=30).json()
    assert {game["gameId"] for game in mine["games"]} == {again, first}  # both started "now"
    for player in (ann, bob):
        ticket = player.ticket(again)
        assert (ticket["players"], ticket["token"]) == (["bob", "ann"], tokens[player.name])
        assert (ticket["pool"], ticket["rated"], ticket["state"]) == (
            "5x8c4 untimed",
            rated,
            "IN_PROGRESS",
        )
    live = lobby_client.get("/lobby").json()["live"]
    assert [(game["gameId"], game["players"]) for game in live] == [(again, ["bob", "ann"])]
    for player, column in [(bob, 0), (ann, 1), (bob, 0), (ann, 1), (bob, 0), (ann, 1), (bob, 0)]:
        _drop(player, again, tokens, column)
    record = lobby_client.get(f"/lobby/games/{again}").json()
    assert (record["state"], record["winner"], record["rated"]) == ("DONE", "bob", rated)
    if not rated:
        assert ann.get("/players/me").json()["ratings"] == {}
        return
    won, lost = (1500, 350, 0.06), (1500, 350, 0.06)
    ann_after = expected(won, lost[:2], 1.0)
    bob_after = expected(lost, won[:2], 0.0)
    # The rematch (bob wins) rated from the first game's ratings: each player's second game.
    assert ratings(bob, "5x8c4 untimed") == pytest.approx(
        [*expected(tuple(bob_after), (ann_after[0], ann_after[1]), 1.0), 2]  # type: ignore[arg-type]
    )
    assert ratings(ann, "5x8c4 untimed")[3] == 2


def test_a_casual_game_changes_no_rating(lobby_client: AppClient) -> None:
    ann, bob = register(lobby_client, "ann"), register(lobby_client, "bob")
    game_id, tokens = game_between(ann, bob, colour="X", rated=False)
    for player, column in [(ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0)]:
        _drop(player, game_id, tokens, column)
    assert ann.get("/players/me").json()["ratings"] == {}
    record = lobby_client.get(f"/lobby/games/{game_id}").json()
    assert record["winner"] == "ann" and record["ratings"]["after"] is None
    assert " casual " in lobby_client.get(f"/lobby/games/{game_id}.txt").text


def test_a_game_ended_through_one_app_wakes_its_players_feed_on_another(
    database: Database, clock: FakeClock
) -> None:
    """Two apps on one database stand for two processes: the end's news crosses between them."""
    with (
        AppClient(create_app(database, clock=clock)) as first,
        AppClient(create_app(database, clock=clock)) as second,
    ):
        ann, bob = register(first, "ann"), register(first, "bob")
        game_id, tokens = game_between(ann, bob, colour="X")
        watching = Player(second, "ann", ann.key)
        version = watching.me()["version"]
        waiter = Call(watching.get, "/lobby/me", since=version, wait=60)
        events = second.app.state.events  # type: ignore[attr-defined]
        deadline = time.monotonic() + 30
        while events.waiting < 1:
            assert time.monotonic() < deadline, "the request never waited"
            time.sleep(0.001)
        for player, column in [(ann, 0), (bob, 1), (ann, 0), (bob, 1), (ann, 0), (bob, 1)]:
            _drop(player, game_id, tokens, column)
        _drop(ann, game_id, tokens, 0)
        (game,) = waiter.result().json()["games"]
        assert (game["state"], game["winner"], game["reason"]) == ("DONE", "ann", "CONNECT")


def test_a_pool_that_no_pool_is_named_is_refused_before_the_database(
    lobby_client: AppClient,
) -> None:
    # A NUL reached PostgreSQL, which refuses it in a text: a 503 for a malformed request.
    for pool in ("6x7c4 untimed\x00", "", "6x7", "6x7c4  untimed", "6x7c4 untimed'; --"):
        answer = lobby_client.get("/lobby/leaderboard", params={"pool": pool})
        assert (answer.status_code, answer.json()["error"]) == (400, "malformed_request"), pool
    for pool in ("7x8c5 0.5+3", "6x7c4 2d", "6x7c4 1.66667e-07+0"):
        answer = lobby_client.get("/lobby/leaderboard", params={"pool": pool})
        assert answer.json() == {"pool": pool, "players": []}
