"""The 12-stone 6 x 7 database (engine/database.py): its keys, its scores, and the search's use of it.

Most tests need the ``database`` extra (bitbully-databases, in
requirements.txt): without it they skip on a developer's machine and fail
in CI. The tests of a missing extra hide the installed one.
"""

from __future__ import annotations

import bisect
import random
import tomllib
import types
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path

import pytest
from ci_support import unavailable
from solver_support import require_accelerator

import connect_four.engine.database as database_module
from connect_four.engine.accelerator import Backend
from connect_four.engine.bitboard import Position
from connect_four.engine.book import mirror_key, position_of_key
from connect_four.engine.columns import column_scores
from connect_four.engine.database import (
    DATABASE_RULES,
    DATABASE_STONES,
    NO_DATABASE_VARIABLE,
    Database,
    database_file,
    database_for,
    database_keys,
    load_database,
    score_of_value,
)
from connect_four.engine.errors import DatabaseFormatError
from connect_four.engine.exact import Solver
from connect_four.engine.game import Game
from connect_four.engine.rules import Rules

pytestmark = pytest.mark.slow

SEED = 20261124
NOT_INSTALLED = "the database extra is not installed: pip install -e '.[database]'"


def require_database() -> Database:
    """The installed database; skip without it on a developer's machine, fail in CI."""
    database = load_database()
    if database is None:
        unavailable(NOT_INSTALLED)
    return database


@pytest.fixture
def database() -> Database:
    return require_database()


@pytest.fixture
def hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """The extra as if not installed: importing its package fails."""

    def refuse(name: str) -> object:
        raise ModuleNotFoundError(f"No module named {name!r}")

    monkeypatch.setattr(database_module, "import_module", refuse)


def random_position(rng: random.Random, stones: int) -> Position:
    """A position of ``stones`` stones from random moves, none of which won."""
    while True:
        position = Position(DATABASE_RULES)
        while position.moves < stones:
            column = rng.choice(position.legal_moves())
            if position.is_winning_move(column):
                break
            position.play(column)
        else:
            return position


def sample(stones: int, count: int, *, seed: int = SEED) -> Iterator[Position]:
    """``count`` random positions of ``stones`` stones where the player to move cannot win at once."""
    rng = random.Random(seed + stones)
    found = 0
    while found < count:
        position = random_position(rng, stones)
        if not position.can_win_next():
            found += 1
            yield position


def mirrored(position: Position) -> Position:
    return position_of_key(mirror_key(position.key(), DATABASE_RULES), DATABASE_RULES)


def reference_key(position: Position) -> int:
    """The key as the package's own (illustrative) encoder builds it from a board of 1s and 2s.

    An independent reading of the format: rows from the top, 1 for the first
    player, 2 for the second, 0 for empty.
    """
    encoder = import_module("bitbully_databases").BitBullyDatabases._to_huffman
    first = position.current if position.moves % 2 == 0 else position.current ^ position.mask
    height = DATABASE_RULES.rows + 1
    board = [[0] * DATABASE_RULES.columns for _ in range(DATABASE_RULES.rows)]
    for column in range(DATABASE_RULES.columns):
        for row in range(DATABASE_RULES.rows):
            cell = 1 << (column * height + row)
            if position.mask & cell:
                board[DATABASE_RULES.rows - 1 - row][column] = 1 if first & cell else 2
    key: int = encoder(board)
    return key


# === Keys ====================================================================


def test_keys_match_the_packages_own_encoder(database: Database) -> None:
    for position in sample(DATABASE_STONES, 50):
        key, mirror_image = database_keys(position.current, position.mask)
        assert key == reference_key(position)
        assert mirror_image == reference_key(mirrored(position))


def test_the_first_player_is_10_and_the_second_11() -> None:
    # 12 stones, the first player to move: its stones read "10", the other's "11".
    moves = [0, 6, 0, 6, 1, 5, 1, 5, 3, 4, 3, 2]
    position = Position.from_moves(moves, DATABASE_RULES)
    key, _ = database_keys(position.current, position.mask)
    columns = "10100 10100 110 10100 110 11110 11110".replace(" ", "")
    assert f"{key & 0xFFFFFFFF:032b}" == columns + "0"


def test_a_mirror_images_keys_are_swapped() -> None:
    for position in sample(DATABASE_STONES, 20):
        key, mirror_image = database_keys(position.current, position.mask)
        image = mirrored(position)
        assert database_keys(image.current, image.mask) == (mirror_image, key)


