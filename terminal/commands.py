"""In-game commands, turned on by --commands: what a typed line asks for besides a column.

Only the meaning lives here (which key is which command, how far an undo
goes); connect.py prints and plays.
"""

from __future__ import annotations

from engine import Game

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = ["UNDO", "QUIT", "HINT", "HELP", "INTRODUCTION", "HELP_TEXT", "command_for",
           "moves_to_undo"]

UNDO = "undo"
QUIT = "quit"
HINT = "hint"
HELP = "help"
_KEYS = {"u": UNDO, "q": QUIT, "?": HINT, "h": HELP}

INTRODUCTION = "Commands: u undo, q quit, ? hint, h help."
HELP_TEXT = "\n".join(
    [
        "Type a column number to drop your disc there, or a command:",
        "  u  undo the last move (against the computer, back to your previous turn)",
        "  q  quit the game",
        "  ?  hint: the solver's suggested column and how the game stands",
        "  h  this list",
    ]
)


def command_for(text: str) -> str | None:
    """The command a typed line names (either case), or None for anything else.

    >>> command_for("u"), command_for("Q"), command_for("3"), command_for("undo")
    ('undo', 'quit', None, None)
    """
    return _KEYS.get(text.lower())


def moves_to_undo(game: Game, start: int, humans: Collection[int]) -> int:
    """How many moves ``u`` takes back; 0 when there is nothing to undo.

    The computer's replies since the last human move go, then that move,
    so the same human is to move again. Moves before ``start`` (the
    position the game began from) are never taken back.

    >>> game = Game.from_moves("3,4,2")
    >>> moves_to_undo(game, 0, humans={0, 1})   # two players: the last move
    1
    >>> moves_to_undo(game, 0, humans={1})      # O against the computer
    2
    >>> moves_to_undo(game, 2, humans={1})      # O's only move is the start
    0
    """
    history = game.history
    count = 0
    for move in reversed(history[start:]):
        count += 1
        if move.player in humans:
            return count
    return 0
