"""Tests of connect_four.engine.score: the score convention, and the moves it settles without a search."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from connect_four.engine.bitboard import Position
from connect_four.engine.exact import Solver
from connect_four.engine.rules import Rules
from connect_four.engine.score import centre_most, forced_move, win_score, winning_move

ROOT = Path(__file__).resolve().parent.parent
SMALL = Rules(rows=4, columns=5)


def _random_positions(rules: Rules, count: int, seed: int) -> list[Position]:
    """Unfinished positions reached by random moves, some of them with a win on offer."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position(rules)
        for _ in range(rng.randrange(rules.cells)):
            column = rng.choice(position.legal_moves())
            if position.is_winning_move(column):
                break  # a position with a win on offer
            position.play(column)
        if not position.is_full():
            found.append(position)
    return found


@pytest.fixture
def positions() -> list[Position]:
    """Built per test: a solver takes positions of the layout it was made with."""
    return _random_positions(SMALL, 150, seed=22)


@pytest.mark.parametrize(
    ("cells", "moves", "score"),
    [(42, 0, 21), (42, 6, 18), (42, 7, 18), (42, 41, 1), (40, 0, 20), (1, 0, 1), (2, 1, 1)],
)
def test_win_score_is_pons_convention(cells: int, moves: int, score: int) -> None:
    # 1 plus the stones the winner would still have played had the board filled up.
    stones_after = moves + 1
    assert score == (cells + 2 - stones_after) // 2
    assert win_score(cells, moves) == score


@pytest.mark.slow
def test_a_win_on_offer_scores_win_score_and_every_score_lies_within_its_bounds(
    positions: list[Position],
) -> None:
    solver = Solver(SMALL)  # the compiled search where built: the same scores, node for node
    offered = 0
    for position in positions:
        score = solver.score(position)
        cells, moves = SMALL.cells, position.moves
        if position.can_win_next():
            offered += 1
            assert score == win_score(cells, moves)
        assert -win_score(cells, moves + 1) <= score <= win_score(cells, moves)
    assert offered > 10  # the sample holds wins on offer


def test_winning_move_is_none_without_a_win_and_the_solver_s_move_with_one(
    positions: list[Position],
) -> None:
    solver = Solver(SMALL)  # the compiled search where built: the same scores, node for node
    for position in positions:
        won = winning_move(position)
        if not position.can_win_next():
            assert won is None
            continue
        assert won is not None and position.is_winning_move(won[0])
        assert won == solver.best_move(position)


def test_forced_move_is_none_while_a_move_is_safe(positions: list[Position]) -> None:
    for position in positions:
        if not position.can_win_next() and position.non_losing_moves():
            assert forced_move(position) is None


def test_forced_move_blocks_a_threat_and_is_the_solver_s_move(positions: list[Position]) -> None:
    solver = Solver(SMALL)  # the compiled search where built: the same scores, node for node
    forced_seen = 0
    for position in positions:
        if position.can_win_next() or position.non_losing_moves():
            continue
        forced_seen += 1
        column = forced_move(position)
        assert column is not None
        threats = position.opponent_winning_cells() & position.possible()
        if threats:
            assert threats & position.layout.column_masks[column]
        assert solver.best_move(position) == (column, -win_score(SMALL.cells, position.moves + 1))
    assert forced_seen > 0  # the sample holds positions lost at once


def test_centre_most_prefers_the_centre_then_the_left() -> None:
    lay = Position(Rules(rows=6, columns=7)).layout
    every = lay.board_mask
    assert centre_most(lay, every) == 3
    assert centre_most(lay, lay.column_masks[2] | lay.column_masks[4]) == 2
    assert centre_most(lay, lay.column_masks[6]) == 6


@pytest.mark.parametrize("folder", ["engine", "tools", "bench"])
def test_no_module_writes_the_score_formula_again(folder: str) -> None:
    """Pons' formula lives in win_score; the exact search's hot loop is the one stated exception."""
    formula = re.compile(r"cells \+ 1 - [\w.()]+\) // 2")
    copies = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / folder).glob("*.py"))
        if path.name != "score.py" and formula.search(path.read_text())
    ]
    assert copies == []
