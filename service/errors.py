"""Errors the service itself raises, each with its HTTP status and a code.

The engine's errors cover the game's rules; these cover what only the
service knows about: stored games, player names and tokens, ranges of the
move list, retries, the winner check's workers and the database file.
"""

from __future__ import annotations

from typing import ClassVar

from fastapi.responses import JSONResponse

__all__ = [
    "HTTP_ERROR_CODES",
    "error_response",
    "ServiceError",
    "GameNotFoundError",
    "PlayerNotFoundError",
    "MoveNotFoundError",
    "BadRangeError",
    "GameDoneError",
    "TokenRequiredError",
    "TokenRejectedError",
    "IdempotencyKeyReusedError",
    "WinnerBusyError",
    "StorageError",
    "StorageFullError",
    "StorageReadOnlyError",
    "StorageCorruptError",
    "StorageMissingError",
    "StorageReplacedError",
    "StorageBusyError",
]


HTTP_ERROR_CODES: dict[int, str] = {
    400: "malformed_request",
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "request_too_large",
    431: "headers_too_large",
    500: "internal_error",
}
"""The error code of each status the HTTP layer itself answers (no route reached)."""


def error_response(
    status_code: int, code: str, detail: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The one error shape: ``{"error": code, "detail": sentence}``."""
    return JSONResponse({"error": code, "detail": detail}, status_code=status_code, headers=headers)


class ServiceError(Exception):
    """Base of the service's own errors; ``status_code`` and ``code`` go in the response."""

    status_code: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"
    headers: ClassVar[dict[str, str]] = {}


class GameNotFoundError(ServiceError):
    """No game has this id."""

    status_code = 404
    code = "game_not_found"


class PlayerNotFoundError(ServiceError):
    """The player is not one of the game's players."""

    status_code = 404
    code = "player_not_found"


class MoveNotFoundError(ServiceError):
    """The game's move list has no entry at this number."""

    status_code = 404
    code = "move_not_found"


class BadRangeError(ServiceError):
    """A range of moves ends before it starts."""

    status_code = 400
    code = "bad_range"


class GameDoneError(ServiceError):
    """A player tried to quit a game that is already over."""

    status_code = 410
    code = "game_done"


class TokenRequiredError(ServiceError):
    """The game was created with player tokens and the request carries none."""

    status_code = 401
    code = "token_required"
    headers: ClassVar[dict[str, str]] = {"WWW-Authenticate": "Bearer"}


class TokenRejectedError(ServiceError):
    """The request's token is not the acting player's."""

    status_code = 403
    code = "token_rejected"


class IdempotencyKeyReusedError(ServiceError):
    """An ``Idempotency-Key`` already names another move of this game."""

    status_code = 422
    code = "idempotency_key_reused"


class WinnerBusyError(ServiceError):
    """Every winner-check worker is busy and the queue is full: try again soon."""

    status_code = 503
    code = "winner_check_busy"
    headers: ClassVar[dict[str, str]] = {"Retry-After": "1"}


# --- Storage faults: 503, each with its own code; nothing was stored. --------


class StorageError(ServiceError):
    """The database cannot be used right now; the request changed nothing."""

    status_code = 503
    code = "storage_unavailable"
    headers: ClassVar[dict[str, str]] = {"Retry-After": "5"}


class StorageFullError(StorageError):
    """The disk (or the database's size limit) is full."""

    code = "storage_full"


class StorageReadOnlyError(StorageError):
    """The database file or its file system cannot be written."""

    code = "storage_read_only"


class StorageCorruptError(StorageError):
    """The database file is damaged or is not a database."""

    code = "storage_corrupt"


class StorageMissingError(StorageError):
    """The database file is no longer at its path (deleted or moved away)."""

    code = "storage_missing"


class StorageReplacedError(StorageError):
    """Another file now sits at the database's path."""

    code = "storage_replaced"


class StorageBusyError(StorageError):
    """Another process has held the database's lock for too long."""

    code = "storage_busy"
