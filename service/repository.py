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

A game between friends (issue 35) also has *extras* (a clock, an offer, how
it ended: :mod:`connect_four.service.friend_rules`), one row of
``friend_games`` read in the same statement as the game's row: the rules
they add are applied here, inside the same transactions, whichever the
database; the changes that are not moves are
:class:`~connect_four.service.friend_store.FriendExtras`'. A game without
extras makes exactly the statements it made before they existed.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any, Literal, ParamSpec, TypeVar

from connect_four.engine import (
    EngineError,
    Game,
    Move,
    NotYourTurnError,
    Outcome,
    Player,
    PlayerNotActiveError,
)

from . import friend_rules as rules
from .cache import CACHE_WEIGHT, CachedGame, GameCache
from .database import INSERT_GAME, Connection
from .errors import (
    BadRangeError,
    GameDoneError,
    GameNotFoundError,
    IdempotencyKeyReusedError,
    MoveNotFoundError,
)
from .friend_store import FriendExtras
from .lobby_store import LobbyTables
from .lobby_views import LobbyViews
from .presence_rows import PresenceRows
from .rate_counts import RateCounts
from .records import (
    CONNECT,
    ClockSetting,
    CreatedGame,
    GameRecord,
    StoredGame,
    check_game_id,
    new_game_id,
    new_game_rules,
    new_tokens,
    token_digest,
)
from .replays import note as note_replayed

__all__ = [
    "Apply",
    "Database",
    "FriendTouch",
    "GameStatus",
    "GameStore",
    "MarkedMoves",
    "WouldWaitError",
    "quit_move",
]

P = ParamSpec("P")
T = TypeVar("T")

Apply = Callable[[Game, Player], Move]
"""One engine move by a player: a drop or a quit."""


@dataclass(frozen=True)
class Database:
    """Which database a store writes, as the store itself says (the move feed follows it)."""

    kind: Literal["sqlite", "postgresql"]
    where: str
    """The SQLite file's path, or the PostgreSQL URL."""
    read_only: bool


@dataclass(frozen=True)
class GameStatus:
    """A game's state as its reader sees it now: record, outcome and a friends' game's extras."""

    record: GameRecord
    outcome: Outcome | None
    reason: str | None = None
    """How a game between friends ended, if not by the seed's rules (TIMEOUT, ...)."""
    clocks: tuple[float, ...] | None = None
    """Each player's seconds left now, for a game with a clock."""
    moves: int = 0
    """Moves stored, quits included."""
    to_move: int | None = None
    """The player to move, None once the game is over."""
    extras: rules.Extras | None = None
    """A game between friends' extras (:mod:`~connect_four.service.friend_rules`); None: none."""


@dataclass(frozen=True)
class MarkedMoves:
    """Moves read, with the reasons of the quits a game between friends marked, by number."""

    record: GameRecord
    moves: list[Move]
    reasons: dict[int, str]
    ticking: bool
    """Whether the game's clock runs: a flag may fall while nobody moves."""


FriendTouch = Callable[[str, int], None]
"""Told the game and player of each move or quit stored (a friend's presence: no statement)."""


class WouldWaitError(Exception):
    """A call on the event loop could not be finished there; nothing was stored.

    Made :meth:`GameStore.without_waiting`, it had to wait for a lock; made
    by :meth:`GameStore.call_on_loop`, it needed what only the full call
    does (a game not cached, a move another process made first). Never
    answered to a client: the caller makes the same call again where
    waiting is allowed (a worker thread, see :mod:`connect_four.service.store_calls`).
    """


