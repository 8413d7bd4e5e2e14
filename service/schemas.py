"""Request and response bodies, kept apart from the engine's own types.

Inputs are strict: a JSON integer is an integer, not ``true``, ``"4"`` or
``4.0``, and unknown keys are refused, so a typo is a 400, not a default.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
    model_validator,
)

from .limits import (
    MAX_ANALYSIS_SIZE,
    MAX_CLOCK_DAYS,
    MAX_CLOCK_MINUTES,
    MAX_INCREMENT,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_SIZE,
    MAX_WINNER_SIZE,
)
from .names import DOT_NAMES, NAME_PATTERN, name_problem
from .records import CONNECT, MIN_CONNECT

__all__ = [
    "MAX_SIZE",
    "MAX_PLAYERS",
    "MAX_NAME_LENGTH",
    "ERROR_SCHEMA",
    "error_responses",
    "rate_limited",
    "pool_busy",
    "ErrorOut",
    "ClockIn",
    "GameCreate",
    "GameCreated",
    "GameList",
    "GameState",
    "MoveIn",
    "MoveOut",
    "MoveList",
    "MovePosted",
    "WinnerIn",
    "WinnerOut",
    "AnalysisIn",
    "ColumnScoreOut",
    "AnalysisOut",
    "FriendPlayer",
    "FriendStatus",
    "OfferIn",
    "AnswerIn",
    "AnswerOut",
    "ClaimIn",
    "ReviewIn",
    "MoveReviewOut",
    "ReviewOut",
]

# A player's name is a path segment of the move URLs: it holds no "/" (which
# would split it), is not "." or ".." (which a URL's path drops or climbs
# out of), and holds no control character (NUL and the like, which no client
# can type and some log or terminal would act on). Any other character
# travels percent-encoded ("?", "#", "%", spaces and all of Unicode).
PlayerName = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        examples=["player1"],
        json_schema_extra={
            "pattern": NAME_PATTERN,
            "not": {"enum": list(DOT_NAMES)},
            "description": "No '/', no control character, not '.' or '..'; percent-encode it "
            "in a path.",
        },
    ),
]
BoardSize = Annotated[StrictInt, Field(ge=1, le=MAX_SIZE, examples=[4])]
ChainLength = Annotated[
    StrictInt,
    Field(
        ge=MIN_CONNECT,
        le=MAX_SIZE,
        description=f"Stones in a row that win: {MIN_CONNECT} to the board's longer side "
        f"(4 fits any board: on one shorter than 4 every way, games can only be drawn).",
    ),
]
# The limits are the schema's (malformed_request); a chain longer than the board is the
# engine's bad_rules.
# The limit is the schema's (malformed_request); below 1 is the engine's bad_rules.
WinnerSize = Annotated[StrictInt, Field(le=MAX_WINNER_SIZE, description=f"1 to {MAX_WINNER_SIZE}.")]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorOut(BaseModel):
    """Every error response: a code naming the rule, and a sentence."""

    error: str = Field(examples=["not_your_turn"])
    detail: str = Field(examples=["it is player 0's turn, not player 1's"])


ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorOut"}
"""Where the OpenAPI document defines :class:`ErrorOut`."""


def error_responses(**descriptions: str) -> dict[int | str, dict[str, Any]]:
    """OpenAPI responses for error statuses, e.g. ``error_responses(e404="Game not found.")``.

    Always JSON, whatever the route's own answers are (the winner check's
    GET answers plain text, its errors JSON).
    """
    return {
        int(name[1:]): {
            "description": text,
            "content": {"application/json": {"schema": ERROR_SCHEMA}},
        }
        for name, text in descriptions.items()
    }


def rate_limited(asked: str) -> str:
    """A 429's description: the client address has ``asked`` too much (the rate limits)."""
    return (
        f"This client address has {asked} in the last window (rate_limited): try again "
        "after Retry-After seconds."
    )


def pool_busy(workers: int, what: str, waiting: int, code: str) -> str:
    """A 503's description: a worker pool's ``workers`` busy and ``waiting`` queued."""
    return (
        f"{workers} {what} worker(s) busy and {waiting} waiting ({code}): retry after Retry-After."
    )


# --- Drop token ---------------------------------------------------------------


