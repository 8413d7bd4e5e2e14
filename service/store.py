"""Drop-token games kept in SQLite, the move list being the source of truth.

Two tables: ``games`` (players, board size, token hashes) and ``moves``, one
row per drop or quit, keyed by ``(game_id, move_number)``. The engine's
:class:`~engine.Game` decides every rule; it is rebuilt from the moves, but
not on every request: a bounded cache keeps recently used games and catches
each up with the moves stored since (other processes may share the file), so
a request costs the same in a game of 10 or 10,000 moves. Reading moves
reads only the rows asked for. ``games.done`` is derived from the moves and
updated in the same transaction as the move that ends the game; it serves
to list the games in progress without replaying them.

Each move is one ``BEGIN IMMEDIATE`` transaction: take the write lock,
read how many moves there are, let the engine validate the new one, insert
it, commit. Writers are serialised, so two requests can never both append
move n. The database runs in WAL mode with ``synchronous=NORMAL``: a commit
reaches the operating system before the response is sent, so killing the
process loses no acknowledged move (a power cut may lose the last few).

Storage faults are never silent. Every SQLite failure becomes a
:class:`~service.errors.StorageError` (503, its own code per fault) after
the transaction is rolled back, so nothing is acknowledged that was not
committed. Before each transaction the file at the path must still be the
one opened: SQLite would go on writing into a deleted or moved file, which
nobody would ever read again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import pathlib
import re
import secrets
import sqlite3
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from engine import (
    Game,
    GameOverError,
    Move,
    NotYourTurnError,
    Outcome,
    Player,
    PlayerNotActiveError,
    Rules,
)

from .errors import (
    BadRangeError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    MoveNotFoundError,
    PlayerNotFoundError,
    StorageBusyError,
    StorageCorruptError,
    StorageError,
    StorageFullError,
    StorageMissingError,
    StorageReadOnlyError,
    StorageReplacedError,
    TokenRejectedError,
    TokenRequiredError,
)
from .limits import MAX_PAGE

__all__ = [
    "CONNECT",
    "GAME_ID_PATTERN",
    "CreatedGame",
    "GameRecord",
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

BUSY_TIMEOUT = 10.0
"""Seconds a transaction waits for another's lock before answering 503 storage_busy."""

CACHE_WEIGHT = 2_000_000
"""What the game cache may hold, in moves plus board cells (some 100 MB at most)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    game_id TEXT PRIMARY KEY,
    players TEXT NOT NULL,          -- JSON list of names, in turn order
    board_rows INTEGER NOT NULL,
    board_columns INTEGER NOT NULL,
    done INTEGER NOT NULL DEFAULT 0, -- derived from the moves, for listing
    tokens TEXT                     -- JSON list of SHA-256 hex digests, or NULL
);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL REFERENCES games (game_id),
    move_number INTEGER NOT NULL,   -- from 0, quits included
    player INTEGER NOT NULL,        -- index into games.players
    column_number INTEGER,          -- NULL: the player quit
    idempotency_key TEXT,           -- the client's Idempotency-Key, or NULL
    PRIMARY KEY (game_id, move_number)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_by_done ON games (done);
"""

# Columns added after the first release: a database made before gets them.
_ADDED_COLUMNS = (("games", "tokens", "TEXT"), ("moves", "idempotency_key", "TEXT"))

