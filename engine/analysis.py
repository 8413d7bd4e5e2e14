"""The analysis API: exact where the book or the budget allows, the heuristic where not.

:func:`solve` answers exactly or gives up; :func:`analyse` answers from the
opening book where it holds the position, else tries the exact search on
part of its budget and falls back to the deepening heuristic search on the
rest, saying in its :class:`Analysis` which one answered. Budgets are spent
as nodes (see :mod:`connect_four.engine.budget`): about 80 times more of them for the
compiled search, which is that much faster (see
:func:`connect_four.engine.accelerator.nodes_per_second`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .accelerator import nodes_per_second, runs_native
from .bitboard import Position
from .budget import deadline_for, now
from .convert import to_position
from .errors import GameOverError, SearchAborted
from .exact import Solver
from .game import Game
from .heuristic import HEURISTIC_NODES_PER_SECOND, Heuristic, from_heuristic
from .rules import Rules
from .table import table_size_for

__all__ = ["Analysis", "analyse", "deepen", "position_of", "solve"]


@dataclass(frozen=True)
class Analysis:
    """What a search found: a move, its score, and how much to trust them.

    ``exact`` True: ``score`` is the exact score in Pons' convention (see
    the docstring of :mod:`connect_four.engine.exact`) and ``move`` achieves it; ``depth`` is None when
    the exact solver answered, or the horizon of the heuristic search that
    proved a win or loss (every line it searched ended within it).
    ``exact`` False: the position was too big for the budget; ``score`` is a
    heuristic estimate (positive favours the player to move, units are
    arbitrary) from a search ``depth`` moves deep. ``move`` is None only when
    no move can be played. ``explored`` counts the positions searched.
    """

    move: int | None
    score: int
    exact: bool
    depth: int | None
    explored: int


_EXACT_SHARE = 1 / 3
"""The part of analyse()'s budget that the pure-Python exact attempt may spend."""

_NATIVE_EXACT_SHARE = 0.9
"""The same for the compiled search: with 24 million nodes a second of
budget (0.9 of :data:`~connect_four.engine.budget.NATIVE_NODES_PER_SECOND`)
it settles every 6 x 7 and 5 x 8 position past the opening book's frontier
(the book holds those harder than 4 million nodes), so the heuristic is
rarely needed. Wider boards (128-bit search) get the same share of their
lower rate."""

_EXACT_MAX_EMPTY = 64
"""Positions with more empty cells skip the exact attempt: it could not end."""


def position_of(game: Game) -> Position:
    """The bitboard of a game the solver can search.

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    if game.is_over():
        raise GameOverError(f"the game is over after {game.moves_string()!r}")
    return to_position(game)


def _from_book(position: Position) -> Analysis | None:
    """The opening book's move and exact score, if the book of these rules holds them."""
    from .book import best_move  # here: only a computer or a hint loads the book

    found = best_move(position)
    return None if found is None else Analysis(found[0], found[1], True, None, 0)


def _exact_budget(rules: Rules) -> tuple[int, float]:
    """Exact-search nodes per second of budget, and the share analyse() gives it."""
    share = _NATIVE_EXACT_SHARE if runs_native(rules) else _EXACT_SHARE
    return nodes_per_second(rules), share


def solve(
    game: Game,
    *,
    time_budget: float | None = None,
    time_limit: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
) -> Analysis:
    """The exact score of ``game`` for the player to move, and a move achieving it.

    >>> solve(Game.from_moves("0,1,0,1,0,1", Rules(rows=6, columns=7)))
    Analysis(move=0, score=18, exact=True, depth=None, explored=0)

    ``time_budget`` (seconds of search on a quiet machine) caps the work
    as a node budget; ``time_limit`` (seconds) caps the wall-clock time.
    Without either the search runs until it ends, which may be hours on an
    early 6 x 7 position outside the opening book.

    ``threads`` and ``table_size`` go to the :class:`Solver` (see
    :func:`analyse` for what threads give up); ``table_size`` (slots, the
    default :data:`~connect_four.engine.table.TABLE_SIZE` when None) is the upper limit of
    the table the node budget sizes, and the table of a search without one.

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
        SearchAborted: a budget or limit ran out first, or the board has
            more empty cells than Python's recursion limit allows.
    """
    position = position_of(game)
    known = _from_book(position)
    if known is not None:
        return known
    start = now()
    rate, _ = _exact_budget(game.rules)
    node_limit = None if time_budget is None else max(1, int(time_budget * rate))
    solver = Solver(game.rules, table_size=_table_size(node_limit, table_size), threads=threads)
    solver.node_limit = node_limit
    if time_budget is not None:
        solver.deadline = deadline_for(start, time_budget, time_limit)
    elif time_limit is not None:
        solver.deadline = start + time_limit
    try:
        move, score = solver.best_move(position)
        explored = solver.explored
    finally:
        solver.reset()  # give the table's memory back now, not at the next collection
    return Analysis(move, score, True, None, explored)


