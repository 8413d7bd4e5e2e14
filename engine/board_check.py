"""Who has won on a board given as a string, refusing boards no game could reach.

:func:`reconstruct` does the work: it checks the board and searches for an
order of moves that builds it. :func:`check_board` and :func:`board_winner`
(the service's winner check) and :meth:`connect_four.engine.Game.from_grid` (a game from a
framework's grid) all answer with it.

The string lists the rows from top to bottom, as a grid is printed, each row
left to right: ``A`` and ``B`` are the two players' pieces, ``X`` an empty
cell. On the usual 6 x 7 board the string has 42 characters; the last seven
are the bottom row, where the first piece of each column lands::

    XXXXXXX   index  0- 6   top row (row 5)
    XXXXXXX   index  7-13
    AXXXXXX   index 14-20
    AXXXXXX   index 21-27
    ABXXXXX   index 28-34
    ABBXXXX   index 35-41   bottom row (row 0)

Cells in messages are ``(row, column)`` from the bottom-left corner, as in
:mod:`connect_four.engine.game`, with the string index beside them.
"""

from __future__ import annotations

from itertools import pairwise

from ._value import Value
from .errors import (
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BothPlayersWonError,
    DisjointChainsError,
    FloatingPieceError,
    ImpossibleLastMoveError,
    MoveOrderError,
    PieceCountError,
    RulesError,
    UndecidedBoardError,
)
from .lines import grid_steps, winning_lines
from .rules import Rules

__all__ = [
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
    "BoardVerdict",
    "Reconstruction",
    "SEARCH_LIMIT",
    "board_winner",
    "check_board",
    "reconstruct",
]

PIECES = "AB"
EMPTY = "X"
NO_WINNER = "X"

_BORDER = "#"
"""What lies around the board in the grid that winning_lines walks: no player's."""


# === The check ===


class BoardVerdict(Value):
    """The answer of :func:`check_board`: who has won, and how far it was verified.

    ``order_verified`` is True when an order of turns that builds the board
    was found; False when the search for one ran out of its budget first
    (every other rule was still checked, and the board given the benefit
    of the doubt).

    >>> BoardVerdict("A", True)
    BoardVerdict(winner='A', order_verified=True)
    """

    __slots__ = ("winner", "order_verified")
    winner: str
    order_verified: bool

    def __init__(self, winner: str, order_verified: bool) -> None:
        self._set("winner", winner)
        self._set("order_verified", order_verified)


class Reconstruction(Value):
    """The answer of :func:`reconstruct`: who has won, and moves that build the board.

    ``moves`` are columns from 0, in the order of play, the winning move
    last; None when the search ran out of its budget before finding an
    order or proving there is none (every other rule was checked).

    >>> reconstruct("XXXX" "XXXX" "XXXX" "ABXX", Rules(4, 4))
    Reconstruction(winner='X', moves=(0, 1))
    """

    __slots__ = ("winner", "moves")
    winner: str
    moves: tuple[int, ...] | None

    def __init__(self, winner: str, moves: tuple[int, ...] | None) -> None:
        self._set("winner", winner)
        self._set("moves", moves)


SEARCH_LIMIT = 50_000
"""Work units the move-order search of one check may spend, in all.

Looking at a position costs one unit per non-empty column, keeping a new
position one more, so both the time and the memory of a check are bounded
whatever the board: about 0.17 microseconds of CPU a unit on the team's
2-core machine (8.4 ms for the costliest check, measured) and under a
megabyte. Most reachable
boards are found in one descent; some boards that no game reaches need
more (``BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB`` on 6 x 7 needs some
700,000 units), and those are answered with ``order_verified`` False
instead of being refused."""


