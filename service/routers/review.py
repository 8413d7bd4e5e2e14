"""A whole game reviewed move by move: the terminal's ``--review`` over HTTP.

Each move gets its exact score for the player who made it, the best its
position offered, and a verdict (best, slower, mistake, blunder), from
:func:`connect_four.engine.review.review_moves`, the engine call behind
``connect.py --review``. The moves are replayed here first, so an
illegal list is refused (400) naming its first bad move; the review
runs in a :class:`~connect_four.service.winner_pool.ReviewPool` worker,
within a budget shared by the positions (:data:`~connect_four.service.limits.REVIEW_SECONDS`)
and a hard time limit each; it counts against the client's analysis rate.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends

from connect_four.engine import Rules
from connect_four.engine.review import GameReview, review_moves

from ..dependencies import ClientDep, ReviewPoolDep
from ..limits import (
    REVIEW_SECONDS,
    REVIEW_TIME_LIMIT,
    REVIEW_WAITING,
    REVIEW_WORKERS,
)
from ..rate_limits import limited
from ..schemas import (
    MoveReviewOut,
    ReviewIn,
    ReviewOut,
    error_responses,
    pool_busy,
    rate_limited,
)
from .analysis import MOVES_REFUSED, replay

router = APIRouter(prefix="/review", tags=["analysis"])

_PLAYERS = ("first", "second")


@router.post(
    "",
    response_model=ReviewOut,
    description=(
        "Review every move of a game, as connect.py --review does, e.g. "
        '{"rows": 6, "columns": 7, "moves": [3, 0, 3, 0, 3, 0, 1, 0]}: each move\'s '
        "exact score for its player, the best score its position offered, a column "
        "that scores it, and a verdict: best, slower (a slower win or a faster loss), "
        "mistake (a win to a draw, a draw to a loss) or blunder (a win to a loss). "
        f"The positions share {REVIEW_SECONDS:g} s of search (at most 1 s each, "
        f"{REVIEW_TIME_LIMIT:g} s each on the clock); a move the search could not "
        "settle has score, best and verdict null. The game may be finished or not."
    ),
    dependencies=[Depends(limited("analysis"))],
    responses=error_responses(
        e400=MOVES_REFUSED,
        e429=rate_limited("asked too many analyses or reviews"),
        e503=pool_busy(REVIEW_WORKERS, "review", REVIEW_WAITING, "review_busy"),
    ),
)
async def create_review(body: ReviewIn, pool: ReviewPoolDep, client: ClientDep) -> ReviewOut:
    """Review every move of the game."""
    replay(body.moves, Rules(body.rows, body.columns, body.connect))
    found: GameReview = await pool.run(
        review_moves,
        body.rows,
        body.columns,
        body.connect,
        list(body.moves),
        REVIEW_SECONDS,
        REVIEW_TIME_LIMIT,
        until_gone=client.gone,
    )
    return ReviewOut(
        moves=[
            MoveReviewOut(
                number=move.number,
                player=_PLAYERS[move.player],  # type: ignore[arg-type]
                column=move.column,
                score=move.score,
                best=move.best,
                best_column=move.best_column,
                verdict=move.verdict,  # type: ignore[arg-type]
            )
            for move in found.moves
        ]
    )
