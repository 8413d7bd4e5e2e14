"""connect_four.terminal.network in-process, against a real service and a hostile one; the network game's pauses."""

from __future__ import annotations

import http.server
import json
import socket
from collections.abc import Callable, Iterator

import pytest

from connect_four.terminal import network_game
from connect_four.terminal.errors import (
    BadResponse,
    ConnectionLost,
    ServerUnreachable,
    ServiceRefused,
)
from connect_four.terminal.network import (
    MAX_RESPONSE_BYTES,
    DropTokenClient,
    GameAddress,
    parse_join_url,
    parse_server_url,
)
from connect_four.terminal.options import parse_options
from connect_four.terminal.session import converse
from connect_four.terminal.steps import Show, Wait
from network_support import create_game, moves_of, serving

pytestmark = pytest.mark.slow

# --- Against the real service -------------------------------------------------


def test_a_created_game_has_a_token_for_each_player(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann", "bob"], rows=6, columns=7)
    assert set(created.tokens) == {"ann", "bob"}
    assert created.tokens["ann"] != created.tokens["bob"]
    assert client.read_players(created.game_id) == ["ann", "bob"]


def test_moves_are_numbered_and_read_back_from_a_start(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann", "bob"], rows=5, columns=8)
    ann = GameAddress(drop_token_service, created.game_id, "ann")
    bob = GameAddress(drop_token_service, created.game_id, "bob")
    assert client.post_move(ann, 3, created.tokens["ann"], "k1") == 0
    assert client.post_move(bob, 4, created.tokens["bob"], "k2") == 1
    assert [(m.player, m.column) for m in client.read_moves(created.game_id, 0)] == [
        ("ann", 3),
        ("bob", 4),
    ]
    assert [(m.player, m.column) for m in client.read_moves(created.game_id, 1)] == [("bob", 4)]
    # Past the last move the service answers 404: no news yet.
    assert client.read_moves(created.game_id, 2) == []


def test_a_move_sent_again_with_its_key_is_played_once(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann", "bob"], rows=5, columns=8)
    ann = GameAddress(drop_token_service, created.game_id, "ann")
    first = client.post_move(ann, 2, created.tokens["ann"], "same-key")
    again = client.post_move(ann, 2, created.tokens["ann"], "same-key")
    assert first == again == 0
    assert len(moves_of(drop_token_service, created.game_id)) == 1


def test_another_players_token_is_refused_with_the_services_code(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann", "bob"], rows=5, columns=8)
    ann = GameAddress(drop_token_service, created.game_id, "ann")
    with pytest.raises(ServiceRefused) as refused:
        client.post_move(ann, 0, created.tokens["bob"], "k")
    assert (refused.value.status, refused.value.code) == (403, "token_rejected")
    assert str(refused.value).startswith("the service refused: ")


def test_an_unknown_game_is_refused(drop_token_service: str) -> None:
    with pytest.raises(ServiceRefused) as refused:
        DropTokenClient(drop_token_service).read_players("0" * 32)
    assert refused.value.code == "game_not_found"


def test_quitting_shows_in_the_move_list_and_quitting_again_is_quiet(
    drop_token_service: str,
) -> None:
    game, tokens = create_game(drop_token_service, ["ann", "bob"])
    client = DropTokenClient(drop_token_service)
    ann = GameAddress(drop_token_service, game, "ann")
    client.quit(ann, tokens["ann"], "q1")
    client.quit(ann, tokens["ann"], "q2")  # the game is over: nothing to do
    [entry] = client.read_moves(game, 0)
    assert (entry.player, entry.column) == ("ann", None)


def test_a_player_name_is_one_path_segment(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann marie", "bob?&x"], rows=5, columns=8)
    bob = GameAddress(drop_token_service, created.game_id, "bob?&x")
    ann = GameAddress(drop_token_service, created.game_id, "ann marie")
    client.post_move(ann, 1, created.tokens["ann marie"], "a")
    assert client.post_move(bob, 1, created.tokens["bob?&x"], "b") == 1
    assert parse_join_url(bob.player_url).player == "bob?&x"


ASTRONAUT = "\U0001f469\u200d\U0001f680 Zo\u00eb"
"""A name with an emoji of three code points: woman, zero-width joiner, rocket."""


def test_a_name_with_an_emojis_joiner_is_read_and_joined(drop_token_service: str) -> None:
    client = DropTokenClient(drop_token_service)
    created = client.create_game(["ann", ASTRONAUT], rows=5, columns=8)
    assert client.read_game(created.game_id).players == ["ann", ASTRONAUT]
    zoe = GameAddress(drop_token_service, created.game_id, ASTRONAUT)
    assert parse_join_url(zoe.player_url).player == ASTRONAUT
    client.post_move(
        GameAddress(drop_token_service, created.game_id, "ann"), 1, created.tokens["ann"], "a"
    )
    client.post_move(zoe, 2, created.tokens[ASTRONAUT], "b")
    assert [move.player for move in client.read_moves(created.game_id, 0)] == ["ann", ASTRONAUT]
    assert (
        parse_options(["--server", drop_token_service, "--friend", ASTRONAUT]).players[1]
        == ASTRONAUT
    )


# --- No answer ------------------------------------------------------------------


def test_a_refused_connection_is_unreachable() -> None:
    # Bound but not listening: connecting is refused at once, and the port
    # stays ours, so no other program answers on it.
    with socket.socket() as bound:
        bound.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{bound.getsockname()[1]}"
        with pytest.raises(ServerUnreachable, match="connection refused"):
            DropTokenClient(url).read_players("x")


def test_a_server_that_never_answers_is_unreachable_after_the_timeout() -> None:
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # connections wait in the backlog, never accepted
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        with pytest.raises(ServerUnreachable, match="timed out"):
            DropTokenClient(url, timeout=0.2).read_players("x")


# --- A hostile server -------------------------------------------------------------

Answer = tuple[int, dict[str, str], bytes]


@pytest.fixture
def hostile() -> Iterator[Callable[[Answer], str]]:
    """A server on 127.0.0.1 that answers every request with the answer given; its URL."""
    answers: list[Answer] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            status, headers, body = answers[-1]
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = do_DELETE = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    def serve(answer: Answer) -> str:
        answers.append(answer)
        return f"http://127.0.0.1:{server.server_address[1]}"

    with serving(server):
        yield serve


def _json(value: object) -> bytes:
    return json.dumps(value).encode()


@pytest.mark.parametrize(
    "body",
    [
        b"not json",
        b"[" * 100_000,  # nesting deep enough to exhaust the parser's recursion
        _json([1, 2]),
        _json({"moves": "0,1"}),
        _json({"moves": [{"type": "MOVE", "player": "ann", "column": "3"}]}),
        _json({"moves": [{"type": "MOVE", "player": "ann", "column": True}]}),
        _json({"moves": [{"type": "MOVE", "player": 5, "column": 3}]}),
        _json({"moves": [{"type": "MOVE", "player": "an\x1b[2Jn", "column": 3}]}),
        _json({"moves": [{"type": "QUIT", "player": "ann", "column": 3}]}),
        _json({"moves": [{"type": "DROP", "player": "ann", "column": 3}]}),
        _json({"moves": [{"type": "MOVE", "player": "ann", "column": 1}] * 501}),
    ],
)
def test_a_malformed_move_list_is_a_bad_response(hostile, body: bytes) -> None:
    url = hostile((200, {"Content-Type": "application/json"}, body))
    with pytest.raises(BadResponse):
        DropTokenClient(url).read_moves("game", 0)


def test_an_answer_over_the_size_limit_is_not_read_whole(hostile) -> None:
    body = b'{"moves": [' + b" " * MAX_RESPONSE_BYTES + b"]}"
    url = hostile((200, {}, body))
    with pytest.raises(BadResponse, match="over"):
        DropTokenClient(url).read_moves("game", 0)


@pytest.mark.parametrize(
    "answer",
    [
        {"gameId": "g"},
        {"gameId": "g", "tokens": {"ann": "a"}},
        {"gameId": "g", "tokens": {"ann": "a", "bob": 7}},
        {"gameId": "", "tokens": {"ann": "a", "bob": "b"}},
        {"gameId": "g\n", "tokens": {"ann": "a", "bob": "b"}},
    ],
)
def test_a_created_game_without_sound_tokens_is_a_bad_response(hostile, answer) -> None:
    url = hostile((200, {}, _json(answer)))
    with pytest.raises(BadResponse):
        DropTokenClient(url).create_game(["ann", "bob"], 5, 8)


@pytest.mark.parametrize("move", ["g/moves/x", "other/moves/1", "g/moves/-1", 3, None])
def test_a_malformed_move_number_is_a_bad_response(hostile, move) -> None:
    url = hostile((200, {}, _json({"move": move})))
    with pytest.raises(BadResponse):
        DropTokenClient(url).post_move(GameAddress(url, "g", "ann"), 0, "t", "k")


def test_a_redirect_is_not_followed_with_the_token(hostile) -> None:
    url = hostile((302, {"Location": "http://127.0.0.1:9/steal"}, b""))
    with pytest.raises(ServiceRefused) as refused:
        DropTokenClient(url).post_move(GameAddress(url, "g", "ann"), 0, "secret", "k")
    assert refused.value.status == 302


@pytest.mark.parametrize("status", [502, 503, 504])
def test_a_service_restarting_behind_a_proxy_is_unreachable_for_now(hostile, status) -> None:
    url = hostile((status, {"Retry-After": "1"}, b""))
    with pytest.raises(ServerUnreachable):
        DropTokenClient(url).read_players("g")


def test_an_error_sentence_reaches_the_screen_without_escapes(hostile) -> None:
    detail = "bad\x1b]0;owned\x07 thing " + "x" * 1000
    url = hostile((400, {}, _json({"error": "nope", "detail": detail})))
    with pytest.raises(ServiceRefused) as refused:
        DropTokenClient(url).read_players("g")
    message = str(refused.value)
    assert message.isprintable()
    assert len(message) < 300


# --- URLs -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["ftp://host/x", "127.0.0.1:8080", "http://", "http://host:99999", "http://h/?q=1"]
)
def test_a_service_url_must_be_http_with_a_host(text: str) -> None:
    with pytest.raises(ValueError):
        parse_server_url(text)


@pytest.mark.parametrize(
    "text",
    [
        "http://h/drop_token/g",
        "http://h/drop_token/g/bob/x",
        "http://h/drop_token//bob",
        "/drop_token/g/bob",
        "http://h/games/g/bob",
        "http://h/drop_token/g/b%2Fo",
        "http://h/drop_token/g/b%0Ao",
    ],
)
def test_a_join_url_must_name_a_game_and_a_player(text: str) -> None:
    with pytest.raises(ValueError):
        parse_join_url(text)


def test_a_join_url_may_sit_under_a_path_prefix() -> None:
    address = parse_join_url("https://example.org/c4/drop_token/abc/bob")
    assert (address.base, address.game_id, address.player) == (
        "https://example.org/c4",
        "abc",
        "bob",
    )


# --- The network game's pauses: steps for connect.py, never a sleep ---------------


def test_an_unanswered_service_is_retried_after_pauses_the_game_only_asks_for(monkeypatch):
    now = [100.0]

    def no_sleep(seconds: float) -> None:
        raise AssertionError("the network game slept itself")

    monkeypatch.setattr(network_game.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(network_game.time, "sleep", no_sleep)
    # As if the service had answered before (a first contact fails at once).
    made = network_game._Patience.__init__

    def answered_before(self: network_game._Patience, url: str) -> None:
        made(self, url)
        self.contacted = True

    monkeypatch.setattr(network_game._Patience, "__init__", answered_before)
    with socket.socket() as bound:  # bound, not listening: every connection is refused
        bound.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{bound.getsockname()[1]}"
        steps = converse(parse_options(["--server", url]))
        first = next(steps)
        waits = []
        with pytest.raises(ConnectionLost):
            while True:
                step = steps.send(None)
                assert isinstance(step, Wait), step
                waits.append(step.seconds)
                now[0] += step.seconds  # what connect.py's sleep would take
    assert first == Show(
        f"Connection to {url} lost (connection refused); retrying for up to 60 seconds..."
    )
    # Growing pauses, up to 4 s, that end at the deadline.
    assert waits[:6] == [0.25, 0.5, 1.0, 2.0, 4.0, 4.0]
    assert max(waits) == 4.0
    assert sum(waits) == network_game.RETRY_SECONDS
