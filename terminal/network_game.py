"""The network game: the player at this terminal against a friend's, over the drop-token service.

``--server`` creates the game (this terminal plays X) and shows the command
that joins it; ``--join`` plays the other side. Both then show what the
local game shows (the grid, whose turn, the prompt); the friend's moves
arrive by reading the service's move list, which is the game's truth: a
joining or restarted client replays it, and a service restarted on the
same database carries on; the service holds each read until the friend
has moved (a long poll), so the move shows the moment it is stored. A request with no answer is retried with growing
pauses for :data:`RETRY_SECONDS`, with one line saying so, before the game
gives up with :class:`~connect_four.terminal.errors.ConnectionLost`. A game this client
leaves before its end (Ctrl-C, end of input) is quit on the service, so the
friend's client ends too; and a friend's quit ends this player's prompt at
once: the prompt's :class:`~connect_four.terminal.steps.Ask` carries a watch
on the move list, which connect.py runs while the player thinks.

Like the local game (:mod:`connect_four.terminal.session`) this is a conversation of
steps (:mod:`connect_four.terminal.steps`): it sends the service its requests, but
shows, reads and waits only through the steps it yields to connect.py.
"""

from __future__ import annotations

import secrets
import shlex
import threading
import time
from functools import partial

from connect_four.engine import EngineError, Game, Rules, parse_column, render

from .dialog import MARKERS, PROMPT, ending, invalid_move, typed_line
from .discs import Discs
from .errors import (
    BadResponse,
    ConnectionLost,
    NetworkError,
    ServerUnreachable,
    ServiceRefused,
    UsageError,
)
from .network import DropTokenClient, FriendStatus, GameAddress, GameInfo, RemoteMove
from .program import INSTALLED_COMMAND, program_words
from .settings import TOKEN_ENVIRONMENT, Settings
from .steps import Ask, Show, Wait

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from .steps import Conversation

    Result = TypeVar("Result")

__all__ = [
    "INSTALLED_COMMAND",
    "POLL_SECONDS",
    "PUSH_WAIT",
    "RETRY_SECONDS",
    "QUIT_TIMEOUT",
    "converse_over_network",
    "join_command",
]


PUSH_WAIT = 300.0
"""Seconds one read of the move list asks the service to wait for the friend's move.

The service answers as soon as the move is stored (a long poll): the
move shows at once, and a friend thinking for minutes costs a request
every five minutes (a service that takes at most 60 s is asked for 60)."""

POLL_SECONDS = 1.0
"""Pause between two reads of the move list when the service does not wait (an older one)."""

RETRY_SECONDS = 60.0
"""How long an unanswered service is retried before the game gives up."""

QUIT_TIMEOUT = 2.0
"""Seconds the one request quitting a game that is being left may take."""

# The first pause between retries; each next one doubles, up to the last.
_FIRST_RETRY_PAUSE = 0.25
_LAST_RETRY_PAUSE = 4.0


def converse_over_network(settings: Settings) -> Conversation[None]:
    """Create or join the game the settings name, and play it to its end.

    Raises:
        NetworkError: the service cannot be reached any more, refuses, or
            answers what the API never answers; the game is then quit on the
            service if it can still be.
    """
    assert settings.network is not None
    client = DropTokenClient(settings.network)
    patience = _Patience(settings.network)
    rules = settings.rules
    if settings.watching is not None:
        yield from _watch(settings, client, patience, settings.watching)
        return
    if settings.joining is None:
        players = list(settings.players)
        created = yield from patience.call(
            lambda: client.create_game(
                players,
                settings.rules.rows,
                settings.rules.columns,
                settings.clock,
                settings.rules.connect,
            )
        )
        address = GameAddress(settings.network, created.game_id, players[0])
        token: str | None = created.tokens[players[0]]
        friend = GameAddress(settings.network, created.game_id, players[1])
        yield Show(
            f"Game created on {settings.network}: you are {players[0]} (X), {players[1]} is O."
        )
        yield Show(f"{players[1]} joins with this command (it holds {players[1]}'s secret token):")
        yield Show("  " + join_command(friend, created.tokens[players[1]], settings))
        # The creator's own way back, should this terminal close mid-game.
        yield Show("If this terminal closes, you rejoin with (it holds your secret token):")
        yield Show("  " + join_command(address, created.tokens[players[0]], settings))
    else:
        address, token = GameAddress(settings.network, *settings.joining), settings.token
        info = yield from patience.call(lambda: client.read_game(address.game_id))
        players = info.players
        if len(players) != 2 or address.player not in players:
            raise NetworkError(
                f"game {address.game_id} is not a game of two players with {address.player} in it"
            )
        rules = _board_of(info, settings, "--join")
        yield from _check_token(client, patience, address, token, rules.columns)
    joined = settings.joining is not None
    while True:
        rematch = yield from _play(
            settings, client, patience, address, token, players, rules, joined=joined
        )
        if rematch is None:
            return
        # The rematch: the same players, colours swapped; each keeps their token.
        players = players[::-1]
        address = GameAddress(settings.network, rematch, address.player)
        joined = True


