"""Connect Four rules, games, rendering and notation, for any board size.

The engine only computes: it returns values and strings and never prints,
so every front end (terminal game, web service) shows them its own way.
"""

from .errors import (
    AcceleratorError,
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BookFormatError,
    BothPlayersWonError,
    ColumnFullError,
    ColumnOutOfRangeError,
    DatabaseFormatError,
    DisjointChainsError,
    EngineError,
    FloatingPieceError,
    GameOverError,
    ImpossibleLastMoveError,
    LevelError,
    MoveOrderError,
    MoveSyntaxError,
    NotYourTurnError,
    PieceCountError,
    PlayerNotActiveError,
    RulesError,
    SearchAborted,
    UndecidedBoardError,
    UnsupportedGameError,
)
from .game import Cell, Column, Game, Move, Outcome, Player, Status
from .notation import DIGIT_COLUMNS, format_moves, parse_column, parse_moves
from .render import column_header, render
from .rules import Rules

__version__ = "1.2.0"
"""The project's version, written only here: the packaging metadata
(pyproject.toml) and ``connect.py --version`` both read it."""

# Every exception comes from errors.py, which the game loads anyway.
# The board check, the solver and its bitboard load on first use (PEP 562):
# the terminal game's start-up never pays for them. Type checkers see them
# as imported.
_LAZY = {
    "Reconstruction": "board_check",
    "board_winner": "board_check",
    "reconstruct": "board_check",
    "LEVELS": "solver",
    "Analysis": "solver",
    "Solver": "solver",
    "analyse": "solver",
    "choose_move": "solver",
    "solve": "solver",
    "ColumnScore": "columns",
    "column_scores": "columns",
    "Position": "bitboard",
}

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .bitboard import Position
    from .board_check import Reconstruction, board_winner, reconstruct
    from .columns import ColumnScore, column_scores
    from .solver import LEVELS, Analysis, Solver, analyse, choose_move, solve


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "AcceleratorError",
    "Analysis",
    "BoardCharacterError",
    "BoardError",
    "BoardLengthError",
    "BookFormatError",
    "BothPlayersWonError",
    "Cell",
    "Column",
    "ColumnFullError",
    "ColumnScore",
    "ColumnOutOfRangeError",
    "DIGIT_COLUMNS",
    "DatabaseFormatError",
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
    "Reconstruction",
    "Rules",
    "RulesError",
    "SearchAborted",
    "Solver",
    "Status",
    "UndecidedBoardError",
    "UnsupportedGameError",
    "analyse",
    "board_winner",
    "choose_move",
    "column_header",
    "column_scores",
    "format_moves",
    "parse_column",
    "parse_moves",
    "reconstruct",
    "render",
    "solve",
]

if __name__ != "connect_four.engine":
    # This folder is the package connect_four.engine: imported under another name it
    # would be a second copy, with exception classes of its own.
    raise ImportError(f"import connect_four.engine, not {__name__}")