# === What the file holds =====================================================


def test_a_position_and_its_mirror_image_are_stored_once(database: Database) -> None:
    """Under either key, never both; so a lookup must try the two."""
    found_as_mirror = 0
    for position in sample(DATABASE_STONES, 200):
        key, mirror_image = database_keys(position.current, position.mask)
        stored = {found for found in (key, mirror_image) if _stored(database, found)}
        assert len(stored) == 1, position
        found_as_mirror += stored == {mirror_image} and key != mirror_image
        assert database.score(position) == database.score(mirrored(position))
    assert 0 < found_as_mirror < 200  # both orientations occur in the file


def test_a_symmetric_position_is_stored(database: Database) -> None:
    moves = [0, 1, 6, 5, 3, 3, 1, 2, 5, 4, 3, 3]  # each move's mirror image follows it
    position = Position.from_moves(moves, DATABASE_RULES)
    assert position.key() == mirror_key(position.key(), DATABASE_RULES)
    assert not position.is_won() and not position.can_win_next()
    assert database.score(position) is not None


def test_positions_with_a_win_at_once_are_left_out(database: Database) -> None:
    """Missing means the player to move wins now; every other position is there."""
    rng = random.Random(SEED)
    wins = 0
    for _ in range(300):
        position = random_position(rng, DATABASE_STONES)
        stored = database.score(position) is not None
        assert stored != position.can_win_next(), position
        wins += position.can_win_next()
    assert wins > 20  # the sample holds both kinds


def test_only_12_stone_7_x_6_positions_are_looked_up(database: Database) -> None:
    eleven = next(sample(11, 1))
    assert database.score(eleven) is None
    assert database.score(Position(Rules(rows=8, columns=5))) is None
    assert database_for(Rules(rows=8, columns=5)) is None
    assert database_for(DATABASE_RULES) is database


def _stored(database: Database, key: int) -> bool:
    """Whether ``key`` itself is in the file: the standard library's bisect, not the reader's search."""
    keys = _Keys(database.records)
    index = bisect.bisect_left(keys, key)
    return index < len(keys) and keys[index] == key


class _Keys:
    """The file's keys, read as ints where bisect looks (a set of all of them took 1.4 s)."""

    def __init__(self, records: bytes) -> None:
        self.records = records

    def __len__(self) -> int:
        return len(self.records) // 5

    def __getitem__(self, index: int) -> int:
        return int.from_bytes(self.records[5 * index : 5 * index + 4], "big", signed=True)


# === Scores ==================================================================


def test_values_become_pons_scores() -> None:
    # The package's documented examples: +71 wins in 29 plies (the first
    # player's 21st stone: 22 - 21 = 1), -88 loses in 12 (the second
    # player's 12th stone: -(22 - 12)).
    assert score_of_value(71) == 1
    assert score_of_value(-88) == -10
    assert score_of_value(0) == 0
    assert score_of_value(99) == 15  # a win with the very next stone: the first player's 7th
    assert score_of_value(-70) == -1  # a loss with the board's last stone


# The package's documented examples: its board (rows from the top, 1 the
# first player), a game reaching it, its value, and that value as our score.
DOCUMENTED = [
    (
        ["0000000", "0001000", "0102000", "0201020", "0102010", "0201020"],
        [3, 1, 1, 3, 3, 5, 5, 1, 1, 3, 3, 5],
        71,  # the first player, to move, wins with its 21st stone: 22 - 21
        1,
    ),
    (
        ["0000000", "0000000", "0011000", "0022000", "0121000", "0112022"],
        [1, 3, 2, 2, 3, 2, 2, 3, 3, 5, 1, 6],
        -88,  # the first player, to move, loses to the second's 12th stone
        -10,
    ),
]


@pytest.mark.parametrize(("board", "moves", "value", "score"), DOCUMENTED)
def test_the_packages_documented_examples_read_as_pons_scores_for_the_player_to_move(
    database: Database, board: list[str], moves: list[int], value: int, score: int
) -> None:
    position = Position.from_moves(moves, DATABASE_RULES)
    assert not position.is_won() and position.moves == DATABASE_STONES
    encoder = import_module("bitbully_databases").BitBullyDatabases._to_huffman
    documented_key = encoder([[int(cell) for cell in row] for row in board])
    assert documented_key in database_keys(position.current, position.mask)
    assert score_of_value(value) == score
    assert database.score(position) == score
    assert Solver(DATABASE_RULES, database=False).score(position) == score