def analyse(
    game: Game,
    *,
    time_budget: float = 1.0,
    time_limit: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
) -> Analysis:
    """The best move found for the player to move with ``time_budget`` of work.

    ``time_budget`` is seconds of search on a quiet machine, spent as node
    budgets: first the opening book, then an exact search, given a third of
    it (nine tenths with the compiled search); if that cannot finish, a
    heuristic search deepened one move at a time while the rest lasts (the
    first depth always completes, so a move always comes back).
    The result says which answered. The same position and budget give the
    same answer however busy the machine, unless it is more than
    :data:`SAFETY_FACTOR` times slower than the budget assumes.

    ``time_limit``, when given, is a hard limit in seconds of wall-clock
    time: the exact attempt may use a third of it, and the heuristic stops
    at the limit with its deepest completed answer (``bench/move_time.py``
    measures the overshoot). The answer then depends on the machine's speed.

    ``threads`` (1 by default) searches the exact attempt with that many
    threads on one table (:class:`Solver`): its score and move stay exact,
    but the positions it searches vary from run to run, all threads' counted
    against the node budget. One thread keeps every answer reproducible;
    with more, a search that ends near its budget may finish on one run and
    not on another, and the answer (exact or the heuristic's) may differ.
    ``table_size`` bounds the table as in :func:`solve`.

    >>> analyse(Game.from_moves("3,3,4,4", Rules(rows=6, columns=7))).score
    18
    >>> analysis = analyse(Game(Rules(rows=20, columns=20, connect=5)), time_budget=0.05)
    >>> analysis.exact, analysis.move
    (False, 9)

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    position = position_of(game)
    known = _from_book(position)
    if known is not None:
        return known
    start = now()
    deadline = deadline_for(start, time_budget, time_limit)
    explored = 0
    cells = game.rules.cells
    rate, exact_share = _exact_budget(game.rules)
    if cells - position.moves <= _EXACT_MAX_EMPTY:
        node_limit = max(1, int(time_budget * exact_share * rate))
        solver = Solver(game.rules, table_size=_table_size(node_limit, table_size), threads=threads)
        solver.deadline = start + (deadline - start) * exact_share
        solver.node_limit = node_limit
        try:
            move, score = solver.best_move(position)
        except SearchAborted:
            explored = solver.explored
        else:
            return Analysis(move, score, True, None, solver.explored)
        finally:
            solver.reset()
    heuristic_share = 1 - exact_share
    return deepen(position, time_budget * heuristic_share, deadline, explored, None)


def _table_size(node_limit: int | None, most: int | None) -> int:
    """The slots of a search of ``node_limit`` positions, at most ``most`` (the default when None)."""
    return table_size_for(node_limit) if most is None else table_size_for(node_limit, most=most)


def deepen(
    position: Position,
    node_budget_seconds: float,
    deadline: float,
    explored: int,
    max_depth: int | None,
    rng: random.Random | None = None,
) -> Analysis:
    """Iterative deepening of the heuristic search until a budget runs out.

    Depth 1 always completes, then 2, 4, 6... With ``rng``, ties among the best moves of the
    deepest completed search are broken at random; without, the one nearest
    the centre is taken.
    """
    heuristic = Heuristic(position.rules)
    cells = position.rules.cells
    empty = cells - position.moves
    limit = empty if max_depth is None else min(max_depth, empty)
    heuristic.explored = explored
    tied = heuristic.root_values(position, 1)
    depth = 1
    nodes = max(1, int(node_budget_seconds * HEURISTIC_NODES_PER_SECOND))
    heuristic.node_limit = heuristic.explored + nodes
    heuristic.deadline = deadline
    while depth < limit and not from_heuristic(tied[0][0], cells)[1]:
        # Even depths only after the first: a horizon where the opponent is to
        # move misjudges threats, and measured weaker than one ply less.
        target = min(limit, depth + 1 if depth == 1 else depth + 2)
        try:
            deeper = heuristic.root_values(position, target)
        except SearchAborted:
            break
        tied, depth = deeper, target
    value, column = tied[0] if rng is None else rng.choice(tied)
    score, exact = from_heuristic(value, cells)
    return Analysis(column, score, exact, depth, heuristic.explored)
