"""Perfect play where it fits the time, good play where it does not, and levels.

The exact search follows the ideas of Pascal Pons' tutorial "Solving
Connect 4" (negamax, alpha-beta, transposition table, null-window
iteration, threat-based move ordering, loss-avoiding move filter,
lower-bound entries), written for any board size and chain length.

Scores follow Pons' convention, for the player to move, assuming both sides
play perfectly (the winner as fast as possible, the loser as slowly):

* 0: a draw.
* positive: the player to move wins; the score is 1 plus the number of
  stones the winner would still have had to play had the board been filled,
  that is ``(cells + 2 - N) // 2`` where ``N`` is the number of stones on
  the board after the winning one. On 7 x 6 this is ``22 - stones the
  winner placed``, exactly Pons' numbers; on any board a win with your very
  last stone scores 1 and a win at once after ``n`` moves scores
  ``(cells + 1 - n) // 2``.
* negative: the player to move loses; minus the winner's score.

Too big to solve in the time allowed, :func:`analyse` falls back to a
depth-limited search with a heuristic (threats and well-placed stones),
deepened while the budget lasts, and says so in :class:`Analysis`.

Every search stops on a node budget derived from the time budget
(``time_budget * NODES_PER_SECOND``), so the same position and budget always
give the same answer; the clock is checked too, every few thousand nodes,
as a hard stop on a slow or busy machine.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from .bitboard import Layout, Position, UnsupportedGameError, layout
from .errors import EngineError, GameOverError
from .game import Game
from .rules import Rules

__all__ = [
    "LEVELS",
    "NODES_PER_SECOND",
    "Analysis",
    "LevelError",
    "SearchAborted",
    "Solver",
    "analyse",
    "choose_move",
    "solve",
]

NODES_PER_SECOND = 40_000
"""Search nodes one second of budget buys: below what CPython does here on
7 x 6, so the node budget, not the clock, normally ends a search."""

_CHECK_EVERY = 2048
"""Nodes between two looks at the clock and the table size."""

_TABLE_LIMIT = 1 << 21
"""Transposition-table entries kept before the table is emptied."""


class LevelError(EngineError):
    """A computer level that does not exist was asked for."""


class SearchAborted(EngineError):
    """An exact search ran out of its node or time budget before it finished."""


# === Results =================================================================


@dataclass(frozen=True)
class Analysis:
    """What a search found: a move, its score, and how much to trust them.

    ``exact`` True: ``score`` is the exact score in Pons' convention (see
    the module docstring) and ``move`` achieves it; ``depth`` is None.
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


# === Exact solver ============================================================


