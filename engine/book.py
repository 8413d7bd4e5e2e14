"""Exact scores of opening positions, read from a data file on first use.

An opening book holds the exact score (Pons' convention, see
:mod:`connect_four.engine.score`) of every position it knows, keyed by the smaller of
the position's :meth:`~connect_four.engine.bitboard.Position.key` and its mirror image's:
a position and its left-right mirror have the same score, so one entry
serves both. Positions where the player to move wins at once are left out;
their score follows from the move count alone.

The file (``engine/data/book-<rows>x<columns>-connect<k>.bin``) is::

    header   "C4BOOK2\\n", then rows, columns, connect, max_ply (4 bytes),
             then the entry count (4 bytes, little-endian)
    payload  zlib of: the keys, sorted, 8 bytes each, little-endian,
             then the scores, 1 signed byte each, in the same order,
             then the recorded moves, 1 byte each (255: none)

The shipped books hold the positions a perfect computer meets, playing
first or second, with the move it plays in each (``tools/book_tree.py``
says which and why; ``tools/make_book.py`` computes them). A lookup is a
binary search in the key array: no dict of millions of
entries to build, and the array loads in milliseconds. Nothing here is
imported, let alone read, until a computer or a hint asks for a score, so
the terminal game's start-up never pays for it.
"""

from __future__ import annotations

import itertools
import operator
import struct
import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Mapping
from pathlib import Path

from .bitboard import Position
from .errors import BookFormatError, EngineError
from .rules import Rules
from .score import forced_move, win_score, winning_move