@pytest.mark.parametrize("value", [1, 69, -69, 100, -100, 127])
def test_a_value_that_ends_no_game_is_refused(value: int) -> None:
    with pytest.raises(DatabaseFormatError, match="ends no game"):
        score_of_value(value)


def test_the_database_agrees_with_our_own_search_on_a_sample(database: Database) -> None:
    """The database and the project's exact search give every sampled position the same score.

    If they ever disagree, believe the database and look for the bug in our
    search: the file is fixed data, computed once by a separately written
    solver (BitBully) and used by many, and it agrees with Pascal Pons' own
    sample (the Pons test in tests/test_solver.py passes through it), while
    our search is code we change (its table, its move order). A disagreement
    on every position of one kind (all wins, all odd distances) would point
    instead at our reading of the format (score_of_value, database_keys);
    check a third solver (Pons' online solver) on one such position before
    changing either.
    """
    require_accelerator()  # the pure-Python search would take minutes
    solver = Solver(DATABASE_RULES, database=False)
    assert solver.database is None
    # 60 seeded positions: about 1.3 s of compiled search on a quiet machine.
    for position in sample(DATABASE_STONES, 60):
        assert database.score(position) == solver.score(position), position


@pytest.mark.parametrize(("stones", "positions"), [(8, 1), (9, 3), (10, 4), (11, 5)])
def test_searches_down_to_the_database_agree_with_searches_without(
    database: Database, stones: int, positions: int
) -> None:
    """Fewer positions the fewer the stones: one 8-stone search costs seconds without it."""
    require_accelerator()
    with_database = Solver(DATABASE_RULES)
    without = Solver(DATABASE_RULES, database=False)
    assert with_database.database is database
    for position in sample(stones, positions):
        assert with_database.score(position) == without.score(position), position


def test_the_compiled_lookup_agrees_with_the_python_one(database: Database) -> None:
    require_accelerator()
    solver = Solver(DATABASE_RULES, backend="native")
    search = solver._native_search
    assert search is not None
    rng = random.Random(SEED)
    for _ in range(300):  # wins at once included: both say None there
        position = random_position(rng, DATABASE_STONES)
        assert search.database_score(position.current, position.mask) == database.score(position)


def test_both_backends_search_down_to_the_database_alike(database: Database) -> None:
    """Same scores after the same number of nodes, as without the database."""
    require_accelerator()
    names: tuple[Backend, ...] = ("python", "native")
    for position in sample(10, 3):
        scores = []
        for name in names:
            solver = Solver(DATABASE_RULES, backend=name)
            assert solver.database is database
            scores.append((solver.score(position), solver.explored))
        assert scores[0] == scores[1]


def test_the_compiled_search_refuses_a_bad_database(database: Database) -> None:
    require_accelerator()
    search = Solver(DATABASE_RULES, backend="native", database=False)._native_search
    assert search is not None
    with pytest.raises(ValueError, match="5-byte records"):
        search.use_database(database.records[:-1], database.scores, DATABASE_STONES)
    with pytest.raises(ValueError, match="256-byte table"):
        search.use_database(database.records, database.scores[:-1], DATABASE_STONES)
    with pytest.raises(TypeError):
        search.use_database("not bytes", database.scores, DATABASE_STONES)  # type: ignore[arg-type]
    narrow = Solver(Rules(rows=8, columns=5), backend="native", database=False)._native_search
    assert narrow is not None
    with pytest.raises(ValueError, match="7 columns and 6 rows"):
        narrow.use_database(database.records, database.scores, DATABASE_STONES)
    search.use_database(None, None, DATABASE_STONES)  # none: every lookup fails
    assert search.database_score(0, 0) is None


def test_column_scores_are_all_exact_from_any_stone_count(database: Database) -> None:
    require_accelerator()
    rng = random.Random(SEED)
    for stones in (1, 3, 5, 7, 9):
        game = _random_game(rng, stones)
        scores = column_scores(game)
        assert all(score.exact for score in scores.values()), (game.moves_string(), scores)


def _random_game(rng: random.Random, stones: int) -> Game:
    """A game of ``stones`` random moves, not over."""
    while True:
        game = Game(DATABASE_RULES)
        for _ in range(stones):
            game.play(rng.choice(game.legal_moves()))
            if game.is_over():
                break
        else:
            return game


