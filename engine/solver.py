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
depth-limited search with a heuristic (open windows and threats),
deepened while the budget lasts, and says so in :class:`Analysis`.

Every search stops on a node budget derived from the time budget
(``time_budget * NODES_PER_SECOND``), so the same position and budget give
the same answer on an idle and on a busy machine. The clock is only a safety
net, at :data:`SAFETY_FACTOR` times the budget, which a busy machine does not
reach in normal play. A caller that needs a hard wall-clock limit passes
``time_limit``: the search then stops when it is reached and answers with
what it has, at the price of an answer that depends on the machine's speed.
"""

from __future__ import annotations

import random
import sys
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
    "SAFETY_FACTOR",
    "SAFETY_FLOOR",
    "Analysis",
    "LevelError",
    "SearchAborted",
    "Solver",
    "analyse",
    "choose_move",
    "solve",
]

NODES_PER_SECOND = 100_000
"""Search nodes one second of budget buys: below what CPython does here on
7 x 6, so the node budget, not the clock, normally ends a search."""

SAFETY_FACTOR = 10
"""Without a ``time_limit``, the clock stops a search only after this many
times its time budget (and at least :data:`SAFETY_FLOOR` seconds): far
beyond what the node budget takes on a 2-core machine at load 12 (about 6
times the idle time), so in normal play the work done, not the clock,
decides the move."""

SAFETY_FLOOR = 5.0
"""The least time, in seconds, before the safety net stops a search."""

_CHECK_EVERY = 512
"""Nodes between two looks at the clock and the table size: a few
milliseconds of search, the overshoot of a hard ``time_limit``."""

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
    the module docstring) and ``move`` achieves it; ``depth`` is None when
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


# === Exact solver ============================================================


class Solver:
    """An exact negamax solver for one board size, with its transposition table.

    >>> solver = Solver(Rules(rows=6, columns=7))
    >>> solver.score(Position.from_moves([3, 3, 4, 4, 5, 5], solver.rules))
    18
    >>> solver.best_move(Position.from_moves([3, 3, 4, 4], solver.rules))
    (2, 18)

    The table is a dict keyed by :meth:`Position.key`, emptied when it
    passes ``table_limit`` entries. Measured against a fixed-size list
    indexed by ``key % prime`` (keys kept in a second list to detect
    collisions): equal within noise on Middle-Medium, but the list's reset
    before each position (about 10 ms for a million slots) dominates the
    small searches, so the dict is the faster choice in CPython.
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
            SearchAborted: the node or time budget ran out, or the board has
                more empty cells than Python's recursion limit allows.
        """
        self._check_playable(position)
        cells, moves = self.layout.rules.cells, position.moves
        current, mask = position.current, position.mask
        if position.can_win_next():
            return (cells + 1 - moves) // 2
        if cells - moves > sys.getrecursionlimit() - 100:
            # One stack frame per move: a huge board would overflow the stack.
            raise SearchAborted(f"{cells - moves} empty cells are too many to solve")
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


# === Heuristic search ========================================================

_WIN = 1 << 24
"""Heuristic value of a win with 0 stones on the board; a win after ``m``
stones is ``_WIN - m``, so faster wins are worth more, like exact scores."""

_THREAT_WEIGHT = 16
"""Heuristic bonus of a winning cell on a row that suits its owner."""

_HEURISTIC_NODES_PER_SECOND = 40_000
"""Like NODES_PER_SECOND, for the slower heuristic nodes (measured here:
about 90,000 a second on 7 x 6, 40,000 on 20 x 20)."""

_EXACT_SHARE = 1 / 3
"""The part of analyse()'s budget that the exact attempt may spend."""

_EXACT_MAX_EMPTY = 64
"""Positions with more empty cells skip the exact attempt: it could not end."""


