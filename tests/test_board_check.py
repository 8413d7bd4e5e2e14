"""The winner check on board strings, against hand-made boards and the engine's Game."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from connect_four.engine import Game, Rules, RulesError, Status
from connect_four.engine.board_check import (
    BoardCharacterError,
    BoardError,
    BoardLengthError,
    BoardVerdict,
    BothPlayersWonError,
    DisjointChainsError,
    FloatingPieceError,
    ImpossibleLastMoveError,
    MoveOrderError,
    PieceCountError,
    board_winner,
    check_board,
)


def board(*rows: str) -> str:
    """Rows written top to bottom, as the board string lists them."""
    return "".join(rows)


def as_string(game: Game, first: str = "A") -> str:
    """The game's grid as a board string; player 0 plays ``first``."""
    letters = first + ("B" if first == "A" else "A")
    return "".join("X" if owner is None else letters[owner] for row in game.grid() for owner in row)


def engine_answer(game: Game, first: str = "A") -> str:
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return "X"
    letters = first + ("B" if first == "A" else "A")
    return letters[outcome.winner]


EMPTY_ROW = "XXXXXXX"


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ([EMPTY_ROW] * 6, "X"),
        ([EMPTY_ROW] * 5 + ["AXXXXXX"], "X"),
        ([EMPTY_ROW] * 5 + ["AAAABBB"], "A"),
        ([EMPTY_ROW] * 2 + ["BXXXXXX"] * 3 + ["BAAAXXA"], "B"),
        # A diagonal up-right from the bottom-left corner, completed at (3, 3).
        (
            [EMPTY_ROW] * 2 + ["XXXAXXX", "XXABXXX", "XABBXXX", "ABAABXX"],
            "A",
        ),
        # A diagonal down-right, completed at (3, 0).
        (
            [EMPTY_ROW] * 2 + ["AXXXXXX", "BAXXXXX", "BBAXXXX", "ABBAAXX"],
            "A",
        ),
    ],
)
def test_winner_of_hand_made_boards(rows: list[str], expected: str) -> None:
    assert board_winner(board(*rows)) == expected


def test_full_board_without_a_chain_is_no_winner() -> None:
    drawn = Game.from_moves("0,1,0,1,1,0,2,3,2,3,3,2", Rules(3, 4, 3))
    assert drawn.status is Status.DRAWN
    assert board_winner(as_string(drawn), rows=3, columns=4, connect=3) == "X"


def test_first_player_b_swaps_the_counts() -> None:
    assert board_winner("XXXXBXXX", rows=2, columns=4, connect=2, first="B") == "X"
    with pytest.raises(PieceCountError):
        board_winner("XXXXAXXX", rows=2, columns=4, connect=2, first="B")


def test_chains_sharing_a_piece_are_one_win() -> None:
    # B's last piece, at (3, 3), completes both diagonals at once.
    game = Game.from_moves("2,3,4,2,1,0,5,5,5,1,6,6,6,4,5,4,5,2,2,2,3,3,4,3", Rules(6, 7))
    outcome = game.outcome()
    assert outcome is not None and len(outcome.cells) == 7
    assert board_winner(as_string(game)) == "B"


def test_five_in_a_row_completed_in_the_middle_is_a_win() -> None:
    rows = [EMPTY_ROW] * 4 + ["XBBXBXX", "AAAAABX"]
    assert board_winner(board(*rows)) == "A"


# --- Refusals, one per rule -------------------------------------------------


def test_wrong_length() -> None:
    with pytest.raises(BoardLengthError, match=r"42 cells.*41 characters") as error:
        board_winner("X" * 41)
    assert error.value.code == "wrong_length"


def test_character_outside_abx() -> None:
    with pytest.raises(BoardCharacterError, match=r"'O' at \(0, 3\) \(index 38\)") as error:
        board_winner("X" * 38 + "OXXX")
    assert error.value.code == "bad_character"


def test_lowercase_is_refused() -> None:
    with pytest.raises(BoardCharacterError):
        board_winner("x" * 42)


def test_floating_piece() -> None:
    rows = [EMPTY_ROW] * 4 + ["XAXXXXX", "BXXXXXX"]
    with pytest.raises(FloatingPieceError, match=r"'A' at \(1, 1\) \(index 29\)") as error:
        board_winner(board(*rows))
    assert error.value.code == "floating_piece"


