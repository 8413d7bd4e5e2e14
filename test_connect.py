"""The assignment's scenarios, run the way the course grades them.

Each test runs connect.py through byu-pytest-utils' dialog machinery
(``runpy`` with ``print`` and ``input`` replaced) and compares the whole
transcript with a dialog file under ``test_files/``: ``<<...>>`` marks what
the player types. ``tests/test_connect_pipe.py`` plays the same files
through a real pipe.
"""

from byu_pytest_utils import dialog, max_score, test_files


@max_score(10)
@dialog(test_files / "example_game.txt", "connect.py")
def test_example_game(group_name): ...


@max_score(10)
@dialog(test_files / "vertical_win.txt", "connect.py")
def test_vertical_win(group_name): ...


@max_score(10)
@dialog(test_files / "horizontal_win.txt", "connect.py")
def test_horizontal_win(group_name): ...


@max_score(10)
@dialog(test_files / "diagonal_up_win.txt", "connect.py")
def test_diagonal_up_win(group_name): ...


@max_score(10)
@dialog(test_files / "diagonal_down_win.txt", "connect.py")
def test_diagonal_down_win(group_name): ...


@max_score(10)
@dialog(test_files / "basic_invalid_moves.txt", "connect.py")
def test_basic_invalid_moves(group_name): ...


@max_score(10)
@dialog(test_files / "harder_invalid_moves.txt", "connect.py")
def test_harder_invalid_moves(group_name): ...


@max_score(10)
@dialog(test_files / "o_wins.txt", "connect.py")
def test_o_wins(group_name): ...


@max_score(10)
@dialog(test_files / "tie_game.txt", "connect.py")
def test_tie_game(group_name): ...


@max_score(5)
@dialog(test_files / "win_on_last_cell.txt", "connect.py")
def test_win_on_last_cell(group_name): ...



# --- Above and beyond: options. Each dialog's command-line arguments are in
# the .args file beside it, one per line.

def options(name):
    """The arguments of test_files/options/<name>.args."""
    return (test_files / "options" / f"{name}.args").read_text().split("\n")[:-1]


@max_score(0)
@dialog(test_files / "options/announce_x_wins.txt", "connect.py", *options("announce_x_wins"))
def test_announce_x_wins(group_name): ...


@max_score(0)
@dialog(test_files / "options/announce_o_wins.txt", "connect.py", *options("announce_o_wins"))
def test_announce_o_wins(group_name): ...


@max_score(0)
@dialog(test_files / "options/announce_tie.txt", "connect.py", *options("announce_tie"))
def test_announce_tie(group_name): ...


@max_score(0)
@dialog(test_files / "options/highlight_five_in_a_row.txt", "connect.py", *options("highlight_five_in_a_row"))
def test_highlight_five_in_a_row(group_name): ...


@max_score(0)
@dialog(test_files / "options/highlight_two_lines.txt", "connect.py", *options("highlight_two_lines"))
def test_highlight_two_lines(group_name): ...


@max_score(0)
@dialog(test_files / "options/wide_board.txt", "connect.py", *options("wide_board"))
def test_wide_board(group_name): ...


@max_score(0)
@dialog(test_files / "options/board_20_by_20.txt", "connect.py", *options("board_20_by_20"))
def test_board_20_by_20(group_name): ...


@max_score(0)
@dialog(test_files / "options/small_board.txt", "connect.py", *options("small_board"))
def test_small_board(group_name): ...


@max_score(0)
@dialog(test_files / "options/moves_puzzle.txt", "connect.py", *options("moves_puzzle"))
def test_moves_puzzle(group_name): ...


@max_score(0)
@dialog(test_files / "options/moves_file.txt", "connect.py", *options("moves_file"))
def test_moves_file(group_name): ...


@max_score(0)
@dialog(test_files / "options/moves_finished_game.txt", "connect.py", *options("moves_finished_game"))
def test_moves_finished_game(group_name): ...


@max_score(0)
@dialog(test_files / "options/version.txt", "connect.py", *options("version"))
def test_version(group_name): ...


@max_score(0)
@dialog(test_files / "options/computer_o_small_board.txt", "connect.py", *options("computer_o_small_board"))
def test_computer_o_small_board(group_name): ...


@max_score(0)
@dialog(test_files / "options/computer_x_level_1.txt", "connect.py", *options("computer_x_level_1"))
def test_computer_x_level_1(group_name): ...


@max_score(0)
@dialog(test_files / "options/computer_both_watch.txt", "connect.py", *options("computer_both_watch"))
def test_computer_both_watch(group_name): ...


@max_score(0)
@dialog(test_files / "options/hint.txt", "connect.py", *options("hint"))
def test_hint(group_name): ...


@max_score(0)
@dialog(test_files / "options/question_mark_without_hint.txt", "connect.py", *options("question_mark_without_hint"))
def test_question_mark_without_hint(group_name): ...
