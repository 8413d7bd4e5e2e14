"""Who has won on a board string: the engine's :func:`~connect_four.engine.board_check.check_board` over HTTP.

The checks run in the app's :class:`~connect_four.service.winner_pool.WinnerPool`
(:data:`~connect_four.service.dependencies.WinnerPoolDep`), so
they can never starve move posting; when its workers are all busy a check
is refused with 503 ``winner_check_busy``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import PlainTextResponse

from connect_four.engine.board_check import SEARCH_LIMIT, BoardVerdict

from ..dependencies import WinnerPoolDep
from ..limits import MAX_WINNER_SIZE
from ..schemas import WinnerIn, WinnerOut, error_responses

router = APIRouter(prefix="/winner", tags=["winner"])

ORDER_VERIFIED_HEADER = "Order-Verified"
"""GET's header saying whether an order of turns that builds the board was found."""

_REFUSED = error_responses(
    e400=(
        "The board is no position of a real game (error: wrong_length, "
        "bad_character, floating_piece, impossible_counts, both_players_won, "
        "multiple_winner, impossible_last_move, no_move_order), the rules are bad "
        f"(bad_rules), or a value is out of its limits (malformed_request: rows and "
        f"columns 1 to {MAX_WINNER_SIZE}, the board at most "
        f"{MAX_WINNER_SIZE * MAX_WINNER_SIZE} characters)."
    ),
    e503="Every winner-check worker is busy (winner_check_busy): retry after Retry-After.",
)

_VERIFIED_TEXT = (
    "Text, gravity, piece counts and winning chains are always checked exactly. "
    f"The search for an order of turns that builds the board spends at most {SEARCH_LIMIT:,} "
    "units of work (under 10 ms of CPU); if it runs out before finding one or proving there is "
    "none, the board is answered as if reachable and the answer says it was not verified."
)

# The limit is the schema's (malformed_request); below 1 is the engine's bad_rules.
Size = Annotated[int, Query(le=MAX_WINNER_SIZE)]


@router.get(
    "/{board}",
    response_class=PlainTextResponse,
    description=(
        "Answer A, B or X for a board string, rows top to bottom, as plain text. "
        + _VERIFIED_TEXT
        + f" The {ORDER_VERIFIED_HEADER} header is true or false."
    ),
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string", "enum": ["A", "B", "X"]}}},
            "description": "A or B: that player has won; X: nobody (yet, or a draw).",
            "headers": {
                ORDER_VERIFIED_HEADER: {
                    "description": "Whether an order of turns that builds the board was found.",
                    "schema": {"type": "string", "enum": ["true", "false"]},
                }
            },
        },
        **_REFUSED,
    },
)
async def read_winner(
    pool: WinnerPoolDep,
    board: Annotated[
        str,
        Path(
            max_length=MAX_WINNER_SIZE * MAX_WINNER_SIZE,
            description="The cells, rows top to bottom, each left to right: A, B or X.",
        ),
    ],
    rows: Annotated[Size, Query(description=f"Rows of the board, 1 to {MAX_WINNER_SIZE}.")] = 6,
    columns: Annotated[
        Size, Query(description=f"Columns of the board, 1 to {MAX_WINNER_SIZE}.")
    ] = 7,
    connect: Annotated[
        Size, Query(description="Length of the winning chain, 1 to the longer side.")
    ] = 4,
    first: Annotated[str, Query(description='Who moved first, "A" or "B".')] = "A",
) -> PlainTextResponse:
    verdict = await pool.check(board, rows, columns, connect, first)
    return PlainTextResponse(
        verdict.winner,
        headers={ORDER_VERIFIED_HEADER: "true" if verdict.order_verified else "false"},
    )


@router.post(
    "",
    response_model=WinnerOut,
    description=(
        'Answer {"winner": A, B or X, "orderVerified": true or false} for a board '
        "string and its rules. " + _VERIFIED_TEXT
    ),
    responses=_REFUSED,
)
async def create_winner_check(body: WinnerIn, pool: WinnerPoolDep) -> WinnerOut:
    verdict: BoardVerdict = await pool.check(
        body.board, body.rows, body.columns, body.connect, body.first
    )
    return WinnerOut(winner=verdict.winner, orderVerified=verdict.order_verified)  # type: ignore[arg-type]
