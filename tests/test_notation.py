"""Tests of connect_four.engine.notation: reading columns and move records, writing records."""

from __future__ import annotations

import re

import pytest
import text_support
from hypothesis import given, settings
from hypothesis import strategies as st

from connect_four.engine import (
    ColumnOutOfRangeError,
    EngineError,
    MoveSyntaxError,
    Rules,
    format_moves,
    parse_column,
    parse_moves,
)

EIGHT = Rules()  # 5 x 8, the terminal game's board
TEN = Rules(rows=4, columns=10)
ELEVEN = Rules(rows=4, columns=11)
TWELVE = Rules(rows=4, columns=12)


# --- parse_column -----------------------------------------------------------------


@pytest.mark.parametrize(("text", "column"), [(str(n), n) for n in range(8)])
def test_parse_column_reads_every_column_of_the_default_board(text: str, column: int) -> None:
    assert parse_column(text, EIGHT) == column


@pytest.mark.parametrize(
    "text",
    [
        " 3",  # leading space
        "3 ",  # trailing space
        "3\n",  # the newline input() would have removed
        "3\r",  # the carriage return of a Windows line ending
        "\t3",
        "03",  # leading zero
        "00",
        "3.0",
        "",
        "+3",
        "-0",
        "3,4",
        "x",
        "²",  # superscript two: str.isdigit() says yes
        "٣",  # Arabic-Indic three: int() reads it
        "３",  # fullwidth three: int() reads it
        "3_0",  # int() reads underscores
    ],
)
def test_parse_column_rejects_anything_but_plain_ascii_digits(text: str) -> None:
    with pytest.raises(MoveSyntaxError, match=f"^{re.escape(repr(text))} is not a column number$"):
        parse_column(text, EIGHT)


def test_parse_column_rejects_a_negative_number_as_syntax_not_range() -> None:
    with pytest.raises(MoveSyntaxError, match=re.escape("'-1'")):
        parse_column("-1", EIGHT)


@pytest.mark.parametrize("text", ["8", "9", "10", "99"])
def test_parse_column_rejects_a_number_past_the_last_column_naming_it(text: str) -> None:
    with pytest.raises(
        ColumnOutOfRangeError, match=f"^column {text} is not on the board \\(0-7\\)$"
    ):
        parse_column(text, EIGHT)


def test_parse_column_rejects_a_thousand_digits_as_out_of_range() -> None:
    with pytest.raises(ColumnOutOfRangeError):
        parse_column("1" * 1000, EIGHT)


def test_parse_column_reads_two_digit_columns_on_a_wide_board() -> None:
    assert parse_column("11", TWELVE) == 11
    assert parse_column("10", ELEVEN) == 10


@pytest.mark.parametrize(("text", "rules"), [("12", TWELVE), ("11", ELEVEN), ("10", TEN)])
def test_parse_column_rejects_the_column_just_past_a_wide_board(text: str, rules: Rules) -> None:
    with pytest.raises(ColumnOutOfRangeError, match=f"^column {text} is not on the board"):
        parse_column(text, rules)


def test_parse_column_rejects_a_leading_zero_on_a_wide_board() -> None:
    with pytest.raises(MoveSyntaxError):
        parse_column("05", TWELVE)


def test_parse_column_on_a_one_column_board_reads_only_zero() -> None:
    rules = Rules(rows=3, columns=1, connect=1)
    assert parse_column("0", rules) == 0
    with pytest.raises(ColumnOutOfRangeError):
        parse_column("1", rules)


def test_parse_column_errors_are_engine_errors() -> None:
    for text in ["x", "8"]:
        with pytest.raises(EngineError):
            parse_column(text, EIGHT)


# --- parse_moves ----------------------------------------------------------------------

PARSED = [
    # (text, rules, columns)
    ("", EIGHT, []),
    ("   ", EIGHT, []),
    ("3", EIGHT, [3]),
    ("3,3,4", EIGHT, [3, 3, 4]),
    ("3, 3 ,4", EIGHT, [3, 3, 4]),
    (" 3,3,4 ", EIGHT, [3, 3, 4]),
    ("334", EIGHT, [3, 3, 4]),  # digit run: every column is one digit
    ("0706050", EIGHT, [0, 7, 0, 6, 0, 5, 0]),
    ("9876543210", TEN, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]),  # ten columns: still one digit each
    ("11", TWELVE, [11]),  # twelve columns: no digit run, "11" is column 11
    ("1,1", TWELVE, [1, 1]),
    ("10,0,11", TWELVE, [10, 0, 11]),
    ("10", ELEVEN, [10]),
]


