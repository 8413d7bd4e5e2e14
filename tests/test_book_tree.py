"""Tests of the play-tree book (tools/book_tree.py): a computer following it never errs."""

from __future__ import annotations

from pathlib import Path

import pytest
from solver_support import require_accelerator

from connect_four.engine.bitboard import Position
from connect_four.engine.book import Book, best_move, canonical_key
from connect_four.engine.rules import Rules
from connect_four.engine.solver import Solver
from tools import book_tree, make_book

pytestmark = pytest.mark.slow

RULES = Rules(rows=4, columns=5)
DEPTH = 8
HARD = 150


def _tree(rules: Rules, depth: int, hard: int) -> object:
    """A play tree solved in-process with the pure solver, like the generator does."""
    tree = book_tree.PlayTree(rules, depth, hard)
    solver = Solver(rules)
    while (waiting := tree.next_waiting()) is not None:
        _moves, key = waiting
        solver.reset()
        move, score = solver.best_move(make_book.position_of_key(key, rules))
        tree.record(key, book_tree.Node(score, move, solver.explored))
    return tree


@pytest.fixture(scope="module")
def tree_book() -> Book:
    tree = _tree(RULES, DEPTH, HARD)
    book = tree.book()  # type: ignore[attr-defined]
    assert isinstance(book, Book)
    return book


@pytest.mark.parametrize("computer", [0, 1], ids=["computer first", "computer second"])
def test_the_computer_following_the_book_plays_perfectly(tree_book: Book, computer: int) -> None:
    """Every reply of the opponent: the computer's book moves keep the exact score."""
    solver = Solver(RULES)
    hard_nodes_met = 0

    def visit(position: Position, on_hard_line: bool) -> None:
        nonlocal hard_nodes_met
        if position.is_won() or position.is_full() or position.moves > DEPTH:
            return
        expected = solver.score(position)
        if position.moves % 2 == computer:
            if position.can_win_next():
                return
            if on_hard_line:
                assert tree_book.move(position) is not None, position
                hard_nodes_met += 1
            if tree_book.move(position) is None:
                return  # an easy node: the computer searches from here in play
            solver.reset()
            hard = _explored_from_empty_table(solver, position) > HARD
            found = best_move(position, solver.score, tree_book)
            assert found is not None and found[1] == expected, position
            child = position.copy()
            child.play(found[0])
            if not (child.is_won() or child.is_full()):
                assert solver.score(child) == -expected, position
                visit(child, on_hard_line and hard)
        else:
            if position.moves > 0:
                assert tree_book.score(position) == expected, position
            for column in position.legal_moves():
                if position.is_winning_move(column):
                    continue
                child = position.copy()
                child.play(column)
                visit(child, on_hard_line)

    visit(Position(RULES), True)
    assert hard_nodes_met > 20


def _explored_from_empty_table(solver: Solver, position: Position) -> int:
    """What the generator measured: the search of the canonical orientation.

    Move ordering breaks ties left first, so a position and its mirror
    image explore different numbers of positions.
    """
    solver.reset()
    solver.best_move(make_book.position_of_key(canonical_key(position), position.rules))
    return solver.explored


def test_the_tree_keeps_one_entry_per_mirror_pair(tree_book: Book) -> None:
    for key in tree_book.keys:
        position = make_book.position_of_key(key, RULES)
        assert canonical_key(position) == key


def test_an_easy_node_is_not_expanded() -> None:
    everything = _tree(RULES, DEPTH, 0)
    fewer = _tree(RULES, DEPTH, 10 * HARD)
    assert len(fewer.book()) < len(everything.book())  # type: ignore[attr-defined]


def test_the_tree_generator_resumes_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    require_accelerator()  # the same tree as the pure solver's, node for node, in a tenth of the time
    options = [
        "--rows", "4", "--columns", "5", "--tree", "--depth", "6", "--hard-nodes", str(HARD),
        "--solver", "native", "--workers", "1",
        "--work-dir", str(tmp_path), "--output", str(tmp_path / "book.bin"),
    ]  # fmt: skip
    make_book.main(options)
    whole = Book.read(tmp_path / "book.bin")
    results = tmp_path / f"4x5-connect4-tree6-hard{HARD}" / "nodes.txt"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[: len(lines) // 2]) + "\n" + lines[-1][:5])
    capsys.readouterr()
    make_book.main(options)
    assert f"{len(lines) // 2} nodes solved before" in capsys.readouterr().out
    again = Book.read(tmp_path / "book.bin")
    assert again.entries() == whole.entries()
    assert again.recorded_moves() == whole.recorded_moves()
    assert len(results.read_text().splitlines()) == len(lines)