class Solver:
    """An exact negamax solver for one board size, with its transposition table.

    >>> solver = Solver(Rules(rows=6, columns=7))
    >>> solver.score(Position.from_moves([3, 3, 4, 4, 5, 5], solver.rules))
    18
    >>> solver.best_move(Position.from_moves([3, 3, 4, 4], solver.rules))
    (2, 18)

    The table is a dict keyed by :meth:`Position.key`, emptied when it
    passes ``table_limit`` entries. In CPython a dict lookup beats a
    fixed-size list indexed by ``key % prime`` (which needs the key stored
    beside the value to detect collisions, and is slow to reset).
    ``explored`` counts the positions searched since the last :meth:`reset`.
    """

    def __init__(self, rules: Rules, *, table_limit: int = _TABLE_LIMIT) -> None:
        """A solver with an empty table for boards of ``rules``."""
        self.rules = rules
        self.layout: Layout = layout(rules)
        self.table: dict[int, int] = {}
        self.table_limit = table_limit
        self.explored = 0
        self.node_limit: int | None = None
        """Stop (raise SearchAborted) after this many explored positions."""
        self.deadline: float | None = None
        """Stop (raise SearchAborted) once time.monotonic() passes this."""
        self._negamax = self._build_negamax()

    def reset(self) -> None:
        """Empty the transposition table and zero the explored count."""
        self.table.clear()
        self.explored = 0

    # --- Public searches -----------------------------------------------------

    def score(self, position: Position) -> int:
        """The exact score of ``position`` for the player to move.

        Null-window searches narrow ``[lower, upper]`` until they meet, each
        probe asking only "is the score above ``middle``?", which prunes far
        more than one wide search. Probes lean towards 0 first, where most
        scores lie.

        Raises:
            GameOverError: the position is already won or the board is full.
            SearchAborted: the node or time budget ran out.
        """
        self._check_playable(position)
        cells, moves = self.layout.rules.cells, position.moves
        current, mask = position.current, position.mask
        if position.can_win_next():
            return (cells + 1 - moves) // 2
        lower = -((cells - moves) // 2)
        upper = (cells + 1 - moves) // 2
        threats = self.layout.winning_cells(current ^ mask, mask)
        negamax = self._negamax
        while lower < upper:
            middle = lower + (upper - lower) // 2
            if middle <= 0 and _half(lower) < middle:
                middle = _half(lower)
            elif middle >= 0 and _half(upper) > middle:
                middle = _half(upper)
            result = negamax(current, mask, moves, middle, middle + 1, threats)
            if result <= middle:
                upper = result
            else:
                lower = result
        return lower

    def best_move(self, position: Position) -> tuple[int, int]:
        """A move that achieves the exact score, and that score: ``(column, score)``.

        Among equally good moves the one nearest the centre wins, so the
        answer is deterministic.

        Raises:
            GameOverError: the position is already won or the board is full.
            SearchAborted: the node or time budget ran out.
        """
        self._check_playable(position)
        lay = self.layout
        columns = lay.column_masks
        possible = position.possible()
        winning = position.winning_cells() & possible
        if winning:
            column = next(c for c in lay.centre_first if winning & columns[c])
            return column, (lay.rules.cells + 1 - position.moves) // 2
        score = self.score(position)
        safe = position.non_losing_moves()
        if not safe:
            # Every move loses at once: block one threat if we can, for form.
            blocks = possible & position.opponent_winning_cells()
            cells = blocks or possible
            return next(c for c in lay.centre_first if cells & columns[c]), score
        current, mask, moves = position.current, position.mask, position.moves
        for column in lay.centre_first:
            cell = safe & columns[column]
            if not cell:
                continue
            child_mask = mask | cell
            threats = lay.winning_cells(current | cell, child_mask)
            # The move achieves `score` iff the child scores at most -score.
            result = self._negamax(
                current ^ mask, child_mask, moves + 1, -score, -score + 1, threats
            )
            if result <= -score:
                return column, score
        raise AssertionError(f"no move achieves the score {score} in {position!r}")

    # --- Internals -----------------------------------------------------------

    def _check_playable(self, position: Position) -> None:
        if position.layout is not self.layout:
            raise UnsupportedGameError(
                f"the solver is for {self.rules!r}, the position for {position.rules!r}"
            )
        if position.is_won() or position.is_full():
            raise GameOverError(f"the game is over after {position.moves} moves")

    def _check_budget(self) -> int:
        """Raise SearchAborted when a budget is spent; return the next check."""
        if self.node_limit is not None and self.explored >= self.node_limit:
            raise SearchAborted(f"node budget of {self.node_limit} spent")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchAborted("time budget spent")
        if len(self.table) > self.table_limit:
            self.table.clear()
        next_check = self.explored + _CHECK_EVERY
        if self.node_limit is not None:
            next_check = min(next_check, self.node_limit)
        return next_check

    def _build_negamax(self) -> Callable[[int, int, int, int, int, int], int]:
        """The recursive search, as a closure over locals for CPython speed.

        ``negamax(current, mask, moves, alpha, beta, threats)`` returns the
        exact score if it lies in ``[alpha, beta]``, else a bound on the same
        side: at most alpha (fail low) or at least beta (fail high).
        ``threats`` are the winning cells of the player who just moved,
        already computed by the caller to order its moves. The caller
        guarantees the player to move cannot win at once (it only plays
        non-losing moves).

        Table entries are ``bound << 1``: an upper bound when the low bit is
        0 (every move failed low), a lower bound when it is 1 (a move failed
        high).
        """
        lay = self.layout
        solver = self
        table = self.table
        table_get = table.get
        winning_cells = lay.winning_cells
        bottom, board = lay.bottom_mask, lay.board_mask
        cells = lay.rules.cells
        ordered_columns = tuple(lay.column_masks[c] for c in lay.centre_first)
        next_check = 0

        def negamax(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            nonlocal next_check
            solver.explored += 1
            if solver.explored >= next_check:
                next_check = solver._check_budget()
            possible = (mask + bottom) & board
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    return -((cells - moves) // 2)  # two threats: lost next move
                possible = forced
            possible &= ~(threats >> 1)  # never play just below a threat
            if not possible:
                return -((cells - moves) // 2)
            if moves >= cells - 2:
                return 0
            lowest = -((cells - 2 - moves) // 2)  # the opponent cannot win next
            if alpha < lowest:
                alpha = lowest
                if alpha >= beta:
                    return alpha
            highest = (cells - 1 - moves) // 2  # we cannot win at once
            if beta > highest:
                beta = highest
                if alpha >= beta:
                    return beta
            key = current + mask
            entry = table_get(key)
            if entry is not None:
                bound = entry >> 1
                if entry & 1:
                    if alpha < bound:
                        alpha = bound
                        if alpha >= beta:
                            return alpha
                elif beta > bound:
                    beta = bound
                    if alpha >= beta:
                        return beta
            opponent = current ^ mask
            if possible & (possible - 1):
                # Several moves: try first those that make the most threats.
                children = []
                rank = 0
                for column_mask in ordered_columns:
                    cell = possible & column_mask
                    if cell:
                        child_mask = mask | cell
                        ours = winning_cells(current | cell, child_mask)
                        children.append((ours.bit_count(), rank, cell, ours))
                        rank -= 1
                children.sort(reverse=True)
                for _, _, cell, ours in children:
                    score = -negamax(opponent, mask | cell, moves + 1, -beta, -alpha, ours)
                    if score >= beta:
                        table[key] = (score << 1) | 1
                        return score
                    if score > alpha:
                        alpha = score
            else:
                child_mask = mask | possible
                ours = winning_cells(current | possible, child_mask)
                score = -negamax(opponent, child_mask, moves + 1, -beta, -alpha, ours)
                if score >= beta:
                    table[key] = (score << 1) | 1
                    return score
                if score > alpha:
                    alpha = score
            table[key] = alpha << 1
            return alpha

        def start(
            current: int, mask: int, moves: int, alpha: int, beta: int, threats: int
        ) -> int:
            nonlocal next_check
            next_check = solver.explored  # look at the budget on the first node
            return negamax(current, mask, moves, alpha, beta, threats)

        return start


def _half(value: int) -> int:
    """``value / 2`` rounded towards zero, like C's integer division."""
    return -((-value) // 2) if value < 0 else value // 2