class GameStore(FriendExtras, LobbyTables, LobbyViews, RateCounts, PresenceRows):
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
    _SELECT_GAME = (
        "SELECT g.players, g.board_rows, g.board_columns, g.tokens, f.state, g.chain_length"
        " FROM games AS g"
        " LEFT JOIN friend_games AS f ON f.game_id = g.game_id WHERE g.game_id = ?"
    )
    _SELECT_GAME_TO_WRITE = _SELECT_GAME

    def __init__(self, *, cache_weight: int = CACHE_WEIGHT) -> None:
        self._cache: GameCache[GameRecord] = GameCache(cache_weight)
        self._impatient = threading.local()
        self.clock: Callable[[], float] = time.time
        """The time of friends' games' clocks, in seconds (tests set theirs)."""
        self.friend_moved: FriendTouch | None = None
        """Told of each move stored, on every path (a player who moves is present)."""
        self.game_made: Callable[[str], None] | None = None
        """Told of each game made, on every path (its players are away until seen)."""
        # Takebacks seen by each cached game between friends that had any: a
        # takeback deletes moves, so a cached game that missed one is replayed.
        self._takebacks: dict[str, int] = {}

    async def call_on_loop(self, call: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` made on the event loop without blocking it, when it can be.

        A store whose calls are round trips to a server answers the
        commonest ones here, as coroutines (no worker thread, no lock
        waited for). This one has none: every call raises WouldWaitError.

        Raises:
            WouldWaitError: the call must be made in a worker thread instead
                (nothing was stored); or whatever the call itself raises.
        """
        raise WouldWaitError("this store has no calls on the event loop")

    def database(self) -> Database | None:
        """The database this store writes; None when this process alone writes it (no feed)."""
        return None

    async def close_on_loop(self) -> None:
        """Close what :meth:`call_on_loop` opened on the event loop (before :meth:`close`)."""

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
        connect: int = CONNECT,
    ) -> CreatedGame:
        """Store a new game with no moves; with ``tokens``, make one secret per player.

        Only the tokens' SHA-256 digests are stored: the tokens themselves
        are shown once, in the answer. ``connect`` stones in a row win.

        Raises:
            RulesError: the engine refuses the board, the chain or the player count.
            StorageError: the database cannot be written.
        """
        created, record = self._new_game(players, rows, columns, tokens, connect)
        with self._transaction(write=True) as connection:
            connection.execute(INSERT_GAME, self._game_row(record))
            if clock is not None:
                connection.execute(
                    "INSERT INTO friend_games (game_id, state) VALUES (?, ?)",
                    (record.game_id, rules.dump(rules.new_extras(clock, len(players)))),
                )
        self._remember_new(record)
        return created

    @staticmethod
    def _new_game(
        players: list[str], rows: int, columns: int, tokens: bool, connect: int = CONNECT
    ) -> tuple[CreatedGame, GameRecord]:
        """A new game's id, tokens and record, once the engine has accepted its rules.

        Raises:
            RulesError: the engine refuses the board, the chain or the player count.
        """
        # Let the engine refuse the game before anything is stored.
        Game(new_game_rules(rows, columns, connect), players=len(players))
        game_id = new_game_id()
        secret = new_tokens(players) if tokens else None
        digests = None if secret is None else tuple(token_digest(secret[n]) for n in players)
        return CreatedGame(game_id, secret), GameRecord(
            game_id, tuple(players), rows, columns, digests, connect
        )

    @staticmethod
    def _game_row(record: GameRecord) -> tuple[Any, ...]:
        """The values of a new game's row (:data:`~connect_four.service.database.INSERT_GAME`):
        id, players, rows, columns, token digests, chain."""
        digests = None if record.token_digests is None else json.dumps(record.token_digests)
        return (
            record.game_id,
            json.dumps(record.players),
            record.rows,
            record.columns,
            digests,
            record.connect,
        )

    def _remember_new(self, record: GameRecord) -> None:
        """Cache a game just stored, with no moves: its first move need not read its row."""
        self._remember(record, record.new_game())
        if self.game_made is not None:
            self.game_made(record.game_id)

    def _remember(self, record: GameRecord, game: Game) -> None:
        """Cache ``record`` and ``game`` replayed, unless the entry is in use or holds a game."""
        entry = self._cache.entry(record.game_id)
        if entry.lock.acquire(blocking=False):  # Never waits: may run on the loop.
            try:
                if entry.record is None or entry.game is None:
                    entry.record, entry.game = record, game
                    self._cache.weigh(record.game_id, entry)
            finally:
                entry.lock.release()

    @staticmethod
    def _record_of(
        game_id: str,
        players: str | bytes,
        rows: int,
        columns: int,
        tokens: str | bytes | None,
        connect: int,
    ) -> GameRecord:
        """A game's record from its row: players and token digests are JSON lists."""
        digests = None if tokens is None else tuple(json.loads(tokens))
        return GameRecord(game_id, tuple(json.loads(players)), rows, columns, digests, connect)

    def in_progress_game_ids(self) -> list[str]:
        """The ids of all the games not yet won or drawn, oldest first (the seed API's list)."""
        with self._transaction() as connection:
            rows = connection.execute(self._SELECT_IN_PROGRESS)
            return [game_id for (game_id,) in rows]

    def in_progress_page(self, *, after: int, limit: int) -> tuple[list[str], int | None]:
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
    def _cached(self, game_id: str) -> Iterator[CachedGame[GameRecord]]:
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
        status = self.read_status(game_id)
        return status.record, status.outcome

    def read_status(self, game_id: str) -> GameStatus:
        """The game's record and outcome, and a game between friends' end and clocks.

        A flag fall that is due is recorded first (a write), as the quit of
        the player to move: the reader sees the game as it is now.

        Raises:
            GameNotFoundError: no game has this id.
        """
        while True:
            with self._cached(game_id) as entry, self._transaction() as connection:
                record, count, extras = self._record(connection, game_id)
                game = self._caught_up(connection, record, count, entry, extras)
                if extras is None:
                    return GameStatus(record, game.outcome(), moves=count, to_move=game.to_move)
                now = self.clock()
                if rules.fallen_flag(extras, game, now) is None:
                    clocks = rules.clocks_left(extras, game, now)
                    outcome = rules.outcome(extras, game)
                    return GameStatus(
                        record,
                        outcome,
                        rules.end_reason(extras, count),
                        None if clocks is None else tuple(clocks),
                        count,
                        None if outcome is not None else game.to_move,
                        extras,
                    )
            self._settle_now(game_id)

    def read_game(self, game_id: str) -> StoredGame:
        """The game, replayed by the engine from all its moves (a copy: for tests and tools).

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self._cached(game_id) as entry, self._transaction() as connection:
            record, count, extras = self._record(connection, game_id)
            game = self._caught_up(connection, record, count, entry, extras)
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
        read = self.read_marked_moves(game_id, start, until)
        return read.record, read.moves

    def read_marked_moves(
        self, game_id: str, start: int | None = None, until: int | None = None
    ) -> MarkedMoves:
        """:meth:`read_moves`, and which quits of a game between friends were not quits.

        A game whose clock runs has a due flag fall recorded first (see
        :meth:`read_status`).

        Raises:
            As :meth:`read_moves`.
        """
        if start is not None and until is not None and until < start:
            raise BadRangeError(f"until {until} is before start {start}")
        settled = False
        while True:
            with self._transaction() as connection:
                record, count, extras = self._record(connection, game_id)
                if settled or not rules.ticking(extras):
                    if start is not None and start >= count:
                        raise MoveNotFoundError(
                            f"start {start} is past the last move of game {game_id!r} "
                            f"({count} moves)"
                        )
                    first = 0 if start is None else start
                    last = count - 1 if until is None else min(until, count - 1)
                    rows = connection.execute(
                        "SELECT player, column_number FROM moves WHERE game_id = ?"
                        " AND move_number BETWEEN ? AND ? ORDER BY move_number",
                        (game_id, first, last),
                    )
                    moves = [Move(player, column) for player, column in rows]
                    return MarkedMoves(
                        record, moves, rules.quit_reasons(extras), rules.ticking(extras)
                    )
            self.settle(game_id)  # Records the flag fall if it is due.
            settled = True

    def read_move(self, game_id: str, number: int) -> tuple[GameRecord, Move]:
        """The move numbered ``number``.

        Raises:
            GameNotFoundError, MoveNotFoundError: no such game, or no such move.
        """
        record, move, _ = self.read_marked_move(game_id, number)
        return record, move

    def read_marked_move(self, game_id: str, number: int) -> tuple[GameRecord, Move, str | None]:
        """:meth:`read_move`, and what its quit was if a game between friends marked it.

        Raises:
            GameNotFoundError, MoveNotFoundError: no such game, or no such move.
        """
        with self._transaction() as connection:
            record, count, extras = self._record(connection, game_id)
            row = connection.execute(
                "SELECT player, column_number FROM moves WHERE game_id = ? AND move_number = ?",
                (game_id, number),
            ).fetchone()
            if row is None:
                raise MoveNotFoundError(f"game {game_id!r} has no move {number} ({count} moves)")
            return record, Move(row[0], row[1]), rules.quit_reasons(extras).get(number)

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
        a retry key: if this game already has a move stored with it,
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
        return self._append(game_id, player_id, None, token, key, quit_move)

    def _append(
        self,
        game_id: str,
        player_id: str,
        column: int | None,
        token: str | None,
        key: str | None,
        apply: Apply,
    ) -> int:
        """Apply one engine move by ``player_id`` to the stored game and store it, atomically.

        In a game between friends, a flag fall that is due is stored first,
        in a transaction of its own: the move is then judged on the game it
        ended (the engine refuses it).
        """
        while True:
            number = self._append_once(game_id, player_id, column, token, key, apply)
            if number is not None:
                return number

    def _append_once(
        self,
        game_id: str,
        player_id: str,
        column: int | None,
        token: str | None,
        key: str | None,
        apply: Apply,
    ) -> int | None:
        """:meth:`_append`, or None once a due flag fall was stored instead (try again)."""
        # The write transaction holds the game (SQLite: the database) before
        # reading, so the moves read are still the last ones at the insert.
        with self._cached(game_id) as entry:
            with self._transaction(write=True) as connection:
                record, count, extras = self._record(connection, game_id, lock=True)
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
                            raise IdempotencyKeyReusedError(key, game_id, int(done[0]))
                        return int(done[0])
                game = self._caught_up(connection, record, count, entry, extras)
                fell = False
                if extras is not None:
                    rules.refuse_if_ended(extras)
                    fell = self._fall(connection, record, game, extras)
                if not fell:
                    self._apply(connection, record, game, extras, player, player_id, key, apply)
                told = self._game_over(connection, record.game_id, game, extras)
                # Until the commit is through the cache holds no game: if it
                # fails, the next use replays the game rather than trust a move
                # the database may not have (calls on the loop trust the cache).
                entry.game = None
            entry.game = game
        self._tell(told)
        if self.friend_moved is not None:
            self.friend_moved(game_id, player)
        return None if fell else count

    def _game_over(
        self, connection: Connection, game_id: str, game: Game, extras: rules.Extras | None
    ) -> list[str]:
        """If a game between friends is over, what its end changes in the lobby (in the
        transaction); the hub keys to tell once committed. A game without extras: nothing."""
        if extras is None or rules.outcome(extras, game) is None:
            return []
        return self.lobby_game_ended(connection, game_id, game, extras)

    def _apply(
        self,
        connection: Connection,
        record: GameRecord,
        game: Game,
        extras: rules.Extras | None,
        player: Player,
        player_id: str,
        key: str | None,
        apply: Apply,
    ) -> None:
        """Play ``apply`` by ``player`` on ``game`` and store it as the next move (and extras)."""
        count = len(game)
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
                (record.game_id, count, move.player, move.column, key),
            )
            if game.is_over():
                connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (record.game_id,))
            if extras is not None:
                rules.charge_move(extras, game, self.clock())
                self._write_extras(connection, record.game_id, extras)
        except BaseException:
            game.pop()  # Not stored: the cached game must not keep it.
            raise

    def _record(
        self, connection: Connection, game_id: str, *, lock: bool = False
    ) -> tuple[GameRecord, int, rules.Extras | None]:
        """The game's row, its number of moves (two index look-ups), and the extras of a game
        between friends (None: it has none).

        ``lock``: hold the game's row until the transaction ends (a write).

        The extras come with the game's row, in the same statement: a game
        without them costs no more than before they existed.

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
        record = self._record_of(game_id, row[0], row[1], row[2], row[3], int(row[5]))
        return record, 0 if last is None else last + 1, rules.load(row[4])

    def _caught_up(
        self,
        connection: Connection,
        record: GameRecord,
        count: int,
        entry: CachedGame[GameRecord],
        extras: rules.Extras | None = None,
    ) -> Game:
        """The cached game with all ``count`` stored moves played.

        The caller holds ``entry.lock``. A game between friends whose
        ``extras`` count a takeback the cached game has not seen is replayed.
        """
        game = entry.game
        takebacks = 0 if extras is None else int(extras.get("takebacks", 0))
        if takebacks != self._takebacks.get(record.game_id, 0):
            game = None
            self._takebacks[record.game_id] = takebacks
        if game is None or len(game) > count:
            game = record.new_game()
        if len(game) < count:
            note_replayed(count - len(game))
            self._catch_up(
                game,
                connection.execute(
                    "SELECT player, column_number FROM moves WHERE game_id = ?"
                    " AND move_number >= ? ORDER BY move_number",
                    (record.game_id, len(game)),
                ),
            )
        entry.game, entry.record = game, record
        self._cache.weigh(record.game_id, entry)
        return game

    # --- Calls on the event loop: the cached game first ---------------------

    @contextmanager
    def _ready(self, game_id: str) -> Iterator[tuple[CachedGame[GameRecord], GameRecord, Game]]:
        """The cache entry of ``game_id``, locked, with its record and game.

        For a call on the event loop, which may not wait: the lock held by
        another call, or a game this process has not read yet, is
        WouldWaitError.
        """
        entry = self._cache.peek(game_id)
        if entry is None or not entry.lock.acquire(blocking=False):
            raise WouldWaitError("the game is not cached, or in use")
        try:
            record, game = entry.record, entry.game
            if record is None or game is None:
                raise WouldWaitError("the game is not cached")
            yield entry, record, game
        finally:
            entry.lock.release()

    @staticmethod
    def _move_ahead(
        record: GameRecord, game: Game, player_id: str, token: str | None, apply: Apply
    ) -> Move:
        """Play ``apply`` by ``player_id`` on the cached ``game``, for a move stored in one statement.

        The record never changes, so an unknown player or a wrong token is
        the answer at once. The game may be behind the database: a move it
        refuses is WouldWaitError, for the full call to judge on the stored
        moves.
        """
        player = record.player_index(player_id)
        record.authorize(player, token)
        try:
            return apply(game, player)
        except (EngineError, GameDoneError) as refused:
            raise WouldWaitError("the cached game refuses the move") from refused

    @staticmethod
    def _catch_up(game: Game, moves: Iterable[tuple[int, int | None]]) -> None:
        """Play stored ``moves`` (player, column; None: the player quit) on a cached game."""
        for player, column in moves:
            if column is None:
                game.quit(player)
            else:
                game.play(column, player)


def quit_move(game: Game, player: Player) -> Move:
    """Quit ``player``; once the game is over, any of its players quitting is GameDoneError.

    The engine would first say that a player who quit earlier is not active;
    the API answers every quit of a finished game alike.
    """
    if game.is_over():
        raise GameDoneError("the game is over; nobody can quit it any more")
    return game.quit(player)
