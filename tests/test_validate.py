"""Tests of connect_four.engine.validate: the int check and the off-board message, written once."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from connect_four.engine.errors import ColumnOutOfRangeError
from connect_four.engine.validate import check_on_board, is_int, off_board

ENGINE = Path(__file__).resolve().parent.parent / "engine"


@pytest.mark.parametrize("value", [0, 1, -1, 7, 2**100])
def test_an_int_is_an_int(value: int) -> None:
    assert is_int(value)


@pytest.mark.parametrize("value", [True, False, 1.0, "1", None, [1]])
def test_a_bool_float_text_or_none_is_not_an_int(value: object) -> None:
    assert not is_int(value)


@pytest.mark.parametrize("index", [0, 3, 7])
def test_check_on_board_returns_an_index_of_the_board(index: int) -> None:
    assert check_on_board(index, 8) == index


@pytest.mark.parametrize(
    ("index", "shown"),
    [(-1, "-1"), (8, "8"), (True, "True"), ("3", "'3'"), (3.0, "3.0"), (None, "None")],
)
def test_check_on_board_refuses_anything_else_showing_its_repr(index: object, shown: str) -> None:
    with pytest.raises(
        ColumnOutOfRangeError, match=f"^column {re.escape(shown)} is not on the board \\(0-7\\)$"
    ):
        check_on_board(index, 8)


def test_a_row_is_named_a_row() -> None:
    with pytest.raises(ColumnOutOfRangeError, match=r"^row 5 is not on the board \(0-4\)$"):
        check_on_board(5, 5, "row")


def test_off_board_shows_the_text_as_given() -> None:
    error = off_board("12", 10)
    assert type(error) is ColumnOutOfRangeError
    assert str(error) == "column 12 is not on the board (0-9)"


@pytest.mark.parametrize(
    "rule",
    [r"isinstance\([^)]*,\s*bool\)", r"is not on the board \(0-"],
    ids=["int but not bool", "off-board message"],
)
def test_no_other_engine_module_writes_the_rule_again(rule: str) -> None:
    """Each rule lives in validate.py; a copy elsewhere would drift from it."""
    copies = [
        path.name
        for path in sorted(ENGINE.glob("*.py"))
        if path.name != "validate.py" and re.search(rule, path.read_text())
    ]
    assert copies == []