def board_winner(
    board: str, rows: int = 6, columns: int = 7, connect: int = 4, first: str = "A"
) -> str:
    """Answer ``"A"`` or ``"B"`` for the player who has won, ``"X"`` for nobody.

    ``"X"`` means the game goes on, or is drawn when the board is full.
    ``first`` is the player who moved first. This is
    :func:`check_board`'s winner; see there what is verified.

    >>> board_winner(
    ...     "XXXXXXX"
    ...     "XXXXXXX"
    ...     "AXXXXXX"
    ...     "AXXXXXX"
    ...     "ABXXXXX"
    ...     "ABBXXXX"
    ... )
    'A'
    >>> board_winner("XXXX" "XXXX" "XXXX" "ABXX", rows=4, columns=4)
    'X'
    >>> board_winner("AXXX" "XXXX" "XXXX" "BXXX", rows=4, columns=4)
    Traceback (most recent call last):
      ...
    connect_four.engine.errors.FloatingPieceError: piece 'A' at (3, 0) (index 0) floats above an empty cell

    Raises:
        RulesError: the board size or chain length is not valid rules, or
            ``first`` is neither "A" nor "B".
        BoardError: the string is no position of a real game; the subclass
            (and its ``code``) names the rule it breaks.
    """
    return check_board(board, rows, columns, connect, first).winner


def check_board(
    board: str,
    rows: int = 6,
    columns: int = 7,
    connect: int = 4,
    first: str = "A",
    *,
    search_limit: int = SEARCH_LIMIT,
) -> BoardVerdict:
    """Who has won on ``board``, refusing boards no game could reach.

    The checks of the text, gravity, piece counts and winning chains are
    exact and cost time in proportion to the board. Then a search looks for
    an order of turns that stacks the columns as given (with the winning
    piece last); it visits at most ``search_limit`` positions in all. If it
    finds an order, or proves there is none, the answer is exact; if it runs
    out first, the board is answered with ``order_verified`` False.

    >>> check_board("XXXX" "XXXX" "XXXX" "ABXX", rows=4, columns=4)
    BoardVerdict(winner='X', order_verified=True)

    Raises:
        RulesError: the board size or chain length is not valid rules, or
            ``first`` is neither "A" nor "B".
        BoardError: the string is no position of a real game; the subclass
            (and its ``code``) names the rule it breaks.
    """
    found = reconstruct(board, Rules(rows, columns, connect), first, search_limit=search_limit)
    return BoardVerdict(found.winner, found.moves is not None)


def reconstruct(
    board: str, rules: Rules, first: str = "A", *, search_limit: int = SEARCH_LIMIT
) -> Reconstruction:
    """Who has won on ``board``, and an order of moves that builds it.

    The string is read as :func:`check_board` reads it, under ``rules``
    (which may be unwinnable). The checks of the text, gravity, piece counts
    and winning chains are exact; the search for an order of moves (with
    the winning piece last) visits at most ``search_limit`` positions, and
    answers ``moves`` None when it runs out first.

    >>> reconstruct("XXXX" "XXXX" "AXXX" "ABBX", Rules(4, 4), first="A")
    Reconstruction(winner='X', moves=(0, 2, 0, 1))

    Raises:
        RulesError: ``first`` is neither "A" nor "B".
        BoardError: the string is no position of a real game; the subclass
            (and its ``code``) names the rule it breaks.
    """
    if first not in ("A", "B") or not isinstance(first, str):
        raise RulesError(f"first must be 'A' or 'B', got {first!r}")
    connect = rules.connect
    _check_text(board, rules)
    stacks = _stacks(board, rules)
    _check_counts(board, first)
    cores = {player: _winning_cores(stacks, rules, player) for player in PIECES}
    winners = [player for player in PIECES if cores[player]]
    budget = _Budget(search_limit)
    if not winners:
        found, order = _move_order(stacks, first, budget)
        if found is False:
            raise MoveOrderError(_no_order_text(stacks, first))
        return Reconstruction(NO_WINNER, order if found else None)
    if len(winners) == 2:
        raise BothPlayersWonError(
            f"both A and B have a chain of {connect}: A through "
            f"{_cells_text(cores['A'][0], rules)}, B through "
            f"{_cells_text(cores['B'][0], rules)}"
        )
    winner = winners[0]
    shared = frozenset.intersection(*cores[winner])
    if not shared:
        raise DisjointChainsError(
            f"{winner}'s winning chains share no piece: {len(cores[winner])} chains "
            f"through {'; '.join(_cells_text(core, rules) for core in cores[winner])}"
        )
    on_top = [cell for cell in shared if cell[0] == len(stacks[cell[1]]) - 1]
    if not on_top:
        raise ImpossibleLastMoveError(
            f"no piece shared by {winner}'s winning chains could be the last move: "
            f"{_cells_text(shared, rules)} each have a piece above"
        )
    other = "B" if winner == "A" else "A"
    winner_count, other_count = board.count(winner), board.count(other)
    moved_last = winner_count == other_count + (1 if winner == first else 0)
    if not moved_last:
        raise ImpossibleLastMoveError(
            f"{winner} has won but did not move last: A {board.count('A')}, "
            f"B {board.count('B')} pieces with {first} moving first"
        )
    # The winning piece came last; the others, in some order of turns, before it.
    undecided = False
    for cell in sorted(on_top):
        found, order = _move_order(_without(stacks, cell), first, budget)
        if found is True:
            return Reconstruction(winner, (*order, cell[1]))
        undecided = undecided or found is None
    if undecided:
        return Reconstruction(winner, None)
    raise MoveOrderError(
        _no_order_text(stacks, first)
        + f", then {winner}'s winning piece ({_cells_text(frozenset(on_top), rules)}) last"
    )


