"""The example bot (connect_four.terminal.bot, ``connect-four-bot``).

Its moves: the engine at a level, or a Kaggle ConnectX agent fed Kaggle's
observation. Its games: against a scripted player (tests/lobby_player.py)
through a real service, the bot a program of its own started as the README
says.
"""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from connect_four.engine import Game, Rules
from connect_four.terminal.bot import AgentError, AgentMover, Bot, load_agent
from connect_four.terminal.lobby import LobbyClient
from lobby_player import (
    DEADLINE,
    column_moves,
    first_open,
    lobby_service,
    offer,
    open_seek,
    play,
    play_out,
    register,
    status_when,
    wait_for_game,
    wait_for_seek,
)
from server_support import HTTP

ROOT = Path(__file__).resolve().parents[1]


def _readme_agent() -> str:
    """The ConnectX agent the README shows (``leftmost.py``): the tests play with that very text."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(def agent\(.*?)```", readme, flags=re.DOTALL)
    return str(block)


LEFTMOST_AGENT = _readme_agent()


def test_the_agent_sees_kaggles_board_top_row_first_and_its_own_mark() -> None:
    seen = []

    def agent(observation: object, configuration: object) -> int:
        seen.append((list(observation.board), observation.mark, configuration.inarow))  # type: ignore[attr-defined]
        return 1

    game = Game.from_moves("0,0,3", Rules(rows=3, columns=4, connect=3))
    assert AgentMover(agent, 1.0)(game) == 1
    board, mark, inarow = seen[0]
    assert board == [0, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 1]
    assert (mark, inarow) == (2, 3)


@pytest.mark.parametrize("answer", [9, -1, "2", True, None])
def test_an_agent_answering_no_playable_column_is_refused(answer: object) -> None:
    mover = AgentMover(lambda observation, configuration: answer, 1.0)
    with pytest.raises(AgentError, match="not a column"):
        mover(Game(Rules(rows=3, columns=4, connect=3)))


def test_an_agent_answering_a_full_column_is_refused() -> None:
    full = Game.from_moves("0,1,0,1,0", Rules(rows=3, columns=4, connect=4, allow_unwinnable=True))
    with pytest.raises(AgentError, match="not a column"):
        AgentMover(lambda observation, configuration: 0, 1.0)(full)


def test_an_agent_file_and_the_engines_own_connectx_agent_load(tmp_path: Path) -> None:
    path = tmp_path / "leftmost.py"
    path.write_text(LEFTMOST_AGENT)
    game = Game.from_moves("0,0,0,0,0", Rules(rows=5, columns=8))
    assert AgentMover(load_agent(str(path)), 1.0)(game) == 1
    # X to play wins at once in column 1: the engine's ConnectX agent sees it.
    threat = Game.from_moves("1,0,1,0,1,0", Rules(rows=6, columns=7))
    assert AgentMover(load_agent("connect_four.engine.connectx"), 0.5)(threat) == 1
    (tmp_path / "none.py").write_text("X = 1\n")
    with pytest.raises(AgentError, match="no agent"):
        load_agent(str(tmp_path / "none.py"))
    with pytest.raises(AgentError, match="does not load"):
        load_agent(str(tmp_path / "missing.py"))


# --- Against a real service ---------------------------------------------------


def _start_bot(base: str, config: Path, *options: str) -> subprocess.Popen[str]:
    """``python -m connect_four.terminal.bot`` from the checkout, its keys under ``config``."""
    return subprocess.Popen(
        [sys.executable, "-m", "connect_four.terminal.bot", "--server", base, *options],
        cwd=ROOT,
        env={
            **{name: value for name, value in os.environ.items() if name != "CONNECT_FOUR_KEY"},
            "XDG_CONFIG_HOME": str(config),
            "HOME": str(config),
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _finish(bot: subprocess.Popen[str]) -> str:
    try:
        printed, _ = bot.communicate(timeout=DEADLINE)
    except subprocess.TimeoutExpired:
        bot.kill()  # the test fails: no bot is left running after it
        bot.communicate()
        raise
    assert bot.returncode == 0, printed
    return printed


@pytest.mark.slow
def test_the_bot_accepts_a_seek_and_plays_the_game_to_its_end(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        open_seek(base, ann, rows=6, columns=7, colour="X", rated=True)
        bot = _start_bot(base, tmp_path / "conf", "--name", "robot", "--level", "2", "--games", "1")
        try:
            ticket = wait_for_game(base, ann)
            assert ticket["players"] == ["ann", "robot"]
            final = play_out(base, ticket, first_open([3, 3, 2, 4, 1, 5]))
        finally:
            printed = _finish(bot)
        assert final["state"] == "DONE"
        moves = column_moves(base, ticket["gameId"])
        assert [move["player"] for move in moves[:2]] == ["ann", "robot"]
        assert len(moves) >= 7
        record = HTTP.get(f"{base}/lobby/games/{ticket['gameId']}", timeout=30).json()
        assert record["bots"] == [False, True] and record["state"] == "DONE"
        assert f"Game {ticket['gameId']} over" in printed
        kept = tmp_path / "conf" / "connect-four" / "players.json"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        (entry,) = json.loads(kept.read_text()).values()
        assert entry["name"] == "robot" and entry["key"] not in printed


@pytest.mark.slow
def test_the_bot_seeks_and_plays_every_move_as_its_connectx_agent_says(tmp_path: Path) -> None:
    agent_file = tmp_path / "leftmost.py"
    agent_file.write_text(LEFTMOST_AGENT)
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        options = ("--agent", str(agent_file), "--seek", "--rows", "5", "--columns", "6")
        bot = _start_bot(base, tmp_path / "conf", "--name", "lefty", *options, "--games", "1")
        try:
            seek = wait_for_seek(base, ann, "lefty")
            assert seek["bot"] is True and (seek["rows"], seek["columns"]) == (5, 6)
            accepted = HTTP.post(
                f"{base}/lobby/seeks/{seek['id']}/accept",
                json={},
                headers={"Authorization": f"Bearer {ann}"},
                timeout=30,
            )
            assert accepted.status_code == 201, accepted.text
            ticket = accepted.json()
            play_out(base, ticket, first_open([5, 4, 3]))
        finally:
            _finish(bot)
        moves = [move["column"] for move in column_moves(base, ticket["gameId"])]
        bot_side = ticket["players"].index("lefty")
        for number, column in enumerate(moves):
            if number % 2 == bot_side:
                leftmost = next(c for c in range(6) if moves[:number].count(c) < 5)
                assert column == leftmost, (number, moves)


@pytest.mark.slow
def test_an_agent_answering_a_column_it_cannot_play_loses_the_game_and_stops_the_bot(
    tmp_path: Path,
) -> None:
    agent_file = tmp_path / "wrong.py"
    agent_file.write_text("def agent(observation, configuration):\n    return 99\n")
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        open_seek(base, ann, rows=6, columns=7, colour="O", rated=False)
        bot = _start_bot(base, tmp_path / "conf", "--name", "wrong", "--agent", str(agent_file))
        ticket = wait_for_game(base, ann)
        printed, _ = bot.communicate(timeout=DEADLINE)
        assert bot.returncode == 1, printed
        assert "the agent answered 99, not a column it can play" in printed
        moves = column_moves(base, ticket["gameId"])
        assert [(move["player"], move["type"]) for move in moves] == [("wrong", "QUIT")]


@pytest.mark.slow
def test_the_bots_seek_carries_its_clock_and_casual_choice(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        options = ("--seek", "--clock", "2d", "--casual", "--rows", "7", "--columns", "8")
        bot = _start_bot(base, tmp_path / "conf", "--name", "slowbot", *options)
        try:
            seek = wait_for_seek(base, ann, "slowbot")
        finally:
            bot.kill()
            bot.communicate()
        assert seek["clock"] == {"days": 2} and seek["rated"] is False
        assert (seek["rows"], seek["columns"], seek["pool"]) == (7, 8, "7x8c4 2d")


@pytest.mark.slow
def test_the_bot_declines_a_draw_when_better_and_a_takeback_and_accepts_a_rematch(
    tmp_path: Path,
) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        open_seek(base, ann, rows=6, columns=7, colour="O", rated=True)
        options = ("--level", "5", "--games", "2", "--rematch-wait", str(DEADLINE))
        bot = _start_bot(base, tmp_path / "conf", "--name", "robot", *options)
        try:
            ticket = wait_for_game(base, ann)
            assert ticket["players"] == ["robot", "ann"]
            # The bot (X) opened in the centre, a win for X: it declines a draw.
            status_when(base, ticket, lambda status: status["moves"] == 1, "the bot's first move")
            offer(base, ticket, "draw")
            status = status_when(base, ticket, lambda status: "offer" not in status, "answered")
            assert (status["state"], status["moves"]) == ("IN_PROGRESS", 1)
            # Offers are made on ann's turn: a move withdraws one (the bot's would).
            play(base, ticket, 0)
            status_when(base, ticket, lambda status: status["moves"] == 3, "the bot's reply")
            offer(base, ticket, "takeback")
            status = status_when(base, ticket, lambda status: "offer" not in status, "answered")
            assert (status["state"], status["moves"]) == ("IN_PROGRESS", 3)
            play_out(base, ticket, first_open([0, 1, 2]))
            offer(base, ticket, "rematch")
            status = status_when(base, ticket, lambda status: "rematch" in status, "a rematch")
            again = {**ticket, "gameId": status["rematch"], "players": ["ann", "robot"]}
            play_out(base, again, first_open([0, 1, 2]))
        finally:
            printed = _finish(bot)
        assert f"Declined a draw in game {ticket['gameId']}." in printed
        assert f"Declined a takeback in game {ticket['gameId']}." in printed
        assert f"Accepted a rematch of game {ticket['gameId']}: game {again['gameId']}." in printed
        assert [move["player"] for move in column_moves(base, again["gameId"])][:2] == [
            "ann",
            "robot",
        ]


@pytest.mark.slow
def test_the_bot_accepts_a_draw_when_it_is_worse_off(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        open_seek(base, ann, rows=6, columns=7, colour="X", rated=False)
        bot = _start_bot(base, tmp_path / "conf", "--name", "robot", "--level", "5", "--games", "1")
        try:
            ticket = wait_for_game(base, ann)
            play(base, ticket, 3)  # the centre: X wins, the bot (O) is worse off
            # Offered on ann's turn: a move withdraws an offer (the bot's would).
            status_when(base, ticket, lambda status: status["moves"] == 2, "the bot's reply")
            offer(base, ticket, "draw")
            status = status_when(base, ticket, lambda status: "offer" not in status, "answered")
        finally:
            printed = _finish(bot)
        assert (status["state"], status["reason"]) == ("DONE", "DRAW_AGREED")
        assert f"Accepted a draw in game {ticket['gameId']}." in printed


@pytest.mark.slow
def test_the_bot_thinks_within_its_share_of_the_clock(tmp_path: Path) -> None:
    with lobby_service(tmp_path) as base:
        ann = register(base, "ann")
        minute = {"minutes": 1, "increment": 0}
        open_seek(base, ann, rows=5, columns=6, colour="X", rated=False, clock=minute)
        thinks: list[float] = []
        leftmost = first_open([])

        def mover(game: Game, think: float) -> int:
            thinks.append(think)
            return leftmost(list(game.moves), 5, 6)

        client = LobbyClient(base, register(base, "clocky", bot=True))
        bot = Bot(client, "clocky", mover, {}, say=lambda line: None, think=30.0, rematch_wait=0)
        runner = threading.Thread(target=bot.run, args=("accept", 1), daemon=True)
        runner.start()
        ticket = wait_for_game(base, ann)
        play_out(base, ticket, first_open([5, 4, 3]))
        runner.join(DEADLINE)
        assert not runner.is_alive()
        # A minute each: a move may think a twentieth of what is left, not --think's 30 s.
        assert thinks and all(0 < think <= 3.0 for think in thinks), thinks
