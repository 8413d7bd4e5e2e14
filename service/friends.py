"""Games between friends (issue 35): presence, claims, offers and rematches, and their view.

Any drop-token game may become one: its extras (a clock, an offer pending,
how it ended when the seed's moves do not say, the match score: see
:mod:`~connect_four.service.friend_rules`) are one JSON row of
``friend_games``, read with the game's own row, so a game without them
costs the seed's API nothing. Every rule that a move must obey (a clock
charged, a flag fall, a game ended by agreement) is applied by the store
itself inside the move's transaction, whichever database and path
(:class:`~connect_four.service.repository.GameStore`); this module makes
the changes that are not moves, each one write transaction of the store's
(:meth:`~connect_four.service.repository.GameStore.change_extras`).

A flag fall and a claimed win are stored as the loser's quit (so the seed's
state, winner and list of games in progress say the game is over), marked
with its reason (``TIMEOUT``, ``ABANDONED``); a draw agreed or claimed is
the row's end alone. A player is present while a request of theirs waits
(``GET /friend_game/{gameId}?player=&wait=``) or for :data:`PRESENCE_GRACE`
seconds after any request or move of theirs. Each process knows its own
requests at once, and shares them through the database
(:mod:`~connect_four.service.presence_rows`): a row per player and process,
written when the player arrives, refreshed every :data:`HEARTBEAT` seconds
while they wait (each row vouches for :data:`LEASE` seconds) and once more
when they have gone, by :meth:`Friends.upkeep`, never once per poll. A claim
is decided on those rows, read in the claim's own transaction.

Time is :attr:`Friends.clock`'s (wall-clock seconds by default), injected
by tests, which advance it instead of sleeping.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from connect_four.engine import Game

from . import friend_rules as rules
from .database import Connection
from .errors import ClaimRefusedError, OfferMissingError, OfferRefusedError, StorageError
from .limits import CLAIM_AFTER
from .presence_rows import FIRST_LOOK, PresenceRow, read_presence
from .records import ClockSetting, GameRecord
from .repository import GameStore

__all__ = [
    "HEARTBEAT",
    "LEASE",
    "OFFER_KINDS",
    "PRESENCE_GRACE",
    "FriendView",
    "Friends",
    "PlayerView",
]

PRESENCE_GRACE = 1.0
"""Seconds a player counts as present after a request of theirs ends (a client polls again
at once, so a gap longer than this means it is gone)."""

HEARTBEAT = 5.0
"""Seconds between two writes of one player's presence row by one process, at the most."""

LEASE = 15.0
"""Seconds a waiting player's row vouches for them: a process that stops (a crash) stops
vouching this long after its last refresh."""

FORGET_AFTER = 86_400.0
"""Seconds after which a row that vouches for nobody is deleted (a player gone longer is
away since the first look at the game that is still kept, or since now)."""

FORGET_EVERY = 3600.0
"""Seconds between two deletions of the rows that vouch for nobody any more."""

REMEMBERED = 100_000
"""Players (a game and a place in it) whose last move or request this process remembers;
one forgotten is away since the service first looked at their game."""

OFFER_KINDS = ("draw", "takeback", "rematch")
"""What a player may offer; the other accepts or declines."""

Key = tuple[str, int]
"""A player of a game: the game's id and their place in it."""


@dataclass(frozen=True)
class PlayerView:
    """One player as a friend's client sees them."""

    name: str
    present: bool
    away_for: float | None
    clock: float | None


@dataclass(frozen=True)
class FriendView:
    """What a friend's client shows, as of ``now``: see :meth:`Friends.view`."""

    players: list[PlayerView]
    moves: int
    to_move: str | None
    winner: str | None
    done: bool
    reason: str | None
    clock: ClockSetting | None
    offer: tuple[str, str] | None
    previous: str | None
    rematch: str | None
    wins: dict[str, int]
    draws: int
    claimable: bool
    version: str


