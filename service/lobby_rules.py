"""The lobby's rules (issue 36): players' keys, pools, the gap quick pairing accepts, ratings.

Pure functions, no database: :mod:`~connect_four.service.lobby_store` stores
what they decide. A player's key is a secret the client keeps; the service
keeps its SHA-256 only. A lobby game's token for a player is derived from
their key and a random nonce stored with the game (an HMAC), so the service
can hand a player their running games' tokens again whenever they show their
key, and stores no token. Ratings are Glicko-2, computed by the ``glicko2``
package (never a formula of ours), each game a rating period of one game.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from dataclasses import dataclass

import glicko2  # type: ignore[import-untyped]

from .records import ClockSetting, token_digest

__all__ = [
    "DEFAULT_RATING",
    "KEY_BYTES",
    "LOBBY_PRESENCE",
    "MAX_SEEKS",
    "POOL_PATTERN",
    "Rating",
    "folded",
    "key_digest",
    "new_key",
    "new_nonce",
    "pairing_gap",
    "pool_name",
    "rated",
    "seat_token",
    "token_digest_of",
]

KEY_BYTES = 32
"""Random bytes in a player's key (256 bits), written URL-safe (43 characters)."""

LOBBY_PRESENCE = 10.0
"""Seconds a player counts as present after a keyed call (a lobby wait counts till its end)."""

MAX_SEEKS = 3
"""Open seeks a player may have at once."""

GAP_BASE = 100.0
"""Rating points quick pairing accepts between two players at once."""

GAP_PER_SECOND = 50.0
"""Rating points the accepted gap widens by each second a player has waited."""


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating in one pool, and the rated games it counts."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06
    games: int = 0


DEFAULT_RATING = Rating()
"""Glicko-2's rating of a player without games (1500, 350, 0.06)."""


def new_key() -> str:
    """A new player's secret key: 256 random bits, URL-safe text."""
    return secrets.token_urlsafe(KEY_BYTES)


def key_digest(key: str) -> str:
    """What is stored of a key: its SHA-256, in hex."""
    return hashlib.sha256(key.encode()).hexdigest()


def new_nonce() -> str:
    """The random part of a lobby game's token for one player (not secret without the key)."""
    return secrets.token_hex(16)


def seat_token(key: str, nonce: str) -> str:
    """A player's token of one lobby game: their key's HMAC of the game's nonce, in hex."""
    return hmac.new(key.encode(), f"lobby seat {nonce}".encode(), hashlib.sha256).hexdigest()


def token_digest_of(key: str, nonce: str) -> str:
    """What the game stores of the seat's token: the digest of :func:`seat_token`."""
    return token_digest(seat_token(key, nonce))


def folded(name: str) -> str:
    """A name as uniqueness compares it: NFKC case-folded (full-width letters read as plain ones)."""
    return unicodedata.normalize("NFKC", name).casefold()


def _number(value: float) -> str:
    """A clock figure as a pool writes it: ``5``, ``0.5``."""
    return f"{value:g}"


POOL_PATTERN = (
    r"^[0-9]{1,3}x[0-9]{1,3}c[0-9]{1,3} (untimed|[0-9]{1,3}d|[0-9.e+-]{1,12}\+[0-9.e+-]{1,12})$"
)
"""What every :func:`pool_name` looks like: a text that does not names no pool (and never
reaches a database: PostgreSQL refuses a NUL in a text, for one)."""


def pool_name(rows: int, columns: int, connect: int, clock: ClockSetting | None) -> str:
    """The pool of a board and a time control: ``"6x7c4 5+3"``, ``"5x8c4 untimed"``, ``"6x7c4 2d"``.

    >>> import re
    >>> tiny = ClockSetting(initial=0.00001, increment=0.5)
    >>> [bool(re.match(POOL_PATTERN, name)) for name in (
    ...     pool_name(100, 100, 100, None), pool_name(6, 7, 4, tiny), "6x7c4 untimed" + chr(0))]
    [True, True, False]
    """
    if clock is None:
        control = "untimed"
    elif clock.per_move is not None:
        control = f"{round(clock.per_move / 86400)}d"
    else:
        control = f"{_number(clock.initial / 60)}+{_number(clock.increment)}"
    return f"{rows}x{columns}c{connect} {control}"


def pairing_gap(waited: float) -> float:
    """The rating gap quick pairing accepts for a player who has waited ``waited`` seconds."""
    return GAP_BASE + GAP_PER_SECOND * max(0.0, waited)


def rated(me: Rating, them: Rating, score: float) -> Rating:
    """``me`` after one rated game against ``them`` scoring ``score`` (1, 0.5 or 0): Glicko-2."""
    player = glicko2.Player(rating=me.rating, rd=me.rd, vol=me.volatility)
    player.update_player([them.rating], [them.rd], [score])
    return Rating(float(player.rating), float(player.rd), float(player.vol), me.games + 1)
