"""A small client of the project's drop-token service, standard library only.

The network game (``connect.py --server`` / ``--join``) talks to the service
through :class:`DropTokenClient`: one HTTP request per call, each with a
timeout, each answer read up to :data:`MAX_RESPONSE_BYTES` and checked
against what the API promises before anything in it is used. Whatever the
server sends, a call returns checked values or raises one of (all in
:mod:`connect_four.terminal.errors`):

- :class:`~connect_four.terminal.errors.ServerUnreachable`: no answer this time
  (refused, reset, timed out, or a 502/503/504 of a service restarting);
  the caller may retry.
- :class:`~connect_four.terminal.errors.ServiceRefused`: the service answered with an
  error of its own.
- :class:`~connect_four.terminal.errors.BadResponse`: the answer is not one the API gives.

A leaf of the game: it imports the standard library and
:mod:`connect_four.terminal.errors` only, never the session, the options or the engine.
It is imported only for a network game: the assignment's game never loads
urllib, json or http.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from functools import partial

from .errors import BadResponse, ServerUnreachable, ServiceRefused

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MAX_RESPONSE_BYTES",
    "MOVES_PAGE",
    "TIMEOUT",
    "OLD_MAX_WAIT",
    "GameAddress",
    "CreatedGame",
    "GameInfo",
    "RemoteMove",
    "FriendStatus",
    "DropTokenClient",
    "parse_server_url",
    "parse_join_url",
    "parse_watch_url",
    "printable",
    "is_shown_safely",
    "is_clean_text",
    "is_count",
    "MAX_BOARD",
]

MAX_RESPONSE_BYTES = 1 << 20
"""The most bytes of one answer read: a page of moves takes under 60 KB."""

MOVES_PAGE = 500
"""Moves asked for in one request (``start`` to ``until``)."""

TIMEOUT = 5.0
"""Seconds one request may take, connecting and reading, before it counts as unanswered."""

OLD_MAX_WAIT = 60.0
"""The longest wait for moves a service of before 300 s waits takes (it refuses more: 400)."""

# Statuses of a proxy or a service that is (re)starting or overloaded: the
# same request may succeed later.
_TRANSIENT_STATUSES = frozenset({408, 429, 502, 503, 504})
# What a server's sentence may show, at most, and in printable characters only.
_MAX_DETAIL = 200


_EMOJI_FORMAT = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))
"""Invisible characters that are parts of emoji and names, not printable to ``str.isprintable``:
the zero-width joiners (in "👩\u200d🚀") and the tags of flags such as Scotland's. None moves
the cursor, clears or rings: they reach a terminal as they are."""


def _shown(char: str) -> bool:
    return char.isprintable() or char in _EMOJI_FORMAT


def is_shown_safely(text: str) -> bool:
    """Whether ``text`` can reach a terminal as it is: printable, or parts of emoji.

    >>> is_shown_safely("\U0001f469\u200d\U0001f680 Zo\u00eb"), is_shown_safely("a\x1b[2J")
    (True, False)
    """
    return all(_shown(char) for char in text)


def printable(text: str, limit: int = _MAX_DETAIL) -> str:
    """``text`` cut to ``limit`` characters, anything unprintable shown as ``?``.

    What a server sends is shown on a terminal: no escape sequence in it
    may reach the screen.

    >>> printable("bad\\x1b[2Jmove")
    'bad?[2Jmove'
    """
    shown = "".join(char if _shown(char) else "?" for char in text[:limit])
    return shown + ("..." if len(text) > limit else "")


class GameAddress:
    """Where a player's game lives: the service's base URL, the game id, the player's name.

    >>> address = GameAddress("http://127.0.0.1:8080", "0f3c", "ann b")
    >>> address.player_url
    'http://127.0.0.1:8080/drop_token/0f3c/ann%20b'
    """

    __slots__ = ("base", "game_id", "player")

    def __init__(self, base: str, game_id: str, player: str) -> None:
        self.base = base
        self.game_id = game_id
        self.player = player

    @property
    def player_path(self) -> str:
        """The player's path on the service: ``POST`` plays a move, ``DELETE`` quits."""
        return f"{_game_path(self.game_id)}/{_segment(self.player)}"

    @property
    def player_url(self) -> str:
        """The player's URL, as ``--join`` takes it."""
        return self.base + self.player_path