@pytest.mark.parametrize(("text", "rules", "columns"), PARSED)
def test_parse_moves_reads_a_record(text: str, rules: Rules, columns: list[int]) -> None:
    assert parse_moves(text, rules) == columns


@pytest.mark.parametrize(
    ("text", "rules", "error"),
    [
        ("3,,4", EIGHT, MoveSyntaxError),
        ("3,4,", EIGHT, MoveSyntaxError),
        (",3", EIGHT, MoveSyntaxError),
        ("3 4", EIGHT, MoveSyntaxError),  # a space is not a separator
        ("3;4", EIGHT, MoveSyntaxError),
        ("03,4", EIGHT, MoveSyntaxError),
        ("3,x", EIGHT, MoveSyntaxError),
        ("3٣", EIGHT, MoveSyntaxError),
        ("38", EIGHT, ColumnOutOfRangeError),  # digit run with 8 on an eight-column board
        ("3,8", EIGHT, ColumnOutOfRangeError),
        ("3,12", TWELVE, ColumnOutOfRangeError),
        ("111", TWELVE, ColumnOutOfRangeError),  # a wide board reads no digit run
    ],
)
def test_parse_moves_rejects_a_bad_entry_with_the_entry_s_error(
    text: str, rules: Rules, error: type[Exception]
) -> None:
    with pytest.raises(error):
        parse_moves(text, rules)


def test_parse_moves_names_the_bad_entry() -> None:
    with pytest.raises(MoveSyntaxError, match=re.escape("'x'")):
        parse_moves("3,x,4", EIGHT)


def test_parse_moves_does_not_check_that_the_moves_can_be_played() -> None:
    # Six drops into a five-row column are six valid column numbers.
    assert parse_moves("000000", EIGHT) == [0] * 6


# --- format_moves ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("columns", "text"),
    [([], ""), ([3], "3"), ([3, 3, 4], "3,3,4"), ([10, 0, 11], "10,0,11")],
)
def test_format_moves_joins_columns_with_commas(columns: list[int], text: str) -> None:
    assert format_moves(columns) == text


@st.composite
def rules_and_columns(draw: st.DrawFn) -> tuple[Rules, list[int]]:
    columns = draw(st.integers(min_value=1, max_value=120))
    rules = Rules(rows=1, columns=columns, connect=1)
    moves = draw(st.lists(st.integers(min_value=0, max_value=columns - 1), max_size=60))
    return rules, moves


@settings(deadline=None)  # a loaded CI machine must not fail a slow example
@given(rules_and_columns())
def test_parse_moves_reads_back_what_format_moves_wrote(case: tuple[Rules, list[int]]) -> None:
    rules, moves = case
    assert parse_moves(format_moves(moves), rules) == moves


@settings(deadline=None)
@given(rules_and_columns())
def test_format_moves_writes_back_what_parse_moves_read(case: tuple[Rules, list[int]]) -> None:
    rules, moves = case
    text = format_moves(moves)
    assert format_moves(parse_moves(text, rules)) == text


@settings(deadline=None)
@given(rules_and_columns())
def test_digit_run_reads_as_columns_on_boards_of_at_most_ten_columns(
    case: tuple[Rules, list[int]],
) -> None:
    rules, moves = case
    run = "".join(str(column) for column in moves)
    if rules.columns <= 10:
        assert parse_moves(run, rules) == moves
    elif len(moves) >= 2 and all(column < 10 for column in moves):
        # On a wide board a run of digits is one column number, not many.
        try:
            parsed = parse_moves(run, rules)
        except EngineError:
            pass
        else:
            assert parsed == [int(run)]


@settings(deadline=None)
@given(text_support.text(max_size=8))
def test_parse_column_accepts_exactly_the_canonical_spelling_of_a_column(text: str) -> None:
    canonical = {str(column) for column in range(12)}
    try:
        column = parse_column(text, TWELVE)
    except MoveSyntaxError:
        assert text not in canonical
    except ColumnOutOfRangeError:
        assert text.isascii() and text.isdigit() and not text.startswith("0")
        assert text not in canonical
    else:
        assert text in canonical
        assert str(column) == text
