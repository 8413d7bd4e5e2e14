"""A game of Connect Four whose source of truth is the list of its moves.

Columns are counted from 0, left to right, exactly as the terminal game
prints and reads them. A cell is ``(row, column)`` with row 0 at the bottom,
where the first marker of a column lands. Players are numbered from 0 in
turn order; two is the usual count, but any number from two up may play and
any of them may quit while the game is in progress.
"""

from __future__ import annotations

from ._value import Value
from .errors import (
    ColumnFullError,
    GameOverError,
    NotYourTurnError,
    PlayerNotActiveError,
    RulesError,
)
from .lines import grid_steps, winning_lines
from .rules import Rules
from .validate import check_on_board, is_int

# Imported for type checkers only: the terminal game's start-up stays lean.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, ClassVar

__all__ = ["Player", "Column", "Cell", "Move", "Status", "Outcome", "Game"]

Player = int
"""Index of a player in turn order; 0 moves first."""

Column = int
"""Index of a column, from 0 at the left."""

Cell = tuple[int, int]
"""``(row, column)``, row 0 at the bottom of the board."""

# The board is kept as one flat list, row by row from the bottom, with a
# border of _BORDER cells all round: a walk along a line stops at the edge by
# meeting a cell no player owns, with no bounds check. Cell (row, column) is
# at index (row + 1) * width + column + 1, where width = columns + 2.
_EMPTY = -1
_BORDER = -2


class Move(Value):
    """One entry of a game's history: a player dropped a marker, or quit.

    ``column`` is the column dropped into, or None when the player quit.

    >>> Move(0, 3)
    Move(player=0, column=3)
    >>> Move(1, None).is_quit
    True
    """

    __slots__ = ("player", "column")
    player: Player
    column: Column | None

    def __init__(self, player: Player, column: Column | None) -> None:
        # One Move is made per drop: set the slots directly, not via _set().
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "column", column)

    @property
    def is_quit(self) -> bool:
        """Whether this entry records a player leaving the game."""
        return self.column is None


class Status:
    """Where a game stands: ``Status.IN_PROGRESS``, ``Status.WON`` or ``Status.DRAWN``.

    Three named constants, compared by identity, like an enum's members.

    >>> Status.WON
    Status.WON
    >>> Status.WON.value
    'won'
    """

    __slots__ = ("name", "value")
    name: str
    value: str
    IN_PROGRESS: ClassVar[Status]
    WON: ClassVar[Status]
    DRAWN: ClassVar[Status]

    def __init__(self, name: str, value: str) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "value", value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Status constants are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Status constants are immutable")

    def __repr__(self) -> str:
        return f"Status.{self.name}"

    def __reduce__(self) -> str:
        return f"Status.{self.name}"


Status.IN_PROGRESS = Status("IN_PROGRESS", "in progress")
Status.WON = Status("WON", "won")
Status.DRAWN = Status("DRAWN", "drawn")


class Outcome(Value):
    """How a finished game ended.

    ``cells`` holds every cell of every winning line through the last marker
    (empty for a draw, or for a win because every other player quit).
    """

    __slots__ = ("status", "winner", "cells")
    status: Status
    winner: Player | None
    cells: frozenset[Cell]

    def __init__(
        self,
        status: Status,
        winner: Player | None = None,
        cells: frozenset[Cell] = frozenset(),
    ) -> None:
        self._set("status", status)
        self._set("winner", winner)
        self._set("cells", cells)


