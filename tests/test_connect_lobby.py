"""``connect.py --server URL --lobby``: the lobby at the terminal, through a pipe, against a real service.

A scripted player (tests/lobby_player.py) is the other side: it opens a
challenge the terminal accepts, or asks to be paired with it, and plays
its moves over HTTP. The terminal keeps its player's key in the key file
under ``$XDG_CONFIG_HOME`` and never shows it but for ``--show-key``.
"""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from connect_four.terminal.lobby import LobbyClient, Seek, Ticket
from connect_four.terminal.lobby_game import CHOICE_PROMPT, converse_in_lobby
from connect_four.terminal.options import parse_options
from connect_four.terminal.steps import Ask, Show
from connect_support import CONNECT, ROOT, default_sigint, run_like_the_harness
from lobby_player import (
    DEADLINE,
    bearer,
    first_open,
    lobby,
    lobby_service,
    open_seek,
    play_out,
    register,
    wait_for_game,
    wait_for_seek,
)
from server_support import HTTP

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with lobby_service(tmp_path_factory.mktemp("lobby")) as url:
        yield url


def run_lobby(
    base: str, config: Path, stdin: str, *options: str, key: str | None = None
) -> subprocess.CompletedProcess[str]:
    """connect.py --server BASE --lobby reading ``stdin``, its keys under ``config``."""
    environment = {name: value for name, value in os.environ.items() if name != "CONNECT_FOUR_KEY"}
    environment.update(XDG_CONFIG_HOME=str(config), HOME=str(config))
    if key is not None:
        environment["CONNECT_FOUR_KEY"] = key
    return subprocess.run(
        [sys.executable, str(CONNECT), "--server", base, "--lobby", *options],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        cwd=ROOT,
        env=environment,
    )


class Opponent(threading.Thread):
    """The scripted player: ``find`` gets its game's ticket, then it plays it out."""

    def __init__(self, base: str, find: Callable[[], dict[str, Any]], preferences: list[int]):
        super().__init__(daemon=True)
        self.base, self.find, self.preferences = base, find, preferences
        self.error: BaseException | None = None
        self.ticket: dict[str, Any] = {}

    def run(self) -> None:
        try:
            self.ticket = self.find()
            play_out(self.base, self.ticket, first_open(self.preferences))
        except BaseException as error:
            self.error = error

    def check(self) -> None:
        self.join(DEADLINE)
        assert not self.is_alive(), "the opponent is still playing"
        if self.error is not None:
            raise self.error


def test_a_terminal_player_accepts_a_challenge_and_plays_it(base: str, tmp_path: Path) -> None:
    ann = register(base, "ann")
    open_seek(base, ann, rows=5, columns=8, colour="O", rated=True)
    opponent = Opponent(base, lambda: wait_for_game(base, ann), [1])
    opponent.start()
    shown = run_lobby(base, tmp_path, "bob\n1\n0\n0\n0\n0\n")
    opponent.check()
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any(
        line.startswith("  1. ann (1500): 5 x 8, four in a row, untimed, rated") for line in lines
    )
    assert "You accepted ann's challenge." in shown.stdout
    assert f"Joined game {opponent.ticket['gameId']} on {base}: you are bob (X)" in shown.stdout
    assert "bob (X) wins." in shown.stdout, shown.stdout[-400:]
    kept = tmp_path / "connect-four" / "players.json"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    key = json.loads(kept.read_text())[base]["key"]
    assert key not in shown.stdout and key not in shown.stderr
    record = HTTP.get(f"{base}/lobby/games/{opponent.ticket['gameId']}", timeout=30).json()
    assert record["players"] == ["bob", "ann"] and record["winner"] == "bob"

    # The next time, the kept key is bob; --show-key shows it, asked for by name.
    again = run_lobby(base, tmp_path, "q\n")
    assert again.returncode == 0, again.stderr
    assert f"In the lobby of {base} as bob." in again.stdout and key not in again.stdout
    shown_key = run_lobby(base, tmp_path, "", "--show-key")
    assert shown_key.stdout.splitlines()[-1] == key


