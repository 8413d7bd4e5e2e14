"""Every way the terminal game can fail, one class per kind, in one place.

A leaf: it imports nothing, so every module of ``terminal`` (and
connect.py, which shows these as one line on standard error) can use them
without loading the parser, the session or the network client.

- :class:`UsageError`: the command line is refused (status 2).
- :class:`PlayAborted`: a game cannot go on (status 1); its network kinds
  :class:`ConnectionLost`, :class:`ServiceRefused` and :class:`BadResponse`
  derive from :class:`NetworkError`.
- :class:`LeftWaiting`: the player left the lobby's wait for a game with
  Ctrl-C (status 130) or the end of input (1); what they had open there is
  taken back.
- :class:`ServerUnreachable`: one request got no answer; never shown, the
  network game retries it and raises :class:`ConnectionLost` when it gives up.
"""

from __future__ import annotations

__all__ = [
    "UsageError",
    "PlayAborted",
    "NetworkError",
    "ConnectionLost",
    "ServiceRefused",
    "BadResponse",
    "LeftWaiting",
    "ServerUnreachable",
]


class UsageError(Exception):
    """The command line asks for something the game cannot do; the message is one line."""


class PlayAborted(Exception):
    """The game cannot go on; the message is the one line connect.py shows on stderr."""


class NetworkError(PlayAborted):
    """The network game cannot go on: the service refused, or answered nonsense, or is gone."""


class ConnectionLost(NetworkError):
    """The service stayed unreachable for longer than the game waits."""


class ServiceRefused(NetworkError):
    """The service answered a request with an error (``code``, e.g. ``game_not_found``)."""

    def __init__(self, message: str, status: int, code: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class BadResponse(NetworkError):
    """The service's answer is not one the drop-token API gives."""


class LeftWaiting(Exception):
    """Ctrl-C (or the end of input) while the lobby waited for a game: the challenge or pairing
    is taken back; the message is one line, ``status`` connect.py's exit status."""

    def __init__(self, message: str, status: int = 130) -> None:
        super().__init__(message)
        self.status = status


class ServerUnreachable(Exception):
    """One request got no answer; the same request may get one later.

    Not a :class:`NetworkError`: the caller retries, and only its
    :class:`ConnectionLost` ends the game.
    """
