"""The computer's moves for the browser page: the engine's levels over HTTP.

``POST /computer_move`` answers the column the computer plays in a
position, at a level from 1 (beginner) to 5 (perfect where it can be solved
in time), chosen by :func:`connect_four.engine.solver.choose_move` with the opening
books. The position is replayed here, so a list that is no game is refused
at once; the search runs in a :class:`~connect_four.service.winner_pool.ComputerPool`
worker, apart from the winner checks, with a fixed node budget
(:data:`~connect_four.service.limits.COMPUTER_THINK_SECONDS`), so a flood of them never
slows the games; when every worker is busy and the queue is full the
answer is 503 ``computer_busy``.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from connect_four.engine import Game, GameOverError
from connect_four.engine.solver import LEVELS, choose_move

from ..dependencies import ClientDep, ComputerPoolDep
from ..limits import (
    COMPUTER_THINK_SECONDS,
    COMPUTER_WAITING,
    COMPUTER_WORKERS,
    MAX_COMPUTER_SIZE,
    MIN_COMPUTER_SIZE,
)
from ..rate_limits import limited
from ..records import drop_token_rules
from ..schemas import error_responses, pool_busy, rate_limited

__all__ = ["computer_game", "router"]

router = APIRouter(tags=["computer"])


def computer_game(rows: int, columns: int, moves: list[int]) -> Game:
    """The drop-token game after ``moves``: a list that is no game is refused before a worker runs.

    >>> computer_game(6, 7, [3, 3, 4]).moves_string()
    '3,3,4'

    Raises:
        ColumnOutOfRangeError, ColumnFullError, GameOverError: the moves are no game.
    """
    return Game.from_moves(moves, drop_token_rules(rows, columns))


_SEARCH = partial(choose_move, time_budget=COMPUTER_THINK_SECONDS)
"""What a worker runs, ``_SEARCH(game, level)``: the engine's own function and the move's
budget, sent to the worker by reference."""

ComputerSize = Annotated[StrictInt, Field(ge=MIN_COMPUTER_SIZE, le=MAX_COMPUTER_SIZE)]


class ComputerMoveIn(BaseModel):
    """A position (board size and the columns played, from 0) and the computer's level."""

    model_config = ConfigDict(extra="forbid")

    rows: ComputerSize = Field(examples=[6])
    columns: ComputerSize = Field(examples=[7])
    moves: list[StrictInt] = Field(
        max_length=MAX_COMPUTER_SIZE * MAX_COMPUTER_SIZE,
        examples=[[3, 3, 4]],
        description="The columns played so far, from 0, first player first.",
    )
    level: StrictInt = Field(
        ge=min(LEVELS),
        le=max(LEVELS),
        examples=[3],
        description="; ".join(f"{level}: {text}" for level, text in LEVELS.items()),
    )


class ComputerMoveOut(BaseModel):
    column: int = Field(examples=[2], description="The computer's column, from 0.")


@router.post(
    "/computer_move",
    response_model=ComputerMoveOut,
    dependencies=[Depends(limited("computer"))],
    responses=error_responses(
        e400=(
            f"Malformed request (rows and columns {MIN_COMPUTER_SIZE} to {MAX_COMPUTER_SIZE}, "
            f"level {min(LEVELS)} to {max(LEVELS)}), or the moves are no game "
            "(column_out_of_range, column_full) or it is over (game_over)."
        ),
        e429=rate_limited("asked too many computer moves"),
        e503=pool_busy(COMPUTER_WORKERS, "computer-move", COMPUTER_WAITING, "computer_busy"),
    ),
)
async def create_computer_move(
    body: ComputerMoveIn, pool: ComputerPoolDep, client: ClientDep
) -> ComputerMoveOut:
    """The computer's move in a position, four in a row to win, at a level of 1 to 5."""
    game = computer_game(body.rows, body.columns, body.moves)
    if game.is_over():
        raise GameOverError(f"the game is over after {game.moves_string()!r}")
    column: int = await pool.run(_SEARCH, game, body.level, until_gone=client.gone)
    return ComputerMoveOut(column=column)
