"""Request and response bodies, kept apart from the engine's own types.

Inputs are strict: a JSON integer is an integer, not ``true``, ``"4"`` or
``4.0``, and unknown keys are refused, so a typo is a 400, not a default.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

from .limits import MAX_ANALYSIS_SIZE, MAX_NAME_LENGTH, MAX_PLAYERS, MAX_SIZE, MAX_WINNER_SIZE
from .names import DOT_NAMES, NAME_PATTERN, name_problem

__all__ = [
    "MAX_SIZE",
    "MAX_PLAYERS",
    "MAX_NAME_LENGTH",
    "ERROR_SCHEMA",
    "error_responses",
    "rate_limited",
    "pool_busy",
    "ErrorOut",
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


class GameCreate(_Input):
    """A new game: its players in turn order and its board size."""

    players: list[PlayerName] = Field(
        min_length=2,
        max_length=MAX_PLAYERS,
        json_schema_extra={"uniqueItems": True},
        description="Distinct names, in turn order.",
    )
    columns: BoardSize
    rows: BoardSize
    tokens: StrictBool = Field(
        default=False,
        description=(
            "Ask for one secret token per player: the game's moves and quits then need "
            "the player's token as 'Authorization: Bearer <token>'."
        ),
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
    connect: int = Field(examples=[4], description="Stones in a row that win: always 4.")


class MoveIn(_Input):
    column: StrictInt = Field(examples=[2], description="From 0 at the left.")


class MovePosted(BaseModel):
    move: str = Field(examples=["0f3c.../moves/4"])


class MoveOut(BaseModel):
    """A drop (``MOVE``, with its column) or a quit (``QUIT``, no column key)."""

    type: Literal["MOVE", "QUIT"]
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
