"""An agent for Kaggle's ConnectX environment, playing the solver's top level.

Kaggle calls ``agent(observation, configuration)`` once per turn and plays
the column it returns. The observation holds ``board`` (the grid, flat, top
row first, 0 empty, 1 and 2 the players' marks, 1 moving first) and
``mark``; the configuration holds ``rows``, ``columns``, ``inarow`` and the
seconds a move may take (``actTimeout``, or ``timeout`` in older versions
of the environment). Either may be a dict or an object with attributes.

    >>> board = [0] * 42
    >>> for row in (3, 4, 5):  # the bottom three rows: 1 in column 0, 2 in column 1
    ...     board[row * 7 : row * 7 + 2] = [1, 2]
    >>> agent({"board": board, "mark": 1}, {"rows": 6, "columns": 7, "inarow": 4})
    0
"""

from __future__ import annotations

from collections.abc import Mapping
from time import monotonic
from typing import Any

from .errors import EngineError
from .game import Game
from .rules import Rules
from .solver import LEVELS, choose_move
from .validate import is_int

__all__ = ["DEFAULT_TIMEOUT", "SHARE_OF_TIMEOUT", "MARGIN", "agent", "thinking_time"]

DEFAULT_TIMEOUT = 2.0
"""Seconds a move may take when the configuration does not say (Kaggle's ``actTimeout``)."""

SHARE_OF_TIMEOUT = 0.6
"""The part of the configuration's time per move the agent spends thinking."""

MARGIN = 0.3
"""Seconds always left unspent: the search overshoots its hard limit by a
few milliseconds, and a loaded machine delays the answer's way back."""

_LEAST_THINKING = 0.02
"""Seconds of search the agent always allows itself, however short the timeout."""


def agent(observation: object, configuration: object) -> int:
    """The column to play for ``observation.mark`` on ``observation.board``.

    Any board size and chain length Kaggle allows are played, even boards
    nobody can win (3 x 3 with four in a row). The search stops within
    :func:`thinking_time` of the configuration's limit, counted from the
    call. A board that no game reaches, or that is already decided, still
    gets a legal column (the open one nearest the centre), never an error.
    """
    start = monotonic()
    board = _field(observation, "board", [])
    rows = _field(configuration, "rows", 6)
    columns = _field(configuration, "columns", 7)
    try:
        rules = Rules(rows, columns, _field(configuration, "inarow", 4), allow_unwinnable=True)
        game = Game.from_grid(board, rules)
        limit = thinking_time(_timeout(configuration)) - (monotonic() - start)
        return choose_move(
            game,
            max(LEVELS),
            time_budget=max(limit, _LEAST_THINKING),
            time_limit=max(limit, _LEAST_THINKING),
        )
    except EngineError:
        return _open_column_nearest_centre(board, columns)


def thinking_time(timeout: float) -> float:
    """Seconds of search allowed when a move may take ``timeout`` seconds.

    >>> thinking_time(2.0)
    1.2
    >>> thinking_time(0.25)
    0.02
    """
    return max(min(SHARE_OF_TIMEOUT * timeout, timeout - MARGIN), _LEAST_THINKING)


def _field(source: object, name: str, default: object) -> Any:
    """``source[name]`` for a mapping, ``source.name`` otherwise, or ``default``.

    Any: the values are Kaggle's, checked where they are used (Rules checks
    the sizes, Game.from_grid the board).
    """
    if isinstance(source, Mapping):
        return source.get(name, default)
    return getattr(source, name, default)


def _timeout(configuration: object) -> float:
    """The configuration's seconds per move: ``actTimeout``, else ``timeout``."""
    for name in ("actTimeout", "timeout"):
        value = _field(configuration, name, None)
        if (is_int(value) or isinstance(value, float)) and value > 0:
            return float(value)
    return DEFAULT_TIMEOUT


def _open_column_nearest_centre(board: Any, columns: Any) -> int:
    """A column whose top cell is empty, the centre first; 0 when none is."""
    try:
        top = list(board)[:columns]
    except TypeError:  # not a list, or columns not an int: nothing to go by
        return 0
    centre = (len(top) - 1) / 2
    for column in sorted(range(len(top)), key=lambda column: abs(column - centre)):
        if top[column] == 0:
            return column
    return 0
