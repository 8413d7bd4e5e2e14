"""The drop-token game API (the 98point6 back-end exercise), route for route.

Columns and move numbers count from 0; a move number indexes the full move
list, quits included. Every rule (turns, full columns, wins, draws, quits)
is the engine's; these routes only translate between HTTP and the store.
Beyond the seed: optional player tokens, retries made safe by an
``Idempotency-Key`` header, and paged game lists; each is opt-in, so a
client of the seed API sees the seed API.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Query, Response, status

from connect_four.engine import Move

from ..dependencies import ClientDep, EventsDep, StoreDep
from ..errors import MoveNotFoundError
from ..events import EventHub
from ..limits import (
    MAX_KEY_LENGTH,
    MAX_MOVES_PAGE,
    MAX_NAME_LENGTH,
    MAX_PAGE,
    MAX_PLAYERS,
    MAX_SIZE,
    MAX_STORED_INTEGER,
    MAX_WAIT,
)
from ..long_poll import Reading, wait_for_news
from ..rate_limits import Charge, charge_replays, limited, paid
from ..records import MIN_CONNECT, ClockSetting, GameRecord
from ..repository import GameStore, MarkedMoves
from ..schemas import (
    GameCreate,
    GameCreated,
    GameList,
    GameState,
    MoveIn,
    MoveList,
    MoveOut,
    MovePosted,
    error_responses,
    rate_limited,
)
from ..store_calls import call_store

# Every route may replay a game that left the cache: its cost is charged to the client.
router = APIRouter(
    prefix="/drop_token",
    tags=["drop token"],
    dependencies=[Depends(charge_replays)],
    responses=error_responses(
        e429=rate_limited(
            "made the server replay too many stored moves (games that had left its cache)"
        )
    ),
)

# Any text that names no game is not found (404), whatever it looks like: a
# client cannot know the id format. The store refuses ids that are not 32 hex
# digits before they reach the database.
GameId = Annotated[
    str, Path(alias="gameId", description="The id POST /drop_token gave (32 hex digits).")
]
PlayerId = Annotated[str, Path(alias="playerId", description="A player's name.")]
Authorization = Annotated[
    str | None,
    Header(
        description=(
            "'Bearer <token>': the player's token, for a game created with tokens "
            "(ignored otherwise)."
        )
    ),
]
IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        min_length=1,
        max_length=MAX_KEY_LENGTH,
        description=(
            "Any text unique to this request, to retry it safely: a move or quit already "
            "stored in this game with the same key is answered again as the first time, "
            "and nothing more is stored. The same key with another request is 422."
        ),
    ),
]

_STORAGE = {
    "e503": (
        "The database cannot be used (storage_full, storage_read_only, storage_corrupt, "
        "storage_missing, storage_replaced, storage_busy, storage_unavailable); nothing "
        "was stored. Retry after Retry-After."
    )
}
_AUTH = {
    "e401": "The game was created with tokens and no 'Authorization: Bearer' was sent.",
    "e403": "The token is not this player's.",
}
_RATE = {
    "e429": rate_limited(
        "created too many games, or posted too many moves and quits, or made the server "
        "replay too many stored moves,"
    )
}
_READS = {
    "e429": rate_limited(
        "read too many moves and game ids, or made the server replay too many stored moves,"
    )
}
ReadCharge = Annotated[Charge, Depends(paid("reads"))]
"""What a list's answer holds (its moves or game ids), charged to the client's ``--rate-reads``
before it is sent."""

_KEY = {
    "e422": ("The Idempotency-Key was sent before with another request (idempotency_key_reused).")
}
_PLAYER_WRITE = {
    **_AUTH,
    "e404": "Game not found, or the player is not part of it (or has quit).",
    **_KEY,
    **_RATE,
    **_STORAGE,
}
"""The errors a move and a quit share: both are a player's write to a game."""


async def _write_as_player(
    store: GameStore,
    events: EventHub,
    write: Callable[..., int],
    game_id: str,
    player_id: str,
    authorization: str | None,
    idempotency_key: str | None,
    **arguments: int,
) -> int:
    """A move or a quit: ``write`` with the player's token and retry key; the game's waiters are told."""
    number = await call_store(
        store,
        write,
        game_id=game_id,
        player_id=player_id,
        token=_bearer(authorization),
        key=idempotency_key,
        **arguments,
    )
    events.notify(game_id)
    return number


