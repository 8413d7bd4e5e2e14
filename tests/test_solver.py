"""Tests of connect_four.engine.solver: exact scores, the analysis fallback, and the levels."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

import pytest
from solver_support import SteppingClock, backend, pons_sample, require_wide_accelerator

import connect_four.engine.budget as budget_module
from connect_four.engine.accelerator import Backend, fits_accelerator, nodes_per_second
from connect_four.engine.analysis import deepen
from connect_four.engine.bitboard import Position
from connect_four.engine.convert import to_position
from connect_four.engine.errors import EngineError, GameOverError, UnsupportedGameError
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.solver import (
    LEVELS,
    Analysis,
    LevelError,
    SearchAborted,
    Solver,
    analyse,
    choose_move,
    solve,
)

__all__ = ["backend"]  # the fixture, imported for pytest to find

# The search is under test here: no shipped opening book answers for it.
pytestmark = pytest.mark.usefixtures("no_opening_books")

STANDARD = Rules(rows=6, columns=7, connect=4)
PONS = pons_sample()


# --- A brute-force reference for tiny boards ---------------------------------------


def _wins(columns: list[list[int]], column: int, rules: Rules) -> bool:
    """Whether the top stone of ``column`` is in a chain of ``rules.connect``."""
    row = len(columns[column]) - 1
    owner = columns[column][row]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, column + sign * dc
            while 0 <= c < rules.columns and 0 <= r < len(columns[c]) and columns[c][r] == owner:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= rules.connect:
            return True
    return False


def brute_force(rules: Rules, moves: list[int]) -> int:
    """Plain memoised minimax in Pons' convention, knowing nothing of bitboards."""
    columns: list[list[int]] = [[] for _ in range(rules.columns)]
    for number, column in enumerate(moves):
        columns[column].append(number % 2)
    return _minimax(rules)(tuple(tuple(col) for col in columns), len(moves))


@functools.cache
def _minimax(rules: Rules) -> Callable[[tuple[tuple[int, ...], ...], int], int]:
    """The memoised minimax of one board: one memory for all the positions of its tests."""
    cells = rules.cells

    @functools.cache
    def score(state: tuple[tuple[int, ...], ...], played: int) -> int:
        columns = [list(column) for column in state]
        player = played % 2
        best = -cells
        any_move = False
        for c in range(rules.columns):
            if len(columns[c]) == rules.rows:
                continue
            any_move = True
            columns[c].append(player)
            if _wins(columns, c, rules):
                value = (cells + 1 - played) // 2
            else:
                value = -score(tuple(tuple(col) for col in columns), played + 1)
            columns[c].pop()
            best = max(best, value)
        return best if any_move else 0

    return score


def _random_open_game(rules: Rules, rng: random.Random, length: int) -> Game:
    """A game of up to ``length`` random moves that is still in progress."""
    game = Game(rules)
    for _ in range(length):
        legal = game.legal_moves()
        game.play(rng.choice(legal))
        if game.is_over():
            game.pop()
            break
    return game


# --- Exact scores ---------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "moves", "expected"), PONS, ids=[f"{c[0]}-{i}" for i, c in enumerate(PONS)]
)
def test_score_matches_pons_sample(name: str, moves: list[int], expected: int) -> None:
    """On the search this machine runs; tests/test_exact_backends.py holds both to these scores.

    There each position is solved by both searches, which must agree on
    the score and the positions explored: searching it here in pure Python
    again took as long as the rest of this file's Pons checks.
    """
    solver = Solver(STANDARD)
    assert solver.score(Position.from_moves(moves, STANDARD)) == expected


@pytest.mark.slow
@pytest.mark.parametrize("index", range(0, len(PONS), 4))
def test_best_move_achieves_the_score(index: int, backend: Backend) -> None:
    _, moves, expected = PONS[index]
    analysis = solve(Game.from_moves(moves, STANDARD))
    assert analysis.exact and analysis.score == expected and analysis.depth is None
    assert analysis.move is not None
    child = Game.from_moves([*moves, analysis.move], STANDARD)
    if child.is_over():
        assert expected == (STANDARD.cells + 1 - len(moves)) // 2
    else:
        assert Solver(STANDARD, backend=backend).score(to_position(child)) == -expected


