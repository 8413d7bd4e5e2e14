"""The store's part of games between friends: their extras changed in the store's transactions.

:class:`FriendExtras` is a base of :class:`~connect_four.service.repository.GameStore`
(whose transactions, cache and row reads it uses): a due flag fall stored,
offers, answers, claims, takebacks and rematches, each one write
transaction that changes the game's moves and its extras (one JSON row of
``friend_games``, :mod:`~connect_four.service.friend_rules`) together, on
SQLite and PostgreSQL alike. A game without extras never reaches these.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from connect_four.engine import Game

from . import friend_rules as rules
from .cache import CachedGame
from .database import INSERT_GAME, Connection
from .records import GameRecord, new_game_id

__all__ = ["Change", "FriendExtras", "Unchanged"]

Change = Callable[[Connection, GameRecord, Game, rules.Extras, int], None]
"""A change of a game between friends (an offer, an answer, a claim): see
:meth:`FriendExtras.change_extras`."""


class Unchanged(Exception):
    """A change of a game's extras found nothing to do: its transaction stores nothing."""


class FriendExtras:
    """Games between friends' changes, in the transactions of the store this is a base of."""

    clock: Callable[[], float]
    game_made: Callable[[str], None] | None
    _takebacks: dict[str, int]

    if TYPE_CHECKING:  # The store's own, :class:`~connect_four.service.repository.GameStore`'s.

        def _cached(self, game_id: str) -> AbstractContextManager[CachedGame[GameRecord]]: ...

        def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]: ...

        def _record(
            self, connection: Connection, game_id: str, *, lock: bool = False
        ) -> tuple[GameRecord, int, rules.Extras | None]: ...

        def _caught_up(
            self,
            connection: Connection,
            record: GameRecord,
            count: int,
            entry: CachedGame[GameRecord],
            extras: rules.Extras | None = None,
        ) -> Game: ...

        @staticmethod
        def _game_row(record: GameRecord) -> tuple[Any, ...]: ...

        def lobby_game_ended(
            self, connection: Connection, game_id: str, game: Game, extras: rules.Extras
        ) -> list[str]: ...

        def lobby_rematch(
            self, connection: Connection, previous: str, game_id: str
        ) -> list[str]: ...

        def _tell(self, keys: list[str]) -> None: ...

    def settle(self, game_id: str) -> bool:
        """Store the flag fall of a game between friends' player to move, if due; whether it was.

        A read first: only a game whose clock runs out takes the write lock.

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self._cached(game_id) as entry, self._transaction() as connection:
            record, count, extras = self._record(connection, game_id)
            if extras is None or not rules.ticking(extras):
                return False
            game = self._caught_up(connection, record, count, entry, extras)
            if rules.fallen_flag(extras, game, self.clock()) is None:
                return False
        return self._settle_now(game_id)

    def _settle_now(self, game_id: str) -> bool:
        """Store the flag fall if it is (still) due, in a write transaction; whether it was."""

        def fall(
            connection: Connection, record: GameRecord, game: Game, extras: rules.Extras, _: int
        ) -> None:
            if not self._fall(connection, record, game, extras):
                raise Unchanged

        return self.change_extras(game_id, None, None, fall, new=False)

    def _fall(
        self, connection: Connection, record: GameRecord, game: Game, extras: rules.Extras
    ) -> bool:
        """Store the flag fall of the player to move if it is due (``extras`` then changed)."""
        loser = rules.fallen_flag(extras, game, self.clock())
        if loser is None:
            return False
        self.store_quit(connection, record, game, extras, loser, "TIMEOUT")
        self._write_extras(connection, record.game_id, extras)
        return True

    def store_quit(
        self,
        connection: Connection,
        record: GameRecord,
        game: Game,
        extras: rules.Extras,
        loser: int,
        reason: str,
    ) -> None:
        """Store ``loser``'s quit as the game's next move, marked with ``reason`` in ``extras``.

        For a change inside :meth:`change_extras` (which writes the extras).
        """
        number = len(game)
        move = game.quit(loser)
        try:
            connection.execute(
                "INSERT INTO moves (game_id, move_number, player, column_number)"
                " VALUES (?, ?, ?, NULL)",
                (record.game_id, number, move.player),
            )
            if game.is_over():
                connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (record.game_id,))
        except BaseException:
            game.pop()
            raise
        rules.mark_quit(extras, number, loser, reason)

    def take_back(self, connection: Connection, game_id: str, game: Game, number: int) -> None:
        """Delete the moves from ``number`` on (an accepted takeback), inside :meth:`change_extras`."""
        connection.execute(
            "DELETE FROM moves WHERE game_id = ? AND move_number >= ?", (game_id, number)
        )
        while len(game) > number:
            game.pop()

    def change_extras(
        self,
        game_id: str,
        player_id: str | None,
        token: str | None,
        change: Change,
        *,
        new: bool = True,
    ) -> bool:
        """Apply ``change`` to the game and its extras in one write transaction; whether it did.

        ``player_id`` (checked against ``token``) is the player making the
        change (-1 for none). A game without extras gets them (``new``) or is
        left alone. ``change`` raising :class:`Unchanged` stores nothing.

        Raises:
            GameNotFoundError, PlayerNotFoundError, TokenRequiredError,
            TokenRejectedError; whatever ``change`` raises.
        """
        with self._cached(game_id) as entry:
            with self._transaction(write=True) as connection:
                record, count, extras = self._record(connection, game_id, lock=True)
                player = -1
                if player_id is not None:
                    player = record.player_index(player_id)
                    record.authorize(player, token)
                if extras is None and not new:
                    return False
                game = self._caught_up(connection, record, count, entry, extras)
                state = rules.new_extras(None, len(record.players)) if extras is None else extras
                rematch = state.get("rematch")
                entry.game = None  # A change may replay or take back moves: trusted once stored.
                try:
                    change(connection, record, game, state, player)
                except Unchanged:
                    entry.game = game
                    return False
                if len(game) < count:
                    state["takebacks"] = int(state.get("takebacks", 0)) + 1
                if extras is None:
                    connection.execute(
                        "INSERT INTO friend_games (game_id, state) VALUES (?, ?)",
                        (game_id, rules.dump(state)),
                    )
                else:
                    self._write_extras(connection, game_id, state)
                told: list[str] = []
                if rules.outcome(state, game) is not None:
                    connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (game_id,))
                    told = self.lobby_game_ended(connection, game_id, game, state)
                if state.get("rematch") not in (None, rematch):  # made by this change
                    told += self.lobby_rematch(connection, game_id, str(state["rematch"]))
            self._tell(told)
            if state.get("takebacks"):
                self._takebacks[game_id] = int(state["takebacks"])
            entry.game = game
        return True

    def store_rematch(
        self, connection: Connection, record: GameRecord, extras: rules.Extras
    ) -> str:
        """Store a rematch of ``record``'s game, colours swapped, with ``extras``; its id.

        Same board, chain and token digests (each player keeps their token), inside
        :meth:`change_extras`.
        """
        game_id = new_game_id()
        digests = None if record.token_digests is None else record.token_digests[::-1]
        rematch = GameRecord(
            game_id, record.players[::-1], record.rows, record.columns, digests, record.connect
        )
        connection.execute(INSERT_GAME, self._game_row(rematch))
        connection.execute(
            "INSERT INTO friend_games (game_id, state) VALUES (?, ?)", (game_id, rules.dump(extras))
        )
        if self.game_made is not None:
            self.game_made(game_id)
        return game_id

    @staticmethod
    def _write_extras(connection: Connection, game_id: str, extras: rules.Extras) -> None:
        connection.execute(
            "UPDATE friend_games SET state = ? WHERE game_id = ?", (rules.dump(extras), game_id)
        )
