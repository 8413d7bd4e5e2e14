"""The compiled exact search against the pure-Python one: same answers, same work.

Each pair of solvers gets the same position, table size and budget; they
must return the same score and move after exploring the same number of
positions, or give up at the same node. Boards of up to 64 bits compare
with ``connect_four.engine._native``, boards of 65 to 128 bits with ``connect_four.engine._native128``.
Without the accelerator these tests skip on a developer's machine and fail
in CI (see solver_support).
"""

from __future__ import annotations

import gc
import random
import threading

import pytest
from solver_support import (
    SteppingClock,
    backend,
    pons_sample,
    quiet_position,
    require_accelerator,
    require_wide_accelerator,
)

import connect_four.engine.budget as budget_module
from connect_four.engine.accelerator import (
    NARROW_BITS,
    PURE_PYTHON_VARIABLE,
    WIDE_BITS,
    Backend,
    accelerator,
    accelerator_for,
    fits_accelerator,
    nodes_per_second,
    runs_native,
    wide_accelerator,
)
from connect_four.engine.bitboard import Position, layout
from connect_four.engine.convert import to_position
from connect_four.engine.errors import AcceleratorError, SearchAborted
from connect_four.engine.exact import Solver
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.solver import LEVELS, choose_move, solve
from connect_four.engine.table import TABLE_SIZE, slot_bytes, table_size_for_megabytes

pytestmark = pytest.mark.slow

__all__ = ["backend"]  # the fixture, imported for pytest to find

STANDARD = Rules(rows=6, columns=7, connect=4)
PONS = pons_sample()

Outcome = tuple[object, ...]


@pytest.fixture
def native() -> None:
    """Tests that compare the two backends need the compiled one."""
    require_accelerator()


@pytest.fixture
def wide_native() -> None:
    """Tests on boards of 65 to 128 bits need the 128-bit compiled search."""
    require_wide_accelerator()


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
        if name == "native":
            assert _module_of(solver) == _expected_module(rules)
        solver.node_limit = node_limit
        outcomes.append(_run(solver, position))
    return outcomes[0], outcomes[1]


def _module_of(solver: Solver) -> str:
    """The compiled module a native solver searches with."""
    return type(solver._native_search).__module__


def _expected_module(rules: Rules) -> str:
    """The compiled module for positions of ``rules``: the narrowest that fits."""
    return (
        "connect_four.engine._native"
        if layout(rules).bits <= NARROW_BITS
        else "connect_four.engine._native128"
    )


def _random_rules(rng: random.Random) -> Rules:
    """Rules whose positions fit 64 bits, with any chain length the board allows."""
    while True:
        rows, columns = rng.randint(1, 9), rng.randint(1, 10)
        if columns * (rows + 1) <= 64:
            return Rules(rows=rows, columns=columns, connect=rng.randint(1, max(rows, columns)))


