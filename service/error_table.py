"""Every error the service answers, with its HTTP status and API code, in one table.

:data:`ERRORS` maps each error class (the engine's, the service's, a
malformed request, any other failure) to its answer; the closest class in
an error's method resolution order decides. :func:`answer_error` is the one
exception handler that reads it, and :func:`install_error_handler` hands it
every error an app can raise. Starlette's own refusals (no such path, a
method the path does not take, the request limits of
:mod:`connect_four.service.guards`) carry their status themselves: :data:`HTTP_CODES`
names the code of each. Every error answers the one shape
``{"error": code, "detail": sentence}``.

A storage fault's own text names the database (its secrets masked): it goes
to the server's log, and the client gets the table's generic sentence, which
names no path, host or secret.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match

from connect_four.engine import (
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BothPlayersWonError,
    ColumnFullError,
    ColumnOutOfRangeError,
    DisjointChainsError,
    EngineError,
    FloatingPieceError,
    GameOverError,
    ImpossibleLastMoveError,
    MoveOrderError,
    MoveSyntaxError,
    NotYourTurnError,
    PieceCountError,
    PlayerNotActiveError,
    RulesError,
    UndecidedBoardError,
)

from .errors import (
    AnalysisBusyError,
    BadRangeError,
    ClaimRefusedError,
    ClientGoneError,
    ComputerBusyError,
    GameDoneError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    KeyMissingError,
    KeyRejectedError,
    LobbyPlayerNotFoundError,
    MoveNotFoundError,
    NameTakenError,
    OfferMissingError,
    OfferRefusedError,
    OwnSeekError,
    PlayerNotFoundError,
    RateLimitedError,
    ReviewBusyError,
    SeekGoneError,
    SeekNotFoundError,
    ServerFullError,
    ServiceError,
    StorageBusyError,
    StorageCommitLostError,
    StorageCorruptError,
    StorageError,
    StorageFullError,
    StorageMissingError,
    StorageReadOnlyError,
    StorageReplacedError,
    TokenRejectedError,
    TokenRequiredError,
    TooManyConnectionsError,
    TooManySeeksError,
    TooManyWaitsError,
    WinnerBusyError,
)
from .limits import REFUSAL_RETRY_AFTER
from .problems import describe, not_allowed, not_found, unreadable_body

__all__ = [
    "ERRORS",
    "HTTP_CODES",
    "ErrorAnswer",
    "answer_error",
    "answer_for",
    "error_response",
    "install_error_handler",
]


@dataclass(frozen=True)
class ErrorAnswer:
    """How one kind of error is answered: status, API code, and headers.

    ``detail``, when set, replaces the error's own text (which a client
    must not see: the failure of the server itself); ``words``, when set,
    rewords it (the storage knows no HTTP header names).
    """

    status: int
    code: str
    headers: tuple[tuple[str, str], ...] = ()
    detail: str | None = None
    words: Callable[[Exception], str] | None = None
    """The error's sentence in the API's terms, when its own text is in storage's."""


_RETRY_STORAGE = (("Retry-After", "5"),)
_RETRY_ROOM = (("Retry-After", str(REFUSAL_RETRY_AFTER)),)


def _storage(code: str, what: str) -> ErrorAnswer:
    """A storage fault's answer: 503, Retry-After, and a sentence that names no database."""
    return ErrorAnswer(
        503,
        code,
        _RETRY_STORAGE,
        detail=f"{what}; the request changed nothing: try again after Retry-After seconds",
    )


def _key_reused(error: Exception) -> str:
    """An :class:`IdempotencyKeyReusedError` in the API's terms: the header that carried the key."""
    if not isinstance(error, IdempotencyKeyReusedError):
        return str(error)
    return (
        f"Idempotency-Key {error.key!r} was sent with another request: move {error.move} "
        f"of game {error.game_id!r}"
    )


LOG = logging.getLogger("connect_four.service")
"""Where the storage faults' own texts go (the server's log; their secrets masked)."""

