"""The GameStore on its own, on each database: the move list is the truth, one transaction per move."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from connect_four.engine import NotYourTurnError, Rules, RulesError, Status
from connect_four.service.errors import (
    GameDoneError,
    GameNotFoundError,
    PlayerNotFoundError,
    StorageFullError,
)
from connect_four.service.records import drop_token_rules
from connect_four.service.repository import GameStore
from connect_four.service.sqlite_store import SqliteGameStore
from connect_four.service.storage import open_store

OpenStore = Callable[..., GameStore]


@pytest.fixture
def open_database(database: str | Path) -> Iterator[OpenStore]:
    """Open stores on the test's new database (each kind in turn); close them all after."""
    stores: list[GameStore] = []

    def open_one(**options: int) -> GameStore:
        store = open_store(database, **options)
        stores.append(store)
        return store

    yield open_one
    for store in stores:
        store.close()


def test_a_new_store_on_the_same_file_finds_every_game(open_database: OpenStore) -> None:
    store = open_database()
    game_id = store.create_game(players=["a", "b"], rows=4, columns=4).game_id
    for player, column in [("a", 0), ("b", 1), ("a", 0)]:
        store.play(game_id=game_id, player_id=player, column=column)
    store.quit(game_id=game_id, player_id="b")
    store.close()

    reopened = open_database()
    stored = reopened.read_game(game_id)
    assert stored.players == ("a", "b")
    assert [(move.player, move.column) for move in stored.game.history] == [
        (0, 0),
        (1, 1),
        (0, 0),
        (1, None),
    ]
    outcome = stored.game.outcome()
    assert outcome is not None and outcome.winner == 0
    assert reopened.in_progress_game_ids() == []
    reopened.close()


def test_the_moves_table_holds_one_row_per_drop_or_quit(tmp_path: Path) -> None:
    store = SqliteGameStore(tmp_path / "games.db")
    game_id = store.create_game(players=["a", "b", "c"], rows=4, columns=4).game_id
    assert store.play(game_id=game_id, player_id="a", column=2) == 0
    assert store.quit(game_id=game_id, player_id="c") == 1
    store.close()
    with sqlite3.connect(tmp_path / "games.db") as connection:
        rows = connection.execute(
            "SELECT move_number, player, column_number FROM moves WHERE game_id = ?"
            " ORDER BY move_number",
            (game_id,),
        ).fetchall()
    assert rows == [(0, 0, 2), (1, 2, None)]


def test_a_refused_move_stores_nothing(open_database: OpenStore) -> None:
    store = open_database()
    game_id = store.create_game(players=["a", "b"], rows=4, columns=4).game_id
    with pytest.raises(NotYourTurnError, match="it is a's turn, not b's"):
        store.play(game_id=game_id, player_id="b", column=0)
    assert len(store.read_game(game_id).game) == 0
    store.close()


def test_unknown_game_and_player(open_database: OpenStore) -> None:
    store = open_database()
    with pytest.raises(GameNotFoundError):
        store.read_game("f" * 32)
    game_id = store.create_game(players=["a", "b"], rows=4, columns=4).game_id
    with pytest.raises(PlayerNotFoundError):
        store.quit(game_id=game_id, player_id="z")
    store.close()


def test_the_engine_refuses_a_one_player_game(open_database: OpenStore) -> None:
    store = open_database()
    with pytest.raises(RulesError):
        store.create_game(players=["solo"], rows=4, columns=4)
    assert store.in_progress_game_ids() == []
    store.close()


def test_twenty_threads_post_the_same_move_once(open_database: OpenStore) -> None:
    store = open_database()
    game_id = store.create_game(players=["a", "b"], rows=4, columns=4).game_id
    barrier = threading.Barrier(20, timeout=120)
    outcomes: list[str] = []
    lock = threading.Lock()

    def post() -> None:
        barrier.wait()
        try:
            store.play(game_id=game_id, player_id="a", column=0)
            result = "played"
        except NotYourTurnError:
            result = "refused"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=post) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["played"] + ["refused"] * 19
    assert len(store.read_game(game_id).game) == 1
    store.close()


@pytest.mark.parametrize(("rows", "columns"), [(4, 4), (1, 4), (4, 1), (100, 100)])
def test_rules_are_the_engines_four_in_a_row(rows: int, columns: int) -> None:
    assert drop_token_rules(rows, columns) == Rules(rows, columns, 4)


@pytest.mark.parametrize(("rows", "columns"), [(1, 1), (2, 2), (3, 3), (1, 3)])
def test_boards_without_room_for_four_only_draw(
    open_database: OpenStore, rows: int, columns: int
) -> None:
    rules = drop_token_rules(rows, columns)
    assert (rules.rows, rules.columns, rules.connect) == (rows, columns, 4)
    store = open_database()
    game_id = store.create_game(players=["a", "b"], rows=rows, columns=columns).game_id
    order = [column for column in range(columns) for _ in range(rows)]
    for number, column in enumerate(order):
        store.play(game_id=game_id, player_id="ab"[number % 2], column=column)
    game = store.read_game(game_id).game
    assert game.status is Status.DRAWN
    with pytest.raises(GameDoneError):
        store.quit(game_id=game_id, player_id="a")
    store.close()


