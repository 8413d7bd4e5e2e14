"""Tests of connect_four.engine.errors: one family, one class per kind of failure, all in one module."""

from __future__ import annotations

import importlib
import inspect
import itertools
import pkgutil
from collections.abc import Callable

import pytest

from connect_four import engine
from connect_four.engine import (
    ColumnFullError,
    ColumnOutOfRangeError,
    EngineError,
    Game,
    GameOverError,
    MoveSyntaxError,
    NotYourTurnError,
    PlayerNotActiveError,
    Rules,
    RulesError,
    errors,
    parse_column,
)
from connect_four.engine.board_check import board_winner
from connect_four.engine.book import Book
from connect_four.engine.convert import to_position
from connect_four.engine.database import Database
from connect_four.engine.errors import (
    AcceleratorError,
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BookFormatError,
    BothPlayersWonError,
    DatabaseFormatError,
    DisjointChainsError,
    FloatingPieceError,
    ImpossibleLastMoveError,
    LevelError,
    MoveOrderError,
    PieceCountError,
    SearchAborted,
    UndecidedBoardError,
    UnsupportedGameError,
)
from connect_four.engine.exact import Solver
from connect_four.engine.levels import choose_move

ERROR_CLASSES = [getattr(errors, name) for name in errors.__all__]
FAMILIES = [EngineError, BoardError]
"""The bases: EngineError of all, BoardError of the board check's refusals."""
SPECIFIC_CLASSES = [cls for cls in ERROR_CLASSES if cls not in FAMILIES]


def _full_column() -> None:
    Game.from_moves("0,0,0,0,0").play(0)


def _not_your_turn() -> None:
    Game().play(0, player=1)


def _quit_twice() -> None:
    game = Game(players=3)
    game.quit(2)
    game.quit(2)


def _spent_budget() -> None:
    solver = Solver(Rules(rows=6, columns=7))
    solver.node_limit = 1
    solver.score(to_position(Game.from_moves("3", Rules(rows=6, columns=7))))


def _bottom(row: str) -> str:
    """A 6 x 7 board string, empty but for its bottom row."""
    return "X" * 35 + row


# One way to cause each failure; each must raise exactly its own class.
CAUSES: list[tuple[type[EngineError], str, Callable[[], object]]] = [
    (RulesError, "zero rows", lambda: Rules(rows=0)),
    (RulesError, "one player", lambda: Game(players=1)),
    (MoveSyntaxError, "a column that is not a number", lambda: parse_column("x", Rules())),
    (MoveSyntaxError, "a record that is not a record", lambda: Game.from_moves("3;4")),
    (ColumnOutOfRangeError, "column 8 typed", lambda: parse_column("8", Rules())),
    (ColumnOutOfRangeError, "column 8 played", lambda: Game().play(8)),
    (ColumnFullError, "a sixth marker in a five-row column", _full_column),
    (GameOverError, "a move after a win", lambda: Game.from_moves("0,7,0,6,0,5,0").play(1)),
    (NotYourTurnError, "player 1 moving first", _not_your_turn),
    (PlayerNotActiveError, "an unknown player", lambda: Game().quit(5)),
    (PlayerNotActiveError, "a player quitting twice", _quit_twice),
    (UnsupportedGameError, "a bitboard of three players", lambda: to_position(Game(players=3))),
    (LevelError, "level 99", lambda: choose_move(Game(), 99)),
    (SearchAborted, "a budget of one node", _spent_budget),
    (
        AcceleratorError,
        "a native search of a board too wide",
        lambda: Solver(Rules(20, 20), backend="native"),
    ),
    (BookFormatError, "a book of keys over 64 bits", lambda: Book(Rules(rows=9, columns=9), 0, {})),
    (DatabaseFormatError, "a database of half a record", lambda: Database(b"\x00\x00")),
    (BoardLengthError, "a board one cell short", lambda: board_winner("X" * 41)),
    (BoardCharacterError, "an O on the board", lambda: board_winner("X" * 41 + "O")),
    (
        FloatingPieceError,
        "a piece in the air",
        lambda: board_winner("X" * 28 + "XAXXXXX" + "BXXXXXX"),
    ),
    (PieceCountError, "B first", lambda: board_winner(_bottom("BXXXXXX"))),
    (BothPlayersWonError, "two winners", lambda: board_winner("X" * 14 + "ABXXXXX" * 4)),
    (
        DisjointChainsError,
        "two rows of four",
        lambda: board_winner("X" * 21 + "XXXXBBX" + "AAAABBB" * 2),
    ),
    (
        ImpossibleLastMoveError,
        "a winner who did not move last",
        lambda: board_winner("X" * 28 + "XXXXBXX" + "AAAABBB"),
    ),
    (
        MoveOrderError,
        "B under A alone",
        lambda: board_winner("XXXXXXXXAXXXBXXX", rows=4, columns=4),
    ),
    (
        UndecidedBoardError,
        "a grid no search may settle",
        lambda: Game.from_grid(
            list(_bottom("ABXXXXX")), Rules(6, 7), markers=("A", "B"), empty="X", search_limit=0
        ),
    ),
]


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda cls: cls.__name__)
def test_every_error_class_is_an_engine_error_and_a_value_error(cls: type[Exception]) -> None:
    assert issubclass(cls, EngineError)
    assert issubclass(cls, ValueError)