def test_connect_four_key_overrides_the_key_file(base: str, tmp_path: Path) -> None:
    carol = register(base, "carol")
    shown = run_lobby(base, tmp_path, "q\n", key=carol)
    assert shown.returncode == 0, shown.stderr
    assert f"In the lobby of {base} as carol." in shown.stdout
    assert not (tmp_path / "connect-four" / "players.json").exists()


def test_a_taken_name_is_asked_again(base: str, tmp_path: Path) -> None:
    register(base, "dave")
    shown = run_lobby(base, tmp_path, "Dave\ndave2\nq\n")
    assert shown.returncode == 0, shown.stderr
    assert "The name Dave is taken" in shown.stdout
    assert "Welcome, dave2" in shown.stdout


def test_play_someone_now_pairs_the_terminal_with_a_waiting_player(
    base: str, tmp_path: Path
) -> None:
    erin = register(base, "erin")

    def pair_when_the_terminal_waits() -> dict[str, Any]:
        deadline = time.monotonic() + DEADLINE
        while not lobby(base, erin)["waiting"].get("5x8c4 untimed"):
            assert time.monotonic() < deadline, "the terminal never waited to be paired"
            time.sleep(0.05)
        body = {"rows": 5, "columns": 8, "connect": 4, "clock": None, "rated": True}
        answer = HTTP.post(f"{base}/lobby/pair", json=body, headers=bearer(erin), timeout=30)
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    opponent = Opponent(base, pair_when_the_terminal_waits, [2, 3, 4, 5, 6])
    opponent.start()
    shown = run_lobby(base, tmp_path, "frank\np\n" + "0\n" * 8)
    opponent.check()
    assert shown.returncode == 0, shown.stderr
    assert "Waiting for someone to play..." in shown.stdout
    assert f"Joined game {opponent.ticket['gameId']}" in shown.stdout
    assert sorted(opponent.ticket["players"]) == ["erin", "frank"]