_KEY_INDEX = """
CREATE UNIQUE INDEX IF NOT EXISTS moves_by_key
    ON moves (game_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
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


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class GameRecord:
    """A stored game's row: id, player names, board size and its players' token digests."""

    game_id: str
    players: tuple[str, ...]
    rows: int
    columns: int
    token_digests: tuple[str, ...] | None

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

    def authorize(self, player: int, token: str | None) -> None:
        """Check that ``token`` is ``player``'s, if the game was created with tokens.

        Raises:
            TokenRequiredError: the game has tokens and none was sent.
            TokenRejectedError: the token is not this player's.
        """
        if self.token_digests is None:
            return
        name = self.players[player]
        if token is None:
            raise TokenRequiredError(
                f"game {self.game_id!r} was created with player tokens: send "
                f"'Authorization: Bearer <token>' with {name}'s token"
            )
        if not hmac.compare_digest(_digest(token), self.token_digests[player]):
            raise TokenRejectedError(f"that token is not {name}'s")


@dataclass(frozen=True)
class StoredGame:
    """A stored game: its id, player names, and an engine game replayed from its moves."""

    game_id: str
    players: tuple[str, ...]
    game: Game


@dataclass(frozen=True)
class CreatedGame:
    """A new game's id, and its players' tokens by name when they were asked for."""

    game_id: str
    tokens: dict[str, str] | None


class _CachedGame:
    """One game replayed by the engine; its lock guards the game while it is used."""

    __slots__ = ("lock", "game", "weight")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.game: Game | None = None
        self.weight = 0


class _GameCache:
    """Recently used games, least recently used dropped first beyond ``max_weight``."""

    def __init__(self, max_weight: int) -> None:
        self.max_weight = max_weight
        self._entries: OrderedDict[str, _CachedGame] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def entry(self, game_id: str) -> _CachedGame:
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                entry = self._entries[game_id] = _CachedGame()
            self._entries.move_to_end(game_id)
            return entry

    def weigh(self, game_id: str, entry: _CachedGame) -> None:
        """Count ``entry``'s new size, and drop the oldest games if the cache is too big."""
        game = entry.game
        weight = 1 if game is None else 1 + len(game) + game.rules.cells
        with self._lock:
            self._weight += weight - entry.weight
            entry.weight = weight
            while self._weight > self.max_weight and len(self._entries) > 1:
                oldest_id, oldest = next(iter(self._entries.items()))
                if oldest_id == game_id:
                    break
                del self._entries[oldest_id]
                self._weight -= oldest.weight

    def evict(self, game_id: str) -> None:
        with self._lock:
            entry = self._entries.pop(game_id, None)
            if entry is not None:
                self._weight -= entry.weight

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0


def _storage_error(error: sqlite3.Error, path: str) -> StorageError:
    """The service error for an SQLite failure, by SQLite's own error name."""
    name = getattr(error, "sqlite_errorname", "") or ""
    kinds: tuple[tuple[tuple[str, ...], type[StorageError]], ...] = (
        (("SQLITE_FULL",), StorageFullError),
        (("SQLITE_READONLY",), StorageReadOnlyError),
        (("SQLITE_CORRUPT", "SQLITE_NOTADB"), StorageCorruptError),
        (("SQLITE_BUSY", "SQLITE_LOCKED"), StorageBusyError),
    )
    kind = next((kind for prefixes, kind in kinds if name.startswith(prefixes)), StorageError)
    return kind(f"the database {path} cannot be used ({error}); the request changed nothing")


