"""Game.from_grid: a game rebuilt from a grid as game frameworks hand it over."""

from __future__ import annotations

import random

import pytest

from connect_four.engine import (
    BoardCharacterError,
    BoardLengthError,
    FloatingPieceError,
    Game,
    MoveOrderError,
    PieceCountError,
    Rules,
    Status,
    UndecidedBoardError,
)

# Kaggle's default, the assignment's, tiny, tall, wide, and one nobody can win.
BOARDS = [
    Rules(6, 7, 4),
    Rules(5, 8, 4),
    Rules(2, 2, 2),
    Rules(9, 3, 3),
    Rules(3, 10, 5),
    Rules(3, 3, 4, allow_unwinnable=True),
]


def random_game(rules: Rules, seed: int) -> Game:
    """A game of random moves, stopped at a random length or when it ends."""
    chooser = random.Random(seed)
    game = Game(rules)
    stop = chooser.randrange(rules.cells + 1)
    while not game.is_over() and len(game) < stop:
        game.play(chooser.choice(game.legal_moves()))
    return game


def kaggle_board(game: Game) -> list[int]:
    """The grid as Kaggle's ConnectX sends it: flat, top row first, 0 / 1 / 2."""
    return [0 if owner is None else owner + 1 for row in game.grid() for owner in row]


def assert_same_position(rebuilt: Game, game: Game) -> None:
    assert rebuilt.grid() == game.grid()
    assert rebuilt.rules == game.rules
    assert rebuilt.to_move == game.to_move
    assert rebuilt.status is game.status
    assert rebuilt.outcome() == game.outcome()


@pytest.mark.parametrize("rules", BOARDS, ids=repr)
@pytest.mark.parametrize("seed", range(12))
def test_engine_grid_round_trips(rules: Rules, seed: int) -> None:
    game = random_game(rules, seed)
    rebuilt = Game.from_grid(game.grid(), rules, markers=(0, 1), empty=None)
    assert_same_position(rebuilt, game)


@pytest.mark.parametrize("rules", BOARDS, ids=repr)
@pytest.mark.parametrize("seed", range(12))
def test_kaggle_flat_board_round_trips(rules: Rules, seed: int) -> None:
    game = random_game(rules, seed)
    assert_same_position(Game.from_grid(kaggle_board(game), rules), game)


@pytest.mark.parametrize("rules", BOARDS, ids=repr)
@pytest.mark.parametrize("seed", range(6))
def test_bottom_up_rows_give_the_same_game(rules: Rules, seed: int) -> None:
    game = random_game(rules, seed)
    bottom_up = [
        ["." if owner is None else "XO"[owner] for owner in row] for row in reversed(game.grid())
    ]
    rebuilt = Game.from_grid(bottom_up, rules, markers=("X", "O"), empty=".", top_down=False)
    assert_same_position(rebuilt, game)
    flat = [cell for row in bottom_up for cell in row]
    flat_rebuilt = Game.from_grid(flat, rules, markers=("X", "O"), empty=".", top_down=False)
    assert_same_position(flat_rebuilt, game)


def test_a_won_grid_ends_with_the_winning_move() -> None:
    game = Game.from_moves("0,1,0,1,0,1,0", Rules(6, 7))
    rebuilt = Game.from_grid(kaggle_board(game), game.rules)
    outcome = rebuilt.outcome()
    assert outcome is not None and outcome.winner == 0
    assert rebuilt.moves[-1] == 0
    assert sorted(outcome.cells) == [(0, 0), (1, 0), (2, 0), (3, 0)]


def test_a_full_grid_nobody_can_win_is_a_draw() -> None:
    game = Game.from_grid([[2, 1], [1, 2]], Rules(2, 2, 3, allow_unwinnable=True))
    assert game.status is Status.DRAWN
    assert len(game.moves) == 4


def test_markers_say_who_moved_first() -> None:
    grid = [[0, 0], [2, 0]]
    assert Game.from_grid(grid, Rules(2, 2, 2), markers=(2, 1)).to_move == 1
    with pytest.raises(PieceCountError):
        Game.from_grid(grid, Rules(2, 2, 2), markers=(1, 2))


def test_a_floating_piece_is_refused() -> None:
    with pytest.raises(FloatingPieceError):
        Game.from_grid([[1, 0], [0, 2]], Rules(2, 2, 2))


def test_a_column_only_the_second_player_could_start_is_refused() -> None:
    # Column 0 holds the second player's piece under the first one's.
    with pytest.raises(MoveOrderError):
        Game.from_grid([[0, 0, 0], [1, 0, 0], [2, 0, 0]], Rules(3, 3, 3))


@pytest.mark.parametrize(
    "grid",
    [
        [0] * 41,
        [0] * 43,
        [[0] * 7] * 5,
        [[0] * 6] * 6,
        [[0] * 7] * 5 + [[0] * 8],
        [[0] * 7] * 5 + [0],
    ],
    ids=["flat 41", "flat 43", "5 rows", "6 columns", "one long row", "a cell for a row"],
)
def test_a_grid_of_the_wrong_shape_is_refused(grid: list[object]) -> None:
    with pytest.raises(BoardLengthError):
        Game.from_grid(grid, Rules(6, 7))


@pytest.mark.parametrize("cell", [3, -1, "1", None, [1]], ids=repr)
def test_a_cell_that_is_no_marker_is_refused(cell: object) -> None:
    grid: list[object] = [0] * 42
    grid[41] = cell
    with pytest.raises(BoardCharacterError, match=r"row 0, column 6"):
        Game.from_grid(grid, Rules(6, 7))


@pytest.mark.parametrize(("markers", "empty"), [((1, 1), 0), ((1, 2), 1), ((0, 2), 0)])
def test_markers_and_empty_must_differ(markers: tuple[int, int], empty: int) -> None:
    with pytest.raises(BoardCharacterError, match="three different values"):
        Game.from_grid([0] * 42, Rules(6, 7), markers=markers, empty=empty)


# On 6 x 7: every local rule holds but no order of turns builds it, and
# proving that takes some 700,000 units of search (see tests/test_board_check.py).
COSTLY = "BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB"


def test_a_grid_the_bounded_search_cannot_settle_is_undecided() -> None:
    with pytest.raises(UndecidedBoardError):
        Game.from_grid(list(COSTLY), Rules(6, 7), markers=("A", "B"), empty="X")


@pytest.mark.slow
def test_a_larger_search_limit_settles_it() -> None:
    with pytest.raises(MoveOrderError):
        Game.from_grid(list(COSTLY), Rules(6, 7), markers=("A", "B"), empty="X", search_limit=10**8)