TINY_RULES = [
    Rules(rows=3, columns=3, connect=3),
    Rules(rows=4, columns=4, connect=3),
    Rules(rows=3, columns=4, connect=3),
    Rules(rows=4, columns=3, connect=3),
    Rules(rows=1, columns=5, connect=2),
    Rules(rows=1, columns=7, connect=3),
    Rules(rows=2, columns=3, connect=2),
    Rules(rows=2, columns=2, connect=1),
    Rules(rows=5, columns=1, connect=3),
    Rules(rows=2, columns=5, connect=3),
]


@pytest.mark.slow
@pytest.mark.parametrize("rules", TINY_RULES, ids=repr)
def test_tiny_boards_match_brute_force(rules: Rules, backend: Backend) -> None:
    rng = random.Random(str(rules))
    solver = Solver(rules, backend=backend)
    for length in [0] * 1 + [rng.randrange(rules.cells) for _ in range(12)]:
        game = _random_open_game(rules, rng, length)
        if game.is_over():
            continue
        expected = brute_force(rules, game.moves)
        solver.reset()
        assert solver.score(to_position(game)) == expected, game.moves
        column, score = solver.best_move(to_position(game))
        assert score == expected
        played = len(game.moves)
        game.play(column)
        outcome = game.outcome()
        if outcome is not None and outcome.winner is None:
            assert expected == 0  # the last cell, drawn
        elif outcome is not None:
            assert expected == (rules.cells + 1 - played) // 2  # won at once
        else:
            assert brute_force(rules, game.moves) == -expected


@pytest.mark.parametrize("rules", TINY_RULES[:4], ids=repr)
def test_a_known_lower_bound_keeps_the_score_exact(rules: Rules, backend: Backend) -> None:
    """Any bound at or below the score, passed as ``at_least``, gives the same score."""
    rng = random.Random(f"bound {rules}")
    solver = Solver(rules, backend=backend)
    for _ in range(12):
        game = _random_open_game(rules, rng, rng.randrange(rules.cells))
        if game.is_over():
            continue
        solver.reset()
        expected = solver.score(to_position(game))  # brute force agrees: see the test above
        for bound in sorted({-rules.cells, expected - 3, expected - 1, expected}):
            solver.reset()
            assert solver.score(to_position(game), at_least=bound) == expected, (game, bound)


@pytest.mark.parametrize("index", range(0, len(PONS), 8))
def test_a_lower_bound_at_the_score_settles_with_fewer_positions(
    index: int, backend: Backend
) -> None:
    """Told the score itself, the search has only to prove it cannot do better."""
    _, moves, expected = PONS[index]
    position = Position.from_moves(moves, STANDARD)
    unbounded = Solver(STANDARD, backend=backend)
    bounded = Solver(STANDARD, backend=backend)
    assert bounded.score(position, at_least=expected) == unbounded.score(position) == expected
    assert bounded.explored <= unbounded.explored


@pytest.mark.slow
@pytest.mark.parametrize(
    "rules",
    [
        Rules(rows=2, columns=34, connect=4),  # 102 bits, 68 cells: the 128-bit search
        Rules(rows=2, columns=44, connect=4),  # 132 bits: pure Python on either backend
    ],
    ids=str,
)
def test_boards_wider_than_64_bits_are_solved_exactly(rules: Rules, backend: Backend) -> None:
    """Against brute force; pure Python keeps these boards' slots in its dict-backed table."""
    expected_backend = backend if fits_accelerator(rules) else "python"
    if expected_backend == "native":
        require_wide_accelerator()
    rng = random.Random(5)
    solved = 0
    while solved < 3:
        game = _random_open_game(rules, rng, rules.cells - 10)
        if len(game.moves) < rules.cells - 10:
            continue  # it ended early
        solver = Solver(rules)
        assert solver.backend == expected_backend
        column, score = solver.best_move(to_position(game))
        assert score == brute_force(rules, game.moves)
        game.play(column)
        assert game.is_over() or brute_force(rules, game.moves) == -score
        solved += 1