@pytest.mark.parametrize("bad", [(0, 4), (4, 0), (-1, 2)])
def test_the_engine_refuses_empty_boards(bad: tuple[int, int]) -> None:
    with pytest.raises(RulesError):
        drop_token_rules(*bad)


@pytest.mark.slow
def test_the_command_line_help() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "connect_four.service", "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    for option in ("--host", "--port", "--db"):
        assert option in result.stdout


def test_a_cached_game_catches_up_with_moves_another_store_made(open_database: OpenStore) -> None:
    """Two stores on one file, as two server processes: neither serves a stale game."""
    first = open_database()
    second = open_database()
    game_id = first.create_game(players=["a", "b"], rows=4, columns=4).game_id
    assert first.play(game_id=game_id, player_id="a", column=0) == 0  # Cached in first.
    assert second.play(game_id=game_id, player_id="b", column=1) == 1
    # first must know that b has moved: a's turn, and move 2 is next.
    assert first.play(game_id=game_id, player_id="a", column=0) == 2
    with pytest.raises(NotYourTurnError):
        second.play(game_id=game_id, player_id="a", column=0)
    for _ in range(2):
        second.play(game_id=game_id, player_id="b", column=1)
        first.play(game_id=game_id, player_id="a", column=0)
    _, outcome = second.read_state(game_id)
    assert outcome is not None and outcome.winner == 0
    assert first.read_state(game_id)[1] == outcome
    first.close()
    second.close()


def test_a_refused_write_leaves_the_cached_game_as_stored(tmp_path: Path) -> None:
    # Seven players filling a 100 x 100 board column after column: along
    # every line neighbours differ by 1, 100, 101 or 99 turns, none a
    # multiple of 7, so nobody wins before the database is full.
    players = [f"p{n}" for n in range(7)]
    store = SqliteGameStore(tmp_path / "games.db")
    game_id = store.create_game(players=players, rows=100, columns=100).game_id
    (pages,) = store._connection().execute("PRAGMA page_count").fetchone()
    store.close()
    full = SqliteGameStore(tmp_path / "games.db", max_pages=pages + 2)
    played = 0
    with pytest.raises(StorageFullError):
        for played in range(10_000):
            full.play(game_id=game_id, player_id=players[played % 7], column=played // 100)
    assert played > 0
    # The refused move is neither stored nor kept in the cached game.
    assert len(full.read_moves(game_id)[1]) == played == len(full.read_game(game_id).game)
    full.close()


def test_the_cache_stays_within_its_weight(open_database: OpenStore) -> None:
    store = open_database(cache_weight=100)
    ids = [store.create_game(players=["a", "b"], rows=6, columns=7).game_id for _ in range(10)]
    for game_id in ids:
        store.play(game_id=game_id, player_id="a", column=3)
    assert store._cache.weight <= 100
    for game_id in ids:  # Evicted games are replayed again, correctly.
        assert store.play(game_id=game_id, player_id="b", column=3) == 1
    store.close()


def test_unknown_game_ids_leave_nothing_in_the_cache(open_database: OpenStore) -> None:
    store = open_database()
    for number in range(200):
        with pytest.raises(GameNotFoundError):
            store.read_state(f"{number:032x}")
        with pytest.raises(GameNotFoundError):
            store.play(game_id=f"{number:032x}", player_id="a", column=0)
    assert len(store._cache) == 0
    store.close()


def test_a_database_from_before_schema_versions_is_migrated_and_keeps_its_games(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as connection:  # The first release's tables.
        connection.executescript(
            "CREATE TABLE games (game_id TEXT PRIMARY KEY, players TEXT NOT NULL,"
            " board_rows INTEGER NOT NULL, board_columns INTEGER NOT NULL,"
            " done INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE moves (game_id TEXT NOT NULL, move_number INTEGER NOT NULL,"
            " player INTEGER NOT NULL, column_number INTEGER,"
            " PRIMARY KEY (game_id, move_number)) WITHOUT ROWID;"
            f"INSERT INTO games VALUES ('{'a' * 32}', '[\"x\", \"y\"]', 4, 4, 0);"
            f"INSERT INTO moves VALUES ('{'a' * 32}', 0, 0, 2);"
        )
    store = SqliteGameStore(path)
    assert store.play(game_id="a" * 32, player_id="y", column=2, key="retry-1") == 1
    assert [move.column for move in store.read_game("a" * 32).game.history] == [2, 2]
    store.close()
    with sqlite3.connect(path) as connection:
        # Version 2: the rate counters; 3: the table of games between friends' extras; 4: the
        # lobby; 5: friends' presence shared by the processes; 6: each game's chain.
        assert connection.execute("SELECT version FROM schema_version").fetchall() == [(6,)]
