"""The lobby (issue 36): open challenges, quick pairing, the lobby's and a player's feeds,
lobby games' records and the leaderboard.

A lobby game is a drop-token game with player tokens and friends' extras:
it is played through ``/drop_token/...`` and ``/friend_game/...`` with the
token its ticket gives. The two feeds are long polls (``since`` and
``wait``, as the move list's), woken across processes as moves are; the
lobby's feed is also a stream of Server-Sent Events (``/lobby/events``,
:mod:`connect_four.service.lobby_stream`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Path, Query, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from ..dependencies import ClientDep, EventsDep, LobbyDep, LobbyStreamsDep, StoreDep
from ..errors import StorageError
from ..limits import MAX_STORED_INTEGER, MAX_WAIT
from ..lobby import Lobby, bearer_key
from ..lobby_rules import POOL_PATTERN, new_nonce, seat_token, token_digest_of
from ..lobby_schemas import (
    GameRecordOut,
    GameTicket,
    LeaderboardOut,
    LobbyOut,
    MyLobbyOut,
    PairIn,
    PairWaiting,
    SeekIn,
    SeekOut,
)
from ..lobby_store import LOBBY_KEY, LobbyGame, Spec, player_key
from ..lobby_stream import HEARTBEAT, STREAM_HEADERS, LobbyEventStream
from ..long_poll import Reading, wait_for_news
from ..rate_limits import limited
from ..schemas import error_responses, rate_limited
from ..store_calls import call_store
from .players import KEY_ERRORS, READ_ERRORS, STORAGE_ERRORS, PlayerKey

__all__ = ["MAX_LEADERS", "router"]

MAX_LEADERS = 100
"""Players a leaderboard lists at most."""

router = APIRouter(prefix="/lobby", tags=["lobby"])

Since = Annotated[
    int | None,
    Query(
        ge=0,
        le=MAX_STORED_INTEGER,
        description="The version the client has: an answer comes at once if it differs.",
    ),
]
LobbyWait = Annotated[
    float | None,
    Query(
        gt=0,
        le=MAX_WAIT,
        allow_inf_nan=False,
        description=(
            f"Seconds to wait for a change, more than 0 and at most {MAX_WAIT:g}: the answer "
            "comes as soon as the version differs from since, else when the time is up."
        ),
    ),
]
SeekId = Annotated[str, Path(alias="seekId", description="A seek's id (32 hex digits).")]
LobbyGameId = Annotated[str, Path(alias="gameId", description="A lobby game's id.")]

_RATE = {"e429": rate_limited("made too many games, seeks and pairings")}
_WAITS = {
    "e429": "Too many requests of this client waiting (too_many_waits), or too many reads "
    "(rate_limited): retry after Retry-After."
}
_BAD_BOARD = (
    "Malformed request: rows or columns (1 to 100), connect (3 to 100), colour (X, O or "
    "random), clock (minutes above 0 and at most 600 with an increment of 0 to 600 s, or days "
    "1 to 60), rated (a boolean); or a board the engine refuses, as a chain longer than the "
    "board's longer side (bad_rules)."
)


def _spec(body: SeekIn | PairIn, colour: str = "random") -> Spec:
    clock: dict[str, float] | None = None
    if body.clock is not None:
        if body.clock.days is not None:
            clock = {"days": body.clock.days}
        else:
            assert body.clock.minutes is not None
            clock = {"minutes": body.clock.minutes, "increment": body.clock.increment}
    return Spec(body.rows, body.columns, body.connect, clock, body.rated, colour)


def _ticket(game: LobbyGame, seat: int, key: str) -> dict[str, Any]:
    """The ticket (:class:`GameTicket`) of the player in ``seat`` of ``game``, who sent ``key``."""
    spec = game.spec
    return {
        "gameId": game.game_id,
        "players": list(game.players),
        "you": game.players[seat],
        "token": seat_token(key, game.nonces[seat]),
        "pool": spec.pool,
        "rated": spec.rated,
        "rows": spec.rows,
        "columns": spec.columns,
        "connect": spec.connect,
        "clock": spec.clock,
    }


async def _player(store: Any, lobby: Lobby, authorization: str | None) -> str:
    name, _ = await call_store(store, lobby.player, bearer_key(authorization))
    return name


async def _present(
    store: Any, lobby: Lobby, key: str, wait: float | None
) -> tuple[str, tuple[Lobby, str, float] | None]:
    """The key's player, marked present: for a moment, or (``wait``) while a long poll is
    held, with what :func:`_answer` lets go when it ends."""
    if wait is None:
        name, _ = await call_store(store, lobby.player, key)
        return name, None
    name, until = await call_store(store, lobby.hold, key, wait)
    return name, (lobby, name, until)


def _json(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


# --- The lobby's feed -----------------------------------------------------------

_FEED_ERRORS = {
    "e400": f"Malformed request: since (0 or more), wait (above 0, at most {MAX_WAIT:g}).",
    **KEY_ERRORS,
    **_WAITS,
    **STORAGE_ERRORS,
}
"""The errors the lobby's two feeds share (GET /lobby and GET /lobby/me)."""