@pytest.mark.parametrize("bottom", ["BXXXXXX", "AAXXXXX", "ABBXXXX"])
def test_impossible_counts(bottom: str) -> None:
    with pytest.raises(PieceCountError, match=r"A has \d+ pieces and B \d+") as error:
        board_winner(board(*[EMPTY_ROW] * 5, bottom))
    assert error.value.code == "impossible_counts"


def test_both_players_won() -> None:
    rows = [EMPTY_ROW] * 2 + ["ABXXXXX"] * 4
    with pytest.raises(BothPlayersWonError, match="both A and B") as error:
        board_winner(board(*rows))
    assert error.value.code == "both_players_won"


def test_two_disjoint_chains_are_multiple_winner() -> None:
    # Two rows of four A, one above the other: no move completes both.
    rows = [EMPTY_ROW] * 3 + ["XXXXBBX", "AAAABBB", "AAAABBB"]
    with pytest.raises(DisjointChainsError, match="share no piece") as error:
        board_winner(board(*rows))
    assert error.value.code == "multiple_winner"


def test_eight_in_a_row_is_two_disjoint_chains() -> None:
    rows = ["XXXXXXXX", "BXXXXXXX", "BBBXBBBX", "AAAAAAAA"]
    with pytest.raises(DisjointChainsError):
        board_winner(board(*rows), rows=4, columns=8)


def test_shared_piece_covered_by_another() -> None:
    # A's only chain is the bottom row, and B pieces cover every piece of it.
    rows = [EMPTY_ROW] * 4 + ["BBABAAX", "AAAABBB"]
    with pytest.raises(ImpossibleLastMoveError, match="each have a piece above") as error:
        board_winner(board(*rows))
    assert error.value.code == "impossible_last_move"


def test_winner_did_not_move_last() -> None:
    rows = [EMPTY_ROW] * 4 + ["XXXXBXX", "AAAABBB"]
    with pytest.raises(ImpossibleLastMoveError, match="did not move last: A 4, B 4") as error:
        board_winner(board(*rows))
    assert error.value.code == "impossible_last_move"


def test_no_order_of_turns_stacks_b_under_a_alone() -> None:
    # Counts, gravity and chains are fine, but A moves first and has no
    # bottom cell to drop into.
    with pytest.raises(MoveOrderError, match=r"'BA'") as error:
        board_winner("XXXXXXXXAXXXBXXX", rows=4, columns=4)
    assert error.value.code == "no_move_order"


def test_no_order_of_turns_ends_with_the_winning_piece() -> None:
    # B's bottom row is complete, B moved last, (0, 2) is on top: but without
    # it every column starts with B, and A moved first.
    rows = [EMPTY_ROW] * 3 + ["AXXXXXX", "AAXAXXX", "BBBBXXX"]
    with pytest.raises(MoveOrderError, match=r"B's winning piece \(\(0, 2\) at index 37\)"):
        board_winner(board(*rows))


def test_every_refusal_is_a_board_error_with_its_own_code() -> None:
    classes = [
        BoardLengthError,
        BoardCharacterError,
        FloatingPieceError,
        PieceCountError,
        BothPlayersWonError,
        DisjointChainsError,
        ImpossibleLastMoveError,
        MoveOrderError,
    ]
    assert all(issubclass(cls, BoardError) for cls in classes)
    assert len({cls.code for cls in classes}) == len(classes)


@pytest.mark.parametrize(
    "arguments",
    [
        {"rows": 0},
        {"columns": -1},
        {"connect": 8},
        {"rows": True},
        {"first": "C"},
    ],
)
def test_bad_rules(arguments: dict[str, object]) -> None:
    with pytest.raises(RulesError):
        board_winner("X" * 42, **arguments)  # type: ignore[arg-type]


def test_the_seed_example_floats_in_this_layout() -> None:
    # The seed's string reads as columns; top-to-bottom rows make it float.
    with pytest.raises(FloatingPieceError):
        board_winner("BXXXXXBXXXXBXXXXBXXXXAAAXXXXXXXXXXXXXXXXXX")


# --- Agreement with the engine ---------------------------------------------