# === The file ================================================================


def _write(path: Path, records: list[tuple[int, int]]) -> Path:
    path.write_bytes(
        b"".join(
            key.to_bytes(4, "big", signed=True) + value.to_bytes(1, "big", signed=True)
            for key, value in records
        )
    )
    return path


def test_a_file_is_read_and_its_values_become_pons_scores(tmp_path: Path) -> None:
    won, lost, absent = sample(DATABASE_STONES, 3)
    won_key, _ = database_keys(won.current, won.mask)
    _, lost_mirror_key = database_keys(lost.current, lost.mask)
    records = sorted([(won_key, 71), (lost_mirror_key, -88), (-5, 0)])
    database = Database.read(_write(tmp_path / "db.dat", records))
    assert len(database) == 3
    assert database.score(won) == database.score(mirrored(won)) == 1
    assert database.score(lost) == database.score(mirrored(lost)) == -10
    assert database.score(absent) is None


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "whole number"),
        (b"\x00\x00\x00\x01\x00\x00", "whole number"),
        (b"\x00\x00\x00\x02\x00" + b"\x00\x00\x00\x01\x00", "out of order"),
        (b"\x00\x00\x00\x01\x05", "ends no game"),
    ],
)
def test_a_damaged_file_is_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "db.dat"
    path.write_bytes(content)
    with pytest.raises(DatabaseFormatError, match=message):
        Database.read(path)


# === Without the extra =======================================================


def test_without_the_extra_there_is_no_database(hidden: None) -> None:
    assert database_file() is None
    assert load_database() is None
    assert database_for(DATABASE_RULES) is None
    assert Solver(DATABASE_RULES).database is None


def test_the_packaged_file_is_looked_up_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Each new solver of the board asks for the file: the package's lookup
    # (importlib.resources, about 50 µs) runs once for all of them.
    shipped = tmp_path / "db.dat"
    shipped.write_bytes(b"")
    lookups: list[str] = []

    class Databases:
        @staticmethod
        def get_database_path(name: str) -> str:
            lookups.append(name)
            return str(shipped)

    package = types.ModuleType("fake_databases")
    package.BitBullyDatabases = Databases  # type: ignore[attr-defined]
    monkeypatch.setattr(database_module, "import_module", lambda name: package)
    assert database_file() == database_file() == shipped
    assert len(lookups) == 1


def test_the_environment_variable_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(NO_DATABASE_VARIABLE, "1")
    assert load_database() is None
    assert Solver(DATABASE_RULES).database is None


def test_without_the_extra_the_search_is_the_one_of_before(hidden: None) -> None:
    """The same score after the same nodes as a solver told not to use it."""
    position = Position.from_moves([3, 3, 2, 4, 4, 2, 5, 1, 1], DATABASE_RULES)
    hidden_solver = Solver(DATABASE_RULES)
    without = Solver(DATABASE_RULES, database=False)
    assert hidden_solver.score(position) == without.score(position)
    assert hidden_solver.explored == without.explored


def test_without_the_extra_column_scores_answer_as_before(hidden: None) -> None:
    """Every column of a 10-stone position is searched to the end, as before: the same scores."""
    moves = [3, 3, 2, 4, 4, 2, 5, 1, 1, 5]
    scores = column_scores(Game.from_moves(moves, DATABASE_RULES))
    solver = Solver(DATABASE_RULES, database=False)
    for column, score in scores.items():
        child = Position.from_moves([*moves, column], DATABASE_RULES)
        assert score.exact, column
        assert score.score == (-solver.score(child) if not child.is_won() else 16), column


def test_with_the_extra_the_search_does_less(database: Database) -> None:
    position = Position.from_moves([3, 3, 2, 4, 4, 2, 5, 1, 1], DATABASE_RULES)
    with_database = Solver(DATABASE_RULES)
    without = Solver(DATABASE_RULES, database=False)
    assert with_database.score(position) == without.score(position)
    assert with_database.explored < without.explored


def test_the_extra_is_declared_and_installed_for_the_tests() -> None:
    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["optional-dependencies"]["database"] == ["bitbully-databases>=0.0.2,<1"]
    assert project["dependencies"] == []  # the game itself still needs nothing
    requirements = (root / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("-e .[") and "database" in line for line in requirements)