def test_four_by_four_connect_four_is_a_draw(backend: Backend) -> None:
    assert solve(Game(Rules(rows=4, columns=4, connect=4))).score == 0


def test_connect_one_wins_with_the_first_stone(backend: Backend) -> None:
    analysis = solve(Game(Rules(rows=2, columns=3, connect=1)))
    assert analysis == Analysis(move=1, score=3, exact=True, depth=None, explored=0)


def test_solve_refuses_a_board_deeper_than_the_recursion_limit() -> None:
    with pytest.raises(SearchAborted):
        solve(Game(Rules(rows=40, columns=40, connect=4)))


def test_solve_gives_up_when_the_budget_is_spent(backend: Backend) -> None:
    # 5 x 8: no database cuts the search short (with it, the empty 6 x 7
    # board is settled within the compiled search's 0.01 s budget).
    with pytest.raises(SearchAborted):
        solve(Game(Rules(rows=5, columns=8)), time_budget=0.01)


# --- analyse() --------------------------------------------------------------------------


def test_analyse_is_exact_on_a_small_board(backend: Backend) -> None:
    analysis = analyse(Game(Rules(rows=4, columns=4, connect=3)), time_budget=5)
    assert analysis.exact and analysis.depth is None
    assert analysis.score == brute_force(Rules(rows=4, columns=4, connect=3), [])


@pytest.mark.parametrize("index", [0, 15, 16])
def test_analyse_solves_end_and_middle_positions_exactly(index: int, backend: Backend) -> None:
    _, moves, expected = PONS[index]
    analysis = analyse(Game.from_moves(moves, STANDARD), time_budget=5)
    assert analysis.exact and analysis.score == expected


def test_analyse_falls_back_to_the_heuristic_on_a_huge_board() -> None:
    game = Game(Rules(rows=20, columns=20, connect=5))
    analysis = analyse(game, time_budget=0.05)
    assert analysis.exact is False
    assert analysis.move is not None and game.can_play(analysis.move)
    assert analysis.depth is not None and analysis.depth >= 1
    assert analysis.explored > 0


def test_analyse_on_a_huge_board_sees_a_win_in_one_exactly() -> None:
    rules = Rules(rows=20, columns=20, connect=5)
    game = Game.from_moves([0, 19, 1, 19, 2, 19, 3, 18], rules)
    analysis = analyse(game, time_budget=0.05)
    assert analysis.move == 4
    assert analysis.exact and analysis.score == (rules.cells + 1 - 8) // 2


# End-Easy positions (at most 13 moves left) whose result the heuristic search
# proves within six plies; the other End-Easy ones need deeper search.
PROVED_BY_THE_HEURISTIC = (0, 1, 4, 8, 9, 11, 12, 13, 14)


@pytest.mark.parametrize("index", PROVED_BY_THE_HEURISTIC)
def test_heuristic_proofs_agree_with_the_exact_score(index: int) -> None:
    _, moves, expected = PONS[index]
    position = Position.from_moves(moves, STANDARD)
    analysis = deepen(position, 2.0, float("inf"), 0, 6)
    assert analysis.exact
    assert analysis.score == expected


def test_analyse_refuses_a_finished_game() -> None:
    with pytest.raises(GameOverError):
        analyse(Game.from_moves([0, 1, 0, 1, 0, 1, 0], STANDARD))


def test_analyse_refuses_three_players() -> None:
    with pytest.raises(UnsupportedGameError):
        analyse(Game(STANDARD, players=3))