def test_engine_error_derives_directly_from_value_error() -> None:
    assert EngineError.__bases__ == (ValueError,)


@pytest.mark.parametrize("cls", SPECIFIC_CLASSES, ids=lambda cls: cls.__name__)
def test_every_specific_error_derives_directly_from_one_family(cls: type[Exception]) -> None:
    assert len(cls.__bases__) == 1 and cls.__bases__[0] in FAMILIES


def test_the_board_family_derives_directly_from_engine_error() -> None:
    assert BoardError.__bases__ == (EngineError,)


def test_no_specific_error_is_a_kind_of_another() -> None:
    """Every ordered pair, in one test (462 tests of one line each cost the suite a second)."""
    kinds = [
        f"{first.__name__} is a {second.__name__}"
        for first, second in itertools.permutations(SPECIFIC_CLASSES, 2)
        if issubclass(first, second)
    ]
    assert not kinds


@pytest.mark.parametrize("cls", ERROR_CLASSES, ids=lambda cls: cls.__name__)
def test_every_error_class_says_what_it_means_in_a_docstring(cls: type[Exception]) -> None:
    assert cls.__doc__ and cls.__doc__.strip()


def test_docstrings_differ_so_each_class_has_its_own_meaning() -> None:
    docs = [cls.__doc__ for cls in ERROR_CLASSES]
    assert len(set(docs)) == len(docs)


@pytest.mark.parametrize(("cls", "cause", "action"), CAUSES, ids=[cause for _, cause, _ in CAUSES])
def test_each_failure_raises_exactly_its_own_class(
    cls: type[EngineError], cause: str, action: Callable[[], object]
) -> None:
    with pytest.raises(EngineError) as caught:
        action()
    assert type(caught.value) is cls


def test_every_specific_error_class_has_a_cause_in_the_table() -> None:
    assert {cls for cls, _, _ in CAUSES} == set(SPECIFIC_CLASSES)


@pytest.mark.parametrize(("cls", "cause", "action"), CAUSES, ids=[cause for _, cause, _ in CAUSES])
def test_each_failure_can_be_caught_as_a_value_error_with_a_message(
    cls: type[EngineError], cause: str, action: Callable[[], object]
) -> None:
    with pytest.raises(ValueError) as caught:
        action()
    assert str(caught.value)


def test_errors_all_lists_every_error_class_of_the_module() -> None:
    defined = {
        name
        for name, value in vars(errors).items()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ == errors.__name__
    }
    assert defined == set(errors.__all__)


def _engine_modules() -> list[object]:
    return [
        importlib.import_module(f"connect_four.engine.{info.name}")
        for info in pkgutil.iter_modules(engine.__path__)
    ]


def test_every_exception_defined_anywhere_in_the_engine_is_an_engine_error() -> None:
    """A front end catches the whole family with one ``except EngineError``."""
    strays = [
        f"{module.__name__}.{name}"  # type: ignore[attr-defined]
        for module in _engine_modules()
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ == module.__name__  # type: ignore[attr-defined]
        and not issubclass(value, EngineError)
    ]
    assert strays == []


def test_every_exception_of_the_engine_is_defined_in_errors() -> None:
    """Where a reader looks for them: the modules that raise them import them."""
    elsewhere = [
        f"{module.__name__}.{name}"  # type: ignore[attr-defined]
        for module in _engine_modules()
        for name, value in vars(module).items()
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        and value.__module__ not in ("connect_four.engine.errors", "builtins")
        and value.__module__.startswith("connect_four.engine")
    ]
    assert elsewhere == []