def _window_score_source(lay: Layout) -> str:
    """Python source of ``window_score(p, o)``, unrolled for one board and chain.

    For each direction ``d``, ``free`` marks the start cells of the
    chain-long windows holding no stone of ``o`` (a window off the board or
    across a column edge meets a 0 bit: outside the board or a sentinel).
    Unary counters ``u1 .. u(k-1)`` mark the starts of windows holding at
    least that many stones of ``p``: adding one more shifted copy ``x``
    gives ``u_t |= u_(t-1) & x``, highest ``t`` first. A window with ``t``
    stones is worth ``1 + 4 + ... + 4**(t-1)``, so near-chains dominate.
    """
    k = lay.rules.connect
    lines = ["def window_score(p, o):"]
    if k == 1:
        lines.append("    return 0")
        return "\n".join(lines) + "\n"
    lines.append(f"    f = {lay.board_mask} & ~o")
    lines.append("    total = 0")
    for d in (1, lay.height, lay.height + 1, lay.height - 1):
        windows = " & ".join(["f"] + [f"(f >> {j * d})" for j in range(1, k)])
        lines.append(f"    w = {windows}")
        lines.append("    if w:")
        lines.append("        u1 = p")
        for j in range(1, k):
            lines.append(f"        x = p >> {j * d}")
            for t in range(min(j + 1, k - 1), 1, -1):
                if t == j + 1:
                    lines.append(f"        u{t} = u{t - 1} & x")
                else:
                    lines.append(f"        u{t} |= u{t - 1} & x")
            lines.append("        u1 |= x")
        terms = " + ".join(f"{4 ** (t - 1)} * (w & u{t}).bit_count()" for t in range(1, k))
        lines.append(f"        total += {terms}")
    lines.append("    return total")
    return "\n".join(lines) + "\n"


def _good_rows(lay: Layout) -> tuple[int, int]:
    """Cells of the rows where a threat helps the first player, and the second.

    Zugzwang near the end of a Connect Four game favours the first player's
    threats on odd rows (counted from 1 at the bottom) and the second
    player's on even rows.
    """
    rows = lay.rules.rows
    odd = sum(lay.bottom_mask << r for r in range(0, rows, 2))
    return odd, lay.board_mask ^ odd


class _Heuristic:
    """Depth-limited negamax scoring open windows and well-placed threats."""

    def __init__(self, rules: Rules) -> None:
        self.layout = layout(rules)
        self.explored = 0
        self.node_limit: int | None = None
        self.deadline: float | None = None
        self.search = self._build_search()

    def _check_budget(self) -> int:
        if self.node_limit is not None and self.explored >= self.node_limit:
            raise SearchAborted(f"node budget of {self.node_limit} spent")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchAborted("time budget spent")
        next_check = self.explored + _CHECK_EVERY // 4
        if self.node_limit is not None:
            next_check = min(next_check, self.node_limit)
        return next_check

    def _build_search(self) -> Callable[[int, int, int, int, int, int], int]:
        """``search(current, mask, moves, depth, alpha, beta)``, fail-soft.

        Wins and losses met within the horizon score ``±(_WIN - m)``, where
        ``m`` is the number of stones before the winning one; the horizon
        itself scores the evaluation, always far smaller.
        """
        lay = self.layout
        owner = self
        winning_cells = lay.winning_cells
        bottom, board = lay.bottom_mask, lay.board_mask
        ordered_columns = tuple(lay.column_masks[c] for c in lay.centre_first)
        window_score = _compile_function(_window_score_source(lay), "window_score")
        first_rows, second_rows = _good_rows(lay)
        # The move that was best (or cut off) at each position, from earlier
        # iterations: searched first, it makes alpha-beta prune far more.
        best_cells: dict[int, int] = {}
        best_cells_get = best_cells.get
        next_check = 0

        def evaluate(current: int, opponent: int, moves: int, ours: int, theirs: int) -> int:
            """Open windows, plus threats on the rows that suit their owner."""
            value = window_score(current, opponent) - window_score(opponent, current)
            if moves & 1:
                mine, yours = second_rows, first_rows
            else:
                mine, yours = first_rows, second_rows
            return value + _THREAT_WEIGHT * (
                (ours & mine).bit_count() - (theirs & yours).bit_count()
            )

        def search(
            current: int, mask: int, moves: int, depth: int, alpha: int, beta: int
        ) -> int:
            nonlocal next_check
            owner.explored += 1
            if owner.explored >= next_check:
                next_check = owner._check_budget()
            possible = (mask + bottom) & board
            if not possible:
                return 0
            ours = winning_cells(current, mask)
            if ours & possible:
                return _WIN - moves
            opponent = current ^ mask
            theirs = winning_cells(opponent, mask)
            forced = possible & theirs
            if forced:
                if forced & (forced - 1):
                    return moves + 1 - _WIN
                possible = forced
            possible &= ~(theirs >> 1)
            if not possible:
                return moves + 1 - _WIN
            if depth <= 0:
                return evaluate(current, opponent, moves, ours, theirs)
            key = current + mask
            remembered = best_cells_get(key, 0)
            children = []
            rank = 0
            for column_mask in ordered_columns:
                cell = possible & column_mask
                if cell:
                    if cell == remembered:
                        threats = _WIN  # the best move of the last, shallower search first
                    else:
                        threats = winning_cells(current | cell, mask | cell).bit_count()
                    children.append((threats, rank, cell))
                    rank -= 1
            if len(children) > 1:
                children.sort(reverse=True)
            best = -_WIN - 1
            for _, _, cell in children:
                value = -search(opponent, mask | cell, moves + 1, depth - 1, -beta, -alpha)
                if value > best:
                    best = value
                    if value >= beta:
                        best_cells[key] = cell
                        return value
                    if value > alpha:
                        alpha = value
                        best_cells[key] = cell
            return best

        def start(
            current: int, mask: int, moves: int, depth: int, alpha: int, beta: int
        ) -> int:
            nonlocal next_check
            next_check = owner.explored
            return search(current, mask, moves, depth, alpha, beta)

        return start

    def root_values(self, position: Position, depth: int) -> list[tuple[int, int]]:
        """``(value, column)`` of every sensible root move whose value ties the best.

        Sensible: a winning move if there is one, else the non-losing moves
        (or every move, when all lose). Each child is searched with a window
        just below the best value so far, so ties are seen exactly.

        Raises:
            SearchAborted: the node or time budget ran out.
        """
        lay = self.layout
        current, mask, moves = position.current, position.mask, position.moves
        possible = position.possible()
        winning = position.winning_cells() & possible
        if winning:
            return [
                (_WIN - moves, c) for c in lay.centre_first if winning & lay.column_masks[c]
            ]
        candidates = position.non_losing_moves() or possible
        best = -_WIN - 2
        tied: list[tuple[int, int]] = []
        for column in lay.centre_first:
            cell = candidates & lay.column_masks[column]
            if not cell:
                continue
            value = -self.search(
                current ^ mask, mask | cell, moves + 1, depth - 1, -_WIN - 2, -(best - 1)
            )
            if value > best:
                best, tied = value, [(value, column)]
            elif value == best:
                tied.append((value, column))
        return tied


