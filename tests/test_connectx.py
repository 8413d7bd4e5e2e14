"""The ConnectX agent, fed exactly what Kaggle's connectx environment sends.

Kaggle (kaggle-environments, envs/connectx) calls ``agent(observation,
configuration)`` with two ``Struct`` objects: dicts whose keys also read as
attributes. The observation holds ``remainingOverageTime``, ``step``,
``board`` (flat, top row first, 0 empty, 1 / 2 the marks, 1 moving first)
and ``mark``; the configuration ``episodeSteps``, ``actTimeout``,
``runTimeout``, ``columns``, ``rows``, ``inarow``, ``agentTimeout`` and
``timeout``. The referee below plays the environment's part: it checks each
answer is a legal column and drops the mark, as Kaggle's interpreter does.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import connect_four.engine.connectx  # noqa: F401 (loads connect_four.engine.connectx)
from connect_four import engine
from connect_four.engine import Game, Rules, Status
from connect_four.engine.connectx import MARGIN, agent, thinking_time


class Struct(dict[str, Any]):
    """Kaggle's ``utils.Struct``: a dict whose keys are also attributes."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def configuration(rows: int = 6, columns: int = 7, inarow: int = 4, act: float = 2) -> Struct:
    return Struct(
        episodeSteps=1000,
        actTimeout=act,
        runTimeout=1200,
        columns=columns,
        rows=rows,
        inarow=inarow,
        agentTimeout=60,
        timeout=act,
    )


def observation(board: list[int], mark: int, step: int = 0) -> Struct:
    return Struct(remainingOverageTime=60, step=step, board=board, mark=mark)


def drop(board: list[int], column: int, mark: int, rows: int, columns: int) -> None:
    """Kaggle's move: the mark lands in the lowest empty cell of the column."""
    for row in reversed(range(rows)):
        if board[row * columns + column] == 0:
            board[row * columns + column] = mark
            return
    raise AssertionError(f"column {column} is full")


def is_legal(board: list[int], column: object, columns: int) -> bool:
    return (
        isinstance(column, int)
        and not isinstance(column, bool)
        and 0 <= column < columns
        and board[column] == 0
    )


def play_out(rows: int, columns: int, inarow: int, act: float = 0.3) -> Game:
    """Agent against agent, refereed as Kaggle does; the engine keeps the score.

    At the end, Kaggle's board and the engine's grid must be the same.
    """
    config = configuration(rows, columns, inarow, act)
    board = [0] * (rows * columns)
    game = Game(Rules(rows, columns, inarow, allow_unwinnable=True))
    mark = 1
    while not game.is_over():
        column = agent(observation(list(board), mark, len(game)), config)
        assert is_legal(board, column, columns), (board, column)
        drop(board, column, mark, rows, columns)
        game.play(column)
        mark = 3 - mark
    assert board == [0 if owner is None else owner + 1 for row in game.grid() for owner in row]
    return game


def test_takes_the_win_in_one() -> None:
    board = [0] * 42
    for column, mark in [(0, 1), (1, 2), (0, 1), (1, 2), (0, 1), (1, 2)]:
        drop(board, column, mark, 6, 7)
    assert agent(observation(board, 1, 6), configuration()) == 0


@pytest.mark.slow
def test_blocks_the_opponent_s_win_in_one() -> None:
    board = [0] * 42
    for column, mark in [(0, 1), (1, 2), (0, 1), (1, 2), (6, 1), (1, 2)]:
        drop(board, column, mark, 6, 7)
    assert agent(observation(board, 1, 6), configuration()) == 1


@pytest.mark.parametrize(
    "shape",
    [
        lambda config, obs: (config, obs),
        lambda config, obs: (dict(config), dict(obs)),
        lambda config, obs: (SimpleNamespace(**config), SimpleNamespace(**obs)),
    ],
    ids=["kaggle Struct", "dict", "attributes only"],
)
def test_accepts_dicts_and_attribute_objects(shape: Any) -> None:
    board = [0] * 42
    for column, mark in [(0, 1), (1, 2), (0, 1), (1, 2), (0, 1), (1, 2)]:
        drop(board, column, mark, 6, 7)
    config, obs = shape(configuration(), observation(board, 1, 6))
    assert agent(obs, config) == 0


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "columns", "inarow"),
    [(3, 3, 4), (1, 1, 1), (1, 1, 4), (2, 2, 3), (1, 9, 2), (9, 1, 3), (4, 5, 3), (10, 12, 5)],
)
def test_non_standard_boards_get_legal_moves_to_the_end(
    rows: int, columns: int, inarow: int
) -> None:
    game = play_out(rows, columns, inarow, act=0.2)
    assert game.is_over()
    if not Rules(rows, columns, inarow, allow_unwinnable=True).is_winnable:
        assert game.status is Status.DRAWN


@pytest.mark.slow
def test_a_whole_game_on_kaggle_s_default_board() -> None:
    game = play_out(6, 7, 4, act=0.5)
    assert game.is_over()
    # A win needs at least 7 moves, a draw a full board.
    assert len(game.moves) >= 7 if game.status is Status.WON else len(game.moves) == 42


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The budget the agent asks choose_move for; the move itself is searched briefly."""
    budget_asked: dict[str, Any] = {}
    real = engine.connectx.choose_move

    def spy(game: Game, level: int, **budget: Any) -> int:
        budget_asked.update(budget)
        return real(game, level, time_budget=0.01, time_limit=0.01)

    monkeypatch.setattr(engine.connectx, "choose_move", spy)
    return budget_asked


def test_the_search_is_limited_below_the_configuration_s_timeout(
    asked: dict[str, Any],
) -> None:
    agent(observation([0] * 42, 1), configuration(act=2))
    assert 0 < asked["time_limit"] <= 2 - MARGIN
    assert asked["time_budget"] <= asked["time_limit"]


def test_the_older_timeout_field_is_read_when_act_timeout_is_missing(
    asked: dict[str, Any],
) -> None:
    config = {"rows": 6, "columns": 7, "inarow": 4, "timeout": 5}
    agent({"board": [0] * 42, "mark": 1}, config)
    assert asked["time_limit"] <= thinking_time(5) < 5


@pytest.mark.parametrize("timeout", [0.1, 0.5, 1, 2, 5, 60])
def test_thinking_time_leaves_a_margin(timeout: float) -> None:
    assert 0 < thinking_time(timeout) <= max(timeout - MARGIN, 0.02)


def test_a_board_no_game_reaches_still_gets_a_legal_column() -> None:
    board = [0] * 42
    board[0] = 1  # a mark floating in the top row of column 0
    column = agent(observation(board, 2), configuration())
    assert is_legal(board, column, 7)
    assert column == 3


def test_a_board_already_won_still_gets_a_legal_column() -> None:
    board = [0] * 42
    for column, mark in [(0, 1), (1, 2), (0, 1), (1, 2), (0, 1), (1, 2), (0, 1)]:
        drop(board, column, mark, 6, 7)
    assert is_legal(board, agent(observation(board, 2), configuration()), 7)


def test_a_board_of_the_wrong_length_still_gets_a_column_of_the_board() -> None:
    column = agent(observation([0] * 7, 1), configuration())
    assert column == 3


def test_kaggle_passes_both_arguments() -> None:
    # Kaggle's runner passes only as many arguments as the function's code takes.
    assert agent.__code__.co_argcount == 2