class ClockIn(_Input):
    """A time control: minutes for the game plus an increment a move, or days a move."""

    minutes: float | None = Field(
        default=None,
        gt=0,
        le=MAX_CLOCK_MINUTES,
        allow_inf_nan=False,
        description=f"Minutes each player has for the game (above 0, at most {MAX_CLOCK_MINUTES}).",
    )
    increment: float = Field(
        default=0,
        ge=0,
        le=MAX_INCREMENT,
        allow_inf_nan=False,
        description=f"Seconds added at each of a player's moves (0 to {MAX_INCREMENT}).",
    )
    days: StrictInt | None = Field(
        default=None,
        ge=1,
        le=MAX_CLOCK_DAYS,
        description=f"Correspondence: days for each move (1 to {MAX_CLOCK_DAYS}), instead of minutes.",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> ClockIn:
        if (self.minutes is None) == (self.days is None):
            raise ValueError("a clock has minutes (and an increment) or days, not both")
        if self.days is not None and self.increment:
            raise ValueError("a clock of days a move has no increment")
        return self


class GameCreate(_Input):
    """A new game: its players in turn order, its board size and the chain that wins."""

    players: list[PlayerName] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        json_schema_extra={"uniqueItems": True},
        description="Distinct names, in turn order.",
    )
    columns: BoardSize
    rows: BoardSize
    connect: ChainLength = CONNECT
    tokens: StrictBool = Field(
        default=False,
        description=(
            "Ask for one secret token per player: the game's moves and quits then need "
            "the player's token as 'Authorization: Bearer <token>'."
        ),
    )
    clock: ClockIn | None = Field(
        default=None,
        description="A time control kept by the service (a game between friends); none if "
        "not given. The clock starts with the first move; a flag fall loses.",
    )

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: list[str]) -> list[str]:
        for number, name in enumerate(players):
            problem = name_problem(name)
            if problem is not None:
                raise ValueError(f"name {number} {problem}")
        if len(set(players)) != len(players):
            raise ValueError("players must be distinct")
        return players


class GameCreated(BaseModel):
    """The new game's id; its players' tokens, by name, only if they were asked for."""

    gameId: str
    tokens: dict[str, str] | None = None


class GameList(BaseModel):
    """Ids of games in progress, oldest first; ``next``, only when more follow, starts the next page."""

    games: list[str]
    next: int | None = Field(
        default=None,
        description="Only when more games follow: pass it as 'after' for the next page; "
        "absent on the last.",
    )


class GameState(BaseModel):
    """``winner`` is left out while the game is in progress, null after a draw.

    ``rows``, ``columns`` and ``connect`` go beyond the seed's answer (extra
    keys, which its clients ignore): a player who joins learns the board
    from the service.
    """

    players: list[str]
    state: Literal["IN_PROGRESS", "DONE"]
    winner: str | None = None
    rows: int = Field(examples=[4], description="Rows of the board.")
    columns: int = Field(examples=[4], description="Columns of the board.")
    connect: int = Field(
        examples=[4],
        description="Stones in a row that win: 4 unless the game was created with another.",
    )
    reason: str | None = Field(
        default=None,
        description="Only for a game between friends that ended otherwise than by the seed's "
        "rules: TIMEOUT, ABANDONED (the last move says who), DRAW_AGREED or DRAW_CLAIMED.",
    )
    clock: dict[str, float] | None = Field(
        default=None,
        description="Only for a game with a clock: each player's seconds left, as of the answer.",
    )


class MoveIn(_Input):
    column: StrictInt = Field(examples=[2], description="From 0 at the left.")


class MovePosted(BaseModel):
    move: str = Field(examples=["0f3c.../moves/4"])


class MoveOut(BaseModel):
    """A drop (``MOVE``, with its column) or a quit (``QUIT``, no column key).

    In a game between friends, a quit may be ``TIMEOUT`` (the player's flag
    fell) or ``ABANDONED`` (the player was away and the opponent claimed the win).
    """

    type: Literal["MOVE", "QUIT", "TIMEOUT", "ABANDONED"]
    player: str
    column: int | None = None


class MoveList(BaseModel):
    """Moves in order; ``next``, only when the range asked holds more than one answer
    may, is the ``start`` of the next page."""

    moves: list[MoveOut]
    next: int | None = Field(
        default=None,
        description="Only when more moves follow in the range asked: pass it as 'start' "
        "for the next page; absent on the last.",
    )


# --- Winner check -------------------------------------------------------------


class WinnerIn(_Input):
    """A board string (rows top to bottom, each left to right; A, B or X) and its rules."""

    board: StrictStr = Field(
        max_length=MAX_WINNER_SIZE * MAX_WINNER_SIZE, examples=["X" * 35 + "AAAABBB"]
    )
    rows: WinnerSize = 6
    columns: WinnerSize = 7
    connect: WinnerSize = 4
    first: StrictStr = Field(default="A", description='Who moved first: "A" or "B".')


class WinnerOut(BaseModel):
    """``orderVerified`` is false when the search for an order of turns ran out of budget."""

    winner: Literal["A", "B", "X"]
    orderVerified: bool


# --- Analysis -------------------------------------------------------------------

# The limit is the schema's (malformed_request); below 1 is the engine's bad_rules.
AnalysisSize = Annotated[
    StrictInt, Field(le=MAX_ANALYSIS_SIZE, description=f"1 to {MAX_ANALYSIS_SIZE}.")
]


