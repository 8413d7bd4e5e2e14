"""Reading and writing columns and move records as text.

A move record lists the columns dropped into, from 0, separated by commas:
``"3,3,4"``. On boards of at most ten columns, where every column is one
digit, the commas may be left out: ``"334"``.
"""

from __future__ import annotations

from .errors import MoveSyntaxError
from .rules import Rules
from .validate import off_board

__all__ = ["DIGIT_COLUMNS", "parse_column", "parse_moves", "format_moves"]

DIGIT_COLUMNS = 10
"""The most columns a board may have for its move record to be bare digits ("334"):
each column one digit."""

_ASCII_DIGITS = frozenset("0123456789")


def parse_column(text: str, rules: Rules) -> int:
    """Read one column number exactly as a player must type it.

    Only plain ASCII decimal digits without a sign, spaces or leading zeros
    are a column number: ``"3"`` is, ``" 3"``, ``"03"``, ``"3.0"`` and
    ``"²"`` are not.

    >>> parse_column("7", Rules())
    7
    >>> parse_column("03", Rules())
    Traceback (most recent call last):
      ...
    connect_four.engine.errors.MoveSyntaxError: '03' is not a column number

    Raises:
        MoveSyntaxError: the text is not a column number.
        ColumnOutOfRangeError: the number is not a column of the board.
    """
    if not text or not _ASCII_DIGITS.issuperset(text) or (len(text) > 1 and text[0] == "0"):
        raise MoveSyntaxError(f"{text!r} is not a column number")
    # Bound the length before int(): a thousand digits are no column either.
    if len(text) > len(str(rules.columns - 1)) or int(text) >= rules.columns:
        raise off_board(text, rules.columns)  # shown as typed, digits only
    return int(text)


def parse_moves(text: str, rules: Rules) -> list[int]:
    """Read a move record into a list of columns; spaces around commas are allowed.

    This checks that each entry is a column of the board, not that the
    moves can be played one after the other: replay them for that.

    >>> parse_moves("3, 3,4", Rules())
    [3, 3, 4]
    >>> parse_moves("334", Rules())
    [3, 3, 4]
    >>> parse_moves("", Rules())
    []

    Raises:
        MoveSyntaxError: an entry is not a column number.
        ColumnOutOfRangeError: an entry is not a column of the board.
    """
    text = text.strip()
    if not text:
        return []
    if "," in text or rules.columns > DIGIT_COLUMNS:
        entries = [entry.strip() for entry in text.split(",")]
    else:
        entries = list(text)
    return [parse_column(entry, rules) for entry in entries]


def format_moves(moves: list[int]) -> str:
    """Write columns as a move record that :func:`parse_moves` reads back.

    >>> format_moves([3, 3, 4])
    '3,3,4'
    """
    return ",".join(str(column) for column in moves)
