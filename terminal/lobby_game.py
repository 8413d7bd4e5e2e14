"""The lobby at the terminal (``connect.py --server URL --lobby``): find a game, then play it.

The player is known by the key kept for the service
(:mod:`connect_four.terminal.player_keys`), made on first use with the
name they give. The lobby lists the open challenges of others; the player
accepts one by its number, opens one (``n``), asks to play someone now
(``p``), lists again (``r``) or leaves (``q``). Once the service has a
game for them, the game is the existing network game
(:func:`~connect_four.terminal.network_game.converse_over_network`), joined
with the game's token. A challenge or a wait to be paired that the player
leaves is taken back on the service, and said: ``q`` at a terminal's wait
(status 0), the end of input there (status 1) or Ctrl-C (status 130; both
:class:`~connect_four.terminal.errors.LeftWaiting`).

A conversation of steps like the others: it shows and asks only through
what it yields to connect.py, and never shows the key (but for
``--show-key``, asked for by name).
"""

from __future__ import annotations

import os
import threading

from connect_four.engine import Rules

from .errors import (
    ConnectionLost,
    LeftWaiting,
    NetworkError,
    PlayAborted,
    ServerUnreachable,
    ServiceRefused,
)
from .lobby import LOBBY_WAIT, LobbyClient, Seek, Ticket
from .network_game import converse_over_network
from .player_keys import (
    KEY_ENVIRONMENT,
    KeyFileError,
    StoredPlayer,
    key_file,
    read_player,
    save_player,
)
from .settings import Settings
from .steps import Ask, Show

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from .steps import Conversation

    Result = TypeVar("Result")

__all__ = ["NAME_PROMPT", "CHOICE_PROMPT", "CHOICES", "WAIT_PROMPT", "converse_in_lobby"]

NAME_PROMPT = "Your name in the lobby: "
CHOICE_PROMPT = "Your choice: "
CHOICES = (
    "Type a challenge's number to accept it, n to open a challenge, p to play someone now, "
    "r to list again, q to leave."
)
WAIT_PROMPT = "Type q to leave (Ctrl-D or Ctrl-C too): "
"""The prompt of the lobby's wait for a game at a terminal; the game coming ends it."""

RETRY_SECONDS = 1.0
"""Seconds before the wait at a terminal asks again a service that did not answer."""


def converse_in_lobby(settings: Settings, *, at_terminal: bool = False) -> Conversation[None]:
    """Sign in, find a game in the lobby, and play it over the network.

    ``at_terminal``: the player types at a terminal, so the wait for a game
    is a prompt the game's coming cuts short: ``q``, or the end of input,
    leaves it (elsewhere typed lines are the moves to come, and wait).

    Raises:
        NetworkError: the service cannot be reached, or refuses what the lobby needs.
        PlayAborted: the key file cannot be read or written.
    """
    assert settings.network is not None
    server = settings.network
    client = LobbyClient(server)
    name = yield from _sign_in(client, settings)
    if settings.show_key:
        yield Show(f"Your key on {server} (keep it secret; paste it on another device):")
        yield Show(str(client.key))
        return
    ticket = yield from _find_game(client, name, settings, at_terminal)
    if ticket is None:
        return
    if ticket.token is None:
        raise NetworkError(f"the service gave no token for game {ticket.game_id}")
    settings.joining = (ticket.game_id, ticket.you)
    settings.token = ticket.token
    settings.rules = Rules(ticket.rows, ticket.columns, ticket.connect)
    yield from converse_over_network(settings)


