"""The network game between friends (issue 35): presence, clock, offers and claims, at the terminal.

The game's conversation runs in the test's thread against a service in a
thread of the test's process, whose clock the test sets (a flag falls, a
friend is away long enough, without sleeping). The friend, bob, speaks
HTTP (httpx) from another thread, each action as soon as ann's game waits
for news: the service counts her waits.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from connect_four.service.friends import Friends
from connect_four.service.main import create_app
from connect_four.terminal.options import parse_options
from connect_four.terminal.session import converse
from connect_four.terminal.steps import Ask, Show, Wait
from fake_clock import FakeClock

pytestmark = pytest.mark.slow

DEADLINE = 60.0
"""Seconds any one wait of a test may last before the test fails."""


class Service:
    """The service in a thread, on a port of its own, keeping ``clock``'s time."""

    def __init__(self, folder: Path) -> None:
        self.clock = FakeClock()
        self.app = create_app(folder / "games.db", clock=self.clock)
        self.friends: Friends = self.app.state.friends
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )
        self.http = httpx.Client(base_url=self.url, timeout=30)
        self.waits = (
            0  # ann's waits begun (status long polls with a player's name: bob never waits)
        )
        waiting = self.friends.waiting

        def counted(game_id: str, player: int, delta: int) -> None:
            waiting(game_id, player, delta)
            if delta == 1:
                self.waits += 1

        self.friends.waiting = counted  # type: ignore[method-assign]

    def __enter__(self) -> Service:
        self.thread.start()
        until(lambda: self.server.started, "the service started")
        return self

    def __exit__(self, *_: object) -> None:
        self.server.should_exit = True
        self.thread.join(DEADLINE)
        self.http.close()
        self.listener.close()

    def new_game(self, **extra: Any) -> tuple[str, dict[str, str]]:
        body = {"players": ["ann", "bob"], "rows": 5, "columns": 8, "tokens": True, **extra}
        answer = self.http.post("/drop_token", json=body).json()
        return answer["gameId"], answer["tokens"]

    def script(self, *actions: Callable[[], object]) -> None:
        """Run each action in turn, in a thread, once ann's game has begun its next wait."""
        base = self.waits

        def run() -> None:
            for number, action in enumerate(actions, 1):
                until(lambda: self.waits >= base + number, "ann's game waits")  # noqa: B023
                action()

        threading.Thread(target=run, daemon=True).start()


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.002)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    with Service(tmp_path) as running:
        yield running


class Ann:
    """Ann's game (she joins as X), stepped by the test; the lines it showed."""

    def __init__(self, service: Service, game: str, token: str, *options: str) -> None:
        self.steps = converse(
            parse_options(
                ["--join", f"{service.url}/drop_token/{game}/ann", "--token", token, *options]
            )
        )
        self.shown: list[str] = []
        self.step: Show | Ask | Wait | None = next(self.steps)

    def run(self, answer: str | None = None) -> Ask | None:
        """Send ``answer`` to the pending Ask (None: the news came), run to the next Ask.

        An Ask with news whose answer the test does not give is answered by the news:
        its wait runs here until the news comes. None once the game ended.
        """
        reply: str | None = answer
        while True:
            try:
                self.step = self.steps.send(reply) if self.step is not None else None
            except StopIteration:
                self.step = None
                return None
            reply = None
            if isinstance(self.step, Show):
                self.shown.append(self.step.text)
            elif isinstance(self.step, Ask):
                return self.step

    def first_ask(self) -> Ask:
        while not isinstance(self.step, Ask):
            if isinstance(self.step, Show):
                self.shown.append(self.step.text)
            self.step = self.steps.send(None)
        return self.step

    def news(self) -> Ask | None:
        """Let the pending Ask's news come (its wait runs here), then run on."""
        assert isinstance(self.step, Ask) and self.step.news is not None
        try:
            assert self.step.news.wait()
        finally:
            self.step.news.stop()
        return self.run(None)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_clock_is_shown_each_turn(service: Service) -> None:
    game, tokens = service.new_game(clock={"minutes": 5, "increment": 3})
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    assert ann.shown[-1] == "Clock: ann 5:00, bob 5:00"
    assert ann.shown[-2] == "X's turn"


def test_a_server_with_a_clock_creates_a_game_with_it(service: Service) -> None:
    steps = converse(parse_options(["--server", service.url, "--name", "ann", "--clock", "5+3"]))
    shown = []
    step = next(steps)
    while not isinstance(step, Ask):
        if isinstance(step, Show):
            shown.append(step.text)
        step = steps.send(None)
    steps.close()
    assert "Clock: ann 5:00, player2 5:00" in shown


def test_the_friends_going_and_coming_back_are_told(service: Service) -> None:
    game, tokens = service.new_game()
    bob = bearer(tokens["bob"])
    service.http.get(f"/friend_game/{game}", params={"player": "bob"}, headers=bob)
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    service.script(
        lambda: service.clock.advance(2),  # bob's grace is over: he is away
        lambda: service.http.get(f"/friend_game/{game}", params={"player": "bob"}, headers=bob),
        lambda: service.http.post(f"/drop_token/{game}/bob", json={"column": 1}, headers=bob),
    )
    assert ann.run("0") is not None  # ann's prompt again, after bob's move
    told = [line for line in ann.shown if line in ("bob is away.", "bob is back.")]
    assert told == ["bob is away.", "bob is back."]
    assert "bob plays 1." in ann.shown