class FriendStatus:
    """A game between friends as the service tells it (``GET /friend_game/{gameId}``), checked.

    ``present`` and ``clocks`` by player name (``clocks`` empty without a
    clock); ``offer`` is (kind, by) or None; ``version`` changes with
    anything but the clocks' seconds.
    """

    __slots__ = (
        "done",
        "reason",
        "moves",
        "present",
        "clocks",
        "offer",
        "rematch",
        "claimable",
        "version",
    )

    def __init__(self, answer: dict[str, object]) -> None:
        players = answer.get("players")
        moves = answer.get("moves")
        version = answer.get("version")
        if (
            not isinstance(players, list)
            or not isinstance(moves, int)
            or not is_clean_text(version)
        ):
            raise BadResponse("the service's status of the game is malformed")
        self.present: dict[str, bool] = {}
        self.clocks: dict[str, float] = {}
        for entry in players:
            player = _expect_dict(entry)
            name = player.get("name")
            if not is_clean_text(name) or not isinstance(player.get("present"), bool):
                raise BadResponse("the service's status of the game is malformed")
            self.present[str(name)] = bool(player["present"])
            clock = player.get("clock")
            if isinstance(clock, (int, float)) and not isinstance(clock, bool):
                self.clocks[str(name)] = float(clock)
        offer = answer.get("offer")
        self.offer: tuple[str, str] | None = None
        if isinstance(offer, dict) and is_clean_text(offer.get("kind")):
            if is_clean_text(offer.get("by")):
                self.offer = (str(offer["kind"]), str(offer["by"]))
        reason = answer.get("reason")
        rematch = answer.get("rematch")
        self.done = answer.get("state") == "DONE"
        self.reason = str(reason) if is_clean_text(reason) else None
        self.moves = moves
        self.rematch = str(rematch) if is_clean_text(rematch) else None
        self.claimable = answer.get("claimable") is True
        self.version = str(version)


class CreatedGame:
    """A game the service created: its id and each player's secret token."""

    __slots__ = ("game_id", "tokens")

    def __init__(self, game_id: str, tokens: dict[str, str]) -> None:
        self.game_id = game_id
        self.tokens = tokens


class GameInfo:
    """A game as the service tells it: its players in turn order, and its board when told.

    ``rows``, ``columns`` and ``connect`` (the chain that wins) are None from
    a service that does not tell them (the seed's answer has only the
    players and the state).
    """

    __slots__ = ("players", "done", "rows", "columns", "connect")

    def __init__(
        self,
        players: list[str],
        done: bool,
        rows: int | None,
        columns: int | None,
        connect: int | None = None,
    ) -> None:
        self.players = players
        self.done = done
        self.rows = rows
        self.columns = columns
        self.connect = connect


class RemoteMove:
    """One entry of a game's move list: ``player`` dropped into ``column``, or quit (None).

    ``reason`` tells a quit of a game between friends that the player did not
    send: ``TIMEOUT`` (their flag fell) or ``ABANDONED`` (they were away, and
    the other claimed the win); None otherwise.
    """

    __slots__ = ("player", "column", "reason")

    def __init__(self, player: str, column: int | None, reason: str | None = None) -> None:
        self.player = player
        self.column = column
        self.reason = reason

    def __repr__(self) -> str:
        return f"RemoteMove({self.player!r}, {self.column!r})"


def parse_server_url(text: str) -> str:
    """The base URL of a service, as ``--server`` takes it, without a trailing slash.

    >>> parse_server_url("http://127.0.0.1:8080/")
    'http://127.0.0.1:8080'

    Raises:
        ValueError: not an http(s) URL with a host, or it carries a query.
    """
    parts = urllib.parse.urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{text!r} is not an http:// or https:// URL")
    try:
        parts.port  # noqa: B018 (urllib checks the port only when asked)
    except ValueError:
        raise ValueError(f"{text!r} has no valid port") from None
    if parts.query or parts.fragment:
        raise ValueError(f"{text!r}: a service URL has no query or fragment")
    base = text.split("#")[0].rstrip("/")
    # The API's own path given as the service's: the service is its parent.
    return base.removesuffix("/drop_token").rstrip("/") if base.endswith("/drop_token") else base


