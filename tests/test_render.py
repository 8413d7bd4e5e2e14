"""Tests of connect_four.engine.render: the board as the CS110 terminal game prints it."""

from __future__ import annotations

import pytest

from connect_four.engine import Game, Rules, column_header, render

# The assignment's example game, 0 7 0 6 0 5 0, board by board as the
# assignment's transcript prints it (between "Enter a column:" prompts).
EXAMPLE_BOARDS = [
    ("", ["........", "........", "........", "........", "........"]),
    ("0", ["........", "........", "........", "........", "X......."]),
    ("0,7", ["........", "........", "........", "........", "X......O"]),
    ("0,7,0", ["........", "........", "........", "X.......", "X......O"]),
    ("0,7,0,6", ["........", "........", "........", "X.......", "X.....OO"]),
    ("0,7,0,6,0", ["........", "........", "X.......", "X.......", "X.....OO"]),
    ("0,7,0,6,0,5", ["........", "........", "X.......", "X.......", "X....OOO"]),
    ("0,7,0,6,0,5,0", ["........", "X.......", "X.......", "X.......", "X....OOO"]),
]


def read_down(lines: list[str], column: int) -> str:
    """The characters of ``column`` in ``lines``, top to bottom."""
    return "".join(line[column] for line in lines)


def test_empty_default_board_is_the_assignment_s_first_board() -> None:
    assert render(Game()).split("\n") == [
        "01234567",
        "........",
        "........",
        "........",
        "........",
        "........",
        "01234567",
    ]


@pytest.mark.parametrize(("moves", "rows"), EXAMPLE_BOARDS)
def test_example_game_renders_each_board_of_the_assignment_s_transcript(
    moves: str, rows: list[str]
) -> None:
    assert render(Game.from_moves(moves)).split("\n") == ["01234567", *rows, "01234567"]


def test_render_has_no_trailing_newline() -> None:
    assert not render(Game()).endswith("\n")


def test_render_shows_other_players_markers_from_markers() -> None:
    game = Game(Rules(rows=2, columns=3, connect=2), players=3)
    for column in [0, 1, 2]:
        game.play(column)
    assert render(game, markers="XOZ").split("\n") == ["012", "...", "XOZ", "012"]


def test_render_uses_the_empty_marker_given() -> None:
    assert render(Game.from_moves("1", Rules(rows=2, columns=3, connect=2)), empty="-").split(
        "\n"
    ) == [
        "012",
        "---",
        "-X-",
        "012",
    ]


def test_highlight_draws_the_winning_cells_with_highlight_markers() -> None:
    game = Game.from_moves("0,7,0,6,0,5,0")
    cells = game.outcome().cells  # type: ignore[union-attr]
    lines = render(game, markers="xo", highlight=cells, highlight_markers="XO").split("\n")
    assert lines == [
        "01234567",
        "........",
        "X.......",
        "X.......",
        "X.......",
        "X....ooo",
        "01234567",
    ]


def test_highlight_of_an_opponent_cell_uses_that_player_s_highlight_marker() -> None:
    game = Game.from_moves("0,7")
    lines = render(game, markers="xo", highlight={(0, 7)}, highlight_markers="XO").split("\n")
    assert lines[-2] == "x......O"


def test_highlight_of_an_empty_cell_leaves_it_empty() -> None:
    lines = render(Game(), highlight={(0, 0), (4, 7)}, highlight_markers="#@").split("\n")
    assert lines[1:-1] == ["........"] * 5


def test_default_highlight_markers_match_the_default_markers() -> None:
    game = Game.from_moves("0,7,0,6,0,5,0")
    cells = game.outcome().cells  # type: ignore[union-attr]
    assert render(game, highlight=cells) == render(game)


def test_one_row_board_has_header_row_header() -> None:
    assert render(Game.from_moves("2", Rules(rows=1, columns=4, connect=2))).split("\n") == [
        "0123",
        "..X.",
        "0123",
    ]


@pytest.mark.parametrize(
    ("columns", "header"), [(1, ["0"]), (8, ["01234567"]), (10, ["0123456789"])]
)
def test_header_up_to_ten_columns_is_one_line_of_digits(columns: int, header: list[str]) -> None:
    assert column_header(columns) == header


def test_header_of_eleven_columns_puts_the_tens_digit_above_column_10() -> None:
    assert column_header(11) == ["          1", "01234567890"]


@pytest.mark.parametrize("columns", [8, 10, 11, 20, 100, 101, 1000])
def test_header_has_one_character_per_column_on_every_line(columns: int) -> None:
    header = column_header(columns)
    assert len(header) == len(str(columns - 1))
    assert all(len(line) == columns for line in header)


@pytest.mark.parametrize("columns", [8, 10, 11, 20, 100, 101, 1000])
def test_header_read_top_down_gives_each_column_s_number(columns: int) -> None:
    header = column_header(columns)
    assert [read_down(header, column).lstrip() for column in range(columns)] == [
        str(column) for column in range(columns)
    ]


@pytest.mark.parametrize("columns", [11, 20, 100])
def test_header_pads_short_numbers_with_spaces_above_them(columns: int) -> None:
    header = column_header(columns)
    width = len(header)
    assert [read_down(header, column) for column in range(columns)] == [
        str(column).rjust(width) for column in range(columns)
    ]


@pytest.mark.parametrize("columns", [8, 10, 11, 20, 100])
def test_wide_board_grid_lines_line_up_under_the_header(columns: int) -> None:
    rows = 3
    game = Game(Rules(rows=rows, columns=columns, connect=2))
    game.play(columns - 1)
    header = column_header(columns)
    lines = render(game).split("\n")
    assert len(lines) == 2 * len(header) + rows
    assert lines[: len(header)] == header
    assert all(len(line) == columns for line in lines)
    # The marker in the last column sits under that column's number.
    assert lines[len(header) + rows - 1] == "." * (columns - 1) + "X"


@pytest.mark.parametrize("columns", [8, 11, 20, 100])
def test_footer_repeats_the_header_so_numbers_read_down_alike_above_and_below(columns: int) -> None:
    header = column_header(columns)
    lines = render(Game(Rules(rows=2, columns=columns, connect=2))).split("\n")
    footer = lines[-len(header) :]
    assert footer == header
    assert [read_down(footer, column).lstrip() for column in range(columns)] == [
        str(column) for column in range(columns)
    ]