def _compile_function(source: str, name: str) -> Callable[[int, int], int]:
    """Compile generated source and return the function it defines."""
    namespace: dict[str, Callable[[int, int], int]] = {}
    exec(compile(source, f"<engine.solver {name}>", "exec"), namespace)  # noqa: S102
    return namespace[name]


def _from_heuristic(value: int, cells: int) -> tuple[int, bool]:
    """A heuristic value as ``(score, exact)``: proven wins and losses are exact.

    A value beyond any evaluation means every line of the search ended in a
    win or loss within its horizon, which fixes the exact score.
    """
    if abs(value) < _WIN - cells - 1:
        return value, False
    stones_before = _WIN - abs(value)
    score = (cells + 1 - stones_before) // 2
    return (score if value > 0 else -score), True


# === Public API ==============================================================


def _position_of(game: Game) -> Position:
    """The bitboard of a game the solver can search.

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    if game.is_over():
        raise GameOverError(f"the game is over after {game.moves_string()!r}")
    return Position.from_game(game)


def _deadline(start: float, time_budget: float, time_limit: float | None) -> float:
    """When the clock stops a search: the caller's hard limit, else the safety net."""
    if time_limit is not None:
        return start + time_limit
    return start + max(SAFETY_FACTOR * time_budget, SAFETY_FLOOR)


def solve(
    game: Game, *, time_budget: float | None = None, time_limit: float | None = None
) -> Analysis:
    """The exact score of ``game`` for the player to move, and a move achieving it.

    >>> solve(Game.from_moves("0,1,0,1,0,1", Rules(rows=6, columns=7)))
    Analysis(move=0, score=18, exact=True, depth=None, explored=0)

    ``time_budget`` (seconds of search on a quiet machine) caps the work
    as a node budget; ``time_limit`` (seconds) caps the wall-clock time.
    Without either the search runs until it ends, which may be hours on an
    early 7 x 6 position.

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
        SearchAborted: a budget or limit ran out first, or the board has
            more empty cells than Python's recursion limit allows.
    """
    position = _position_of(game)
    solver = Solver(game.rules)
    start = time.monotonic()
    if time_budget is not None:
        solver.deadline = _deadline(start, time_budget, time_limit)
        solver.node_limit = max(1, int(time_budget * NODES_PER_SECOND))
    elif time_limit is not None:
        solver.deadline = start + time_limit
    move, score = solver.best_move(position)
    return Analysis(move, score, True, None, solver.explored)