def test_a_friend_away_too_long_lets_the_win_be_claimed(service: Service) -> None:
    game, tokens = service.new_game()
    service.http.get(
        f"/friend_game/{game}", params={"player": "bob"}, headers=bearer(tokens["bob"])
    )
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    service.script(lambda: service.clock.advance(61))
    asked = ann.run("0")
    assert asked is not None and asked.prompt.startswith("bob has been away too long")
    assert ann.run("w") is None
    assert ann.shown[-3:] == [
        "bob (O) left: the win is claimed.",
        "Game finished.",
        "ann (X) wins.",
    ]
    state = service.http.get(f"/drop_token/{game}").json()
    assert (state["winner"], state["reason"]) == ("ann", "ABANDONED")


def test_a_flag_fall_ends_the_game_for_the_waiting_player(service: Service) -> None:
    game, tokens = service.new_game(clock={"minutes": 1})
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    service.script(lambda: service.clock.advance(61))
    assert ann.run("0") is None
    assert ann.shown[-3:] == ["bob (O) is out of time.", "Game finished.", "ann (X) wins."]


def test_a_draw_offered_at_the_prompt_and_accepted_ends_the_game(service: Service) -> None:
    game, tokens = service.new_game()
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    assert ann.run("draw") is not None
    assert ann.shown[-1] == "Offered to bob: a draw."
    service.script(
        lambda: service.http.post(
            f"/friend_game/{game}/bob/answer", json={"accept": True}, headers=bearer(tokens["bob"])
        )
    )
    assert ann.news() is None
    assert ann.shown[-1] == "The game is drawn by agreement."


def test_the_friends_takeback_offer_is_accepted_at_the_prompt(service: Service) -> None:
    game, tokens = service.new_game()
    bob = bearer(tokens["bob"])
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    service.script(
        lambda: service.http.post(f"/drop_token/{game}/bob", json={"column": 1}, headers=bob)
    )
    assert ann.run("0") is not None  # bob's move came: ann's prompt
    service.script(
        lambda: service.http.post(
            f"/friend_game/{game}/bob/offer", json={"kind": "takeback"}, headers=bob
        ),
        lambda: service.http.post(f"/drop_token/{game}/bob", json={"column": 2}, headers=bob),
    )
    assert ann.news() is not None
    assert ann.shown[-1] == "bob offers to take back their last move: type accept or decline."
    assert ann.run("accept") is not None  # bob plays again: ann's prompt
    taken = ann.shown.index("The last moves are taken back.")
    assert ann.shown[taken:].count("bob plays 2.") == 1
    assert ann.shown[-1] == "X's turn"
    moves = service.http.get(f"/drop_token/{game}/moves").json()["moves"]
    assert [move["column"] for move in moves] == [0, 2]


def test_with_commands_a_rematch_is_offered_and_played_with_colours_swapped(
    service: Service,
) -> None:
    game, tokens = service.new_game()
    bob = bearer(tokens["bob"])
    ann = Ann(service, game, tokens["ann"], "--commands")
    ann.first_ask()
    service.script(lambda: service.http.delete(f"/drop_token/{game}/bob", headers=bob))
    asked = ann.run("0")
    assert asked is not None and asked.prompt == "Type rematch to offer a rematch, Enter to leave: "
    assert ann.shown[-3:] == ["bob (O) quits.", "Game finished.", "ann (X) wins."]
    asked = ann.run("rematch")
    assert asked is not None and asked.prompt.startswith("Waiting for bob to accept the rematch")

    def bob_moves_in_the_rematch() -> None:
        rematch = service.http.get(f"/friend_game/{game}").json()["rematch"]
        service.http.post(f"/drop_token/{rematch}/bob", json={"column": 3}, headers=bob)

    def bob_accepts() -> None:
        service.script(bob_moves_in_the_rematch)  # at ann's next wait: the rematch's
        service.http.post(f"/friend_game/{game}/bob/answer", json={"accept": True}, headers=bob)

    service.script(bob_accepts)
    assert ann.news() is not None  # bob moved first in the rematch: ann's prompt
    rematch = [service.http.get(f"/friend_game/{game}").json()["rematch"]]
    assert f"Rematch: game {rematch[0]}, colours swapped." in ann.shown
    assert any(line.endswith("you are ann (O), bob is X.") for line in ann.shown)
    assert ann.shown[-3:] == ["bob plays 3.", ann.shown[-2], "O's turn"]
    status = service.http.get(f"/friend_game/{rematch[0]}").json()
    assert (status["wins"], status["previous"]) == ({"bob": 0, "ann": 1}, game)


def test_without_commands_the_game_ends_as_it_always_did(service: Service) -> None:
    game, tokens = service.new_game()
    ann = Ann(service, game, tokens["ann"])
    ann.first_ask()
    service.script(
        lambda: service.http.delete(f"/drop_token/{game}/bob", headers=bearer(tokens["bob"]))
    )
    assert ann.run("0") is None
    assert ann.shown[-3:] == ["bob (O) quits.", "Game finished.", "ann (X) wins."]


def test_a_spectator_sees_a_draw_agreed_end_the_game(service: Service) -> None:
    game, tokens = service.new_game()
    steps = converse(parse_options(["--watch", f"{service.url}/drop_token/{game}"]))
    shown: list[str] = []
    service.http.post(
        f"/friend_game/{game}/ann/offer", json={"kind": "draw"}, headers=bearer(tokens["ann"])
    )
    service.http.post(
        f"/friend_game/{game}/bob/answer", json={"accept": True}, headers=bearer(tokens["bob"])
    )
    for count, step in enumerate(steps):
        if isinstance(step, Show):
            shown.append(step.text)
        assert count < 1000, f"the spectator never saw the end: {shown}"
    assert shown[-1] == "The game is drawn by agreement of the players."
