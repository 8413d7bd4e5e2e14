"""The compiled exact search against the pure-Python one: same answers, same work.

Each pair of solvers gets the same position, table size and budget; they
must return the same score and move after exploring the same number of
positions, or give up at the same node. Without the accelerator these tests
skip on a developer's machine and fail in CI (see solver_support).
"""

from __future__ import annotations

import random
import threading

import pytest
from solver_support import SteppingClock, backend, pons_sample, require_accelerator

import engine.budget as budget_module
from engine.bitboard import Position, layout
from engine.exact import (
    PURE_PYTHON_VARIABLE,
    AcceleratorError,
    Backend,
    Solver,
    accelerator,
    fits_accelerator,
)
from engine.game import Game
from engine.rules import Rules
from engine.solver import LEVELS, SearchAborted, choose_move
from engine.table import TABLE_SIZE

__all__ = ["backend"]  # the fixture, imported for pytest to find

STANDARD = Rules(rows=6, columns=7, connect=4)
PONS = pons_sample()

Outcome = tuple[object, ...]


@pytest.fixture
def native() -> None:
    """Tests that compare the two backends need the compiled one."""
    require_accelerator()


def _run(solver: Solver, position: Position) -> Outcome:
    """What a solver does with a position: its answer and work, or where it gave up."""
    try:
        column, score = solver.best_move(position)
    except SearchAborted as error:
        return ("aborted", str(error), solver.explored)
    return (column, score, solver.explored)


def _both(
    rules: Rules,
    position: Position,
    *,
    table_size: int = TABLE_SIZE,
    node_limit: int | None = None,
) -> tuple[Outcome, Outcome]:
    outcomes = []
    for name in ("python", "native"):
        solver = Solver(rules, backend=name, table_size=table_size)
        assert solver.backend == name
        solver.node_limit = node_limit
        outcomes.append(_run(solver, position))
    return outcomes[0], outcomes[1]


def _random_rules(rng: random.Random) -> Rules:
    """Rules whose positions fit 64 bits, with any chain length the board allows."""
    while True:
        rows, columns = rng.randint(1, 9), rng.randint(1, 10)
        if columns * (rows + 1) <= 64:
            return Rules(rows=rows, columns=columns, connect=rng.randint(1, max(rows, columns)))


def _random_position(rules: Rules, rng: random.Random, most_empty: int) -> Position | None:
    """A random unfinished position with at most ``most_empty`` empty cells, if one comes."""
    game = Game(rules)
    for _ in range(max(rng.randrange(rules.cells + 1), rules.cells - most_empty)):
        game.play(rng.choice(game.legal_moves()))
        if game.is_over():
            game.pop()
            break
    if game.is_over() or rules.cells - len(game.moves) > most_empty:
        return None
    return Position.from_game(game)


# --- Same answers, same node counts -------------------------------------------------


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("seed", range(8))
def test_random_boards_give_the_same_moves_scores_and_node_counts(seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    while compared < 25:
        rules = _random_rules(rng)
        position = _random_position(rules, rng, most_empty=16)
        if position is None:
            continue
        python, native = _both(rules, position)
        assert python == native, (rules, position)
        compared += 1


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("table_size", [256, 257, 1009])
def test_small_tables_replace_entries_alike_and_stay_exact(table_size: int) -> None:
    rng = random.Random(table_size)
    for name, moves, expected in PONS[15:45:3]:
        pons_position = Position.from_moves(moves, STANDARD)
        python, native = _both(STANDARD, pons_position, table_size=table_size)
        assert python == native, (name, moves)
        assert python[1] == expected
    for _ in range(10):
        rules = _random_rules(rng)
        position = _random_position(rules, rng, most_empty=14)
        if position is not None:
            python, native = _both(rules, position, table_size=table_size)
            assert python == native, (rules, position)


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize(
    ("name", "moves", "expected"), PONS, ids=[f"{c[0]}-{i}" for i, c in enumerate(PONS)]
)
def test_pons_sample_gives_the_same_answers_and_node_counts(
    name: str, moves: list[int], expected: int
) -> None:
    position = Position.from_moves(moves, STANDARD)
    python, native = _both(STANDARD, position)
    assert python == native
    assert python[1] == expected


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("node_limit", [1, 2, 511, 512, 513, 1000, 5000])
def test_a_node_limit_stops_both_at_the_same_node(node_limit: int) -> None:
    _, moves, _ = PONS[36]  # Middle-Medium: about 10,000 nodes
    position = Position.from_moves(moves, STANDARD)
    python, native = _both(STANDARD, position, node_limit=node_limit)
    assert python == native == ("aborted", f"node budget of {node_limit} spent", node_limit)


@pytest.mark.usefixtures("native")
def test_a_deadline_stops_both_at_the_same_node(monkeypatch: pytest.MonkeyPatch) -> None:
    _, moves, _ = PONS[36]
    position = Position.from_moves(moves, STANDARD)
    outcomes = []
    for name in ("python", "native"):
        monkeypatch.setattr(budget_module, "time", SteppingClock(1.0))
        solver = Solver(STANDARD, backend=name)
        solver.deadline = 5.5  # the clock reads 1, 2, ...: its sixth read stops the search
        outcomes.append(_run(solver, position))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][:2] == ("aborted", "time budget spent")


