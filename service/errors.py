"""Errors the service itself raises, one class per kind of failure.

The engine's errors cover the game's rules; these cover what only the
service knows about: stored games, player names and tokens, ranges of the
move list, retries, the winner check's workers and the database. They say
what happened, not how to answer it: :mod:`connect_four.service.error_table` maps each
class to its HTTP status and API code, in one table.
"""

from __future__ import annotations

__all__ = [
    "shown",
    "ServiceError",
    "GameNotFoundError",
    "PlayerNotFoundError",
    "MoveNotFoundError",
    "BadRangeError",
    "GameDoneError",
    "TokenRequiredError",
    "TokenRejectedError",
    "IdempotencyKeyReusedError",
    "OfferRefusedError",
    "OfferMissingError",
    "ClaimRefusedError",
    "KeyMissingError",
    "KeyRejectedError",
    "NameTakenError",
    "LobbyPlayerNotFoundError",
    "TooManySeeksError",
    "SeekNotFoundError",
    "SeekGoneError",
    "OwnSeekError",
    "WinnerBusyError",
    "AnalysisBusyError",
    "ReviewBusyError",
    "ClientGoneError",
    "ComputerBusyError",
    "RateLimitedError",
    "ServerFullError",
    "TooManyConnectionsError",
    "TooManyWaitsError",
    "StorageError",
    "StorageFullError",
    "StorageReadOnlyError",
    "StorageCorruptError",
    "StorageMissingError",
    "StorageReplacedError",
    "StorageBusyError",
    "StorageCommitLostError",
]


def shown(text: str, length: int = 100) -> str:
    """``text`` as a message quotes it: its repr, cut to ``length`` characters.

    A message may quote what a client sent (an id, a name in a path, up to
    16 KiB of it): the answer stays short whatever was sent.

    >>> shown("ann"), shown("x" * 200, 10)
    ("'ann'", "'xxxxxxxx…")
    """
    quoted = repr(text)
    return quoted if len(quoted) <= length else quoted[: length - 1] + "…"


class ServiceError(Exception):
    """Base of the service's own errors (:mod:`connect_four.service.error_table` gives each its answer)."""


class GameNotFoundError(ServiceError):
    """No game has this id."""


class PlayerNotFoundError(ServiceError):
    """The player is not one of the game's players."""


class MoveNotFoundError(ServiceError):
    """The game's move list has no entry at this number."""


class BadRangeError(ServiceError):
    """A range of moves ends before it starts."""


class GameDoneError(ServiceError):
    """A player tried to quit a game that is already over."""


class TokenRequiredError(ServiceError):
    """The game was created with player tokens and the request carries none."""


class TokenRejectedError(ServiceError):
    """The request's token is not the acting player's."""


class IdempotencyKeyReusedError(ServiceError):
    """A retry key already names another move of this game (the API words it, HTTP header and all)."""

    def __init__(self, key: str, game_id: str, move: int) -> None:
        super().__init__(
            f"retry key {key!r} names another request: move {move} of game {game_id!r}"
        )
        self.key = key
        self.game_id = game_id
        self.move = move


class WinnerBusyError(ServiceError):
    """Every winner-check worker is busy and the queue is full: try again soon."""


class AnalysisBusyError(ServiceError):
    """Every analysis worker is busy and the queue is full: try again soon."""


class ReviewBusyError(ServiceError):
    """Every game-review worker is busy and the queue is full: try again soon."""


class ComputerBusyError(ServiceError):
    """Every computer-move worker is busy and the queue is full: try again soon."""


class ClientGoneError(ServiceError):
    """The client closed its connection before its answer was ready: the work was dropped.

    Its answer (499, nginx's name for a request its client closed) reaches nobody: the
    server sends nothing on a closed connection."""


class RateLimitedError(ServiceError):
    """The client's address has sent more requests of one kind than its rate allows."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, retry_after)
        self.retry_after = retry_after
        """Whole seconds until the client may try again."""

    def __str__(self) -> str:
        return str(self.args[0])


class ServerFullError(ServiceError):
    """The server holds as many connections and requests as it takes: try again soon."""


class TooManyConnectionsError(ServiceError):
    """The client's address holds as many connections as one address may."""


class TooManyWaitsError(ServiceError):
    """The client's address has as many long polls waiting as one address may."""


# --- Storage faults: the database cannot be used; nothing was stored. --------
# Their text names the database (redacted: connect_four.service.redaction)
# for the server's log; clients get error_table's generic sentence instead.


class StorageError(ServiceError):
    """The database cannot be used right now; the request changed nothing."""


class StorageFullError(StorageError):
    """The disk (or the database's size limit) is full."""


class StorageReadOnlyError(StorageError):
    """The database file or its file system cannot be written."""


class StorageCorruptError(StorageError):
    """The database file is damaged or is not a database."""


class StorageMissingError(StorageError):
    """The database file is no longer at its path (deleted or moved away)."""


class StorageReplacedError(StorageError):
    """Another file now sits at the database's path."""


class StorageBusyError(StorageError):
    """Another process has held the database's lock for too long."""


class StorageCommitLostError(StorageError):
    """The connection to the database broke while committing: the request may have been stored."""


class OfferRefusedError(ServiceError):
    """A draw, takeback or rematch cannot be offered now (or an offer is pending)."""


class OfferMissingError(ServiceError):
    """An answer came with no offer of the opponent's pending."""


class ClaimRefusedError(ServiceError):
    """A win or draw was claimed of a game whose opponent is not away on their turn long enough."""


# --- The lobby (issue 36): players' keys, names, seeks. -------------------------


class KeyMissingError(ServiceError):
    """A call made as a lobby player carries no ``Authorization: Bearer <key>``."""


class KeyRejectedError(ServiceError):
    """The key sent is no player's."""


class NameTakenError(ServiceError):
    """Another player has this name (names are compared case-folded)."""


class LobbyPlayerNotFoundError(ServiceError):
    """No lobby player has this name."""


class TooManySeeksError(ServiceError):
    """The player already has as many open seeks as one may."""


class SeekNotFoundError(ServiceError):
    """No open seek of the player's has this id."""


class SeekGoneError(ServiceError):
    """The seek was accepted by someone else, withdrawn, or never existed."""


class OwnSeekError(ServiceError):
    """A player tried to accept their own seek."""