def _play(
    settings: Settings,
    client: DropTokenClient,
    patience: _Patience,
    address: GameAddress,
    token: str | None,
    players: list[str],
    rules: Rules,
    *,
    joined: bool,
) -> Conversation[str | None]:
    """Play the game at ``address`` to its end; the id of its rematch, if one was agreed.

    A rematch is asked for (``--commands``) only of a service with games between friends.
    """
    assert settings.network is not None
    me = players.index(address.player)
    game = Game(rules)
    discs = Discs.of(settings)
    finished = False
    link = _Friendship(client, patience, address, token, players[1 - me])
    try:
        if joined:
            yield from _catch_up(game, players, client, patience, address.game_id)
            other = players[1 - me]
            yield Show(
                f"Joined game {address.game_id} on {settings.network}: you are "
                f"{players[me]} ({MARKERS[me]}), {other} is {MARKERS[1 - me]}."
            )
        yield from link.start()
        quitter: int | None = None
        while game.outcome() is None and link.drawn is None:
            yield Show("\n" + render(game, markers=discs.playing))
            player = game.to_move or 0
            yield Show(f"{MARKERS[player]}'s turn")
            if link.status is not None and link.status.clocks:
                yield Show(link.clock_line(players))
            if player == me:
                news = yield from _my_move(game, client, patience, address, token, link)
            elif link.status is not None:
                yield Show(f"Waiting for {players[player]} to move... (Ctrl-C quits the game)")
                news = yield from link.wait_for_friend(game)
            else:
                yield Show(f"Waiting for {players[player]} to move... (Ctrl-C quits the game)")
                news = yield from _wait_for_news(game, client, patience, address.game_id)
            if link.status is not None and link.status.moves < len(game.history) and not news:
                while len(game.history) > link.status.moves:  # A takeback agreed.
                    game.pop()
                yield Show("The last moves are taken back.")
            # The player's own move was typed here: no line repeats it.
            quitter = yield from _play_news(game, players, news, quitter, typed=address.player)
        finished = True
    finally:
        if not finished:
            _quit_quietly(settings.network, address, token)
    if link.drawn is not None:
        yield Show("\n" + render(game, markers=discs.playing))
        yield Show(link.drawn)
    else:
        yield from _the_end(game, players, quitter, discs, settings)
    if settings.commands and link.status is not None:
        return (yield from link.ask_rematch())
    return None


def _the_end(
    game: Game, players: list[str], quitter: int | None, discs: Discs, settings: Settings
) -> Conversation[None]:
    """The lines that end a network game, played or watched: the last grid unless one quit, who won."""
    final_grid = discs.final_grid(game) if quitter is None else None
    for line in ending(game, final_grid=final_grid, announce=False):
        yield Show(line)
    # Both sides see the same result line, names and all; --announce adds the moves.
    yield Show(_result(game, players))
    if settings.announce:
        yield Show(f"Moves: {game.moves_string()}")


