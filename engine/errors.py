"""Exceptions of the engine, one class per kind of failure, all of them here.

Every class derives from :class:`EngineError`, itself a :class:`ValueError`,
so a front end can catch the whole family in one ``except`` clause and still
tell the kinds apart when it needs to. The modules that raise them import
them from here; the board check's errors form a family of their own under
:class:`BoardError`.
"""

from __future__ import annotations

# Imported for type checkers only: the terminal game's start-up stays lean.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import ClassVar

__all__ = [
    "EngineError",
    "RulesError",
    "MoveSyntaxError",
    "ColumnOutOfRangeError",
    "ColumnFullError",
    "GameOverError",
    "NotYourTurnError",
    "PlayerNotActiveError",
    "UnsupportedGameError",
    "LevelError",
    "SearchAborted",
    "AcceleratorError",
    "BookFormatError",
    "DatabaseFormatError",
    "BoardError",
    "BoardLengthError",
    "BoardCharacterError",
    "FloatingPieceError",
    "PieceCountError",
    "BothPlayersWonError",
    "DisjointChainsError",
    "ImpossibleLastMoveError",
    "MoveOrderError",
    "UndecidedBoardError",
]


class EngineError(ValueError):
    """Base class of every error the engine raises."""


# === Rules and moves (connect_four.engine.rules, connect_four.engine.game, connect_four.engine.notation) ===


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


# === The solver (connect_four.engine.bitboard, connect_four.engine.levels, connect_four.engine.budget, connect_four.engine.accelerator, connect_four.engine.book) ===


class UnsupportedGameError(EngineError):
    """The game is not one the bitboard or the solver handles (not two players)."""


class LevelError(EngineError):
    """A computer level that does not exist was asked for."""


class SearchAborted(EngineError):
    """A search ran out of its node or time budget before it finished."""


class AcceleratorError(EngineError):
    """The compiled search was asked for but cannot run (not built, or board too wide)."""


class BookFormatError(EngineError):
    """A book file is truncated, of another format, or inconsistent."""


class DatabaseFormatError(EngineError):
    """The 12-stone database (connect_four.engine.database) is truncated, of another format, or impossible."""


# === Boards no game could reach (connect_four.engine.board_check) ===


class BoardError(EngineError):
    """A board string that no real game could produce; ``code`` names the rule."""

    code: ClassVar[str] = "invalid_board"


class BoardLengthError(BoardError):
    """The string does not have one character per cell."""

    code = "wrong_length"


class BoardCharacterError(BoardError):
    """A character is not A, B or X."""

    code = "bad_character"


class FloatingPieceError(BoardError):
    """A piece sits above an empty cell of its column."""

    code = "floating_piece"


class PieceCountError(BoardError):
    """The players' piece counts cannot come from alternating turns."""

    code = "impossible_counts"


class BothPlayersWonError(BoardError):
    """Both players have a winning chain; the game stops at the first one."""

    code = "both_players_won"


class DisjointChainsError(BoardError):
    """One player has winning chains with no piece common to all of them.

    Every chain a move completes runs through that move's piece, so the
    chains of a real win share at least one piece (the seed's
    ``multiple_winner``).
    """

    code = "multiple_winner"


class ImpossibleLastMoveError(BoardError):
    """The winning move cannot have been the last one played.

    The shared piece must sit on top of its column, and the piece counts must
    show that its owner moved last.
    """

    code = "impossible_last_move"


class MoveOrderError(BoardError):
    """No order of drops, the players taking turns, stacks the columns this way.

    Each rule above can hold and the board still be out of reach: with A
    first, a lone column holding B under A needs B to move first.
    """

    code = "no_move_order"


class UndecidedBoardError(BoardError):
    """The bounded search neither found an order of moves nor proved there is none.

    Only :meth:`connect_four.engine.Game.from_grid` raises it: it needs the moves, where
    the winner check answers such a board unverified. A larger
    ``search_limit`` may settle it.
    """

    code = "undecided"