def test_ctrl_c_while_a_challenge_waits_takes_it_back(base: str, tmp_path: Path) -> None:
    watcher = register(base, "ivy")
    environment = {name: value for name, value in os.environ.items() if name != "CONNECT_FOUR_KEY"}
    # Unbuffered: the wait's line reaches the pipe as it is printed, so Ctrl-C comes in the wait.
    environment.update(XDG_CONFIG_HOME=str(tmp_path), HOME=str(tmp_path), PYTHONUNBUFFERED="1")
    terminal = subprocess.Popen(
        [sys.executable, str(CONNECT), "--server", base, "--lobby"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=environment,
        preexec_fn=default_sigint,
    )
    assert terminal.stdin is not None and terminal.stdout is not None
    terminal.stdin.write(b"hank\nn\n")
    terminal.stdin.flush()
    waiting = b"Waiting for someone to accept it... (Ctrl-C takes it back)"
    shown = b""
    deadline = time.monotonic() + DEADLINE
    while waiting not in shown:
        assert time.monotonic() < deadline, f"the terminal never waited: {shown!r}"
        if select.select([terminal.stdout], [], [], 0.1)[0]:
            shown += os.read(terminal.stdout.fileno(), 65536)
    assert [seek for seek in lobby(base, watcher)["seeks"] if seek["by"] == "hank"]
    terminal.send_signal(signal.SIGINT)
    problems = terminal.communicate(timeout=DEADLINE)[1].decode()
    assert terminal.returncode == 130, problems
    assert problems.splitlines()[-1] == (
        "connect.py: you left before anyone accepted: your challenge is taken back"
    )
    assert "Traceback" not in problems
    assert [seek for seek in lobby(base, watcher)["seeks"] if seek["by"] == "hank"] == []


def test_a_service_out_of_reach_is_said_before_any_name_is_asked(tmp_path: Path) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    shown = run_lobby(f"http://127.0.0.1:{port}", tmp_path, "")
    assert shown.returncode == 1
    assert shown.stdout == ""
    assert "cannot reach the service at" in shown.stderr and "connection refused" in shown.stderr


def test_a_challenge_opened_at_the_terminal_is_accepted_and_played(
    base: str, tmp_path: Path
) -> None:
    june = register(base, "june")

    def accept_kims_challenge() -> dict[str, Any]:
        seek = wait_for_seek(base, june, "kim")
        assert (seek["rows"], seek["columns"], seek["clock"]) == (6, 7, None)
        answer = HTTP.post(
            f"{base}/lobby/seeks/{seek['id']}/accept", json={}, headers=bearer(june), timeout=30
        )
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    opponent = Opponent(base, accept_kims_challenge, [2, 3, 4, 5, 6])
    opponent.start()
    shown = run_lobby(base, tmp_path, "kim\nn\n" + "0\n" * 8, "--rows", "6", "--columns", "7")
    opponent.check()
    assert shown.returncode == 0, shown.stderr
    assert (
        "Your challenge is open: kim (1500): 6 x 7, four in a row, untimed, rated" in shown.stdout
    )
    assert f"Joined game {opponent.ticket['gameId']}" in shown.stdout
    assert "Game finished." in shown.stdout


def test_a_casual_challenge_for_o_is_opened_as_asked_and_played(base: str, tmp_path: Path) -> None:
    lea = register(base, "lea")

    def accept_maxs_challenge() -> dict[str, Any]:
        seek = wait_for_seek(base, lea, "max")
        assert (seek["colour"], seek["rated"]) == ("O", False)
        answer = HTTP.post(
            f"{base}/lobby/seeks/{seek['id']}/accept", json={}, headers=bearer(lea), timeout=30
        )
        assert answer.status_code == 201, answer.text
        return dict(answer.json())

    opponent = Opponent(base, accept_maxs_challenge, [2, 3, 4, 5, 6])
    opponent.start()
    shown = run_lobby(base, tmp_path, "max\nn\n" + "0\n" * 8, "--casual", "--seek-colour", "O")
    opponent.check()
    assert shown.returncode == 0, shown.stderr
    assert opponent.ticket["players"] == ["lea", "max"]
    assert ": 5 x 8, four in a row, untimed, casual, colour O" in shown.stdout
    record = HTTP.get(f"{base}/lobby/games/{opponent.ticket['gameId']}", timeout=30).json()
    assert record["rated"] is False and record["ratings"]["after"] is None


def test_a_kept_key_the_service_does_not_know_is_said_without_showing_it(
    base: str, tmp_path: Path
) -> None:
    kept = tmp_path / "connect-four" / "players.json"
    kept.parent.mkdir(parents=True)
    kept.write_text(json.dumps({base: {"name": "old", "key": "secret-gone"}}))
    shown = run_lobby(base, tmp_path, "q\n")
    assert shown.returncode == 1
    assert f"{base} does not know the key of {kept}" in shown.stderr
    assert "secret-gone" not in shown.stdout + shown.stderr
    overridden = run_lobby(base, tmp_path, "q\n", key="env-secret-gone")
    assert "does not know the key of CONNECT_FOUR_KEY" in overridden.stderr


@pytest.mark.parametrize(
    ("name", "choice", "line", "said"),
    [
        ("vicky", "n", "Your challenge is open:", "your challenge is taken back"),
        ("viola", "n", "Waiting for someone to accept it...", "your challenge is taken back"),
        ("vince", "p", "Waiting for someone to play...", "you no longer wait to play"),
    ],
)
def test_ctrl_c_as_the_wait_is_shown_still_takes_back_what_was_open(
    base: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    choice: str,
    line: str,
    said: str,
) -> None:
    """Ctrl-C between two steps of the wait (here: as a line of it is printed) leaves nothing open.

    connect.py gives a Ctrl-C to the conversation where it stands, not only
    at the wait's prompt; it once left the challenge open when it came
    before the prompt.
    """
    watcher = register(base, f"{name}-eyes")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CONNECT_FOUR_KEY", raising=False)

    def interrupt_at(printed: str) -> None:
        if printed.startswith(line):
            raise KeyboardInterrupt

    errors: list[str] = []
    with pytest.raises(SystemExit) as ended:
        run_like_the_harness(
            [name, choice],
            *("--server", base, "--lobby"),
            on_line=interrupt_at,
            errors=errors,
        )
    assert ended.value.code == 130
    assert errors[-1].endswith(f": {said}"), errors
    seen = lobby(base, watcher)
    assert [seek for seek in seen["seeks"] if seek["by"] == name] == []
    assert not any(name in str(waiting) for waiting in seen["waiting"].values())


def _joined_in_process(base: str, name: str, choice: str) -> list[str]:
    """converse_in_lobby in this process as ``name``, choosing ``choice``: the lines up to the join.

    A long poll of ``/lobby/me`` once the service has the player's game is
    refused: the terminal would wait for a game it already has.
    """
    settings = parse_options(["--server", base, "--lobby", "--name", name])
    steps = converse_in_lobby(settings)
    shown: list[str] = []
    typed: str | None = None
    try:
        while not any(line.startswith("Joined game") for line in shown):
            step = steps.send(typed)
            typed = None
            if isinstance(step, Show):
                shown.append(step.text)
            elif isinstance(step, Ask):
                assert step.prompt == CHOICE_PROMPT, step
                typed = choice
    finally:
        steps.close()
    return shown


def test_a_challenge_accepted_before_the_terminal_waits_is_joined(
    base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The accept lands between the challenge's opening and the terminal's first look at its games.

    The terminal took the games it had at that first look as old, so it
    waited for ever for the game it was in (the hang of an O challenge's
    test, once, in a loaded whole-suite run).
    """
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("CONNECT_FOUR_KEY", raising=False)
    nia = register(base, "nia")
    tickets: list[dict[str, Any]] = []
    create_seek, my_lobby = LobbyClient.create_seek, LobbyClient.my_lobby

    def accepted_at_once(client: LobbyClient, options: dict[str, object]) -> Seek:
        seek = create_seek(client, options)
        answer = HTTP.post(
            f"{base}/lobby/seeks/{seek.seek_id}/accept", json={}, headers=bearer(nia), timeout=30
        )
        assert answer.status_code == 201, answer.text
        tickets.append(answer.json())
        return seek

    def no_wait_once_accepted(
        client: LobbyClient, since: int | None = None, wait: float | None = None
    ) -> dict[str, object]:
        assert not (tickets and wait), "the terminal waits for a game it already has"
        return my_lobby(client, since, wait)

    monkeypatch.setattr(LobbyClient, "create_seek", accepted_at_once)
    monkeypatch.setattr(LobbyClient, "my_lobby", no_wait_once_accepted)
    shown = _joined_in_process(base, "omar", "n")
    assert f"Joined game {tickets[0]['gameId']} on {base}: you are omar" in shown[-1]


def test_a_pairing_made_before_the_terminal_waits_is_joined(
    base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As the challenge above: the other player pairs before the terminal's first look."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("CONNECT_FOUR_KEY", raising=False)
    pia = register(base, "pia")
    tickets: list[dict[str, Any]] = []
    pair, my_lobby = LobbyClient.pair, LobbyClient.my_lobby

    def paired_at_once(client: LobbyClient, options: dict[str, object]) -> Ticket | None:
        waiting = pair(client, options)
        assert waiting is None, "nobody was waiting in the pool"
        answer = HTTP.post(f"{base}/lobby/pair", json=options, headers=bearer(pia), timeout=30)
        assert answer.status_code == 201, answer.text
        tickets.append(answer.json())
        return None

    def no_wait_once_paired(
        client: LobbyClient, since: int | None = None, wait: float | None = None
    ) -> dict[str, object]:
        assert not (tickets and wait), "the terminal waits for a game it already has"
        return my_lobby(client, since, wait)

    monkeypatch.setattr(LobbyClient, "pair", paired_at_once)
    monkeypatch.setattr(LobbyClient, "my_lobby", no_wait_once_paired)
    shown = _joined_in_process(base, "quin", "p")
    assert f"Joined game {tickets[0]['gameId']} on {base}: you are quin" in shown[-1]
