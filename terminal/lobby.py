"""The service's lobby, as the terminal and the bot use it: identity, seeks, pairing, feeds.

One request per call through :class:`~connect_four.terminal.network.DropTokenClient`'s
own (its timeouts, its bounded reads, no redirects, the same errors); the
player's key goes in the ``Authorization`` header, never in a URL. Every
answer is checked before it is used: a :class:`Seek` or :class:`Ticket` holds
only values the API promises, or :class:`~connect_four.terminal.errors.BadResponse`
is raised.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable

from .errors import BadResponse, ServiceRefused
from .network import MAX_BOARD, DropTokenClient, is_clean_text, is_count

__all__ = ["LOBBY_WAIT", "Seek", "Ticket", "LobbyClient"]

LOBBY_WAIT = 25.0
"""Seconds one lobby long poll asks the service to wait for a change (it also keeps the player present)."""

Caller = Callable[..., dict[str, object]]
"""How a caller makes one of the lobby's requests: ``call(request, *arguments)``, with its
own answer to a service that does not answer (retry, or give up)."""


class Seek:
    """An open challenge in the lobby, checked: who made it, their rating, the game asked for."""

    __slots__ = ("seek_id", "by", "bot", "rating", "rows", "columns", "connect", "colour",
                 "clock", "rated", "pool")  # fmt: skip

    def __init__(self, answer: object) -> None:
        entry = _expect_dict(answer, "a seek")
        self.seek_id = _text(entry, "id", "a seek")
        self.by = _text(entry, "by", "a seek")
        self.bot = entry.get("bot") is True
        self.rating = _number(entry.get("rating"), "a seek's rating")
        self.rows, self.columns, self.connect = _board(entry, "a seek")
        colour = entry.get("colour")
        if colour not in ("X", "O", "random"):
            raise BadResponse("the service's seek has no colour")
        self.colour = str(colour)
        self.clock = _clock(entry.get("clock"))
        self.rated = entry.get("rated") is True
        self.pool = _text(entry, "pool", "a seek")

    def describe(self) -> str:
        """One line for a list: who, their rating, the board, the clock, rated or not.

        >>> Seek({"id": "s1", "by": "ann", "bot": True, "rating": 1500.4, "rows": 6,
        ...       "columns": 7, "connect": 4, "colour": "random", "clock": None,
        ...       "rated": True, "pool": "6x7c4 untimed"}).describe()
        'ann (bot, 1500): 6 x 7, four in a row, untimed, rated, colour random'
        """
        who = f"{self.by} ({'bot, ' if self.bot else ''}{self.rating:.0f})"
        control = self.pool.partition(" ")[2] or "untimed"
        chain = "four" if self.connect == 4 else str(self.connect)
        kind = "rated" if self.rated else "casual"
        return (
            f"{who}: {self.rows} x {self.columns}, {chain} in a row, {control}, {kind}, "
            f"colour {self.colour}"
        )


class Ticket:
    """A lobby game of this player's, checked: the game, the players in turn order, its token."""

    __slots__ = ("game_id", "players", "you", "token", "pool", "rated", "rows", "columns",
                 "connect", "clock", "state")  # fmt: skip

    def __init__(self, answer: object) -> None:
        entry = _expect_dict(answer, "a game ticket")
        self.game_id = _text(entry, "gameId", "a game ticket")
        players = entry.get("players")
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(is_clean_text(name) for name in players)
        ):
            raise BadResponse("the service's game ticket has no two players")
        self.players = [str(name) for name in players]
        self.you = _text(entry, "you", "a game ticket")
        if self.you not in self.players:
            raise BadResponse("the service's game ticket is not for one of its players")
        token = entry.get("token")
        self.token = str(token) if is_clean_text(token) else None
        self.pool = _text(entry, "pool", "a game ticket")
        self.rated = entry.get("rated") is True
        self.rows, self.columns, self.connect = _board(entry, "a game ticket")
        self.clock = _clock(entry.get("clock"))
        state = entry.get("state", "IN_PROGRESS")
        self.state = str(state) if state in ("IN_PROGRESS", "DONE") else "IN_PROGRESS"