# === Helpers ===


def _cell_of(index: int, rules: Rules) -> tuple[int, int]:
    """The ``(row, column)`` of a string index, row 0 at the bottom."""
    line, column = divmod(index, rules.columns)
    return rules.rows - 1 - line, column


def _index_of(row: int, column: int, rules: Rules) -> int:
    return (rules.rows - 1 - row) * rules.columns + column


def _cells_text(cells: frozenset[tuple[int, int]], rules: Rules) -> str:
    """Cells and their string indexes: ``(0, 0) (0, 1) at indexes 35 36``."""
    ordered = sorted(cells)
    indexes = " ".join(str(_index_of(*cell, rules)) for cell in ordered)
    at = "index" if len(ordered) == 1 else "indexes"
    return f"{' '.join(str(cell) for cell in ordered)} at {at} {indexes}"


def _short(text: str) -> str:
    """The repr of ``text``, cut short so an error message stays readable."""
    return repr(text) if len(text) <= 60 else repr(text[:57]) + "..."


def _check_text(board: str, rules: Rules) -> None:
    if not isinstance(board, str):
        raise BoardCharacterError(f"the board must be a string, got {board!r}")
    if len(board) != rules.cells:
        raise BoardLengthError(
            f"a {rules.rows} x {rules.columns} board has {rules.cells} cells, "
            f"but the string {_short(board)} has {len(board)} characters"
        )
    for index, character in enumerate(board):
        if character not in "ABX":
            raise BoardCharacterError(
                f"character {character!r} at {_cell_of(index, rules)} (index {index}) "
                "is not A, B or X"
            )


def _stacks(board: str, rules: Rules) -> list[str]:
    """Each column's pieces from the bottom up; refuse a piece above a gap."""
    stacks = []
    for column in range(rules.columns):
        # The column read bottom-up: the string holds the top row first.
        cells = board[column :: rules.columns][::-1]
        height = cells.find(EMPTY)
        if height == -1:
            height = rules.rows
        for row in range(height + 1, rules.rows):
            if cells[row] != EMPTY:
                raise FloatingPieceError(
                    f"piece {cells[row]!r} at ({row}, {column}) "
                    f"(index {_index_of(row, column, rules)}) floats above an empty cell"
                )
        stacks.append(cells[:height])
    return stacks


def _check_counts(board: str, first: str) -> None:
    second = "B" if first == "A" else "A"
    lead = board.count(first) - board.count(second)
    if lead not in (0, 1):
        raise PieceCountError(
            f"A has {board.count('A')} pieces and B {board.count('B')}: with "
            f"{first} moving first, {first} has as many pieces as {second} or one more"
        )


def _without(stacks: list[str], cell: tuple[int, int]) -> list[str]:
    """The stacks with the piece at ``cell``, the top of its column, taken off."""
    row, column = cell
    return [stack[:row] if index == column else stack for index, stack in enumerate(stacks)]


def _no_order_text(stacks: list[str], first: str) -> str:
    listed = ", ".join(repr(stack) for stack in stacks)
    return (
        f"no order of drops, players taking turns from {first}, stacks the columns "
        f"as they are (each from the bottom up: {listed})"
    )


class _Budget:
    """Positions the searches of one check may still visit."""

    __slots__ = ("left",)

    def __init__(self, positions: int) -> None:
        self.left = positions


