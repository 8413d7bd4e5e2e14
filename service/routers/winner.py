"""Who has won on a board string: the engine's :func:`~engine.board_winner` over HTTP."""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from engine import board_winner

from ..schemas import ErrorOut, WinnerIn, WinnerOut

router = APIRouter(prefix="/winner", tags=["winner"])

# A board no order of turns can build may cost the engine's search up to a
# second or two and tens of megabytes; two at a time bound what a burst of
# such boards can take from the server (common boards take microseconds).
_CHECKS = threading.BoundedSemaphore(2)


def _winner(board: str, rows: int, columns: int, connect: int, first: str) -> str:
    with _CHECKS:
        return board_winner(board, rows, columns, connect, first)

_REFUSED: dict[int | str, dict[str, Any]] = {
    400: {
        "model": ErrorOut,
        "description": (
            "The board is no position of a real game (error: wrong_length, "
            "bad_character, floating_piece, impossible_counts, both_players_won, "
            "multiple_winner, impossible_last_move, no_move_order), or the rules are bad "
            "(bad_rules)."
        ),
    }
}


@router.get(
    "/{board}",
    response_class=PlainTextResponse,
    responses={
        200: {
            "content": {"text/plain": {"example": "A"}},
            "description": "A or B: that player has won; X: nobody (yet, or a draw).",
        },
        **_REFUSED,
    },
)
def read_winner(
    board: str,
    rows: Annotated[int, Query(description="Rows of the board.")] = 6,
    columns: Annotated[int, Query(description="Columns of the board.")] = 7,
    connect: Annotated[int, Query(description="Length of the winning chain.")] = 4,
    first: Annotated[str, Query(description='Who moved first, "A" or "B".')] = "A",
) -> PlainTextResponse:
    """Answer A, B or X for a board string, rows top to bottom, as plain text."""
    return PlainTextResponse(_winner(board, rows, columns, connect, first))


@router.post("", response_model=WinnerOut, responses=_REFUSED)
def create_winner_check(body: WinnerIn) -> WinnerOut:
    """Answer {"winner": A, B or X} for a board string and its rules."""
    winner = _winner(body.board, body.rows, body.columns, body.connect, body.first)
    return WinnerOut(winner=winner)  # type: ignore[arg-type]