def _sign_in(client: LobbyClient, settings: Settings) -> Conversation[str]:
    """The player's name on the service: the kept key's, or a new player's, the key kept."""
    server = client.base
    try:
        stored = read_player(server)
    except KeyFileError as error:
        raise PlayAborted(str(error)) from None
    if stored is not None:
        client.key = stored.key
        try:
            known = str(_call(client, client.me)["name"])
        except ServiceRefused as refusal:
            if refusal.status != 401:
                raise
            where = KEY_ENVIRONMENT if os.environ.get(KEY_ENVIRONMENT) else str(key_file())
            raise NetworkError(
                f"{server} does not know the key of {where} (its players were reset?): "
                f"remove that key to make a new player"
            ) from None
        yield Show(f"In the lobby of {server} as {known}.")
        return known
    _call(client, client.lobby)  # a service out of reach is said before any name is asked
    name: str | None = settings.players[0] if settings.name_given else None
    while True:
        if name is None:
            typed = ((yield Ask(NAME_PROMPT)) or "").strip()
            if not typed:
                continue
            name = typed
        try:
            key = _call(client, client.register, name)
        except ServiceRefused as refusal:
            if refusal.code == "name_taken":
                yield Show(f"The name {name} is taken on {server}; choose another.")
            else:
                yield Show(f"{refusal}; choose another name.")
            name = None
            continue
        break
    try:
        path = save_player(server, StoredPlayer(name, key))
    except KeyFileError as error:
        raise PlayAborted(str(error)) from None
    yield Show(f"Welcome, {name}: your key for {server} is kept in {path}.")
    return name


def _find_game(
    client: LobbyClient, name: str, settings: Settings, at_terminal: bool
) -> Conversation[Ticket | None]:
    """The game the player ends up in through the lobby; None when they leave."""
    while True:
        lobby = _call(client, client.lobby)
        seeks = [seek for seek in client.seeks(lobby) if seek.by.casefold() != name.casefold()]
        yield from _show_seeks(seeks)
        yield Show(CHOICES)
        choice = ((yield Ask(CHOICE_PROMPT)) or "").strip().lower()
        if choice == "q":
            return None
        if choice in ("", "r"):
            continue
        if choice == "n":
            return (yield from _seek(client, settings, at_terminal))
        if choice == "p":
            return (yield from _pair(client, settings, at_terminal))
        if choice.isascii() and choice.isdigit() and 1 <= int(choice) <= len(seeks):
            seek = seeks[int(choice) - 1]
            try:
                ticket = _call(client, client.accept, seek.seek_id)
            except ServiceRefused as refusal:
                if refusal.code in ("seek_gone", "own_seek") or refusal.status == 404:
                    yield Show("That challenge is gone; here is the lobby again.")
                    continue
                raise
            yield Show(f"You accepted {seek.by}'s challenge.")
            return ticket
        yield Show(f"There is no choice {choice!r}.")


def _show_seeks(seeks: list[Seek]) -> Conversation[None]:
    if not seeks:
        yield Show("No open challenges.")
        return
    yield Show("Open challenges:")
    for number, seek in enumerate(seeks, start=1):
        yield Show(f"  {number}. {seek.describe()}")


def _game_options(settings: Settings) -> dict[str, object]:
    """A challenge's or a pairing's game: the command line's board, clock and --casual."""
    rules = settings.rules
    return {
        "rows": rules.rows,
        "columns": rules.columns,
        "connect": rules.connect,
        "clock": settings.clock,
        "rated": settings.rated,
    }


def _seek(
    client: LobbyClient, settings: Settings, at_terminal: bool
) -> Conversation[Ticket | None]:
    """Open a challenge and wait for someone to accept it; taken back if the player leaves."""
    # The games known before the challenge opens: it may be accepted before the first look.
    known = _running_games(client)
    seek = _call(
        client, client.create_seek, {**_game_options(settings), "colour": settings.seek_colour}
    )
    ticket = None
    try:  # from here on a leaving takes the challenge back, however soon it comes
        yield Show(f"Your challenge is open: {seek.describe()}")
        yield Show("Waiting for someone to accept it... (Ctrl-C takes it back)")
        ticket = yield from _wait_for_game(client, known, at_terminal)
    except KeyboardInterrupt:
        raise LeftWaiting("you left before anyone accepted: your challenge is taken back") from None
    except EOFError:
        raise LeftWaiting(
            "input ended before anyone accepted: your challenge is taken back", 1
        ) from None
    finally:
        if ticket is None:
            _quietly(lambda: client.cancel_seek(seek.seek_id))
    if ticket is None:
        yield Show("Your challenge is taken back.")
    return ticket


