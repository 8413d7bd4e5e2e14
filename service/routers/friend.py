"""A game between friends (issue 35): presence, clocks, offers, claims and rematches.

Any drop-token game is one: ``GET /friend_game/{gameId}`` shows who is
present, the clocks and the offer pending, and waits for the next change
(``since`` and ``wait``, a long poll like the move list's). A player who
sends ``player`` (and their token, for a game with tokens) is present while
the request waits. Offers, answers and claims are POSTs by a player. The
seed's endpoints answer a game without extras exactly as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Annotated, TypeVar

from fastapi import APIRouter, Depends, Query

from ..dependencies import ClientDep, EventsDep, FriendsDep, GoneDep, StoreDep
from ..errors import StorageError
from ..events import EventHub
from ..friends import Friends, FriendView
from ..limits import MAX_WAIT
from ..rate_limits import charge_replays, limited
from ..repository import GameStore
from ..schemas import (
    AnswerIn,
    AnswerOut,
    ClaimIn,
    ClockIn,
    FriendPlayer,
    FriendStatus,
    OfferIn,
    error_responses,
)
from ..store_calls import call_store
from .drop_token import _AUTH, _RATE, _STORAGE, Authorization, GameId, PlayerId, _bearer

__all__ = ["TICK", "keep_presence", "router"]

T = TypeVar("T")
R = TypeVar("R")

_log = logging.getLogger("connect_four.service.presence")

TICK = 0.25
"""Seconds between a waiting request's looks at the clocks and at who is present."""

router = APIRouter(
    prefix="/friend_game",
    tags=["game between friends"],
    dependencies=[Depends(charge_replays)],
    responses=error_responses(
        e429="This client address has made the server replay too many stored moves "
        "(rate_limited): try again after Retry-After seconds."
    ),
)


async def _settle(store: StoreDep, friends: Friends, events: EventsDep, game_id: str) -> None:
    """Record a flag fall that is due (a game between friends' clock), waking the waiters."""
    if await call_store(store, friends.settle, game_id):
        events.notify(game_id)


async def keep_presence(store: GameStore, friends: Friends, events: EventHub) -> None:
    """Share this process's presence news every :data:`TICK` (a task of the app's lifetime).

    Refreshes the rows of the players waiting here and writes the
    departures (:meth:`Friends.upkeep`), waking the games' waiters in every
    process (PostgreSQL's feed tells the others; on SQLite their waits look
    every tick). Costs no statement while nobody waits on a friend's game.
    """
    while True:
        await asyncio.sleep(TICK)
        if friends.upkeep_due():
            try:
                for game_id in await call_store(store, friends.upkeep):
                    events.notify(game_id)
            except StorageError as error:  # Tried again at the next tick.
                _log.warning("presence upkeep: %s", error)


_CONFLICT = {
    "e409": "Not now: offer_refused (a draw or takeback once the game is over, a rematch "
    "before, an offer already pending, no move to take back), no_offer (nothing of the "
    "opponent's to answer), claim_refused (not the opponent's turn, or not away long enough)."
}


_FRIEND_WRITE = {
    **_AUTH,
    "e404": "Game not found, or the player is not part of it.",
    **_CONFLICT,
    **_RATE,
    **_STORAGE,
}
"""The errors an offer, an answer and a claim share: each is a player's act in the game."""


async def _act(
    store: StoreDep,
    friends: Friends,
    events: EventsDep,
    act: Callable[[str, str, str | None, T], R],
    game_id: str,
    player_id: str,
    authorization: str | None,
    argument: T,
) -> R:
    """A player's offer, answer or claim: a flag fall that is due first, then ``act`` with the
    player's token; the game's waiters are told."""
    await _settle(store, friends, events, game_id)
    done = await call_store(store, act, game_id, player_id, _bearer(authorization), argument)
    events.notify(game_id)
    return done


def _status(view: FriendView) -> FriendStatus:
    clock = view.clock
    clock_in = None
    if clock is not None:
        if clock.per_move is not None:
            clock_in = ClockIn(days=round(clock.per_move / 86400))
        else:
            clock_in = ClockIn(minutes=clock.initial / 60, increment=clock.increment)
    status = FriendStatus(
        state="DONE" if view.done else "IN_PROGRESS",
        reason=view.reason,
        moves=view.moves,
        toMove=view.to_move,
        players=[
            FriendPlayer(
                name=player.name,
                present=player.present,
                awayFor=player.away_for,
                clock=player.clock,
            )
            for player in view.players
        ],
        clock=clock_in,
        offer=None if view.offer is None else {"kind": view.offer[0], "by": view.offer[1]},
        previous=view.previous,
        rematch=view.rematch,
        wins=view.wins,
        draws=view.draws,
        claimable=view.claimable,
        version=view.version,
    )
    if view.done:
        status.winner = view.winner
    return status