@st.composite
def played_games(draw: st.DrawFn) -> tuple[Game, str]:
    rows = draw(st.integers(1, 7))
    columns = draw(st.integers(1, 8))
    connect = draw(st.integers(1, max(rows, columns)))
    game = Game(Rules(rows, columns, connect))
    length = draw(st.integers(0, rows * columns))
    for _ in range(length):
        if game.is_over():
            break
        game.play(draw(st.sampled_from(game.legal_moves())))
    return game, draw(st.sampled_from("AB"))


@settings(max_examples=400, deadline=None)
@given(played_games())
def test_agrees_with_the_engine_on_random_play(played: tuple[Game, str]) -> None:
    game, first = played
    rules = game.rules
    text = as_string(game, first)
    assert board_winner(text, rules.rows, rules.columns, rules.connect, first) == (
        engine_answer(game, first)
    )


def _windows(text: str, rules: Rules) -> dict[str, list[set[tuple[int, int]]]]:
    """Every line of ``connect`` cells one player fills, by brute force."""

    def at(row: int, column: int) -> str:
        return text[(rules.rows - 1 - row) * rules.columns + column]

    found: dict[str, list[set[tuple[int, int]]]] = {"A": [], "B": []}
    for row, column in itertools.product(range(rules.rows), range(rules.columns)):
        for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
            cells = [(row + i * dr, column + i * dc) for i in range(rules.connect)]
            if all(0 <= r < rules.rows and 0 <= c < rules.columns for r, c in cells):
                owners = {at(r, c) for r, c in cells}
                if owners in ({"A"}, {"B"}):
                    found[owners.pop()].append(set(cells))
    return found


def broken_rule(text: str, rules: Rules) -> str | None:
    """An independent, slow statement of the rules (A first); None if all hold."""

    def at(row: int, column: int) -> str:
        return text[(rules.rows - 1 - row) * rules.columns + column]

    heights = []
    for column in range(rules.columns):
        cells = [at(row, column) for row in range(rules.rows)]
        height = sum(cell != "X" for cell in cells)
        if any(cell == "X" for cell in cells[:height]):
            return "floating_piece"
        heights.append(height)
    a, b = text.count("A"), text.count("B")
    if a - b not in (0, 1):
        return "impossible_counts"
    windows = _windows(text, rules)
    if windows["A"] and windows["B"]:
        return "both_players_won"
    for player in "AB":
        if windows[player]:
            shared = set.intersection(*windows[player])
            if not shared:
                return "multiple_winner"
            if not any(row == heights[column] - 1 for row, column in shared):
                return "impossible_last_move"
            if (a == b + 1) != (player == "A"):
                return "impossible_last_move"
    return None


def reach_with_the_engine(text: str, rules: Rules) -> Game | None:
    """A game the engine plays into exactly this board (A first), or None.

    Depth-first over the engine's own moves: only drops that put the right
    player's piece where the board has it, and the engine refuses any move
    after a win, so a game that would have ended earlier is no way there.
    """
    target = [
        [text[(rules.rows - 1 - row) * rules.columns + column] for row in range(rules.rows)]
        for column in range(rules.columns)
    ]
    heights = [sum(cell != "X" for cell in stack) for stack in target]
    total = sum(heights)
    game = Game(rules)
    dead: set[tuple[int, ...]] = set()

    def search() -> bool:
        if len(game) == total:
            return True
        key = tuple(game.height(c) for c in range(rules.columns))
        if key in dead or game.is_over():
            return False
        letter = "AB"[game.to_move or 0]
        for column in range(rules.columns):
            height = game.height(column)
            if height < heights[column] and target[column][height] == letter:
                game.play(column)
                if search():
                    return True
                game.pop()
        dead.add(key)
        return False

    return game if search() else None


@st.composite
def filled_boards(draw: st.DrawFn) -> tuple[str, Rules]:
    rows = draw(st.integers(1, 5))
    columns = draw(st.integers(1, 6))
    connect = draw(st.integers(1, max(rows, columns)))
    rules = Rules(rows, columns, connect)
    # Fill each column from the bottom, sometimes leaving a gap below a piece.
    grid = [["X"] * columns for _ in range(rows)]
    for column in range(columns):
        height = draw(st.integers(0, rows))
        for row in range(height):
            grid[rows - 1 - row][column] = draw(st.sampled_from("AB"))
        if height < rows and draw(st.integers(0, 9)) == 0:
            grid[0][column] = draw(st.sampled_from("AB"))
    return "".join("".join(line) for line in grid), rules


