"""The score of every playable column at once, as Pascal Pons' online solver shows it.

Each column's score is the exact score (Pons' convention, for the player
to move, see :mod:`connect_four.engine.solver`) of playing there, from the opening book,
the 12-stone database (6 x 7 with the ``database`` extra, see
:mod:`connect_four.engine.database`) or the exact search when one of them can tell in
time; otherwise a heuristic estimate, marked as such. With the database the
search of a 6 x 7 position stops at 12 stones, so every column of every
6 x 7 position is exact within the default budget (bench/analysis.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .accelerator import nodes_per_second, runs_native
from .bitboard import Position
from .book import Book, load
from .budget import deadline_for, now
from .convert import to_position
from .database import Database, database_for
from .errors import GameOverError, SearchAborted
from .game import Game
from .score import win_score
from .solver import Solver, analyse
from .table import TABLE_SIZE

__all__ = ["ColumnScore", "column_scores"]

_EXACT_SHARE = 2 / 3
"""The part of the budget the exact searches may spend before the estimates, in pure Python."""

_NATIVE_EXACT_SHARE = 0.9
"""The same for the compiled search, which settles most columns: the estimates'
own exact attempts start from empty tables, so a budget spent on them buys
less (on 5 x 8 at 8 stones, 51 columns of 64 exact instead of 45;
bench/analysis.py)."""

_PASSES: tuple[Callable[[int], int], ...] = (lambda nodes: nodes // 3, lambda nodes: nodes)
"""How far each pass over the unsettled columns may take the exact search, given
its whole node budget: a third shared by every column first, so that the
easy ones settle at once, then all that is left for those still unsettled
(a column's hard subtree would otherwise spend the shares of easy ones)."""


@dataclass(frozen=True)
class ColumnScore:
    """What playing one column is worth to the player to move.

    ``exact`` True: ``score`` is the exact score in Pons' convention
    (positive wins, the larger the sooner; 0 draws; negative loses).
    ``exact`` False: ``score`` is a heuristic estimate, positive when the
    move looks good for the player to move, in arbitrary units.

    >>> str(ColumnScore(3, True)), str(ColumnScore(0, True)), str(ColumnScore(-250, False))
    ('+3', '0', '~-250')
    """

    score: int
    exact: bool

    def __str__(self) -> str:
        if self.exact:
            return f"{self.score:+d}" if self.score else "0"
        return f"~{self.score:+d}"


def column_scores(
    game: Game,
    *,
    time_budget: float = 1.0,
    time_limit: float | None = None,
    threads: int = 1,
    table_size: int | None = None,
    solver: Solver | None = None,
) -> dict[int, ColumnScore]:
    """Each playable column (from 0) and its :class:`ColumnScore`, left to right.

    Moves that win, fill the board or let the opponent win at once are
    scored by rule; the others from the opening book or the database when
    either knows them, else by the exact search, which shares
    ``time_budget`` (seconds on a quiet machine, spent as node budgets like
    :func:`connect_four.engine.solver.analyse`) among the columns: each column's search
    may spend an equal part of what the searches before it left (a 12-stone
    6 x 7 position needs that: its columns' searches take up to 1.5 times an
    equal share). A column whose search does not end in its share gets a
    heuristic estimate instead. ``time_limit`` (seconds) caps the wall-clock
    time of all the searches together, as in ``analyse``.

    ``threads`` and ``table_size`` (slots, the default
    :data:`~connect_four.engine.table.TABLE_SIZE` when None) go to the exact search's
    :class:`Solver`, and to the estimates' :func:`analyse`. Exact scores are
    the same with any number of threads; with more than one (the default is
    one) the positions searched vary from run to run, so a column settled
    near its share of the budget may be exact on one run and an estimate on
    another. ``solver``, a :class:`Solver` of the game's rules, is searched
    with instead of a new one: its table carries over from call to call (a
    review passes one for all the positions of a game, which share subtrees,
    and the system then hands out the table's memory once).

    >>> from connect_four.engine.rules import Rules
    >>> scores = column_scores(Game.from_moves("3,3,4,4", Rules(rows=6, columns=7)))
    >>> scores[2], scores[5], len(scores)
    (ColumnScore(score=18, exact=True), ColumnScore(score=18, exact=True), 7)

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    if game.is_over():
        raise GameOverError(f"the game is over after {game.moves_string()!r}")
    start = now()
    position = to_position(game)
    rules = game.rules
    cells = rules.cells
    book = load(rules)
    database = database_for(rules)
    scores: dict[int, ColumnScore] = {}
    pending: list[tuple[int, Position]] = []
    for column in position.legal_moves():
        if position.is_winning_move(column):
            scores[column] = ColumnScore(win_score(cells, position.moves), True)
            continue
        child = position.copy()
        child.play(column)
        if child.is_full():
            scores[column] = ColumnScore(0, True)
        elif child.can_win_next():
            scores[column] = ColumnScore(-win_score(cells, child.moves), True)
        elif (known := _known_score(child, book, database)) is not None:
            scores[column] = ColumnScore(-known, True)
        else:
            pending.append((column, child))
    if pending:
        # A column scores at most the position's own score: where that is
        # known, each child's search starts from the bound it implies.
        known = _known_score(position, book, database)
        at_least = None if known is None else -known
        share = time_budget / len(pending)
        # One table for all: sibling positions share subtrees, and a column
        # searched again in the second pass starts from what the first found.
        if solver is None:
            solver = Solver(rules, table_size=table_size or TABLE_SIZE, threads=threads)
        solver.deadline = deadline_for(start, time_budget, time_limit)
        exact_share = _NATIVE_EXACT_SHARE if runs_native(rules) else _EXACT_SHARE
        nodes = max(len(pending), int(time_budget * exact_share * nodes_per_second(rules)))
        base = solver.explored
        unsettled = pending
        for spend in _PASSES:
            unsettled = _settle(solver, unsettled, base + spend(nodes), scores, at_least)
            if not unsettled or solver.explored - base >= nodes or now() >= solver.deadline:
                break
        for index, (column, _child) in enumerate(unsettled):
            child_game = game.copy()
            child_game.play(column)
            limit = None
            if time_limit is not None:  # the estimates share what the limit leaves
                left = start + time_limit - now()
                limit = max(left, 0.0) / (len(unsettled) - index)
            estimate = analyse(
                child_game,
                time_budget=share * (1 - exact_share),
                time_limit=limit,
                threads=threads,
                table_size=table_size,
            )
            scores[column] = ColumnScore(-estimate.score, estimate.exact)
    return dict(sorted(scores.items()))


def _known_score(position: Position, book: Book | None, database: Database | None) -> int | None:
    """The exact score of ``position``, if the book or the database holds it (the book first)."""
    for source in (book, database):
        if source is not None and (known := source.score(position)) is not None:
            return known
    return None


def _settle(
    solver: Solver,
    columns: list[tuple[int, Position]],
    node_limit: int,
    scores: dict[int, ColumnScore],
    at_least: int | None,
) -> list[tuple[int, Position]]:
    """Search each ``(column, child)`` exactly until ``solver.explored`` reaches ``node_limit``.

    Each search may spend an equal part of what the searches before it
    left; the exact scores go into ``scores`` and the columns whose search
    ran out are returned, in order. ``at_least`` is a score every child is
    known to reach (see :meth:`Solver.score`), or None.
    """
    unsettled: list[tuple[int, Position]] = []
    for index, (column, child) in enumerate(columns):
        solver.node_limit = solver.explored + max(
            1, (node_limit - solver.explored) // (len(columns) - index)
        )
        try:
            scores[column] = ColumnScore(-solver.score(child, at_least=at_least), True)
        except SearchAborted:
            unsettled.append((column, child))
    return unsettled
