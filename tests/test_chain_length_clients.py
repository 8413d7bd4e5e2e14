"""The terminal and the bot play a service game at its own chain length, not four.

Against a real service: ``connect.py --server URL --lobby`` accepts a connect-3
challenge and wins it with three; ``connect.py --join`` of a friends' game made
with connect 5 reads the chain from the game's state (a line of four does not
end it); the bot seeks a connect-3 game and its ConnectX agent is told
``inarow`` 3.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_connect_lobby import Opponent, run_lobby

from connect_four.terminal.network import DropTokenClient
from connect_support import CONNECT, ROOT
from lobby_player import (
    DEADLINE,
    bearer,
    column_moves,
    first_open,
    lobby_service,
    open_seek,
    play_out,
    register,
    wait_for_game,
    wait_for_seek,
)
from server_support import HTTP

pytestmark = pytest.mark.slow


def test_the_terminal_lobby_plays_a_connect_3_challenge_to_a_line_of_three(
    tmp_path: Path,
) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        open_seek(base, ann, rows=4, columns=4, connect=3, colour="O", rated=True)
        opponent = Opponent(base, lambda: wait_for_game(base, ann), [1])
        opponent.start()
        shown = run_lobby(base, tmp_path / "conf", "bob\n1\n0\n0\n0\n")
        opponent.check()
        assert shown.returncode == 0, shown.stderr
        assert "  1. ann (1500): 4 x 4, 3 in a row, untimed, rated" in shown.stdout
        assert "bob (X) wins." in shown.stdout, shown.stdout[-400:]
        game_id = opponent.ticket["gameId"]
        assert [move["column"] for move in column_moves(base, game_id)] == [0, 1, 0, 1, 0]
        record = HTTP.get(f"{base}/lobby/games/{game_id}", timeout=30).json()
        assert (record["pool"], record["winner"]) == ("4x4c3 untimed", "bob")


def test_a_join_reads_the_games_chain_from_the_service(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        body = {"players": ["ann", "bob"], "rows": 6, "columns": 7, "connect": 5, "tokens": True}
        created = HTTP.post(f"{base}/drop_token", json=body, timeout=30).json()
        game_id, tokens = created["gameId"], created["tokens"]
        ticket = {"gameId": game_id, "players": ["ann", "bob"], "you": "bob", "rows": 6,
                  "columns": 7, "token": tokens["bob"]}  # fmt: skip
        opponent = Opponent(base, lambda: ticket, [1])
        opponent.start()
        shown = subprocess.run(
            [sys.executable, str(CONNECT), "--join", f"{base}/drop_token/{game_id}/ann"],
            input="0\n" * 5,
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            cwd=ROOT,
            env={**os.environ, "CONNECT_FOUR_TOKEN": tokens["ann"]},
        )
        opponent.check()
        assert shown.returncode == 0, shown.stderr
        # ann's fourth stone in column 0 and bob's in column 1 end nothing: the fifth wins.
        assert [move["column"] for move in column_moves(base, game_id)] == [0, 1] * 4 + [0]
        assert "ann (X) wins." in shown.stdout, shown.stdout[-400:]


class _Recording(DropTokenClient):
    """The terminal's client, keeping the body of each request it sends."""

    def __init__(self, base: str) -> None:
        super().__init__(base)
        self.sent: list[object] = []

    def _request(self, method: str, path: str, **options: Any) -> Any:
        self.sent.append(options.get("body"))
        return super()._request(method, path, **options)


def test_the_terminals_client_asks_for_a_chain_only_when_it_is_not_four(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        client = _Recording(base)
        five = client.create_game(["ann", "bob"], 6, 7, None, 5)
        four = client.create_game(["ann", "bob"], 6, 7)  # the seed's body, byte for byte
        assert client.sent == [
            {"players": ["ann", "bob"], "rows": 6, "columns": 7, "tokens": True, "connect": 5},
            {"players": ["ann", "bob"], "rows": 6, "columns": 7, "tokens": True},
        ]
        assert [client.read_game(game.game_id).connect for game in (five, four)] == [5, 4]


@pytest.mark.parametrize("chain", ["3", "4"])  # 4 too: named, it is no default left out
def test_the_joiner_s_connect_other_than_the_games_is_refused(tmp_path: Path, chain: str) -> None:
    with lobby_service(tmp_path) as base:
        body = {"players": ["ann", "bob"], "rows": 6, "columns": 7, "connect": 5, "tokens": True}
        created = HTTP.post(f"{base}/drop_token", json=body, timeout=30).json()
        shown = subprocess.run(
            [
                sys.executable,
                str(CONNECT),
                "--join",
                f"{base}/drop_token/{created['gameId']}/ann",
                "--connect",
                chain,
            ],
            capture_output=True,
            text=True,
            timeout=DEADLINE,
            cwd=ROOT,
            env={**os.environ, "CONNECT_FOUR_TOKEN": created["tokens"]["ann"]},
        )
        assert shown.returncode == 2, shown.stderr
        assert (
            f"--join: this game is won by 5 in a row, not the {chain} of --connect" in shown.stderr
        )


INARROW_3_AGENT = """\
def agent(observation, configuration):
    assert configuration.inarow == 3, configuration.inarow
    columns = configuration.columns
    heights = [sum(1 for row in range(configuration.rows)
                   if observation.board[row * columns + column]) for column in range(columns)]
    return next(column for column in range(columns) if heights[column] < configuration.rows)
"""


def test_the_bot_seeks_connect_3_and_its_agent_is_told_inarow_3(tmp_path: Path) -> None:
    agent_file = tmp_path / "three.py"
    agent_file.write_text(INARROW_3_AGENT)
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        options = ("--seek", "--rows", "4", "--columns", "4", "--connect", "3", "--games", "1")
        bot = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "connect_four.terminal.bot",
                "--server",
                base,
                "--name",
                "trio",
                "--agent",
                str(agent_file),
                *options,
            ],
            cwd=ROOT,
            env={
                **{name: value for name, value in os.environ.items() if name != "CONNECT_FOUR_KEY"},
                "XDG_CONFIG_HOME": str(tmp_path / "conf"),
                "HOME": str(tmp_path / "conf"),
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            seek = wait_for_seek(base, ann, "trio")
            assert (seek["connect"], seek["pool"]) == (3, "4x4c3 untimed")
            accepted = HTTP.post(
                f"{base}/lobby/seeks/{seek['id']}/accept", json={}, headers=bearer(ann), timeout=30
            )
            assert accepted.status_code == 201, accepted.text
            final = play_out(base, accepted.json(), first_open([3]))
        finally:
            printed, _ = bot.communicate(timeout=DEADLINE)
        assert bot.returncode == 0, printed
        # Each stacks three in a column (the agent the leftmost, ann column 3): X's third wins.
        ticket = accepted.json()
        assert len(column_moves(base, ticket["gameId"])) == 5
        assert (final["winner"], final["connect"]) == (ticket["players"][0], 3)
