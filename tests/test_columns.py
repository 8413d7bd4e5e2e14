"""Tests of the analysis of every column (engine/columns.py)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from connect_four.engine import book as book_module
from connect_four.engine.book import Book, book_path, canonical_key
from connect_four.engine.columns import ColumnScore, column_scores
from connect_four.engine.convert import to_position
from connect_four.engine.errors import GameOverError
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules
from connect_four.engine.solver import Solver

pytestmark = pytest.mark.usefixtures("no_opening_books")  # each test sees only its own books


def _expected(game: Game, solver: Solver) -> dict[int, int]:
    position = to_position(game)
    cells = game.rules.cells
    expected: dict[int, int] = {}
    for column in position.legal_moves():
        if position.is_winning_move(column):
            expected[column] = (cells + 1 - position.moves) // 2
            continue
        child = position.copy()
        child.play(column)
        expected[column] = 0 if child.is_full() else -solver.score(child)
    return expected


def _random_game(rules: Rules, rng: random.Random, length: int) -> Game:
    game = Game(rules)
    for _ in range(length):
        if game.is_over():
            break
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_every_column_is_scored_exactly_on_a_small_board(seed: int) -> None:
    rules = Rules(rows=4, columns=5)
    rng = random.Random(seed)
    game = _random_game(rules, rng, rng.randrange(rules.cells))
    if game.is_over():
        game.pop()
    scores = column_scores(game, time_budget=50.0)  # nodes enough for any 4 x 5 position
    assert scores == {c: ColumnScore(s, True) for c, s in _expected(game, Solver(rules)).items()}


def test_columns_come_left_to_right_and_only_playable_ones() -> None:
    rules = Rules(rows=2, columns=4, connect=3)
    game = Game.from_moves("0,0,3", rules)
    assert list(column_scores(game)) == [1, 2, 3]


def test_a_column_out_of_time_gets_a_marked_estimate() -> None:
    game = Game(Rules(rows=20, columns=20, connect=5))
    scores = column_scores(game, time_budget=0.05)
    assert len(scores) == 20
    assert not any(score.exact for score in scores.values())
    assert str(scores[0]).startswith("~")


def test_the_book_answers_where_the_search_has_no_time(no_opening_books: Path) -> None:
    rules = Rules(rows=4, columns=5)
    game = Game.from_moves("2,2,1", rules)
    position = to_position(game)
    solver = Solver(rules)
    entries = {}
    for column in position.legal_moves():
        child = position.copy()
        child.play(column)
        if not child.can_win_next():
            entries[canonical_key(child)] = solver.score(child)
    without = column_scores(game, time_budget=1e-9)
    assert not all(score.exact for score in without.values())
    Book(rules, 4, entries).write(book_path(rules, no_opening_books))
    book_module._loaded.clear()
    with_book = column_scores(game, time_budget=1e-9)
    assert with_book == {c: ColumnScore(s, True) for c, s in _expected(game, solver).items()}


def test_a_finished_game_has_no_columns_to_score() -> None:
    game = Game.from_moves("0,1,0,1,0,1,0", Rules(rows=6, columns=7))
    with pytest.raises(GameOverError):
        column_scores(game)


def test_a_hard_time_limit_cuts_the_searches_short(monkeypatch: pytest.MonkeyPatch) -> None:
    # 4 x 5 positions all solve within the budget; a clock that jumps past
    # the limit at its first read leaves the searches no time, so every
    # column the rules cannot score gets an estimate, and every column is there.
    from solver_support import SteppingClock

    from connect_four.engine import budget as budget_module

    rules = Rules(rows=4, columns=5)
    game = Game.from_moves("2", rules)
    unlimited = column_scores(game, time_budget=50.0)
    assert all(score.exact for score in unlimited.values())
    monkeypatch.setattr(budget_module, "time", SteppingClock(1000.0))
    limited = column_scores(game, time_budget=50.0, time_limit=1.0)
    assert list(limited) == list(unlimited)
    assert not any(score.exact for score in limited.values())


def test_a_solver_passed_in_searches_and_keeps_its_table_across_calls() -> None:
    """The review's way: one table for a game's positions, the same exact scores."""
    rules = Rules(rows=4, columns=5)
    game = Game.from_moves("2,2,1", rules)
    solver = Solver(rules)
    first = column_scores(game, solver=solver)
    explored = solver.explored
    assert explored > 0  # the search ran on the solver handed in
    again = column_scores(game, solver=solver)
    assert again == first == column_scores(game)
    assert all(score.exact for score in first.values())
    # The second call found the first call's positions in the table.
    assert solver.explored - explored < explored


def test_a_position_the_book_holds_bounds_its_columns_searches(no_opening_books: Path) -> None:
    """A column scores at most the position: the book's score of it makes each search shorter."""
    rules = Rules(rows=4, columns=5)
    game = Game.from_moves("2,1", rules)
    position = to_position(game)
    plain = Solver(rules)
    expected = column_scores(game, time_budget=50.0, solver=plain)
    assert all(score.exact for score in expected.values())
    Book(rules, 2, {canonical_key(position): Solver(rules).score(position)}).write(
        book_path(rules, no_opening_books)
    )
    book_module._loaded.clear()
    bounded = Solver(rules)
    assert column_scores(game, time_budget=50.0, solver=bounded) == expected
    assert bounded.explored < plain.explored
