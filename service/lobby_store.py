"""The store's part of the lobby (issue 36): players, seeks, quick pairing, lobby games, ratings.

:class:`LobbyTables` is a base of :class:`~connect_four.service.repository.GameStore`
(whose transactions it uses), as :class:`~connect_four.service.friend_store.FriendExtras`
is. Each change is one write transaction, on SQLite and PostgreSQL alike:

- an accepted seek is deleted (``DELETE ... RETURNING``: of two accepts racing,
  one gets the row) and its game made in the same transaction;
- a lobby game is a drop-token game with player tokens and friends' extras
  (always a ``friend_games`` row, so that every move takes the full call), plus
  a ``lobby_games`` row: pool, nonces of its tokens, ratings before and after;
- a lobby game's end is seen by the store in the transaction that ends it,
  whatever the path (:meth:`LobbyTables.lobby_game_ended`): its ratings are
  updated there, once, since the ``lobby_games`` row is marked done with them.
  Its rematch is a lobby game too (:meth:`LobbyTables.lobby_rematch`).

Every change bumps a version: the lobby's (one row of ``lobby_version``) and
each player's concerned (``players.version``); the long polls compare them
with their ``since``. Which feeds changed is told after the commit
(:attr:`LobbyTables.lobby_told`), and to the other processes through the move
feed (:meth:`LobbyTables._lobby_news`: SQLite logs them in ``move_log``,
PostgreSQL's processes publish them from their hub).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from connect_four.engine import Game

from . import friend_rules as rules
from . import lobby_rules as lobby
from .database import INSERT_GAME, Connection
from .errors import (
    KeyRejectedError,
    LobbyPlayerNotFoundError,
    NameTakenError,
    OwnSeekError,
    SeekGoneError,
    SeekNotFoundError,
    TooManySeeksError,
    shown,
)
from .lobby_rules import Rating
from .names import name_problem
from .records import ClockSetting, GameRecord, new_game_id, new_game_rules

__all__ = [
    "LOBBY_KEY",
    "LobbyGame",
    "LobbyTables",
    "Spec",
    "lobby_tables",
    "player_key",
    "rating_of",
]

LOBBY_KEY = "~lobby"
"""The hub's key of the lobby's feed (no game id starts with "~")."""


def player_key(name: str) -> str:
    """The hub's key of ``name``'s own feed."""
    return f"~player:{name}"


def lobby_tables(real: str) -> Callable[[Connection], None]:
    """Schema step 4, alike in both databases but for the name of a float (``real``)."""
    statements = (
        f"""CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY,
    folded TEXT NOT NULL UNIQUE,            -- NFKC case-folded: names are unique so
    key_digest TEXT NOT NULL UNIQUE,        -- SHA-256 of the key (the key is never stored)
    bot INTEGER NOT NULL DEFAULT 0,
    present_until {real} NOT NULL DEFAULT 0,
    version BIGINT NOT NULL DEFAULT 0       -- the player's feed (GET /lobby/me)
)""",
        "CREATE INDEX IF NOT EXISTS players_by_presence ON players (present_until)",
        f"""CREATE TABLE IF NOT EXISTS ratings (
    name TEXT NOT NULL,
    pool TEXT NOT NULL,
    rating {real} NOT NULL,
    rd {real} NOT NULL,
    volatility {real} NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (name, pool)
)""",
        "CREATE INDEX IF NOT EXISTS ratings_by_pool ON ratings (pool, rating)",
        f"""CREATE TABLE IF NOT EXISTS seeks (
    seek_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    pool TEXT NOT NULL,
    spec TEXT NOT NULL,                     -- JSON: rows, columns, connect, colour, clock, rated
    nonce TEXT NOT NULL,                    -- of the seeker's token in the game to come
    digest TEXT NOT NULL,
    created {real} NOT NULL
)""",
        "CREATE INDEX IF NOT EXISTS seeks_by_name ON seeks (name)",
        f"""CREATE TABLE IF NOT EXISTS pairing (
    name TEXT PRIMARY KEY,
    pool TEXT NOT NULL,
    spec TEXT NOT NULL,
    rating {real} NOT NULL,
    since {real} NOT NULL,
    nonce TEXT NOT NULL,
    digest TEXT NOT NULL
)""",
        "CREATE INDEX IF NOT EXISTS pairing_by_pool ON pairing (pool, rating)",
        f"""CREATE TABLE IF NOT EXISTS lobby_games (
    game_id TEXT PRIMARY KEY REFERENCES games (game_id),
    x TEXT NOT NULL,
    o TEXT NOT NULL,
    pool TEXT NOT NULL,
    spec TEXT NOT NULL,
    nonces TEXT NOT NULL,                   -- JSON [x, o]: each token is HMAC(key, nonce)
    bots TEXT NOT NULL,                     -- JSON [x, o]
    ratings_before TEXT NOT NULL,           -- JSON [[rating, rd, volatility, games], ...]
    ratings_after TEXT,
    started {real} NOT NULL,
    ended {real},
    winner TEXT,
    reason TEXT,
    done INTEGER NOT NULL DEFAULT 0
)""",
        "CREATE INDEX IF NOT EXISTS lobby_games_by_x ON lobby_games (x, started)",
        "CREATE INDEX IF NOT EXISTS lobby_games_by_o ON lobby_games (o, started)",
        "CREATE INDEX IF NOT EXISTS lobby_games_live ON lobby_games (done, started)",
        "CREATE TABLE IF NOT EXISTS lobby_version (version BIGINT NOT NULL)",
        "INSERT INTO lobby_version (version) SELECT 0"
        " WHERE NOT EXISTS (SELECT 1 FROM lobby_version)",
    )

    def step(connection: Connection) -> None:
        for statement in statements:
            connection.execute(statement)

    return step


@dataclass(frozen=True)
class Spec:
    """What a seek or a quick pairing asks for: board, colour, clock, rated."""

    rows: int
    columns: int
    connect: int
    clock: dict[str, float] | None
    """As the API writes it: ``{"minutes", "increment"}``, ``{"days"}``, or None."""
    rated: bool
    colour: str = "random"

    def setting(self) -> ClockSetting | None:
        """The game's clock."""
        if self.clock is None:
            return None
        if "days" in self.clock:
            return ClockSetting(0.0, 0.0, float(self.clock["days"]) * 86400)
        return ClockSetting(float(self.clock["minutes"]) * 60, float(self.clock["increment"]))

    def check(self) -> None:
        """Let the engine refuse a board or a chain it cannot play, before anything is stored.

        Raises:
            RulesError: the engine refuses the board, or the chain (shorter than 3, or
                longer than the board's longer side: see :func:`~records.new_game_rules`).
        """
        Game(new_game_rules(self.rows, self.columns, self.connect), players=2)

    @property
    def pool(self) -> str:
        return lobby.pool_name(self.rows, self.columns, self.connect, self.setting())

    def dump(self) -> str:
        return json.dumps(
            {
                "rows": self.rows,
                "columns": self.columns,
                "connect": self.connect,
                "clock": self.clock,
                "rated": self.rated,
                "colour": self.colour,
            }
        )

    @staticmethod
    def load(text: str | bytes) -> Spec:
        data = json.loads(text)
        return Spec(
            data["rows"],
            data["columns"],
            data["connect"],
            data["clock"],
            data["rated"],
            data["colour"],
        )