def _bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


Wait = Annotated[
    float | None,
    Query(
        gt=0,
        le=MAX_WAIT,
        allow_inf_nan=False,
        description=(
            f"Seconds to wait for news, more than 0 and at most {MAX_WAIT:g}: the answer "
            "comes as soon as the game has a move numbered start or later (a quit counts; "
            "start 0 if not given) or is over, else when the time is up, and is then what "
            "the same request without wait answers at that moment. Behind a proxy, ask for "
            "less than its idle timeout (nginx's proxy_read_timeout is 60 s by default)."
        ),
    ),
]


FLAG_TICK = 0.25
"""Seconds between a long poll's looks at a running clock (a flag may fall meanwhile)."""


def _move_out(record: GameRecord, move: Move, reason: str | None = None) -> MoveOut:
    """A move as answered; ``reason``: a game between friends' quit was a TIMEOUT or ABANDONED."""
    player = record.players[move.player]
    if move.column is None:
        if reason == "TIMEOUT":
            return MoveOut(type="TIMEOUT", player=player)
        if reason == "ABANDONED":
            return MoveOut(type="ABANDONED", player=player)
        return MoveOut(type="QUIT", player=player)
    return MoveOut(type="MOVE", player=player, column=move.column)


@router.get(
    "",
    response_model=GameList,
    response_model_exclude_none=True,
    responses=error_responses(
        e400=(
            f"Malformed request: limit not 1 to {MAX_PAGE}, or after not 0 to {MAX_STORED_INTEGER}."
        ),
        **_READS,
        **_STORAGE,
    ),
)
async def read_games(
    store: StoreDep,
    listed: ReadCharge,
    limit: Annotated[
        int | None,
        Query(
            ge=1,
            le=MAX_PAGE,
            description=f"Page size, 1 to {MAX_PAGE} ({MAX_PAGE} if not given).",
        ),
    ] = None,
    after: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_STORED_INTEGER,
            description="The previous page's next: the page starts after that position.",
        ),
    ] = None,
) -> GameList:
    """Return the in-progress games, oldest first: at most limit (1,000) at once.

    When more follow, the answer's next is the after of the next page.
    """
    games, following = await call_store(
        store, store.in_progress_page, after=after or 0, limit=limit or MAX_PAGE
    )
    listed.cost += len(games)
    await listed.settle()
    return GameList(games=games, next=following)


@router.post(
    "",
    response_model=GameCreated,
    response_model_exclude_none=True,
    dependencies=[Depends(limited("games"))],
    responses=error_responses(
        e400=(
            f"Malformed request: players (2 to {MAX_PLAYERS} distinct names of 1 to "
            f"{MAX_NAME_LENGTH} characters, no '/' or control character, not '.' or '..'), "
            f"rows or columns (1 to {MAX_SIZE}), connect ({MIN_CONNECT} to {MAX_SIZE}), "
            "tokens (a boolean); or a chain longer than the board's longer side (bad_rules)."
        ),
        **_RATE,
        **_STORAGE,
    ),
)
async def create_game(body: GameCreate, store: StoreDep) -> GameCreated:
    """Create a new game; four in a row wins on any board size, unless connect says another
    chain (3 to the board's longer side).

    With "tokens": true, the answer also holds one secret token per player;
    the game's moves and quits then need 'Authorization: Bearer <token>'.
    With a clock (minutes and increment, or days a move), the service keeps
    each player's time: see /friend_game.
    """
    clock = None
    if body.clock is not None:
        if body.clock.days is not None:
            clock = ClockSetting(body.clock.days * 86400.0, 0.0, body.clock.days * 86400.0)
        else:
            assert body.clock.minutes is not None  # The schema asks for one or the other.
            clock = ClockSetting(body.clock.minutes * 60.0, float(body.clock.increment))
    created = await call_store(
        store,
        store.create_game,
        players=body.players,
        rows=body.rows,
        columns=body.columns,
        tokens=body.tokens,
        clock=clock,
        connect=body.connect,
    )
    return GameCreated(gameId=created.game_id, tokens=created.tokens)


