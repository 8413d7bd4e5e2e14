"""From the game a front end plays to the position the solver searches.

:class:`~connect_four.engine.game.Game` keeps the move list of any number of players and
loads nothing heavy; :class:`~connect_four.engine.bitboard.Position` is the two-player
bitboard of the searches. Neither module knows the other: the one
conversion lives here.
"""

from __future__ import annotations

from .bitboard import Position
from .errors import UnsupportedGameError
from .game import Game

__all__ = ["to_position"]


def to_position(game: Game) -> Position:
    """The bitboard position of a two-player engine game.

    >>> to_position(Game.from_moves("3,3,4")).moves
    3

    Raises:
        UnsupportedGameError: the game is not for exactly two players.
    """
    if game.players != 2:
        raise UnsupportedGameError(
            f"a bitboard position holds two players, the game has {game.players}"
        )
    return Position.from_moves(game.moves, game.rules)