# --- choose_move() -----------------------------------------------------------------------

WIN_IN_ONE = [
    (STANDARD, [0, 6, 0, 6, 0, 5], 0),  # vertical
    (STANDARD, [0, 0, 1, 1, 2, 6], 3),  # horizontal, one side open
    (Rules(rows=5, columns=8), [7, 0, 6, 0, 5, 1], 4),
    (Rules(rows=1, columns=6, connect=3), [0, 5, 1, 4], 2),
    (Rules(rows=4, columns=4, connect=4), [0, 0, 1, 1, 2, 2], 3),
]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize(("rules", "moves", "winning"), WIN_IN_ONE)
def test_every_level_takes_a_win_in_one(
    level: int, rules: Rules, moves: list[int], winning: int, backend: Backend
) -> None:
    game = Game.from_moves(moves, rules)
    for seed in range(5):
        column = choose_move(game, level, rng=random.Random(seed), time_budget=0.05)
        game.play(column)
        assert game.outcome() is not None and game.outcome().winner == len(moves) % 2  # type: ignore[union-attr]
        game.pop()


@pytest.mark.parametrize("level", [level for level in LEVELS if level >= 2])
def test_levels_from_two_block_a_win_in_one(level: int) -> None:
    game = Game.from_moves([0, 6, 0, 5, 0], STANDARD)  # first player threatens column 0
    for seed in range(5):
        assert choose_move(game, level, rng=random.Random(seed), time_budget=0.05) == 0


EARLY_POSITIONS = [
    Game(STANDARD),
    Game.from_moves([3], STANDARD),
    Game.from_moves([3, 3, 2], STANDARD),
    Game.from_moves(PONS[20][1], STANDARD),
    Game(Rules(rows=5, columns=8)),
    Game.from_moves([2, 5], Rules(rows=5, columns=8)),
    Game.from_moves([3, 4, 4], Rules(rows=5, columns=8)),
]


def _top_level_moves(budget: float, time_limit: float | None = None) -> list[int]:
    top = max(LEVELS)
    return [
        choose_move(game, top, rng=random.Random(0), time_budget=budget, time_limit=time_limit)
        for game in EARLY_POSITIONS
    ]


@pytest.mark.slow
def test_top_level_move_does_not_depend_on_the_machine_speed(
    monkeypatch: pytest.MonkeyPatch,
    backend: Backend,
) -> None:
    monkeypatch.setattr(budget_module, "time", SteppingClock(0.0))
    instant = _top_level_moves(0.03)
    # Four times slower than the exact search's node budget assumes, for the
    # backend in use (every board here takes the same): 512 nodes per clock read.
    rate = nodes_per_second(STANDARD)
    assert {nodes_per_second(game.rules) for game in EARLY_POSITIONS} == {rate}
    monkeypatch.setattr(budget_module, "time", SteppingClock(4 * 512 / rate))
    assert _top_level_moves(0.03) == instant


