"""The lobby's views (issue 36): its feed, a player's own feed, a lobby game's record, leaderboards.

:class:`LobbyViews` is a base of :class:`~connect_four.service.repository.GameStore`,
as :class:`~connect_four.service.lobby_store.LobbyTables` is: each view is one
read transaction of the tables that module changes, shaped as the API answers it.
"""

from __future__ import annotations

import datetime
import json
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from . import friend_rules as rules
from .database import Connection
from .errors import GameNotFoundError
from .lobby_store import Spec, rating_of
from .records import check_game_id

__all__ = ["MAX_LISTED", "MAX_MY_GAMES", "LobbyViews"]

MAX_LISTED = 200
"""Seeks and live games the lobby's feed lists at most (newest first)."""

MAX_MY_GAMES = 50
"""Games a player's feed lists at most (newest first)."""


class LobbyViews:
    """The lobby's reads, in the transactions of the store this is a base of."""

    if TYPE_CHECKING:  # The store's own, :class:`~connect_four.service.repository.GameStore`'s.

        def _transaction(self, write: bool = False) -> AbstractContextManager[Connection]: ...

    def lobby_view(self, now: float) -> dict[str, Any]:
        """The lobby as its feed shows it: version, seeks, live games, waiting, online."""
        with self._transaction() as connection:
            (version,) = connection.execute("SELECT version FROM lobby_version").fetchone()
            seeks = [
                _seek_json(row)
                for row in connection.execute(
                    _SEEKS + " ORDER BY s.created DESC, s.seek_id LIMIT ?", (MAX_LISTED,)
                )
            ]
            live = [
                {
                    "gameId": str(game_id),
                    "players": [str(x), str(o)],
                    "ratings": [round(float(r[0]), 1) for r in json.loads(before)],
                    "pool": str(pool),
                    "rated": bool(json.loads(spec)["rated"]),
                    "moves": int(moves),
                }
                for game_id, x, o, pool, spec, before, moves in connection.execute(
                    "SELECT g.game_id, g.x, g.o, g.pool, g.spec, g.ratings_before,"
                    " (SELECT count(*) FROM moves AS m WHERE m.game_id = g.game_id)"
                    " FROM lobby_games AS g WHERE g.done = 0"
                    " ORDER BY g.started DESC, g.game_id LIMIT ?",
                    (MAX_LISTED,),
                )
            ]
            waiting = {
                str(pool): int(count)
                for pool, count in connection.execute(
                    "SELECT pool, count(*) FROM pairing GROUP BY pool ORDER BY pool"
                )
            }
            (online,) = connection.execute(
                "SELECT count(*) FROM players WHERE present_until >= ?", (now,)
            ).fetchone()
        return {
            "version": int(version),
            "seeks": seeks,
            "live": live,
            "waiting": waiting,
            "online": int(online),
        }

    def lobby_version(self) -> int:
        """The lobby's version now (one row read)."""
        with self._transaction() as connection:
            (version,) = connection.execute("SELECT version FROM lobby_version").fetchone()
        return int(version)

    def my_view(self, name: str) -> tuple[dict[str, Any], list[str | None]]:
        """``name``'s feed, and each listed game's nonce of theirs (None once it is over).

        The route turns each nonce into the player's token (it has their key).
        """
        with self._transaction() as connection:
            row = connection.execute(
                "SELECT version FROM players WHERE name = ?", (name,)
            ).fetchone()
            version = 0 if row is None else int(row[0])
            seeks = [
                _seek_json(seek)
                for seek in connection.execute(
                    _SEEKS + " WHERE s.name = ? ORDER BY s.created DESC, s.seek_id", (name,)
                )
            ]
            pairing = connection.execute(
                "SELECT pool FROM pairing WHERE name = ?", (name,)
            ).fetchone()
            rows = connection.execute(
                f"SELECT {_GAME_COLUMNS} FROM lobby_games AS g WHERE g.game_id IN"  # noqa: S608
                " (SELECT game_id FROM (SELECT game_id, started FROM lobby_games WHERE x = ?"
                " UNION ALL SELECT game_id, started FROM lobby_games WHERE o = ?) AS mine"
                " ORDER BY started DESC, game_id LIMIT ?)"
                " ORDER BY g.started DESC, g.game_id",
                (name, name, MAX_MY_GAMES),
            ).fetchall()
        games, nonces = [], []
        for game in rows:
            entry = _game_json(game)
            seat = entry["players"].index(name)
            ticket = {
                "gameId": entry["gameId"],
                "players": entry["players"],
                "you": name,
                "pool": entry["pool"],
                "rated": entry["rated"],
                "rows": entry["rows"],
                "columns": entry["columns"],
                "connect": entry["connect"],
                "clock": entry["clock"],
                "state": entry["state"],
                "winner": entry["winner"],
                "reason": entry["reason"],
                "moves": entry["moveCount"],
            }
            games.append(ticket)
            nonces.append(json.loads(game[5])[seat] if entry["state"] == "IN_PROGRESS" else None)
        view = {
            "version": version,
            "name": name,
            "games": games,
            "seeks": seeks,
            "pairing": None if pairing is None else str(pairing[0]),
        }
        return view, nonces

    def lobby_game(self, game_id: str) -> dict[str, Any]:
        """A lobby game's record: players, pool, moves, result, ratings before and after.

        Raises:
            GameNotFoundError: no lobby game has this id.
        """
        check_game_id(game_id)
        with self._transaction() as connection:
            row = connection.execute(
                f"SELECT {_GAME_COLUMNS} FROM lobby_games AS g WHERE g.game_id = ?",  # noqa: S608
                (game_id,),
            ).fetchone()
            if row is None:
                raise GameNotFoundError(f"there is no lobby game {game_id!r}")
            moves = [
                column
                for (column,) in connection.execute(
                    "SELECT column_number FROM moves WHERE game_id = ? ORDER BY move_number",
                    (game_id,),
                )
                if column is not None
            ]
            state = connection.execute(
                "SELECT state FROM friend_games WHERE game_id = ?", (game_id,)
            ).fetchone()
        entry = _game_json(row)
        del entry["moveCount"]
        entry["moves"] = moves
        entry["clocks"] = _clocks(None if state is None else rules.load(state[0]), entry)
        return entry

    def leaderboard(self, pool: str, limit: int) -> list[dict[str, Any]]:
        """The players with rated games in ``pool``, highest rating first."""
        with self._transaction() as connection:
            return [
                {
                    "name": str(name),
                    "bot": bool(bot),
                    "rating": float(rating),
                    "rd": float(rd),
                    "games": int(games),
                }
                for name, bot, rating, rd, games in connection.execute(
                    "SELECT r.name, p.bot, r.rating, r.rd, r.games FROM ratings AS r"
                    " JOIN players AS p ON p.name = r.name WHERE r.pool = ?"
                    " ORDER BY r.rating DESC, r.name LIMIT ?",
                    (pool, limit),
                )
            ]


