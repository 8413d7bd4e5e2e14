"""The lobby (issue 36): who a key belongs to, who is present, and the lobby's wake-ups.

A player is present while they hold a lobby wait, or for
:data:`~connect_four.service.lobby_rules.LOBBY_PRESENCE` seconds after a keyed
call; presence is stored (``players.present_until``), so every process sees
it. A wait stores its player present until its end plus that; when it ends
sooner (answered, or its client gone) presence counts from then
(:meth:`Lobby.let_go`), and a process keeps present the players whose waits
it still holds, should another process's end have cut them short.
:meth:`Lobby.sweep`, run every :data:`SWEEP` seconds by each process, drops
the seeks and pairings of players gone and pairs waiting players whose
rating gap has widened enough. A committed change wakes this process's
waiters of the feeds it concerns (:meth:`Lobby.told`) and, through the
hub's publisher (PostgreSQL) or ``move_log`` (SQLite), the other processes'.

Time is :attr:`Lobby.clock`'s (wall-clock seconds by default), injected by
tests, which advance it and call :meth:`Lobby.sweep` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Callable, Iterable

from .errors import KeyMissingError, KeyRejectedError, StorageError
from .events import EventHub
from .lobby_rules import LOBBY_PRESENCE, key_digest
from .repository import GameStore
from .store_calls import call_store

__all__ = ["SWEEP", "Lobby", "bearer_key"]

SWEEP = 1.0
"""Seconds between two sweeps of the lobby by one process."""

VIEW_AGE = 1.0
"""Seconds a lobby view read for one version may be answered again (its online count ages)."""

_log = logging.getLogger("connect_four.service.lobby")


def bearer_key(authorization: str | None) -> str:
    """The key of an ``Authorization: Bearer <key>`` header.

    Raises:
        KeyMissingError: no such header, or another scheme.
    """
    if authorization is None:
        raise KeyMissingError("send your key as 'Authorization: Bearer <key>' (POST /players)")
    scheme, _, key = authorization.partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise KeyMissingError("send your key as 'Authorization: Bearer <key>' (POST /players)")
    if len(key) > 200:
        raise KeyRejectedError("that key is no player's")
    return key


class Lobby:
    """The lobby of ``store``: keys checked, presence kept, waiters of ``events`` woken."""

    def __init__(
        self,
        store: GameStore,
        events: EventHub,
        *,
        clock: Callable[[], float] = time.time,
        presence: float = LOBBY_PRESENCE,
    ) -> None:
        self.clock = clock
        self.presence = presence
        self.events = events
        self.store = store
        self._view: tuple[int, float, bytes] | None = None
        self._holds: dict[str, list[float]] = {}  # each held wait's presence end, by player
        self._holds_lock = threading.Lock()  # the loop holds and lets go; a sweep's thread reads
        self.attach(store)

    def lobby_json(self) -> tuple[int, bytes]:
        """The lobby's version and its view as JSON, read again only when the version moved.

        A thousand watchers renewing their waits after a change then cost one
        read of the version each, and the view is read once (or once a
        :data:`VIEW_AGE`, for the count of players online).
        """
        version = self.store.lobby_version()
        now = self.clock()
        cached = self._view
        if cached is not None and cached[0] == version and 0 <= now - cached[1] < VIEW_AGE:
            return version, cached[2]
        view = self.store.lobby_view(now)
        body = json.dumps(view, separators=(",", ":"), ensure_ascii=False).encode()
        self._view = (int(view["version"]), now, body)
        return int(view["version"]), body

    def attach(self, store: GameStore) -> None:
        """Wake this lobby's waiters on ``store``'s changes from now on (the app's store)."""
        self.store = store
        store.lobby_told = self.told

    def told(self, keys: Iterable[str]) -> None:
        """Feeds changed (committed): wake their waiters here, and tell the other processes."""
        for key in keys:
            self.events.notify(key)

    def player(self, key: str) -> tuple[str, bool]:
        """The name and bot flag of the player whose key this is, marked present (a wait is
        :meth:`hold`'s).

        Raises:
            KeyRejectedError: the key is no player's.
        """
        now = self.clock()
        return self.store.player_by_key(key_digest(key), now, now + self.presence)

    def hold(self, key: str, wait: float) -> tuple[str, float]:
        """The player of ``key`` holding a wait of ``wait`` seconds here: their name and the end
        of their presence, stored; :meth:`let_go` when the wait ends, whenever it does.

        Raises:
            KeyRejectedError: the key is no player's.
        """
        now = self.clock()
        until = now + wait + self.presence
        name, _ = self.store.player_by_key(key_digest(key), now, until)
        with self._holds_lock:
            self._holds.setdefault(name, []).append(until)
        return name, until

    def let_go(self, name: str, until: float) -> None:
        """The wait :meth:`hold` made present until ``until`` ended: presence counts from now,
        or to the end of another wait of the player's held here (a later call's stays)."""
        with self._holds_lock:
            held = self._holds.get(name, [])
            if until in held:
                held.remove(until)
            target = max([self.clock() + self.presence, *held])
            if not held:
                self._holds.pop(name, None)
        self.store.cut_presence(name, target, until)

    def sweep(self) -> None:
        """Drop what players gone left in the lobby; pair who fits now (any process may).

        First the players holding waits here are kept present (until their
        waits' ends at most), should another process's wait ending have cut
        their presence short.
        """
        now = self.clock()
        with self._holds_lock:
            untils = {
                name: min(now + self.presence, max(ends)) for name, ends in self._holds.items()
            }
        if untils:
            self.store.keep_present(untils, now + self.presence / 2)
        self.store.sweep_lobby(now)

    async def run(self) -> None:
        """Sweep every :data:`SWEEP` seconds until cancelled; a storage fault waits for the next."""
        while True:
            await asyncio.sleep(SWEEP)
            try:
                await call_store(self.store, self.sweep)
            except StorageError as error:
                _log.warning("lobby sweep: %s", error)  # The database's fault: the next sweep.
            except Exception:
                _log.exception("lobby sweep failed")  # Logged; the lobby goes on being swept.
