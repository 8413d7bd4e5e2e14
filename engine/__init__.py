"""Connect Four rules, games, rendering and notation, for any board size.

The engine only computes: it returns values and strings and never prints,
so every front end (terminal game, web service) shows them its own way.
"""

from .bitboard import Position, UnsupportedGameError
from .board_check import (
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BothPlayersWonError,
    DisjointChainsError,
    FloatingPieceError,
    ImpossibleLastMoveError,
    MoveOrderError,
    PieceCountError,
    board_winner,
)
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
from .solver import (
    LEVELS,
    Analysis,
    LevelError,
    SearchAborted,
    Solver,
    analyse,
    choose_move,
    solve,
)

__all__ = [
    "Analysis",
    "BoardCharacterError",
    "BoardError",
    "BoardLengthError",
    "BothPlayersWonError",
    "Cell",
    "Column",
    "ColumnFullError",
    "ColumnOutOfRangeError",
    "DisjointChainsError",
    "EngineError",
    "FloatingPieceError",
    "Game",
    "GameOverError",
    "ImpossibleLastMoveError",
    "LEVELS",
    "LevelError",
    "Move",
    "MoveOrderError",
    "MoveSyntaxError",
    "NotYourTurnError",
    "Outcome",
    "PieceCountError",
    "Player",
    "PlayerNotActiveError",
    "Position",
    "Rules",
    "RulesError",
    "SearchAborted",
    "Solver",
    "Status",
    "UnsupportedGameError",
    "analyse",
    "board_winner",
    "choose_move",
    "column_header",
    "format_moves",
    "parse_column",
    "parse_moves",
    "render",
    "solve",
]