_SEEKS = (
    "SELECT s.seek_id, s.name, p.bot, coalesce(r.rating, 1500.0), s.spec, s.pool"
    " FROM seeks AS s JOIN players AS p ON p.name = s.name"
    " LEFT JOIN ratings AS r ON r.name = s.name AND r.pool = s.pool"
)


def _seek_json(row: Any) -> dict[str, Any]:
    spec = Spec.load(row[4])
    return {
        "id": str(row[0]),
        "by": str(row[1]),
        "bot": bool(row[2]),
        "rating": float(row[3]),
        "rows": spec.rows,
        "columns": spec.columns,
        "connect": spec.connect,
        "colour": spec.colour,
        "clock": spec.clock,
        "rated": spec.rated,
        "pool": str(row[5]),
    }


_GAME_COLUMNS = (
    "g.game_id, g.x, g.o, g.pool, g.spec, g.nonces, g.bots, g.ratings_before, g.ratings_after,"
    " g.started, g.ended, g.winner, g.reason, g.done,"
    " (SELECT count(*) FROM moves AS m WHERE m.game_id = g.game_id)"
)


def _iso(seconds: float | None) -> str | None:
    if seconds is None:
        return None
    return (
        datetime.datetime.fromtimestamp(float(seconds), datetime.UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def _game_json(row: Any) -> dict[str, Any]:
    """A lobby game's row (:data:`_GAME_COLUMNS`) as the API shows it, moves counted."""
    spec = Spec.load(row[4])
    after = None if row[8] is None else json.loads(row[8])
    return {
        "gameId": str(row[0]),
        "players": [str(row[1]), str(row[2])],
        "bots": json.loads(row[6]),
        "pool": str(row[3]),
        "rated": spec.rated,
        "rows": spec.rows,
        "columns": spec.columns,
        "connect": spec.connect,
        "clock": spec.clock,
        "moveCount": int(row[14]),
        "state": "DONE" if row[13] else "IN_PROGRESS",
        "winner": None if row[11] is None else str(row[11]),
        "reason": None if row[12] is None else str(row[12]),
        "started": _iso(row[9]),
        "ended": _iso(row[10]),
        "ratings": {
            "before": [_rating_dict(r) for r in json.loads(row[7])],
            "after": None if after is None else [_rating_dict(r) for r in after],
        },
    }


def _clocks(extras: rules.Extras | None, entry: dict[str, Any]) -> list[float] | None:
    """Each player's seconds left after their last move (0 for a flag fallen); None: untimed."""
    if extras is None or extras["clock"] is None:
        return None
    left = [round(float(seconds), 3) for seconds in extras["clock"]["remaining"]]
    if entry["reason"] == "TIMEOUT" and entry["winner"] is not None:
        left[1 - entry["players"].index(entry["winner"])] = 0.0
    return left


def _rating_dict(row: list[float]) -> dict[str, Any]:
    rating = rating_of(row)
    return {
        "rating": rating.rating,
        "rd": rating.rd,
        "volatility": rating.volatility,
        "games": rating.games,
    }