class LobbyClient(DropTokenClient):
    """The drop-token client with the lobby's calls; ``key`` (None before registering) signs them."""

    def __init__(self, base: str, key: str | None = None, timeout: float | None = None) -> None:
        if timeout is None:
            super().__init__(base)
        else:
            super().__init__(base, timeout)
        self.key = key

    def register(self, name: str, bot: bool = False) -> str:
        """Make the player ``name`` on the service; their new key (also kept as :attr:`key`).

        Raises:
            ServiceRefused: the name is taken (``name_taken``) or not a valid name.
        """
        answer = _expect_dict(
            self._request("POST", "/players", body={"name": name, "bot": bot}, expect=201),
            "a new player",
        )
        self.key = _text(answer, "key", "a new player")
        return self.key

    def me(self) -> dict[str, object]:
        """The player of :attr:`key` (``GET /players/me``): name, bot, ratings."""
        answer = _expect_dict(self._keyed("GET", "/players/me"), "the player")
        _text(answer, "name", "the player")
        return answer

    def create_seek(self, options: dict[str, object]) -> Seek:
        """Open a challenge with ``options`` (rows, columns, connect, colour, clock, rated)."""
        return Seek(self._keyed("POST", "/lobby/seeks", body=options, expect=201))

    def cancel_seek(self, seek_id: str) -> None:
        """Take one's own open challenge back; one already gone is left so."""
        try:
            self._keyed("DELETE", f"/lobby/seeks/{_segment(seek_id)}", expect=204)
        except ServiceRefused as refusal:
            if refusal.status != 404:
                raise

    def accept(self, seek_id: str) -> Ticket:
        """Accept an open challenge; the game's ticket.

        Raises:
            ServiceRefused: ``seek_gone`` when someone else was first, ``own_seek``.
        """
        return Ticket(
            self._keyed("POST", f"/lobby/seeks/{_segment(seek_id)}/accept", body={}, expect=201)
        )

    def pair(self, options: dict[str, object]) -> Ticket | None:
        """Ask to play someone now; the ticket when someone was waiting, else None (wait for it)."""
        answer = _expect_dict(
            self._keyed("POST", "/lobby/pair", body=options, expect=(200, 201)), "a pairing"
        )
        if answer.get("state") == "waiting":
            return None
        return Ticket(answer)

    def stop_pairing(self) -> None:
        """Stop waiting for someone to play."""
        self._keyed("DELETE", "/lobby/pair", expect=204)

    def lobby(self, since: int | None = None, wait: float | None = None) -> dict[str, object]:
        """The lobby (seeks, live games, waiting, online); with ``since``, the next change."""
        path = "/lobby" + _feed_query(since, wait, self)
        answer = _expect_dict(
            self._request("GET", path, token=self.key, timeout=self._timeout_for(wait)), "the lobby"
        )
        _version(answer)
        return answer

    def seeks(self, answer: dict[str, object]) -> list[Seek]:
        """The open challenges of a lobby answer, checked."""
        entries = answer.get("seeks")
        if not isinstance(entries, list):
            raise BadResponse("the service's lobby has no list of seeks")
        return [Seek(entry) for entry in entries]

    def my_lobby(self, since: int | None = None, wait: float | None = None) -> dict[str, object]:
        """This player's games, seeks and pairing (``GET /lobby/me``); with ``since``, the next change."""
        path = "/lobby/me" + _feed_query(since, wait, self)
        answer = _expect_dict(
            self._keyed("GET", path, timeout=self._timeout_for(wait)), "the player's lobby"
        )
        _version(answer)
        return answer

    def my_games(self, answer: dict[str, object]) -> list[Ticket]:
        """The games of a ``/lobby/me`` answer, newest first, checked."""
        entries = answer.get("games")
        if not isinstance(entries, list):
            raise BadResponse("the service's list of the player's games is malformed")
        return [Ticket(entry) for entry in entries]

    def new_game(
        self, answer: dict[str, object], is_new: Callable[[Ticket], bool]
    ) -> Ticket | None:
        """The newest game in progress of a ``/lobby/me`` answer that ``is_new`` takes, or None."""
        for ticket in self.my_games(answer):
            if ticket.state == "IN_PROGRESS" and is_new(ticket):
                return ticket
        return None

    def next_game(self, is_new: Callable[[Ticket], bool], call: Caller) -> Ticket:
        """The player's first game in progress that ``is_new`` takes, waiting for it: each
        change of ``GET /lobby/me`` is pushed (``call`` makes each request: its retries)."""
        mine = call(self.my_lobby)
        while True:
            ticket = self.new_game(mine, is_new)
            if ticket is not None:
                return ticket
            mine = call(self.my_lobby, int(str(mine["version"])), LOBBY_WAIT)

    def _keyed(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        expect: int | tuple[int, ...] = 200,
        timeout: float | None = None,
    ) -> object:
        """A request as the player of :attr:`key`."""
        if self.key is None:
            raise ServiceRefused("no player key yet", 401, "key_missing")
        return self._request(
            method, path, body=body, token=self.key, expect=expect, timeout=timeout
        )

    def _timeout_for(self, wait: float | None) -> float:
        return self.timeout + (self.granted_wait(wait) if wait is not None else 0.0)


def _feed_query(since: int | None, wait: float | None, client: DropTokenClient) -> str:
    if since is None:
        return ""
    query = {"since": str(since)}
    if wait is not None:
        query["wait"] = f"{client.granted_wait(wait):g}"
    return "?" + urllib.parse.urlencode(query)


def _segment(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _expect_dict(answer: object, what: str) -> dict[str, object]:
    if not isinstance(answer, dict):
        raise BadResponse(f"the service's answer for {what} is not a JSON object")
    return answer


def _text(entry: dict[str, object], name: str, what: str) -> str:
    value = entry.get(name)
    if not is_clean_text(value):
        raise BadResponse(f"the service's answer for {what} has no valid {name}")
    return str(value)


def _number(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise BadResponse(f"the service's answer has no number for {what}")
    return float(value)


def _board(entry: dict[str, object], what: str) -> tuple[int, int, int]:
    sizes = [entry.get(name) for name in ("rows", "columns", "connect")]
    if not all(is_count(size, MAX_BOARD) for size in sizes):
        raise BadResponse(f"the service's answer for {what} has no valid board")
    rows, columns, connect = (int(size) for size in sizes)  # type: ignore[call-overload]
    return rows, columns, connect


def _clock(value: object) -> dict[str, float] | None:
    if value is None:
        return None
    if isinstance(value, dict) and all(
        isinstance(number, (int, float)) and not isinstance(number, bool)
        for number in value.values()
    ):
        return {str(name): float(number) for name, number in value.items()}
    raise BadResponse("the service's clock is malformed")


def _version(answer: dict[str, object]) -> int:
    version = answer.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise BadResponse("the service's lobby has no version")
    return version