def _pair(
    client: LobbyClient, settings: Settings, at_terminal: bool
) -> Conversation[Ticket | None]:
    """Ask to play someone now, and wait until the service pairs the player."""
    known = _running_games(client)  # before asking: the pairing may come before the first look
    ticket = _call(client, client.pair, _game_options(settings))
    if ticket is not None:
        return ticket
    try:
        yield Show("Waiting for someone to play... (Ctrl-C stops waiting)")
        ticket = yield from _wait_for_game(client, known, at_terminal)
    except KeyboardInterrupt:
        raise LeftWaiting("you left before anyone came: you no longer wait to play") from None
    except EOFError:
        raise LeftWaiting("input ended before anyone came: you no longer wait to play", 1) from None
    finally:
        if ticket is None:
            _quietly(client.stop_pairing)
    if ticket is None:
        yield Show("You no longer wait to play.")
    return ticket


def _running_games(client: LobbyClient) -> frozenset[str]:
    """The ids of the player's games in progress now, as ``GET /lobby/me`` lists them."""
    mine = _call(client, client.my_lobby)
    return frozenset(
        ticket.game_id for ticket in client.my_games(mine) if ticket.state == "IN_PROGRESS"
    )


def _wait_for_game(
    client: LobbyClient, known: frozenset[str], at_terminal: bool
) -> Conversation[Ticket | None]:
    """The player's first running game not in ``known``; None if they leave first (``q``).

    At a terminal the wait is :data:`WAIT_PROMPT`, cut short by the game
    (:class:`_GameWatch`); elsewhere a plain wait, ``GET /lobby/me`` pushing the game.
    """
    if at_terminal:
        while True:
            watch = _GameWatch(client, known)  # one a prompt: its end stops it
            typed = yield Ask(WAIT_PROMPT, watch)
            if typed is None and watch.ticket is not None:
                return watch.ticket
            if typed is None:
                break  # the watch gave up (the service refused): the plain wait says why
            if typed.strip().lower() == "q":
                return None
    return client.next_game(
        lambda ticket: ticket.game_id not in known,
        lambda request, *arguments: _call(client, request, *arguments),
    )


class _GameWatch:
    """The news the lobby's wait at a terminal waits for besides the player: their next game.

    connect.py runs :meth:`wait` in a thread of its own while the prompt
    shows: long polls of ``GET /lobby/me`` on a client of its own, so that
    :meth:`stop` cuts only them short. It shows nothing and raises nothing.
    """

    def __init__(self, client: LobbyClient, known: frozenset[str]) -> None:
        self._client = LobbyClient(client.base, client.key, client.timeout)
        self.known = known
        self.ticket: Ticket | None = None
        self._stopped = threading.Event()

    def wait(self) -> bool:
        """Block until the player has a new game (True), or :meth:`stop` or a refusal (False)."""
        version: int | None = None
        while not self._stopped.is_set():
            try:
                mine = self._client.my_lobby(version, None if version is None else LOBBY_WAIT)
            except ServerUnreachable:
                self._stopped.wait(RETRY_SECONDS)
                continue
            except NetworkError:
                return False
            self.ticket = self._client.new_game(mine, lambda game: game.game_id not in self.known)
            if self.ticket is not None:
                return True
            version = int(str(mine["version"]))
        return False

    def stop(self) -> None:
        """End a :meth:`wait` under way at once, its request included (from another thread)."""
        self._stopped.set()
        self._client.abort()


def _call(client: LobbyClient, request: Callable[..., Result], *args: object) -> Result:
    """``request(*args)``; a service that does not answer ends the lobby."""
    try:
        return request(*args)
    except ServerUnreachable as failure:
        raise ConnectionLost(
            f"cannot reach the service at {client.base} ({failure}): is it running there?"
        ) from None


def _quietly(request: Callable[[], object]) -> None:
    """Take something back on leaving; a service that does not answer drops it anyway."""
    try:
        request()
    except (ServerUnreachable, NetworkError):
        pass