ERRORS: dict[type[Exception], ErrorAnswer] = {
    # A request the schema refuses (never FastAPI's 422).
    RequestValidationError: ErrorAnswer(400, "malformed_request"),
    # The engine's rules.
    NotYourTurnError: ErrorAnswer(409, "not_your_turn"),
    PlayerNotActiveError: ErrorAnswer(404, "player_not_active"),
    GameOverError: ErrorAnswer(400, "game_over"),
    ColumnFullError: ErrorAnswer(400, "column_full"),
    ColumnOutOfRangeError: ErrorAnswer(400, "column_out_of_range"),
    MoveSyntaxError: ErrorAnswer(400, "bad_move"),
    RulesError: ErrorAnswer(400, "bad_rules"),
    EngineError: ErrorAnswer(400, "engine_error"),
    # The winner check: a board no game can reach, by the rule it breaks.
    BoardError: ErrorAnswer(400, "invalid_board"),
    BoardLengthError: ErrorAnswer(400, "wrong_length"),
    BoardCharacterError: ErrorAnswer(400, "bad_character"),
    FloatingPieceError: ErrorAnswer(400, "floating_piece"),
    PieceCountError: ErrorAnswer(400, "impossible_counts"),
    BothPlayersWonError: ErrorAnswer(400, "both_players_won"),
    DisjointChainsError: ErrorAnswer(400, "multiple_winner"),
    ImpossibleLastMoveError: ErrorAnswer(400, "impossible_last_move"),
    MoveOrderError: ErrorAnswer(400, "no_move_order"),
    UndecidedBoardError: ErrorAnswer(400, "undecided"),
    # Stored games, players, tokens and retries.
    ServiceError: ErrorAnswer(400, "bad_request"),
    GameNotFoundError: ErrorAnswer(404, "game_not_found"),
    PlayerNotFoundError: ErrorAnswer(404, "player_not_found"),
    MoveNotFoundError: ErrorAnswer(404, "move_not_found"),
    BadRangeError: ErrorAnswer(400, "bad_range"),
    GameDoneError: ErrorAnswer(410, "game_done"),
    TokenRequiredError: ErrorAnswer(401, "token_required", (("WWW-Authenticate", "Bearer"),)),
    TokenRejectedError: ErrorAnswer(403, "token_rejected"),
    IdempotencyKeyReusedError: ErrorAnswer(422, "idempotency_key_reused", words=_key_reused),
    OfferRefusedError: ErrorAnswer(409, "offer_refused"),
    OfferMissingError: ErrorAnswer(409, "no_offer"),
    ClaimRefusedError: ErrorAnswer(409, "claim_refused"),
    # The lobby: players' keys, names and seeks.
    KeyMissingError: ErrorAnswer(401, "key_missing", (("WWW-Authenticate", "Bearer"),)),
    KeyRejectedError: ErrorAnswer(401, "key_rejected", (("WWW-Authenticate", "Bearer"),)),
    NameTakenError: ErrorAnswer(409, "name_taken"),
    LobbyPlayerNotFoundError: ErrorAnswer(404, "lobby_player_not_found"),
    TooManySeeksError: ErrorAnswer(409, "too_many_seeks"),
    SeekNotFoundError: ErrorAnswer(404, "seek_not_found"),
    SeekGoneError: ErrorAnswer(409, "seek_gone"),
    OwnSeekError: ErrorAnswer(409, "own_seek"),
    WinnerBusyError: ErrorAnswer(503, "winner_check_busy", (("Retry-After", "1"),)),
    AnalysisBusyError: ErrorAnswer(503, "analysis_busy", (("Retry-After", "1"),)),
    ComputerBusyError: ErrorAnswer(503, "computer_busy", (("Retry-After", "1"),)),
    ReviewBusyError: ErrorAnswer(503, "review_busy", (("Retry-After", "1"),)),
    # Sent to nobody: the request's client has closed its connection.
    ClientGoneError: ErrorAnswer(499, "client_gone"),
    # Retry-After: the error's own, when the client's window lets it in again.
    RateLimitedError: ErrorAnswer(429, "rate_limited"),
    # Room on the server, for all and for each client (connections, long polls).
    ServerFullError: ErrorAnswer(503, "server_busy", _RETRY_ROOM),
    TooManyConnectionsError: ErrorAnswer(429, "too_many_connections", _RETRY_ROOM),
    TooManyWaitsError: ErrorAnswer(429, "too_many_waits", _RETRY_ROOM),
    # Storage faults: nothing was stored; try again later.
    StorageError: _storage("storage_unavailable", "the database cannot be used right now"),
    StorageFullError: _storage("storage_full", "the database is full"),
    StorageReadOnlyError: _storage("storage_read_only", "the database takes no changes now"),
    StorageCorruptError: _storage("storage_corrupt", "the database is damaged"),
    StorageMissingError: _storage("storage_missing", "the database's file is missing"),
    StorageReplacedError: _storage("storage_replaced", "the database's file was replaced"),
    StorageBusyError: _storage("storage_busy", "the database is busy"),
    StorageCommitLostError: ErrorAnswer(
        503,
        "storage_unavailable",
        _RETRY_STORAGE,
        detail="the connection to the database broke while committing: the request may or "
        "may not have been stored; send it again with the same Idempotency-Key to find out",
    ),
    # Anything else is the server's own failure: its traceback goes to the
    # server's log, never to the client.
    Exception: ErrorAnswer(
        500, "internal_error", detail="the server failed; nothing is known to be lost"
    ),
}
"""Each error class's answer; an error takes its closest class's."""

