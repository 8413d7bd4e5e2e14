"""Connect Four rules, games, rendering and notation, for any board size.

The engine only computes: it returns values and strings and never prints,
so every front end (terminal game, web service) shows them its own way.
"""

from .errors import (
    ColumnFullError,
    ColumnOutOfRangeError,
    EngineError,
    GameOverError,
    MoveSyntaxError,
    NotYourTurnError,
    PlayerNotActiveError,
    RulesError,
)
from .game import Cell, Column, Game, Move, Outcome, Player, Status
from .notation import format_moves, parse_column, parse_moves
from .render import column_header, render
from .rules import Rules

__all__ = [
    "Cell",
    "Column",
    "ColumnFullError",
    "ColumnOutOfRangeError",
    "EngineError",
    "Game",
    "GameOverError",
    "Move",
    "MoveSyntaxError",
    "NotYourTurnError",
    "Outcome",
    "Player",
    "PlayerNotActiveError",
    "Rules",
    "RulesError",
    "Status",
    "column_header",
    "format_moves",
    "parse_column",
    "parse_moves",
    "render",
]