__all__ = [
    "Book",
    "DATA_DIR",
    "best_move",
    "board_name",
    "book_path",
    "canonical_key",
    "load",
    "lookup",
    "mirror_key",
    "position_of_key",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
"""Where the shipped books live (package data of ``engine``)."""

_MAGIC = b"C4BOOK2\n"
_HEADER = struct.Struct("<8sBBBBI")
_ENTRY_BYTES = 10
"""Key, score and move."""
_NO_MOVE = 255
"""The move byte of an entry that records no move."""


# === Keys ====================================================================


def mirror_key(key: int, rules: Rules) -> int:
    """The key of the left-right mirror image of the position whose key is ``key``.

    A key holds one field of ``rows + 1`` bits per column (see
    :meth:`~connect_four.engine.bitboard.Position.key`); mirroring reverses their order.

    >>> rules = Rules(rows=6, columns=7)
    >>> mirror_key(Position.from_moves([0], rules).key(), rules) == Position.from_moves([6], rules).key()
    True
    """
    height = rules.rows + 1
    field = (1 << height) - 1
    last = rules.columns - 1
    mirrored = 0
    for column in range(rules.columns):
        mirrored |= ((key >> (column * height)) & field) << ((last - column) * height)
    return mirrored


def canonical_key(position: Position) -> int:
    """The book key of ``position``: the smaller of its key and its mirror's.

    >>> rules = Rules(rows=6, columns=7)
    >>> canonical_key(Position.from_moves([0, 1], rules)) == canonical_key(Position.from_moves([6, 5], rules))
    True
    """
    key = position.key()
    return min(key, mirror_key(key, position.rules))


def position_of_key(key: int, rules: Rules) -> Position:
    """The position whose :meth:`~connect_four.engine.bitboard.Position.key` is ``key``.

    >>> position_of_key(Position.from_moves([3, 3, 4]).key(), Rules()).moves
    3

    In each column's field the key is ``current + mask`` with ``mask`` the
    ``h`` lowest bits (``h`` stones), so the field lies in ``[2**h - 1,
    2**(h+1) - 2]``: one more than it has its highest bit at ``h``.
    """
    position = Position(rules)
    height = rules.rows + 1
    field = (1 << height) - 1
    current = mask = stones = 0
    for column in range(rules.columns):
        value = (key >> (column * height)) & field
        count = (value + 1).bit_length() - 1
        column_mask = (1 << count) - 1
        mask |= column_mask << (column * height)
        current |= (value - column_mask) << (column * height)
        stones += count
    position.current, position.mask, position.moves = current, mask, stones
    return position


# === The book ================================================================


class Book:
    """The exact scores of a set of positions of one board, looked up by position.

    >>> rules = Rules(rows=6, columns=7)
    >>> start = Position(rules)
    >>> book = Book(rules, 0, {canonical_key(start): 1}, {canonical_key(start): 3})
    >>> book.score(start), book.score(Position.from_moves([3], rules)), book.move(start)
    (1, None, 3)

    ``max_ply`` is the largest number of stones of a position in the book;
    the book does not promise to hold every position up to it. Some entries
    also record a move achieving the score (in the orientation of the
    canonical key): the move the computer plays there, so that it stays
    inside the part of the game tree the book covers.
    """

    __slots__ = ("rules", "max_ply", "keys", "scores", "moves")

    def __init__(
        self,
        rules: Rules,
        max_ply: int,
        scores: Mapping[int, int],
        moves: Mapping[int, int] | None = None,
    ) -> None:
        """A book of ``scores`` (canonical key to exact score) and ``moves`` (key to column).

        Raises:
            BookFormatError: the board is too big for 64-bit keys, a score
                does not fit a signed byte, or a move is not a column of a
                position of the book.
        """
        _check_board(rules)
        moves = moves or {}
        if not set(moves) <= set(scores):
            raise BookFormatError("a move is recorded for a position without a score")
        if any(not 0 <= column < rules.columns for column in moves.values()):
            raise BookFormatError(f"a recorded move is not a column of {rules!r}")
        self.rules = rules
        self.max_ply = max_ply
        ordered = sorted(scores)
        self.keys = array("Q", ordered)
        try:
            self.scores = array("b", (scores[key] for key in ordered))
        except OverflowError as error:
            raise BookFormatError(f"a score does not fit a signed byte: {error}") from None
        self.moves = bytes(moves.get(key, _NO_MOVE) for key in ordered)

    def __len__(self) -> int:
        return len(self.keys)

    def __repr__(self) -> str:
        return f"<Book {self.rules!r} max_ply={self.max_ply} entries={len(self)}>"

    def entries(self) -> dict[int, int]:
        """Every score, canonical key to score."""
        return dict(zip(self.keys, self.scores, strict=True))

    def recorded_moves(self) -> dict[int, int]:
        """Every recorded move, canonical key to column (canonical orientation)."""
        return {
            key: move for key, move in zip(self.keys, self.moves, strict=True) if move != _NO_MOVE
        }

    def _index(self, key: int) -> int | None:
        keys = self.keys
        index = bisect_left(keys, key)
        if index < len(keys) and keys[index] == key:
            return index
        return None

    def score_of_key(self, key: int) -> int | None:
        """The score stored under the canonical ``key``, or None."""
        index = self._index(key)
        return None if index is None else self.scores[index]

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` for the player to move, or None if unknown.

        A position whose player to move wins at once is scored without the
        book. Positions of other rules, or with more stones than
        ``max_ply``, are unknown.
        """
        if position.rules != self.rules:
            return None
        if position.can_win_next():
            return win_score(self.rules.cells, position.moves)
        if position.moves > self.max_ply:
            return None
        return self.score_of_key(canonical_key(position))

    def move(self, position: Position) -> int | None:
        """The move recorded for ``position`` (a column of it, from 0), or None."""
        if position.rules != self.rules or position.moves > self.max_ply:
            return None
        key = position.key()
        mirrored = mirror_key(key, self.rules)
        index = self._index(min(key, mirrored))
        if index is None or self.moves[index] == _NO_MOVE:
            return None
        column = self.moves[index]
        return column if key <= mirrored else self.rules.columns - 1 - column

    # --- Files ----------------------------------------------------------------

    def write(self, path: Path) -> None:
        """Write the book to ``path`` in the format of the module docstring."""
        keys = array("Q", self.keys)
        if sys.byteorder == "big":
            keys.byteswap()
        rules = self.rules
        header = _HEADER.pack(
            _MAGIC, rules.rows, rules.columns, rules.connect, self.max_ply, len(keys)
        )
        payload = zlib.compress(keys.tobytes() + self.scores.tobytes() + self.moves, 9)
        path.write_bytes(header + payload)

    @classmethod
    def read(cls, path: Path) -> Book:
        """The book in the file ``path``.

        Raises:
            OSError: the file cannot be read.
            BookFormatError: the file is not a valid book.
        """
        data = path.read_bytes()
        if len(data) < _HEADER.size:
            raise BookFormatError(f"{path} is too short to be a book ({len(data)} bytes)")
        magic, rows, columns, connect, max_ply, count = _HEADER.unpack_from(data)
        if magic != _MAGIC:
            raise BookFormatError(f"{path} is not a book (starts {magic!r})")
        try:
            rules = Rules(rows, columns, connect)
            payload = zlib.decompress(data[_HEADER.size :])
        except (EngineError, zlib.error) as error:
            raise BookFormatError(f"{path} is damaged: {error}") from None
        if len(payload) != _ENTRY_BYTES * count:
            raise BookFormatError(
                f"{path} should hold {count} entries ({_ENTRY_BYTES * count} bytes), "
                f"holds {len(payload)} bytes"
            )
        _check_board(rules)
        keys = array("Q")
        keys.frombytes(payload[: 8 * count])
        if sys.byteorder == "big":
            keys.byteswap()
        scores = array("b")
        scores.frombytes(payload[8 * count : 9 * count])
        moves = payload[9 * count :]
        if not all(map(operator.lt, keys, itertools.islice(keys, 1, None))):
            raise BookFormatError(f"{path} has keys out of order")
        if any(move != _NO_MOVE and move >= columns for move in set(moves)):
            raise BookFormatError(f"{path} records a move off the board")
        book = cls.__new__(cls)
        book.rules, book.max_ply = rules, max_ply
        book.keys, book.scores, book.moves = keys, scores, moves
        return book


def _check_board(rules: Rules) -> None:
    if rules.columns * (rules.rows + 1) > 64:
        raise BookFormatError(
            f"keys of a {rules.rows} x {rules.columns} board need more than 64 bits"
        )


# === Shipped books, loaded on first use ======================================


def board_name(rules: Rules) -> str:
    """The board's part of a book's file name (and of its build's folders).

    >>> board_name(Rules(rows=6, columns=7))
    '6x7-connect4'
    """
    return f"{rules.rows}x{rules.columns}-connect{rules.connect}"


def book_path(rules: Rules, directory: Path = DATA_DIR) -> Path:
    """Where the book of ``rules`` lives (whether or not it exists).

    >>> book_path(Rules()).name
    'book-5x8-connect4.bin'
    """
    return directory / f"book-{board_name(rules)}.bin"


_loaded: dict[Rules, Book | None] = {}


def load(rules: Rules) -> Book | None:
    """The shipped book of ``rules``, read once and then kept; None if there is none.

    Raises:
        BookFormatError: the shipped file is damaged.
    """
    if rules not in _loaded:
        path = book_path(rules, DATA_DIR)  # the global at call time, for tests
        _loaded[rules] = Book.read(path) if path.is_file() else None
    return _loaded[rules]


def lookup(position: Position) -> int | None:
    """The exact score of ``position`` from the shipped book, or None if it is not there."""
    book = load(position.rules)
    return None if book is None else book.score(position)


def best_move(
    position: Position,
    solve: Callable[[Position], int] | None = None,
    book: Book | None = None,
) -> tuple[int, int] | None:
    """``(column, score)``: a move achieving the exact score, found with the book.

    A move recorded in the book comes first. Otherwise, like
    :meth:`connect_four.engine.solver.Solver.best_move`, among equally good moves the one
    nearest the centre is chosen. Each move's score is the negated
    book score of the position after it. When the position is in the book
    but some of its children are not (the book's last ply), ``solve`` (an
    exact scorer such as ``Solver(rules).score``) scores them, nearest the
    centre first, until one achieves the book score; any exception it
    raises (a spent budget) passes through. None when the book does not
    know the position, or a child it does not know comes before the answer
    and ``solve`` is None.

    ``book`` defaults to the shipped book of the position's rules.

    Raises:
        BookFormatError: no move achieves the book's score (a wrong book).
    """
    if book is None:
        book = load(position.rules)
        if book is None:
            return None
    won = winning_move(position)
    if won is not None:
        return won
    score = book.score(position)
    if score is None:
        return None
    recorded = book.move(position)
    if recorded is not None:
        return recorded, score
    forced = forced_move(position)
    if forced is not None:
        return forced, score
    lay = position.layout
    safe = position.non_losing_moves()
    for column in lay.centre_first:
        if not safe & lay.column_masks[column]:
            continue
        child = position.copy()
        child.play(column)
        child_score = _child_score(child, book)
        if child_score is None:
            if solve is None:
                return None
            child_score = solve(child)
        if -child_score == score:
            return column, score
    raise BookFormatError(f"no move achieves the book score {score} in {position!r}")


def _child_score(child: Position, book: Book) -> int | None:
    """The score of a position reached by a move that did not win: full board is a draw."""
    if child.is_full():
        return 0
    return book.score(child)
