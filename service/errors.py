"""Errors the service itself raises, each with its HTTP status and a code.

The engine's errors cover the game's rules; these cover what only the
service knows about: stored games, player names, ranges of the move list.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "ServiceError",
    "GameNotFoundError",
    "PlayerNotFoundError",
    "MoveNotFoundError",
    "BadRangeError",
    "GameDoneError",
]


class ServiceError(Exception):
    """Base of the service's own errors; ``status_code`` and ``code`` go in the response."""

    status_code: ClassVar[int] = 400
    code: ClassVar[str] = "bad_request"


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