def parse_join_url(text: str) -> GameAddress:
    """The game and player named by a URL ``--server`` printed: ``BASE/drop_token/GAME/PLAYER``.

    >>> address = parse_join_url("http://127.0.0.1:8080/drop_token/0f3c/bob")
    >>> address.base, address.game_id, address.player
    ('http://127.0.0.1:8080', '0f3c', 'bob')

    Raises:
        ValueError: the URL does not name a game and a player.
    """
    base_text, marker, rest = text.rpartition("/drop_token/")
    segments = rest.split("/")
    if not base_text or not marker or len(segments) != 2 or not all(segments):
        raise ValueError(f"{text!r} is not a game's URL: BASE/drop_token/GAME_ID/PLAYER")
    base = parse_server_url(base_text)
    game_id, player = (urllib.parse.unquote(segment) for segment in segments)
    if not is_shown_safely(game_id) or not is_shown_safely(player) or "/" in player:
        raise ValueError(f"{text!r} names no game and player")
    return GameAddress(base, game_id, player)


def parse_watch_url(text: str) -> tuple[str, str]:
    """The service's base URL and the game id of a game's URL: ``BASE/drop_token/GAME``.

    >>> parse_watch_url("http://127.0.0.1:8080/drop_token/0f3c")
    ('http://127.0.0.1:8080', '0f3c')

    A player's URL (as ``--server`` prints it) names the game too:

    >>> parse_watch_url("http://127.0.0.1:8080/drop_token/0f3c/bob")
    ('http://127.0.0.1:8080', '0f3c')

    Raises:
        ValueError: the URL does not name a game.
    """
    base_text, marker, rest = text.rstrip("/").rpartition("/drop_token/")
    segments = rest.split("/")
    if not base_text or not marker or not 1 <= len(segments) <= 2 or not all(segments):
        raise ValueError(f"{text!r} is not a game's URL: BASE/drop_token/GAME_ID")
    game_id = urllib.parse.unquote(segments[0])
    if not is_shown_safely(game_id):
        raise ValueError(f"{text!r} names no game")
    return parse_server_url(base_text), game_id