def join_command(friend: GameAddress, token: str, settings: Settings) -> str:
    """The one shell command that joins ``friend``'s side of the game (or rejoins one's own).

    The token goes in the environment (:data:`TOKEN_ENVIRONMENT`), where
    other users of the friend's machine cannot list it; a board other than
    the default one is named, as an older service does not tell it. The
    program is the one this player ran: ``connect-four`` when installed,
    else ``python3 connect.py``.
    """
    words = [*program_words(), "--join", friend.player_url]
    rules, default = settings.rules, Rules()
    if (rules.rows, rules.columns) != (default.rows, default.columns):
        words += ["--rows", str(rules.rows), "--columns", str(rules.columns)]
    return f"{TOKEN_ENVIRONMENT}={shlex.quote(token)} " + shlex.join(words)


class _Patience:
    """Retries a request that got no answer, with growing pauses, up to a deadline.

    Only once the service has answered: a first request with no answer
    ends the game at once (a wrong address or port, https to a plain HTTP
    service), rather than after a minute of retries.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.contacted = False

    def call(self, request: Callable[[], Result]) -> Conversation[Result]:
        """``request()``'s result, retried while the service does not answer.

        Yields one line when the connection is first lost, a pause before
        each new try, and one line when the connection is back.

        Raises:
            ConnectionLost: no answer for :data:`RETRY_SECONDS`.
        """
        deadline: float | None = None
        pause = _FIRST_RETRY_PAUSE
        while True:
            try:
                result = request()
            except ServerUnreachable as failure:
                if not self.contacted:
                    raise ConnectionLost(
                        f"cannot reach the service at {self.url} ({failure}): is it running "
                        "there? (check the address, the port, and http:// rather than https://)"
                    ) from None
                now = time.monotonic()
                if deadline is None:
                    deadline = now + RETRY_SECONDS
                    yield Show(
                        f"Connection to {self.url} lost ({failure}); retrying for "
                        f"up to {RETRY_SECONDS:g} seconds..."
                    )
                elif now >= deadline:
                    raise ConnectionLost(
                        f"lost the connection to {self.url} ({failure}) for over "
                        f"{RETRY_SECONDS:g} seconds"
                    ) from None
                yield Wait(min(pause, max(deadline - now, 0.0)))
                pause = min(2 * pause, _LAST_RETRY_PAUSE)
                continue
            self.contacted = True
            if deadline is not None:
                yield Show("Connection restored.")
            return result


def _board_of(info: GameInfo, settings: Settings, option: str) -> Rules:
    """The game's board and chain as the service tells them; the command line's if it does not.

    Raises:
        UsageError: the command line names a board (--rows, --columns) or a
            chain (--connect) that is not the game's: ``option`` (--join,
            --watch) would ignore it.
    """
    rules = settings.rules
    connect = rules.connect if info.connect is None else info.connect
    if settings.chain_named and rules.connect != connect:
        raise UsageError(
            f"{option}: this game is won by {connect} in a row, not the {rules.connect} of "
            "--connect (leave it out: the service tells the chain)"
        )
    if info.rows is None or info.columns is None:
        return rules
    if settings.board_named and (info.rows, info.columns) != (rules.rows, rules.columns):
        raise UsageError(
            f"{option}: this game's board is {info.rows} x {info.columns}, not the "
            f"{rules.rows} x {rules.columns} of --rows and --columns (leave them out: "
            "the service tells the board)"
        )
    # The service's game may be four in a row on a board too small for it (the seed's).
    return Rules(info.rows, info.columns, connect, allow_unwinnable=True)


def _check_token(
    client: DropTokenClient,
    patience: _Patience,
    address: GameAddress,
    token: str | None,
    columns: int,
) -> Conversation[None]:
    """Refuse to start a game whose moves the service would refuse for the token.

    Raises:
        NetworkError: the token is missing or wrong, or the game or player
            is unknown; the message says what to do, in the player's words.
    """
    try:
        yield from patience.call(lambda: client.check_token(address, token, columns))
    except ServiceRefused as refusal:
        name, game = address.player, address.game_id
        if refusal.code == "token_required":
            raise NetworkError(
                f"game {game} needs {name}'s secret token: run the join command shown to "
                f"whoever created the game (it sets {TOKEN_ENVIRONMENT}), or add --token TOKEN"
            ) from None
        if refusal.code == "token_rejected":
            raise NetworkError(
                f"that token is not {name}'s in game {game}: use the one in the join command "
                f"shown for {name}"
            ) from None
        if refusal.code == "game_not_found":
            raise NetworkError(f"there is no game {game} on {address.base}") from None
        raise NetworkError(f"cannot join game {game} as {name}: {refusal}") from None


def _result(game: Game, players: list[str]) -> str:
    """Who won the finished ``game``, by name and marker, or that it is a tie."""
    outcome = game.outcome()
    assert outcome is not None
    if outcome.winner is None:
        return "The game is a tie."
    return f"{players[outcome.winner]} ({MARKERS[outcome.winner]}) wins."


def _watch(
    settings: Settings, client: DropTokenClient, patience: _Patience, game_id: str
) -> Conversation[None]:
    """Follow a game as a spectator: each move and grid as it is stored, then who won.

    Needs no token: the service shows any game to whoever has its id.
    """
    info = yield from patience.call(lambda: client.read_game(game_id))
    players = info.players
    if len(players) != 2:
        raise NetworkError(f"game {game_id} is not a game of two players")
    game = Game(_board_of(info, settings, "--watch"))
    discs = Discs.of(settings)
    yield from _catch_up(game, players, client, patience, game_id)
    played = len(game.history)
    yield Show(
        f"Watching game {game_id} on {settings.network}: {players[0]} is X, "
        f"{players[1]} is O ({played} move{'' if played == 1 else 's'} so far)."
    )
    quitter: int | None = None
    while game.outcome() is None:
        yield Show("\n" + render(game, markers=discs.playing))
        player = game.to_move or 0
        yield Show(
            f"Waiting for {players[player]} ({MARKERS[player]}) to move... (Ctrl-C stops watching)"
        )
        news = yield from _wait_for_news(game, client, patience, game_id)
        if not news:  # Over without a move: a draw agreed or claimed.
            yield Show("\n" + render(game, markers=discs.playing))
            yield Show("The game is drawn by agreement of the players.")
            return
        quitter = yield from _play_news(game, players, news, quitter)
    yield from _the_end(game, players, quitter, discs, settings)


def _play_news(
    game: Game,
    players: list[str],
    news: list[RemoteMove],
    quitter: int | None,
    *,
    typed: str | None = None,
) -> Conversation[int | None]:
    """Play the service's news on the local game, a line each (but for the moves of
    ``typed``, the player at this terminal); return who quit, ``quitter`` if no one did."""
    for entry in news:
        line = _play_entry(game, players, entry)
        if entry.column is None or entry.player != typed:
            yield Show(line)
        if entry.column is None:
            quitter = players.index(entry.player)
    return quitter


def _catch_up(
    game: Game, players: list[str], client: DropTokenClient, patience: _Patience, game_id: str
) -> Conversation[None]:
    """Replay the moves the game already has, page by page, without a line each."""
    while True:
        start = len(game.history)
        entries = yield from patience.call(partial(client.read_moves, game_id, start))
        for entry in entries:
            _play_entry(game, players, entry)
        if not entries or game.outcome() is not None:
            return


def _my_move(
    game: Game,
    client: DropTokenClient,
    patience: _Patience,
    address: GameAddress,
    token: str | None,
    link: _Friendship | None = None,
) -> Conversation[list[RemoteMove]]:
    """Prompt until a line names a column the game can take, as the local game does, and play it.

    The entries to play locally: the move, or the news that cut the prompt
    short (the friend quit while the player thought). In a game between
    friends (a service that has them) the prompt also takes the words of
    :data:`FRIEND_COMMANDS`, and ends with no entry when the game changed
    otherwise (a takeback or a draw agreed, a flag fall).
    """
    while True:
        if link is not None and link.status is not None:
            status_watch = _StatusWatch(client, address, token, link.status.version, link)
            answer = yield Ask(PROMPT, status_watch)
            if answer is None and status_watch.status is not None:
                entries = yield from link.take(status_watch.status, game)
                if entries or link.changed_game(game):
                    return entries
                continue
            word = typed_line(answer).strip().lower()
            if word in FRIEND_COMMANDS:
                yield from link.command(word)
                if link.changed_game(game):
                    return []
                continue
        else:
            watch = _MoveWatch(client, address.game_id, len(game.history))
            answer = yield Ask(PROMPT, watch)
            if answer is None and watch.entries:
                return watch.entries
        try:
            column = parse_column(typed_line(answer), game.rules)
        except EngineError:
            column = None
        if column is not None and game.can_play(column):
            return (yield from _post(game, column, client, patience, address, token))
        yield Show(invalid_move(game))


class _MoveWatch:
    """The news an :class:`Ask` waits for besides the player: moves past ``start`` in the list.

    connect.py runs :meth:`wait` in a thread of its own while the player
    thinks: a long poll on a client of its own, so that :meth:`stop` cuts
    only it short. It shows nothing and raises nothing: a service that
    refuses or answers nonsense leaves the prompt alone, and the game meets
    the failure at its own next request; one that does not answer is asked
    again after :data:`POLL_SECONDS`.
    """

    def __init__(self, client: DropTokenClient, game_id: str, start: int) -> None:
        self._client = DropTokenClient(client.base, client.timeout)
        self._client.waits = client.waits
        self.game_id = game_id
        self.start = start
        self.entries: list[RemoteMove] = []
        self._stopped = threading.Event()

    def wait(self) -> bool:
        """Block until the move list holds entries past :attr:`start` (True), or :meth:`stop`."""
        while not self._stopped.is_set():
            began = time.monotonic()
            try:
                entries = self._client.read_moves(self.game_id, self.start, PUSH_WAIT)
            except ServerUnreachable:
                entries = []
            except NetworkError:
                return False
            if entries:
                self.entries = entries
                return True
            if _answered_early(self._client, began):
                self._stopped.wait(POLL_SECONDS)
        return False

    def stop(self) -> None:
        """End a :meth:`wait` under way at once, its request included (from another thread)."""
        self._stopped.set()
        self._client.abort()


def _post(
    game: Game,
    column: int,
    client: DropTokenClient,
    patience: _Patience,
    address: GameAddress,
    token: str | None,
) -> Conversation[list[RemoteMove]]:
    """Play ``column`` on the service; the entries to play locally (the move, or the news).

    One idempotency key for all tries: a retry after a lost answer cannot
    play the move twice. A refused move is explained by the move list (the
    friend quit meanwhile) or ends the game.
    """
    key = secrets.token_hex(16)
    expected = len(game.history)
    try:
        number = yield from patience.call(lambda: client.post_move(address, column, token, key))
    except ServiceRefused:
        news = yield from patience.call(lambda: client.read_moves(address.game_id, expected))
        if not news:
            raise
        return news
    if number != expected:
        raise BadResponse(f"the service numbered the move {number}, not {expected}")
    return [RemoteMove(address.player, column)]


def _wait_for_news(
    game: Game, client: DropTokenClient, patience: _Patience, game_id: str
) -> Conversation[list[RemoteMove]]:
    """Read the move list until it holds entries past the game's, the service waiting for them.

    A read answered empty well before its wait was up came from a service
    that does not wait (an older one, or one stopping): the next read
    comes after :data:`POLL_SECONDS`, so such a service is asked at a slow pace.
    """
    start = len(game.history)
    # The lines so far reach a pipe before the read holds the game (a spectator's tee).
    yield Wait(0.0)
    while True:
        began = time.monotonic()
        news = yield from patience.call(lambda: client.read_moves(game_id, start, PUSH_WAIT))
        if news:
            return news
        if _answered_early(client, began):
            # A game over with no move to tell (a draw agreed between friends) ends the wait.
            info = yield from patience.call(lambda: client.read_game(game_id))
            if info.done:
                return []
            yield Wait(POLL_SECONDS)


def _answered_early(client: DropTokenClient, began: float) -> bool:
    """Whether an empty read of the move list begun at ``began`` came back well before its wait.

    Such an answer came from a service that does not wait (an older one, or
    one stopping): the next read waits :data:`POLL_SECONDS` first.
    """
    return not client.waits or time.monotonic() - began < client.granted_wait(PUSH_WAIT) / 2


def _play_entry(game: Game, players: list[str], entry: RemoteMove) -> str:
    """Play one entry of the move list on ``game``; the line that tells it.

    Raises:
        BadResponse: the entry names no player of the game, or the rules
            refuse it (not their turn, a full or missing column, game over).
    """
    if entry.player not in players:
        raise BadResponse(f"the service sent a move by {entry.player}, who is not in the game")
    player = players.index(entry.player)
    try:
        if entry.column is None:
            game.quit(player)
            if entry.reason == "TIMEOUT":
                return f"{entry.player} ({MARKERS[player]}) is out of time."
            if entry.reason == "ABANDONED":
                return f"{entry.player} ({MARKERS[player]}) left: the win is claimed."
            return f"{entry.player} ({MARKERS[player]}) quits."
        game.play(entry.column, player)
    except EngineError as error:
        raise BadResponse(f"the service sent a move the rules refuse: {error}") from None
    return f"{entry.player} plays {entry.column}."


def _quit_quietly(base: str, address: GameAddress, token: str | None) -> None:
    """Quit a game this client leaves before its end; one short try, failures ignored.

    The friend's client then ends too instead of waiting; when the service
    cannot be reached there is nothing more to do.
    """
    try:
        DropTokenClient(base, timeout=QUIT_TIMEOUT).quit(address, token, secrets.token_hex(16))
    except (NetworkError, ServerUnreachable):
        pass


FRIEND_COMMANDS = ("draw", "takeback", "accept", "decline")
"""Words the move prompt of a network game takes besides a column: offer a draw, ask to
take back one's last move, accept or decline the friend's offer."""


class _Friendship:
    """The game between friends' side of a network game: presence, clock, offers and claims.

    Only with a service that has them (``GET /friend_game``): with an older
    one :attr:`status` stays None and the game is the seed's. The friend's
    presence is told only when it changes after they were first seen
    ("bob is away", "bob is back"), so a game where nobody leaves shows
    what it always showed.
    """

    def __init__(
        self,
        client: DropTokenClient,
        patience: _Patience,
        address: GameAddress,
        token: str | None,
        friend: str,
    ) -> None:
        self.client = client
        self.patience = patience
        self.address = address
        self.token = token
        self.friend = friend
        self.status: FriendStatus | None = None
        self.seen = False
        self.away_shown = False
        self.offer_shown: tuple[str, str] | None = None
        self.drawn: str | None = None

    def start(self) -> Conversation[None]:
        """Ask the service for the game's status (None from an older service).

        A service whose answer is no status (an older one, or another program
        behind the same path) plays the seed's game.
        """
        try:
            status = yield from self.patience.call(
                lambda: self.client.read_status(self.address, self.token)
            )
        except (BadResponse, ServiceRefused):
            return
        if status is not None:
            for line in self._news(status):
                yield Show(line)

    def clock_line(self, players: list[str]) -> str:
        """Each player's time left, as of the last status."""
        assert self.status is not None
        return "Clock: " + ", ".join(
            f"{name} {_clock_text(self.status.clocks.get(name, 0.0))}" for name in players
        )

    def changed_game(self, game: Game) -> bool:
        """Whether the service's game is no longer this one plus nothing (a takeback, a draw)."""
        return self.drawn is not None or (
            self.status is not None and self.status.moves != len(game.history)
        )

    def noteworthy(self, status: FriendStatus) -> bool:
        """Whether ``status`` changes what the player sees: the game, an offer, a line to tell.

        A status that does not (the friend joined, the clocks' seconds) is not
        worth cutting a prompt short for; the friend seen present is noted.
        """
        assert self.status is not None
        present = status.present.get(self.friend, False)
        if present:
            self.seen = True
        return (
            status.moves != self.status.moves
            or status.done != self.status.done
            or status.offer != self.offer_shown
            or status.claimable != self.status.claimable
            or status.rematch != self.status.rematch
            or (present and self.away_shown)
            or (not present and self.seen and not self.away_shown)
        )

    def _news(self, status: FriendStatus) -> list[str]:
        """Take ``status`` as the latest; the lines that tell what changed."""
        self.status = status
        lines = []
        present = status.present.get(self.friend, False)
        if present:
            self.claim_asked = False
        if present and self.away_shown:
            lines.append(f"{self.friend} is back.")
            self.away_shown = False
        elif not present and self.seen and not self.away_shown and not status.done:
            lines.append(f"{self.friend} is away.")
            self.away_shown = True
        self.seen = self.seen or present
        offer = status.offer
        if offer is not None and offer != self.offer_shown and offer[1] == self.friend:
            what = {"draw": "a draw", "takeback": "to take back their last move"}.get(offer[0])
            if what is not None:
                lines.append(f"{self.friend} offers {what}: type accept or decline.")
        elif offer is None and self.offer_shown is not None and self.offer_shown[1] != self.friend:
            if not status.done and status.moves == self.offer_moves:
                lines.append(f"{self.friend} declined.")
        self.offer_shown = offer
        if status.done and status.reason in ("DRAW_AGREED", "DRAW_CLAIMED"):
            self.drawn = (
                "The game is drawn by agreement."
                if status.reason == "DRAW_AGREED"
                else "The game is drawn: a draw was claimed."
            )
        return lines

    offer_moves = -1

    def take(self, status: FriendStatus, game: Game) -> Conversation[list[RemoteMove]]:
        """Show what ``status`` changed; the moves the service has beyond ``game``'s."""
        for line in self._news(status):
            yield Show(line)
        start = len(game.history)
        if status.moves <= start:
            return []
        return (
            yield from self.patience.call(
                partial(self.client.read_moves, self.address.game_id, start)
            )
        )

    def wait_for_friend(self, game: Game) -> Conversation[list[RemoteMove]]:
        """Wait for the friend's move, telling their comings and goings and offers.

        A friend away long enough on their turn: the player is asked (once
        while the friend stays away) whether to claim the win or a draw; the
        question ends if the friend comes back.
        """
        yield Wait(0.0)
        status = yield from self.refresh()
        while True:
            entries = yield from self.take(status, game)
            if entries or self.changed_game(game):
                return entries
            if status.claimable and not status.done and not self.claim_asked:
                self.claim_asked = True
                yield from self._ask_claim()
                assert self.status is not None
                if self.status is not status:
                    status = self.status
                    continue
            waited = yield from self.patience.call(
                partial(
                    self.client.read_status, self.address, self.token, status.version, PUSH_WAIT
                )
            )
            if waited is None:
                raise BadResponse("the service stopped telling the game's status")
            if waited.version == status.version:
                # Nothing new: the wait ran out, or a stopping service answered early.
                yield Wait(POLL_SECONDS)
            status = waited

    claim_asked = False

    def refresh(self) -> Conversation[FriendStatus]:
        """The game's status now (after this player's own move, say), its news told."""
        status = yield from self.patience.call(
            lambda: self.client.read_status(self.address, self.token)
        )
        if status is None:
            raise BadResponse("the service stopped telling the game's status")
        for line in self._news(status):
            yield Show(line)
        return status

    def _ask_claim(self) -> Conversation[None]:
        """Offer the player to claim the win or a draw of a game the friend left."""
        assert self.status is not None
        watch = _StatusWatch(self.client, self.address, self.token, self.status.version, self)
        answer = yield Ask(
            f"{self.friend} has been away too long: claim the win (w), a draw (d), "
            "or keep waiting (Enter)? ",
            watch,
        )
        if answer is None:
            if watch.status is not None:
                for line in self._news(watch.status):
                    yield Show(line)
            return
        result = {"w": "win", "d": "draw"}.get(typed_line(answer).strip().lower())
        if result is None:
            return
        try:
            yield from self.patience.call(
                lambda: self.client.friend_request(
                    self.address, self.token, "claim", {"result": result}
                )
            )
        except ServiceRefused as refusal:
            yield Show(f"No claim: {refusal}")
        yield from self.refresh()

    def ask_rematch(self) -> Conversation[str | None]:
        """At a game's end: offer a rematch, or accept the friend's; the new game's id, if any.

        Enter (an empty line) leaves without one.
        """
        status = yield from self.refresh()
        offered = False
        while True:
            if status.rematch is not None:
                yield Show(f"Rematch: game {status.rematch}, colours swapped.")
                return status.rematch
            if status.offer == ("rematch", self.friend):
                prompt = (
                    f"{self.friend} offers a rematch: type rematch to play it, Enter to leave: "
                )
            elif offered:
                prompt = f"Waiting for {self.friend} to accept the rematch (Enter leaves): "
            else:
                prompt = "Type rematch to offer a rematch, Enter to leave: "
            watch = _StatusWatch(self.client, self.address, self.token, status.version, self)
            answer = yield Ask(prompt, watch)
            if answer is None:
                if watch.status is None:
                    return None
                status = watch.status
                for line in self._news(status):
                    yield Show(line)
                continue
            if typed_line(answer).strip().lower() != "rematch":
                return None
            accept = status.offer == ("rematch", self.friend)
            body: dict[str, object] = {"accept": True} if accept else {"kind": "rematch"}
            what = "answer" if accept else "offer"
            try:
                yield from self.patience.call(
                    partial(self.client.friend_request, self.address, self.token, what, body)
                )
            except ServiceRefused as refusal:
                yield Show(f"Not now: {refusal}")
            offered = offered or not accept
            status = yield from self.refresh()

    def command(self, word: str) -> Conversation[None]:
        """Carry out a word of :data:`FRIEND_COMMANDS` typed at the move prompt."""
        assert self.status is not None
        body: dict[str, object]
        if word in ("draw", "takeback"):
            what, body = "offer", {"kind": word}
        else:
            what, body = "answer", {"accept": word == "accept"}
        try:
            yield from self.patience.call(
                lambda: self.client.friend_request(self.address, self.token, what, body)
            )
        except ServiceRefused as refusal:
            yield Show(f"Not now: {refusal}")
            return
        if what == "offer":
            self.offer_moves = self.status.moves
            yield Show(
                f"Offered to {self.friend}: a draw."
                if word == "draw"
                else f"Asked {self.friend} to let you take back your last move."
            )
        yield from self.refresh()