class Game:
    """A game in play: drop markers, undo them, ask who is to move and who won.

    >>> game = Game.from_moves("0,7,0,6,0,5,0")
    >>> game.status, game.outcome().winner
    (Status.WON, 0)
    >>> sorted(game.outcome().cells)
    [(0, 0), (1, 0), (2, 0), (3, 0)]
    >>> game.pop()
    Move(player=0, column=0)
    >>> game.outcome() is None, game.to_move
    (True, 0)
    """

    def __init__(self, rules: Rules | None = None, players: int = 2) -> None:
        """Start an empty game.

        Raises:
            RulesError: fewer than two players, or ``players`` not an int.
        """
        if not is_int(players) or players < 2:
            raise RulesError(f"a game needs at least 2 players, got {players!r}")
        self.rules: Rules = rules if rules is not None else Rules()
        self.players: int = players
        rows, columns = self.rules.rows, self.rules.columns
        self._width = width = columns + 2
        self._cells: list[int] = [_BORDER] * ((rows + 2) * width)
        for row in range(rows):
            start = (row + 1) * width + 1
            self._cells[start : start + columns] = [_EMPTY] * columns
        self._heights: list[int] = [0] * columns
        # Index steps of the four lines through a cell (engine/lines.py).
        self._steps = grid_steps(width)
        self._connect = self.rules.connect
        self._history: list[Move] = []
        self._active: list[bool] = [True] * players
        self._to_move: Player = 0
        self._outcome: Outcome | None = None
        self._drops = 0
        self._cell_count = self.rules.cells
        # Snapshot of (to_move, outcome) taken before each entry, so pop() is O(1).
        self._stack: list[tuple[Player, Outcome | None]] = []

    # --- Construction -----------------------------------------------------

    @classmethod
    def from_moves(cls, moves: str | Iterable[Column], rules: Rules | None = None) -> Game:
        """Replay a two-player game from its columns (a list or a move string).

        >>> Game.from_moves([3, 3, 4]).moves
        [3, 3, 4]

        Raises:
            MoveSyntaxError: the string is not a move record.
            ColumnOutOfRangeError, ColumnFullError, GameOverError: a move
                cannot be played where it stands in the record.
        """
        game = cls(rules)
        if isinstance(moves, str):
            from .notation import parse_moves

            moves = parse_moves(moves, game.rules)
        for column in moves:
            game.play(column)
        return game

    @classmethod
    def from_grid(
        cls,
        grid: Sequence[Any],
        rules: Rules | None = None,
        *,
        markers: tuple[object, object] = (1, 2),
        empty: object = 0,
        top_down: bool = True,
        search_limit: int | None = None,
    ) -> Game:
        """Rebuild a two-player game from a grid of cells, as game frameworks give it.

        ``grid`` is either one flat list of ``rows * columns`` cells, row by
        row (Kaggle's ConnectX), or a list of rows (OpenSpiel, PettingZoo);
        rows run from the top down unless ``top_down`` is False. A cell is
        ``empty`` or one of ``markers``, the first player's marker first.
        The game's history is an order of moves that builds the grid (one
        of them, when several do; see :func:`connect_four.engine.grid.moves_of_grid`); a
        won grid ends with the winning move.

        >>> game = Game.from_grid([[0, 0, 0], [0, 0, 0], [1, 2, 0]], Rules(3, 3, 3))
        >>> game.moves, game.to_move
        ([0, 1], 0)
        >>> Game.from_grid([".X", "XO"], Rules(2, 2, 2), markers=("X", "O"), empty=".")
        Game.from_moves('0,1,1', Rules(rows=2, columns=2, connect=2))

        Raises:
            BoardLengthError: the grid is not ``rules.rows`` x ``rules.columns``.
            BoardCharacterError: a cell is neither ``empty`` nor a marker, or
                the three are not different.
            BoardError: no game reaches the grid; the subclass names the rule
                it breaks (its message calls the first player's pieces A,
                the second's B, and counts indexes over the grid read from
                the top down, row by row).
            UndecidedBoardError: the search for an order of moves ran out of
                ``search_limit`` positions (default
                :data:`connect_four.engine.board_check.SEARCH_LIMIT`) before finding one or
                proving there is none: rare, and then for grids no game reaches.
        """
        from .grid import moves_of_grid

        rules = rules if rules is not None else Rules()
        moves = moves_of_grid(
            grid, rules, markers=markers, empty=empty, top_down=top_down, search_limit=search_limit
        )
        game = cls(rules)
        for column in moves:
            game.play(column)
        return game

    def copy(self) -> Game:
        """An independent game with the same rules and history."""
        other = Game(self.rules, self.players)
        for move in self._history:
            other._push(move)
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: object) -> Game:
        return self.copy()

    # --- Reading the position --------------------------------------------

    @property
    def history(self) -> tuple[Move, ...]:
        """Every drop and quit so far, in order: the game's source of truth."""
        return tuple(self._history)

    @property
    def moves(self) -> list[Column]:
        """The columns dropped into so far, in order (quits left out)."""
        return [move.column for move in self._history if move.column is not None]

    def moves_string(self) -> str:
        """The drops as a move record, the format :meth:`from_moves` reads.

        >>> Game.from_moves([3, 3, 4]).moves_string()
        '3,3,4'
        """
        from .notation import format_moves

        return format_moves(self.moves)

    @property
    def to_move(self) -> Player | None:
        """The player whose turn it is, or None once the game is over."""
        return None if self._outcome is not None else self._to_move

    @property
    def active_players(self) -> tuple[Player, ...]:
        """The players who have not quit, in turn order."""
        return tuple(p for p in range(self.players) if self._active[p])

    def height(self, column: Column) -> int:
        """How many markers column ``column`` holds."""
        self._check_column(column)
        return self._heights[column]

    def cell(self, row: int, column: Column) -> Player | None:
        """The player whose marker is at ``(row, column)``, or None if empty.

        Raises:
            ColumnOutOfRangeError: the cell is not on the board.
        """
        self._check_column(column)
        check_on_board(row, self.rules.rows, "row")
        owner = self._cells[(row + 1) * self._width + column + 1]
        return None if owner == _EMPTY else owner

    def grid(self) -> list[list[Player | None]]:
        """The board as rows from top to bottom, each left to right (None: empty)."""
        cells, width, columns = self._cells, self._width, self.rules.columns
        return [
            [None if owner == _EMPTY else owner for owner in cells[start : start + columns]]
            for start in ((row + 1) * width + 1 for row in reversed(range(self.rules.rows)))
        ]

    def can_play(self, column: Column) -> bool:
        """Whether a marker may be dropped into ``column`` now."""
        return (
            self._outcome is None
            and is_int(column)
            and 0 <= column < self.rules.columns
            and self._heights[column] < self.rules.rows
        )

    def legal_moves(self) -> list[Column]:
        """The columns that may be played now, left to right."""
        if self._outcome is not None:
            return []
        rows = self.rules.rows
        return [column for column, height in enumerate(self._heights) if height < rows]

    def is_full(self) -> bool:
        """Whether every cell of the board holds a marker."""
        return self._drops == self.rules.cells

    def is_over(self) -> bool:
        """Whether the game is won or drawn."""
        return self._outcome is not None

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it is in progress."""
        return self._outcome

    @property
    def status(self) -> Status:
        """IN_PROGRESS, WON or DRAWN."""
        return Status.IN_PROGRESS if self._outcome is None else self._outcome.status

    # --- Playing ----------------------------------------------------------

    def play(self, column: Column, player: Player | None = None) -> Move:
        """Drop the next marker into ``column``; return the recorded move.

        ``player``, when given, must be the player to move: a front end that
        knows who sent the move lets the engine check the turn.

        Raises:
            PlayerNotActiveError: ``player`` is not in the game or has quit.
            GameOverError: the game is already won or drawn.
            NotYourTurnError: ``player`` is not the player to move.
            ColumnOutOfRangeError: ``column`` is not a column of the board.
            ColumnFullError: ``column`` has no free cell.
        """
        if player is not None:
            self._check_active(player)
        if self._outcome is not None:
            raise GameOverError(f"the game is over; no move may follow {self.moves_string()!r}")
        if player is not None and player != self._to_move:
            raise NotYourTurnError(f"it is player {self._to_move}'s turn, not player {player}'s")
        self._check_column(column)
        if self._heights[column] >= self.rules.rows:
            raise ColumnFullError(f"column {column} is full after {self.moves_string()!r}")
        move = Move(self._to_move, column)
        self._push(move)
        return move

    def quit(self, player: Player) -> Move:
        """Take ``player`` out of the game; return the recorded entry.

        A player may quit in turn or not. When only one player is left, that
        player wins.

        Raises:
            PlayerNotActiveError: ``player`` is not in the game or has quit.
            GameOverError: the game is already won or drawn.
        """
        self._check_active(player)
        if self._outcome is not None:
            raise GameOverError("the game is over; nobody can quit it any more")
        move = Move(player, None)
        self._push(move)
        return move

    def pop(self) -> Move:
        """Undo the last drop or quit and return it.

        Raises:
            IndexError: the history is empty.
        """
        move = self._history.pop()
        self._to_move, self._outcome = self._stack.pop()
        if move.column is None:
            self._active[move.player] = True
        else:
            column = move.column
            self._heights[column] -= 1
            self._cells[(self._heights[column] + 1) * self._width + column + 1] = _EMPTY
            self._drops -= 1
        return move

    def peek(self) -> Move:
        """The last drop or quit, without undoing it.

        Raises:
            IndexError: the history is empty.
        """
        return self._history[-1]

    # --- Internals --------------------------------------------------------

    def _push(self, move: Move) -> None:
        """Record a move already validated by play() or quit()."""
        self._stack.append((self._to_move, self._outcome))
        self._history.append(move)
        if move.column is None:
            self._active[move.player] = False
            active = self.active_players
            if len(active) == 1:
                self._outcome = Outcome(Status.WON, active[0])
            elif move.player == self._to_move:
                self._to_move = self._next_active(move.player)
            return
        column = move.column
        row = self._heights[column]
        self._heights[column] = row + 1
        index = (row + 1) * self._width + column + 1
        self._cells[index] = move.player
        self._drops += 1
        lines = winning_lines(self._cells, index, self._steps, self._connect)
        if lines:
            self._outcome = Outcome(Status.WON, move.player, self._cells_of(lines))
        elif self._drops == self._cell_count:
            self._outcome = Outcome(Status.DRAWN)
        else:
            self._to_move = self._next_active(move.player)

    def _next_active(self, after: Player) -> Player:
        """The first player after ``after`` in turn order who has not quit."""
        for step in range(1, self.players + 1):
            candidate = (after + step) % self.players
            if self._active[candidate]:
                return candidate
        raise AssertionError("a game in progress has at least two players")

    def _cells_of(self, lines: list[range]) -> frozenset[Cell]:
        """The cells at the indexes of ``lines``."""
        width = self._width
        return frozenset((i // width - 1, i % width - 1) for line in lines for i in line)

    def _check_column(self, column: Column) -> None:
        check_on_board(column, self.rules.columns)

    def _check_active(self, player: Player) -> None:
        if not is_int(player) or not 0 <= player < self.players:
            raise PlayerNotActiveError(f"there is no player {player!r} in this game")
        if not self._active[player]:
            raise PlayerNotActiveError(f"player {player} has quit the game")

    # --- Dunder -----------------------------------------------------------

    def __repr__(self) -> str:
        if any(move.is_quit for move in self._history) or self.players != 2:
            return f"<Game {self.rules!r} players={self.players} history={self._history!r}>"
        return f"Game.from_moves({self.moves_string()!r}, {self.rules!r})"

    def __len__(self) -> int:
        """How many entries (drops and quits) the history holds."""
        return len(self._history)