class DropTokenClient:
    """The drop-token API of one service, one request per call, every answer checked.

    Every method raises :class:`ServerUnreachable` when this request got no
    answer, :class:`ServiceRefused` for the service's errors and
    :class:`BadResponse` for an answer the API never gives.
    """

    def __init__(self, base: str, timeout: float = TIMEOUT) -> None:
        self.base = base
        self.timeout = timeout
        self._sockets = _OpenSocket()
        # Redirects are refused: a token must reach no other server than the
        # one it was made for.
        self._opener = urllib.request.build_opener(
            _NoRedirects(), *_handlers_telling(self._sockets)
        )
        # Whether the service may be asked to wait for moves (a long poll).
        self.waits = True
        # The longest wait the service takes, once it refused a longer one.
        self.max_wait: float | None = None

    def create_game(
        self,
        players: list[str],
        rows: int,
        columns: int,
        clock: dict[str, float] | None = None,
        connect: int = 4,
    ) -> CreatedGame:
        """Create a game for ``players`` in turn order, asking for one token per player.

        ``clock``: the game's time control, as the service takes it
        (``{"minutes": 5, "increment": 3}``), or None for none. ``connect``:
        the chain that wins, sent only when it is not the seed's four.
        """
        body: dict[str, object] = {
            "players": players,
            "rows": rows,
            "columns": columns,
            "tokens": True,
        }
        if connect != 4:
            body["connect"] = connect
        if clock is not None:
            body["clock"] = clock
        answer = _expect_dict(self._request("POST", "/drop_token", body=body))
        game_id = answer.get("gameId")
        tokens = answer.get("tokens")
        if not is_clean_text(game_id) or not isinstance(tokens, dict):
            raise BadResponse(f"the service at {self.base} did not create a game with tokens")
        if set(tokens) != set(players) or not all(is_clean_text(t) for t in tokens.values()):
            raise BadResponse(f"the service at {self.base} sent tokens for other players")
        return CreatedGame(str(game_id), {name: str(tokens[name]) for name in players})

    def read_players(self, game_id: str) -> list[str]:
        """The game's players in turn order."""
        return self.read_game(game_id).players

    def read_game(self, game_id: str) -> GameInfo:
        """The game's players in turn order, whether it is over, and its board if the service tells."""
        answer = _expect_dict(self._request("GET", _game_path(game_id)))
        players = answer.get("players")
        if (
            not isinstance(players, list)
            or not all(is_clean_text(name) for name in players)
            or len(set(players)) != len(players)
            or answer.get("state") not in ("IN_PROGRESS", "DONE")
        ):
            raise BadResponse(f"the service's answer about game {printable(game_id)} is malformed")
        size = [answer.get(key) for key in ("rows", "columns")]
        if size == [None, None]:
            rows = columns = None
        elif all(is_count(value, MAX_BOARD) for value in size):
            rows, columns = (int(value) for value in size)  # type: ignore[call-overload]
        else:
            raise BadResponse(f"the service's board of game {printable(game_id)} is malformed")
        connect = answer.get("connect")
        if connect is not None and not is_count(connect, MAX_BOARD):
            raise BadResponse(f"the service's chain of game {printable(game_id)} is malformed")
        return GameInfo(
            [str(name) for name in players],
            answer.get("state") == "DONE",
            rows,
            columns,
            None if connect is None else int(connect),  # type: ignore[call-overload]
        )

    def check_token(self, address: GameAddress, token: str | None, columns: int) -> None:
        """Raise if the service would refuse the player's moves for their token.

        The API has no call for this alone: it is a move into ``columns``,
        a column past the board's edge. The service checks the token before
        the column, so a wrong or missing token is refused as such (401,
        403), and a right one as a column off the board, and nothing is
        ever stored. A game created without tokens takes any.

        Raises:
            ServiceRefused: the token is missing (``token_required``) or
                not the player's (``token_rejected``); or the game or
                player is unknown.
        """
        try:
            self._request("POST", address.player_path, body={"column": columns}, token=token)
        except ServiceRefused as refusal:
            if refusal.code in ("token_required", "token_rejected") or refusal.status == 404:
                raise
            return  # The token passed: the move itself was refused, as meant.
        raise BadResponse("the service accepted a move off the board")

    def read_moves(self, game_id: str, start: int, wait: float | None = None) -> list[RemoteMove]:
        """The moves from number ``start`` on, at most :data:`MOVES_PAGE`; [] when none yet.

        With ``wait``, the service holds the request up to that many seconds
        until there is a move (a long poll), where it can: a service that
        refuses a wait over :data:`OLD_MAX_WAIT` (400) is asked that long
        from then on (:attr:`max_wait`), one that refuses ``wait`` at all is
        asked without it (:attr:`waits` turns False), and one that ignores
        it answers at once.
        """
        path = f"{_game_path(game_id)}/moves"
        query = {"start": str(start), "until": str(start + MOVES_PAGE - 1)}
        waiting = wait is not None and self.waits
        if wait is not None:
            wait = self.granted_wait(wait)
        if wait is not None and waiting:
            query["wait"] = f"{wait:g}"
        try:
            answer = _expect_dict(
                self._request(
                    "GET",
                    f"{path}?{urllib.parse.urlencode(query)}",
                    timeout=self.timeout + (wait or 0.0) if waiting else self.timeout,
                )
            )
        except ServiceRefused as refusal:
            # The seed's rule: a start past the last move is 404.
            if refusal.code == "move_not_found":
                return []
            if waiting and refusal.status == 400:
                if wait is not None and wait > OLD_MAX_WAIT:
                    self.max_wait = OLD_MAX_WAIT  # A service of before 300 s waits.
                    return self.read_moves(game_id, start, OLD_MAX_WAIT)
                self.waits = False  # An older service, or another limit: ask plainly.
                return self.read_moves(game_id, start)
            raise
        entries = answer.get("moves")
        if not isinstance(entries, list) or len(entries) > MOVES_PAGE:
            raise BadResponse("the service's move list is malformed")
        return [_remote_move(entry) for entry in entries]

    def post_move(self, address: GameAddress, column: int, token: str | None, key: str) -> int:
        """Play ``column`` for the address's player; return the move's number.

        ``key`` goes out as ``Idempotency-Key``: the same call repeated after
        a lost answer is answered again and plays nothing twice.
        """
        answer = _expect_dict(
            self._request(
                "POST", address.player_path, body={"column": column}, token=token, key=key
            )
        )
        move = answer.get("move")
        prefix = f"{address.game_id}/moves/"
        number_text = (
            move[len(prefix) :] if isinstance(move, str) and move.startswith(prefix) else ""
        )
        if not (number_text.isascii() and number_text.isdigit() and len(number_text) < 10):
            raise BadResponse("the service's answer to a move is malformed")
        return int(number_text)

    def quit(self, address: GameAddress, token: str | None, key: str) -> None:
        """Quit the game for the address's player; a game already over is left as it is."""
        try:
            self._request("DELETE", address.player_path, token=token, key=key, expect=202)
        except ServiceRefused as refusal:
            if refusal.code not in ("game_done", "game_over"):
                raise

    def read_status(
        self,
        address: GameAddress,
        token: str | None,
        since: str | None = None,
        wait: float | None = None,
    ) -> FriendStatus | None:
        """The game between friends' status, the player counted present; None from an older
        service (it has no such call).

        With ``since`` and ``wait``, the service holds the request until the
        status's version differs from ``since`` (or ``wait`` seconds).
        """
        query = {"player": address.player}
        if since is not None and wait is not None:
            query.update(since=since, wait=f"{self.granted_wait(wait):g}")
        path = f"/friend_game/{_segment(address.game_id)}?{urllib.parse.urlencode(query)}"
        timeout = self.timeout + (wait or 0.0)
        try:
            answer = _expect_dict(self._request("GET", path, token=token, timeout=timeout))
        except ServiceRefused as refusal:
            if refusal.status == 404 and refusal.code not in ("game_not_found", "player_not_found"):
                return None
            raise
        return FriendStatus(answer)

    def friend_request(
        self, address: GameAddress, token: str | None, what: str, body: dict[str, object]
    ) -> dict[str, object]:
        """POST an offer, an answer or a claim (``what``) of a game between friends; the answer."""
        path = f"/friend_game/{_segment(address.game_id)}/{_segment(address.player)}/{what}"
        return _expect_dict(self._request("POST", path, body=body, token=token))

    def granted_wait(self, wait: float) -> float:
        """The wait for moves this service is asked for when ``wait`` is wanted: at most :attr:`max_wait`."""
        return wait if self.max_wait is None else min(wait, self.max_wait)

    def abort(self) -> None:
        """End the request under way, from another thread, and refuse any further one.

        The request raises :class:`ServerUnreachable` at once: a long poll
        nobody waits for any more (the player answered the prompt it
        watched for) is not left open.
        """
        self._sockets.abort()

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: object = None,
        token: str | None = None,
        key: str | None = None,
        expect: int | tuple[int, ...] = 200,
        timeout: float | None = None,
    ) -> object:
        """Send one request; the JSON answer (None for an empty one) when the status is ``expect``
        (or one of them).

        ``timeout`` replaces the client's own for this request (a long poll's is longer).
        """
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if key is not None:
            headers["Idempotency-Key"] = key
        # The base URL was checked to be http(s) (parse_server_url).
        url = self.base + path
        request = urllib.request.Request(url, data=data, headers=headers, method=method)  # noqa: S310
        try:
            with self._opener.open(request, timeout=timeout or self.timeout) as response:
                status = response.status
                raw = _read_bounded(response)
        except urllib.error.HTTPError as error:
            with error:
                status = error.code
                raw = _read_bounded(error)
        except (urllib.error.URLError, OSError, http.client.HTTPException) as failure:
            raise ServerUnreachable(_reason(failure)) from None
        if status in _TRANSIENT_STATUSES:
            raise ServerUnreachable(f"HTTP status {status}")
        if status not in (expect if isinstance(expect, tuple) else (expect,)):
            code, detail = _error_of(raw)
            raise ServiceRefused(
                f"the service refused: {printable(detail or code or f'HTTP status {status}')}",
                status,
                code,
            )
        if not raw:
            return None
        return _decode(raw)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class _OpenSocket:
    """The socket of a client's request under way, for :meth:`DropTokenClient.abort` to shut."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None
        self._aborted = False

    def opened(self, connection: socket.socket) -> None:
        """A request's connection is open; shut at once if the client was aborted meanwhile."""
        with self._lock:
            self._socket = connection
            aborted = self._aborted
        if aborted:
            _shut(connection)

    def abort(self) -> None:
        with self._lock:
            self._aborted = True
            connection = self._socket
        if connection is not None:
            _shut(connection)


