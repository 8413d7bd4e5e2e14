"""The lobby's request and answer bodies (issue 36), with the limits of the rest of the API."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator

from .limits import MAX_SIZE
from .names import name_problem
from .schemas import ChainLength, ClockIn, PlayerName

__all__ = [
    "GameRecordOut",
    "GameTicket",
    "LeaderOut",
    "LeaderboardOut",
    "LiveGameOut",
    "LobbyOut",
    "MyGameOut",
    "MyLobbyOut",
    "PairIn",
    "PairWaiting",
    "PlayerIn",
    "PlayerOut",
    "PlayerRegistered",
    "RatingOut",
    "SeekIn",
    "SeekOut",
]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerIn(_Input):
    """A new lobby player: a name (unique, compared case-folded) and whether it is a bot."""

    name: PlayerName
    bot: StrictBool = False

    @field_validator("name")
    @classmethod
    def _usable(cls, name: str) -> str:
        problem = name_problem(name)
        if problem is not None:
            raise ValueError(f"name {problem}")
        return name


class PlayerRegistered(BaseModel):
    """A player just made: the key is shown this once (the service keeps its SHA-256 only)."""

    name: str
    key: str = Field(description="Secret: send it as 'Authorization: Bearer <key>'.")
    bot: bool


class RatingOut(BaseModel):
    """A Glicko-2 rating in one pool (1500, 350, 0.06, 0 before any game)."""

    rating: float
    rd: float
    volatility: float
    games: int


class PlayerOut(BaseModel):
    """A player and their ratings by pool."""

    name: str
    bot: bool
    ratings: dict[str, RatingOut]


class _Board(_Input):
    rows: StrictInt = Field(default=6, ge=1, le=MAX_SIZE, description=f"1 to {MAX_SIZE}.")
    columns: StrictInt = Field(default=7, ge=1, le=MAX_SIZE, description=f"1 to {MAX_SIZE}.")
    connect: ChainLength = 4
    clock: ClockIn | None = Field(default=None, description="None: untimed.")
    rated: StrictBool = True


class SeekIn(_Board):
    """An open challenge: board, colour wanted, clock, rated."""

    colour: Literal["X", "O", "random"] = "random"


class PairIn(_Board):
    """Play someone now: the board and clock wanted."""


class SeekOut(BaseModel):
    """An open challenge as the lobby lists it."""

    id: str
    by: str
    bot: bool
    rating: float = Field(description="The seeker's rating in the seek's pool.")
    rows: int
    columns: int
    connect: int
    colour: str
    clock: ClockIn | None
    rated: bool
    pool: str


class GameTicket(BaseModel):
    """A lobby game just made, as one of its players learns it: the game and their token."""

    gameId: str
    players: list[str] = Field(description="X first, then O.")
    you: str
    token: str = Field(description="Your token in this game: 'Authorization: Bearer <token>'.")
    pool: str
    rated: bool
    rows: int
    columns: int
    connect: int
    clock: ClockIn | None


class PairWaiting(BaseModel):
    """Nobody fitting waits in the pool yet: you wait (your game comes in GET /lobby/me)."""

    state: Literal["waiting"] = "waiting"


class LiveGameOut(BaseModel):
    """A lobby game in progress, to watch."""

    gameId: str
    players: list[str]
    ratings: list[float]
    pool: str
    rated: bool
    moves: int


class LobbyOut(BaseModel):
    """The lobby: seeks and live games (newest first, 200 each at most), players waiting by
    pool, players online."""

    version: int
    seeks: list[SeekOut]
    live: list[LiveGameOut]
    waiting: dict[str, int]
    online: int


class MyGameOut(BaseModel):
    """One of the player's lobby games: a ticket (token while it runs) and its state."""

    gameId: str
    players: list[str]
    you: str
    token: str | None = None
    pool: str
    rated: bool
    rows: int
    columns: int
    connect: int
    clock: ClockIn | None
    state: Literal["IN_PROGRESS", "DONE"]
    winner: str | None
    reason: str | None
    moves: int


class MyLobbyOut(BaseModel):
    """The player's own feed: games (newest first, 50 at most), seeks, pool waited in."""

    version: int
    name: str
    games: list[MyGameOut]
    seeks: list[SeekOut]
    pairing: str | None


class RatingsBeforeAfter(BaseModel):
    """Both players' ratings before the game, and after it (once a rated game is over)."""

    before: list[RatingOut]
    after: list[RatingOut] | None


class GameRecordOut(BaseModel):
    """A lobby game's record: players, board, clock, moves, result, times and ratings."""

    gameId: str
    players: list[str]
    bots: list[bool]
    pool: str
    rated: bool
    rows: int
    columns: int
    connect: int
    clock: ClockIn | None
    moves: list[int] = Field(description="The columns dropped into, 0-based, quits left out.")
    state: Literal["IN_PROGRESS", "DONE"]
    winner: str | None
    reason: str | None
    started: str
    ended: str | None
    clocks: list[float] | None = Field(
        description="Each player's seconds left after their last move (0: their flag fell); "
        "null for an untimed game."
    )
    ratings: RatingsBeforeAfter


class LeaderOut(BaseModel):
    """One line of a leaderboard."""

    name: str
    bot: bool
    rating: float
    rd: float
    games: int


class LeaderboardOut(BaseModel):
    """A pool's rated players, highest rating first."""

    pool: str
    players: list[LeaderOut]
