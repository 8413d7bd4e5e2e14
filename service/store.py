"""Drop-token games kept in SQLite, the move list being the source of truth.

Two tables: ``games`` (players, board size) and ``moves``, one row per drop
or quit, keyed by ``(game_id, move_number)``. Every read rebuilds the
engine's :class:`~engine.Game` by replaying the moves, so the engine decides
every rule. ``games.done`` is derived from the moves and updated in the same
transaction as the move that ends the game; it only serves to list the games
in progress without replaying them all.

Each move is one ``BEGIN IMMEDIATE`` transaction: take the write lock,
re-read the moves, let the engine validate the new one, insert it, commit.
Writers are serialised, so two requests can never both append move n. The
database runs in WAL mode with ``synchronous=NORMAL``: a commit reaches the
operating system before the response is sent, so killing the process loses
no acknowledged move (a power cut may lose the last few).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from engine import Game, GameOverError, Move, NotYourTurnError, Player, PlayerNotActiveError, Rules

from .errors import GameNotFoundError, PlayerNotFoundError

__all__ = [
    "CONNECT",
    "GAME_ID_PATTERN",
    "GameStore",
    "StoredGame",
    "StoreDep",
    "drop_token_rules",
    "get_store",
]

CONNECT = 4
"""Four in a row wins a drop-token game, whatever the board size."""

GAME_ID_PATTERN = "^[0-9a-f]{32}$"
"""What every game id looks like: 32 lowercase hex digits (a UUID4 without dashes)."""

_IS_GAME_ID = re.compile(GAME_ID_PATTERN).match

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    players TEXT NOT NULL,          -- JSON list of names, in turn order
    board_rows INTEGER NOT NULL,
    board_columns INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0 -- derived from the moves, for listing
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    move_number INTEGER NOT NULL,   -- from 0, quits included
    player INTEGER NOT NULL,        -- index into games.players
    column_number INTEGER,          -- NULL: the player quit
    PRIMARY KEY (game_id, move_number)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_done ON games (done);
"""


def drop_token_rules(rows: int, columns: int) -> Rules:
    """The engine rules of a drop-token board: four in a row, any size.

    >>> drop_token_rules(4, 4)
    Rules(rows=4, columns=4, connect=4)
    >>> drop_token_rules(2, 3).connect
    4

    Raises:
        RulesError: rows or columns is not a positive integer.
    """
    # On a board too small for four in a row nobody can win: games there end
    # in a draw, or when all but one player have quit.
    return Rules(rows, columns, CONNECT, allow_unwinnable=True)


@dataclass(frozen=True)
class StoredGame:
    """A stored game: its id, player names, and the engine game replayed from its moves."""

    game_id: str
    players: tuple[str, ...]
    game: Game

    def player_index(self, player_id: str) -> int:
        """The engine's number for the player called ``player_id``.

        Raises:
            PlayerNotFoundError: no player of this game has that name.
        """
        try:
            return self.players.index(player_id)
        except ValueError:
            raise PlayerNotFoundError(
                f"game {self.game_id!r} has no player {player_id!r}"
            ) from None


