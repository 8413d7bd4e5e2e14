"""The computer's levels: from random play with an eye for a win up to perfect play."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

from .analysis import analyse, deepen, position_of
from .budget import deadline_for, now
from .errors import LevelError
from .game import Game
from .rules import Rules  # noqa: F401 (the doctests use it)
from .validate import is_int

__all__ = ["LEVELS", "choose_move"]


LEVELS: Mapping[int, str] = MappingProxyType(
    {
        1: "beginner: wins when it can, otherwise plays at random",
        2: "casual: also blocks a win in one and avoids handing one over",
        3: "club: looks two moves ahead",
        4: "strong: looks four moves ahead",
        5: "perfect: plays exactly wherever the position can be solved in time",
    }
)
"""The computer levels, weakest first, with what each one does."""


def choose_move(
    game: Game,
    level: int,
    *,
    rng: random.Random | None = None,
    time_budget: float = 1.0,
    time_limit: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
) -> int:
    """The column the computer plays at ``level`` (a key of :data:`LEVELS`).

    Every level takes a win in one. Randomness comes only from ``rng`` (a
    fresh unseeded generator when None), so a seeded ``rng`` replays a game
    exactly; the top level uses none. ``time_budget`` and ``time_limit``
    mean what they mean for :func:`analyse`: without a ``time_limit`` the
    move does not depend on how busy the machine is.

    ``threads`` and ``table_size`` go to the top level's exact search (see
    :func:`analyse`); the other levels search none. With one thread, the
    default, the same position, level and seed always get the same move.
    With more, the exact search's node counts vary from run to run: a
    position it settles well within the budget still gets the same move
    (the exact search breaks ties centre first), but one it settles near
    the budget may be settled on one run and left to the heuristic on
    another, whose move may differ.

    >>> game = Game.from_moves("0,6,0,6,0", Rules(rows=6, columns=7))
    >>> [choose_move(game, level, rng=random.Random(1)) for level in LEVELS]
    [1, 0, 0, 0, 0]

    Raises:
        LevelError: ``level`` is not a key of :data:`LEVELS`.
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    if not is_int(level) or level not in LEVELS:
        raise LevelError(f"level must be one of {sorted(LEVELS)}, got {level!r}")
    position = position_of(game)
    top = max(LEVELS)
    if level == top:
        move = analyse(
            game,
            time_budget=time_budget,
            time_limit=time_limit,
            threads=threads,
            table_size=table_size,
        ).move
        assert move is not None
        return move
    if rng is None:
        rng = random.Random()
    lay = position.layout
    possible = position.possible()

    def columns_of(cells: int) -> list[int]:
        return [c for c, column in enumerate(lay.column_masks) if cells & column]

    winning = position.winning_cells() & possible
    if winning:
        return rng.choice(columns_of(winning))
    if level == 1:
        return rng.choice(columns_of(possible))
    if level == 2:
        blocks = position.opponent_winning_cells() & possible
        return rng.choice(columns_of(blocks or position.non_losing_moves() or possible))
    depth = 2 if level == 3 else 4
    deadline = deadline_for(now(), time_budget, time_limit)
    analysis = deepen(position, time_budget, deadline, 0, depth, rng)
    assert analysis.move is not None
    return analysis.move