HTTP_CODES: dict[int, str] = {
    400: "malformed_request",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "request_too_large",
    431: "headers_too_large",
    500: "internal_error",
}
"""The code of each status Starlette's HTTPException carries (no route reached, request limits)."""


def answer_for(error: BaseException) -> ErrorAnswer:
    """The answer to ``error``: its closest class's in :data:`ERRORS`.

    >>> answer_for(GameNotFoundError("there is no game 'x'")).code
    'game_not_found'
    >>> answer_for(StorageFullError("disk full")).status
    503
    >>> answer_for(HTTPException(405)).code
    'method_not_allowed'
    """
    if isinstance(error, HTTPException):
        code = HTTP_CODES.get(error.status_code, f"http_{error.status_code}")
        return ErrorAnswer(error.status_code, code, tuple((error.headers or {}).items()))
    for cls in type(error).__mro__:
        answer = ERRORS.get(cls)
        if answer is not None:
            return answer
    return ERRORS[Exception]


def error_response(
    status_code: int, code: str, detail: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The one error shape: ``{"error": code, "detail": sentence}``."""
    return JSONResponse({"error": code, "detail": detail}, status_code=status_code, headers=headers)


async def answer_error(request: Request, error: Exception) -> JSONResponse:
    """The app's one exception handler: answer ``error`` as :data:`ERRORS` says."""
    answer = answer_for(error)
    if isinstance(error, StorageError):
        LOG.warning("%s %s: %s", request.method, request.url.path, error)
    headers = dict(answer.headers)
    if isinstance(error, RateLimitedError):
        headers["Retry-After"] = str(error.retry_after)
    if answer.detail is not None:
        detail = answer.detail
    elif answer.words is not None:
        detail = answer.words(error)
    elif isinstance(error, RequestValidationError):
        detail = describe(
            error.errors(), request.scope.get("endpoint"), request.headers.get("content-type", "")
        )
    elif isinstance(error, HTTPException):
        detail = str(error.detail)
        if error.status_code == 404 and detail == "Not Found":  # Starlette's: no route.
            detail = not_found(request.method, request.url.path)
        elif error.status_code == 405:
            allowed = _allowed_methods(request)
            headers["Allow"] = ", ".join(allowed)
            detail = not_allowed(request.method, allowed)
        elif error.status_code == 400 and detail == "There was an error parsing the body":
            detail = unreadable_body(request.scope.get("endpoint"))
    else:
        detail = str(error)
    return error_response(answer.status, answer.code, detail, headers or None)


def install_error_handler(app: FastAPI) -> None:
    """Let :func:`answer_error` answer every error ``app`` raises."""
    app.add_exception_handler(HTTPException, answer_error)
    for cls in ERRORS:
        app.add_exception_handler(cls, answer_error)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette names only the first route's).

    Each method is tried on every route, so routers included in any way are asked alike.
    """
    routes: list[BaseRoute] = request.app.routes
    return [
        method
        for method in _METHODS
        if any(
            route.matches(dict(request.scope, method=method))[0] is Match.FULL for route in routes
        )
    ]


_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")
"""The methods an Allow header may name, in its order."""
