"""The lobby at the terminal (``connect.py --server URL --lobby``): find a game, then play it.

The player is known by the key kept for the service
(:mod:`connect_four.terminal.player_keys`), made on first use with the
name they give. The lobby lists the open challenges of others; the player
accepts one by its number, opens one (``n``), asks to play someone now
(``p``), lists again (``r``) or leaves (``q``). Once the service has a
game for them, the game is the existing network game
(:func:`~connect_four.terminal.network_game.converse_over_network`), joined
with the game's token. A challenge or a wait to be paired that the player
leaves (Ctrl-C) is taken back on the service, and connect.py says so
(:class:`~connect_four.terminal.errors.LeftWaiting`, status 130).

A conversation of steps like the others: it shows and asks only through
what it yields to connect.py, and never shows the key (but for
``--show-key``, asked for by name).
"""

from __future__ import annotations

import os

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

__all__ = ["NAME_PROMPT", "CHOICE_PROMPT", "CHOICES", "converse_in_lobby"]

NAME_PROMPT = "Your name in the lobby: "
CHOICE_PROMPT = "Your choice: "
CHOICES = (
    "Type a challenge's number to accept it, n to open a challenge, p to play someone now, "
    "r to list again, q to leave."
)


def converse_in_lobby(settings: Settings) -> Conversation[None]:
    """Sign in, find a game in the lobby, and play it over the network.

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
    ticket = yield from _find_game(client, name, settings)
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


def _find_game(client: LobbyClient, name: str, settings: Settings) -> Conversation[Ticket | None]:
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
            return (yield from _seek(client, settings))
        if choice == "p":
            return (yield from _pair(client, settings))
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


def _seek(client: LobbyClient, settings: Settings) -> Conversation[Ticket]:
    """Open a challenge and wait for someone to accept it; taken back if the player leaves."""
    # The games known before the challenge opens: it may be accepted before the first look.
    known = _running_games(client)
    seek = _call(
        client, client.create_seek, {**_game_options(settings), "colour": settings.seek_colour}
    )
    yield Show(f"Your challenge is open: {seek.describe()}")
    yield Show("Waiting for someone to accept it... (Ctrl-C takes it back)")
    taken = False
    try:
        ticket = _wait_for_game(client, known)
        taken = True
        return ticket
    except KeyboardInterrupt:
        raise LeftWaiting("you left before anyone accepted: your challenge is taken back") from None
    finally:
        if not taken:
            _quietly(lambda: client.cancel_seek(seek.seek_id))


def _pair(client: LobbyClient, settings: Settings) -> Conversation[Ticket]:
    """Ask to play someone now, and wait until the service pairs the player."""
    known = _running_games(client)  # before asking: the pairing may come before the first look
    ticket = _call(client, client.pair, _game_options(settings))
    if ticket is not None:
        return ticket
    yield Show("Waiting for someone to play... (Ctrl-C stops waiting)")
    paired = False
    try:
        ticket = _wait_for_game(client, known)
        paired = True
        return ticket
    except KeyboardInterrupt:
        raise LeftWaiting("you left before anyone came: you no longer wait to play") from None
    finally:
        if not paired:
            _quietly(client.stop_pairing)


def _running_games(client: LobbyClient) -> frozenset[str]:
    """The ids of the player's games in progress now, as ``GET /lobby/me`` lists them."""
    mine = _call(client, client.my_lobby)
    return frozenset(
        ticket.game_id for ticket in client.my_games(mine) if ticket.state == "IN_PROGRESS"
    )


def _wait_for_game(client: LobbyClient, known: frozenset[str]) -> Ticket:
    """The player's first running game not in ``known``, as ``GET /lobby/me`` pushes it."""
    mine = _call(client, client.my_lobby)
    while True:
        for ticket in client.my_games(mine):
            if ticket.game_id not in known and ticket.state == "IN_PROGRESS":
                return ticket
        version = int(str(mine["version"]))
        mine = _call(client, client.my_lobby, version, LOBBY_WAIT)


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