@dataclass(frozen=True)
class LobbyGame:
    """A lobby game just made: its id, players (X first), pool, spec, and one player's nonce."""

    game_id: str
    players: tuple[str, str]
    spec: Spec
    nonces: tuple[str, str]


# The players gone who left seeks or a pairing behind: read from the few seeks and
# pairings, not from every player ever registered. Parameter: the time now.
_GONE_SEEKERS = (
    "SELECT s.name FROM seeks AS s JOIN players AS p ON p.name = s.name WHERE p.present_until < ?"
)
_GONE_WAITERS = (
    "SELECT w.name FROM pairing AS w JOIN players AS p ON p.name = w.name WHERE p.present_until < ?"
)


class _Raced(Exception):
    """Another process took a row this transaction counted on: it is rolled back whole."""


Told = Callable[[Iterable[str]], None]
"""Told the hub keys of the feeds a committed change concerns (this process's waiters)."""


def _rating_row(rating: Rating) -> list[float]:
    return [rating.rating, rating.rd, rating.volatility, rating.games]


def rating_of(row: list[float]) -> Rating:
    """A rating as stored in a lobby game's row: ``[rating, rd, volatility, games]``."""
    return Rating(float(row[0]), float(row[1]), float(row[2]), int(row[3]))


class LobbyTables:
    """The lobby's tables, in the transactions of the store this is a base of."""

    _FOR_UPDATE = ""
    """What locks a row read to write (PostgreSQL's ``FOR UPDATE``; SQLite locks the file)."""

    _LOCK_POOL: str | None = None
    """A statement that holds a pool's lock till the transaction ends (PostgreSQL's advisory
    lock; SQLite's one writer needs none): pairings of one pool are made one at a time, and
    each transaction takes its pools' locks before any row, so none waits for another in a
    circle."""

    lobby_told: Told | None = None
    game_made: Callable[[str], None] | None

    if TYPE_CHECKING:  # The store's own, :class:`~connect_four.service.repository.GameStore`'s.

        def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]: ...

        def _remember_new(self, record: GameRecord) -> None: ...

        @staticmethod
        def _game_row(record: GameRecord) -> tuple[Any, ...]: ...

    def _lobby_news(self, connection: Connection, keys: Iterable[str]) -> None:
        """Tell the other processes, in the transaction, that these feeds change (SQLite's log)."""

    def _changed(
        self, connection: Connection, names: Iterable[str], *, lobby_too: bool
    ) -> list[str]:
        """Bump the versions of ``names``' feeds (and the lobby's); the hub keys to tell."""
        keys = []
        for name in sorted(set(names)):
            connection.execute("UPDATE players SET version = version + 1 WHERE name = ?", (name,))
            keys.append(player_key(name))
        if lobby_too:
            connection.execute("UPDATE lobby_version SET version = version + 1")
            keys.append(LOBBY_KEY)
        self._lobby_news(connection, keys)
        return keys

    def _tell(self, keys: list[str]) -> None:
        """After the commit: this process's waiters of ``keys`` are woken."""
        if keys and self.lobby_told is not None:
            self.lobby_told(keys)

    # --- Players ---------------------------------------------------------------

    def register_player(self, name: str, digest: str, bot: bool) -> None:
        """Store a new player with their key's digest.

        Raises:
            NameTakenError: the name, case-folded, is another player's.
        """
        with self._transaction(write=True) as connection:
            row = connection.execute(
                "INSERT INTO players (name, folded, key_digest, bot) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING RETURNING name",
                (name, lobby.folded(name), digest, int(bot)),
            ).fetchone()
            if row is None:
                raise NameTakenError(f"the name {name!r} is taken")

    def player_by_key(self, digest: str, now: float, until: float) -> tuple[str, bool]:
        """The name and bot flag of the player whose key has ``digest``; present until ``until``.

        Presence is written only when it would move by a second or more (so a
        client's calls cost a read each, and a write a few seconds).

        Raises:
            KeyRejectedError: no player has this key.
        """
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT name, bot, present_until FROM players WHERE key_digest = ?", (digest,)
            ).fetchone()
        if row is None:
            raise KeyRejectedError("that key is no player's: register with POST /players")
        name, bot, present = str(row[0]), bool(row[1]), float(row[2])
        if until - present >= 1.0:
            with self._transaction(write=True) as connection:
                connection.execute(
                    "UPDATE players SET present_until = ? WHERE name = ? AND present_until < ?",
                    (until, name, until),
                )
        return name, bot

    def cut_presence(self, name: str, now_until: float, held_until: float) -> None:
        """A wait of ``name`` that made them present until ``held_until`` ended: present until
        ``now_until`` instead, unless a later call or wait (any process) made it later still."""
        with self._transaction(write=True) as connection:
            connection.execute(
                "UPDATE players SET present_until = ?"
                " WHERE name = ? AND present_until > ? AND present_until <= ?",
                (now_until, name, now_until, held_until),
            )

    def keep_present(self, untils: dict[str, float], least: float) -> None:
        """Players holding waits here present until ``untils[name]`` where their presence
        ends before ``least`` (another process's wait ended and cut it): a read, and a write
        only then."""
        names = sorted(untils)
        low: list[str] = []
        with self._transaction() as connection:
            for start in range(0, len(names), 500):
                chunk = names[start : start + 500]
                marks = ", ".join("?" * len(chunk))
                low += [
                    str(name)
                    for (name,) in connection.execute(
                        f"SELECT name FROM players WHERE name IN ({marks})"  # noqa: S608
                        " AND present_until < ?",
                        (*chunk, least),
                    ).fetchall()
                ]
        if not low:
            return
        with self._transaction(write=True) as connection:
            for name in low:
                connection.execute(
                    "UPDATE players SET present_until = ? WHERE name = ? AND present_until < ?",
                    (untils[name], name, untils[name]),
                )

    def lobby_player(self, name: str) -> tuple[str, bool, dict[str, Rating]]:
        """A player's name as registered, bot flag and ratings by pool.

        Raises:
            LobbyPlayerNotFoundError: no player has this name (case-folded).
        """
        if name_problem(name) is not None:  # No player's (a NUL would be PostgreSQL's error).
            raise LobbyPlayerNotFoundError(f"no player is named {shown(name)}")
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT name, bot FROM players WHERE folded = ?", (lobby.folded(name),)
            ).fetchone()
            if row is None:
                raise LobbyPlayerNotFoundError(f"no player is named {shown(name)}")
            ratings = {
                str(pool): Rating(float(r), float(rd), float(v), int(g))
                for pool, r, rd, v, g in connection.execute(
                    "SELECT pool, rating, rd, volatility, games FROM ratings WHERE name = ?"
                    " ORDER BY pool",
                    (row[0],),
                )
            }
        return str(row[0]), bool(row[1]), ratings

    @staticmethod
    def _rating(connection: Connection, name: str, pool: str) -> Rating:
        row = connection.execute(
            "SELECT rating, rd, volatility, games FROM ratings WHERE name = ? AND pool = ?",
            (name, pool),
        ).fetchone()
        return lobby.DEFAULT_RATING if row is None else rating_of(row)

    def _lock_pools(self, connection: Connection, pools: Iterable[str]) -> None:
        """Hold the locks of ``pools``, in their order (see :attr:`_LOCK_POOL`)."""
        if self._LOCK_POOL is not None:
            for pool in sorted(set(pools)):
                connection.execute(self._LOCK_POOL, (pool,)).fetchone()

    def _lock_player(self, connection: Connection, name: str) -> None:
        """Hold ``name``'s row until the transaction ends (their seeks are counted under it)."""
        connection.execute(
            f"SELECT name FROM players WHERE name = ?{self._FOR_UPDATE}",  # noqa: S608
            (name,),
        ).fetchone()

    # --- Seeks -----------------------------------------------------------------

    def create_seek(self, name: str, spec: Spec, nonce: str, digest: str, now: float) -> str:
        """Store ``name``'s seek; its id.

        Raises:
            TooManySeeksError: the player has :data:`~lobby_rules.MAX_SEEKS` open.
        """
        seek_id = new_game_id()
        with self._transaction(write=True) as connection:
            self._lock_player(connection, name)
            (count,) = connection.execute(
                "SELECT count(*) FROM seeks WHERE name = ?", (name,)
            ).fetchone()
            if count >= lobby.MAX_SEEKS:
                raise TooManySeeksError(
                    f"you have {count} open seeks, as many as one may: delete one first"
                )
            connection.execute(
                "INSERT INTO seeks (seek_id, name, pool, spec, nonce, digest, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (seek_id, name, spec.pool, spec.dump(), nonce, digest, now),
            )
            keys = self._changed(connection, [name], lobby_too=True)
        self._tell(keys)
        return seek_id

    def delete_seek(self, name: str, seek_id: str) -> None:
        """Withdraw ``name``'s seek.

        Raises:
            SeekNotFoundError: the player has no open seek with this id.
        """
        with self._transaction(write=True) as connection:
            row = connection.execute(
                "DELETE FROM seeks WHERE seek_id = ? AND name = ? RETURNING seek_id",
                (seek_id, name),
            ).fetchone()
            if row is None:
                raise SeekNotFoundError(f"you have no open seek {seek_id[:40]!r}")
            keys = self._changed(connection, [name], lobby_too=True)
        self._tell(keys)

    def accept_seek(
        self, name: str, seek_id: str, nonce: str, digest: str, now: float
    ) -> LobbyGame:
        """``name`` accepts the seek: it is gone and its game made, in one transaction.

        Raises:
            SeekGoneError: no open seek has this id (accepted first by another, withdrawn).
            OwnSeekError: the seek is the player's own (it stays open).
        """
        with self._transaction(write=True) as connection:
            row = connection.execute(
                "SELECT name FROM seeks WHERE seek_id = ?", (seek_id,)
            ).fetchone()
            if row is not None and row[0] == name:
                raise OwnSeekError("that seek is your own: another player accepts it")
            row = connection.execute(
                "DELETE FROM seeks WHERE seek_id = ? AND name <> ?"
                " RETURNING name, spec, nonce, digest",
                (seek_id, name),
            ).fetchone()
            if row is None:
                raise SeekGoneError(f"the seek {seek_id[:40]!r} is gone (accepted or withdrawn)")
            seeker, spec = str(row[0]), Spec.load(row[1])
            colour = spec.colour if spec.colour != "random" else random.choice("XO")
            seats = [(seeker, str(row[2]), str(row[3])), (name, nonce, digest)]
            if colour == "O":
                seats.reverse()
            record, game = self._make_game(connection, seats, spec, now)
            keys = self._changed(connection, [seeker, name], lobby_too=True)
        self._remember_new(record)
        self._tell(keys)
        return game

    def _make_game(
        self, connection: Connection, seats: list[tuple[str, str, str]], spec: Spec, now: float
    ) -> tuple[GameRecord, LobbyGame]:
        """Store a lobby game of ``seats`` (name, nonce, token digest; X first), in the transaction."""
        game_id = new_game_id()
        names = (seats[0][0], seats[1][0])
        record = GameRecord(
            game_id, names, spec.rows, spec.columns, (seats[0][2], seats[1][2]), spec.connect
        )
        spec.check()  # The engine refuses a board it cannot play before anything is stored.
        connection.execute(INSERT_GAME, self._game_row(record))
        # Always extras: every move of a lobby game then takes the store's full call,
        # where its end is seen (lobby_game_ended).
        connection.execute(
            "INSERT INTO friend_games (game_id, state) VALUES (?, ?)",
            (game_id, rules.dump(rules.new_extras(spec.setting(), 2))),
        )
        bots = [
            bool(
                connection.execute("SELECT bot FROM players WHERE name = ?", (seat,)).fetchone()[0]
            )
            for seat in names
        ]
        self._insert_lobby_game(
            connection,
            game_id,
            names,
            spec.pool,
            spec.dump(),
            [seats[0][1], seats[1][1]],
            bots,
            now,
        )
        return record, LobbyGame(game_id, names, spec, (seats[0][1], seats[1][1]))

    # --- Quick pairing ---------------------------------------------------------

    def pair(self, name: str, spec: Spec, nonce: str, digest: str, now: float) -> LobbyGame | None:
        """Pair ``name`` with the nearest rating waiting in the pool, or make them wait (None).

        A waiting player accepts a gap that widens with their wait
        (:func:`~lobby_rules.pairing_gap`); colours are drawn at random.
        """
        pool = spec.pool
        with self._transaction(write=True) as connection:
            self._lock_pools(connection, [pool])
            self._lock_player(connection, name)
            connection.execute("DELETE FROM pairing WHERE name = ?", (name,))
            mine = self._rating(connection, name, pool).rating
            candidates = connection.execute(
                "SELECT name, rating, since, spec FROM pairing WHERE pool = ?", (pool,)
            ).fetchall()
            fitting = sorted(
                (abs(float(rating) - mine), str(other))
                for other, rating, since, their in candidates
                if Spec.load(their).rated == spec.rated
                and abs(float(rating) - mine) <= lobby.pairing_gap(now - float(since))
            )
            for _, other in fitting:
                row = connection.execute(
                    "DELETE FROM pairing WHERE name = ? RETURNING nonce, digest", (other,)
                ).fetchone()
                if row is None:
                    continue  # Taken meanwhile (PostgreSQL): the next nearest.
                seats = [(other, str(row[0]), str(row[1])), (name, nonce, digest)]
                random.shuffle(seats)
                record, game = self._make_game(connection, seats, spec, now)
                keys = self._changed(connection, [other, name], lobby_too=True)
                break
            else:
                connection.execute(
                    "INSERT INTO pairing (name, pool, spec, rating, since, nonce, digest)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (name, pool, spec.dump(), mine, now, nonce, digest),
                )
                keys = self._changed(connection, [name], lobby_too=True)
                record = None
        if record is not None:
            self._remember_new(record)
        self._tell(keys)
        return None if record is None else game

    def unpair(self, name: str) -> None:
        """``name`` stops waiting for a pairing (nothing if they were not waiting)."""
        with self._transaction(write=True) as connection:
            row = connection.execute(
                "DELETE FROM pairing WHERE name = ? RETURNING name", (name,)
            ).fetchone()
            keys = [] if row is None else self._changed(connection, [name], lobby_too=True)
        self._tell(keys)

    # --- The sweep: players gone, pairings due -------------------------------

    def sweep_lobby(self, now: float) -> list[LobbyGame]:
        """Drop the seeks and pairings of players gone; pair waiting players whose gap now fits.

        A read first: only a sweep with something to do takes the write lock.
        Returns the games made.
        """
        with self._transaction() as connection:
            gone = connection.execute(
                f"SELECT 1 FROM ({_GONE_SEEKERS} UNION ALL {_GONE_WAITERS}) AS gone LIMIT 1",  # noqa: S608
                (now, now),
            ).fetchone()
            pools = connection.execute(
                "SELECT pool FROM pairing GROUP BY pool HAVING count(*) > 1"
            ).fetchall()
        if gone is None and not pools:
            return []
        made: list[tuple[GameRecord, LobbyGame]] = []
        try:
            keys = self._sweep_now(now, [str(pool) for (pool,) in pools], made)
        except _Raced:
            return []  # Rolled back whole: the next sweep starts again from the tables.
        for record, _ in made:
            self._remember_new(record)
        self._tell(keys)
        return [game for _, game in made]

    def _sweep_now(
        self, now: float, pools: list[str], made: list[tuple[GameRecord, LobbyGame]]
    ) -> list[str]:
        """:meth:`sweep_lobby`'s write transaction; the hub keys to tell."""
        with self._transaction(write=True) as connection:
            self._lock_pools(
                connection,
                (
                    str(pool)
                    for (pool,) in connection.execute("SELECT pool FROM pairing").fetchall()
                ),
            )
            left = [
                str(name)
                for (name,) in connection.execute(
                    f"DELETE FROM seeks WHERE name IN ({_GONE_SEEKERS}) RETURNING name",  # noqa: S608
                    (now,),
                ).fetchall()
            ]
            left += [
                str(name)
                for (name,) in connection.execute(
                    f"DELETE FROM pairing WHERE name IN ({_GONE_WAITERS}) RETURNING name",  # noqa: S608
                    (now,),
                ).fetchall()
            ]
            changed = set(left)
            for pool in pools:
                made += self._pair_waiting(connection, pool, now)
            for _, game in made:
                changed.update(game.players)
            return self._changed(connection, changed, lobby_too=True) if changed else []

    def _pair_waiting(
        self, connection: Connection, pool: str, now: float
    ) -> list[tuple[GameRecord, LobbyGame]]:
        """Pair neighbours by rating in ``pool`` whose gap fits the longer waiter's."""
        rows = connection.execute(
            "SELECT name, rating, since, spec, nonce, digest FROM pairing WHERE pool = ?"
            " ORDER BY rating",
            (pool,),
        ).fetchall()
        made = []
        index = 0
        while index + 1 < len(rows):
            one, two = rows[index], rows[index + 1]
            spec_one, spec_two = Spec.load(one[3]), Spec.load(two[3])
            gap = lobby.pairing_gap(now - min(float(one[2]), float(two[2])))
            if spec_one.rated != spec_two.rated or abs(float(one[1]) - float(two[1])) > gap:
                index += 1
                continue
            taken = connection.execute(
                "DELETE FROM pairing WHERE name IN (?, ?) RETURNING name",
                (str(one[0]), str(two[0])),
            ).fetchall()
            if len(taken) != 2:  # Another process's sweep paired one of them first.
                raise _Raced
            seats = [
                (str(one[0]), str(one[4]), str(one[5])),
                (str(two[0]), str(two[4]), str(two[5])),
            ]
            random.shuffle(seats)
            made.append(self._make_game(connection, seats, spec_one, now))
            index += 2
        return made

    # --- A lobby game's end: its ratings ------------------------------------

    def lobby_rematch(self, connection: Connection, previous: str, game_id: str) -> list[str]:
        """The rematch ``game_id`` of ``previous`` was just stored, in that transaction: the
        rematch of a lobby game is a lobby game, of the same pool, rated if it was.

        The colours are swapped, and so are the seats' nonces (each player's
        token stays theirs, as the rematch keeps it). Returns the hub keys to
        tell after the commit (none for other games).
        """
        row = connection.execute(
            "SELECT x, o, pool, spec, nonces, bots FROM lobby_games WHERE game_id = ?",
            (previous,),
        ).fetchone()
        if row is None:
            return []
        names = (str(row[1]), str(row[0]))
        self._insert_lobby_game(
            connection,
            game_id,
            names,
            str(row[2]),
            str(row[3]),
            json.loads(row[4])[::-1],
            json.loads(row[5])[::-1],
            self.clock(),
        )
        return self._changed(connection, names, lobby_too=True)

    def _insert_lobby_game(
        self,
        connection: Connection,
        game_id: str,
        names: tuple[str, str],
        pool: str,
        spec: str,
        nonces: list[str],
        bots: list[bool],
        started: float,
    ) -> None:
        """Store a lobby game's row (X's name first), with both players' ratings in ``pool``
        now: what its end is rated from."""
        before = [_rating_row(self._rating(connection, name, pool)) for name in names]
        connection.execute(
            "INSERT INTO lobby_games (game_id, x, o, pool, spec, nonces, bots, ratings_before,"
            " started) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                names[0],
                names[1],
                pool,
                spec,
                json.dumps(nonces),
                json.dumps(bots),
                json.dumps(before),
                started,
            ),
        )

    def lobby_game_ended(
        self, connection: Connection, game_id: str, game: Game, extras: rules.Extras
    ) -> list[str]:
        """A game between friends is over, in the transaction that ended it (or changed it since).

        A lobby game's row not yet marked done is marked now, with its
        result and, if rated, both players' new ratings (Glicko-2, from the
        ratings before the game): once, whatever the path that ended it.
        Returns the hub keys to tell after the commit (none for other games).
        """
        row = connection.execute(
            "SELECT x, o, pool, spec, ratings_before FROM lobby_games"
            " WHERE game_id = ? AND done = 0",
            (game_id,),
        ).fetchone()
        if row is None:
            return []
        outcome = rules.outcome(extras, game)
        if outcome is None:
            return []
        names = (str(row[0]), str(row[1]))
        pool, spec = str(row[2]), Spec.load(row[3])
        winner = outcome.winner
        reason = rules.end_reason(extras, len(game)) or _plain_reason(game, winner)
        after = None
        if spec.rated:
            score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            # Each player's rating now (another game may have ended since this one began).
            now_x, now_o = (self._rating(connection, name, pool) for name in names)
            new_x, new_o = lobby.rated(now_x, now_o, score), lobby.rated(now_o, now_x, 1 - score)
            for name, new in zip(names, (new_x, new_o), strict=True):
                connection.execute(
                    "INSERT INTO ratings (name, pool, rating, rd, volatility, games)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (name, pool) DO UPDATE SET"
                    " rating = excluded.rating, rd = excluded.rd,"
                    " volatility = excluded.volatility, games = excluded.games",
                    (name, pool, new.rating, new.rd, new.volatility, new.games),
                )
            after = json.dumps([_rating_row(new_x), _rating_row(new_o)])
            # Before: as each player stood when the game ended (what Glicko-2 was given).
            connection.execute(
                "UPDATE lobby_games SET ratings_before = ? WHERE game_id = ?",
                (json.dumps([_rating_row(now_x), _rating_row(now_o)]), game_id),
            )
        connection.execute(
            "UPDATE lobby_games SET done = 1, ended = ?, winner = ?, reason = ?,"
            " ratings_after = ? WHERE game_id = ?",
            (
                self.clock(),
                None if winner is None else names[winner],
                reason,
                after,
                game_id,
            ),
        )
        return self._changed(connection, names, lobby_too=True)

    clock: Callable[[], float]


def _plain_reason(game: Game, winner: int | None) -> str:
    """How a game ended by the seed's rules: ``CONNECT`` (a line), ``QUIT``, ``DRAW``."""
    if winner is None:
        return "DRAW"
    if len(game) and game.peek().is_quit:
        return "QUIT"
    return "CONNECT"