def _random_wide_rules(rng: random.Random) -> Rules:
    """Rules whose positions take 65 to 128 bits, with a chain of 3 to 6.

    Mostly boards of 5 to 16 columns (8 x 8, 9 x 9, 12 x 7 ...), sometimes
    any number of columns up to 64 (64 x 1, a single column of 127 rows).
    """
    columns = rng.randint(5, 16) if rng.random() < 0.75 else rng.randint(1, 64)
    # columns * (rows + 1) in 65..128
    rows = rng.randint(NARROW_BITS // columns, WIDE_BITS // columns - 1)
    return Rules(rows=rows, columns=columns, connect=rng.randint(3, min(6, max(rows, columns))))


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
    return to_position(game)


def _wide_positions(
    rng: random.Random, count: int, most_empty: int
) -> list[tuple[Rules, Position]]:
    """``count`` random positions of random wide boards, 4 to ``most_empty`` cells empty.

    None where the player to move wins at once: both backends answer those
    before any search.
    """
    found: list[tuple[Rules, Position]] = []
    for _ in range(20 * count):  # a bound, never reached with the seeds used
        rules = _random_wide_rules(rng)
        position = quiet_position(rules, rng, rng.randint(4, most_empty))
        if position is not None and not position.can_win_next():
            found.append((rules, position))
            if len(found) == count:
                return found
    raise AssertionError(f"only {len(found)} of {count} positions came")


# --- Same answers, same node counts -------------------------------------------------


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("seed", range(4))
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
    for name, moves, expected in PONS[15:45:5]:
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
    # The clock reads 1, 2, ...: its sixth read stops the search.
    _assert_the_same_deadline_abort(monkeypatch, STANDARD, position, deadline=5.5)


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
    import connect_four.engine.analysis as analysis_module

    monkeypatch.setattr(budget_module, "NATIVE_NODES_PER_SECOND", budget_module.NODES_PER_SECOND)
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


# --- Wide boards: 65 to 128 bits, connect_four.engine._native128 ---------------------------------------


@pytest.mark.usefixtures("wide_native")
@pytest.mark.parametrize("seed", range(3))
def test_random_wide_boards_give_the_same_moves_scores_and_node_counts(seed: int) -> None:
    for rules, position in _wide_positions(random.Random(1000 + seed), 12, most_empty=16):
        python, native = _both(rules, position)
        assert python == native, (rules, position)


@pytest.mark.usefixtures("wide_native")
@pytest.mark.parametrize("table_size", [256, 257, 1009])
def test_small_tables_on_wide_boards_replace_entries_alike(table_size: int) -> None:
    for rules, position in _wide_positions(random.Random(table_size), 5, most_empty=16):
        python, native = _both(rules, position, table_size=table_size)
        assert python == native, (rules, position)


@pytest.mark.usefixtures("wide_native")
@pytest.mark.parametrize("node_limit", [1, 2, 511, 512, 513, 3000])
@pytest.mark.parametrize(
    "rules", [Rules(rows=8, columns=8), Rules(rows=7, columns=12, connect=5)], ids=str
)
def test_a_node_limit_stops_both_at_the_same_node_on_wide_boards(
    rules: Rules, node_limit: int
) -> None:
    position = Position.from_moves([3, 4, 4, 3], rules)  # far too early to finish
    python, native = _both(rules, position, table_size=4099, node_limit=node_limit)
    assert python == native == ("aborted", f"node budget of {node_limit} spent", node_limit)


@pytest.mark.usefixtures("wide_native")
@pytest.mark.parametrize(
    "rules",
    [
        Rules(rows=7, columns=8),  # 64 bits: the 64-bit module
        Rules(rows=12, columns=5),  # 65 bits
        Rules(rows=4, columns=13, connect=3),  # 65 bits
        Rules(rows=15, columns=8),  # 128 bits
        Rules(rows=7, columns=16, connect=5),  # 128 bits
        Rules(rows=1, columns=64, connect=6),  # 128 bits, one row
        Rules(rows=127, columns=1, connect=5),  # 128 bits, one column of 127 cells
    ],
    ids=str,
)
def test_boards_at_the_64_and_128_bit_boundaries_agree(rules: Rules) -> None:
    rng = random.Random(str(rules))
    compared = 0
    for _ in range(100):  # a bound, never reached
        position = quiet_position(rules, rng, rng.randint(2, 14))
        if position is None:
            continue
        for node_limit in (None, 700):
            python, native = _both(rules, position, table_size=1009, node_limit=node_limit)
            assert python == native, (rules, position, node_limit)
        compared += 1
        if compared == 6:
            return
    raise AssertionError(f"only {compared} positions came")


@pytest.mark.usefixtures("wide_native")
def test_a_deadline_stops_both_at_the_same_node_on_a_wide_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules(rows=9, columns=9)
    position = Position.from_moves([4, 4, 3], rules)
    # The clock reads 1, 2, ...: its fourth read stops the search.
    _assert_the_same_deadline_abort(monkeypatch, rules, position, deadline=3.5, table_size=4099)


@pytest.mark.usefixtures("wide_native")
def test_the_compiled_winning_cells_agree_with_the_layout_on_wide_boards() -> None:
    rng = random.Random(4)
    for _ in range(200):
        rules = _random_wide_rules(rng)
        position = quiet_position(rules, rng, rng.randrange(rules.cells))
        if position is None:
            continue
        search = Solver(rules, backend="native", table_size=257)._native_search
        assert search is not None
        lay = layout(rules)
        for stones in (position.current, position.current ^ position.mask, lay.board_mask):
            expected = lay.winning_cells(stones, position.mask)
            assert search.winning_cells(stones, position.mask) == expected, rules


@pytest.mark.usefixtures("wide_native")
def test_the_wide_search_refuses_numbers_that_are_not_128_bit_boards() -> None:
    search = Solver(Rules(rows=8, columns=8), backend="native", table_size=257)._native_search
    assert search is not None
    for bad in (-1, 2**128):
        with pytest.raises(OverflowError):
            search.winning_cells(bad, 0)
    with pytest.raises(TypeError, match="int"):
        search.winning_cells(1.0, 0)  # type: ignore[arg-type]
    # The top bit of 128: every bit a stone, sentinels too, then every cell also filled.
    lay = layout(Rules(rows=8, columns=8))
    for mask in (0, lay.board_mask):
        assert search.winning_cells(2**128 - 1, mask) == lay.winning_cells(2**128 - 1, mask)


def test_solve_spends_the_budget_of_the_search_that_runs_on_a_wide_board(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    rules = Rules(rows=8, columns=8)
    expected = max(1, int(0.001 * nodes_per_second(rules)))
    with pytest.raises(SearchAborted, match=f"^node budget of {expected} spent$"):
        solve(Game(rules), time_budget=0.001)


# --- Threads on one table ------------------------------------------------------------------


@pytest.mark.usefixtures("native")
def test_two_threads_give_the_same_scores_and_moves_as_one() -> None:
    one = Solver(STANDARD, backend="native")
    two = Solver(STANDARD, backend="native", threads=2)
    assert (one.threads, two.threads) == (1, 2)
    for name, moves, expected in PONS:
        position = Position.from_moves(moves, STANDARD)
        one.reset()
        two.reset()  # a shared table is emptied whole: the next search starts clean
        assert two.score(position) == one.score(position) == expected, (name, moves)
        assert two.best_move(position) == one.best_move(position), (name, moves)
        assert two.explored > 0


@pytest.mark.usefixtures("native")
def test_two_threads_solve_a_begin_medium_position_from_an_empty_table() -> None:
    name, moves, expected = next(case for case in PONS if case[0] == "Begin-Medium")
    solver = Solver(STANDARD, backend="native", threads=2)
    assert solver.score(Position.from_moves(moves, STANDARD)) == expected, (name, moves)


@pytest.mark.usefixtures("native")
def test_a_node_limit_stops_a_search_of_two_threads() -> None:
    _, moves, _ = PONS[36]  # Middle-Medium: about 10,000 nodes
    solver = Solver(STANDARD, backend="native", threads=2)
    solver.node_limit = 1000
    with pytest.raises(SearchAborted, match="node budget of 1000 spent"):
        solver.best_move(Position.from_moves(moves, STANDARD))
    # Every thread's positions count; the helper may add some past the check.
    assert solver.explored >= 1000


@pytest.mark.usefixtures("wide_native")
def test_the_wide_search_and_pure_python_run_one_thread() -> None:
    wide = Rules(rows=8, columns=8)
    assert Solver(wide, backend="native", threads=2).threads == 1
    assert Solver(STANDARD, backend="python", threads=2).threads == 1
    position = None
    rng = random.Random(1)
    while position is None:
        position = _random_position(wide, rng, most_empty=14)
    assert Solver(wide, threads=2).score(position) == Solver(wide).score(position)


@pytest.mark.parametrize("threads", [0, -1, 65, True, 1.5, "2"])
def test_a_thread_count_out_of_range_is_refused(threads: object, backend: Backend) -> None:
    with pytest.raises(ValueError, match="1 to 64 threads"):
        Solver(STANDARD, backend=backend, threads=threads)  # type: ignore[arg-type]


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


@pytest.mark.parametrize("threads", [1, 2])
def test_a_new_solver_finds_the_table_a_freed_one_left_empty(threads: int) -> None:
    """The compiled search keeps a freed solver's table for the next one, emptied.

    One thread lists the slots it stores and clears just those; two threads
    store unlisted, and the whole table is cleared. A slot left over would
    answer the same position at once and show in the count.
    """
    require_accelerator()
    _, moves, _ = PONS[36]
    position = Position.from_moves(moves, STANDARD)
    fresh = Solver(STANDARD, backend="python")
    score = fresh.score(position)
    for _ in range(2):
        first = Solver(STANDARD, backend="native", threads=threads)
        assert first.score(position) == score
        del first
        gc.collect()
        second = Solver(STANDARD, backend="native")
        assert second.score(position) == score
        assert second.explored == fresh.explored
        del second


@pytest.mark.parametrize(
    ("megabytes", "key_bits", "slots"),
    [(64, 64, TABLE_SIZE), (1024, 64, 134_217_689), (1024, 128, 67_108_859), (0.002, 64, 257)],
)
def test_a_table_size_in_megabytes_is_the_largest_prime_that_fits(
    megabytes: float, key_bits: int, slots: int
) -> None:
    assert table_size_for_megabytes(megabytes, key_bits=key_bits) == slots
    assert slots * slot_bytes(key_bits) <= megabytes * 2**20


@pytest.mark.parametrize("megabytes", [0, -5, 0.001, 32768, True, "64"])
def test_a_table_size_in_megabytes_out_of_range_is_refused(megabytes: object) -> None:
    with pytest.raises(ValueError, match="MiB"):
        table_size_for_megabytes(megabytes)  # type: ignore[arg-type]


def test_a_solver_with_a_table_of_a_few_megabytes_is_exact(backend: Backend) -> None:
    solver = Solver(STANDARD, backend=backend, table_size=table_size_for_megabytes(1))
    for _, moves, expected in PONS[30:40]:
        assert solver.score(Position.from_moves(moves, STANDARD)) == expected


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


def test_boards_wider_than_128_bits_search_in_python(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    for huge in (Rules(rows=42, columns=3), Rules(rows=2, columns=43), Rules(rows=10, columns=12)):
        assert layout(huge).bits > WIDE_BITS
        assert not fits_accelerator(huge) and not runs_native(huge)
        assert accelerator_for(huge) is None
        assert Solver(huge).backend == "python"
        assert nodes_per_second(huge) == budget_module.NODES_PER_SECOND
        with pytest.raises(AcceleratorError, match="at most 128"):
            Solver(huge, backend="native")


def test_each_board_gets_the_narrowest_compiled_search_that_fits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_wide_accelerator()
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    boards = [
        (
            Rules(rows=7, columns=8),
            64,
            "connect_four.engine._native",
            budget_module.NATIVE_NODES_PER_SECOND,
        ),
        (
            Rules(rows=12, columns=5),
            65,
            "connect_four.engine._native128",
            budget_module.WIDE_NATIVE_NODES_PER_SECOND,
        ),
        (
            Rules(rows=8, columns=8),
            72,
            "connect_four.engine._native128",
            budget_module.WIDE_NATIVE_NODES_PER_SECOND,
        ),
        (
            Rules(rows=15, columns=8),
            128,
            "connect_four.engine._native128",
            budget_module.WIDE_NATIVE_NODES_PER_SECOND,
        ),
    ]
    for rules, bits, module, rate in boards:
        assert layout(rules).bits == bits
        assert fits_accelerator(rules) and runs_native(rules)
        solver = Solver(rules)
        assert solver.backend == "native" and _module_of(solver) == module
        assert nodes_per_second(rules) == rate
    monkeypatch.setenv(PURE_PYTHON_VARIABLE, "1")
    assert not runs_native(Rules(rows=8, columns=8))
    assert nodes_per_second(Rules(rows=8, columns=8)) == budget_module.NODES_PER_SECOND


def test_the_wide_accelerator_is_built_where_the_compiler_can() -> None:
    require_wide_accelerator()  # fails in CI (CI=true) when __int128 exists and it is missing
    wide = wide_accelerator()
    assert wide is not None and wide.BITS == WIDE_BITS
    narrow = accelerator()
    assert narrow is not None and narrow.BITS == NARROW_BITS


def test_a_wide_board_without_its_module_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import connect_four.engine.accelerator as accelerator_module

    monkeypatch.setattr(accelerator_module, "wide_accelerator", lambda: None)
    monkeypatch.delenv(PURE_PYTHON_VARIABLE, raising=False)
    wide = Rules(rows=8, columns=8)
    assert fits_accelerator(wide) and not runs_native(wide)
    assert Solver(wide).backend == "python"
    assert nodes_per_second(wide) == budget_module.NODES_PER_SECOND
    with pytest.raises(AcceleratorError, match=r"engine\._native128 .* is not built"):
        Solver(wide, backend="native")


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ValueError, match="backend"):
        Solver(STANDARD, backend="fortran")  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [0, 255, 2**32, True, 1000.0])
def test_a_table_size_neither_backend_can_have_is_refused(size: int, backend: Backend) -> None:
    with pytest.raises(ValueError, match="slots"):
        Solver(STANDARD, backend=backend, table_size=size)


def _assert_the_same_deadline_abort(
    monkeypatch: pytest.MonkeyPatch,
    rules: Rules,
    position: Position,
    *,
    deadline: float,
    table_size: int = TABLE_SIZE,
) -> None:
    """Both backends, on a clock that steps 1 s a read, stop at the same node at ``deadline``."""
    outcomes = []
    for name in ("python", "native"):
        monkeypatch.setattr(budget_module, "time", SteppingClock(1.0))
        solver = Solver(rules, backend=name, table_size=table_size)
        solver.deadline = deadline
        outcomes.append(_run(solver, position))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][:2] == ("aborted", "time budget spent")