def analyse(
    game: Game, *, time_budget: float = 1.0, time_limit: float | None = None
) -> Analysis:
    """The best move found for the player to move with ``time_budget`` of work.

    ``time_budget`` is seconds of search on a quiet machine, spent as node
    budgets: first an exact search, given a third of it; if that cannot
    finish, a heuristic search deepened one move at a time while the rest
    lasts (the first depth always completes, so a move always comes back).
    The result says which answered. The same position and budget give the
    same answer however busy the machine, unless it is more than
    :data:`SAFETY_FACTOR` times slower than the budget assumes.

    ``time_limit``, when given, is a hard limit in seconds of wall-clock
    time: the exact attempt may use a third of it, and the heuristic stops
    at the limit with its deepest completed answer (``bench/move_time.py``
    measures the overshoot). The answer then depends on the machine's speed.

    >>> analyse(Game.from_moves("3,3,4,4", Rules(rows=6, columns=7))).score
    18
    >>> analysis = analyse(Game(Rules(rows=20, columns=20, connect=5)), time_budget=0.05)
    >>> analysis.exact, analysis.move
    (False, 9)

    Raises:
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    position = _position_of(game)
    start = time.monotonic()
    deadline = _deadline(start, time_budget, time_limit)
    explored = 0
    cells = game.rules.cells
    if cells - position.moves <= _EXACT_MAX_EMPTY:
        solver = Solver(game.rules)
        solver.deadline = start + (deadline - start) * _EXACT_SHARE
        solver.node_limit = max(1, int(time_budget * _EXACT_SHARE * NODES_PER_SECOND))
        try:
            move, score = solver.best_move(position)
        except SearchAborted:
            explored = solver.explored
        else:
            return Analysis(move, score, True, None, solver.explored)
    heuristic_share = 1 - _EXACT_SHARE
    return _deepen(position, time_budget * heuristic_share, deadline, explored, None)


def _deepen(
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
    heuristic = _Heuristic(position.rules)
    cells = position.rules.cells
    empty = cells - position.moves
    limit = empty if max_depth is None else min(max_depth, empty)
    heuristic.explored = explored
    tied = heuristic.root_values(position, 1)
    depth = 1
    nodes = max(1, int(node_budget_seconds * _HEURISTIC_NODES_PER_SECOND))
    heuristic.node_limit = heuristic.explored + nodes
    heuristic.deadline = deadline
    while depth < limit and not _from_heuristic(tied[0][0], cells)[1]:
        # Even depths only after the first: a horizon where the opponent is to
        # move misjudges threats, and measured weaker than one ply less.
        target = min(limit, depth + 1 if depth == 1 else depth + 2)
        try:
            deeper = heuristic.root_values(position, target)
        except SearchAborted:
            break
        tied, depth = deeper, target
    value, column = tied[0] if rng is None else rng.choice(tied)
    score, exact = _from_heuristic(value, cells)
    return Analysis(column, score, exact, depth, heuristic.explored)


# === Computer levels =========================================================

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
) -> int:
    """The column the computer plays at ``level`` (a key of :data:`LEVELS`).

    Every level takes a win in one. Randomness comes only from ``rng`` (a
    fresh unseeded generator when None), so a seeded ``rng`` replays a game
    exactly; the top level uses none. ``time_budget`` and ``time_limit``
    mean what they mean for :func:`analyse`: without a ``time_limit`` the
    move does not depend on how busy the machine is.

    >>> game = Game.from_moves("0,6,0,6,0", Rules(rows=6, columns=7))
    >>> [choose_move(game, level, rng=random.Random(1)) for level in LEVELS]
    [1, 0, 0, 0, 0]

    Raises:
        LevelError: ``level`` is not a key of :data:`LEVELS`.
        GameOverError: the game is won or drawn.
        UnsupportedGameError: the game is not for two players.
    """
    if not isinstance(level, int) or isinstance(level, bool) or level not in LEVELS:
        raise LevelError(f"level must be one of {sorted(LEVELS)}, got {level!r}")
    position = _position_of(game)
    top = max(LEVELS)
    if level == top:
        move = analyse(game, time_budget=time_budget, time_limit=time_limit).move
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
    deadline = _deadline(time.monotonic(), time_budget, time_limit)
    analysis = _deepen(position, time_budget, deadline, 0, depth, rng)
    assert analysis.move is not None
    return analysis.move