@pytest.mark.usefixtures("native")
def test_the_compiled_winning_cells_agree_with_the_layout() -> None:
    rng = random.Random(3)
    for _ in range(300):
        rules = _random_rules(rng)
        position = _random_position(rules, rng, most_empty=rules.cells)
        if position is None:
            continue
        solver = Solver(rules, backend="native")
        search = solver._native_search
        assert search is not None
        lay = layout(rules)
        for stones in (position.current, position.current ^ position.mask):
            expected = lay.winning_cells(stones, position.mask)
            assert search.winning_cells(stones, position.mask) == expected, rules


@pytest.mark.usefixtures("native")
def test_the_top_level_plays_the_same_game_on_both_backends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(budget_module, "time", SteppingClock(0.0))  # budgets alone decide
    # The same work on both: a second of budget normally buys the compiled
    # search 80 times more nodes, and then a better game.
    import engine.analysis as analysis_module
    import engine.exact as exact_module

    monkeypatch.setattr(exact_module, "NATIVE_NODES_PER_SECOND", budget_module.NODES_PER_SECOND)
    monkeypatch.setattr(analysis_module, "_NATIVE_EXACT_SHARE", analysis_module._EXACT_SHARE)
    games = []
    for flag in ("1", "0"):
        monkeypatch.setenv(PURE_PYTHON_VARIABLE, flag)
        game = Game(Rules(rows=5, columns=8))
        while not game.is_over():
            game.play(choose_move(game, max(LEVELS), time_budget=0.05))
        games.append(game.moves)
    assert games[0] == games[1]


@pytest.mark.usefixtures("native")
def test_other_threads_run_while_the_compiled_search_does() -> None:
    """Seen from the main thread: the search is busy, yet not inside a Python call."""
    solver = Solver(STANDARD, backend="native", table_size=257)
    search = solver._native_search
    assert search is not None
    started, seen = threading.Event(), threading.Event()
    inside_python = False
    check_budget = solver.check_budget

    def check() -> int:
        nonlocal inside_python
        inside_python = True
        started.set()
        if seen.is_set():
            raise SearchAborted("the main thread saw enough")
        next_check = check_budget()
        inside_python = False
        return next_check

    solver.check_budget = check  # type: ignore[method-assign]
    solver.node_limit = 50_000_000  # a backstop: the empty board takes far longer
    errors: list[BaseException] = []

    def search_empty_board() -> None:
        try:
            solver.score(Position(STANDARD))
        except SearchAborted as error:
            errors.append(error)

    thread = threading.Thread(target=search_empty_board)
    thread.start()
    started.wait()
    while thread.is_alive() and not seen.is_set():
        try:
            search.reset()
        except RuntimeError:
            if not inside_python:
                seen.set()
    thread.join()
    assert seen.is_set()
    assert [str(error) for error in errors] == ["the main thread saw enough"]


# --- The table, whichever backend -------------------------------------------------------


def test_reset_forgets_the_table_and_a_kept_table_saves_work(backend: Backend) -> None:
    _, moves, _ = PONS[36]
    position = Position.from_moves(moves, STANDARD)
    solver = Solver(STANDARD, backend=backend)
    first = solver.score(position)
    fresh = solver.explored
    solver.explored = 0
    assert solver.score(position) == first
    assert solver.explored < fresh  # the kept table answers at once
    solver.reset()
    assert solver.explored == 0
    assert solver.score(position) == first and solver.explored == fresh


def test_a_tiny_table_still_gives_exact_scores(backend: Backend) -> None:
    for _, moves, expected in PONS[15:30]:
        solver = Solver(STANDARD, backend=backend, table_size=257)
        assert solver.score(Position.from_moves(moves, STANDARD)) == expected


# --- Choosing the backend -----------------------------------------------------------------


def test_the_accelerator_is_built_where_the_tests_run() -> None:
    require_accelerator()  # fails in CI (CI=true) when the build left it out
    assert accelerator() is not None


def test_auto_picks_the_accelerator_when_built(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    expected = "python" if accelerator() is None else "native"
    assert Solver(STANDARD).backend == expected


def test_the_environment_variable_forces_pure_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert Solver(STANDARD).backend == "python"


def test_boards_wider_than_64_bits_search_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    wide = Rules(rows=8, columns=8, connect=4)  # 8 columns of 9 bits
    assert not fits_accelerator(wide) and fits_accelerator(Rules(rows=7, columns=8))
    assert Solver(wide).backend == "python"
    with pytest.raises(AcceleratorError):
        Solver(wide, backend="native")


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="backend"):
        Solver(STANDARD, backend="fortran")  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, 255, 2**32, True, 1000.0])
def test_a_table_size_neither_backend_can_have_is_refused(size: int, backend: Backend) -> None:
    with pytest.raises(ValueError, match="slots"):
        Solver(STANDARD, backend=backend, table_size=size)
