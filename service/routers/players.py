"""Lobby players (issue 36): a name and a secret key, no password.

``POST /players`` makes one and shows its key once (the service keeps its
SHA-256 only); every call as that player sends ``Authorization: Bearer
<key>``, never in a URL.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path

from ..dependencies import LobbyDep, StoreDep
from ..limits import MAX_NAME_LENGTH
from ..lobby import bearer_key
from ..lobby_rules import Rating, key_digest, new_key
from ..lobby_schemas import PlayerIn, PlayerOut, PlayerRegistered, RatingOut
from ..rate_limits import limited
from ..schemas import error_responses, rate_limited
from ..store_calls import call_store

__all__ = ["KEY_ERRORS", "READ_ERRORS", "STORAGE_ERRORS", "PlayerKey", "player_out", "router"]

router = APIRouter(prefix="/players", tags=["lobby"])

PlayerKey = Annotated[
    str | None,
    Header(
        alias="Authorization",
        description="'Bearer <key>': the key POST /players gave (never put it in a URL).",
    ),
]

KEY_ERRORS = {
    "e401": "No 'Authorization: Bearer <key>' was sent (key_missing), or the key is no "
    "player's (key_rejected)."
}
READ_ERRORS = {"e429": rate_limited("read too much")}
STORAGE_ERRORS = {
    "e503": "The database cannot be used (storage_*); nothing was stored. Retry after Retry-After."
}


def player_out(name: str, bot: bool, ratings: dict[str, Rating]) -> PlayerOut:
    """A player as the API shows them."""
    return PlayerOut(
        name=name,
        bot=bot,
        ratings={
            pool: RatingOut(rating=r.rating, rd=r.rd, volatility=r.volatility, games=r.games)
            for pool, r in ratings.items()
        },
    )


@router.post(
    "",
    status_code=201,
    response_model=PlayerRegistered,
    dependencies=[Depends(limited("games"))],
    responses=error_responses(
        e400=f"Malformed request: name (1 to {MAX_NAME_LENGTH} characters, no '/' or control "
        "character, not '.' or '..'), bot (a boolean).",
        e409="Another player has this name, compared case-folded (name_taken).",
        e429=rate_limited("made too many games and players"),
        **STORAGE_ERRORS,
    ),
)
async def create_player(body: PlayerIn, store: StoreDep) -> PlayerRegistered:
    """Make a lobby player; the answer holds their secret key, shown this once.

    Keep the key: every call as this player sends 'Authorization: Bearer
    <key>'. A player without games in a pool is rated 1500 (RD 350) there.
    """
    key = new_key()
    await call_store(store, store.register_player, body.name, key_digest(key), body.bot)
    return PlayerRegistered(name=body.name, key=key, bot=body.bot)


@router.get(
    "/me",
    response_model=PlayerOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(**KEY_ERRORS, **READ_ERRORS, **STORAGE_ERRORS),
)
async def read_me(store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None) -> PlayerOut:
    """The player whose key is sent, with their ratings by pool."""
    name, _ = await call_store(store, lobby.player, bearer_key(authorization))
    return player_out(*await call_store(store, store.lobby_player, name))


@router.get(
    "/{name}",
    response_model=PlayerOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(
        e404="No player has this name (lobby_player_not_found).", **READ_ERRORS, **STORAGE_ERRORS
    ),
)
async def read_player(
    name: Annotated[str, Path(description="A player's name (case-folded match).")],
    store: StoreDep,
) -> PlayerOut:
    """A player and their ratings by pool (no secret)."""
    return player_out(*await call_store(store, store.lobby_player, name))