class GameStore:
    """Drop-token games in one SQLite file, safe to share between threads.

    Each thread gets its own connection, opened on first use.
    ``max_pages``, when given, caps the database at that many pages (an
    operator's size limit; writes beyond it are 503 ``storage_full``).
    ``read_only`` serves the games but refuses every write with 503
    ``storage_read_only`` (for backups and maintenance).

    Raises:
        StorageError: the file cannot be opened as a database (its subclass
            names why: corrupt, read-only...).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        max_pages: int | None = None,
        read_only: bool = False,
        cache_weight: int = CACHE_WEIGHT,
    ) -> None:
        self.path = os.fspath(path)
        self.max_pages = max_pages
        self.read_only = read_only
        self._local = threading.local()
        self._connections: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        # Writers of this process queue here rather than in SQLite's busy
        # handler, which sleeps up to 100 ms at a time between tries.
        self._write_lock = threading.Lock()
        self._cache = _GameCache(cache_weight)
        self._opened = False  # Until the file is made and set up.
        try:
            connection = self._connection()
            connection.execute("PRAGMA journal_mode=WAL")
            connection.executescript(_SCHEMA)
            for table, column, kind in _ADDED_COLUMNS:
                known = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
                if column not in known:
                    connection.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            connection.executescript(_KEY_INDEX)
            if read_only:
                connection.execute("PRAGMA query_only=ON")
        except sqlite3.DatabaseError as error:
            self.close()
            raise _storage_error(error, self.path) from error
        status = os.stat(self.path)
        self._identity = (status.st_dev, status.st_ino)
        self._opened = True

    # --- Connections and transactions -------------------------------------

    def _connection(self) -> sqlite3.Connection:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            # Only the store's first connection may create the file: a later
            # one must never make an empty database where the file went missing.
            mode = "rw" if self._opened else "rwc"
            uri = f"{pathlib.Path(self.path).resolve().as_uri()}?mode={mode}"
            # Autocommit mode: transactions are the explicit BEGINs below.
            connection = sqlite3.connect(
                uri,
                uri=True,
                timeout=BUSY_TIMEOUT,
                isolation_level=None,
                check_same_thread=False,
            )
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA foreign_keys=ON")
            if self.max_pages is not None:
                connection.execute(f"PRAGMA max_page_count={int(self.max_pages)}")
            if self.read_only and self._opened:  # The first is set up in __init__.
                connection.execute("PRAGMA query_only=ON")
            self._local.connection = connection
            with self._lock:
                self._connections.append(connection)
        return connection

    def _drop_connection(self) -> None:
        """Close this thread's connection after a fault; the next use opens a new one."""
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        self._local.connection = None
        if connection is not None:
            with self._lock:
                if connection in self._connections:
                    self._connections.remove(connection)
            try:
                connection.close()
            except sqlite3.Error:
                pass

    def _check_file(self) -> None:
        """Refuse to go on unless the file at the path is the one this store opened.

        Raises:
            StorageMissingError: nothing is at the path any more.
            StorageReplacedError: another file is.
        """
        try:
            status = os.stat(self.path)
        except FileNotFoundError:
            raise StorageMissingError(
                f"the database file {self.path} is gone (deleted or moved away); "
                "the request changed nothing"
            ) from None
        except OSError as error:
            raise StorageError(
                f"the database file {self.path} cannot be reached ({error}); "
                "the request changed nothing"
            ) from None
        if (status.st_dev, status.st_ino) != self._identity:
            raise StorageReplacedError(
                f"the database file {self.path} was replaced by another file; the request "
                "changed nothing (restart the service to serve the new file)"
            )

    @contextmanager
    def _transaction(self, mode: str = "DEFERRED") -> Iterator[sqlite3.Connection]:
        """One transaction; commit on success, roll back on any exception.

        Raises:
            StorageError: the file is not the one opened, or SQLite failed
                (nothing of the transaction was kept).
        """
        self._check_file()
        writing = mode == "IMMEDIATE"
        if writing:
            self._write_lock.acquire()
        try:
            try:
                connection = self._connection()
                connection.execute(f"BEGIN {mode}")
            except sqlite3.DatabaseError as error:
                self._drop_connection()
                raise _storage_error(error, self.path) from error
            yield from self._run(connection)
        finally:
            if writing:
                self._write_lock.release()

    def _run(self, connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """The body of :meth:`_transaction` once it has begun: commit, or roll back and map."""
        try:
            yield connection
            connection.execute("COMMIT")
        except BaseException as error:
            try:
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
            except sqlite3.Error:
                self._drop_connection()
            if isinstance(error, sqlite3.DatabaseError) and not isinstance(
                error, sqlite3.IntegrityError
            ):
                self._drop_connection()
                raise _storage_error(error, self.path) from error
            raise

    def close(self) -> None:
        """Close every connection the store opened."""
        with self._lock:
            for connection in self._connections:
                connection.close()
            self._connections.clear()
        self._local = threading.local()
        self._cache.clear()

    # --- Games -------------------------------------------------------------

    def create_game(
        self, *, players: list[str], rows: int, columns: int, tokens: bool = False
    ) -> CreatedGame:
        """Store a new game with no moves; with ``tokens``, make one secret per player.

        Only the tokens' SHA-256 digests are stored: the tokens themselves
        are shown once, in the answer.

        Raises:
            RulesError: the engine refuses the board or the player count.
            StorageError: the database cannot be written.
        """
        # Let the engine refuse the game before anything is stored.
        Game(drop_token_rules(rows, columns), players=len(players))
        game_id = uuid.uuid4().hex
        secret = {name: secrets.token_urlsafe(24) for name in players} if tokens else None
        digests = None if secret is None else json.dumps([_digest(secret[n]) for n in players])
        with self._transaction("IMMEDIATE") as connection:
            connection.execute(
                "INSERT INTO games (game_id, players, board_rows, board_columns, tokens)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, json.dumps(players), rows, columns, digests),
            )
        return CreatedGame(game_id, secret)

    def in_progress_game_ids(self) -> list[str]:
        """The ids of all the games not yet won or drawn, oldest first (the seed API's list)."""
        with self._transaction() as connection:
            rows = connection.execute("SELECT game_id FROM games WHERE done = 0 ORDER BY rowid")
            return [game_id for (game_id,) in rows]

    def in_progress_page(
        self, *, after: int = 0, limit: int = MAX_PAGE
    ) -> tuple[list[str], int | None]:
        """At most ``limit`` ids of games in progress after position ``after``, oldest first.

        Positions are the games' places in the order they were created; the
        second value is the position to pass as ``after`` for the next page,
        None on the last page. Any position is valid, and each page costs in
        proportion to its size.
        """
        with self._transaction() as connection:
            rows = connection.execute(
                "SELECT rowid, game_id FROM games WHERE done = 0 AND rowid > ?"
                " ORDER BY rowid LIMIT ?",
                (after, limit + 1),
            ).fetchall()
        if len(rows) > limit:
            return [game_id for _, game_id in rows[:limit]], int(rows[limit - 1][0])
        return [game_id for _, game_id in rows], None

    @contextmanager
    def _cached(self, game_id: str) -> Iterator[_CachedGame]:
        """The cache entry of ``game_id``, locked; dropped again if there is no such game."""
        # Text that is no game id never gets an entry.
        if not _IS_GAME_ID(game_id):
            raise GameNotFoundError(f"there is no game {game_id!r}")
        entry = self._cache.entry(game_id)
        try:
            with entry.lock:
                yield entry
        except GameNotFoundError:
            self._cache.evict(game_id)  # Unknown ids must not fill the cache.
            raise

    def read_state(self, game_id: str) -> tuple[GameRecord, Outcome | None]:
        """The game's record and outcome (None while in progress).

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self._cached(game_id) as entry, self._transaction() as connection:
            record, count = self._record(connection, game_id)
            game = self._caught_up(connection, record, count, entry)
            return record, game.outcome()

    def read_game(self, game_id: str) -> StoredGame:
        """The game, replayed by the engine from all its moves (a copy: for tests and tools).

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self._cached(game_id) as entry, self._transaction() as connection:
            record, count = self._record(connection, game_id)
            game = self._caught_up(connection, record, count, entry)
            return StoredGame(game_id, record.players, game.copy())

    # --- Moves -------------------------------------------------------------

    def read_moves(
        self, game_id: str, start: int | None = None, until: int | None = None
    ) -> tuple[GameRecord, list[Move]]:
        """The moves numbered ``start`` to ``until`` inclusive (each end open if None).

        ``until`` past the end is cut to the end.

        Raises:
            GameNotFoundError: no game has this id.
            BadRangeError: ``until`` is before ``start``.
            MoveNotFoundError: ``start`` is past the last move.
        """
        if start is not None and until is not None and until < start:
            raise BadRangeError(f"until {until} is before start {start}")
        with self._transaction() as connection:
            record, count = self._record(connection, game_id)
            if start is not None and start >= count:
                raise MoveNotFoundError(
                    f"start {start} is past the last move of game {game_id!r} ({count} moves)"
                )
            first = 0 if start is None else start
            last = count - 1 if until is None else min(until, count - 1)
            rows = connection.execute(
                "SELECT player, column_number FROM moves WHERE game_id = ?"
                " AND move_number BETWEEN ? AND ? ORDER BY move_number",
                (game_id, first, last),
            )
            return record, [Move(player, column) for player, column in rows]

    def read_move(self, game_id: str, number: int) -> tuple[GameRecord, Move]:
        """The move numbered ``number``.

        Raises:
            GameNotFoundError, MoveNotFoundError: no such game, or no such move.
        """
        with self._transaction() as connection:
            record, count = self._record(connection, game_id)
            row = connection.execute(
                "SELECT player, column_number FROM moves WHERE game_id = ? AND move_number = ?",
                (game_id, number),
            ).fetchone()
            if row is None:
                raise MoveNotFoundError(f"game {game_id!r} has no move {number} ({count} moves)")
            return record, Move(row[0], row[1])

    def play(
        self,
        *,
        game_id: str,
        player_id: str,
        column: int,
        token: str | None = None,
        key: str | None = None,
    ) -> int:
        """Drop ``player_id``'s marker into ``column``; return the move number.

        ``token`` is the player's, for a game created with tokens. ``key``,
        an Idempotency-Key: if this game already has a move stored with it,
        by this player into this column, its number is returned again and
        nothing is stored.

        Raises:
            GameNotFoundError, PlayerNotFoundError: unknown game or player.
            TokenRequiredError, TokenRejectedError: the game has tokens and
                ``token`` is missing or not the player's.
            IdempotencyKeyReusedError: ``key`` names another move.
            EngineError: the engine refuses the move (turn, column, game over,
                player who quit).
            StorageError: the database cannot be written; nothing was stored.
        """
        return self._append(
            game_id, player_id, column, token, key, lambda game, player: game.play(column, player)
        )

    def quit(
        self, *, game_id: str, player_id: str, token: str | None = None, key: str | None = None
    ) -> int:
        """Take ``player_id`` out of the game; return the move number of the quit.

        ``token`` and ``key`` as for :meth:`play`.

        Raises:
            GameNotFoundError, PlayerNotFoundError: unknown game or player.
            TokenRequiredError, TokenRejectedError, IdempotencyKeyReusedError:
                as for :meth:`play`.
            GameOverError: the game is over (whether or not the player quit before).
            EngineError: the engine refuses (player already quit).
            StorageError: the database cannot be written; nothing was stored.
        """
        return self._append(game_id, player_id, None, token, key, _quit)

    def _append(
        self,
        game_id: str,
        player_id: str,
        column: int | None,
        token: str | None,
        key: str | None,
        apply: Callable[[Game, Player], Move],
    ) -> int:
        """Apply one engine move by ``player_id`` to the stored game and store it, atomically."""
        # IMMEDIATE takes the write lock before reading, so the moves read
        # are still the last ones when the new move is inserted.
        with self._cached(game_id) as entry, self._transaction("IMMEDIATE") as connection:
            record, count = self._record(connection, game_id)
            player = record.player_index(player_id)
            record.authorize(player, token)
            if key is not None:
                done = connection.execute(
                    "SELECT move_number, player, column_number FROM moves"
                    " WHERE game_id = ? AND idempotency_key = ?",
                    (game_id, key),
                ).fetchone()
                if done is not None:
                    if (done[1], done[2]) != (player, column):
                        raise IdempotencyKeyReusedError(
                            f"Idempotency-Key {key!r} was sent with another request: move "
                            f"{done[0]} of game {game_id!r}"
                        )
                    return int(done[0])
            game = self._caught_up(connection, record, count, entry)
            try:
                move = apply(game, player)
            # The engine numbers players; say the same with their names.
            except NotYourTurnError as error:
                to_move = record.players[game.to_move or 0]
                raise NotYourTurnError(
                    f"it is {to_move}'s turn, not {player_id}'s"
                ) from error
            except PlayerNotActiveError as error:
                raise PlayerNotActiveError(f"player {player_id!r} has quit the game") from error
            try:
                connection.execute(
                    "INSERT INTO moves (game_id, move_number, player, column_number,"
                    " idempotency_key) VALUES (?, ?, ?, ?, ?)",
                    (game_id, count, move.player, move.column, key),
                )
                if game.is_over():
                    connection.execute(
                        "UPDATE games SET done = 1 WHERE game_id = ?", (game_id,)
                    )
            except BaseException:
                game.pop()  # Not stored: the cached game must not keep it.
                raise
            # If the commit fails, the cached game is one move ahead of the
            # file; the next use sees that and replays the game.
        return count

    def _record(self, connection: sqlite3.Connection, game_id: str) -> tuple[GameRecord, int]:
        """The game's row and its number of moves (two index look-ups).

        Raises:
            GameNotFoundError: no game has this id.
        """
        # Text that is no game id names no game; it never reaches the database.
        if not _IS_GAME_ID(game_id):
            raise GameNotFoundError(f"there is no game {game_id!r}")
        row = connection.execute(
            "SELECT players, board_rows, board_columns, tokens FROM games WHERE game_id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise GameNotFoundError(f"there is no game {game_id!r}")
        (last,) = connection.execute(
            "SELECT max(move_number) FROM moves WHERE game_id = ?", (game_id,)
        ).fetchone()
        digests = None if row[3] is None else tuple(json.loads(row[3]))
        record = GameRecord(game_id, tuple(json.loads(row[0])), row[1], row[2], digests)
        return record, 0 if last is None else last + 1

    def _caught_up(
        self, connection: sqlite3.Connection, record: GameRecord, count: int, entry: _CachedGame
    ) -> Game:
        """The cached game with all ``count`` stored moves played.

        The caller holds ``entry.lock``.
        """
        game = entry.game
        if game is None or len(game) > count:
            game = Game(drop_token_rules(record.rows, record.columns), players=len(record.players))
        if len(game) < count:
            moves = connection.execute(
                "SELECT player, column_number FROM moves WHERE game_id = ?"
                " AND move_number >= ? ORDER BY move_number",
                (record.game_id, len(game)),
            )
            for player, column in moves:
                if column is None:
                    game.quit(player)
                else:
                    game.play(column, player)
        entry.game = game
        self._cache.weigh(record.game_id, entry)
        return game


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