async def _answer(
    store: StoreDep,
    events: EventsDep,
    client: ClientDep,
    watched: str,
    seen: object,
    read: Callable[[], Reading[bytes]],
    wait: float | None,
    held: tuple[Lobby, str, float] | None = None,
) -> Response:
    """A feed's answer: ``read`` at once without ``wait``, else a long poll on ``watched``
    holding one of the client's waits; ``held`` (the lobby, the player, their presence's end)
    is let go when the wait ends, so that a client gone counts its presence from then."""
    if wait is None:
        return Response((await call_store(store, read)).answer, media_type="application/json")
    try:
        with client.waiting():
            body = await wait_for_news(
                events, store, watched, seen, read, wait, receive=client.receive
            )
    finally:
        if held is not None:
            lobby, name, until = held
            with contextlib.suppress(StorageError):  # Presence then ends as the wait asked.
                await call_store(store, lobby.let_go, name, until)
    return Response(body, media_type="application/json")


@router.get(
    "",
    response_model=LobbyOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(**_FEED_ERRORS),
)
async def read_lobby(
    store: StoreDep,
    events: EventsDep,
    lobby: LobbyDep,
    client: ClientDep,
    since: Since = None,
    wait: LobbyWait = None,
    authorization: PlayerKey = None,
) -> Response:
    """The lobby: open seeks, live games, players waiting by pool, players online.

    With since and wait (a long poll), the answer waits for the lobby's
    version to differ from since. A player who sends their key is present
    while the request waits (their seeks stay open).
    """
    held = None
    if authorization is not None:
        _, held = await _present(store, lobby, bearer_key(authorization), wait)

    def read() -> Reading[bytes]:
        version, body = lobby.lobby_json()
        return Reading(body, news=since is None or version != since)

    return await _answer(store, events, client, LOBBY_KEY, ("lobby", since), read, wait, held)


@router.get(
    "/events",
    status_code=200,
    response_class=LobbyEventStream,
    description=(
        "The lobby as Server-Sent Events: an event with the whole view (as GET /lobby, its "
        "version as the event's id) at once, then one at each change, for as long as the "
        f"client stays; a comment every {HEARTBEAT:g} s while nothing changes. The stream "
        "holds one of the client's waits (as a long poll) and ends when the server stops."
    ),
    dependencies=[Depends(limited("reads"))],
    responses={
        200: {
            "description": "A stream of Server-Sent Events, one a change of the lobby.",
            "content": {
                STREAM_HEADERS["Content-Type"]: {
                    "schema": {"type": "string"},
                    "example": 'id: 7\ndata: {"version":7,"seeks":[],"live":[],'
                    '"waiting":{},"online":1}\n\n',
                }
            },
        },
        **error_responses(**_WAITS, **STORAGE_ERRORS),
    },
)
async def read_lobby_events(
    streams: LobbyStreamsDep,
    client: ClientDep,
    last_event_id: Annotated[
        str | None,
        Header(
            alias="Last-Event-ID",
            description="The version the client has (a browser sends its last event's id "
            "when it reconnects): the view is not sent again until the lobby changes.",
        ),
    ] = None,
) -> LobbyEventStream:
    """The lobby as Server-Sent Events, from its version now on (see the description)."""
    return LobbyEventStream(streams, client.waiting(), last_event_id)


