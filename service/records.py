"""What a stored game is made of: its row, its rules, its ids and its players' tokens.

Plain values with no database and no HTTP in them: the repository reads
and writes them, the routers turn them into answers. The token checks live
here because a game's row holds its tokens' digests.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import uuid
from dataclasses import dataclass

from connect_four.engine import Game, Rules, RulesError
from connect_four.engine.validate import is_int

from .errors import (
    GameNotFoundError,
    PlayerNotFoundError,
    TokenRejectedError,
    TokenRequiredError,
    shown,
)

__all__ = [
    "CONNECT",
    "MIN_CONNECT",
    "ClockSetting",
    "GAME_ID_PATTERN",
    "CreatedGame",
    "GameRecord",
    "StoredGame",
    "check_game_id",
    "drop_token_rules",
    "new_game_id",
    "new_game_rules",
    "new_tokens",
    "token_digest",
]

CONNECT = 4
"""The chain that wins a drop-token game unless its creator chose another: four in a row."""

MIN_CONNECT = 3
"""The shortest chain a game may be created with: with 1 or 2 the first player always wins
(one stone; or two, since the second player cannot block both the column and the row)."""

GAME_ID_PATTERN = "^[0-9a-f]{32}$"
"""What every game id looks like: 32 lowercase hex digits (a UUID4 without dashes)."""

_IS_GAME_ID = re.compile(GAME_ID_PATTERN).match

TOKEN_BYTES = 24
"""Random bytes in a player's token: it is written as twice as many hex digits (48)."""


def drop_token_rules(rows: int, columns: int, connect: int = CONNECT) -> Rules:
    """The engine rules of a stored drop-token game: its board and its chain, any size.

    >>> drop_token_rules(4, 4)
    Rules(rows=4, columns=4, connect=4)
    >>> drop_token_rules(2, 3).connect
    4
    >>> drop_token_rules(7, 8, 5)
    Rules(rows=7, columns=8, connect=5)

    Raises:
        RulesError: rows, columns or connect is not a positive integer.
    """
    # On a board too small for four in a row nobody can win: games there end
    # in a draw, or when all but one player have quit (the seed's games).
    return Rules(rows, columns, connect, allow_unwinnable=True)


def new_game_rules(rows: int, columns: int, connect: int = CONNECT) -> Rules:
    """The rules of a game about to be created, refused if its chain makes no game.

    The chain is :data:`MIN_CONNECT` or more, and no longer than the
    board's longer side; the seed's four in a row is kept on any board
    (a board shorter than 4 every way can only be drawn, as the seed's).

    >>> new_game_rules(4, 4, 3)
    Rules(rows=4, columns=4, connect=3)
    >>> new_game_rules(2, 2).connect
    4
    >>> new_game_rules(4, 5, 6)
    Traceback (most recent call last):
    ...
    connect_four.engine.errors.RulesError: connect 6 is longer than any line of a 4 x 5 board (at most 5)

    Raises:
        RulesError: the board is refused, or the chain is shorter than
            :data:`MIN_CONNECT` or longer than any line of the board.
    """
    if is_int(connect) and connect < MIN_CONNECT:
        raise RulesError(
            f"connect must be at least {MIN_CONNECT}, got {connect} "
            "(with a shorter chain the first player always wins)"
        )
    return Rules(rows, columns, connect, allow_unwinnable=connect == CONNECT)


def new_game_id() -> str:
    """A fresh game id matching :data:`GAME_ID_PATTERN`."""
    return uuid.uuid4().hex


def check_game_id(game_id: str) -> None:
    """Refuse text that is no game id before it reaches a database or the cache.

    >>> check_game_id("0123456789abcdef0123456789abcdef")
    >>> check_game_id("no-such-game")
    Traceback (most recent call last):
    ...
    connect_four.service.errors.GameNotFoundError: there is no game 'no-such-game'

    Raises:
        GameNotFoundError: ``game_id`` does not look like a game id, so names no game.
    """
    if not _IS_GAME_ID(game_id):
        raise GameNotFoundError(f"there is no game {shown(game_id)}")


def new_tokens(players: list[str]) -> dict[str, str]:
    """One fresh secret per player, by name: 48 hex digits each.

    Hex, never URL-safe base64: a token starting with "-" would read as an
    option on a command line (``connect.py --join ... --token TOKEN``).
    """
    return {name: secrets.token_hex(TOKEN_BYTES) for name in players}


def token_digest(token: str) -> str:
    """What is stored of a token: its SHA-256, in hex (the token itself is shown once)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class GameRecord:
    """A stored game's row: id, player names, board size, its players' token digests and
    the chain that wins."""

    game_id: str
    players: tuple[str, ...]
    rows: int
    columns: int
    token_digests: tuple[str, ...] | None
    connect: int = CONNECT

    def player_index(self, player_id: str) -> int:
        """The engine's number for the player called ``player_id``.

        Raises:
            PlayerNotFoundError: no player of this game has that name.
        """
        try:
            return self.players.index(player_id)
        except ValueError:
            raise PlayerNotFoundError(
                f"game {self.game_id!r} has no player {shown(player_id)}"
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
        if not hmac.compare_digest(token_digest(token), self.token_digests[player]):
            raise TokenRejectedError(f"that token is not {name}'s")

    def new_game(self) -> Game:
        """An engine game of this record's rules and players, with no moves yet."""
        return Game(
            drop_token_rules(self.rows, self.columns, self.connect), players=len(self.players)
        )


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


@dataclass(frozen=True)
class ClockSetting:
    """A game's time control: ``initial`` seconds plus ``increment`` a move, or ``per_move``.

    With ``per_move`` (correspondence: days a move), each move has that
    long, whatever earlier moves took; otherwise each player has
    ``initial`` seconds for the game and gains ``increment`` at each move.
    """

    initial: float
    increment: float = 0.0
    per_move: float | None = None
