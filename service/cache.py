"""Recently used games, kept replayed so that a request need not replay a whole game.

The repository keeps one :class:`CachedGame` per game it served lately and
catches it up with the moves stored since (other processes may share the
database), so a request costs the same in a game of 10 or 10,000 moves.
The cache is bounded by weight, not by count: a game weighs its moves plus
its board's cells, and the least recently used games go first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

from connect_four.engine import Game

__all__ = ["CACHE_WEIGHT", "CachedGame", "GameCache"]

R = TypeVar("R")
"""What the cache keeps of a game besides its replay: the repository's record of it."""

CACHE_WEIGHT = 2_000_000
"""What the game cache may hold, in moves plus board cells (some 100 MB at most)."""


class CachedGame(Generic[R]):
    """One game replayed by the engine, and its record; its lock guards both while used.

    A game's record (players, board, token digests) never changes once
    stored, so a cached one stays true; the replay may fall behind moves
    that other processes store, and is caught up before use.
    """

    __slots__ = ("lock", "game", "record", "weight")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.game: Game | None = None
        self.record: R | None = None
        self.weight = 0


class GameCache(Generic[R]):
    """Recently used games, least recently used dropped first beyond ``max_weight``."""

    def __init__(self, max_weight: int = CACHE_WEIGHT) -> None:
        self.max_weight = max_weight
        self._entries: OrderedDict[str, CachedGame[R]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        """How many games the cache holds."""
        return len(self._entries)

    @property
    def weight(self) -> int:
        """What the cached games weigh together (never much over ``max_weight``)."""
        return self._weight

    def entry(self, game_id: str) -> CachedGame[R]:
        """The entry of ``game_id`` (a new, empty one if none), now the most recently used."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is None:
                entry = CachedGame()
                self._entries[game_id] = entry
            self._entries.move_to_end(game_id)
            return entry

    def peek(self, game_id: str) -> CachedGame[R] | None:
        """The entry of ``game_id`` if the cache has one (now the most recently used), else None."""
        with self._lock:
            entry = self._entries.get(game_id)
            if entry is not None:
                self._entries.move_to_end(game_id)
            return entry

    def weigh(self, game_id: str, entry: CachedGame[R]) -> None:
        """Count ``entry``'s new size, and drop the oldest games if the cache is too big."""
        game = entry.game
        weight = 1 if game is None else 1 + len(game) + game.rules.cells
        with self._lock:
            self._weight += weight - entry.weight
            entry.weight = weight
            while self._weight > self.max_weight and len(self._entries) > 1:
                oldest_id, oldest = next(iter(self._entries.items()))
                if oldest_id == game_id:
                    break
                del self._entries[oldest_id]
                self._weight -= oldest.weight

    def evict(self, game_id: str) -> None:
        """Forget ``game_id`` (it names no game, so it must not take room)."""
        with self._lock:
            entry = self._entries.pop(game_id, None)
            if entry is not None:
                self._weight -= entry.weight

    def clear(self) -> None:
        """Forget every game."""
        with self._lock:
            self._entries.clear()
            self._weight = 0
