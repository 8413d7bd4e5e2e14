"""Presence of the players of games between friends, in the database every process shares.

One table, ``friend_presence``: a row per game, player and service process
that saw the player, holding when that process last saw them (``seen``)
and until when it vouches for them (``present_until``). A process writes
its row when a player arrives (a wait of theirs begins, or a request with
their token), refreshes it while the player waits, at most every
:data:`~connect_four.service.friends.HEARTBEAT` seconds, and writes the
departure once the player has been gone for the grace: never once per poll.
A player is present while some process's row vouches for them; a process
that stops (a crash) stops vouching when its row's time runs out, by
itself. Player -1 of the process ``""`` is the time a process first looked
at the game, for players never seen. The statements are written once for
SQLite and PostgreSQL (``?`` placeholders); a store class mixes
:class:`PresenceRows` in.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass

from .database import Connection

__all__ = [
    "FIRST_LOOK",
    "PRESENCE_TABLE",
    "PresenceRow",
    "PresenceRows",
    "friend_presence_table",
    "read_presence",
]

FIRST_LOOK = -1
"""The player number of a game's row that says when a process first looked at it."""

PRESENCE_TABLE = """CREATE TABLE IF NOT EXISTS friend_presence (
    game_id TEXT NOT NULL,
    player INTEGER NOT NULL,                   -- index into games.players, or -1
    process TEXT NOT NULL,                     -- the service process that saw them, or ''
    seen DOUBLE PRECISION NOT NULL,            -- when it last saw them (Unix time)
    present_until DOUBLE PRECISION NOT NULL,   -- until when it vouches for them
    PRIMARY KEY (game_id, player, process)
)"""
"""The presence table, alike in SQLite and PostgreSQL."""

_READ = """SELECT player, process, seen, present_until FROM friend_presence
WHERE game_id = ?"""

_MARK = """INSERT INTO friend_presence (game_id, player, process, seen, present_until)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (game_id, player, process) DO UPDATE SET
    seen = excluded.seen, present_until = excluded.present_until"""

_FIRST_LOOK = """INSERT INTO friend_presence (game_id, player, process, seen, present_until)
VALUES (?, -1, '', ?, ?) ON CONFLICT (game_id, player, process) DO NOTHING"""

_FORGET = "DELETE FROM friend_presence WHERE present_until < ? RETURNING 1"


def friend_presence_table(connection: Connection) -> None:
    """Schema step, alike in both databases: the players' presence shared by the processes."""
    connection.execute(PRESENCE_TABLE)


@dataclass(frozen=True)
class PresenceRow:
    """What one process says of one player of a game."""

    player: int
    process: str
    seen: float
    until: float


def read_presence(connection: Connection, game_id: str) -> list[PresenceRow]:
    """Every row of ``game_id``, read on ``connection`` (a claim reads them in its transaction)."""
    rows = connection.execute(_READ, (game_id,)).fetchall()
    return [
        PresenceRow(int(player), str(process), float(seen), float(until))
        for player, process, seen, until in rows
    ]


class PresenceRows:
    """The presence table's calls on a store's database, one transaction each (a mixin).

    The store supplies ``_transaction`` (one transaction, faults mapped to
    :class:`~connect_four.service.errors.StorageError`).
    """

    def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def presence_rows(self, game_id: str) -> list[PresenceRow]:
        """What every process says of ``game_id``'s players."""
        with self._transaction() as connection:
            return read_presence(connection, game_id)

    def mark_presence(
        self, game_id: str, player: int, process: str, seen: float, until: float
    ) -> None:
        """``process`` saw ``player`` at ``seen`` and vouches for them until ``until``."""
        with self._transaction(write=True) as connection:
            connection.execute(_MARK, (game_id, player, process, seen, until))

    def first_look(self, game_id: str, seen: float) -> None:
        """Note ``seen`` as the first look at ``game_id`` unless a process noted one before."""
        with self._transaction(write=True) as connection:
            connection.execute(_FIRST_LOOK, (game_id, seen, seen))

    def forget_presence(self, before: float) -> int:
        """Delete the rows that vouch for nobody since ``before``; how many."""
        with self._transaction(write=True) as connection:
            return len(connection.execute(_FORGET, (before,)).fetchall())