def _clock_text(seconds: float) -> str:
    """A clock's time left: ``4:57``, or ``1d 3h`` past a day."""
    whole = max(0, int(seconds))
    if whole >= 86400:
        return f"{whole // 86400}d {whole % 86400 // 3600}h"
    if whole >= 3600:
        return f"{whole // 3600}h {whole % 3600 // 60:02d}m"
    return f"{whole // 60}:{whole % 60:02d}"


class _StatusWatch:
    """The news an :class:`Ask` of a game between friends waits for: a new status version.

    Like :class:`_MoveWatch`, run by connect.py in a thread of its own while the
    player thinks; it keeps the player present (its request waits with their
    token) and shows nothing.
    """

    def __init__(
        self,
        client: DropTokenClient,
        address: GameAddress,
        token: str | None,
        since: str,
        link: _Friendship,
    ) -> None:
        self._client = DropTokenClient(client.base, client.timeout)
        self.link = link
        self.address = address
        self.token = token
        self.since = since
        self.status: FriendStatus | None = None
        self._stopped = threading.Event()

    def wait(self) -> bool:
        """Block until the status changes (True), or :meth:`stop`."""
        while not self._stopped.is_set():
            try:
                status = self._client.read_status(self.address, self.token, self.since, PUSH_WAIT)
            except ServerUnreachable:
                self._stopped.wait(POLL_SECONDS)
                continue
            except NetworkError:
                return False
            if status is None:
                return False
            if status.version != self.since and self.link.noteworthy(status):
                self.status = status
                return True
            self.since = status.version
        return False

    def stop(self) -> None:
        """End a :meth:`wait` under way at once, its request included (from another thread)."""
        self._stopped.set()
        self._client.abort()