@router.get(
    "/{gameId}",
    response_model=GameState,
    response_model_exclude_unset=True,
    responses=error_responses(e404="Game not found.", **_STORAGE),
)
async def read_game(game_id: GameId, store: StoreDep) -> GameState:
    """Get the state of the game (no winner key while in progress, null after a draw).

    Beyond the seed, the board: rows, columns, and the stones in a row that win;
    for a game between friends, its clock and how it ended (reason).
    """
    status = await call_store(store, store.read_status, game_id)
    record, outcome = status.record, status.outcome
    players, rows, columns = list(record.players), record.rows, record.columns
    if outcome is None:
        state = GameState(
            players=players, state="IN_PROGRESS", rows=rows, columns=columns, connect=record.connect
        )
    else:
        winner = None if outcome.winner is None else record.players[outcome.winner]
        state = GameState(
            players=players,
            state="DONE",
            winner=winner,
            rows=rows,
            columns=columns,
            connect=record.connect,
        )
    if status.reason is not None:
        state.reason = status.reason
    if status.clocks is not None:
        state.clock = dict(zip(players, status.clocks, strict=True))
    return state


@router.get(
    "/{gameId}/moves",
    response_model=MoveList,
    response_model_exclude_none=True,
    responses=error_responses(
        e400=(
            f"Malformed request: start or until not 0 to {MAX_STORED_INTEGER}; "
            f"until before start (bad_range); wait not above 0 and at most {MAX_WAIT:g}."
        ),
        e404="Game not found, or start is past the last move.",
        e429=(
            "With wait: the client's address has as many requests waiting as one "
            "address may (too_many_waits); or it has read too many moves and game ids "
            "(rate_limited). Retry after Retry-After."
        ),
        **_STORAGE,
    ),
)
async def read_moves(
    game_id: GameId,
    store: StoreDep,
    events: EventsDep,
    client: ClientDep,
    listed: ReadCharge,
    start: Annotated[
        int | None, Query(ge=0, le=MAX_STORED_INTEGER, description="First move number.")
    ] = None,
    until: Annotated[
        int | None,
        Query(
            ge=0,
            le=MAX_STORED_INTEGER,
            description="Last move number, inclusive; not before start; past the end is the end.",
        ),
    ] = None,
    wait: Wait = None,
) -> Response:
    """Get the moves played, or those from start to until inclusive: 500 at most at once.

    When the range holds more, the answer's next is the start of the next page.

    With wait (a long poll: how a client follows a game live, players and
    spectators alike, no token needed), the request waits up to wait
    seconds for a move numbered start or later, and answers as soon as
    there is one (or the game is over). A client that knows n moves asks
    ?start=n&wait=300 again and again: each answer is the next moves, or
    after 300 s of nobody moving the 404 of a start past the end (behind a
    proxy, a wait shorter than its idle timeout: nginx's is 60 s).
    """
    # One more move than a page holds is read, to know whether another page follows.
    first = start or 0
    last = first + MAX_MOVES_PAGE if until is None else min(until, first + MAX_MOVES_PAGE)
    if wait is None:
        read_now = await call_store(store, store.read_marked_moves, game_id, start, last)
        listed.cost += min(len(read_now.moves), MAX_MOVES_PAGE)
        await listed.settle()
        return Response(_move_list_json(read_now, first), media_type="application/json")

    def read() -> Reading[bytes | MoveNotFoundError]:
        """The answer now; news if it holds a move, or if the game is over.

        While a game between friends' clock runs, a flag may fall with nobody
        moving: the wait reads again every FLAG_TICK (a read records a flag
        fall that is due).
        """
        try:
            marked = store.read_marked_moves(game_id, start, last)
        except MoveNotFoundError as error:
            status = store.read_status(game_id)
            ticking = status.clocks is not None and status.outcome is None
            again = FLAG_TICK if ticking else None
            return Reading(error, news=status.outcome is not None, again=again)
        listed.cost += min(len(marked.moves), MAX_MOVES_PAGE)
        body = _move_list_json(marked, first)
        news = bool(marked.moves) or store.read_state(game_id)[1] is not None
        return Reading(body, news=news, again=FLAG_TICK if marked.ticking else None)

    # Counted by the client's address (a trusted proxy's forwarded one):
    # one client cannot hold every place that waiting takes.
    with client.waiting():
        answer = await wait_for_news(
            events, store, game_id, (start, last), read, wait, receive=client.receive
        )
    if isinstance(answer, MoveNotFoundError):
        # A copy: the requests that shared the read must not share one traceback.
        raise MoveNotFoundError(*answer.args)
    await listed.settle()
    return Response(answer, media_type="application/json")


