"""Threads and the table's size through the analysis API: what stays the same, and where.

With one thread (the default) every answer and node count is what it always
was (the other solver tests). With two, node counts vary from run to run,
so these tests take positions the exact search settles well within its
budget: there the move and the exact scores must not change, run after run.
"""

from __future__ import annotations

import random

import pytest
from solver_support import pons_sample, require_accelerator

import connect_four.engine.analysis as analysis_module
from connect_four.engine.analysis import analyse, solve
from connect_four.engine.columns import column_scores
from connect_four.engine.game import Game
from connect_four.engine.levels import choose_move
from connect_four.engine.review import review
from connect_four.engine.rules import Rules
from connect_four.engine.table import TABLE_SIZE, table_size_for
from connect_four.terminal.computer import Computer
from connect_four.terminal.options import parse_options

pytestmark = [
    pytest.mark.slow,
    pytest.mark.usefixtures("no_opening_books"),  # the search, not the book, answers
]

STANDARD = Rules(rows=6, columns=7)
RUNS = 4
# Positions of Pons' sample that the exact search settles in well under a
# thousandth of the default budget (about 7 million positions compiled).
SETTLED = [
    (name, moves) for name, moves, _ in pons_sample() if name in ("End-Easy", "Middle-Easy")
][::10]


@pytest.fixture
def native() -> None:
    """Threads run only in the compiled 64-bit search."""
    require_accelerator()


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("name, moves", SETTLED)
def test_two_threads_choose_the_same_move_as_one_where_the_search_settles_early(name, moves):
    game = Game.from_moves(moves, STANDARD)
    settled = analyse(game, threads=2)
    assert settled.exact and settled.depth is None, (name, moves)  # the exact search answered
    assert 0 < settled.explored < 100_000, (name, moves)
    one = choose_move(game, 5)
    assert [choose_move(game, 5, threads=2) for _ in range(RUNS)] == [one] * RUNS, (name, moves)


@pytest.mark.usefixtures("native")
@pytest.mark.parametrize("name, moves", SETTLED[:4])
def test_two_threads_give_the_same_exact_column_scores_as_one(name, moves):
    game = Game.from_moves(moves, STANDARD)
    one = column_scores(game)
    assert all(score.exact for score in one.values()), (name, moves)
    for _ in range(RUNS):
        assert column_scores(game, threads=2) == one, (name, moves)


@pytest.mark.usefixtures("native")
def test_a_review_with_two_threads_matches_one_where_every_position_settles():
    game = Game.from_moves("2,2,1,3,3,0,4,1", Rules(rows=4, columns=5))
    one = review(game)
    assert all(move.verdict is not None for move in one.moves)
    for _ in range(RUNS):
        assert review(game, threads=2) == one


def test_a_small_table_changes_no_exact_score():
    _, moves = SETTLED[0]
    game = Game.from_moves(moves, STANDARD)
    assert solve(game, table_size=257).score == solve(game).score
    small = column_scores(game, table_size=257)
    assert small == column_scores(game)


class _Recorded(Exception):
    """Stops the search once the solver's arguments are seen."""


def _record_solver(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    """Replace analysis.Solver by a stand-in that records its keywords and stops."""
    calls: list[dict[str, object]] = []

    def fake(rules: Rules, **keywords: object) -> object:
        calls.append(keywords)
        raise _Recorded

    monkeypatch.setattr(analysis_module, "Solver", fake)
    return calls


@pytest.mark.parametrize(
    "table_size, budget, expected",
    [
        (None, 1.0, None),  # the budget's own size, as before
        (1009, 1.0, 1009),  # the user's table is the upper limit
        (TABLE_SIZE * 4 + 1, None, TABLE_SIZE * 4 + 1),  # no budget: the user's table whole
    ],
)
def test_the_users_table_size_caps_the_table_the_budget_sizes(
    monkeypatch, table_size, budget, expected
):
    calls = _record_solver(monkeypatch)
    game = Game.from_moves(SETTLED[0][1], STANDARD)
    with pytest.raises(_Recorded):
        solve(game, time_budget=budget, threads=3, table_size=table_size)
    rate = analysis_module.nodes_per_second(STANDARD)
    node_limit = None if budget is None else int(budget * rate)
    wanted = table_size_for(node_limit) if expected is None else expected
    assert calls == [{"table_size": wanted, "threads": 3}]


def test_analyse_passes_threads_and_the_capped_table_to_its_solver(monkeypatch):
    calls = _record_solver(monkeypatch)
    with pytest.raises(_Recorded):
        analyse(Game.from_moves(SETTLED[0][1], STANDARD), threads=2, table_size=1009)
    assert calls == [{"table_size": 1009, "threads": 2}]


def test_the_computer_passes_the_command_lines_threads_and_table_on(monkeypatch):
    import connect_four.engine.solver as solver_module

    seen: list[dict[str, object]] = []

    def fake_choose_move(game: Game, level: int, **keywords: object) -> int:
        seen.append(keywords)
        return 0

    monkeypatch.setattr(solver_module, "choose_move", fake_choose_move)
    settings = parse_options(["--computer", "o", "--threads", "2", "--table-mb", "1"])
    assert Computer(settings).move(Game(settings.rules)) == 0
    assert seen[0]["threads"] == 2
    assert seen[0]["table_size"] == settings.table_size == 131_071


def test_a_seeded_lower_level_ignores_threads():
    game = Game.from_moves("3,3,4", STANDARD)
    moves = {choose_move(game, 4, rng=random.Random(5), threads=threads) for threads in (1, 2)}
    assert len(moves) == 1