@router.get(
    "/me",
    response_model=MyLobbyOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(**_FEED_ERRORS),
)
async def read_my_lobby(
    store: StoreDep,
    events: EventsDep,
    lobby: LobbyDep,
    client: ClientDep,
    since: Since = None,
    wait: LobbyWait = None,
    authorization: PlayerKey = None,
) -> Response:
    """The player's own feed: their games (a running game's token included), seeks, pairing.

    With since and wait (a long poll), the answer waits for the player's
    version to differ from since: a game made for them (a seek accepted, a
    pairing) comes at once. The player is present while the request waits.
    """
    key = bearer_key(authorization)
    name, held = await _present(store, lobby, key, wait)

    def read() -> Reading[bytes]:
        view, nonces = store.my_view(name)
        for game, nonce in zip(view["games"], nonces, strict=True):
            if nonce is not None:
                game["token"] = seat_token(key, nonce)
        return Reading(_json(view), news=since is None or view["version"] != since)

    return await _answer(store, events, client, player_key(name), ("me", since), read, wait, held)


# --- Seeks ------------------------------------------------------------------------


@router.post(
    "/seeks",
    status_code=201,
    response_model=SeekOut,
    dependencies=[Depends(limited("games"))],
    responses=error_responses(
        e400=_BAD_BOARD,
        **KEY_ERRORS,
        e409=f"The player has {3} open seeks already (too_many_seeks).",
        **_RATE,
        **STORAGE_ERRORS,
    ),
)
async def create_seek(
    body: SeekIn, store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None
) -> JSONResponse:
    """Open a challenge; it is listed in the lobby until accepted, withdrawn, or its
    creator is gone (no lobby wait and no keyed call for 10 s)."""
    key = bearer_key(authorization)
    name, _ = await call_store(store, lobby.player, key)
    spec = _spec(body, body.colour)
    spec.check()
    nonce = new_nonce()
    seek_id = await call_store(
        store,
        store.create_seek,
        name,
        spec,
        nonce,
        token_digest_of(key, nonce),
        lobby.clock(),
    )
    view, _ = await call_store(store, store.my_view, name)
    seek = next(seek for seek in view["seeks"] if seek["id"] == seek_id)
    return JSONResponse(seek, status_code=201)


@router.delete(
    "/seeks/{seekId}",
    status_code=204,
    responses=error_responses(
        **KEY_ERRORS,
        e404="The player has no open seek with this id (seek_not_found).",
        **STORAGE_ERRORS,
    ),
)
async def delete_seek(
    seek_id: SeekId, store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None
) -> Response:
    """Withdraw one's own seek."""
    name = await _player(store, lobby, authorization)
    await call_store(store, store.delete_seek, name, seek_id)
    return Response(status_code=204)


@router.post(
    "/seeks/{seekId}/accept",
    status_code=201,
    response_model=GameTicket,
    dependencies=[Depends(limited("games"))],
    responses=error_responses(
        **KEY_ERRORS,
        e409="The seek is gone: accepted by another player first, withdrawn, or never "
        "open (seek_gone); or it is your own (own_seek).",
        **_RATE,
        **STORAGE_ERRORS,
    ),
)
async def accept_seek(
    seek_id: SeekId, store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None
) -> JSONResponse:
    """Accept a seek: its game starts for both players at once (the seeker's ticket is
    pushed to their GET /lobby/me). Of two accepts racing, one gets the game."""
    key = bearer_key(authorization)
    name, _ = await call_store(store, lobby.player, key)
    nonce = new_nonce()
    game = await call_store(
        store,
        store.accept_seek,
        name,
        seek_id,
        nonce,
        token_digest_of(key, nonce),
        lobby.clock(),
    )
    return JSONResponse(_ticket(game, game.players.index(name), key), status_code=201)


# --- Quick pairing ----------------------------------------------------------------