def _shut(connection: socket.socket) -> None:
    """Shut both ways: a read blocked on the socket in another thread returns at once."""
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # Already closed: the request is over anyway.


def _handlers_telling(sockets: _OpenSocket) -> list[urllib.request.BaseHandler]:
    """urllib's HTTP and HTTPS handlers, telling ``sockets`` of each connection they open."""
    handlers: list[urllib.request.BaseHandler] = [_TellingHTTP(sockets)]
    if _TellingHTTPS is not None:
        handlers.append(_TellingHTTPS(sockets))
    return handlers


class _Telling(urllib.request.AbstractHTTPHandler):
    """A handler whose connections tell :class:`_OpenSocket` of their socket once open."""

    def __init__(self, sockets: _OpenSocket) -> None:
        super().__init__()
        self.sockets = sockets

    def do_open(
        self, http_class: Any, req: urllib.request.Request, **http_conn_args: Any
    ) -> http.client.HTTPResponse:
        # urllib makes the connection with ``http_class(host, timeout=..., **http_conn_args)``.
        return super().do_open(
            partial(_connection, http_class, self.sockets), req, **http_conn_args
        )


def _connection(
    http_class: Any, sockets: _OpenSocket, host: str, **options: Any
) -> http.client.HTTPConnection:
    """A connection of ``http_class`` that tells ``sockets`` of its socket once open.

    Its own ``connect`` is wrapped, whatever the class: for HTTPS the socket
    told is the encrypted one, ready only once the handshake is done.
    """
    made: http.client.HTTPConnection = http_class(host, **options)
    connect = made.connect

    def connect_telling() -> None:
        connect()
        sockets.opened(made.sock)

    made.connect = connect_telling  # type: ignore[method-assign]
    return made