@pytest.mark.slow
def test_top_level_move_is_the_same_on_the_real_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The move counts work, not time: the real clock, however loaded the machine, changes nothing.

    The suite runs on every core (pytest -n auto), so the machine is busy
    while this runs; the safety net is SAFETY_FLOOR seconds away, a hundred
    times what the budget takes on a quiet machine.
    """
    # A context of its own: monkeypatch.undo() would also bring back the
    # opening books that this module's no_opening_books fixture hides.
    with monkeypatch.context() as patch:
        patch.setattr(budget_module, "time", SteppingClock(0.0))
        instant = _top_level_moves(0.03)
    assert _top_level_moves(0.03) == instant


def test_the_safety_net_stops_a_search_on_a_very_slow_machine(
    monkeypatch: pytest.MonkeyPatch,
    backend: Backend,
) -> None:
    # Every clock read jumps past the safety net: only the first heuristic
    # depth completes, and a legal move still comes back.
    monkeypatch.setattr(budget_module, "time", SteppingClock(1000.0))
    analysis = analyse(EARLY_POSITIONS[0], time_budget=1.0)
    assert analysis.depth == 1
    assert analysis.move is not None and EARLY_POSITIONS[0].can_play(analysis.move)


@pytest.mark.slow
def test_a_hard_time_limit_stops_the_search_and_still_moves(
    monkeypatch: pytest.MonkeyPatch,
    backend: Backend,
) -> None:
    monkeypatch.setattr(budget_module, "time", SteppingClock(0.01))
    game = EARLY_POSITIONS[1]
    limited = analyse(game, time_budget=0.3, time_limit=0.1)
    monkeypatch.setattr(budget_module, "time", SteppingClock(0.0))
    unlimited = analyse(game, time_budget=0.3)
    assert limited.move is not None and game.can_play(limited.move)
    assert limited.explored < unlimited.explored
    # 0.1 s at 0.01 s a clock read: at most 10 reads, a few hundred nodes each.
    assert limited.explored <= 10 * 512


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_seed_replays_the_same_game(level: int) -> None:
    rules = Rules(rows=4, columns=5, connect=3)

    def play() -> list[int]:
        rng = random.Random(42)
        game = Game(rules)
        while not game.is_over():
            game.play(choose_move(game, level, rng=rng, time_budget=0.02))
        return game.moves

    assert play() == play()


ODD_RULES = [
    Rules(rows=1, columns=1, connect=1),
    Rules(rows=1, columns=9, connect=4),
    Rules(rows=6, columns=1, connect=4),
    Rules(rows=3, columns=3, connect=1),
    Rules(rows=2, columns=2, connect=2),
    Rules(rows=4, columns=4, connect=4),
    Rules(rows=5, columns=8, connect=4),
]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("rules", ODD_RULES, ids=repr)
def test_every_level_plays_a_whole_game_on_any_board(
    level: int, rules: Rules, backend: Backend
) -> None:
    rng = random.Random(level)
    game = Game(rules)
    while not game.is_over():
        game.play(choose_move(game, level, rng=rng, time_budget=0.01))


def test_every_level_moves_on_a_twenty_by_twenty_board() -> None:
    game = Game.from_moves([9, 10], Rules(rows=20, columns=20, connect=5))
    for level in LEVELS:
        assert game.can_play(choose_move(game, level, rng=random.Random(0), time_budget=0.05))


@pytest.mark.parametrize("level", [0, 6, -1, True, "3", 2.0])
def test_unknown_level_is_refused(level: object) -> None:
    with pytest.raises(LevelError):
        choose_move(Game(STANDARD), level)  # type: ignore[arg-type]


def test_level_error_is_an_engine_value_error() -> None:
    assert issubclass(LevelError, EngineError) and issubclass(LevelError, ValueError)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_no_move_in_a_finished_game(level: int) -> None:
    with pytest.raises(GameOverError):
        choose_move(Game.from_moves([0, 1, 0, 1, 0, 1, 0], STANDARD), level)


def test_levels_describe_themselves() -> None:
    assert sorted(LEVELS) == list(range(1, len(LEVELS) + 1))
    assert all(isinstance(text, str) and text for text in LEVELS.values())


@pytest.mark.parametrize("threads", [1, 2])
def test_a_solver_that_searched_is_freed_without_the_cycle_collector(
    backend: Backend, threads: int
) -> None:
    """Its table (64 MiB by default) goes with its last reference, not at the next collection.

    A computer playing a game makes a solver per move: held in a reference
    cycle, each move's table stayed in memory, a gigabyte by the end of a game.
    """
    import gc
    import weakref

    solver = Solver(Rules(4, 4), backend=backend, table_size=1009, threads=threads)
    solver.node_limit = 1_000_000  # the budgeted path, whose closures call back
    solver.score(Position(Rules(4, 4)))
    gone = weakref.ref(solver)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del solver
        assert gone() is None
    finally:
        if enabled:
            gc.enable()
