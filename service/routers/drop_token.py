"""The drop-token game API (the 98point6 back-end exercise), route for route.

Columns and move numbers count from 0; a move number indexes the full move
list, quits included. Every rule (turns, full columns, wins, draws, quits)
is the engine's; these routes only translate between HTTP and the store.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response, status

from engine import GameOverError, Move

from ..errors import BadRangeError, GameDoneError, MoveNotFoundError
from ..schemas import (
    ErrorOut,
    GameCreate,
    GameCreated,
    GameList,
    GameState,
    MoveIn,
    MoveList,
    MoveOut,
    MovePosted,
)
from ..store import StoredGame, StoreDep

router = APIRouter(prefix="/drop_token", tags=["drop token"])

# Any text that names no game is not found (404), whatever it looks like: a
# client cannot know the id format. The store refuses ids that are not 32 hex
# digits before they reach the database.
GameId = Annotated[
    str, Path(alias="gameId", description="The id POST /drop_token gave (32 hex digits).")
]
PlayerId = Annotated[str, Path(alias="playerId", description="A player's name.")]


def _errors(**descriptions: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI responses for error statuses, e.g. ``_errors(e404="Game not found.")``."""
    return {
        int(name[1:]): {"model": ErrorOut, "description": text}
        for name, text in descriptions.items()
    }


def _move_out(stored: StoredGame, move: Move) -> MoveOut:
    player = stored.players[move.player]
    if move.column is None:
        return MoveOut(type="QUIT", player=player)
    return MoveOut(type="MOVE", player=player, column=move.column)


@router.get("", response_model=GameList)
def read_games(store: StoreDep) -> GameList:
    """Return all in-progress games."""
    return GameList(games=store.in_progress_game_ids())


@router.post(
    "",
    response_model=GameCreated,
    responses=_errors(e400="Malformed request: players, rows or columns."),
)
def create_game(body: GameCreate, store: StoreDep) -> GameCreated:
    """Create a new game; four in a row wins on any board size."""
    game_id = store.create_game(players=body.players, rows=body.rows, columns=body.columns)
    return GameCreated(gameId=game_id)


@router.get(
    "/{gameId}",
    response_model=GameState,
    response_model_exclude_unset=True,
    responses=_errors(e404="Game not found."),
)
def read_game(game_id: GameId, store: StoreDep) -> GameState:
    """Get the state of the game (no winner key while in progress, null after a draw)."""
    stored = store.read_game(game_id)
    players = list(stored.players)
    outcome = stored.game.outcome()
    if outcome is None:
        return GameState(players=players, state="IN_PROGRESS")
    winner = None if outcome.winner is None else stored.players[outcome.winner]
    return GameState(players=players, state="DONE", winner=winner)


@router.get(
    "/{gameId}/moves",
    response_model=MoveList,
    response_model_exclude_none=True,
    responses=_errors(
        e400=(
            "Malformed request: start or until negative, not an integer, or reversed."
        ),
        e404="Game not found, or start is past the last move.",
    ),
)
def read_moves(
    game_id: GameId,
    store: StoreDep,
    start: Annotated[int | None, Query(ge=0, description="First move number.")] = None,
    until: Annotated[
        int | None, Query(ge=0, description="Last move number, inclusive.")
    ] = None,
) -> MoveList:
    """Get the moves played, or those from start to until inclusive."""
    stored = store.read_game(game_id)
    history = stored.game.history
    if start is not None and until is not None and until < start:
        raise BadRangeError(f"until {until} is before start {start}")
    if start is not None and start >= len(history):
        raise MoveNotFoundError(
            f"start {start} is past the last move of game {game_id!r} "
            f"({len(history)} moves)"
        )
    first = 0 if start is None else start
    last = len(history) - 1 if until is None else min(until, len(history) - 1)
    return MoveList(moves=[_move_out(stored, move) for move in history[first : last + 1]])


@router.post(
    "/{gameId}/{playerId}",
    response_model=MovePosted,
    responses=_errors(
        e400="Malformed input, or an illegal move: column full or off the board, game over.",
        e404="Game not found, or the player is not part of it (or has quit).",
        e409="It is not this player's turn.",
    ),
)
def create_move(game_id: GameId, player_id: PlayerId, body: MoveIn, store: StoreDep) -> MovePosted:
    """Post a move: drop the player's token into a column."""
    number = store.play(game_id=game_id, player_id=player_id, column=body.column)
    return MovePosted(move=f"{game_id}/moves/{number}")


@router.get(
    "/{gameId}/moves/{move_number}",
    response_model=MoveOut,
    response_model_exclude_none=True,
    responses=_errors(
        e400="Malformed request: the move number is negative or not an integer.",
        e404="Game or move not found.",
    ),
)
def read_move(
    game_id: GameId,
    move_number: Annotated[int, Path(ge=0, description="From 0, quits included.")],
    store: StoreDep,
) -> MoveOut:
    """Return the move."""
    stored = store.read_game(game_id)
    history = stored.game.history
    if move_number >= len(history):
        raise MoveNotFoundError(
            f"game {game_id!r} has no move {move_number} ({len(history)} moves)"
        )
    return _move_out(stored, history[move_number])


@router.delete(
    "/{gameId}/{playerId}",
    status_code=status.HTTP_202_ACCEPTED,
    response_class=Response,
    responses={
        202: {"description": "The player has quit."},
        **_errors(
            e404="Game not found, or the player is not part of it (or has quit).",
            e410="The game is already in DONE state.",
        ),
    },
)
def delete_player(game_id: GameId, player_id: PlayerId, store: StoreDep) -> Response:
    """Player quits from game; the last player left wins."""
    try:
        store.quit(game_id=game_id, player_id=player_id)
    except GameOverError as error:
        raise GameDoneError(str(error)) from error
    return Response(status_code=status.HTTP_202_ACCEPTED)