def _move_order(
    stacks: list[str], first: str, budget: _Budget
) -> tuple[bool | None, tuple[int, ...]]:
    """Whether some order of drops, players alternating from ``first``, builds ``stacks``.

    Answers True and the columns of such an order, False (and no columns)
    when there is none, or None when the budget ran out before the answer
    was known.

    A depth-first search over the heights of the columns: the owner of the
    next drop is fixed by how many pieces are down, so a drop is possible
    from a column whose next piece is that player's. Drops after which the
    column's next piece is the other player's are tried first (the column can
    go on at once), so a reachable board is usually found in one descent.
    Each position looked at spends a unit of ``budget`` per column, each one
    kept a unit more.
    """
    second = "B" if first == "A" else "A"
    # The board's column of each non-empty stack searched.
    board_columns = [index for index, stack in enumerate(stacks) if stack]
    columns = [stacks[index] for index in board_columns]
    total = sum(len(stack) for stack in columns)
    # waits[c][h]: pieces of column c from height h on that sit on a piece of
    # the same owner (the column must wait a turn before each of them).
    waits = []
    for stack in columns:
        counts = [0] * (len(stack) + 1)
        for height in range(len(stack) - 2, -1, -1):
            counts[height] = counts[height + 1] + (stack[height] == stack[height + 1])
        waits.append(counts)
    # A position is the columns' heights; seen keeps each as one int, the
    # heights' digits in a mixed radix, to keep the memory down.
    weights = []
    weight = 1
    for stack in columns:
        weights.append(weight)
        weight *= len(stack) + 1
    seen = {0}
    # The stack holds keys only (the heights are decoded when popped), so
    # its memory is a few ints per position, bounded by the budget.
    todo: list[tuple[int, int]] = [(0, 0)]
    # The keys from the empty board to the position being looked at. The
    # search is depth-first, so a position popped at depth d has its parent
    # at path[d - 1]: path[:d] is its line, and the order comes from it.
    path: list[int] = []
    probes = len(columns)
    while todo:
        # Looking at a position costs a probe per column; each new position
        # kept costs one more unit (below).
        budget.left -= probes
        if budget.left < 0:
            return None, ()
        key, placed = todo.pop()
        del path[placed:]
        path.append(key)
        if placed == total:
            column_of = {weight: board_columns[index] for index, weight in enumerate(weights)}
            return True, tuple(column_of[after - before] for before, after in pairwise(path))
        player = first if placed % 2 == 0 else second
        options = []
        for column, stack in enumerate(columns):
            height = key // weights[column] % (len(stack) + 1)
            if height < len(stack) and stack[height] == player:
                after = key + weights[column]
                if after not in seen:
                    seen.add(after)
                    goes_on = height + 1 < len(stack) and stack[height + 1] != player
                    options.append(((goes_on, waits[column][height], len(stack) - height), after))
        budget.left -= len(options)
        # The last pushed is searched first.
        options.sort()
        todo.extend((after, placed + 1) for _, after in options)
    return False, ()


def _winning_cores(
    stacks: list[str], rules: Rules, player: str
) -> list[frozenset[tuple[int, int]]]:
    """For each maximal run of ``player`` at least ``connect`` long, its core.

    A run of length L holds L - connect + 1 winning chains (windows of
    ``connect`` pieces); the core is the cells every one of them contains,
    positions L - connect to connect - 1 along the run. A run of 2 * connect
    or more has an empty core: two of its chains share no piece.
    """
    connect = rules.connect
    # The board as a grid with a border all round, as winning_lines walks it.
    width = rules.columns + 2
    grid = [_BORDER] * ((rules.rows + 2) * width)
    for column, stack in enumerate(stacks):
        for row, piece in enumerate(stack):
            grid[(row + 1) * width + column + 1] = piece
    steps = grid_steps(width)
    # Each run is found from each of its pieces; a dict keeps it once, in order.
    runs: dict[range, None] = {}
    for column, stack in enumerate(stacks):
        for row, piece in enumerate(stack):
            if piece == player:
                for run in winning_lines(grid, (row + 1) * width + column + 1, steps, connect):
                    runs[run] = None
    cores = []
    for run in runs:
        cells = [(index // width - 1, index % width - 1) for index in run]
        cores.append(frozenset(cells[len(cells) - connect : connect]))
    return cores
