"""Games between friends (issue 35): clocks, presence, claims, offers and rematches.

Beside the seed's rules, a game may have extras, kept as one JSON row of
``friend_games``: its clock, the offer pending (a draw, a takeback or a
rematch), how it ended when the seed's moves do not say (a flag fall, an
abandoned game claimed, a draw agreed or claimed), the game it is a rematch
of, its rematch, and the match score. A game without extras has no row,
and the seed's API answers it as before.

A flag fall and a claimed win are stored as the loser's quit (so the seed's
state, winner and list of games in progress say the game is over), marked
with its reason (``TIMEOUT``, ``ABANDONED``); a draw agreed or claimed is
the row's end alone. Presence is this process's own: a player is present
while a request of theirs waits (``GET /friend_game/{gameId}?player=&wait=``)
or for :data:`PRESENCE_GRACE` seconds after any request of theirs.

Time is :attr:`Friends.clock`'s (wall-clock seconds by default), injected
by tests, which advance it instead of sleeping.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from connect_four.engine import Game, Outcome, Status

from .database import Connection
from .errors import (
    ClaimRefusedError,
    GameDoneError,
    OfferMissingError,
    OfferRefusedError,
)
from .limits import CLAIM_AFTER
from .records import ClockSetting, GameRecord, check_game_id, new_game_id
from .repository import GameStore, MoveRules

__all__ = [
    "CLAIM_AFTER",
    "PRESENCE_GRACE",
    "Friends",
    "FriendView",
    "OFFER_KINDS",
]

PRESENCE_GRACE = 1.0
"""Seconds a player counts as present after a request of theirs ends (a client polls again
at once, so a gap longer than this means it is gone)."""

OFFER_KINDS = ("draw", "takeback", "rematch")
"""What a player may offer; the other accepts or declines."""

State = dict[str, Any]


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


def _new_state(clock: ClockSetting | None, players: int) -> State:
    """The extras of a game just made: no offer, no end, a score of nothing."""
    state: State = {
        "offer": None,
        "end": None,
        "reasons": {},
        "previous": None,
        "rematch": None,
        "wins": [0] * players,
        "draws": 0,
        "clock": None,
    }
    if clock is not None:
        start = clock.per_move if clock.per_move is not None else clock.initial
        state["clock"] = {
            "initial": clock.initial,
            "increment": clock.increment,
            "per_move": clock.per_move,
            "remaining": [start] * players,
            "since": None,  # The clock runs from the first move on.
        }
    return state


def _setting(state: State) -> ClockSetting | None:
    clock = state.get("clock")
    if clock is None:
        return None
    return ClockSetting(clock["initial"], clock["increment"], clock["per_move"])


class Friends(MoveRules):
    """The extras of friends' games in ``store``, and who is present; hooks into its moves.

    ``clock`` gives the time in seconds (wall time: games outlive processes);
    ``claim_after`` is :data:`CLAIM_AFTER` unless told.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], float] = time.time,
        claim_after: float = CLAIM_AFTER,
        grace: float = PRESENCE_GRACE,
    ) -> None:
        self.store = store
        self.clock = clock
        self.claim_after = claim_after
        self.grace = grace
        self._seen: dict[tuple[str, int], float] = {}
        self._open: Counter[tuple[str, int]] = Counter()
        self._known: dict[str, float] = {}
        self.attach(store)

    def attach(self, store: GameStore) -> None:
        """Keep the extras of ``store``'s games from now on (the app's store, if it changes)."""
        self.store = store
        store.move_rules = self

    # --- Rows ----------------------------------------------------------------

    def _read(self, connection: Connection, game_id: str) -> State | None:
        check_game_id(game_id)  # Text that is no game id never reaches the database.
        row = connection.execute(
            "SELECT state FROM friend_games WHERE game_id = ?", (game_id,)
        ).fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def _write(
        self, connection: Connection, game_id: str, state: State, *, new: bool = False
    ) -> None:
        text = json.dumps(state)
        if new:
            connection.execute(
                "INSERT INTO friend_games (game_id, state) VALUES (?, ?)", (game_id, text)
            )
        else:
            connection.execute(
                "UPDATE friend_games SET state = ? WHERE game_id = ?", (text, game_id)
            )

    # --- Hooks of the store's moves ------------------------------------------

    def created(
        self, connection: Connection, game_id: str, players: int, clock: ClockSetting | None
    ) -> None:
        """Store a new game's clock (a game without one gets no row); its players are away."""
        self._known[game_id] = self.clock()
        if clock is not None:
            self._write(connection, game_id, _new_state(clock, players), new=True)

    def before_move(self, connection: Connection, record: GameRecord, game: Game) -> None:
        """Refuse any move of a game the extras ended (an agreed or claimed draw)."""
        state = self._read(connection, record.game_id)
        if state is not None and state["end"] is not None:
            raise GameDoneError(f"the game is over ({state['end']['reason']})")

    def after_move(self, connection: Connection, record: GameRecord, game: Game) -> None:
        """Charge the mover's clock, give the increment, start the next; drop the offer.

        The mover (their token checked, in a game with tokens) is seen.
        """
        move = game.history[-1]
        self.seen(record.game_id, move.player)
        state = self._read(connection, record.game_id)
        if state is None:
            return
        clock = state["clock"]
        if clock is not None:
            now = self.clock()
            if game.is_over():
                if clock["since"] is not None and move.column is not None:
                    clock["remaining"][move.player] -= now - clock["since"]
                clock["since"] = None
            elif move.column is not None:
                if clock["since"] is not None:
                    clock["remaining"][move.player] -= now - clock["since"]
                if clock["per_move"] is not None:
                    clock["remaining"][move.player] = clock["per_move"]
                elif clock["since"] is not None:
                    clock["remaining"][move.player] += clock["increment"]
                clock["since"] = now
        if state["offer"] is not None and state["offer"]["kind"] != "rematch":
            state["offer"] = None
        self._write(connection, record.game_id, state)

    def outcome(self, connection: Connection, record: GameRecord, game: Game) -> Outcome | None:
        """A draw agreed or claimed, else the engine's outcome."""
        state = self._read(connection, record.game_id)
        if state is not None and state["end"] is not None and state["end"]["winner"] is None:
            return Outcome(Status.DRAWN)
        return game.outcome()

    # --- Presence --------------------------------------------------------------

    def seen(self, game_id: str, player: int) -> None:
        """A request of ``player`` (token checked) just reached the service."""
        self._seen[(game_id, player)] = self.clock()

    def waiting(self, game_id: str, player: int, delta: int) -> None:
        """A wait of ``player`` begins (``delta`` 1) or ends (-1)."""
        self._open[(game_id, player)] += delta
        if self._open[(game_id, player)] <= 0:
            del self._open[(game_id, player)]
        self.seen(game_id, player)

    def _away_for(self, game_id: str, player: int, now: float) -> float | None:
        """Seconds ``player`` has been gone (since the service first knew the game if never
        seen), None while present."""
        if self._open.get((game_id, player), 0) > 0:
            return None
        last = self._seen.get((game_id, player))
        if last is not None and now - last <= self.grace:
            return None
        return now - (last if last is not None else self._known.setdefault(game_id, now))

    # --- Reading ---------------------------------------------------------------

    def check_player(self, game_id: str, player_id: str, token: str | None) -> int:
        """The number of ``player_id`` in the game, once their token (if it has tokens) is checked.

        Raises:
            GameNotFoundError, PlayerNotFoundError, TokenRequiredError, TokenRejectedError.
        """
        with self.store._transaction() as connection:
            record, _ = self.store._record(connection, game_id)
        player = record.player_index(player_id)
        record.authorize(player, token)
        return player

    def flag_due(self, game_id: str) -> bool:
        """Whether the game's clock runs (so that a wait must watch for its flag to fall)."""
        with self.store._transaction() as connection:
            state = self._read(connection, game_id)
        return (
            state is not None and state["clock"] is not None and state["clock"]["since"] is not None
        )

    def reasons(self, game_id: str) -> dict[int, str]:
        """The move numbers of the game's quits that are a flag fall or an abandoned game."""
        with self.store._transaction() as connection:
            state = self._read(connection, game_id)
        if state is None:
            return {}
        return {int(number): reason for number, reason in state["reasons"].items()}

    def clocks(self, game_id: str) -> tuple[str | None, dict[str, float] | None]:
        """The game's end reason and each player's time left now (None without extras)."""
        with self.store._transaction() as connection:
            if self._read(connection, game_id) is None:
                return None, None
        view = self.view(game_id)
        if view.clock is None and view.reason is None:
            return None, None
        times = None
        if view.clock is not None:
            times = {player.name: player.clock or 0.0 for player in view.players}
        return view.reason, times

    def view(self, game_id: str) -> FriendView:
        """The game as a friend's client shows it, now.

        Raises:
            GameNotFoundError: no game has this id.
        """
        store = self.store
        with store._cached(game_id) as entry, store._transaction() as connection:
            record, count = store._record(connection, game_id)
            game = store._caught_up(connection, record, count, entry)
            state = self._read(connection, game_id) or _new_state(None, len(record.players))
            outcome = self.outcome(connection, record, game)
            to_move = game.to_move if outcome is None else None
        now = self.clock()
        clock = state["clock"]
        players = []
        for number, name in enumerate(record.players):
            left = None
            if clock is not None:
                left = clock["remaining"][number]
                if clock["since"] is not None and number == to_move:
                    left -= now - clock["since"]
                left = max(0.0, left)
            away = None if outcome is not None else self._away_for(game_id, number, now)
            players.append(PlayerView(name, away is None, away, left))
        offer = state["offer"]
        end = state["end"]
        winner = (
            None if outcome is None or outcome.winner is None else record.players[outcome.winner]
        )
        reason = None if end is None else str(end["reason"])
        if reason is None and count and str(count - 1) in state["reasons"]:
            reason = str(state["reasons"][str(count - 1)])
        named_offer = None if offer is None else (offer["kind"], record.players[offer["by"]])
        gone = None if to_move is None else players[to_move].away_for
        claimable = len(players) == 2 and gone is not None and gone >= self.claim_after
        lasting = (
            [[p.name, p.present] for p in players],
            count,
            to_move,
            winner,
            reason,
            named_offer,
            state["rematch"],
            outcome is None,
            claimable,
        )
        version = hashlib.sha256(json.dumps(lasting).encode()).hexdigest()[:16]
        return FriendView(
            players=players,
            moves=count,
            to_move=None if to_move is None else record.players[to_move],
            winner=winner,
            done=outcome is not None,
            reason=reason,
            clock=_setting(state),
            offer=named_offer,
            previous=state["previous"],
            rematch=state["rematch"],
            wins=dict(zip(record.players, state["wins"], strict=True)),
            draws=int(state["draws"]),
            claimable=claimable,
            version=version,
        )

    # --- Changing ----------------------------------------------------------------

    def settle(self, game_id: str) -> bool:
        """Record the flag fall of the player to move if their time is up; whether it was.

        Raises:
            GameNotFoundError: no game has this id.
        """
        with self.store._transaction() as connection:
            state = self._read(connection, game_id)
        if state is None or state["clock"] is None or state["clock"]["since"] is None:
            return False
        return self._change(game_id, None, None, self._flag)

    def _flag(
        self, connection: Connection, record: GameRecord, game: Game, state: State, player: int
    ) -> None:
        clock = state["clock"]
        if game.is_over() or clock is None or clock["since"] is None or game.to_move is None:
            raise _Unchanged
        mover = game.to_move
        if clock["remaining"][mover] - (self.clock() - clock["since"]) > 0:
            raise _Unchanged
        clock["remaining"][mover] = 0.0
        self._quit(connection, record, game, state, mover, "TIMEOUT")

    def _quit(
        self,
        connection: Connection,
        record: GameRecord,
        game: Game,
        state: State,
        loser: int,
        reason: str,
    ) -> None:
        """Store ``loser``'s quit, marked with ``reason``, as the game's last move."""
        number = len(game)
        move = game.quit(loser)
        try:
            connection.execute(
                "INSERT INTO moves (game_id, move_number, player, column_number)"
                " VALUES (?, ?, ?, NULL)",
                (record.game_id, number, move.player),
            )
            if game.is_over():
                connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (record.game_id,))
        except BaseException:
            game.pop()
            raise
        state["reasons"][str(number)] = reason
        state["offer"] = None
        if state["clock"] is not None:
            state["clock"]["since"] = None

    def _change(
        self,
        game_id: str,
        player_id: str | None,
        token: str | None,
        change: Callable[[Connection, GameRecord, Game, State, int], None],
    ) -> bool:
        """Apply ``change`` to the game and its extras in one write transaction; whether it did."""
        store = self.store
        with store._cached(game_id) as entry, store._transaction(write=True) as connection:
            record, count = store._record(connection, game_id, lock=True)
            player = -1
            if player_id is not None:
                player = record.player_index(player_id)
                record.authorize(player, token)
                self.seen(game_id, player)
            game = store._caught_up(connection, record, count, entry)
            stored = self._read(connection, game_id)
            state = stored or _new_state(None, len(record.players))
            try:
                change(connection, record, game, state, player)
            except _Unchanged:
                return False
            self._write(connection, game_id, state, new=stored is None)
            if self.outcome(connection, record, game) is not None:
                connection.execute("UPDATE games SET done = 1 WHERE game_id = ?", (game_id,))
        return True

    def offer(self, game_id: str, player_id: str, token: str | None, kind: str) -> None:
        """``player_id`` offers a draw, a takeback or a rematch; the other answers.

        Raises:
            GameNotFoundError, PlayerNotFoundError, TokenRequiredError, TokenRejectedError.
            OfferRefusedError: not now (a draw or takeback of a game over, a rematch of one
                in progress, a takeback with no move of the player's, an offer pending).
        """

        def change(
            connection: Connection, record: GameRecord, game: Game, state: State, player: int
        ) -> None:
            _two_players(record)
            over = self.outcome(connection, record, game) is not None
            if state["offer"] is not None:
                raise OfferRefusedError(f"a {state['offer']['kind']} offer is pending")
            if kind == "rematch":
                if not over:
                    raise OfferRefusedError("a rematch is offered once the game is over")
                if state["rematch"] is not None:
                    raise OfferRefusedError(f"the rematch is game {state['rematch']!r}")
            elif over:
                raise OfferRefusedError(f"the game is over: no {kind} any more")
            if kind == "takeback" and _last_move_of(game, player) is None:
                raise OfferRefusedError("there is no move of yours to take back")
            state["offer"] = {"kind": kind, "by": player}

        self._change(game_id, player_id, token, change)

    def answer(self, game_id: str, player_id: str, token: str | None, accept: bool) -> str | None:
        """The other player accepts or declines the offer; the rematch's id if one was made.

        Raises:
            OfferMissingError: no offer of the other player is pending.
        """
        made: list[str] = []

        def change(
            connection: Connection, record: GameRecord, game: Game, state: State, player: int
        ) -> None:
            offer = state["offer"]
            if offer is None or offer["by"] == player:
                raise OfferMissingError("no offer of your opponent's is pending")
            state["offer"] = None
            if not accept:
                return
            if offer["kind"] == "draw":
                state["end"] = {"reason": "DRAW_AGREED", "winner": None}
                _stop(state)
            elif offer["kind"] == "takeback":
                self._take_back(connection, record, game, state, offer["by"])
            else:
                made.append(self._rematch(connection, record, game, state))

        self._change(game_id, player_id, token, change)
        return made[0] if made else None

    def _take_back(
        self, connection: Connection, record: GameRecord, game: Game, state: State, player: int
    ) -> None:
        """Delete ``player``'s last move and any after it: ``player`` is to move again."""
        number = _last_move_of(game, player)
        if number is None:
            raise OfferRefusedError("the move to take back is gone")
        connection.execute(
            "DELETE FROM moves WHERE game_id = ? AND move_number >= ?", (record.game_id, number)
        )
        while len(game) > number:
            game.pop()
        if state["clock"] is not None:
            state["clock"]["since"] = self.clock() if number > 0 else None

    def _rematch(self, connection: Connection, record: GameRecord, game: Game, state: State) -> str:
        """A new game, colours swapped, same board, clock and tokens; the score carried."""
        outcome = self.outcome(connection, record, game)
        wins = list(state["wins"])
        draws = int(state["draws"])
        if outcome is not None and outcome.winner is not None:
            wins[outcome.winner] += 1
        else:
            draws += 1
        game_id = new_game_id()
        digests = None if record.token_digests is None else list(reversed(record.token_digests))
        connection.execute(
            "INSERT INTO games (game_id, players, board_rows, board_columns, tokens)"
            " VALUES (?, ?, ?, ?, ?)",
            (
                game_id,
                json.dumps(list(reversed(record.players))),
                record.rows,
                record.columns,
                None if digests is None else json.dumps(digests),
            ),
        )
        new = _new_state(_setting(state), len(record.players))
        new["previous"] = record.game_id
        new["wins"] = list(reversed(wins))
        new["draws"] = draws
        self._write(connection, game_id, new, new=True)
        state["rematch"] = game_id
        return game_id

    def claim(self, game_id: str, player_id: str, token: str | None, result: str) -> None:
        """``player_id`` claims the win (or a draw) of a game their opponent left on their turn.

        Raises:
            ClaimRefusedError: the game is over, or it is not the opponent's turn, or the
                opponent has not been away for :attr:`claim_after` seconds.
        """

        def change(
            connection: Connection, record: GameRecord, game: Game, state: State, player: int
        ) -> None:
            _two_players(record)
            if self.outcome(connection, record, game) is not None:
                raise ClaimRefusedError("the game is over")
            opponent = 1 - player
            if game.to_move != opponent:
                raise ClaimRefusedError("a claim is made on the opponent's turn only")
            away = self._away_for(game_id, opponent, self.clock())
            if away is None or away < self.claim_after:
                raise ClaimRefusedError(
                    f"{record.players[opponent]} has not been away for {self.claim_after:g} s"
                )
            if result == "win":
                self._quit(connection, record, game, state, opponent, "ABANDONED")
            else:
                state["end"] = {"reason": "DRAW_CLAIMED", "winner": None}
                state["offer"] = None
                _stop(state)

        self._change(game_id, player_id, token, change)


class _Unchanged(Exception):
    """A change found nothing to do: its transaction stores nothing."""


def _stop(state: State) -> None:
    if state["clock"] is not None:
        state["clock"]["since"] = None


def _two_players(record: GameRecord) -> None:
    if len(record.players) != 2:
        raise OfferRefusedError("offers and claims are for games of two players")


def _last_move_of(game: Game, player: int) -> int | None:
    """The number of ``player``'s last drop, None if none (or a quit came after it)."""
    history = game.history
    for number in range(len(history) - 1, -1, -1):
        if history[number].column is None:
            return None
        if history[number].player == player:
            return number
    return None
