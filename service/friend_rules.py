"""The rules a game between friends adds to the seed's, written once for every store and path.

A game between friends has *extras*, one JSON object in its row of
``friend_games``: its clock, the offer pending (a draw, a takeback or a
rematch), how it ended when the seed's moves do not say (a draw agreed or
claimed), the reasons of the quits that were a flag fall or an abandoned
game, the game it is a rematch of, its rematch, the match score, and how
many takebacks deleted moves. A game without extras has no row and none of
these rules. The functions here change or read the extras and the engine's
game, never the database: :class:`~connect_four.service.repository.GameStore`
calls them inside its own transactions (SQLite and PostgreSQL alike), and
:mod:`connect_four.service.friends` for offers, claims and the friends' view.
Times are the caller's ``now`` (the service's injectable clock), in seconds.
"""

from __future__ import annotations

import json
from typing import Any

from connect_four.engine import Game, Outcome, Status

from .errors import GameDoneError
from .records import ClockSetting

__all__ = [
    "Extras",
    "charge_move",
    "clock_setting",
    "clocks_left",
    "dump",
    "end_reason",
    "fallen_flag",
    "last_move_of",
    "load",
    "mark_quit",
    "new_extras",
    "outcome",
    "quit_reasons",
    "refuse_if_ended",
    "ticking",
]

Extras = dict[str, Any]
"""A game between friends' extras, as stored (JSON)."""


def new_extras(clock: ClockSetting | None, players: int) -> Extras:
    """The extras of a game just made: no offer, no end, a score of nothing."""
    extras: Extras = {
        "offer": None,
        "end": None,
        "reasons": {},
        "previous": None,
        "rematch": None,
        "wins": [0] * players,
        "draws": 0,
        "clock": None,
        "takebacks": 0,
    }
    if clock is not None:
        start = clock.per_move if clock.per_move is not None else clock.initial
        extras["clock"] = {
            "initial": clock.initial,
            "increment": clock.increment,
            "per_move": clock.per_move,
            "remaining": [start] * players,
            "since": None,  # The clock runs from the first move on.
        }
    return extras


def load(text: str | bytes | None) -> Extras | None:
    """The extras stored as ``text``; None for a game without (no row)."""
    return None if text is None else dict(json.loads(text))


def dump(extras: Extras) -> str:
    """The extras as stored."""
    return json.dumps(extras)


def clock_setting(extras: Extras) -> ClockSetting | None:
    """The game's time control, None without a clock."""
    clock = extras.get("clock")
    if clock is None:
        return None
    return ClockSetting(clock["initial"], clock["increment"], clock["per_move"])


def ticking(extras: Extras | None) -> bool:
    """Whether the game's clock runs now (a wait must then look for its flag to fall)."""
    return (
        extras is not None and extras["clock"] is not None and extras["clock"]["since"] is not None
    )


def refuse_if_ended(extras: Extras) -> None:
    """Refuse any move of a game the extras ended (a draw agreed or claimed).

    Raises:
        GameDoneError: the game is over by agreement or by claim.
    """
    if extras["end"] is not None:
        raise GameDoneError(f"the game is over ({extras['end']['reason']})")


def fallen_flag(extras: Extras, game: Game, now: float) -> int | None:
    """The player to move if their time is up at ``now`` and the fall is not yet recorded."""
    clock = extras["clock"]
    if game.is_over() or clock is None or clock["since"] is None or game.to_move is None:
        return None
    if extras["end"] is not None:
        return None
    mover = game.to_move
    if clock["remaining"][mover] - (now - clock["since"]) > 0:
        return None
    return mover


def mark_quit(extras: Extras, number: int, player: int, reason: str) -> None:
    """Move ``number``, ``player``'s quit that the store just made, was a flag fall
    (``TIMEOUT``: their time is 0) or an abandoned game (``ABANDONED``); the clock stops."""
    extras["reasons"][str(number)] = reason
    extras["offer"] = None
    clock = extras["clock"]
    if clock is not None:
        if reason == "TIMEOUT":
            clock["remaining"][player] = 0.0
        clock["since"] = None


def charge_move(extras: Extras, game: Game, now: float) -> None:
    """The game's last move was just stored: charge the mover's clock, start the next one's.

    The mover's time since the clock started is taken off; they gain the
    increment (or, days a move, a whole new move's time); a move withdraws a
    pending draw or takeback offer (a rematch is offered after the end).
    """
    move = game.history[-1]
    clock = extras["clock"]
    if clock is not None:
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
    if extras["offer"] is not None and extras["offer"]["kind"] != "rematch":
        extras["offer"] = None


def outcome(extras: Extras | None, game: Game) -> Outcome | None:
    """The game's outcome: a draw agreed or claimed, else the engine's."""
    if extras is not None and extras["end"] is not None and extras["end"]["winner"] is None:
        return Outcome(Status.DRAWN)
    return game.outcome()


def end_reason(extras: Extras, count: int) -> str | None:
    """How the game ended if not by the seed's rules (TIMEOUT, ABANDONED, DRAW_...), else None."""
    if extras["end"] is not None:
        return str(extras["end"]["reason"])
    if count and str(count - 1) in extras["reasons"]:
        return str(extras["reasons"][str(count - 1)])
    return None


def clocks_left(extras: Extras, game: Game, now: float) -> list[float] | None:
    """Each player's seconds left at ``now`` (the player to move's running), None without a clock."""
    clock = extras["clock"]
    if clock is None:
        return None
    over = outcome(extras, game) is not None
    left = []
    for number, remaining in enumerate(clock["remaining"]):
        running = not over and clock["since"] is not None and number == game.to_move
        left.append(max(0.0, float(remaining) - (now - clock["since"] if running else 0.0)))
    return left


def quit_reasons(extras: Extras | None) -> dict[int, str]:
    """The quits a game between friends marked (a flag fall, an abandoned game), by number."""
    if extras is None:
        return {}
    return {int(number): str(reason) for number, reason in extras["reasons"].items()}


def last_move_of(game: Game, player: int) -> int | None:
    """The number of ``player``'s last drop, None if none (or a quit came after it)."""
    history = game.history
    for number in range(len(history) - 1, -1, -1):
        if history[number].column is None:
            return None
        if history[number].player == player:
            return number
    return None
