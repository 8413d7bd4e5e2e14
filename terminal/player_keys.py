"""The lobby's player keys on this computer: one name and secret key for each service.

A key is the player's whole identity on a service (no password): the
terminal (``connect.py --lobby``) and the bot (``connect-four-bot``) keep
it in ``$XDG_CONFIG_HOME/connect-four/players.json`` (else
``~/.config/connect-four/players.json``), a JSON object by service URL,
readable by its owner only (mode 0600). ``CONNECT_FOUR_KEY``, when set,
is the key to use instead, whatever the file holds. Nothing here prints a
key: the callers show names only.

A leaf: it imports the standard library only.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

__all__ = [
    "KEY_ENVIRONMENT",
    "KeyFileError",
    "StoredPlayer",
    "key_file",
    "read_player",
    "save_player",
]

KEY_ENVIRONMENT = "CONNECT_FOUR_KEY"
"""The environment variable whose key overrides the key file's (it stays out of the process list)."""

_FILE_MODE = 0o600
_FOLDER_MODE = 0o700


class KeyFileError(Exception):
    """The key file cannot be read or written; the message names the file, never a key."""


class StoredPlayer:
    """A name and its key on one service, as the key file keeps them."""

    __slots__ = ("name", "key")

    def __init__(self, name: str, key: str) -> None:
        self.name = name
        self.key = key

    def __repr__(self) -> str:
        return f"StoredPlayer({self.name!r}, key=...)"  # the key is never shown


def key_file(environment: dict[str, str] | None = None) -> Path:
    """Where the keys are kept: under ``$XDG_CONFIG_HOME``, else ``~/.config``.

    >>> str(key_file({"XDG_CONFIG_HOME": "/tmp/conf"}))
    '/tmp/conf/connect-four/players.json'
    """
    environ = os.environ if environment is None else environment
    base = environ.get("XDG_CONFIG_HOME") or ""
    # The XDG rule: a relative $XDG_CONFIG_HOME is invalid and ignored.
    folder = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return folder / "connect-four" / "players.json"


def read_player(server: str, path: Path | None = None) -> StoredPlayer | None:
    """The player kept for ``server``, the key from ``CONNECT_FOUR_KEY`` if set; None if none.

    With ``CONNECT_FOUR_KEY`` set the name is the file's for that server, or
    '' when the file has none (the service tells it: ``GET /players/me``).

    Raises:
        KeyFileError: the file exists but cannot be read or is not the key file's JSON.
    """
    override = os.environ.get(KEY_ENVIRONMENT) or None
    stored = _read_all(path or key_file()).get(server)
    name = key = None
    if isinstance(stored, dict):
        name, key = stored.get("name"), stored.get("key")
    if override is not None:
        return StoredPlayer(name if isinstance(name, str) else "", override)
    if isinstance(name, str) and isinstance(key, str) and name and key:
        return StoredPlayer(name, key)
    return None


def save_player(server: str, player: StoredPlayer, path: Path | None = None) -> Path:
    """Keep ``player`` as the one for ``server``, the file readable by its owner only; its path.

    The file is written whole to a new file beside it, then renamed over
    it: an interrupted write leaves the old keys, never half of them.

    Raises:
        KeyFileError: the folder or the file cannot be written.
    """
    target = path or key_file()
    players = _read_all(target)
    players[server] = {"name": player.name, "key": player.key}
    text = json.dumps(players, indent=2, sort_keys=True) + "\n"
    partial = target.with_name(target.name + ".new")
    try:
        target.parent.mkdir(mode=_FOLDER_MODE, parents=True, exist_ok=True)
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, _FILE_MODE)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            os.fchmod(file.fileno(), _FILE_MODE)  # an old partial file kept its mode
            file.write(text)
        os.replace(partial, target)
    except OSError as error:
        raise KeyFileError(f"cannot write the key file {target}: {error.strerror}") from None
    return target


def _read_all(path: Path) -> dict[str, object]:
    """The key file's object of players by server; empty when there is no file yet."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise KeyFileError(f"cannot read the key file {path}: {error}") from None
    try:
        players = json.loads(text)
    except ValueError:
        raise KeyFileError(f"the key file {path} is not JSON") from None
    if not isinstance(players, dict):
        raise KeyFileError(f"the key file {path} does not hold players by server")
    return players
