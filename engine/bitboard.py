"""A two-player position as two Python ints, for fast search on any board.

Pascal Pons' encoding, written for any ``rows x columns`` and any chain
length. Each column takes ``rows + 1`` bits, the lowest bit at the bottom;
the extra top bit of each column is a *sentinel* that is always 0, so a
shift never carries a stone from the top of one column to the bottom of the
next. Bit ``column * (rows + 1) + row`` is cell ``(row, column)``. For the
6 x 7 board (6 rows, so 7 bits a column)::

    .  .  .  .  .  .  .     <- sentinel row, always empty
    5 12 19 26 33 40 47
    4 11 18 25 32 39 46
    3 10 17 24 31 38 45
    2  9 16 23 30 37 44
    1  8 15 22 29 36 43
    0  7 14 21 28 35 42     <- row 0, where a stone first lands

A position is ``current`` (the stones of the player to move) and ``mask``
(every stone). The lines of the board are the shifts ``1`` (up),
``rows + 1`` (right), ``rows + 2`` (up-right) and ``rows`` (down-right).
Python ints never overflow, but a left shift can carry bits past the board,
so every left shift ends up ANDed with the board mask.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeAlias

from .errors import ColumnFullError
from .lines import bit_functions
from .rules import Rules
from .validate import check_on_board

__all__ = ["Layout", "Position", "layout", "non_losing_cells"]

Bitboard: TypeAlias = int
"""A set of cells, one bit per cell in the layout drawn above."""


# --- Layout: every mask that depends only on the rules -------------------


@dataclass(frozen=True)
class Layout:
    """The masks and bit tricks of one board size, computed once per rules.

    >>> lay = layout(Rules(rows=6, columns=7))
    >>> lay.height, bin(lay.bottom_mask).count("1"), lay.centre_first
    (7, 7, (3, 2, 4, 1, 5, 0, 6))

    Attributes hold plain ints and functions so the solver's hot loop can
    bind them to locals.
    """

    rules: Rules
    height: int
    """Bits per column: the rows plus the sentinel."""
    bits: int
    """Bits of a bitboard, sentinels included: ``columns * height``; the compiled
    search takes boards of at most 64 (connect_four.engine._native) or 128 (connect_four.engine._native128)."""
    bottom_mask: Bitboard
    """The bottom cell of every column."""
    board_mask: Bitboard
    """Every cell of the board (no sentinel)."""
    column_masks: tuple[Bitboard, ...]
    """All the cells of each column."""
    bottom_masks: tuple[Bitboard, ...]
    """The bottom cell of each column."""
    top_masks: tuple[Bitboard, ...]
    """The top cell of each column."""
    centre_first: tuple[int, ...]
    """Columns from the centre outwards, left before right at equal distance."""
    winning_cells: Callable[[Bitboard, Bitboard], Bitboard]
    """``winning_cells(stones, mask)``: the empty cells that would complete a
    chain of ``stones`` (reachable or not)."""
    has_chain: Callable[[Bitboard], bool]
    """``has_chain(stones)``: whether ``stones`` hold a chain long enough to win."""


@functools.lru_cache(maxsize=64)
def layout(rules: Rules) -> Layout:
    """The :class:`Layout` of ``rules``, built once and then cached.

    The two bit functions are those of :mod:`connect_four.engine.lines`, where the
    rule of winning is written once.

    >>> lay = layout(Rules(rows=1, columns=4, connect=2))
    >>> bin(lay.board_mask)
    '0b1010101'
    >>> lay.has_chain(0b101), lay.has_chain(0b001)
    (True, False)
    """
    rows, columns, connect = rules.rows, rules.columns, rules.connect
    height = rows + 1
    bottom_masks = tuple(1 << (c * height) for c in range(columns))
    column_masks = tuple(((1 << rows) - 1) << (c * height) for c in range(columns))
    top_masks = tuple(1 << (c * height + rows - 1) for c in range(columns))
    bottom = sum(bottom_masks)
    board = bottom * ((1 << rows) - 1)
    centre = (columns - 1) / 2
    centre_first = tuple(sorted(range(columns), key=lambda c: (abs(c - centre), c)))
    winning_cells, has_chain = bit_functions(rows, columns, connect)
    return Layout(
        rules=rules,
        height=height,
        bits=columns * height,
        bottom_mask=bottom,
        board_mask=board,
        column_masks=column_masks,
        bottom_masks=bottom_masks,
        top_masks=top_masks,
        centre_first=centre_first,
        winning_cells=winning_cells,
        has_chain=has_chain,
    )


# --- Threat pruning ----------------------------------------------------------


def non_losing_cells(possible: Bitboard, threats: Bitboard) -> Bitboard:
    """The cells of ``possible`` that do not let the opponent win at once; 0 if none.

    The one rule of threat pruning, which both searches apply at every node
    (``engine/_native_search.h`` mirrors it; tests/test_native_mirror.py
    compares). ``threats`` are the opponent's winning cells. When two of
    them are playable now, nothing saves the game; when one is, it must be
    blocked; and a cell just below a threat is never played, since it would
    offer that cell to the opponent.

    >>> bin(non_losing_cells(0b1000_0001, 0b0000_0010))  # not below the threat
    '0b10000000'
    >>> non_losing_cells(0b1000_0001, 0b1000_0001)  # two threats at once
    0
    """
    forced = possible & threats
    if forced:
        if forced & (forced - 1):  # more than one bit: two threats
            return 0
        possible = forced
    return possible & ~(threats >> 1)


# --- Position --------------------------------------------------------------


class Position:
    """A two-player position: the stones of the player to move, and all stones.

    Columns are counted from 0. Unlike :class:`~connect_four.engine.game.Game`, a
    position does not stop at a win: it is the solver's scratch board, and
    the solver never plays past one. Ask :meth:`is_winning_move` first.
    :func:`connect_four.engine.convert.to_position` makes one from a game.

    >>> position = Position.from_moves([3, 3, 4, 4, 5, 5])
    >>> position.is_winning_move(2), position.is_winning_move(6), position.can_win_next()
    (True, True, True)
    >>> position.moves
    6
    """

    __slots__ = ("layout", "current", "mask", "moves")

    def __init__(self, rules: Rules | None = None) -> None:
        """An empty board of ``rules`` (the CS110 5 x 8 board by default)."""
        self.layout: Layout = layout(rules if rules is not None else Rules())
        self.current: Bitboard = 0
        """The stones of the player to move."""
        self.mask: Bitboard = 0
        """Every stone on the board."""
        self.moves: int = 0
        """How many stones have been played."""

    # --- Construction -----------------------------------------------------

    @classmethod
    def from_moves(cls, moves: Iterable[int], rules: Rules | None = None) -> Position:
        """Play ``moves`` (columns from 0) from the empty board.

        >>> Position.from_moves([0, 0], Rules(rows=2, columns=2, connect=2)).key()
        4

        Raises:
            ColumnOutOfRangeError, ColumnFullError: a move cannot be played.
        """
        position = cls(rules)
        for column in moves:
            position.play(column)
        return position

    def copy(self) -> Position:
        """An independent position equal to this one."""
        other = Position.__new__(Position)
        other.layout = self.layout
        other.current = self.current
        other.mask = self.mask
        other.moves = self.moves
        return other

    # --- Questions ----------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules of the board."""
        return self.layout.rules

    def key(self) -> int:
        """A number unique to this position: ``current + mask``.

        In each column ``mask`` is ``2**h - 1`` for a column of height ``h``
        and ``current`` a subset of it, so the sum lies in
        ``[2**h - 1, 2**(h+1) - 2]``: the height and the stones can be read
        back, and the sum never carries into the next column (the sentinel
        bit has room for it). Whose turn it is follows from the stone count.
        """
        return self.current + self.mask

    def can_play(self, column: int) -> bool:
        """Whether ``column`` is on the board and has a free cell.

        >>> Position(Rules(rows=1, columns=2, connect=1)).can_play(2)
        False
        """
        lay = self.layout
        return 0 <= column < lay.rules.columns and not self.mask & lay.top_masks[column]

    def legal_moves(self) -> list[int]:
        """The playable columns, left to right."""
        top_masks, mask = self.layout.top_masks, self.mask
        return [c for c, top in enumerate(top_masks) if not mask & top]

    def possible(self) -> Bitboard:
        """The cell each playable column would fill next, as one mask.

        Adding the bottom row to ``mask`` carries up each column to its
        first empty cell; a full column carries into the sentinel, which the
        board mask drops.
        """
        lay = self.layout
        return (self.mask + lay.bottom_mask) & lay.board_mask

    def is_full(self) -> bool:
        """Whether every cell holds a stone."""
        return self.mask == self.layout.board_mask

    def is_won(self) -> bool:
        """Whether the player who moved last has a winning chain."""
        return self.layout.has_chain(self.current ^ self.mask)

    def winning_cells(self) -> Bitboard:
        """The empty cells that would win for the player to move."""
        return self.layout.winning_cells(self.current, self.mask)

    def opponent_winning_cells(self) -> Bitboard:
        """The empty cells that would win for the player who moved last."""
        return self.layout.winning_cells(self.current ^ self.mask, self.mask)

    def can_win_next(self) -> bool:
        """Whether the player to move has a winning move now."""
        return bool(self.winning_cells() & self.possible())

    def is_winning_move(self, column: int) -> bool:
        """Whether playing ``column`` now wins for the player to move.

        Raises:
            ColumnOutOfRangeError: ``column`` is not a column of the board.
        """
        self._check_column(column)
        return bool(self.winning_cells() & self.possible() & self.layout.column_masks[column])

    def non_losing_moves(self) -> Bitboard:
        """The moves (as cells) that do not let the opponent win at once.

        Only meaningful when the player to move cannot win now. The rule is
        :func:`non_losing_cells`, the searches' own.
        """
        return non_losing_cells(self.possible(), self.opponent_winning_cells())

    def non_losing_columns(self) -> list[int]:
        """The columns of :meth:`non_losing_moves`, left to right."""
        cells = self.non_losing_moves()
        return [c for c, col in enumerate(self.layout.column_masks) if cells & col]

    # --- Playing -------------------------------------------------------------

    def play(self, column: int) -> None:
        """Drop a stone of the player to move into ``column`` and pass the turn.

        Raises:
            ColumnOutOfRangeError: ``column`` is not a column of the board.
            ColumnFullError: ``column`` has no free cell.
        """
        self._check_column(column)
        lay = self.layout
        if self.mask & lay.top_masks[column]:
            raise ColumnFullError(f"column {column} is full after {self.moves} moves")
        self.play_cell((self.mask + lay.bottom_masks[column]) & lay.column_masks[column])

    def play_cell(self, cell: Bitboard) -> None:
        """Play the stone ``cell`` (one bit of :meth:`possible`); not checked.

        Swapping ``current`` for the opponent's stones passes the turn.
        """
        self.current ^= self.mask
        self.mask |= cell
        self.moves += 1

    def _check_column(self, column: int) -> None:
        check_on_board(column, self.layout.rules.columns)

    def __repr__(self) -> str:
        return (
            f"<Position {self.layout.rules!r} moves={self.moves} "
            f"current={self.current:#x} mask={self.mask:#x}>"
        )
