"""Exceptions of the engine, one class per kind of failure.

Every class derives from :class:`EngineError`, itself a :class:`ValueError`,
so a front end can catch the whole family in one ``except`` clause and still
tell the kinds apart when it needs to.
"""

from __future__ import annotations

__all__ = [
    "EngineError",
    "RulesError",
    "MoveSyntaxError",
    "ColumnOutOfRangeError",
    "ColumnFullError",
    "GameOverError",
    "NotYourTurnError",
    "PlayerNotActiveError",
]


class EngineError(ValueError):
    """Base class of every error the engine raises."""


class RulesError(EngineError):
    """The rules asked for describe no playable board (0 rows, chain too long...)."""


class MoveSyntaxError(EngineError):
    """A text meant to name a column (or a list of them) is not a column number."""


class ColumnOutOfRangeError(EngineError):
    """A column number is not a column of the board."""


class ColumnFullError(EngineError):
    """A marker was dropped into a column that has no free cell."""


class GameOverError(EngineError):
    """A move or quit was asked of a game that is already won or drawn."""


class NotYourTurnError(EngineError):
    """A player tried to drop a marker while another player is to move."""


class PlayerNotActiveError(EngineError):
    """The player is not in the game, or has quit it."""
