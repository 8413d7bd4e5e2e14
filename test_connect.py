"""The assignment's scenarios, run the way the course grades them.

Each test runs connect.py through byu-pytest-utils' dialog machinery
(``runpy`` with ``print`` and ``input`` replaced) and compares the whole
transcript with a dialog file under ``test_files/``: ``<<...>>`` marks what
the player types. ``tests/test_connect_pipe.py`` plays the same files
through a real pipe. The options' dialogs (``test_files/options/``) are
checked by ``tests/test_connect_harness.py`` and ``test_connect_options.py``
in the same two ways, without the grader's slow scoring.
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
