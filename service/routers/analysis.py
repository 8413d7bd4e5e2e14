"""Every playable column's score after a list of moves: the terminal's ``??`` over HTTP.

The moves are replayed here, at once, so an illegal list is refused (400)
naming its first bad move; the search itself runs in an
:class:`~connect_four.service.winner_pool.AnalysisPool` worker
(:data:`~connect_four.service.dependencies.AnalysisPoolDep`), apart from the winner
checks, within a budget (:data:`~connect_four.service.limits.ANALYSIS_SECONDS`) and a
hard time limit; when the workers are busy it is refused with 503
``analysis_busy``.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends

from connect_four.engine import EngineError, Game, Rules
from connect_four.engine.outlook import PositionOutlook, position_outlook

from ..dependencies import AnalysisPoolDep, ClientDep
from ..limits import (
    ANALYSIS_SECONDS,
    ANALYSIS_TIME_LIMIT,
    ANALYSIS_WAITING,
    ANALYSIS_WORKERS,
    MAX_ANALYSIS_SIZE,
)
from ..rate_limits import limited
from ..schemas import (
    AnalysisIn,
    AnalysisOut,
    ColumnScoreOut,
    error_responses,
    pool_busy,
    rate_limited,
)

router = APIRouter(prefix="/analysis", tags=["analysis"])

_WINNERS = {0: "first", 1: "second"}

MOVES_REFUSED = (
    "A move cannot be played (column_out_of_range, column_full, game_over; the "
    "detail names moves[i]), the rules are bad (bad_rules), or a value is out of "
    f"its limits (malformed_request: rows and columns 1 to {MAX_ANALYSIS_SIZE}, "
    f"at most {MAX_ANALYSIS_SIZE * MAX_ANALYSIS_SIZE} moves)."
)
"""The 400 of a body of moves (the analysis's, the review's): what :func:`replay` refuses."""


def replay(moves: list[int], rules: Rules) -> Game:
    """The game after ``moves``, refusing the first that cannot be played, by its index.

    Raises:
        EngineError: the same kind as :meth:`Game.play` raises (column out
            of range, column full, game over), its message starting
            ``moves[i] (column c):``.
    """
    game = Game(rules)
    for index, column in enumerate(moves):
        try:
            game.play(column)
        except EngineError as error:
            raise type(error)(f"moves[{index}] (column {column}): {error}") from None
    return game


@router.post(
    "",
    response_model=AnalysisOut,
    description=(
        "Answer the score of every playable column for the player to move after "
        '`moves`, e.g. {"rows": 6, "columns": 7, "moves": [3, 3, 4]}. An exact score '
        "(exact: true) is positive for a win, the higher the sooner, 0 for a draw, "
        "negative for a loss; a column the search could not settle within "
        f"{ANALYSIS_SECONDS:g} s of search ({ANALYSIS_TIME_LIMIT:g} s at most on the clock) "
        "has exact: false, score null and an outlook word (likely win, unclear, likely "
        "loss). When the moves end the game, its state and winner, and no scores."
    ),
    dependencies=[Depends(limited("analysis"))],
    responses=error_responses(
        e400=MOVES_REFUSED,
        e429=rate_limited("asked too many analyses"),
        e503=pool_busy(ANALYSIS_WORKERS, "analysis", ANALYSIS_WAITING, "analysis_busy"),
    ),
)
async def create_analysis(
    body: AnalysisIn, pool: AnalysisPoolDep, client: ClientDep
) -> AnalysisOut:
    """Score every playable column after the moves."""
    rules = Rules(body.rows, body.columns, body.connect)
    game = replay(body.moves, rules)
    outcome = game.outcome()
    if outcome is not None:
        won = outcome.winner is not None
        return AnalysisOut(
            state="won" if won else "drawn",
            winner=_WINNERS[outcome.winner] if outcome.winner is not None else None,  # type: ignore[arg-type]
            scores=[],
            best=[],
        )
    found: PositionOutlook = await pool.run(
        position_outlook,
        body.rows,
        body.columns,
        body.connect,
        list(body.moves),
        ANALYSIS_SECONDS,
        ANALYSIS_TIME_LIMIT,
        until_gone=client.gone,
    )
    return AnalysisOut(
        state="in_progress",
        winner=None,
        scores=[
            ColumnScoreOut(
                column=column.column,
                score=column.score,
                exact=column.exact,
                outlook=column.outlook,  # type: ignore[arg-type]
            )
            for column in found.columns
        ],
        best=list(found.best),
    )