class GameStore:
    """Drop-token games in one SQLite file, safe to share between threads.

    Each thread gets its own connection, opened on first use.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        connection = self._connection()
        connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(_SCHEMA)

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            # Autocommit mode: transactions are the explicit BEGINs below.
            connection = sqlite3.connect(
                self.path, timeout=60, isolation_level=None, check_same_thread=False
            )
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA foreign_keys=ON")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    @contextmanager
    def _transaction(self, mode: str = "DEFERRED") -> Iterator[sqlite3.Connection]:
        """One transaction; commit on success, roll back on any exception."""
        connection = self._connection()
        connection.execute(f"BEGIN {mode}")
        try:
            yield connection
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT")

    def close(self) -> None:
        """Close every connection the store opened."""
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()

    # --- Games -------------------------------------------------------------

    def create_game(self, *, players: list[str], rows: int, columns: int) -> str:
        """Store a new game with no moves and return its id.

        Raises:
            RulesError: the engine refuses the board or the player count.
        """
        # Let the engine refuse the game before anything is stored.
        Game(drop_token_rules(rows, columns), players=len(players))
        game_id = uuid.uuid4().hex
        with self._transaction("IMMEDIATE") as connection:
            connection.execute(
                "INSERT INTO games (game_id, players, board_rows, board_columns)"
                " VALUES (?, ?, ?, ?)",
                (game_id, json.dumps(players), rows, columns),
            )
        return game_id

    def in_progress_game_ids(self) -> list[str]:
        """The ids of the games not yet won or drawn, oldest first."""
        rows = self._connection().execute(
            "SELECT game_id FROM games WHERE done = 0 ORDER BY rowid"
        )
        return [game_id for (game_id,) in rows]

    def read_game(self, game_id: str) -> StoredGame:
        """The game, rebuilt by the engine from its stored moves.

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self._transaction() as connection:
            return self._load(connection, game_id)

    # --- Moves -------------------------------------------------------------

    def play(self, *, game_id: str, player_id: str, column: int) -> int:
        """Drop ``player_id``'s marker into ``column``; return the move number.

        Raises:
            GameNotFoundError, PlayerNotFoundError: unknown game or player.
            EngineError: the engine refuses the move (turn, column, game over,
                player who quit).
        """
        return self._append(game_id, player_id, lambda game, player: game.play(column, player))

    def quit(self, *, game_id: str, player_id: str) -> int:
        """Take ``player_id`` out of the game; return the move number of the quit.

        Raises:
            GameNotFoundError, PlayerNotFoundError: unknown game or player.
            EngineError: the engine refuses (player already quit, game over).
        """
        return self._append(game_id, player_id, _quit)

    def _append(
        self, game_id: str, player_id: str, apply: Callable[[Game, Player], Move]
    ) -> int:
        """Apply one engine move by ``player_id`` to the stored game and store it, atomically."""
        # IMMEDIATE takes the write lock before reading, so the moves read
        # are still the last ones when the new move is inserted.
        with self._transaction("IMMEDIATE") as connection:
            stored = self._load(connection, game_id)
            player = stored.player_index(player_id)
            try:
                move = apply(stored.game, player)
            # The engine numbers players; say the same with their names.
            except NotYourTurnError as error:
                to_move = stored.players[stored.game.to_move or 0]
                raise NotYourTurnError(
                    f"it is {to_move}'s turn, not {player_id}'s"
                ) from error
            except PlayerNotActiveError as error:
                raise PlayerNotActiveError(f"player {player_id!r} has quit the game") from error
            number = len(stored.game) - 1
            connection.execute(
                "INSERT INTO moves (game_id, move_number, player, column_number)"
                " VALUES (?, ?, ?, ?)",
                (game_id, number, move.player, move.column),
            )
            if stored.game.is_over():
                connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (game_id,))
        return number

    def _load(self, connection: sqlite3.Connection, game_id: str) -> StoredGame:
        # Text that is no game id names no game; it never reaches the database.
        if not _IS_GAME_ID(game_id):
            raise GameNotFoundError(f"there is no game {game_id!r}")
        row = connection.execute(
            "SELECT players, board_rows, board_columns FROM games WHERE game_id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise GameNotFoundError(f"there is no game {game_id!r}")
        players: list[str] = json.loads(row[0])
        game = Game(drop_token_rules(row[1], row[2]), players=len(players))
        moves = connection.execute(
            "SELECT player, column_number FROM moves WHERE game_id = ? ORDER BY move_number",
            (game_id,),
        )
        for player, column in moves:
            if column is None:
                game.quit(player)
            else:
                game.play(column, player)
        return StoredGame(game_id, tuple(players), game)


def _quit(game: Game, player: Player) -> Move:
    """Quit ``player``; once the game is over, any of its players quitting is GameOverError.

    The engine would first say that a player who quit earlier is not active;
    the API answers every quit of a finished game alike (410).
    """
    if game.is_over():
        raise GameOverError("the game is over; nobody can quit it any more")
    return game.quit(player)


def get_store(request: Request) -> GameStore:
    """The app's store (a dependency, so tests may override it)."""
    store: GameStore = request.app.state.store
    return store


StoreDep = Annotated[GameStore, Depends(get_store)]