class AnalysisIn(_Input):
    """A position as the moves that reach it (columns from 0), and its rules."""

    rows: AnalysisSize = Field(examples=[6])
    columns: AnalysisSize = Field(examples=[7])
    connect: AnalysisSize = Field(
        default=4, description="Length of the winning chain, 1 to the longer side."
    )
    moves: list[StrictInt] = Field(
        max_length=MAX_ANALYSIS_SIZE * MAX_ANALYSIS_SIZE,
        examples=[[3, 3, 4]],
        description="The columns played in turn, from 0; the first player moves first.",
    )


class ReviewIn(AnalysisIn):
    """A game to review as its moves (columns from 0), and its rules."""


class MoveReviewOut(BaseModel):
    """One move of the reviewed game, scored for the player who made it.

    ``score`` and ``best`` are exact scores (positive wins, the higher the
    sooner; 0 draws; negative loses, the lower the sooner), null when the
    search could not settle them in its budget; ``verdict`` is null then too.
    """

    number: int = Field(description="The move's number, from 1.")
    player: Literal["first", "second"] = Field(description="Who made it.")
    column: int
    score: int | None
    best: int | None = Field(description="The best score this position offered.")
    best_column: int | None = Field(description="A column that scores best; null if unknown.")
    verdict: Literal["best", "slower", "mistake", "blunder"] | None = Field(
        description="best: as good as the best move; slower: a slower win or a faster loss, "
        "the game's value kept; mistake: a win to a draw, or a draw to a loss; blunder: "
        "a win thrown away for a loss; null: unsettled."
    )


class ReviewOut(BaseModel):
    """Every move of the game, reviewed in the order played."""

    moves: list[MoveReviewOut]


class ColumnScoreOut(BaseModel):
    """One playable column for the player to move.

    ``exact`` true: ``score`` is the exact score (positive wins, the higher
    the sooner; 0 draws; negative loses, the lower the sooner). ``exact``
    false: the search ran out of time, ``score`` is null and ``outlook``
    is only an estimate.
    """

    column: int
    score: int | None
    exact: bool
    outlook: Literal["win", "likely win", "draw", "unclear", "loss", "likely loss"]


class AnalysisOut(BaseModel):
    """The game's state, and while it is in progress every playable column and the best ones."""

    state: Literal["in_progress", "won", "drawn"]
    winner: Literal["first", "second"] | None = Field(
        description="Who won: the player who moved first or second; null unless state is won."
    )
    scores: list[ColumnScoreOut] = Field(description="Empty when the game is over.")
    best: list[int] = Field(
        description="The columns that rank best, nearest the centre first: exact scores "
        "by value; estimates rank win > likely win > draw > unclear > loss > likely loss."
    )


# --- Games between friends ----------------------------------------------------


class FriendPlayer(BaseModel):
    """A player: present or not (and for how long away), and their clock."""

    name: str
    present: bool = Field(description="Whether a request of theirs waits or just came.")
    awayFor: float | None = Field(
        default=None, description="Seconds since they were last seen, while away."
    )
    clock: float | None = Field(
        default=None, description="Seconds left on their clock, as of the answer."
    )


class FriendStatus(BaseModel):
    """A game between friends as its players' clients show it."""

    state: Literal["IN_PROGRESS", "DONE"]
    winner: str | None = Field(default=None, description="Absent in progress; null: a draw.")
    reason: str | None = Field(
        default=None, description="TIMEOUT, ABANDONED, DRAW_AGREED or DRAW_CLAIMED, if so."
    )
    moves: int = Field(description="Moves in the move list (quits included).")
    toMove: str | None = None
    players: list[FriendPlayer]
    clock: ClockIn | None = None
    offer: dict[str, str] | None = Field(
        default=None, description="The offer pending: its kind (draw, takeback, rematch) and by."
    )
    previous: str | None = Field(default=None, description="The game this is a rematch of.")
    rematch: str | None = Field(default=None, description="This game's rematch, once agreed.")
    wins: dict[str, int] = Field(description="The match before this game: wins by player.")
    draws: int = Field(description="The match before this game: its draws.")
    claimable: bool = Field(
        description="Whether the player to move has been away so long that the other may "
        "claim the win or a draw."
    )
    version: str = Field(
        description="Changes whenever anything but the clocks' seconds does: pass it as since "
        "to wait for the next change."
    )


class OfferIn(_Input):
    kind: Literal["draw", "takeback", "rematch"]


class AnswerIn(_Input):
    accept: StrictBool


class AnswerOut(BaseModel):
    rematch: str | None = Field(default=None, description="The new game's id, if one was made.")


class ClaimIn(_Input):
    result: Literal["win", "draw"]
