"""Drop-token games kept in a database, the move list being the source of truth.

Two tables: ``games`` (players, board size, token hashes) and ``moves``, one
row per drop or quit, keyed by ``(game_id, move_number)``. The engine's
:class:`~connect_four.engine.Game` decides every rule; it is rebuilt from the moves, but
not on every request: a bounded cache (:mod:`connect_four.service.cache`) keeps recently
used games and catches each up with the moves stored since (other
processes may share the database), so a request costs the same in a game
of 10 or 10,000 moves.
Reading moves reads only the rows asked for. ``games.done`` is derived from
the moves and updated in the same transaction as the move that ends the
game; it serves to list the games in progress without replaying them.

:class:`GameStore` holds every rule of storing games, written once; a
subclass per database (:mod:`connect_four.service.sqlite_store`,
:mod:`connect_four.service.postgres_store`) supplies connections, transactions, the
schema and the mapping of its faults to
:class:`~connect_four.service.errors.StorageError`. Each move is one write transaction
that reads how many moves there are, lets the engine validate the new one
and inserts it; the subclass guarantees that two write transactions on one
game never overlap (SQLite: one writer at a time; PostgreSQL: the game's
row locked ``FOR UPDATE``), so two requests can never both append move n.
A move is committed in :meth:`GameStore._append`, for a drop and a quit alike.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

from connect_four.engine import (
    Game,
    Move,
    NotYourTurnError,
    Outcome,
    Player,
    PlayerNotActiveError,
)

from .cache import CACHE_WEIGHT, CachedGame, GameCache
from .database import Connection
from .errors import (
    BadRangeError,
    GameDoneError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    MoveNotFoundError,
)
from .limits import MAX_PAGE
from .records import (
    ClockSetting,
    CreatedGame,
    GameRecord,
    StoredGame,
    check_game_id,
    drop_token_rules,
    new_game_id,
    new_tokens,
    token_digest,
)
from .replays import note as note_replayed

__all__ = ["GameStore", "MoveRules", "WouldWaitError"]


class MoveRules:
    """What a game's extras add to the seed's rules when it is created, moved or read.

    None by default (the seed's games); :class:`connect_four.service.friends.Friends`
    adds clocks, agreed draws and the rest of a game between friends. Each
    hook runs inside the store's transaction, on its connection.
    """

    def created(
        self, connection: Connection, game_id: str, players: int, clock: ClockSetting | None
    ) -> None:
        """A game of ``players`` players was inserted (in the same transaction)."""

    def before_move(self, connection: Connection, record: GameRecord, game: Game) -> None:
        """A move or quit is about to be applied (raise to refuse it)."""

    def after_move(self, connection: Connection, record: GameRecord, game: Game) -> None:
        """A move or quit was inserted and played on ``game``."""

    def outcome(self, connection: Connection, record: GameRecord, game: Game) -> Outcome | None:
        """The game's outcome: the engine's, unless the extras ended it otherwise."""
        return game.outcome()


class WouldWaitError(Exception):
    """A call made :meth:`GameStore.without_waiting` had to wait for a lock; nothing was stored.

    Never answered to a client: the caller makes the same call again where
    waiting is allowed (a worker thread, see :mod:`connect_four.service.store_calls`).
    """


class GameStore:
    """Drop-token games in a database, safe to share between threads (a base class).

    A subclass per database provides :meth:`_transaction` and extends
    :meth:`close`; every game rule is here.
    """

    quick = False
    """Whether a call that takes no lock costs well under a millisecond (an in-process
    database), so that it may run on the server's event loop :meth:`without_waiting`."""

    # The statements that differ between databases; a subclass spells its own.
    # SQLite numbers games in creation order by rowid, and a write
    # transaction already holds the whole database.
    _SELECT_IN_PROGRESS = "SELECT game_id FROM games WHERE done = 0 ORDER BY rowid"
    _SELECT_IN_PROGRESS_PAGE = (
        "SELECT rowid, game_id FROM games WHERE done = 0 AND rowid > ? ORDER BY rowid LIMIT ?"
    )
    _SELECT_GAME = "SELECT players, board_rows, board_columns, tokens FROM games WHERE game_id = ?"
    _SELECT_GAME_TO_WRITE = _SELECT_GAME

    def __init__(self, *, cache_weight: int = CACHE_WEIGHT) -> None:
        self._cache = GameCache(cache_weight)
        self._impatient = threading.local()
        self.move_rules = MoveRules()

    @contextmanager
    def without_waiting(self) -> Iterator[None]:
        """Calls of this thread in the block raise WouldWaitError instead of waiting for a lock.

        A game's lock, the database's write lock or another process's lock
        alike: the call then changed nothing and may be made again where it
        can wait.
        """
        self._impatient.on = True
        try:
            yield
        finally:
            self._impatient.on = False

    def _may_wait(self) -> bool:
        """Whether this thread's calls may wait for a lock (outside :meth:`without_waiting`)."""
        return not getattr(self._impatient, "on", False)

    def _acquire(self, lock: threading.Lock) -> None:
        """Take ``lock``, or raise WouldWaitError if it is held and this thread may not wait."""
        if not lock.acquire(blocking=self._may_wait()):
            raise WouldWaitError("a lock is held")

    def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]:
        """One transaction; commit on success, roll back on any exception.

        ``write``: the transaction will write (and must not overlap another
        write transaction on the same game).

        Raises:
            StorageError: the database failed (nothing of the transaction was kept).
        """
        raise NotImplementedError

    def close(self) -> None:
        """Forget the cached games (subclasses also close their connections)."""
        self._cache.clear()

    # --- Games -------------------------------------------------------------

    def create_game(
        self,
        *,
        players: list[str],
        rows: int,
        columns: int,
        tokens: bool = False,
        clock: ClockSetting | None = None,
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
        game_id = new_game_id()
        secret = new_tokens(players) if tokens else None
        digests = None if secret is None else json.dumps([token_digest(secret[n]) for n in players])
        with self._transaction(write=True) as connection:
            connection.execute(
                "INSERT INTO games (game_id, players, board_rows, board_columns, tokens)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, json.dumps(players), rows, columns, digests),
            )
            self.move_rules.created(connection, game_id, len(players), clock)
        return CreatedGame(game_id, secret)

    def in_progress_game_ids(self) -> list[str]:
        """The ids of all the games not yet won or drawn, oldest first (the seed API's list)."""
        with self._transaction() as connection:
            rows = connection.execute(self._SELECT_IN_PROGRESS)
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
                self._SELECT_IN_PROGRESS_PAGE,
                (after, limit + 1),
            ).fetchall()
        if len(rows) > limit:
            return [game_id for _, game_id in rows[:limit]], int(rows[limit - 1][0])
        return [game_id for _, game_id in rows], None

    @contextmanager
    def _cached(self, game_id: str) -> Iterator[CachedGame]:
        """The cache entry of ``game_id``, locked; dropped again if there is no such game."""
        check_game_id(game_id)  # Text that is no game id never gets an entry.
        entry = self._cache.entry(game_id)
        self._acquire(entry.lock)
        try:
            try:
                yield entry
            finally:
                entry.lock.release()
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
            return record, self.move_rules.outcome(connection, record, game)

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
            GameDoneError: the game is over (whether or not the player quit before).
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
        # The write transaction holds the game (SQLite: the database) before
        # reading, so the moves read are still the last ones at the insert.
        with self._cached(game_id) as entry, self._transaction(write=True) as connection:
            record, count = self._record(connection, game_id, lock=True)
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
            self.move_rules.before_move(connection, record, game)
            try:
                move = apply(game, player)
            # The engine numbers players; say the same with their names.
            except NotYourTurnError as error:
                to_move = record.players[game.to_move or 0]
                raise NotYourTurnError(f"it is {to_move}'s turn, not {player_id}'s") from error
            except PlayerNotActiveError as error:
                raise PlayerNotActiveError(f"player {player_id!r} has quit the game") from error
            try:
                connection.execute(
                    "INSERT INTO moves (game_id, move_number, player, column_number,"
                    " idempotency_key) VALUES (?, ?, ?, ?, ?)",
                    (game_id, count, move.player, move.column, key),
                )
                if game.is_over():
                    connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (game_id,))
                self.move_rules.after_move(connection, record, game)
            except BaseException:
                game.pop()  # Not stored: the cached game must not keep it.
                raise
            # If the commit fails, the cached game is one move ahead of the
            # file; the next use sees that and replays the game.
        return count

    def _record(
        self, connection: Connection, game_id: str, *, lock: bool = False
    ) -> tuple[GameRecord, int]:
        """The game's row and its number of moves (two index look-ups).

        ``lock``: hold the game's row until the transaction ends (a write).

        Raises:
            GameNotFoundError: no game has this id.
        """
        check_game_id(game_id)  # Text that is no game id never reaches the database.
        row = connection.execute(
            self._SELECT_GAME_TO_WRITE if lock else self._SELECT_GAME, (game_id,)
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
        self, connection: Connection, record: GameRecord, count: int, entry: CachedGame
    ) -> Game:
        """The cached game with all ``count`` stored moves played.

        The caller holds ``entry.lock``.
        """
        game = entry.game
        if game is None or len(game) > count:
            game = record.new_game()
        if len(game) < count:
            note_replayed(count - len(game))
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
    """Quit ``player``; once the game is over, any of its players quitting is GameDoneError.

    The engine would first say that a player who quit earlier is not active;
    the API answers every quit of a finished game alike.
    """
    if game.is_over():
        raise GameDoneError("the game is over; nobody can quit it any more")
    return game.quit(player)