def _move_list_json(read: MarkedMoves, first: int) -> bytes:
    """The :class:`MoveList` of the moves read from number ``first`` on, as JSON: one page,
    and the next's start.

    Written straight from the moves: a page of 500 moves through the models
    cost the server three times as much (tests/service/test_drop_token_api.py
    holds the two to the same bytes). The quits of a game between friends
    that were a flag fall or an abandoned game say so (TIMEOUT, ABANDONED).
    """
    names, reasons = read.record.players, read.reasons
    listed = [
        {"type": "MOVE", "player": names[move.player], "column": move.column}
        if move.column is not None
        else {
            "type": _QUIT_TYPES.get(reasons.get(first + number, ""), "QUIT"),
            "player": names[move.player],
        }
        for number, move in enumerate(read.moves[:MAX_MOVES_PAGE])
    ]
    answer: dict[str, object] = {"moves": listed}
    if len(read.moves) > MAX_MOVES_PAGE:
        answer["next"] = first + MAX_MOVES_PAGE
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


_QUIT_TYPES = {"TIMEOUT": "TIMEOUT", "ABANDONED": "ABANDONED"}
"""A quit's type in a move list, by the reason a game between friends marked it with."""


@router.post(
    "/{gameId}/{playerId}",
    response_model=MovePosted,
    dependencies=[Depends(limited("moves"))],
    responses=error_responses(
        e400="Malformed input, or an illegal move: column full or off the board, game over.",
        e409="It is not this player's turn.",
        **_PLAYER_WRITE,
    ),
)
async def create_move(
    game_id: GameId,
    player_id: PlayerId,
    body: MoveIn,
    store: StoreDep,
    events: EventsDep,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> MovePosted:
    """Post a move: drop the player's token into a column."""
    number = await _write_as_player(
        store,
        events,
        store.play,
        game_id,
        player_id,
        authorization,
        idempotency_key,
        column=body.column,
    )
    return MovePosted(move=f"{game_id}/moves/{number}")


@router.get(
    "/{gameId}/moves/{move_number}",
    response_model=MoveOut,
    response_model_exclude_none=True,
    responses=error_responses(
        e400=f"Malformed request: the move number is not 0 to {MAX_STORED_INTEGER}.",
        e404="Game or move not found.",
        **_STORAGE,
    ),
)
async def read_move(
    game_id: GameId,
    move_number: Annotated[
        int, Path(ge=0, le=MAX_STORED_INTEGER, description="From 0, quits included.")
    ],
    store: StoreDep,
) -> MoveOut:
    """Return the move."""
    record, move, reason = await call_store(store, store.read_marked_move, game_id, move_number)
    return _move_out(record, move, reason)


@router.delete(
    "/{gameId}/{playerId}",
    status_code=status.HTTP_202_ACCEPTED,
    response_class=Response,
    dependencies=[Depends(limited("moves"))],
    responses={
        202: {"description": "The player has quit."},
        **error_responses(
            e400=f"Malformed request: an Idempotency-Key longer than {MAX_KEY_LENGTH} characters.",
            e410="The game is already in DONE state.",
            **_PLAYER_WRITE,
        ),
    },
)
async def delete_player(
    game_id: GameId,
    player_id: PlayerId,
    store: StoreDep,
    events: EventsDep,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> Response:
    """Player quits from game; the last player left wins."""
    await _write_as_player(
        store, events, store.quit, game_id, player_id, authorization, idempotency_key
    )
    return Response(status_code=status.HTTP_202_ACCEPTED)
