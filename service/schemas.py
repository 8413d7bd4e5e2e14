"""Request and response bodies, kept apart from the engine's own types.

Inputs are strict: a JSON integer is an integer, not ``true``, ``"4"`` or
``4.0``, and unknown keys are refused, so a typo is a 400, not a default.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, field_validator

__all__ = [
    "MAX_SIZE",
    "MAX_PLAYERS",
    "MAX_NAME_LENGTH",
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
]

MAX_SIZE = 100
"""The most rows, and the most columns, a drop-token board may have."""

MAX_PLAYERS = 100
"""The most players one drop-token game may have."""

MAX_NAME_LENGTH = 100
"""The longest player name, in characters."""

# A player's name is a path segment of the move URLs, so it holds no "/".
PlayerName = Annotated[
    str,
    Field(
        strict=True,
        min_length=1,
        max_length=MAX_NAME_LENGTH,
        pattern=r"^[^/]+$",
        examples=["player1"],
    ),
]
BoardSize = Annotated[StrictInt, Field(ge=1, le=MAX_SIZE, examples=[4])]


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ErrorOut(BaseModel):
    """Every error response: a code naming the rule, and a sentence."""

    error: str = Field(examples=["not_your_turn"])
    detail: str = Field(examples=["it is player 0's turn, not player 1's"])


# --- Drop token ---------------------------------------------------------------


class GameCreate(_Input):
    """A new game: its players in turn order and its board size."""

    players: list[PlayerName] = Field(min_length=2, max_length=MAX_PLAYERS)
    columns: BoardSize
    rows: BoardSize

    @field_validator("players")
    @classmethod
    def _distinct(cls, players: list[str]) -> list[str]:
        if len(set(players)) != len(players):
            raise ValueError("players must be distinct")
        return players


class GameCreated(BaseModel):
    gameId: str


class GameList(BaseModel):
    games: list[str]


class GameState(BaseModel):
    """``winner`` is left out while the game is in progress, null after a draw."""

    players: list[str]
    state: Literal["IN_PROGRESS", "DONE"]
    winner: str | None = None


class MoveIn(_Input):
    column: StrictInt = Field(examples=[2])


class MovePosted(BaseModel):
    move: str = Field(examples=["0f3c.../moves/4"])


class MoveOut(BaseModel):
    """A drop (``MOVE``, with its column) or a quit (``QUIT``, no column key)."""

    type: Literal["MOVE", "QUIT"]
    player: str
    column: int | None = None


class MoveList(BaseModel):
    moves: list[MoveOut]


# --- Winner check -------------------------------------------------------------


class WinnerIn(_Input):
    """A board string (rows top to bottom, each left to right; A, B or X) and its rules."""

    board: StrictStr = Field(examples=["X" * 35 + "AAAABBB"])
    rows: StrictInt = 6
    columns: StrictInt = 7
    connect: StrictInt = 4
    first: StrictStr = Field(default="A", description='Who moved first: "A" or "B".')


class WinnerOut(BaseModel):
    winner: Literal["A", "B", "X"]
