"""Per-client rates of what creates, computes or reads: 429 with Retry-After beyond them (issue 33)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from app_client import AppClient

from connect_four.service.cli import main
from connect_four.service.limits import (
    RATE_ANALYSIS,
    RATE_COMPUTER,
    RATE_GAMES,
    RATE_MOVES,
    RATE_READS,
    RATE_REPLAYS,
)
from connect_four.service.main import create_app
from connect_four.service.rate_limits import Rates
from server_support import REPOSITORY

# The windows never end while a test runs: two requests on either side of a minute's end
# would let one more in than the rate (tests/service/conftest.py, _StillWallClock).
pytestmark = pytest.mark.usefixtures("still_rate_clock")

GAME = {"players": ["a", "b"], "rows": 4, "columns": 4}
TIGHT = Rates(
    games="3/minute",
    moves="2/minute",
    analysis="2/minute",
    computer="2/minute",
    replays="100/minute",
    reads="off",
)


@pytest.fixture(params=["memory", "database"])
def app(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """An app with tight rates, counted in its memory, then in its database (issue 37)."""
    return create_app(tmp_path / "games.db", rates=TIGHT, rate_store=request.param)


@pytest.fixture
def client(app: Any) -> Iterator[AppClient]:
    with AppClient(app, client=("192.0.2.1", 40000)) as test_client:
        yield test_client


def assert_rate_limited(response: httpx.Response, window: int = 60) -> None:
    assert response.status_code == 429, response.text
    body = response.json()
    assert set(body) == {"error", "detail"} and body["error"] == "rate_limited"
    assert "from your address" in body["detail"] and "try again in" in body["detail"]
    assert 1 <= int(response.headers["retry-after"]) <= window


def test_games_beyond_the_rate_are_429_and_not_created(client: AppClient) -> None:
    for _ in range(3):
        assert client.post("/drop_token", json=GAME).status_code == 200
    refused = client.post("/drop_token", json=GAME)
    assert_rate_limited(refused)
    assert "at most 3 per 1 minute" in refused.json()["detail"]
    assert len(client.get("/drop_token").json()["games"]) == 3


def test_retry_after_is_within_the_window_wherever_the_still_clock_stands(
    client: AppClient, still_rate_clock: Any
) -> None:
    """The still clock an hour from the real one: every reset is dated by the still one.

    ``limits`` dated a window's reset by the real clock while the service
    subtracted the still one's time: Retry-After came out as 61 once, in a
    quiet whole-suite run (the two clocks are up to half a minute apart).
    """
    still_rate_clock.now -= 3600
    for _ in range(3):
        assert client.post("/drop_token", json=GAME).status_code == 200
    assert_rate_limited(client.post("/drop_token", json=GAME))


def test_moves_and_quits_share_one_rate(client: AppClient) -> None:
    game_id = client.post("/drop_token", json=GAME).json()["gameId"]
    assert client.post(f"/drop_token/{game_id}/a", json={"column": 0}).status_code == 200
    assert client.post(f"/drop_token/{game_id}/b", json={"column": 0}).status_code == 200
    assert_rate_limited(client.post(f"/drop_token/{game_id}/a", json={"column": 0}))
    assert_rate_limited(client.delete(f"/drop_token/{game_id}/b"))
    # Reads are never limited, and nothing more was stored.
    for _ in range(20):
        assert len(client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 2


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/analysis", {"rows": 4, "columns": 4, "moves": [9]}),
        ("/computer_move", {"rows": 4, "columns": 4, "moves": [9], "level": 1}),
    ],
)
def test_analyses_and_computer_moves_beyond_the_rate_are_429_before_any_search(
    client: AppClient, path: str, body: dict[str, Any]
) -> None:
    """Refused moves (400, no search) count too: what is counted is asking."""
    for _ in range(2):
        assert client.post(path, json=body).status_code == 400
    assert_rate_limited(client.post(path, json=body))


def test_each_client_address_has_its_own_count(app: Any) -> None:
    with AppClient(app, client=("192.0.2.1", 1)) as first:
        for _ in range(3):
            assert first.post("/drop_token", json=GAME).status_code == 200
        assert_rate_limited(first.post("/drop_token", json=GAME))
        with AppClient(app, client=("198.51.100.9", 1)) as second:
            assert second.post("/drop_token", json=GAME).status_code == 200


def test_an_ipv6_client_is_counted_by_its_64_network(app: Any) -> None:
    with AppClient(app, client=("2001:db8:1:2::1", 1)) as first:
        for _ in range(3):
            assert first.post("/drop_token", json=GAME).status_code == 200
    with AppClient(app, client=("2001:db8:1:2:ffff::7", 1)) as neighbour:
        assert_rate_limited(neighbour.post("/drop_token", json=GAME))
    with AppClient(app, client=("2001:db8:1:3::1", 1)) as elsewhere:
        assert elsewhere.post("/drop_token", json=GAME).status_code == 200


def test_off_lifts_a_limit(tmp_path: Path) -> None:
    with AppClient(create_app(tmp_path / "games.db", rates=Rates(games="off"))) as client:
        for _ in range(50):
            assert client.post("/drop_token", json=GAME).status_code == 200


def test_the_openapi_document_states_each_429(client: AppClient) -> None:
    document = client.get("/openapi.json").json()
    assert "429 rate_limited with Retry-After" in document["info"]["description"]
    paths = document["paths"]
    for path, method in [
        ("/drop_token", "post"),
        ("/drop_token/{gameId}/{playerId}", "post"),
        ("/drop_token/{gameId}/{playerId}", "delete"),
        ("/analysis", "post"),
        ("/computer_move", "post"),
        ("/drop_token", "get"),
        ("/drop_token/{gameId}/moves", "get"),
    ]:
        assert "429" in paths[path][method]["responses"], (path, method)
    # A read is counted only for the games it makes the server replay.
    assert "replay" in paths["/drop_token/{gameId}"]["get"]["responses"]["429"]["description"]
    assert "429" not in paths["/winner"]["post"]["responses"]


def test_the_defaults_are_stated_in_the_readme_and_the_help(
    capsys: pytest.CaptureFixture[str],
) -> None:
    readme = " ".join((REPOSITORY / "service" / "README.md").read_text().split())
    with pytest.raises(SystemExit):
        main(["--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for option, rate in [
        ("--rate-games", RATE_GAMES),
        ("--rate-moves", RATE_MOVES),
        ("--rate-analysis", RATE_ANALYSIS),
        ("--rate-computer", RATE_COMPUTER),
        ("--rate-replays", RATE_REPLAYS),
        ("--rate-reads", RATE_READS),
    ]:
        assert f"`{option}` ({rate})" in readme, option
        assert option in help_text and rate in help_text


def test_a_bad_rate_is_refused_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main(["--rate-moves", "5/fortnight"])
    assert exit_status.value.code == 2
    assert "'5/fortnight' is no rate" in capsys.readouterr().err


def replayed_game(app: Any, moves: int) -> str:
    """A 100 x 100 game of ``moves`` moves by seven players (nobody wins), stored directly."""
    players = [f"p{n}" for n in range(7)]
    store = app.state.store
    game_id: str = store.create_game(players=players, rows=100, columns=100).game_id
    for turn in range(moves):
        store.play(game_id=game_id, player_id=players[turn % 7], column=turn // 100)
    return game_id


def test_replaying_games_that_left_the_cache_is_charged_to_the_client(app: Any) -> None:
    """Each read of a game out of the cache replays it: a client cycling long games is stopped."""
    game_id = replayed_game(app, 150)
    with AppClient(app, client=("192.0.2.1", 1)) as client:
        for _ in range(20):  # Cached: reading costs no replay.
            assert client.get(f"/drop_token/{game_id}").status_code == 200
        app.state.store._cache.evict(game_id)
        assert client.get(f"/drop_token/{game_id}").status_code == 200  # 150 moves replayed
        app.state.store._cache.evict(game_id)
        refused = client.get(f"/drop_token/{game_id}")
        assert_rate_limited(refused)
        assert "stored moves replayed" in refused.json()["detail"]
        # Used up: every drop-token request of this address waits for the window.
        assert_rate_limited(client.post(f"/drop_token/{game_id}/p0", json={"column": 0}))
        assert_rate_limited(client.get(f"/drop_token/{game_id}/moves"))
    with AppClient(app, client=("198.51.100.9", 1)) as other:
        # Another address has its own budget: its refused move replays the game (409)...
        assert other.post(f"/drop_token/{game_id}/p1", json={"column": 0}).status_code == 409
        app.state.store._cache.evict(game_id)
        # ...and is charged for it: its budget is used up in turn.
        assert_rate_limited(other.get(f"/drop_token/{game_id}"))


def test_reads_are_charged_by_the_moves_and_ids_they_answer(tmp_path: Path) -> None:
    """A client reading long lists again and again is stopped; others read on."""
    app = create_app(tmp_path / "games.db", rates=Rates(reads="1200/minute"))
    game_id = replayed_game(app, 520)
    with AppClient(app, client=("192.0.2.1", 1)) as client:
        assert len(client.get(f"/drop_token/{game_id}/moves").json()["moves"]) == 500
        assert len(client.get(f"/drop_token/{game_id}/moves?start=20").json()["moves"]) == 500
        # 1,000 of 1,200 read: a page of 500 is refused before it is sent, a wait's too...
        refused = client.get(f"/drop_token/{game_id}/moves?start=0")
        assert_rate_limited(refused)
        assert "moves and game ids read" in refused.json()["detail"]
        assert_rate_limited(client.get(f"/drop_token/{game_id}/moves?start=0&wait=1"))
        # ...what still fits is answered...
        assert len(client.get(f"/drop_token/{game_id}/moves?start=320").json()["moves"]) == 200
        # ...and once all is read, every list waits for the window, a short one too.
        assert_rate_limited(client.get(f"/drop_token/{game_id}/moves?start=519"))
        assert_rate_limited(client.get("/drop_token"))
        # What is not a list is not a read: the game's state and one move.
        assert client.get(f"/drop_token/{game_id}").status_code == 200
        assert client.get(f"/drop_token/{game_id}/moves/3").status_code == 200
    with AppClient(app, client=("198.51.100.9", 1)) as other:
        assert other.get(f"/drop_token/{game_id}/moves?start=510").json()["moves"][0] == {
            "type": "MOVE",
            "player": "p6",
            "column": 5,
        }
        assert other.get("/drop_token").json() == {"games": [game_id]}