@router.get(
    "/{gameId}",
    response_model=FriendStatus,
    response_model_exclude_none=True,
    responses=error_responses(
        e400=f"Malformed request: wait not above 0 and at most {MAX_WAIT:g}.",
        **_AUTH,
        e404="Game not found, or player not one of its players.",
        e429=(
            "With wait: the client's address has as many requests waiting as one "
            "address may (too_many_waits). Retry after Retry-After."
        ),
        **_STORAGE,
    ),
)
async def read_friend_game(
    game_id: GameId,
    gone: GoneDep,
    store: StoreDep,
    friends: FriendsDep,
    events: EventsDep,
    client: ClientDep,
    player: Annotated[
        str | None,
        Query(description="The asking player's name: they count as present while it waits."),
    ] = None,
    since: Annotated[
        str | None,
        Query(max_length=64, description="The version last seen: wait for another."),
    ] = None,
    wait: Annotated[
        float | None,
        Query(
            gt=0,
            le=MAX_WAIT,
            allow_inf_nan=False,
            description=f"Seconds to wait (at most {MAX_WAIT:g}) for a version other than since.",
        ),
    ] = None,
    authorization: Authorization = None,
) -> FriendStatus:
    """The game's players (present or away), clocks, offer, rematch and match score.

    With wait, answers as soon as the version differs from since (a move, an
    offer, a player coming or going, a flag fall), else after wait seconds.
    """
    number = None
    if player is not None:
        number = await call_store(
            store, friends.check_player, game_id, player, _bearer(authorization)
        )
        friends.seen(game_id, number)
    # The view records a flag fall that is due, as any read of the game does.
    view = await call_store(store, friends.view, game_id)
    if wait is None or view.version != (since or view.version):
        if number is not None:  # Seen now: the other processes are told (at most a heartbeat).
            await call_store(store, friends.share, game_id, number)
        return _status(view)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    if number is not None:
        friends.waiting(game_id, number, 1)
    try:
        if number is not None:
            # The other processes see this player come back within their next look.
            await call_store(store, friends.share, game_id, number)
            events.notify(game_id)  # The opponent sees this player come back at once.
        with client.waiting(), events.watch(game_id) as watched:
            while loop.time() < deadline and not events.closing:
                seen = watched.generation
                await events.changed(watched, seen, min(TICK, deadline - loop.time()))
                view = await call_store(store, friends.view, game_id)
                if view.version != since or await gone():
                    break
    finally:
        if number is not None:
            friends.waiting(game_id, number, -1)
    return _status(view)


@router.post(
    "/{gameId}/{playerId}/offer",
    response_model=FriendStatus,
    response_model_exclude_none=True,
    dependencies=[Depends(limited("moves"))],
    responses=error_responses(
        e400="Malformed request: kind is not draw, takeback or rematch.",
        **_FRIEND_WRITE,
    ),
)
async def offer(
    game_id: GameId,
    player_id: PlayerId,
    body: OfferIn,
    store: StoreDep,
    friends: FriendsDep,
    events: EventsDep,
    authorization: Authorization = None,
) -> FriendStatus:
    """Offer a draw or a takeback (game in progress) or a rematch (game over); one at a time.

    The opponent sees it in the game's status and accepts or declines it.
    """
    await _act(store, friends, events, friends.offer, game_id, player_id, authorization, body.kind)
    return _status(await call_store(store, friends.view, game_id))


@router.post(
    "/{gameId}/{playerId}/answer",
    response_model=AnswerOut,
    response_model_exclude_none=True,
    dependencies=[Depends(limited("moves"))],
    responses=error_responses(
        e400="Malformed request: accept is not a boolean.",
        **_FRIEND_WRITE,
    ),
)
async def answer(
    game_id: GameId,
    player_id: PlayerId,
    body: AnswerIn,
    store: StoreDep,
    friends: FriendsDep,
    events: EventsDep,
    authorization: Authorization = None,
) -> AnswerOut:
    """Accept or decline the opponent's offer.

    A draw accepted ends the game (DRAW_AGREED); a takeback deletes the
    offerer's last move and any after it from the move list; a rematch makes
    a new game with the colours swapped, the same board, clock and tokens, and
    the match score carried: its id is in the answer and in both players' status.
    """
    made = await _act(
        store, friends, events, friends.answer, game_id, player_id, authorization, body.accept
    )
    return AnswerOut(rematch=made)


@router.post(
    "/{gameId}/{playerId}/claim",
    response_model=FriendStatus,
    response_model_exclude_none=True,
    dependencies=[Depends(limited("moves"))],
    responses=error_responses(
        e400="Malformed request: result is not win or draw.",
        **_FRIEND_WRITE,
    ),
)
async def claim(
    game_id: GameId,
    player_id: PlayerId,
    body: ClaimIn,
    store: StoreDep,
    friends: FriendsDep,
    events: EventsDep,
    authorization: Authorization = None,
) -> FriendStatus:
    """Claim the win (the opponent's move list ends ABANDONED) or a draw (DRAW_CLAIMED).

    Only on the opponent's turn, once they have been away for the service's
    claim time (60 s unless its operator set another).
    """
    await _act(
        store, friends, events, friends.claim, game_id, player_id, authorization, body.result
    )
    return _status(await call_store(store, friends.view, game_id))