@router.post(
    "/pair",
    status_code=201,
    response_model=GameTicket,
    dependencies=[Depends(limited("games"))],
    responses={
        200: {"model": PairWaiting, "description": "Nobody fitting waits yet: you wait."},
        **error_responses(e400=_BAD_BOARD, **KEY_ERRORS, **_RATE, **STORAGE_ERRORS),
    },
)
async def pair(
    body: PairIn, store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None
) -> Response:
    """Play someone now: paired at once (201, your ticket) with the nearest rating waiting
    in the pool, or you wait (200) and your game comes in GET /lobby/me.

    A waiting player accepts a rating gap of 100 points, plus 50 for each second
    waited; colours are drawn at random.
    """
    key = bearer_key(authorization)
    name, _ = await call_store(store, lobby.player, key)
    spec = _spec(body)
    spec.check()
    nonce = new_nonce()
    game = await call_store(
        store, store.pair, name, spec, nonce, token_digest_of(key, nonce), lobby.clock()
    )
    if game is None:
        return JSONResponse(PairWaiting().model_dump(), status_code=200)
    return JSONResponse(_ticket(game, game.players.index(name), key), status_code=201)


@router.delete(
    "/pair",
    status_code=204,
    responses=error_responses(**KEY_ERRORS, **STORAGE_ERRORS),
)
async def unpair(store: StoreDep, lobby: LobbyDep, authorization: PlayerKey = None) -> Response:
    """Stop waiting for a pairing (nothing happens if you were not waiting)."""
    name = await _player(store, lobby, authorization)
    await call_store(store, store.unpair, name)
    return Response(status_code=204)


# --- Records and the leaderboard -------------------------------------------------


@router.get(
    "/games/{gameId}.txt",
    response_class=PlainTextResponse,
    dependencies=[Depends(limited("reads"))],
    responses={
        200: {"content": {"text/plain": {"example": "2026-11-26T08:00:00.000Z 6x7c4 5+3 rated"}}},
        **error_responses(e404="No lobby game has this id.", **READ_ERRORS, **STORAGE_ERRORS),
    },
)
async def read_game_text(game_id: LobbyGameId, store: StoreDep) -> PlainTextResponse:
    """A lobby game as one line of text: start, pool, rated or casual, players with their
    ratings, result, reason, and the moves as 1-based columns."""
    record = await call_store(store, store.lobby_game, game_id)
    return PlainTextResponse(record_line(record) + "\n")


def record_line(record: dict[str, Any]) -> str:
    """The one-line text record of a lobby game (see :func:`read_game_text`)."""
    x, o = record["players"]
    before = record["ratings"]["before"]
    if record["state"] != "DONE":
        result = "*"
    elif record["winner"] is None:
        result = "1/2-1/2"
    else:
        result = "1-0" if record["winner"] == x else "0-1"
    moves = " ".join(str(column + 1) for column in record["moves"])
    line = (
        f"{record['started']} {record['pool']} {'rated' if record['rated'] else 'casual'} "
        f"{x} ({before[0]['rating']:.0f}) - {o} ({before[1]['rating']:.0f}) {result} "
        f"{record['reason'] or '*'}"
    )
    return f"{line} {moves}" if moves else line


@router.get(
    "/games/{gameId}",
    response_model=GameRecordOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(e404="No lobby game has this id.", **READ_ERRORS, **STORAGE_ERRORS),
)
async def read_game(game_id: LobbyGameId, store: StoreDep) -> Response:
    """A lobby game's record: players, board, clock, moves (0-based columns), result,
    times, and the ratings before and after (after: once a rated game is over)."""
    return Response(
        _json(await call_store(store, store.lobby_game, game_id)), media_type="application/json"
    )


@router.get(
    "/leaderboard",
    response_model=LeaderboardOut,
    dependencies=[Depends(limited("reads"))],
    responses=error_responses(
        e400=f"Malformed request: pool (a pool's name, e.g. '6x7c4 5+3'), limit (1 to {MAX_LEADERS}).",
        **READ_ERRORS,
        **STORAGE_ERRORS,
    ),
)
async def read_leaderboard(
    store: StoreDep,
    pool: Annotated[
        str,
        Query(
            max_length=100,
            pattern=POOL_PATTERN,
            description="A pool: board, chain and time control, e.g. '6x7c4 5+3', '6x7c4 untimed'.",
        ),
    ] = "6x7c4 untimed",
    limit: Annotated[int, Query(ge=1, le=MAX_LEADERS)] = 20,
) -> LeaderboardOut:
    """The players with rated games in a pool, highest rating first."""
    players = await call_store(store, store.leaderboard, pool, limit)
    return LeaderboardOut.model_validate({"pool": pool, "players": players})