class _TellingHTTP(_Telling, urllib.request.HTTPHandler):
    pass


_TellingHTTPS: type[_Telling] | None = None
if hasattr(urllib.request, "HTTPSHandler"):  # a Python built with ssl

    class _TellingHTTPS(_Telling, urllib.request.HTTPSHandler):  # type: ignore[no-redef]
        pass


def _game_path(game_id: str) -> str:
    """The game's path on the service: ``GET`` gives its state."""
    return f"/drop_token/{_segment(game_id)}"


def _segment(text: str) -> str:
    return urllib.parse.quote(text, safe="")


def _read_bounded(response: http.client.HTTPResponse | urllib.error.HTTPError) -> bytes:
    """The answer's body, refusing one longer than :data:`MAX_RESPONSE_BYTES`."""
    try:
        raw: bytes = response.read(MAX_RESPONSE_BYTES + 1)
    except (OSError, http.client.HTTPException) as failure:
        raise ServerUnreachable(_reason(failure)) from None
    if len(raw) > MAX_RESPONSE_BYTES:
        raise BadResponse(f"the service sent an answer over {MAX_RESPONSE_BYTES} bytes")
    return raw


def _decode(raw: bytes) -> object:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise BadResponse("the service's answer is not JSON") from None


def _error_of(raw: bytes) -> tuple[str, str]:
    """The ``error`` code and ``detail`` sentence of an error answer, '' where missing."""
    try:
        answer = _decode(raw)
    except BadResponse:
        return "", ""
    if not isinstance(answer, dict):
        return "", ""
    code, detail = answer.get("error"), answer.get("detail")
    return (code if isinstance(code, str) else "", detail if isinstance(detail, str) else "")


def _expect_dict(answer: object) -> dict[str, object]:
    if not isinstance(answer, dict):
        raise BadResponse("the service's answer is not a JSON object")
    return answer


MAX_BOARD = 100
"""The most rows, and the most columns, a service's game may have (the service's own limit)."""


def is_count(value: object, most: int) -> bool:
    """An integer from 1 to ``most`` (a JSON true is no count)."""
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= most


def is_clean_text(value: object) -> bool:
    """A non-empty string of at most 200 characters shown safely: an id, a name or a token."""
    return isinstance(value, str) and 0 < len(value) <= 200 and is_shown_safely(value)


def _remote_move(entry: object) -> RemoteMove:
    """One entry of the move list, checked: a MOVE has an integer column, a QUIT none."""
    if isinstance(entry, dict) and is_clean_text(entry.get("player")):
        player = str(entry["player"])
        column = entry.get("column")
        if entry.get("type") == "QUIT" and column is None:
            return RemoteMove(player, None)
        if entry.get("type") in ("TIMEOUT", "ABANDONED") and column is None:
            return RemoteMove(player, None, str(entry["type"]))
        if entry.get("type") == "MOVE" and isinstance(column, int) and not isinstance(column, bool):
            return RemoteMove(player, column)
    raise BadResponse("the service's move list holds a malformed move")


def _reason(failure: BaseException) -> str:
    """A short reason for a request with no answer: 'connection refused', 'timed out'..."""
    if isinstance(failure, urllib.error.URLError) and not isinstance(failure.reason, str):
        failure = failure.reason
    if isinstance(failure, (TimeoutError, socket.timeout)):
        return "timed out"
    if isinstance(failure, ConnectionRefusedError):
        return "connection refused"
    if isinstance(failure, (ConnectionResetError, http.client.RemoteDisconnected)):
        return "connection closed by the server"
    text = getattr(failure, "strerror", None) or str(failure) or type(failure).__name__
    return printable(str(text), 80)