@pytest.mark.slow
@settings(max_examples=600, deadline=None)
@given(filled_boards())
def test_random_fillings_are_refused_exactly_when_a_rule_breaks(
    filled: tuple[str, Rules],
) -> None:
    text, rules = filled
    expected = broken_rule(text, rules)
    if expected is None:
        game = reach_with_the_engine(text, rules)
        if game is None:
            with pytest.raises(MoveOrderError):
                board_winner(text, rules.rows, rules.columns, rules.connect)
        else:
            assert board_winner(text, rules.rows, rules.columns, rules.connect) == (
                engine_answer(game)
            )
    else:
        with pytest.raises(BoardError) as error:
            board_winner(text, rules.rows, rules.columns, rules.connect)
        assert error.value.code == expected


@pytest.mark.slow
def test_every_position_of_every_game_on_a_small_board() -> None:
    """Walk every game on 3 x 4, connect 3: each position it reaches is accepted."""
    rules = Rules(3, 4, 3)
    seen: set[str] = set()
    game = Game(rules)

    def walk() -> None:
        text = as_string(game)
        if text in seen:
            return
        seen.add(text)
        assert board_winner(text, 3, 4, 3) == engine_answer(game)
        for column in game.legal_moves():
            game.play(column)
            walk()
            game.pop()

    walk()
    assert len(seen) > 1000


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "columns", "connect"), [(3, 3, 3), (3, 3, 2), (2, 5, 3), (4, 2, 2)]
)
def test_every_string_of_a_tiny_board_is_refused_unless_a_game_reaches_it(
    rows: int, columns: int, connect: int
) -> None:
    """All 3 ** cells strings: accepted exactly when the engine reaches them."""
    rules = Rules(rows, columns, connect)
    reached: dict[str, str] = {}
    game = Game(rules)

    def walk() -> None:
        text = as_string(game)
        if text not in reached:
            reached[text] = engine_answer(game)
            for column in game.legal_moves():
                game.play(column)
                walk()
                game.pop()

    walk()
    for cells in itertools.product("ABX", repeat=rows * columns):
        text = "".join(cells)
        if text in reached:
            verdict = check_board(text, rows, columns, connect)
            assert verdict == BoardVerdict(reached[text], True), text
        else:
            with pytest.raises(BoardError):
                board_winner(text, rows, columns, connect)


# --- The bounded search --------------------------------------------------------

# On 6 x 7: text, gravity, counts and chains are fine (B won last), but no
# order of turns builds it, and proving that takes more than a million units.
COSTLY = "BBBBBBBAAABABAAAABABBBABBAAAABBABBAAABAAAB"


def test_a_board_beyond_the_budget_is_answered_unverified() -> None:
    assert check_board(COSTLY) == BoardVerdict("B", False)
    assert board_winner(COSTLY) == "B"


def test_the_same_board_with_budget_enough_is_refused() -> None:
    with pytest.raises(MoveOrderError):
        check_board(COSTLY, search_limit=10**8)


def test_a_spent_budget_still_checks_every_other_rule() -> None:
    with pytest.raises(FloatingPieceError):
        check_board("AXXXXXXXXXXXBXXX", rows=4, columns=4, search_limit=0)
    assert check_board(board(*[EMPTY_ROW] * 5, "ABXXXXX"), search_limit=0) == BoardVerdict(
        "X", False
    )


@pytest.mark.parametrize("seed", range(40))
def test_random_games_on_boards_up_to_16_by_16_are_verified_within_the_budget(
    seed: int,
) -> None:
    """The service's largest boards: a reachable board is found in one descent."""
    import random

    chooser = random.Random(seed)
    rows, columns = chooser.choice([(16, 16), (10, 16), (16, 7)])
    connect = chooser.choice([4, 8, 16])
    game = Game(Rules(rows, columns, connect))
    stop = chooser.randrange(rows * columns + 1)
    while not game.is_over() and len(game) < stop:
        game.play(chooser.choice(game.legal_moves()))
    verdict = check_board(as_string(game), rows, columns, connect)
    assert verdict == BoardVerdict(engine_answer(game), True)