class Friends:
    """Who is present in the games between friends of ``store``, and their changes.

    ``clock`` gives the time in seconds (wall time: games outlive
    processes), the store's too; ``claim_after`` is :data:`CLAIM_AFTER`
    unless told.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], float] = time.time,
        claim_after: float = CLAIM_AFTER,
        grace: float = PRESENCE_GRACE,
    ) -> None:
        self.clock = clock
        self.claim_after = claim_after
        self.grace = grace
        self._seen: dict[tuple[str, int], float] = {}
        self._open: Counter[tuple[str, int]] = Counter()
        self._known: dict[str, float] = {}
        self._lock = threading.Lock()
        self.heartbeat = HEARTBEAT
        self.lease = LEASE
        self.process = uuid.uuid4().hex
        """This process's name in the presence rows (a new one at each start)."""
        self._shared: dict[Key, tuple[float, float]] = {}  # (seen, until) last written
        self._looked: set[str] = set()  # Games whose first look is in the database.
        self._next_forget = clock() + FORGET_EVERY
        # No row of _shared needs upkeep before this time (it may be earlier than
        # need be, never later): upkeep_due, asked on the loop, walks no table.
        self._next_due = math.inf
        self.store = store
        self.attach(store)

    def attach(self, store: GameStore) -> None:
        """Keep the time and presence of ``store``'s games from now on (the app's store)."""
        self.store = store
        store.clock = self.clock
        store.friend_moved = self.seen
        store.game_made = self.made

    # --- Presence --------------------------------------------------------------

    def seen(self, game_id: str, player: int) -> None:
        """A request or move of ``player`` (token checked) just reached the service.

        Told of every move stored, of any game (a dict's write, no statement):
        the least recently seen are forgotten past :data:`REMEMBERED` players.
        """
        key, now = (game_id, player), self.clock()
        with self._lock:  # Moves tell from worker threads and the event loop at once.
            self._seen.pop(key, None)
            self._seen[key] = now
            if len(self._seen) > REMEMBERED:
                forgotten = next(iter(self._seen))
                del self._seen[forgotten]
                self._note_due(forgotten)  # its row's own "seen" may be due sooner

    def made(self, game_id: str) -> None:
        """A game was just made: its players, never seen yet, are away from now on."""
        now = self.clock()
        with self._lock:
            self._known[game_id] = now
            if len(self._known) > REMEMBERED:
                del self._known[next(iter(self._known))]

    def waiting(self, game_id: str, player: int, delta: int) -> None:
        """A wait of ``player`` begins (``delta`` 1) or ends (-1)."""
        key = (game_id, player)
        with self._lock:
            self._open[key] += delta
            if self._open[key] <= 0:
                del self._open[key]
            self._note_due(key)  # a wait's row is refreshed, a left one written gone
        self.seen(game_id, player)

    def _away_for(
        self, game_id: str, player: int, now: float, rows: list[PresenceRow]
    ) -> float | None:
        """Seconds ``player`` has been gone (since the first look at the game if never seen),
        None while present: by this process's own requests and the other processes' ``rows``."""
        key = (game_id, player)
        if self._open.get(key, 0) > 0:
            return None
        last = self._seen.get(key)
        if last is not None and now - last <= self.grace:
            return None
        for row in rows:
            if row.player != player or row.process == self.process:
                continue  # This process's own row says what it knows better itself.
            if row.until >= now:
                return None
            last = row.seen if last is None else max(last, row.seen)
        if last is None:
            looks = [row.seen for row in rows if row.player == FIRST_LOOK]
            known = self._known.get(game_id)
            if known is None and not looks:
                self.made(game_id)  # Made by another process, or long ago.
                known = self._known.get(game_id, now)
            last = min(looks + ([] if known is None else [known]))
        return now - last

    # --- Presence shared with the other processes -------------------------------

    def share(self, game_id: str, player: int) -> None:
        """Write ``player``'s row if the other processes' view of them is out of date.

        A store call, made when the player arrives (a wait begins, a request
        with their token): it writes only when the row no longer vouches for
        them, or vouches too short (a wait begins), or was written
        :attr:`heartbeat` seconds ago. A database that cannot be written
        (read-only) keeps presence this process's own.
        """
        now = self.clock()
        key = (game_id, player)
        until = now + (self.lease if self._open.get(key, 0) > 0 else self.grace)
        with self._lock:
            last = self._shared.get(key)
        if (
            last is not None
            and last[1] >= now
            and last[1] >= until - self.heartbeat
            and now - last[0] < self.heartbeat
        ):
            return
        self._write(game_id, player, now, until)

    def _write(self, game_id: str, player: int, seen: float, until: float) -> None:
        with contextlib.suppress(StorageError):
            self.store.mark_presence(game_id, player, self.process, seen, until)
            with self._lock:
                self._shared[(game_id, player)] = (seen, until)
                self._note_due((game_id, player))

    def upkeep_due(self) -> bool:
        """Whether :meth:`upkeep` may have anything to do (no statement, no walk: asked on the
        loop every tick); never False when it has."""
        return self.clock() >= min(self._next_forget, self._next_due)

    def _due(self, key: Key) -> float:
        """When ``key``'s row needs upkeep: a wait's refresh, or a departure (under the lock)."""
        seen, until = self._shared[key]
        if self._open.get(key, 0) > 0:
            return min(seen + self.heartbeat, until - self.grace)
        return max(self._seen.get(key, seen), seen) + self.grace

    def _note_due(self, key: Key) -> None:
        """Bring :attr:`_next_due` forward to ``key``'s upkeep if that is sooner (under the lock)."""
        if key in self._shared:
            self._next_due = min(self._next_due, self._due(key))

    def _plan(
        self, now: float
    ) -> tuple[list[tuple[str, int, float, float]], list[tuple[str, int, float, float]], list[Key]]:
        """The rows to refresh and the departures to write at ``now`` (game, player, seen,
        until), and the players whose rows vouch for nobody any more (nothing to write).

        Notes when the rows it leaves need upkeep next (:attr:`_next_due`).
        """
        refresh: list[tuple[str, int, float, float]] = []
        left: list[tuple[str, int, float, float]] = []
        stale: list[Key] = []
        # A row due now is due till its write notes its next time (_write): a failed
        # write is tried again at the next tick.
        later = math.inf
        with self._lock:
            for key, (seen, until) in self._shared.items():
                game_id, player = key
                if self._open.get(key, 0) > 0:
                    if now - seen >= self.heartbeat or until < now + self.grace:
                        refresh.append((game_id, player, now, now + self.lease))
                        later = now
                    else:
                        later = min(later, self._due(key))
                    continue
                last = max(self._seen.get(key, seen), seen)
                if last + self.grace > now:
                    # Still present here: back soon, or gone once the grace ends.
                    later = min(later, last + self.grace)
                elif until > last + self.grace:
                    left.append((game_id, player, last, last + self.grace))
                    later = now
                else:
                    stale.append(key)
            self._next_due = later
        return refresh, left, stale

    def upkeep(self) -> list[str]:
        """Refresh the rows of the players waiting here, write the departures that are due;
        the games whose players left (a store call, every quarter second while due).

        A waiting player's row is refreshed :attr:`heartbeat` seconds after
        it was written; a player whose last request here ended more than the
        grace ago is written as gone since then, once. Rows that vouch for
        nobody since :data:`FORGET_AFTER` are deleted now and then.
        """
        now = self.clock()
        refresh, left, stale = self._plan(now)
        with self._lock:
            for key in stale:
                self._shared.pop(key, None)
        for game_id, player, seen, until in refresh + left:
            self._write(game_id, player, seen, until)
        if now >= self._next_forget:
            self._next_forget = now + FORGET_EVERY
            with contextlib.suppress(StorageError):
                self.store.forget_presence(now - FORGET_AFTER)
        return sorted({game_id for game_id, *_ in left})

    def _rows(self, game_id: str) -> list[PresenceRow]:
        """The game's presence rows, its first look noted in the database if it was not yet."""
        rows = self.store.presence_rows(game_id)
        if game_id not in self._looked:
            if not any(row.player == FIRST_LOOK for row in rows):
                with contextlib.suppress(StorageError):
                    self.store.first_look(game_id, self._known.get(game_id, self.clock()))
            self._looked.add(game_id)
            if len(self._looked) > REMEMBERED:
                self._looked.clear()
        return rows

    # --- Reading ---------------------------------------------------------------

    def check_player(self, game_id: str, player_id: str, token: str | None) -> int:
        """The number of ``player_id`` in the game, once their token (if it has tokens) is checked.

        Raises:
            GameNotFoundError, PlayerNotFoundError, TokenRequiredError, TokenRejectedError.
        """
        record, _ = self.store.read_state(game_id)
        player = record.player_index(player_id)
        record.authorize(player, token)
        return player

    def view(self, game_id: str) -> FriendView:
        """The game as a friend's client shows it, now (a due flag fall recorded first).

        Raises:
            GameNotFoundError: no game has this id.
        """
        status = self.store.read_status(game_id)
        record, outcome, to_move = status.record, status.outcome, status.to_move
        extras = status.extras or rules.new_extras(None, len(record.players))
        rows = [] if outcome is not None else self._rows(game_id)
        now = self.clock()
        players = []
        for number, name in enumerate(record.players):
            left = None if status.clocks is None else status.clocks[number]
            away = None if outcome is not None else self._away_for(game_id, number, now, rows)
            players.append(PlayerView(name, away is None, away, left))
        offer = extras["offer"]
        winner = (
            None if outcome is None or outcome.winner is None else record.players[outcome.winner]
        )
        named_offer = None if offer is None else (offer["kind"], record.players[offer["by"]])
        gone = None if to_move is None else players[to_move].away_for
        claimable = len(players) == 2 and gone is not None and gone >= self.claim_after
        lasting = (
            [[p.name, p.present] for p in players],
            status.moves,
            to_move,
            winner,
            status.reason,
            named_offer,
            extras["rematch"],
            outcome is None,
            claimable,
        )
        version = hashlib.sha256(json.dumps(lasting).encode()).hexdigest()[:16]
        return FriendView(
            players=players,
            moves=status.moves,
            to_move=None if to_move is None else record.players[to_move],
            winner=winner,
            done=outcome is not None,
            reason=status.reason,
            clock=rules.clock_setting(extras),
            offer=named_offer,
            previous=extras["previous"],
            rematch=extras["rematch"],
            wins=dict(zip(record.players, extras["wins"], strict=True)),
            draws=int(extras["draws"]),
            claimable=claimable,
            version=version,
        )

    # --- Changing ----------------------------------------------------------------

    def settle(self, game_id: str) -> bool:
        """Record the flag fall of the player to move if their time is up; whether it was.

        Raises:
            GameNotFoundError: no game has this id.
        """
        return self.store.settle(game_id)

    def _change(
        self,
        game_id: str,
        player_id: str,
        token: str | None,
        change: Callable[[Connection, GameRecord, Game, rules.Extras, int], None],
    ) -> None:
        """Apply ``change`` by ``player_id`` (who is then seen) in one write transaction."""

        def seen_then(
            connection: Connection, record: GameRecord, game: Game, extras: rules.Extras, who: int
        ) -> None:
            self.seen(game_id, who)
            change(connection, record, game, extras, who)

        self.store.change_extras(game_id, player_id, token, seen_then)

    def offer(self, game_id: str, player_id: str, token: str | None, kind: str) -> None:
        """``player_id`` offers a draw, a takeback or a rematch; the other answers.

        Raises:
            GameNotFoundError, PlayerNotFoundError, TokenRequiredError, TokenRejectedError.
            OfferRefusedError: not now (a draw or takeback of a game over, a rematch of one
                in progress, a takeback with no move of the player's, an offer pending).
        """

        def change(
            connection: Connection, record: GameRecord, game: Game, extras: rules.Extras, by: int
        ) -> None:
            _two_players(record)
            over = rules.outcome(extras, game) is not None
            if extras["offer"] is not None:
                raise OfferRefusedError(f"a {extras['offer']['kind']} offer is pending")
            if kind == "rematch":
                if not over:
                    raise OfferRefusedError("a rematch is offered once the game is over")
                if extras["rematch"] is not None:
                    raise OfferRefusedError(f"the rematch is game {extras['rematch']!r}")
            elif over:
                raise OfferRefusedError(f"the game is over: no {kind} any more")
            if kind == "takeback" and rules.last_move_of(game, by) is None:
                raise OfferRefusedError("there is no move of yours to take back")
            extras["offer"] = {"kind": kind, "by": by}

        self._change(game_id, player_id, token, change)

    def answer(self, game_id: str, player_id: str, token: str | None, accept: bool) -> str | None:
        """The other player accepts or declines the offer; the rematch's id if one was made.

        Raises:
            OfferMissingError: no offer of the other player is pending.
        """
        made: list[str] = []

        def change(
            connection: Connection, record: GameRecord, game: Game, extras: rules.Extras, by: int
        ) -> None:
            offer = extras["offer"]
            if offer is None or offer["by"] == by:
                raise OfferMissingError("no offer of your opponent's is pending")
            extras["offer"] = None
            if not accept:
                return
            if offer["kind"] == "draw":
                extras["end"] = {"reason": "DRAW_AGREED", "winner": None}
                _stop(extras)
            elif offer["kind"] == "takeback":
                self._take_back(connection, record, game, extras, offer["by"])
            else:
                made.append(self._rematch(connection, record, game, extras))

        self._change(game_id, player_id, token, change)
        return made[0] if made else None

    def _take_back(
        self,
        connection: Connection,
        record: GameRecord,
        game: Game,
        extras: rules.Extras,
        player: int,
    ) -> None:
        """Delete ``player``'s last move and any after it: ``player`` is to move again."""
        number = rules.last_move_of(game, player)
        if number is None:
            raise OfferRefusedError("the move to take back is gone")
        self.store.take_back(connection, record.game_id, game, number)
        if extras["clock"] is not None:
            extras["clock"]["since"] = self.clock() if number > 0 else None

    def _rematch(
        self, connection: Connection, record: GameRecord, game: Game, extras: rules.Extras
    ) -> str:
        """A new game, colours swapped, same board, clock and tokens; the score carried."""
        outcome = rules.outcome(extras, game)
        wins = list(extras["wins"])
        draws = int(extras["draws"])
        if outcome is not None and outcome.winner is not None:
            wins[outcome.winner] += 1
        else:
            draws += 1
        new = rules.new_extras(rules.clock_setting(extras), len(record.players))
        new["previous"] = record.game_id
        new["wins"] = list(reversed(wins))
        new["draws"] = draws
        game_id = self.store.store_rematch(connection, record, new)
        extras["rematch"] = game_id
        return game_id

    def claim(self, game_id: str, player_id: str, token: str | None, result: str) -> None:
        """``player_id`` claims the win (or a draw) of a game their opponent left on their turn.

        Raises:
            ClaimRefusedError: the game is over, or it is not the opponent's turn, or the
                opponent has not been away for :attr:`claim_after` seconds.
        """

        def change(
            connection: Connection, record: GameRecord, game: Game, extras: rules.Extras, by: int
        ) -> None:
            _two_players(record)
            if rules.outcome(extras, game) is not None:
                raise ClaimRefusedError("the game is over")
            opponent = 1 - by
            if game.to_move != opponent:
                raise ClaimRefusedError("a claim is made on the opponent's turn only")
            rows = read_presence(connection, game_id)  # Every process's, as of the claim.
            away = self._away_for(game_id, opponent, self.clock(), rows)
            if away is None or away < self.claim_after:
                raise ClaimRefusedError(
                    f"{record.players[opponent]} has not been away for {self.claim_after:g} s"
                )
            if result == "win":
                self.store.store_quit(connection, record, game, extras, opponent, "ABANDONED")
            else:
                extras["end"] = {"reason": "DRAW_CLAIMED", "winner": None}
                extras["offer"] = None
                _stop(extras)

        self._change(game_id, player_id, token, change)


def _stop(extras: rules.Extras) -> None:
    """The game ended by the extras: its clock stops."""
    if extras["clock"] is not None:
        extras["clock"]["since"] = None


def _two_players(record: GameRecord) -> None:
    if len(record.players) != 2:
        raise OfferRefusedError("offers and claims are for games of two players")
