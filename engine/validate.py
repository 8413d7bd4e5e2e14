"""The checks every public entry of the engine makes on the numbers it is given.

A count, a column or a level must be an ``int``, and not a ``bool``: bool is
an int subclass, but ``True`` rows or column ``False`` are nonsense, not 1
and 0. An index off the board gets the same message wherever it is caught.
"""

from __future__ import annotations

from .errors import ColumnOutOfRangeError

# Imported for type checkers only: the terminal game's start-up stays lean.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeGuard

__all__ = ["check_on_board", "is_int", "off_board"]


def is_int(value: object) -> TypeGuard[int]:
    """Whether ``value`` is an int and not a bool.

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def off_board(shown: str, count: int, what: str = "column") -> ColumnOutOfRangeError:
    """The error for the ``what`` (column or row) shown as ``shown``, not one of the board's ``count``.

    >>> off_board("8", 8)
    ColumnOutOfRangeError('column 8 is not on the board (0-7)')
    """
    return ColumnOutOfRangeError(f"{what} {shown} is not on the board (0-{count - 1})")


def check_on_board(index: object, count: int, what: str = "column") -> int:
    """``index`` if it is an int from 0 to ``count - 1``: a column (or row) of the board.

    >>> check_on_board(2, 8)
    2
    >>> check_on_board(True, 8)
    Traceback (most recent call last):
      ...
    connect_four.engine.errors.ColumnOutOfRangeError: column True is not on the board (0-7)

    Raises:
        ColumnOutOfRangeError: it is not; the message shows its repr.
    """
    if not is_int(index) or not 0 <= index < count:
        raise off_board(repr(index), count, what)
    return index
